"""Start-up: what ``cclens --help``, each ``cclens X --help`` and a small export cost.

Usage: ``python benchmarks/startup.py [--runs N] [--session FILE] [--against SRC] [--floor]``

Every figure is a new process, interpreter start included, with its bytecode cached as once
installed (``PYTHONPYCACHEPREFIX`` in a work folder, warmed first) and cclens's compiled
templates cached too. ``HOME`` and the XDG folders point into the work folder: no agent folder
and no index, as on a fresh machine, so ``cclens export FILE`` reads the file and nothing else.

Printed, with the load average: for each command the median and p95 wall time, the median CPU
time, and the ratios of the medians to ``python -c "import click"`` measured in the same run
(the yardstick of the aims): ``cclens --help`` and every ``cclens X --help`` at most 2x
importing click; ``cclens export SESSION -o FILE`` of a ~30 KB session under 200 ms end to
end. ``--against SRC`` runs the same commands with another source tree on ``PYTHONPATH`` (for
example ``../main/src``), interleaved with this one's, and prints both. ``--floor`` adds what
the export costs before its work: a process importing only the libraries the export loads
(every module outside cclens it has once done), then those and cclens's modules it loads, with
no work done.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import load_average

HERE = Path(__file__).resolve().parents[1] / "src"
#: A small session of the shared corpus (27 KB, 12 tool calls).
SESSION = (
    Path(__file__).resolve().parents[2]
    / "shared/corpus/d-kimuson__claude-code-viewer/mock-global-claude-dir/projects"
    / "sample-project/1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl"
)
CLICK = "import click"


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


class Timings:
    """Wall and CPU seconds of each labelled command, over the runs."""

    def __init__(self) -> None:
        self.wall: dict[str, list[float]] = {}
        self.cpu: dict[str, list[float]] = {}

    def run(self, label: str, command: list[str], env: dict[str, str]) -> None:
        cpu = _cpu()
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, env=env)
        elapsed = time.perf_counter() - started
        if done.returncode != 0:
            raise SystemExit(f"{label} failed:\n{done.stderr.decode(errors='replace')[-2000:]}")
        self.wall.setdefault(label, []).append(elapsed)
        self.cpu.setdefault(label, []).append(_cpu() - cpu)

    def line(self, label: str, reference: str, aim: str = "") -> str:
        wall, cpu = self.wall[label], self.cpu[label]
        ratio_wall = statistics.median(wall) / statistics.median(self.wall[reference])
        ratio_cpu = statistics.median(cpu) / statistics.median(self.cpu[reference])
        return (
            f"{label:34s} p50 {statistics.median(wall) * 1000:6.0f} ms  "
            f"p95 {_p95(wall) * 1000:6.0f} ms  cpu {statistics.median(cpu) * 1000:5.0f} ms  "
            f"x{ratio_wall:4.1f} wall x{ratio_cpu:4.1f} cpu" + (f"  {aim}" if aim else "")
        )


def _environment(work: Path, source: Path) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("CLAUDE_", "CODEX_", "COPILOT_", "CCLENS_", "XDG_"))
    }
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    home = work / "home"
    env.update(
        HOME=str(home),
        XDG_CACHE_HOME=str(home / ".cache"),
        XDG_DATA_HOME=str(home / ".local" / "share"),
        XDG_CONFIG_HOME=str(home / ".config"),
        PYTHONPATH=str(source),
        PYTHONPYCACHEPREFIX=str(work / f"pycache-{abs(hash(str(source)))}"),
    )
    return env


def _commands(source: Path) -> list[str]:
    """The commands ``cclens --help`` lists, read from ``source``'s command group."""
    found = subprocess.run(
        [sys.executable, "-c", "from cclens.cli.main import COMMANDS; print(*COMMANDS)"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(source)},
    )
    return found.stdout.split()


def _floor_scripts(work: Path, session: Path, env: dict[str, str]) -> tuple[Path, Path]:
    """Two scripts importing what an export of ``session`` loads: the libraries alone, and
    the libraries with cclens's modules (each import as it was done, nothing run)."""
    code = (
        "import sys\nfrom cclens.cli.main import main\n"
        "try:\n    main(['export', *sys.argv[1:]])\nexcept SystemExit:\n    pass\n"
        "print(' '.join(m for m in sys.modules if not m.startswith('__')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(session), "-o", str(work / "floor.html"), "-j", "1"],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    loaded = done.stdout.split()
    libraries = [name for name in loaded if name.split(".")[0] != "cclens"]
    own = [name for name in loaded if name.split(".")[0] == "cclens"]
    scripts = []
    for name, modules in (("libraries", libraries), ("all", libraries + own)):
        script = work / f"floor_{name}.py"
        script.write_text(
            "".join(f"try:\n    import {m}\nexcept Exception:\n    pass\n" for m in modules)
        )
        scripts.append(script)
    return scripts[0], scripts[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--session", type=Path, default=SESSION)
    parser.add_argument("--against", type=Path, help="another src/ to time in the same run")
    parser.add_argument("--floor", action="store_true", help="also time what the export imports")
    args = parser.parse_args()
    sources = {"": HERE}
    if args.against is not None:
        sources = {"": HERE, "before: ": args.against.resolve()}
    commands = _commands(HERE)
    timings = Timings()
    with tempfile.TemporaryDirectory(prefix="cclens-startup-") as temp:
        work = Path(temp)
        (work / "home").mkdir()
        out = work / "out.html"
        cclens = [sys.executable, "-m", "cclens"]
        plans: list[tuple[str, list[str], dict[str, str]]] = []
        base = _environment(work, HERE)
        plans.append(("python -c pass", [sys.executable, "-c", "pass"], base))
        plans.append(("python -c 'import click'", [sys.executable, "-c", CLICK], base))
        for prefix, source in sources.items():
            env = _environment(work, source)
            plans.append((f"{prefix}cclens --help", [*cclens, "--help"], env))
            for name in commands:
                plans.append((f"{prefix}cclens {name} --help", [*cclens, name, "--help"], env))
            export = [*cclens, "export", str(args.session), "-o", str(out)]
            plans.append((f"{prefix}cclens export (small session)", export, env))
            if args.floor and not prefix:
                libraries, everything = _floor_scripts(work, args.session, env)
                python = [sys.executable]
                plans.append(("floor: its libraries imported", [*python, str(libraries)], env))
                plans.append(("floor: + cclens's modules", [*python, str(everything)], env))
        for label, command, env in plans:  # warm the bytecode and template caches
            timings.run(label, command, env)
        timings = Timings()
        for _ in range(args.runs):
            for label, command, env in plans:
                timings.run(label, command, env)
        shutil.rmtree(work / "home", ignore_errors=True)
    size = args.session.stat().st_size
    print(
        f"{args.runs} runs of each, interleaved; load average {load_average()}; "
        f"session {args.session.name} ({size / 1000:.0f} kB)"
    )
    print("ratios: the medians against python -c 'import click' in the same run")
    reference = "python -c 'import click'"
    for label in timings.wall:
        aim = ""
        if label.endswith("--help"):
            aim = "aim <= 2x import click"
        elif "export" in label:
            aim = "aim < 200 ms"
        print(timings.line(label, reference, aim))


if __name__ == "__main__":
    main()
