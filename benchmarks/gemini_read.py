"""Gemini CLI and Copilot CLI against Claude Code, MB/s: reading and assembling a session, and
indexing it (read, assemble, digest, search documents, write), in the same run.

Corpora, built in a temporary folder (or ``--work DIR``, kept and reused):

* Gemini: the real recordings of ``tests/data/agents/gemini/real`` copied under a Gemini home
  (``tmp/<project>/chats/``) ``--copies`` times, each copy with fresh session and message ids;
* Copilot: the synthetic logs of ``tests/data/agents/copilot/synthetic`` likewise (no real log
  is public);
* Claude Code: the transcripts of ``../shared/corpus`` of a size like the Gemini recordings'
  (40 to 400 kB), copied with fresh ids up to the Gemini corpus's size.

Printed: for each agent, its size, the read-and-assemble rate (medians of ``--rounds``, from
bytes in memory) and the cold index rate (``Index.update`` into a new file, one worker process,
medians of ``--rounds``), and each agent's rates over Claude Code's.

    PYTHONPATH=src python3 benchmarks/gemini_read.py [--copies 40] [--rounds 5] [--work DIR]
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from cclens.index import Index
from cclens.readers.claude.assemble import assemble_entries
from cclens.readers.claude.read import read_data
from cclens.readers.copilot import assemble_events, read_events
from cclens.readers.gemini import Located, assemble_chat, read_chat_data

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
_IDS = re.compile(rb"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_CLAUDE_IDS = re.compile(
    rb"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
    rb"|(?:msg|req|toolu)_[0-9A-Za-z]{8,}"
)
_NAMESPACE = uuid.UUID("0c6f4b7e-2f0a-4f4e-9a51-5b3b3f7f2a11")


def _fresh_claude(data: bytes, copy: int) -> bytes:
    """A Claude Code transcript with fresh uuids and message, request and call ids."""

    def replace(match: re.Match[bytes]) -> bytes:
        old = match.group(0)
        made = uuid.uuid5(_NAMESPACE, f"{copy}:{old!r}")
        if old[:1] in (b"m", b"r", b"t"):
            prefix = old.split(b"_", 1)[0]
            return prefix + b"_" + made.hex[: len(old) - len(prefix) - 1].encode()
        return str(made).encode()

    return _CLAUDE_IDS.sub(replace, data)


def _fresh(data: bytes, copy: int) -> bytes:
    return _IDS.sub(lambda m: str(uuid.uuid5(_NAMESPACE, f"{copy}:{m.group(0)!r}")).encode(), data)


def build(work: Path, copies: int) -> dict[str, Path]:
    """The three corpora under ``work`` (reused when already there)."""
    roots = {
        "gemini": work / "gemini-home",
        "copilot": work / "copilot-home",
        "claude": work / "claude",
    }
    if all(root.exists() for root in roots.values()):
        return roots
    shutil.rmtree(work, ignore_errors=True)
    real = sorted((ROOT / "tests/data/agents/gemini/real").glob("*.json"))
    logs = sorted((ROOT / "tests/data/agents/copilot/synthetic").rglob("events.jsonl"))
    size = 0
    for copy in range(copies):
        for number, path in enumerate(real):
            chats = roots["gemini"] / "tmp" / f"project-{number}" / "chats"
            chats.mkdir(parents=True, exist_ok=True)
            data = _fresh(path.read_bytes(), copy)
            (chats / f"session-2026-01-01T00-00-{copy:04d}{number:04d}.json").write_bytes(data)
            size += len(data)
        for log in logs:
            session = str(uuid.uuid5(_NAMESPACE, f"{copy}:{log}"))
            folder = roots["copilot"] / "session-state" / session
            folder.mkdir(parents=True)
            (folder / "events.jsonl").write_bytes(_fresh(log.read_bytes(), copy))
    # Claude Code: its transcripts of a size like the Gemini recordings' (40 to 400 kB), copied
    # with fresh ids until the corpus is as large, so that both pay the same per-session costs.
    sources = [
        path
        for path in sorted(CORPUS.rglob("*.jsonl"))
        if 40_000 <= path.stat().st_size <= 400_000
        and "subagents" not in path.parts
        and not path.name.startswith("agent-")
    ]
    taken = copy = 0
    while taken < size and sources:
        folder = roots["claude"] / "projects" / f"corpus-{copy}"
        folder.mkdir(parents=True)
        for path in sources:
            data = _fresh_claude(path.read_bytes(), copy)
            name = _fresh(path.name.encode(), copy).decode()
            (folder / name).write_bytes(data)
            taken += len(data)
        copy += 1
    return roots


def _files(root: Path, pattern: str) -> list[tuple[Path, bytes]]:
    return [(path, path.read_bytes()) for path in sorted(root.rglob(pattern))]


def _median_rate(run: Callable[[], None], size: int, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return size / 1e6 / statistics.median(times)


def _read_rates(roots: dict[str, Path], rounds: int) -> dict[str, tuple[int, float]]:
    gemini = _files(roots["gemini"], "*.json")
    copilot = _files(roots["copilot"], "events.jsonl")
    claude = _files(roots["claude"], "*.jsonl")

    def run_gemini() -> None:
        for path, data in gemini:
            assemble_chat(read_chat_data(path, data), Located("p"))

    def run_copilot() -> None:
        for path, data in copilot:
            assemble_events(read_events(path, data), "p")

    def run_claude() -> None:
        for path, data in claude:
            result = read_data(path, data)
            assemble_entries(path, result.entries, result.diagnostics, session_id="s", project="p")

    rates = {}
    for name, files, run in (
        ("claude", claude, run_claude),
        ("gemini", gemini, run_gemini),
        ("copilot", copilot, run_copilot),
    ):
        size = sum(len(data) for _, data in files)
        rates[name] = (size, _median_rate(run, size, rounds))
    return rates


def _index_rate(root: Path, size: int, rounds: int, work: Path) -> float:
    times = []
    for round_ in range(rounds):
        db = work / f"index-{root.name}-{round_}.db"
        db.unlink(missing_ok=True)
        start = time.perf_counter()
        with Index(db) as index:
            index.update([root], workers=1)
        times.append(time.perf_counter() - start)
        db.unlink(missing_ok=True)
    return size / 1e6 / statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--copies", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--work", type=Path)
    arguments = parser.parse_args()
    temporary = None
    work = arguments.work
    if work is None:
        temporary = tempfile.TemporaryDirectory()
        work = Path(temporary.name)
    try:
        roots = build(work, arguments.copies)
        reads = _read_rates(roots, arguments.rounds)
        indexed = {
            name: _index_rate(roots[name], reads[name][0], arguments.rounds, work)
            for name in ("claude", "gemini", "copilot")
        }
        print(
            f"{'agent':8} {'MB':>6} {'read MB/s':>10} {'index MB/s':>11} "
            f"{'read/claude':>12} {'index/claude':>13}"
        )
        for name in ("claude", "gemini", "copilot"):
            size, rate = reads[name]
            print(
                f"{name:8} {size / 1e6:6.2f} {rate:10.1f} {indexed[name]:11.1f} "
                f"{rate / reads['claude'][1]:12.2f} {indexed[name] / indexed['claude']:13.2f}"
            )
    finally:
        if temporary is not None:
            temporary.cleanup()


if __name__ == "__main__":
    main()
