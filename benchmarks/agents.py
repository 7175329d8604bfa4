"""Indexing throughput by agent: Codex CLI's rollout files against Claude Code's transcripts,
in the same run, on corpora of the same size.

Usage: ``python benchmarks/agents.py [--size-mb 100] [--runs 3] [--workers 2] [--work DIR]``

Both corpora are built by replicating real files with fresh ids until they reach ``--size-mb``:
Claude Code's from the shared corpus (``../shared/corpus``), Codex CLI's from the test files
(``tests/data/agents/codex``: real rollout files of public repositories and the synthetic
ones). Every uuid in a file and its name gets a new value per replica, so each replica is a
session of its own. Each run indexes each corpus cold (a new index file) with ``--workers``
worker processes, Codex first then Claude, and the runs alternate so that a machine busy with
other work slows both alike.

Printed: per agent the corpus (files, MB), the median and each run's seconds and MB/s, and the
ratio of Codex's throughput to Claude's. Claude Code's sessions go through the index's fast
path (its view and derivation of a session straight from the records); every other agent's
through its reader and the pure functions over an assembled session (``index/extract.py``),
so the ratio is what that generality costs.
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

ROOT = Path(__file__).resolve().parents[1]
CLAUDE_CORPUS = ROOT.parent / "shared" / "corpus"
CODEX_FILES = ROOT / "tests" / "data" / "agents" / "codex"
_IDS = re.compile(rb"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_NAMESPACE = uuid.UUID("3d8b2f64-5c1a-4e7b-8f0a-9b2c6d4e1a73")


def _fresh(replica: int) -> Callable[[re.Match[bytes]], bytes]:
    def replace(match: re.Match[bytes]) -> bytes:
        return str(uuid.uuid5(_NAMESPACE, f"{replica}:{match.group(0).decode()}")).encode()

    return replace


def _replicate_once(
    sources: list[tuple[Path, Path]], target: Path, replica: int
) -> tuple[int, int]:
    """One copy of ``sources`` (file, path under ``target``) with fresh ids in its content and
    name; the files and bytes written."""
    replace = _fresh(replica)
    files = written = 0
    for source, relative in sources:
        data = _IDS.sub(replace, source.read_bytes())
        path = target / _IDS.sub(replace, str(relative).encode()).decode()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        files += 1
        written += len(data)
    return files, written


def _build(
    sources: Callable[[int], list[tuple[Path, Path]]], target: Path, size: int
) -> tuple[int, int]:
    files = written = replica = 0
    while written < size:
        found, count = _replicate_once(sources(replica), target, replica)
        files += found
        written += count
        replica += 1
    return files, written


def claude_corpus(target: Path, size: int) -> tuple[int, int]:
    """Claude Code's transcripts (subagent files beside their sessions), each replica's
    projects folders of their own."""
    found = sorted(CLAUDE_CORPUS.rglob("*.jsonl"))

    def sources(replica: int) -> list[tuple[Path, Path]]:
        listed = []
        for path in found:
            parts = path.relative_to(CLAUDE_CORPUS).parts
            # A subagent's file stays under its session's folder (<session>/subagents/...).
            cut = parts.index("subagents") - 1 if "subagents" in parts else len(parts) - 1
            project = f"-r{replica}-" + "-".join(parts[:cut])
            listed.append((path, Path("projects", project, *parts[cut:])))
        return listed

    return _build(sources, target, size)


def codex_corpus(target: Path, size: int) -> tuple[int, int]:
    """Codex CLI's rollout files: each replica's threads with new ids, in one home."""
    found: list[tuple[Path, Path]] = []
    for kind in ("real", "synthetic"):
        base = CODEX_FILES / kind
        for path in sorted(base.rglob("*.jsonl")):
            relative = path.relative_to(base)
            found.append((path, Path(*relative.parts[1:]) if kind == "real" else relative))
    return _build(lambda replica: found, target, size)


def index_seconds(root: Path, work: Path, workers: int) -> float:
    database = work / "index.db"
    for leftover in work.glob("index.db*"):
        leftover.unlink()
    started = time.perf_counter()
    report = Index(database).update([root], workers=workers)
    seconds = time.perf_counter() - started
    assert not report.errors, report.errors
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size-mb", type=float, default=100.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--work", type=Path, default=None)
    options = parser.parse_args()
    work = options.work or Path(tempfile.mkdtemp(prefix="cclens-agents-"))
    size = int(options.size_mb * 1_000_000)
    corpora: dict[str, tuple[Path, int, int]] = {}
    for agent, build in (("codex", codex_corpus), ("claude", claude_corpus)):
        root = work / agent
        if root.exists():
            shutil.rmtree(root)
        files, written = build(root, size)
        corpora[agent] = (root, files, written)
        print(f"{agent}: {files:,} files, {written / 1e6:.1f} MB", flush=True)
    times: dict[str, list[float]] = {agent: [] for agent in corpora}
    for run in range(options.runs):
        order = list(corpora) if run % 2 == 0 else list(reversed(corpora))
        for agent in order:
            root, _, _ = corpora[agent]
            (work / f"db-{agent}").mkdir(exist_ok=True)
            seconds = index_seconds(root, work / f"db-{agent}", options.workers)
            times[agent].append(seconds)
            print(f"  run {run + 1} {agent}: {seconds:.2f} s", flush=True)
    rates: dict[str, float] = {}
    for agent, (_, files, written) in corpora.items():
        median = statistics.median(times[agent])
        rates[agent] = written / 1e6 / median
        each = ", ".join(f"{written / 1e6 / s:.1f}" for s in times[agent])
        print(
            f"{agent}: {written / 1e6:.1f} MB in {files:,} files, median {median:.2f} s, "
            f"{rates[agent]:.1f} MB/s (runs: {each} MB/s; {options.workers} workers)"
        )
    print(f"codex / claude throughput: {rates['codex'] / rates['claude']:.2f}")
    if options.work is None:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
