"""Reading and assembling Gemini CLI recordings against Claude Code transcripts, MB/s.

Gemini: the real recordings in ``tests/data/agents/gemini/real`` (and a 3.7 MB one when given
as an argument); Claude: the three largest transcripts of ``../shared/corpus``. Both read from
bytes in memory and assembled into a :class:`~cclens.model.session.Session` in the same run;
medians of 7 rounds, and their ratio.

    PYTHONPATH=src python3 benchmarks/gemini_read.py [extra-gemini-file ...]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from cclens.readers.claude.assemble import assemble_entries
from cclens.readers.claude.read import read_data
from cclens.readers.gemini import Located, assemble_chat, read_chat_data

ROOT = Path(__file__).resolve().parent.parent
ROUNDS = 7


def _claude(files: list[tuple[Path, bytes]]) -> None:
    for path, data in files:
        result = read_data(path, data)
        assemble_entries(path, result.entries, result.diagnostics, session_id="s", project="p")


def _gemini(files: list[tuple[Path, bytes]]) -> None:
    for path, data in files:
        assemble_chat(read_chat_data(path, data), Located("p"))


def _rate(run: object, files: list[tuple[Path, bytes]]) -> float:
    size = sum(len(data) for _, data in files) / 1e6
    times = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        run(files)  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return size / statistics.median(times)


def main() -> None:
    gemini_paths = sorted((ROOT / "tests/data/agents/gemini/real").glob("*.json"))
    gemini_paths += [Path(p) for p in sys.argv[1:]]
    corpus = sorted(
        (ROOT.parent / "shared" / "corpus").rglob("*.jsonl"), key=lambda p: -p.stat().st_size
    )
    gemini = [(p, p.read_bytes()) for p in gemini_paths]
    claude = [(p, p.read_bytes()) for p in corpus[:3]]
    claude_rate = _rate(_claude, claude)
    gemini_rate = _rate(_gemini, gemini)
    print(f"claude  {sum(len(d) for _, d in claude) / 1e6:6.2f} MB  {claude_rate:7.1f} MB/s")
    print(f"gemini  {sum(len(d) for _, d in gemini) / 1e6:6.2f} MB  {gemini_rate:7.1f} MB/s")
    print(f"gemini/claude  {gemini_rate / claude_rate:.2f}")


if __name__ == "__main__":
    main()
