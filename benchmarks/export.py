"""Time exporting every session of a corpus to HTML with cclens and with claude-code-log.

    python3 benchmarks/export.py [CORPUS] [--runs 3] [--jobs N] [--cold] [--real-sized]

The corpus (default ``../shared/corpus``) is copied into a temporary ``projects/`` layout (each
session with its subagent files). ``--real-sized`` measures a corpus of large sessions instead
(several MB and hundreds of tool calls each, as real ones run; the shared corpus is mostly small
files), built from the corpus's records by ``benchmarks/synthetic.py``. Each run starts fresh
Python processes that convert every session once, to one HTML file each:

* ``cclens export --all PROJECTS -o DIR``: cclens's bulk export, which reads and draws sessions
  in ``--jobs`` worker processes (default: one per CPU) and writes an index page too;
* cclens file by file: what ``cclens export SESSION`` does for each transcript (load, redact
  secrets, ``export_html`` with its folded parts drawn by ``--jobs`` processes, one per CPU by
  default, as the command does), in one process; ``--no-redact`` leaves redaction out of both
  cclens runs;
* claude-code-log file by file: its ``convert_jsonl_to_html`` on the same transcripts, in one
  process, cache off. claude-code-log has a parallel mode (``--all-projects --jobs``), but it
  works through its SQLite cache (written inside the projects folder) and writes a different
  set of pages (combined transcripts and project indexes), so it cannot be timed doing the same
  work; it is timed the way it converts one transcript, as before;
* one process per session, as a person exports one session at a time: ``cclens export FILE
  -o FILE.html`` (the command, redaction and its workers included; no index, so the file is
  read) and a new Python process calling ``convert_jsonl_to_html`` for each transcript. Here
  what each process costs before it does any work (start-up) counts once per session.

Printed: the median wall time of each whole process (interpreter start and imports included),
with the ratios, the bytes each tool wrote (and their ratio), then each session's median time
for the two file-by-file runs, and the loops of one process per session.

Both tools run as they would once installed: bytecode is cached (``PYTHONPYCACHEPREFIX`` in the
work folder, ``PYTHONDONTWRITEBYTECODE`` dropped) and so are cclens's compiled templates
(``XDG_CACHE_HOME`` in the work folder), after one untimed warm-up run of each. ``--cold`` gives
every run empty caches instead: the first run after installing.

claude-code-log is installed with pip when it is missing.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from cclens.readers.claude import SessionFile, discover

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import load_average

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
#: The sessions of the real-sized corpus, in MB of JSONL (about 110 tool calls a MB).
REAL_SIZED_MB = [2.0, 3.0, 4.0, 5.0, 6.0, 3.5]

#: File-by-file scripts, one fresh process each: arguments are the list of transcripts (a file,
#: one path a line), the output folder and where to write each file's time. The whole process
#: is timed from outside (imports included); each file from inside.
TOOL_SCRIPTS = {
    "cclens": """
import json, os, sys, time
from pathlib import Path
from cclens.export import export_html, transform_session
from cclens.readers.claude import load_session
from cclens.redact import Redactor
from cclens.render import RenderOptions
options = RenderOptions(workers=WORKERS)
paths = Path(sys.argv[1]).read_text().split("\\n")
out, times = Path(sys.argv[2]), []
for path in paths:
    start = time.perf_counter()
    session = load_session(path)
    if REDACT:
        redactor = Redactor()
        session = transform_session(session, redactor.text, json_transform=redactor.json)
    html = export_html(session, options=options)
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

#: What the console script ``cclens`` runs (called through the interpreter, not a shell shim).
CCLENS_CLI = "from cclens.cli import main; main()"

#: One session in a new process, per tool: arguments are the transcript and the page to write.
PER_PROCESS = {
    "cclens": [CCLENS_CLI, "export", "{path}", "-o", "{out}"],
    "claude-code-log": [
        "import sys; from pathlib import Path; "
        "from claude_code_log.converter import convert_jsonl_to_html; "
        "convert_jsonl_to_html(Path(sys.argv[1]), Path(sys.argv[2]), "
        "generate_individual_sessions=False, use_cache=False, silent=True)",
        "{path}",
        "{out}",
    ],
}

BULK = "cclens export --all"


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
    per_file: list[float] = field(default_factory=list)
    #: Bytes of HTML written (pages and, for the bulk export, its shared files and index).
    written: int = 0


@dataclass
class Bench:
    """Where a benchmark works and the environment its tool processes get."""

    work: Path
    files: list[Path]
    projects: Path
    cold: bool
    jobs: int | None
    #: Redact secrets, as ``cclens export`` does unless given ``--no-redact``.
    redact: bool = True
    runs: int = 0

    @property
    def workers(self) -> int:
        """cclens's worker processes: ``--jobs``, else one per CPU (as ``cclens export``)."""
        return self.jobs or os.cpu_count() or 1

    def environment(self) -> dict[str, str]:
        """The tools' environment: bytecode and template caches in the work folder."""
        caches = self.work / (f"caches-{self.runs}" if self.cold else "caches")
        env = dict(os.environ)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(caches / "pycache")
        env["XDG_CACHE_HOME"] = str(caches / "xdg")
        # No index: ``cclens export FILE`` reads the file (an index would be brought up to date
        # with the agents' folders first).
        env["XDG_DATA_HOME"] = str(self.work / "data")
        env.pop("CCLENS_DB", None)
        return env

    def output(self, name: str) -> Path:
        """A new output folder for one run of ``name``."""
        self.runs += 1
        out = self.work / f"{name.replace(' ', '-')}-{self.runs}"
        out.mkdir()
        return out

    def run_file_by_file(self, tool: str) -> Run:
        """Convert every file with ``tool`` in one fresh process; every output must exist."""
        out = self.output(tool)
        listing = out / "files.txt"
        listing.write_text("\n".join(str(f) for f in self.files))
        timings = out / "times.json"
        script = f"REDACT = {self.redact}\nWORKERS = {self.workers}\n{TOOL_SCRIPTS[tool]}"
        command = [sys.executable, "-c", script, str(listing), str(out), str(timings)]
        seconds = _timed(command, self.environment())
        missing = [f for f in self.files if not (out / f"{f.stem}.html").is_file()]
        if missing:
            raise SystemExit(f"{tool} wrote no HTML for {len(missing)} sessions, e.g. {missing[0]}")
        written = sum((out / f"{f.stem}.html").stat().st_size for f in self.files)
        return Run(seconds, json.loads(timings.read_text()), written)

    def run_per_process(self, tool: str) -> Run:
        """Each session in a new process of ``tool``; the whole loop is timed."""
        out = self.output(f"{tool} per process")
        env = self.environment()
        started = time.perf_counter()
        per_file = []
        for path in self.files:
            page = out / f"{path.stem}.html"
            arguments = [a.format(path=path, out=page) for a in PER_PROCESS[tool]]
            if tool == "cclens":
                arguments += [] if self.redact else ["--no-redact"]
                arguments += ["--jobs", str(self.jobs)] if self.jobs else []
            per_file.append(_timed([sys.executable, "-c", *arguments], env))
        seconds = time.perf_counter() - started
        written = sum((out / f"{f.stem}.html").stat().st_size for f in self.files)
        return Run(seconds, per_file, written)

    def run_bulk(self) -> Run:
        """``cclens export --all`` over the projects folder; every page and the index must exist."""
        out = self.output(BULK)
        command = [sys.executable, "-c", CCLENS_CLI, "export", "--all", str(self.projects)]
        command += ["-o", str(out)] + (["--jobs", str(self.jobs)] if self.jobs else [])
        command += [] if self.redact else ["--no-redact"]
        seconds = _timed(command, self.environment())
        pages = [p for p in out.rglob("*.html") if p.name != "index.html"]
        if len(pages) != len(self.files) or not (out / "index.html").is_file():
            raise SystemExit(f"{BULK} wrote {len(pages)} pages for {len(self.files)} sessions")
        written = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
        return Run(seconds, written=written)


def _timed(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, env=env)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{command[:4]} failed:\n{done.stderr.decode(errors='replace')[-2000:]}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=None, help="cclens workers (default: CPUs)")
    parser.add_argument("--cold", action="store_true", help="empty caches for every run")
    parser.add_argument(
        "--no-redact", action="store_true", help="cclens without secret redaction (on by default)"
    )
    parser.add_argument(
        "--real-sized", action="store_true", help="large sessions built from the corpus's records"
    )
    args = parser.parse_args()
    ensure_claude_code_log()
    with tempfile.TemporaryDirectory(prefix="cclens-bench-") as temp:
        work = Path(temp)
        if args.real_sized:
            sys.path.insert(0, str(Path(__file__).resolve().parent))
            import synthetic

            synthetic.large_corpus(work, synthetic.donors(args.corpus), REAL_SIZED_MB)
            sessions = discover(work / "projects").sessions
            label = f"real-sized, built from {args.corpus}"
        else:
            sessions = copy_layout(args.corpus, work)
            label = str(args.corpus)
        size = sum(s.path.stat().st_size for s in sessions)
        agents = sum(a.path.stat().st_size for s in sessions for a in s.subagents)
        print(
            f"corpus: {label}: {len(sessions)} sessions, {size / 1e6:.1f} MB "
            f"(+{agents / 1e6:.1f} MB of subagent transcripts)"
        )
        print(f"runs: {args.runs}; CPUs: {os.cpu_count()}; load average: {load_average()}")
        print(f"cclens redacts secrets: {'no (--no-redact)' if args.no_redact else 'yes'}")
        bench = Bench(
            work,
            [s.path for s in sessions],
            work / "projects",
            args.cold,
            args.jobs,
            redact=not args.no_redact,
        )

        if not args.cold:
            bench.run_bulk()
            for tool in TOOL_SCRIPTS:
                bench.run_file_by_file(tool)
                bench.run_per_process(tool)
        runs: dict[str, list[Run]] = {BULK: [], "cclens": [], "claude-code-log": []}
        apart: dict[str, list[Run]] = {tool: [] for tool in PER_PROCESS}
        for _ in range(args.runs):
            runs[BULK].append(bench.run_bulk())
            for tool in TOOL_SCRIPTS:
                runs[tool].append(bench.run_file_by_file(tool))
                apart[tool].append(bench.run_per_process(tool))

        workers = args.jobs or os.cpu_count()
        labels = {
            BULK: f"cclens export --all ({workers} workers)",
            "cclens": "cclens, file by file",
            "claude-code-log": "claude-code-log, file by file",
        }
        print("\nwhole corpus, one fresh process each (median of runs, imports included):")
        wall = {tool: statistics.median(r.seconds for r in done) for tool, done in runs.items()}
        for tool, seconds in wall.items():
            print(f"  {labels[tool]:36} {seconds:7.2f} s")
        reference = wall["claude-code-log"]
        print(f"  ratio, {labels[BULK]:29} {reference / wall[BULK]:7.1f}x")
        print(f"  ratio, {'file by file, one process each':29} {reference / wall['cclens']:7.1f}x")

        print("\none process per session (median of runs of the whole loop):")
        each = {tool: statistics.median(r.seconds for r in done) for tool, done in apart.items()}
        for tool, seconds in each.items():
            print(f"  {tool + ', one process per session':36} {seconds:7.2f} s")
        print(
            f"  ratio, {'one process per session':29} "
            f"{each['claude-code-log'] / each['cclens']:7.1f}x"
        )

        print("\nbytes written (last run):")
        written = {tool: done[-1].written for tool, done in runs.items()}
        for tool, count in written.items():
            share = count / written["claude-code-log"]
            print(f"  {labels[tool]:36} {count / 1e6:7.1f} MB ({share:.2f}x claude-code-log's)")

        print("\nper session, file by file (each session's median over runs):")
        count = len(bench.files)
        medians = {
            tool: [statistics.median(r.per_file[i] for r in runs[tool]) for i in range(count)]
            for tool in TOOL_SCRIPTS
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
