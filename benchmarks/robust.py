"""Size and count extremes: a 200 MB line, a million tiny lines, pathological files.

    python3 benchmarks/robust.py [--runs 3] [--lines 1000000] [--line-mb 200] [--work DIR]
        [--skip-large] [--skip-tiny] [--skip-pathological] [--shape '[N]' ...]

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

Pathological files (issue 24): ``--lines`` lines of ``[]``, of ``{"type":"user","uuid":5}``
and of ``{}``; aims: ``check`` < 10 s, ``export`` < 30 s with a peak < 500 MB, the session's
web page < 2 s with the server's memory growing < 100 MB. For each: ``check`` and ``export -f
json`` and ``-f html`` (wall, peak), then a real ``cclens serve`` over the file: the first
load of the page (wall) and the server's resident memory before and after (``VmRSS``), beside
the same page of a genuine small session served by the same process (the baseline). The same
lines made distinct (``[N]``, ``{"type":"user","uuid":N}``, ``{"n":N}``) are measured against
the same aims: runs of lines with the same problem, or of records of the same unknown kind, are
folded where they are reported and drawn (each line is still read), and past the first 50
records of a run with nothing to show the lines are kept as written (``Entry.quiet``). Four more
such runs (an array, a fraction, a string, two keys) are measured the same way, and a million
records that each are a node of the conversation (a uuid), which the aims do not cover. Each
file is also indexed once on its own (``cclens index``: wall time and peak, not an aim; the
peak includes the semantic model when that extra is installed).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
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


PATHOLOGICAL = {
    "[]": lambda number: b"[]",
    '{"type":"user","uuid":5}': lambda number: b'{"type":"user","uuid":5}',
    "{}": lambda number: b"{}",
}
DISTINCT = {
    "[N]": lambda number: b"[%d]" % number,
    '{"type":"user","uuid":N}': lambda number: b'{"type":"user","uuid":%d}' % number,
    '{"n":N}': lambda number: b'{"n":%d}' % number,
}
#: More runs of records with nothing to show (kept as quiet lines past their first 50).
OTHER = {
    '{"n":[N]}': lambda number: b'{"n":[%d]}' % number,
    '{"f":N.5}': lambda number: b'{"f":%d.5}' % number,
    '{"type":"zz","s":"text N"}': lambda number: b'{"type":"zz","s":"text %d"}' % number,
    '{"type":"user","uuid":N,"cwd":N}': lambda number: (
        b'{"type":"user","uuid":%d,"cwd":%d}' % (number, number)
    ),
}
#: Records that are each a node of the conversation tree (a uuid): kept as records.
RECORDS = {
    '{"type":"user","uuid":"uN"}': lambda number: b'{"type":"user","uuid":"u%d"}' % number,
}
SMALL = "fed8ce56-bc79-401f-a83e-af084253362f"  # a genuine 18 KB session of the corpus


def _rss(pid: int) -> int:
    """The process's resident memory now (``VmRSS``, bytes)."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def _write_lines(path: Path, lines: int, make: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        for number in range(lines):
            handle.write(make(number) + b"\n")  # type: ignore[operator]


def _served_page(claude: Path, db: Path, key: str) -> tuple[float, int, float]:
    """A real ``cclens serve`` over ``claude``: the first load of ``key``'s page (seconds),
    the server's memory growth over it (bytes), and the first load of the small genuine
    session's page (seconds, the baseline)."""
    import httpx  # only this part needs it

    argv = cclens("serve", "--port", "0", "--claude-dir", claude, "--db", db)
    process = subprocess.Popen(argv, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        url = ""
        while not url:
            line = process.stderr.readline()
            if not line:
                raise SystemExit("cclens serve ended before serving")
            found = re.search(r"at (http://\S+/)", line)
            url = found.group(1) if found else ""
        with httpx.Client(base_url=url, timeout=600) as client:
            deadline = time.monotonic() + 600
            while True:
                status = client.get("/api/status").json()
                if status["sessions"] >= 2 and not status.get("indexing"):
                    break
                if time.monotonic() > deadline:
                    raise SystemExit("the index was not ready in 10 minutes")
                time.sleep(0.2)
            client.get("/")
            before = _rss(process.pid)
            start = time.perf_counter()
            assert client.get(f"/sessions/{key}").status_code == 200
            seconds = time.perf_counter() - start
            growth = _rss(process.pid) - before
            start = time.perf_counter()
            assert client.get(f"/sessions/{SMALL}").status_code == 200
            baseline = time.perf_counter() - start
        return seconds, growth, baseline
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
        if process.stderr is not None:
            process.stderr.close()


def pathological(work: Path, runs: int, lines: int, only: list[str] | None = None) -> None:
    print(
        f"\nPathological files of {lines:,} lines (aims: check < 10 s; export < 30 s, peak "
        "< 500 MB; page < 2 s, server growth < 100 MB)"
    )
    corpus = Path(__file__).resolve().parents[2] / "shared" / "corpus"
    small = next(corpus.rglob(f"{SMALL}.jsonl"))
    groups = (
        ("same line", PATHOLOGICAL),
        ("distinct lines", DISTINCT),
        ("other runs of records with nothing to show", OTHER),
        (
            "records that are conversation nodes (beyond the aims: see benchmarks/README.md)",
            RECORDS,
        ),
    )
    for group, shapes in groups:
        print(f"  {group}:")
        for number, (shape, make) in enumerate(shapes.items()):
            if only and shape not in only:
                continue
            claude = work / f"{group.split()[0]}-{number}"
            folder = claude / "projects" / "-tmp-p"
            path = folder / "p.jsonl"
            if not path.exists():
                _write_lines(path, lines, make)
                shutil.copyfile(small, folder / small.name)
            check_wall, _, check_peak = median_of(runs, cclens("check", path))
            figures = [f"check {check_wall:.1f} s ({check_peak / MB:.0f} MB)"]
            verdicts = [check_wall < 10]
            for fmt in ("json", "html"):
                out = work / f"p.{fmt}"
                wall, _, peak = median_of(runs, cclens("export", path, "-f", fmt, "-o", out))
                out.unlink()
                figures.append(f"export -f {fmt} {wall:.1f} s, peak {peak / MB:.0f} MB")
                verdicts.append(wall < 30 and peak < 500 * MB)
            db, alone = work / f"{claude.name}.db", work / f"{claude.name}-alone.db"
            for leftover in [*work.glob(db.name + "*"), *work.glob(alone.name + "*")]:
                leftover.unlink()
            # (once, into an index of its own: the server below indexes the folder itself
            # before its memory is measured, as a user's first `cclens serve` does)
            wall, _, peak = measure(cclens("index", "--db", alone, "--dir", claude))
            figures.append(f"index {wall:.1f} s, peak {peak / MB:.0f} MB")
            seconds, growth, baseline = _served_page(claude, db, "p")
            figures.append(
                f"page {seconds:.2f} s (the genuine 18 KB session's {baseline:.2f} s: "
                f"{seconds / baseline:.1f}x), server +{growth / MB:.0f} MB"
            )
            verdicts.append(seconds < 2 and growth < 100 * MB)
            verdict = "meets" if all(verdicts) else "MISSES"
            print(f"    {shape}: " + "; ".join(figures) + f" -> {verdict} the aims")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--line-mb", type=int, default=200)
    parser.add_argument("--work", type=Path, help="keep the generated files here")
    parser.add_argument("--skip-large", action="store_true")
    parser.add_argument("--skip-tiny", action="store_true")
    parser.add_argument("--skip-pathological", action="store_true")
    parser.add_argument(
        "--shape", action="append", help="only this pathological file (as printed; repeatable)"
    )
    options = parser.parse_args()
    work = options.work or Path(tempfile.mkdtemp(prefix="cclens-robust-"))
    work.mkdir(parents=True, exist_ok=True)
    print(f"cclens robustness benchmark, {options.runs} runs each; {load()}")
    try:
        if not options.skip_large:
            large_line(work, options.runs, options.line_mb)
        if not options.skip_tiny:
            tiny_lines(work, options.runs, options.lines)
        if not options.skip_pathological:
            pathological(work, options.runs, options.lines, options.shape)
    finally:
        if options.work is None:
            shutil.rmtree(work, ignore_errors=True)
    print(f"\n{load()}")


if __name__ == "__main__":
    main()
