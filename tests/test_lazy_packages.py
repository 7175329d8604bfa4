"""Packages that load their modules on first use (the status line and the hook are a new
process each time; ``cclens X --help`` loads no command's work): every public name still
resolves, no lazy name is hidden by a submodule of the same name, and importing them loads no
parser."""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

from .fresh import loaded_by_help

SESSION_ID = "5f0e6a8e-1b6c-4d55-9d6e-0f9a5b3c2d1e"
LINE = json.dumps(
    {
        "type": "user",
        "uuid": "u1",
        "parentUuid": None,
        "sessionId": SESSION_ID,
        "timestamp": "2025-01-01T00:00:00Z",
        "cwd": "/p",
        "message": {"role": "user", "content": "hello"},
    }
)

#: Every package whose names are loaded on first use (``cclens._lazy.lazy_names``).
LAZY = [
    "cclens",
    "cclens.index",
    "cclens.model",
    "cclens.model.tools",
    "cclens.readers.claude",
    "cclens.readers.codex",
    "cclens.readers.gemini",
    "cclens.readers.copilot",
    "cclens.render",
    "cclens.export",
    "cclens.redact",
]


@pytest.mark.parametrize("name", LAZY)
def test_every_public_name_resolves(name: str) -> None:
    package = importlib.import_module(name)
    names = getattr(package, "__all__")  # noqa: B009
    for public in names:
        assert getattr(package, public) is not None, public
    places = getattr(package, "_PLACES", None)
    if places is not None:
        # Every lazy name is public (a name added to one list only fails here).
        assert set(places) <= set(names), set(places) - set(names)


@pytest.mark.parametrize("name", LAZY[1:])
def test_no_lazy_name_is_also_a_submodule(name: str) -> None:
    # Importing a submodule sets the package's attribute of that name to the module: a lazy
    # function of the same name would then be found as the module. Such a name is imported
    # eagerly (from a light module) or not at all.
    package = importlib.import_module(name)
    places = getattr(package, "_PLACES", {})
    submodules = {found.name for found in pkgutil.iter_modules(package.__path__)}
    assert not set(places) & submodules


def test_importing_the_packages_loads_no_parser() -> None:
    # The status line's own modules too: it is a new process each time Claude Code redraws it.
    code = (
        "import sys, cclens, cclens.index, cclens.index.read.live_usage, cclens.__main__, "
        "cclens._statusline, "
        "cclens.reports.live; "
        "print(sorted(m for m in sys.modules if m.startswith('cclens.')))"
    )
    found = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert "cclens.readers.claude" not in found and "cclens.model" not in found, found
    assert "cclens.cli" not in found, found  # nor the command line library


#: What ``cclens X --help`` must not load: the index, the readers and the model, rendering,
#: redaction, the web app, and the libraries behind them.
HEAVY = (
    "cclens.model",
    "cclens.readers.claude",
    "cclens.readers.codex",
    "cclens.readers.agents",
    "cclens.index.database",
    "cclens.index.write",
    "cclens.index.read.search",
    "cclens.redact.engine",
    "cclens.render.page",
    "cclens.export.html_file",
    "cclens.web",
    "cclens.mcp.server",
    "cclens.dataset.write",
    "cclens.otel.send",
    "rich",
    "jinja2",
    "pygments",
    "markdown_it",
    "numpy",
    "pyarrow",
    "starlette",
    "opentelemetry",
)


@pytest.mark.slow
def test_no_command_help_loads_the_work() -> None:
    from cclens.cli.main import COMMANDS

    inside = tuple(f"{module}." for module in HEAVY)
    for name in COMMANDS:  # one process each: what one command loads, not all of them
        found = loaded_by_help(name)
        heavy = sorted(m for m in found if m in HEAVY or m.startswith(inside))
        assert not heavy, f"cclens {name} --help loads {heavy[:10]}"


def test_the_hook_loads_no_numpy_renderer_or_redaction(tmp_path: Path) -> None:
    # The hook archives what was appended: no vectors (numpy and the model are for the next
    # update), no pages, no redaction, no Rich.
    claude = tmp_path / "claude"
    project = claude / "projects" / "p"
    project.mkdir(parents=True)
    transcript = project / f"{SESSION_ID}.jsonl"
    transcript.write_text(LINE + "\n", encoding="utf-8")
    payload = json.dumps({"session_id": SESSION_ID, "transcript_path": str(transcript)})
    code = (
        "import sys\nfrom pathlib import Path\nfrom cclens.setup.hook import run\n"
        "run(Path(sys.argv[1]), read=lambda: sys.argv[2], roots=[Path(sys.argv[3])])\n"
        "print(' '.join(sorted(sys.modules)))"
    )
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "index.db"), payload, str(claude)],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    found = done.stdout.split()
    state = json.loads((tmp_path / "data" / "cclens" / "hook.json").read_text(encoding="utf-8"))
    assert state["outcome"] == "archived", state
    for heavy in ("numpy", "jinja2", "pygments", "rich", "cclens.render", "cclens.redact"):
        assert not [m for m in found if m == heavy or m.startswith(heavy + ".")], heavy
