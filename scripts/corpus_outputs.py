"""Write every corpus session as HTML, Markdown and terminal text, to compare two versions.

    PYTHONPATH=src python3 scripts/corpus_outputs.py OUT_DIR
    diff -r OUT_BEFORE/html OUT_AFTER/html     # the exported pages, byte for byte

Sessions: the shared corpus (``../shared/corpus``, Claude Code) and the other agents'
transcripts under ``tests/data/agents``. Each session gives ``html/<name>.html`` (what
``cclens export`` writes, one process), ``md/<name>.md`` (``export -f md``) and
``terminal/<name>.txt`` (``cclens show --lines 0 --details``, 100 columns, no colour).
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from rich.console import Console

from cclens.export import export_html, export_markdown
from cclens.readers.agents import agent_of, load_path
from cclens.readers.claude import Session, load_session
from cclens.render.terminal import TerminalOptions, session_renderables

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
AGENTS = ROOT / "tests" / "data" / "agents"


def sessions() -> list[tuple[str, Path]]:
    """Every transcript to draw (the corpus's files all read as Claude Code's, as the tests
    read them), with a file name unique to it."""
    found = sorted(CORPUS.rglob("*.jsonl")) + [
        path
        for path in sorted(AGENTS.rglob("*"))
        if path.suffix in (".jsonl", ".json") and agent_of(path) is not None
    ]
    return [(_name(path), path) for path in found]


def _name(path: Path) -> str:
    where = "corpus" if path.is_relative_to(CORPUS) else "agents"
    inside = path.relative_to(CORPUS if where == "corpus" else AGENTS)
    return f"{where}__{str(inside).replace('/', '__')}"


def load(path: Path) -> Session:
    return load_session(path) if path.is_relative_to(CORPUS) else load_path(path)


def terminal_text(path: Path) -> str:
    console = Console(file=io.StringIO(), width=100, color_system=None, force_terminal=False)
    options = TerminalOptions(details=True, result_lines=0, subagents=True)
    for renderable in session_renderables(load(path), options):
        console.print(renderable)
    output = console.file
    assert isinstance(output, io.StringIO)
    return output.getvalue()


def main(arguments: list[str]) -> int:
    if len(arguments) != 1:
        print("usage: corpus_outputs.py OUT_DIR", file=sys.stderr)
        return 2
    out = Path(arguments[0])
    for kind in ("html", "md", "terminal"):
        (out / kind).mkdir(parents=True, exist_ok=True)
    found = sessions()
    for name, path in found:
        session = load(path)
        (out / "html" / f"{name}.html").write_text(export_html(session))
        (out / "md" / f"{name}.md").write_text(export_markdown(session))
        (out / "terminal" / f"{name}.txt").write_text(terminal_text(path))
    print(f"{len(found)} sessions written under {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
