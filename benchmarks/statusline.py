"""Time ``cclens statusline`` and ``cclens stats`` over a warm index of a >= 1 GB corpus.

Usage: ``python benchmarks/statusline.py [--corpus DIR] [--work DIR] [--runs N]``

``--corpus`` is a Claude folder of at least 1 GB (``benchmarks/index.py --work DIR`` builds
one; default ``/work/bench-corpus-1g/claude``); it is only read. ``--work`` keeps the index
(``index.db``) and a live session of its own (a copy of the corpus's largest transcript, the
only file this script appends to) between runs.

Each status line is a new process, as Claude Code starts it (interpreter start included),
given the JSON Claude Code passes on stdin. Printed, with the load average beside them, the
wall time and the CPU time of each command (on a busy machine the wall time mostly measures
the wait for a core):
the median and 95th percentile of ``cclens statusline`` when the index is up to date with the
transcript (and the plan-limit sample is stored already), and when a response was appended
just before (read from the file, then stored by the background update; its new plan-limit
sample stored by the status line), ``python -c pass`` and ``cclens --version`` in the same run as
baselines, and ``cclens stats`` (by day, by block and by tool) from the index.
Aims: status line p50 < 100 ms, p95 < 200 ms; stats < 1 s.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from cclens.index import Index

DEFAULT_CORPUS = Path("/work/bench-corpus-1g/claude")
SESSION_ID = "5e55a11e-0000-4000-8000-00000000b0b0"


#: CPU seconds (user and system) of each command run, by label: on a busy machine the wall
#: time mostly measures the wait for a core, the CPU time what the command itself costs.
CPU: dict[str, list[float]] = {}


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(command: list[str], stdin: str = "", label: str = "") -> float:
    cpu = _cpu()
    started = time.perf_counter()
    subprocess.run(command, input=stdin, text=True, capture_output=True, check=True)
    elapsed = time.perf_counter() - started
    CPU.setdefault(label, []).append(_cpu() - cpu)
    return elapsed


def _series(label: str, times: list[float], aim: str = "", cpu: str = "") -> None:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    spent = CPU.get(cpu, [])
    used = f"cpu p50 {statistics.median(spent) * 1000:6.1f} ms" if spent else ""
    print(
        f"{label:34s} p50 {statistics.median(times) * 1000:7.1f} ms   p95 {p95 * 1000:7.1f} ms"
        f"   {used}   (n={len(times)}; load {os.getloadavg()[0]:.2f})" + (f"  {aim}" if aim else "")
    )


def _response_line(number: int) -> str:
    now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    record = {
        "parentUuid": None,
        "isSidechain": False,
        "type": "assistant",
        "sessionId": SESSION_ID,
        "uuid": f"00000000-0000-4000-8000-{number:012d}",
        "timestamp": now,
        "requestId": f"req_bench{number:08d}",
        "message": {
            "id": f"msg_bench{number:08d}",
            "model": "claude-sonnet-4-5-20250929",
            "role": "assistant",
            "type": "message",
            "content": [{"type": "text", "text": "ok"}],
            "usage": {
                "input_tokens": 12,
                "output_tokens": 340,
                "cache_creation_input_tokens": 2000,
                "cache_read_input_tokens": 90000,
            },
        },
    }
    return json.dumps(record) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--work", type=Path, default=Path("benchmarks/.work/statusline"))
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    work = args.work.absolute()
    live_root = work / "live"
    project = live_root / "projects" / "-bench-live"
    project.mkdir(parents=True, exist_ok=True)
    transcript = project / f"{SESSION_ID}.jsonl"
    if not transcript.exists():
        largest = max(args.corpus.rglob("*.jsonl"), key=lambda path: path.stat().st_size)
        shutil.copy(largest, transcript)
    db = work / "index.db"
    started = time.perf_counter()
    with Index(db) as index:
        report = index.update([args.corpus, live_root])
    print(
        f"index update:        {time.perf_counter() - started:8.1f} s  "
        f"({report.bytes_read / 1e6:.0f} MB read; {db.stat().st_size / 1e6:.0f} MB index)"
    )
    print(f"live session:        {transcript.stat().st_size / 1e6:8.1f} MB transcript")
    # What the `cclens` console script runs (`cclens.__main__:main`), with this interpreter: a
    # version manager's shim on PATH would add its own start-up to every run, and a script
    # installed from an older checkout may name another entry point.
    cclens = [
        sys.executable,
        "-c",
        "import sys; from cclens.__main__ import main; sys.exit(main())",
    ]
    resets = int(time.time()) + 3 * 3600

    def status(used: float) -> str:
        """Claude Code's input, with the plan's limits a Max plan gets (2.1.80+)."""
        return json.dumps(
            {
                "session_id": SESSION_ID,
                "transcript_path": str(transcript),
                "cwd": "/bench",
                "model": {"id": "claude-sonnet-4-5-20250929", "display_name": "Sonnet 4.5"},
                "workspace": {"current_dir": "/bench", "project_dir": "/bench"},
                "version": "2.1.80",
                "rate_limits": {
                    "five_hour": {"used_percentage": used, "resets_at": resets},
                    "seven_day": {"used_percentage": 30.0, "resets_at": resets + 4 * 86400},
                },
            }
        )

    payload = status(40.0)
    statusline = [*cclens, "statusline", "--db", str(db)]
    shown = subprocess.run(statusline, input=payload, text=True, capture_output=True, check=True)
    print("line:", shown.stdout.strip())
    for _ in range(3):
        _run(statusline, payload)  # warm the page cache and the bytecode
    baseline = [_run([sys.executable, "-c", "pass"], label="pass") for _ in range(args.runs)]
    version = [_run([*cclens, "--version"], label="version") for _ in range(args.runs)]
    current = [_run(statusline, payload, label="current") for _ in range(args.runs)]
    appended = []
    for number in range(args.runs):
        with transcript.open("a", encoding="utf-8") as handle:
            handle.write(_response_line(int(time.time()) * 100 + number))
        time.sleep(0.3)  # Claude Code redraws at most every 300 ms
        # The response moved the plan's 5-hour use: a new sample to store.
        appended.append(_run(statusline, status(41.0 + number), label="appended"))
    aim = "aim p50 < 100 ms, p95 < 200 ms"
    _series("python -c pass", baseline, cpu="pass")
    _series("cclens --version", version, cpu="version")
    _series("statusline, index up to date", current, aim, cpu="current")
    _series("statusline, a response appended", appended, aim, cpu="appended")
    for by in ("day", "block", "tool"):
        stats = [*cclens, "stats", "--db", str(db), "--no-update", "--by", by, "--json"]
        times = [_run(stats, label=by) for _ in range(5)]
        _series(f"cclens stats --by {by} (index)", times, "aim < 1 s", cpu=by)


if __name__ == "__main__":
    main()
