"""Time exporting every session of a corpus to HTML with cclens and with claude-code-log.

    python3 benchmarks/export.py [CORPUS] [--runs 3]

The corpus (default ``../shared/corpus``) is copied into a temporary ``projects/`` layout (each
session with its subagent files). Each run starts one fresh Python process per tool that converts
every session once, to one HTML file each: cclens with ``export_html`` (subagents included), and
claude-code-log with its ``convert_jsonl_to_html`` on the same file, cache off. (Its
``--all-projects`` mode writes per-session pages only from its cache, so it cannot be timed doing
the same work.) Printed: the median wall time of the whole process (imports included), and each
session's median time, with the ratios.

claude-code-log is installed with pip when it is missing.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from cclens.parse import SessionFile, discover

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"

#: Each tool runs in a fresh process that converts every session once: arguments are the list
#: of transcripts (a file, one path a line), the output folder and where to write the timings.
#: The whole process is timed from outside (imports included); each file from inside.
TOOL_SCRIPTS = {
    "cclens": """
import json, sys, time
from pathlib import Path
from cclens.export import export_html
from cclens.parse import load_session
paths = Path(sys.argv[1]).read_text().split("\\n")
out, times = Path(sys.argv[2]), []
for path in paths:
    start = time.perf_counter()
    html = export_html(load_session(path))
    (out / (Path(path).stem + ".html")).write_text(html, encoding="utf-8")
    times.append(time.perf_counter() - start)
Path(sys.argv[3]).write_text(json.dumps(times))
""",
    "claude-code-log": """
import json, sys, time
from pathlib import Path
from claude_code_log.converter import convert_jsonl_to_html
paths = Path(sys.argv[1]).read_text().split("\\n")
out, times = Path(sys.argv[2]), []
for path in paths:
    start = time.perf_counter()
    convert_jsonl_to_html(
        Path(path), out / (Path(path).stem + ".html"),
        generate_individual_sessions=False, use_cache=False, silent=True,
    )
    times.append(time.perf_counter() - start)
Path(sys.argv[3]).write_text(json.dumps(times))
""",
}


def ensure_claude_code_log() -> str:
    """The ``claude-code-log`` executable, installed with pip when missing."""
    found = shutil.which("claude-code-log")
    if found is None:
        print("installing claude-code-log with pip…", file=sys.stderr)
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "-q", "claude-code-log"], check=True
        )
        found = shutil.which("claude-code-log")
    if found is None:
        raise SystemExit("claude-code-log is not on PATH after installing it")
    version = subprocess.run([found, "--version"], capture_output=True, text=True).stdout.strip()
    print(f"claude-code-log: {version}")
    return found


def copy_layout(corpus: Path, target: Path) -> list[SessionFile]:
    """Copy every session (and its subagent files) to ``target/projects/<project>/``."""
    projects = target / "projects"
    found = discover(corpus)
    for index, session in enumerate(found.sessions):
        folder = projects / f"p{index:03d}-{session.project}"[:80]
        folder.mkdir(parents=True, exist_ok=True)
        destination = folder / f"{session.session_id}.jsonl"
        shutil.copyfile(session.path, destination)
        for agent in session.subagents:
            relative = agent.path.relative_to(session.path.parent)
            (folder / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(agent.path, folder / relative)
    return discover(projects).sessions


@dataclass
class Run:
    """One process of one tool over every session: its wall time and each file's time."""

    seconds: float
    per_file: list[float]


def run_tool(tool: str, files: list[Path], work: Path, index: int) -> Run:
    """Convert ``files`` with ``tool`` in a fresh process; every output is checked to exist."""
    out = work / f"{tool}-{index}"
    out.mkdir()
    listing = out / "files.txt"
    listing.write_text("\n".join(str(f) for f in files))
    timings = out / "times.json"
    command = [sys.executable, "-c", TOOL_SCRIPTS[tool], str(listing), str(out), str(timings)]
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    seconds = time.perf_counter() - start
    missing = [f for f in files if not (out / f"{f.stem}.html").is_file()]
    if missing:
        raise SystemExit(f"{tool} wrote no HTML for {len(missing)} sessions, e.g. {missing[0]}")
    return Run(seconds, json.loads(timings.read_text()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    ensure_claude_code_log()
    with tempfile.TemporaryDirectory(prefix="cclens-bench-") as temp:
        work = Path(temp)
        sessions = copy_layout(args.corpus, work)
        size = sum(s.path.stat().st_size for s in sessions)
        print(f"corpus: {args.corpus}: {len(sessions)} sessions, {size / 1e6:.1f} MB")
        print(f"runs: {args.runs}")

        files = [session.path for session in sessions]
        runs: dict[str, list[Run]] = {"cclens": [], "claude-code-log": []}
        for index in range(args.runs):
            for tool, done in runs.items():
                done.append(run_tool(tool, files, work, index))

        print("\nwhole corpus, one fresh process per tool (median of runs, imports included):")
        wall = {tool: statistics.median(r.seconds for r in done) for tool, done in runs.items()}
        for tool, seconds in wall.items():
            print(f"  {tool:15}  {seconds:7.2f} s")
        print(f"  ratio            {wall['claude-code-log'] / wall['cclens']:7.1f}x")

        print("\nper session (each session's median over runs):")
        medians = {
            tool: [statistics.median(r.per_file[i] for r in done) for i in range(len(files))]
            for tool, done in runs.items()
        }
        for tool, values in medians.items():
            print(
                f"  {tool:15}  total {sum(values):7.2f} s, "
                f"median {statistics.median(values) * 1000:7.1f} ms, "
                f"max {max(values) * 1000:7.1f} ms"
            )
        ratios = [t / m for m, t in zip(medians["cclens"], medians["claude-code-log"], strict=True)]
        total_ratio = sum(medians["claude-code-log"]) / sum(medians["cclens"])
        print(
            f"  ratio of totals  {total_ratio:7.1f}x; "
            f"median per-session ratio {statistics.median(ratios):.1f}x"
        )


if __name__ == "__main__":
    main()
