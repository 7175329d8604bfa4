"""Indexing throughput by agent: Codex CLI's rollout files and Gemini CLI's recordings against
Claude Code's transcripts, in the same run, on corpora of the same size.

Usage: ``python benchmarks/agents.py [--size-mb 100] [--runs 3] [--workers 2] [--work DIR]
[--agents codex gemini]``

Every corpus is built by replicating real files with fresh ids until it reaches ``--size-mb``:
Claude Code's from the shared corpus (``../shared/corpus``), Codex CLI's from the test files
(``tests/data/agents/codex``: real rollout files of public repositories and the synthetic
ones), Gemini CLI's from its real recordings (``tests/data/agents/gemini/real``), each
replica's under a project of its own. Every uuid in a file and its name gets a new value per
replica (and every Codex call id: Codex's replicas share their projects), so each replica is a
session of its own that shares nothing with the others. Each run indexes each corpus cold (a new
index file) with ``--workers`` worker processes, the corpora in turn, their order turned
around from one run to the next so that a machine busy with other work slows them alike.

Printed: per agent the corpus (files, MB), the median and each run's seconds and MB/s, the
median CPU time of the process and its workers (steadier than the time on a busy machine) as
MB per CPU second, and each agent's throughput over Claude Code's, by the clock and by CPU.
Claude Code's sessions go through the index's fast path (a view of its lines and a derivation
straight from it); Codex's and Gemini's through their readers, which write their lines as the
session model's records, derived the same way (``index/write/translated.py``), so the ratios
are what reading and translating another agent's format costs, and what its megabytes hold.
"""

from __future__ import annotations

import argparse
import re
import resource
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
GEMINI_FILES = ROOT / "tests" / "data" / "agents" / "gemini" / "real"
_IDS = re.compile(rb"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_NAMESPACE = uuid.UUID("3d8b2f64-5c1a-4e7b-8f0a-9b2c6d4e1a73")
#: Where a Codex line names a call: its ids are not uuids, and are refreshed too.
_CALL_ID = re.compile(rb'"call_id": ?"([^"\\]+)"')


def _fresh(replica: int) -> Callable[[re.Match[bytes]], bytes]:
    def replace(match: re.Match[bytes]) -> bytes:
        return str(uuid.uuid5(_NAMESPACE, f"{replica}:{match.group(0).decode()}")).encode()

    return replace


def _fresh_calls(data: bytes, replica: int) -> bytes:
    """``data`` with every call id it names (in a ``call_id``, and wherever else the same
    quoted value is) made the replica's own."""
    found = set(_CALL_ID.findall(data))
    if not found:
        return data
    named = re.compile(b'"(' + b"|".join(re.escape(each) for each in sorted(found)) + b')"')
    return named.sub(lambda match: b'"%s-r%d"' % (match.group(1), replica), data)


def _replicate_once(
    sources: list[tuple[Path, Path]], target: Path, replica: int, calls: bool = False
) -> tuple[int, int]:
    """One copy of ``sources`` (file, path under ``target``) with fresh ids in its content and
    name (``calls``: and fresh call ids); the files and bytes written."""
    replace = _fresh(replica)
    files = written = 0
    for source, relative in sources:
        data = _IDS.sub(replace, source.read_bytes())
        if calls:
            data = _fresh_calls(data, replica)
        path = target / _IDS.sub(replace, str(relative).encode()).decode()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        files += 1
        written += len(data)
    return files, written


def _build(
    sources: Callable[[int], list[tuple[Path, Path]]],
    target: Path,
    size: int,
    calls: bool = False,
) -> tuple[int, int]:
    files = written = replica = 0
    while written < size:
        found, count = _replicate_once(sources(replica), target, replica, calls)
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
    """Codex CLI's rollout files: each replica's threads with new ids, in one home. Their
    call ids are new too: the replicas share their working folders (a Codex session's project),
    and calls of the same id in one project would be counted once, as a forked thread's copies
    of its parent's calls are."""
    found: list[tuple[Path, Path]] = []
    for kind in ("real", "synthetic"):
        base = CODEX_FILES / kind
        for path in sorted(base.rglob("*.jsonl")):
            relative = path.relative_to(base)
            found.append((path, Path(*relative.parts[1:]) if kind == "real" else relative))
    return _build(lambda replica: found, target, size, calls=True)


def gemini_corpus(target: Path, size: int) -> tuple[int, int]:
    """Gemini CLI's recordings: each replica's in projects of its own, in one home."""
    found = sorted(GEMINI_FILES.glob("*.json"))

    def sources(replica: int) -> list[tuple[Path, Path]]:
        return [
            (
                path,
                Path(
                    "tmp",
                    f"r{replica}-{number}",
                    "chats",
                    f"session-2026-01-01T00-00-{replica:04d}{number:04d}.json",
                ),
            )
            for number, path in enumerate(found)
        ]

    return _build(sources, target, size)


def _cpu() -> float:
    """CPU seconds of this process and of its children that ended."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def index_seconds(root: Path, work: Path, workers: int) -> tuple[float, float]:
    """The seconds and the CPU seconds (with the worker processes') of a cold index."""
    database = work / "index.db"
    for leftover in work.glob("index.db*"):
        leftover.unlink()
    cpu = _cpu()
    started = time.perf_counter()
    with Index(database) as index:
        report = index.update([root], workers=workers)
    seconds = time.perf_counter() - started
    assert not report.errors, report.errors
    return seconds, _cpu() - cpu


BUILDERS: dict[str, Callable[[Path, int], tuple[int, int]]] = {
    "codex": codex_corpus,
    "gemini": gemini_corpus,
    "claude": claude_corpus,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size-mb", type=float, default=100.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--work", type=Path, default=None)
    parser.add_argument(
        "--agents", nargs="+", choices=["codex", "gemini"], default=["codex", "gemini"]
    )
    options = parser.parse_args()
    work = options.work or Path(tempfile.mkdtemp(prefix="cclens-agents-"))
    size = int(options.size_mb * 1_000_000)
    corpora: dict[str, tuple[Path, int, int]] = {}
    for agent in [*options.agents, "claude"]:
        root = work / agent
        if root.exists():
            shutil.rmtree(root)
        files, written = BUILDERS[agent](root, size)
        corpora[agent] = (root, files, written)
        print(f"{agent}: {files:,} files, {written / 1e6:.1f} MB", flush=True)
    times: dict[str, list[float]] = {agent: [] for agent in corpora}
    cpus: dict[str, list[float]] = {agent: [] for agent in corpora}
    for run in range(options.runs):
        order = list(corpora) if run % 2 == 0 else list(reversed(corpora))
        for agent in order:
            root, _, _ = corpora[agent]
            (work / f"db-{agent}").mkdir(exist_ok=True)
            seconds, cpu = index_seconds(root, work / f"db-{agent}", options.workers)
            times[agent].append(seconds)
            cpus[agent].append(cpu)
            print(f"  run {run + 1} {agent}: {seconds:.2f} s, {cpu:.2f} CPU s", flush=True)
    rates: dict[str, tuple[float, float]] = {}
    for agent, (_, files, written) in corpora.items():
        median = statistics.median(times[agent])
        cpu = statistics.median(cpus[agent])
        rates[agent] = (written / 1e6 / median, written / 1e6 / cpu)
        each = ", ".join(f"{written / 1e6 / s:.1f}" for s in times[agent])
        print(
            f"{agent}: {written / 1e6:.1f} MB in {files:,} files, median {median:.2f} s, "
            f"{rates[agent][0]:.1f} MB/s (runs: {each} MB/s; {options.workers} workers); "
            f"median {cpu:.2f} CPU s, {rates[agent][1]:.1f} MB per CPU s"
        )
    for agent in options.agents:
        clock = rates[agent][0] / rates["claude"][0]
        cpu_ratio = rates[agent][1] / rates["claude"][1]
        print(f"{agent} / claude throughput: {clock:.2f} (by CPU time: {cpu_ratio:.2f})")
    if options.work is None:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
