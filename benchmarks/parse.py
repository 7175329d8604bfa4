"""Parse-and-assemble throughput beside plain msgspec JSON decoding of the same bytes.

Usage: ``python benchmarks/parse.py [PATH ...] [--repeat N]`` (default: ../shared/corpus).

Both sides read every transcript file from disk (warm cache) line by line; the baseline only
decodes each line with ``msgspec.json.decode`` into Python objects, cclens reads, decodes into
the typed model (keeping unknown fields), and assembles sessions (merged responses, paired tool
calls, branches, titles). Prints the median of several runs and the ratio cclens / baseline
(the aim is at least 0.4).
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import msgspec

from cclens.readers.claude import discover, load

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def plain_decode(paths: list[Path]) -> int:
    decode = msgspec.json.decode
    count = 0
    for path in paths:
        with path.open("rb") as handle:
            for line in handle:
                if not line.strip():
                    continue
                with contextlib.suppress(msgspec.DecodeError, UnicodeDecodeError):
                    decode(line)
                count += 1
    return count


def timed(function: Callable[[], object], repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path, default=[DEFAULT])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()

    found = discover(*args.paths)
    files = [s.path for s in found.sessions]
    files += [a.path for a in found.subagent_files]
    size = sum(p.stat().st_size for p in files)

    def cclens_parse() -> None:
        for file in found.sessions:
            load(file)

    plain_decode(files)  # warm the page cache and imports
    cclens_parse()
    baseline = statistics.median(timed(lambda: plain_decode(files), args.repeat))
    ours = statistics.median(timed(cclens_parse, args.repeat))
    megabytes = size / 1e6
    print(f"input: {len(files)} files, {megabytes:.1f} MB, median of {args.repeat} runs")
    print(f"plain msgspec decode:   {baseline * 1000:8.1f} ms  {megabytes / baseline:8.1f} MB/s")
    print(f"cclens parse+assemble:  {ours * 1000:8.1f} ms  {megabytes / ours:8.1f} MB/s")
    print(f"ratio (cclens / plain throughput): {baseline / ours:.2f}  (aim: >= 0.40)")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
