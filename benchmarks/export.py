"""Time exporting every session of a corpus to HTML with cclens and with claude-code-log.

    python3 benchmarks/export.py [CORPUS] [--runs 3] [--jobs N] [--cold] [--real-sized]
                                 [--compare SRC]

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

Printed: the median wall time of each whole process (interpreter start and imports included)
and its CPU time (user and system, its worker processes included: what a loaded machine does
not change much), with the ratios, the bytes each tool wrote (and their ratio), then each
session's median time for the two file-by-file runs, and the loops of one process per session.

``--compare SRC`` runs another cclens (its ``src`` folder, e.g. ``../main/src``: the code
before a change) in the same runs, interleaved with the others, and prints its figures and the
ratio of this cclens to it: on a shared machine only figures of one run can be compared.

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
import resource
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
CCLENS_CLI = "from cclens.__main__ import main; main()"

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
    #: User and system CPU time of the process and the processes it started.
    cpu: float = 0.0
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
    #: Another cclens's ``src`` folder, run beside this one (``--compare``).
    compare: Path | None = None

    @property
    def workers(self) -> int:
        """cclens's worker processes: ``--jobs``, else one per CPU (as ``cclens export``)."""
        return self.jobs or os.cpu_count() or 1

    def environment(self, source: Path | None = None) -> dict[str, str]:
        """The tools' environment: bytecode and template caches in the work folder; cclens
        imported from ``source`` when given (its own caches)."""
        name = "caches" if source is None else "caches-compared"
        caches = self.work / (f"{name}-{self.runs}" if self.cold else name)
        env = dict(os.environ)
        if source is not None:
            env["PYTHONPATH"] = os.pathsep.join([str(source), env.get("PYTHONPATH", "")])
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

    def run_file_by_file(self, tool: str, source: Path | None = None) -> Run:
        """Convert every file with ``tool`` in one fresh process; every output must exist."""
        out = self.output(tool)
        listing = out / "files.txt"
        listing.write_text("\n".join(str(f) for f in self.files))
        timings = out / "times.json"
        script = f"REDACT = {self.redact}\nWORKERS = {self.workers}\n{TOOL_SCRIPTS[tool]}"
        command = [sys.executable, "-c", script, str(listing), str(out), str(timings)]
        seconds, cpu = _timed(command, self.environment(source))
        missing = [f for f in self.files if not (out / f"{f.stem}.html").is_file()]
        if missing:
            raise SystemExit(f"{tool} wrote no HTML for {len(missing)} sessions, e.g. {missing[0]}")
        written = sum((out / f"{f.stem}.html").stat().st_size for f in self.files)
        return Run(seconds, cpu, json.loads(timings.read_text()), written)

    def run_per_process(self, tool: str, source: Path | None = None) -> Run:
        """Each session in a new process of ``tool``; the whole loop is timed."""
        out = self.output(f"{tool} per process")
        env = self.environment(source)
        started = time.perf_counter()
        cpu_before = _children_cpu()
        per_file = []
        for path in self.files:
            page = out / f"{path.stem}.html"
            arguments = [a.format(path=path, out=page) for a in PER_PROCESS[tool]]
            if tool == "cclens":
                arguments += [] if self.redact else ["--no-redact"]
                arguments += ["--jobs", str(self.jobs)] if self.jobs else []
            per_file.append(_timed([sys.executable, "-c", *arguments], env)[0])
        seconds = time.perf_counter() - started
        cpu = _children_cpu() - cpu_before
        written = sum((out / f"{f.stem}.html").stat().st_size for f in self.files)
        return Run(seconds, cpu, per_file, written)

    def run_bulk(self, source: Path | None = None) -> Run:
        """``cclens export --all`` over the projects folder; every page and the index must exist."""
        out = self.output(BULK)
        command = [sys.executable, "-c", CCLENS_CLI, "export", "--all", str(self.projects)]
        command += ["-o", str(out)] + (["--jobs", str(self.jobs)] if self.jobs else [])
        command += [] if self.redact else ["--no-redact"]
        seconds, cpu = _timed(command, self.environment(source))
        pages = [p for p in out.rglob("*.html") if p.name != "index.html"]
        if len(pages) != len(self.files) or not (out / "index.html").is_file():
            raise SystemExit(f"{BULK} wrote {len(pages)} pages for {len(self.files)} sessions")
        written = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
        return Run(seconds, cpu, written=written)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """The wall and CPU time of running ``command`` (its own children included)."""
    cpu = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, env=env)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{command[:4]} failed:\n{done.stderr.decode(errors='replace')[-2000:]}")
    return seconds, _children_cpu() - cpu


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
    parser.add_argument(
        "--compare",
        type=Path,
        default=None,
        metavar="SRC",
        help="another cclens's src folder (e.g. ../main/src), run in the same runs",
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
            compare=args.compare,
        )
        if args.compare is not None:
            print(f"compared with: cclens from {args.compare} ({COMPARED})")
        report(bench, args.runs)


#: The suffix of the names of the runs of the cclens given to ``--compare``.
COMPARED = "[compared]"


def report(bench: Bench, count: int) -> None:
    """Run every tool ``count`` times (after a warm-up run unless cold) and print the figures."""
    sources: dict[str, Path | None] = {"": None}
    if bench.compare is not None:
        sources[f" {COMPARED}"] = bench.compare
    runs: dict[str, list[Run]] = {}
    apart: dict[str, list[Run]] = {}
    for index in range(count + (0 if bench.cold else 1)):
        warm_up = index == 0 and not bench.cold
        for suffix, source in sources.items():
            for name, done in [
                (BULK + suffix, bench.run_bulk(source)),
                ("cclens" + suffix, bench.run_file_by_file("cclens", source)),
            ]:
                runs.setdefault(name, []).extend([] if warm_up else [done])
            done = bench.run_per_process("cclens", source)
            apart.setdefault("cclens" + suffix, []).extend([] if warm_up else [done])
        done = bench.run_file_by_file("claude-code-log")
        runs.setdefault("claude-code-log", []).extend([] if warm_up else [done])
        done = bench.run_per_process("claude-code-log")
        apart.setdefault("claude-code-log", []).extend([] if warm_up else [done])

    workers = bench.workers
    labels = {}
    for suffix in sources:
        labels[BULK + suffix] = f"cclens export --all{suffix} ({workers} workers)"
        labels["cclens" + suffix] = f"cclens{suffix}, file by file"
    labels["claude-code-log"] = "claude-code-log, file by file"
    reference = "claude-code-log"

    def table(title: str, done: dict[str, list[Run]], names: dict[str, str]) -> None:
        print(f"\n{title} (median of runs; wall, CPU with workers):")
        wall = {tool: statistics.median(r.seconds for r in rs) for tool, rs in done.items()}
        cpu = {tool: statistics.median(r.cpu for r in rs) for tool, rs in done.items()}
        for tool in done:
            print(f"  {names[tool]:46} {wall[tool]:7.2f} s  CPU {cpu[tool]:7.2f} s")
        for tool in done:
            if tool == reference:
                continue
            line = f"  ratio, {names[tool]:39} {wall[reference] / wall[tool]:7.2f}x"
            line += f"  CPU {cpu[reference] / cpu[tool]:7.2f}x  (claude-code-log's / cclens's)"
            print(line)
        for tool in done:
            if tool.endswith(COMPARED) or tool + f" {COMPARED}" not in done:
                continue
            other = tool + f" {COMPARED}"
            print(
                f"  ratio, {names[tool] + ' against ' + COMPARED:39} "
                f"{wall[other] / wall[tool]:7.2f}x  CPU {cpu[other] / cpu[tool]:7.2f}x"
            )

    table("whole corpus, one fresh process each, imports included", runs, labels)
    table(
        "one process per session, the whole loop",
        apart,
        {tool: f"{tool}, one process per session" for tool in apart},
    )

    print("\nbytes written (last run):")
    written = {tool: done[-1].written for tool, done in runs.items()}
    for tool, size in written.items():
        share = size / written["claude-code-log"]
        print(f"  {labels[tool]:46} {size / 1e6:7.1f} MB ({share:.2f}x claude-code-log's)")

    print("\nper session, file by file (each session's median over runs):")
    files = len(bench.files)
    medians = {
        tool: [statistics.median(r.per_file[i] for r in runs[tool]) for i in range(files)]
        for tool in runs
        if tool != BULK and not tool.startswith(BULK + " ")
    }
    for tool, values in medians.items():
        print(
            f"  {tool:26}  total {sum(values):7.2f} s, "
            f"median {statistics.median(values) * 1000:7.1f} ms, "
            f"max {max(values) * 1000:7.1f} ms"
        )
    ratios = [t / m for m, t in zip(medians["cclens"], medians[reference], strict=True)]
    total_ratio = sum(medians[reference]) / sum(medians["cclens"])
    print(
        f"  ratio of totals  {total_ratio:7.1f}x; "
        f"median per-session ratio {statistics.median(ratios):.1f}x"
    )


if __name__ == "__main__":
    main()
