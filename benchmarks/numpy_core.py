"""Is numpy worth its 74 MB in a plain install? The search's array work, with numpy and without.

``cclens search`` ranks every matching text of a query: it sorts the hits by rank (newest first
among equals), keeps the best piece of each text, then counts them by project, kind, tool,
month and session for the facets. This script does that work on made-up hits, the way
``cclens.index.read.search`` does it with numpy, and the same way with the standard library
only (``array``, ``sorted``, ``Counter``), and prints the median time of each for several hit
counts (a common word in a large index matches hundreds of thousands of texts), with the
ratio.

    python benchmarks/numpy_core.py [--repeat 7]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from array import array
from collections import Counter
from collections.abc import Callable
from functools import partial
from itertools import chain

import numpy as np

SIZES = (10_000, 100_000, 1_000_000)


def made_up(size: int, seed: int = 7) -> tuple[list[tuple[int, float]], dict[str, list[int]]]:
    """``size`` hits ``(rowid, bm25)`` among ``3 * size`` documents, and the facts of every
    document (part, project, kind, tool, month, session), the document ``rowid`` at position
    ``rowid // 3``."""
    rng = random.Random(seed)
    rows = [(rowid, -rng.random() * 20) for rowid in rng.sample(range(size * 3), size)]
    documents = size
    facts = {
        "part": [rng.randrange(documents // 2) for _ in range(documents)],
        "project": [rng.randrange(40) for _ in range(documents)],
        "kind": [rng.randrange(6) for _ in range(documents)],
        "tool": [rng.randrange(30) for _ in range(documents)],
        "month": [rng.randrange(24) for _ in range(documents)],
        "session": [rng.randrange(documents // 50 + 1) for _ in range(documents)],
    }
    return rows, facts


def with_numpy(rows: list[tuple[int, float]], facts: dict[str, np.ndarray]) -> int:
    """As the search does it: the facts of every document are kept as arrays (loaded once per
    process), the hits' rows read with ``fromiter`` and the facts gathered by position."""
    flat = np.fromiter(chain.from_iterable(rows), dtype=np.float64, count=2 * len(rows))
    rowid = flat[0::2].astype(np.int64)
    score = flat[1::2]
    order = np.lexsort((-rowid, score))
    rowid = rowid[order]
    position = rowid // 3  # where each document's facts are (see made_up)
    columns = {name: values[position] for name, values in facts.items()}
    _, first = np.unique(columns["part"], return_index=True)
    keep = np.sort(first)
    kept = {name: values[keep] for name, values in columns.items()}
    found = 0
    for name in ("project", "tool", "month", "session"):
        values, counts = np.unique(kept[name], return_counts=True)
        found += len(values) + int(counts.max(initial=0))
    found += int(np.bincount(kept["kind"], minlength=6).max())
    return found


def with_stdlib(rows: list[tuple[int, float]], facts: dict[str, array[int]]) -> int:
    """The same with the standard library: facts kept as ``array('q')``, gathered in Python."""
    order = sorted(rows, key=lambda row: (row[1], -row[0]))
    positions = [rowid // 3 for rowid, _ in order]
    columns = {name: [values[i] for i in positions] for name, values in facts.items()}
    seen: set[int] = set()
    keep: list[int] = []
    for position, part in enumerate(columns["part"]):
        if part not in seen:
            seen.add(part)
            keep.append(position)
    kept = {name: [values[i] for i in keep] for name, values in columns.items()}
    found = 0
    for name in ("project", "tool", "month", "session"):
        counts = Counter(kept[name])
        found += len(counts) + max(counts.values(), default=0)
    found += max(Counter(kept["kind"]).values(), default=0)
    return found


def median_seconds(work: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    repeat = parser.parse_args().repeat
    print(f"{'hits':>10}  {'numpy':>10}  {'stdlib':>10}  {'stdlib / numpy':>14}")
    for size in SIZES:
        rows, facts = made_up(size)
        arrays = {name: np.asarray(values, dtype=np.int64) for name, values in facts.items()}
        packed = {name: array("q", values) for name, values in facts.items()}
        assert with_numpy(rows, arrays) == with_stdlib(rows, packed)
        fast = median_seconds(partial(with_numpy, rows, arrays), repeat)
        slow = median_seconds(partial(with_stdlib, rows, packed), repeat)
        print(f"{size:>10,}  {fast * 1000:>8.1f}ms  {slow * 1000:>8.1f}ms  {slow / fast:>13.1f}x")


if __name__ == "__main__":
    main()
