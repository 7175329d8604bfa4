"""Time ``cclens hook`` on a 4 MB session that Claude Code goes on writing.

Usage: ``python benchmarks/hook.py [--work DIR] [--size-mb 4] [--runs N] [--lines K]``

``--work`` holds a Claude folder with one large session made from the shared corpus's real
records (:mod:`benchmarks.synthetic`), the index and cclens's data folder; the transcript's
last lines are held back, and each run appends ``--lines`` of them (a response or two with its
tool calls) before the hook is started, as Claude Code does before ``PreCompact`` or
``SessionEnd``.

Each hook is a new process, as Claude Code starts it (interpreter start included), given the
JSON Claude Code passes on stdin. Printed, with the load average beside them, the wall time
and the CPU time of: ``python -c pass`` and ``cclens --help`` in the same run as baselines;
``cclens hook`` with lines appended as Claude Code runs it (what Claude Code waits for: the
hook hands the archive to a process of its own and returns), and the time from its start until
the index holds the new lines; ``cclens hook --wait`` with lines appended (the archive done in
the hook's process); and ``cclens hook`` with nothing new. Aim: p95 < 300 ms with lines
appended; on a busy machine the wall time mostly measures the wait for a core, and the ratio to
``python -c pass`` says what cclens adds.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path

import synthetic
from cclens.index import Index

CPU: dict[str, list[float]] = {}


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(command: list[str], stdin: str, env: dict[str, str], label: str) -> float:
    cpu = _cpu()
    started = time.perf_counter()
    done = subprocess.run(command, input=stdin, text=True, capture_output=True, env=env)
    elapsed = time.perf_counter() - started
    assert done.returncode == 0, done.stderr
    CPU.setdefault(label, []).append(_cpu() - cpu)
    return elapsed


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def _series(label: str, times: list[float], baseline: list[float], aim: str = "") -> None:
    spent = CPU.get(label, [])
    ratio = statistics.median(times) / statistics.median(baseline)
    print(
        f"{label:32s} p50 {statistics.median(times) * 1000:7.1f} ms   "
        f"p95 {_p95(times) * 1000:7.1f} ms   "
        + (f"cpu p50 {statistics.median(spent) * 1000:6.1f} ms" if spent else " " * 17)
        + f"   x{ratio:4.1f} python   (n={len(times)}; load {os.getloadavg()[0]:.2f})"
        + (f"  {aim}" if aim else "")
    )


def _outcome(work: Path) -> str:
    state = json.loads((work / "data" / "cclens" / "hook.json").read_text())
    return str(state["outcome"])


def _stored(db: Path, path: Path) -> int:
    connection = sqlite3.connect(db)
    try:
        row = connection.execute("SELECT offset FROM files WHERE path = ?", (str(path),))
        found = row.fetchone()
    finally:
        connection.close()
    return int(found[0]) if found else 0


def _until_archived(work: Path, db: Path, path: Path, started: float) -> float:
    """Seconds from ``started`` until the index holds all of ``path`` and the background
    process has recorded its run."""
    size = path.stat().st_size
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if _stored(db, path) == size and _outcome(work) == "archived":
                return time.perf_counter() - started
        except (OSError, ValueError, sqlite3.Error):
            pass  # the state file or the index being written
        time.sleep(0.005)
    raise SystemExit(f"the background archive of {path} did not end within 60 s")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--work", type=Path, default=Path("benchmarks/.work/hook"))
    parser.add_argument("--size-mb", type=float, default=4.0)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--lines", type=int, default=6)
    args = parser.parse_args()
    work = args.work.absolute()
    shutil.rmtree(work, ignore_errors=True)
    claude = work / "claude"
    (path,) = synthetic.large_corpus(claude, synthetic.donors(), [args.size_mb])
    lines = path.read_bytes().splitlines(keepends=True)
    held = 2 * args.runs * args.lines
    path.write_bytes(b"".join(lines[:-held]))
    tail = lines[-held:]
    db = work / "index.db"
    started = time.perf_counter()
    with Index(db) as index:
        index.update([claude])
    print(
        f"session: {path.stat().st_size / 1e6:.1f} MB ({len(lines) - held} lines; "
        f"{sum(map(len, tail)) / 1e3:.0f} KB held back to append); first index "
        f"{time.perf_counter() - started:.1f} s"
    )
    env = {
        **os.environ,
        "CLAUDE_CONFIG_DIR": str(claude),
        "XDG_DATA_HOME": str(work / "data"),
        "CCLENS_DB": str(db),
        # Bytecode cached, as once installed (not compiled again in every process).
        "PYTHONPYCACHEPREFIX": str(work / "pycache"),
    }
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    cclens = [
        sys.executable,
        "-c",
        "import sys; from cclens.__main__ import main; sys.exit(main())",
    ]
    payload = json.dumps(
        {
            "session_id": path.stem,
            "transcript_path": str(path),
            "cwd": "/bench",
            "permission_mode": "default",
            "hook_event_name": "PreCompact",
            "trigger": "auto",
            "custom_instructions": "",
        }
    )
    hook = [*cclens, "hook"]
    for _ in range(3):  # warm the page cache and the bytecode
        _run(hook, payload, env, "warm")
    baseline = [
        _run([sys.executable, "-c", "pass"], "", env, "python -c pass") for _ in range(args.runs)
    ]
    helped = [_run([*cclens, "--help"], "", env, "cclens --help") for _ in range(args.runs)]
    chunks = iter(range(2 * args.runs))

    def append() -> None:
        number = next(chunks)
        with path.open("ab") as handle:
            handle.write(b"".join(tail[number * args.lines : (number + 1) * args.lines]))

    appended, archived, waited = [], [], []
    for _ in range(args.runs):
        append()
        started = time.perf_counter()
        appended.append(_run(hook, payload, env, "hook, lines appended"))
        archived.append(_until_archived(work, db, path, started))
    for _ in range(args.runs):
        append()
        waited.append(_run([*hook, "--wait"], payload, env, "hook --wait, lines appended"))
        assert _outcome(work) == "archived"
    unchanged = [_run(hook, payload, env, "hook, nothing new") for _ in range(args.runs)]
    assert _outcome(work) == "nothing new"
    _series("python -c pass", baseline, baseline)
    _series("cclens --help", helped, baseline)
    _series("hook, lines appended", appended, baseline, "aim p95 < 300 ms")
    _series("  ... until archived (background)", archived, baseline)
    _series("hook --wait, lines appended", waited, baseline)
    _series("hook, nothing new", unchanged, baseline)
    size = path.stat().st_size
    print(f"archived: the whole {size / 1e6:.1f} MB transcript ({len(lines)} lines)")


if __name__ == "__main__":
    main()
