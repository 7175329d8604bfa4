"""Size and count extremes: a 200 MB line, a million tiny lines.

    python3 benchmarks/robust.py [--runs 3] [--lines 1000000] [--line-mb 200] [--work DIR]

Aims (issue 13): a 200 MB single line exported as JSON peaks under 500 MB of memory; 1,000,000
lines of ``{}`` (3 MB) are checked in under 10 s, and exported in time linear in the lines.

Printed, each the median of ``--runs`` fresh ``cclens`` processes (interpreter start and
imports included), with the machine's load average beside them:

* ``export -f json`` of one transcript whose tool result is one 200 MB string, written two ways
  (tool output full of ``\\n`` escapes, and plain text): wall time and peak resident memory
  (``VmHWM`` of the process), against the line's size and against the peak of a bare
  ``msgspec.json.decode`` of the same line measured in the same run;
* ``check`` of 1,000,000 lines of ``{}``: wall and CPU time, against a bare loop that splits
  the file and decodes each line with msgspec (same run);
* ``export -f json`` and ``export -f html`` of the same lines and of a quarter of them: wall
  time and the ratio of the two (4.0 is linear).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import msgspec

CLI = "import sys; from cclens.cli.main import main; main(sys.argv[1:])"
BARE_DECODE = "import sys, msgspec; msgspec.json.decode(open(sys.argv[1], 'rb').read())"
BARE_LINES = """
import sys, msgspec
decode = msgspec.json.decode
for line in open(sys.argv[1], 'rb'):
    if line.strip():
        decode(line)
"""
MB = 1024 * 1024


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} CPUs"


def _high_water(pid: int) -> int:
    """The process's peak resident memory so far (``VmHWM``, bytes); 0 once it has exited."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def measure(argv: list[str]) -> tuple[float, float, int]:
    """Run ``argv``; its wall time, CPU time (user + system) and peak memory (bytes).

    The peak is the process's own ``VmHWM``, read every 5 ms until it exits: ``ru_maxrss``
    would not do, since Linux carries a parent's resident size into a child it forks (this
    script holds the 200 MB line, so every child reported at least that much)."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = 0
    done = threading.Event()

    def watch() -> None:
        nonlocal peak
        while not done.wait(0.005):
            peak = max(peak, _high_water(process.pid))

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    stderr = process.stderr.read().decode() if process.stderr else ""
    peak = max(peak, _high_water(process.pid))  # its output closed: at or near its end
    _, status, usage = os.wait4(process.pid, 0)
    done.set()
    watcher.join()
    wall = time.perf_counter() - start
    if process.stderr:
        process.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise SystemExit(f"{argv[3:]} failed ({code}): {stderr[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, peak


def median_of(runs: int, argv: list[str]) -> tuple[float, float, int]:
    results = [measure(argv) for _ in range(runs)]
    return (
        statistics.median(r[0] for r in results),
        statistics.median(r[1] for r in results),
        max(r[2] for r in results),
    )


def cclens(*args: str | Path) -> list[str]:
    return [sys.executable, "-c", CLI, *(str(a) for a in args)]


def write_large(path: Path, size: int, *, escaped: bool) -> None:
    """A transcript: a Bash call whose result (message content) is one ``size``-byte string."""
    text = ("x" * 75 + "\n") if escaped else ("lorem ipsum dolor sit amet " * 3)[:76]
    body = text * (size // len(text))
    records = [
        {
            "type": "assistant",
            "uuid": "a1",
            "sessionId": "large",
            "timestamp": "2026-01-01T00:00:00Z",
            "message": {
                "id": "m1",
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "content": [
                    {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "cat x"}}
                ],
                "usage": {"input_tokens": 1, "output_tokens": 1},
            },
        },
        {
            "type": "user",
            "uuid": "u1",
            "parentUuid": "a1",
            "sessionId": "large",
            "timestamp": "2026-01-01T00:00:01Z",
            "message": {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "t1", "content": body}],
            },
            "toolUseResult": {"stdout": "see the message", "stderr": "", "interrupted": False},
        },
    ]
    with path.open("wb") as handle:
        for record in records:
            handle.write(msgspec.json.encode(record) + b"\n")


def large_line(work: Path, runs: int, megabytes: int) -> None:
    print(f"\nA {megabytes} MB line exported as JSON (aim: peak < 500 MB)")
    for escaped in (True, False):
        kind = "tool output with \\n escapes" if escaped else "plain text"
        path = work / f"large-{'escaped' if escaped else 'plain'}.jsonl"
        if not path.exists():
            write_large(path, megabytes * MB, escaped=escaped)
        line = max(len(line) for line in path.open("rb"))
        out = work / "large.json"
        wall, _, peak = median_of(runs, cclens("export", path, "-f", "json", "-o", out))
        bare_line = work / "bare-line.json"
        with path.open("rb") as source, bare_line.open("wb") as target:
            source.readline()
            shutil.copyfileobj(source, target)
        _, _, bare = median_of(1, [sys.executable, "-c", BARE_DECODE, str(bare_line)])
        bare_line.unlink()
        out.unlink()
        verdict = "meets" if peak < 500 * MB else "MISSES"
        print(
            f"  {kind}: line {line / MB:.0f} MB, export {wall:.1f} s, peak {peak / MB:.0f} MB "
            f"({peak / line:.2f}x the line; a bare msgspec decode of it peaks at "
            f"{bare / MB:.0f} MB) -> {verdict} the aim"
        )


def tiny_lines(work: Path, runs: int, lines: int) -> None:
    print(f"\n{lines:,} lines of {{}} (aim: check < 10 s, export linear)")
    sizes = {
        lines: work / "many" / "projects" / "p",
        lines // 4: work / "quarter" / "projects" / "p",
    }
    for count, folder in sizes.items():
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "tiny.jsonl"
        if not path.exists() or path.stat().st_size != 3 * count:
            path.write_bytes(b"{}\n" * count)
    full = sizes[lines] / "tiny.jsonl"
    wall, cpu, peak = median_of(runs, cclens("check", full.parents[1].parent))
    bare_wall, bare_cpu, _ = median_of(runs, [sys.executable, "-c", BARE_LINES, str(full)])
    verdict = "meets" if wall < 10 else "MISSES"
    print(
        f"  check: {wall:.1f} s wall, {cpu:.1f} s CPU, peak {peak / MB:.0f} MB -> {verdict} the aim"
        f" (a bare msgspec loop over the lines: {bare_wall:.1f} s wall, {bare_cpu:.1f} s CPU; "
        f"ratio {wall / bare_wall:.1f}x)"
    )
    for fmt in ("json", "html"):
        times = {}
        for count, folder in sizes.items():
            out = work / f"tiny.{fmt}"
            times[count] = median_of(
                runs, cclens("export", folder / "tiny.jsonl", "-f", fmt, "-o", out)
            )
            out.unlink()
        big, small = times[lines], times[lines // 4]
        print(
            f"  export -f {fmt}: {lines // 4:,} lines {small[0]:.1f} s, {lines:,} lines "
            f"{big[0]:.1f} s (ratio {big[0] / small[0]:.2f}; 4.00 is linear), "
            f"peak {big[2] / MB:.0f} MB"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--line-mb", type=int, default=200)
    parser.add_argument("--work", type=Path, help="keep the generated files here")
    parser.add_argument("--skip-large", action="store_true")
    parser.add_argument("--skip-tiny", action="store_true")
    options = parser.parse_args()
    work = options.work or Path(tempfile.mkdtemp(prefix="cclens-robust-"))
    work.mkdir(parents=True, exist_ok=True)
    print(f"cclens robustness benchmark, {options.runs} runs each; {load()}")
    try:
        if not options.skip_large:
            large_line(work, options.runs, options.line_mb)
        if not options.skip_tiny:
            tiny_lines(work, options.runs, options.lines)
    finally:
        if options.work is None:
            shutil.rmtree(work, ignore_errors=True)
    print(f"\n{load()}")


if __name__ == "__main__":
    main()
