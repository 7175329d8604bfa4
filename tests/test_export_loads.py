"""What ``cclens export SESSION`` loads (issue 22's start-up aim): an agent's reader and a tool
family's views are imported when a session of that agent is read and a call of that family is
drawn, never with the registries. Each export is a new process (``-j 1``: drawn in it), with no
agent folder, as on a fresh machine; the page still draws every call by its own view."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from .fresh import loaded_by_help

ROOT = Path(__file__).resolve().parent.parent
#: A small Claude Code session of the shared corpus: Bash, Glob, TodoWrite and Write calls.
CLAUDE = (
    ROOT.parent
    / "shared/corpus/d-kimuson__claude-code-viewer/mock-global-claude-dir/projects"
    / "sample-project/1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl"
)
CODEX = (
    ROOT
    / "tests/data/agents/codex/real/LAF-US__IDAHO-VAULT/sessions/2026/04/15"
    / "rollout-2026-04-15T11-58-29-019d924b-6bc1-7fa2-aa36-5e5a0e068c59.jsonl"
)

_CODE = (
    "import sys\nfrom cclens.cli.main import main\n"
    "try:\n    main(['export', *sys.argv[1:]])\nexcept SystemExit as done:\n"
    "    assert not done.code, done.code\n"
    "print(' '.join(sorted(sys.modules)))"
)


def _export(session: Path, tmp_path: Path) -> tuple[set[str], str]:
    """The modules an export of ``session`` loaded, and the page it wrote."""
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("CLAUDE_", "CODEX_", "COPILOT_", "GEMINI_", "XDG_"))
    }
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / "data"), XDG_CACHE_HOME=str(home / "c"))
    out = tmp_path / f"{session.stem}.html"
    done = subprocess.run(
        [sys.executable, "-c", _CODE, str(session), "-o", str(out), "-j", "1"],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    return set(done.stdout.split()), out.read_text(encoding="utf-8")


def test_a_claude_code_export_loads_no_other_agent_and_no_unused_view(tmp_path: Path) -> None:
    loaded, page = _export(CLAUDE, tmp_path)
    for module in (
        "cclens.readers.codex.assemble",
        "cclens.readers.codex.translate",
        "cclens.readers.gemini.assemble",
        "cclens.readers.gemini.chat",
        "cclens.model.tools.codex",
        "cclens.model.tools.gemini",
        "cclens.model.tools.copilot",
        "cclens.render.tool_views.codex",
        "cclens.render.tool_views.gemini",
        "cclens.render.tool_views.copilot",
        "cclens.render.tool_views.mcp",  # no MCP call in this session
        "cclens.render.tool_views.web",
    ):
        assert module not in loaded, module
    # The families of the calls it holds are drawn by their own views.
    for module in ("shell", "search", "tasks", "files"):
        assert f"cclens.render.tool_views.{module}" in loaded, module
    assert 'data-view="bash"' in page and 'data-view="todo"' in page


def test_a_codex_export_loads_its_reader_and_draws_its_views(tmp_path: Path) -> None:
    loaded, page = _export(CODEX, tmp_path)
    assert "cclens.readers.codex.assemble" in loaded
    assert "cclens.render.tool_views.codex" in loaded
    assert 'data-view="codex-shell"' in page


def test_export_help_loads_no_model_library() -> None:
    # The command line's own helpers (--dir, output checks, the SESSION argument) are plain
    # classes: the model's and the pages' Structs come with the work, not with --help.
    assert "msgspec" not in loaded_by_help("export")


def test_every_deferred_function_of_the_registries_exists() -> None:
    # A registry names its functions as strings: a misspelt one would fail only when a session
    # needed it (a view would then be drawn generically).
    from cclens._lazy import Deferred
    from cclens.model.tools.registry import AGENT_TOOLS
    from cclens.readers.agents import READERS
    from cclens.render import tool_views

    found: list[object] = [*AGENT_TOOLS.values()]
    for reader in READERS.values():
        found += [getattr(reader, name) for name in reader.__struct_fields__]
    views = [
        view
        for table in ("VIEWS", "GEMINI_VIEWS", "COPILOT_VIEWS", "CODEX_VIEWS")
        for view, _ in getattr(tool_views, table)
    ]
    views += [tool_views.MCP_VIEW, *tool_views.AGENT_MCP_VIEWS.values()]
    found += [view.prepare for view in views]
    named = [item for item in found if isinstance(item, Deferred)]
    assert len(named) >= 100
    for item in named:
        assert callable(item.resolve()), item
