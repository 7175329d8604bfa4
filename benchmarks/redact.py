"""Redaction throughput on transcript text, with and without secrets in it.

Usage: ``python benchmarks/redact.py [CORPUS] [--repeat N]`` (default: ../shared/corpus).

Three inputs, each timed as the median of several runs of a fresh ``Redactor``:
``text()`` over every string of the corpus joined together, the same text with fake provider
secrets spliced in every few kilobytes, and ``json()`` over every corpus record. Two baselines
are measured in the same run: a plain ``str.lower()`` pass over the same text (the cost of
merely touching every character once in Python), and the same three inputs through the engine
as it was before it was made fast (``tests/redact_reference.py``, which the tests prove gives
the same output), with the speed-up of the current one over it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

from cclens.redact import Redactor

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.redact_reference import ReferenceRedactor

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "corpus"
FAKE_SECRETS = (
    "sk-ant-api03-" + "Q7f2Lx9Pw3Rt6Yb1Nc8Vd4Zs5Hg0Jk2Mm7Aa9Ee3Uu6Ii1Oo4Pp8" + "-AbCdEfGh",
    "AKIA" + "Z7QW3RT5YU8IO2PA",
    "ghp_" + "x4R9kLm2Qp7Tz1Wn8Vb3Hc6Jd0Fs5Ga9Ek2M",
    "xoxb-" + "1234567890-0987654321-" + "Zq8Wx7Ec6Rv5Tb4Yn3Um2Ik",
)


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for child in value.values():
            yield from strings(child)
    elif isinstance(value, list):
        for child in value:
            yield from strings(child)


def median_seconds(function: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    records: list[Any] = []
    for path in sorted(args.corpus.rglob("*.jsonl")):
        for line in path.read_bytes().splitlines():
            try:
                records.append(json.loads(line))
            except ValueError:
                continue
    text = "\n".join(s for record in records for s in strings(record))
    step = 4000
    seeded = "".join(
        text[i : i + step] + "\n" + FAKE_SECRETS[(i // step) % len(FAKE_SECRETS)] + "\n"
        for i in range(0, len(text), step)
    )
    megabytes = len(text.encode()) / 1e6
    rows: list[tuple[str, Callable[[type[Any]], object], float]] = [
        ("text() on corpus strings", lambda engine: engine().text(text), megabytes),
        ("text() with secrets spliced", lambda engine: engine().text(seeded), len(seeded) / 1e6),
        ("json() over every record", lambda engine: engine().json(records), megabytes),
    ]
    print(f"input: {len(records)} records, {megabytes:.1f} MB of strings, median of {args.repeat}")
    print(f"load average: {' '.join(f'{value:.2f}' for value in os.getloadavg())}")
    seconds = median_seconds(lambda: text.lower(), args.repeat)
    print(f"{'str.lower() baseline':30} {seconds * 1000:9.1f} ms {megabytes / seconds:9.1f} MB/s")
    print(f"{'':30} {'before':>12} {'':>9} {'now':>12} {'':>9} speed-up")
    for name, function, size in rows:
        before = median_seconds(partial(function, ReferenceRedactor), args.repeat)
        now = median_seconds(partial(function, Redactor), args.repeat)
        print(
            f"{name:30} {before * 1000:9.1f} ms {size / before:6.1f} MB/s "
            f"{now * 1000:9.1f} ms {size / now:6.1f} MB/s {before / now:6.1f}x"
        )


if __name__ == "__main__":
    main()
