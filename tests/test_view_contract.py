"""One view contract: each call's view is prepared once, as a typed model, and every output
draws it (the page's template, Markdown, the terminal), with undefined names an error.

The templates run with ``StrictUndefined``: a name a template reads that its view does not
have fails the view (the call is then drawn by the generic view and counted in
``SessionRenderer.view_failures``) instead of drawing a blank. Every session of the shared
corpus and of the other agents' transcripts, and every synthetic case of the tool views,
draws with no view failing.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
from jinja2 import StrictUndefined, UndefinedError
from rich.console import Console

from cclens.export import export_markdown
from cclens.readers.agents import agent_of, load_path
from cclens.readers.claude import Session, ToolCall, load_session
from cclens.render import RenderOptions, SessionRenderer
from cclens.render.environment import template_environment
from cclens.render.frame import tool_frame
from cclens.render.prepared import PreparedView, TextPart
from cclens.render.terminal import TerminalOptions, session_renderables
from cclens.render.tool_views import prepared_view, view_for
from cclens.render.tool_views.files import prepare_read
from cclens.render.tool_views.shell import ShellView
from cclens.render.views import ToolView, ViewHelpers

from .conftest import CORPUS, corpus_files
from .test_render_tool_views import CASES, load_cases, render

AGENTS = Path(__file__).parent / "data" / "agents"
OTHER_AGENTS = [
    path
    for path in sorted(AGENTS.rglob("*"))
    if path.suffix in (".jsonl", ".json") and agent_of(path) is not None
]


def _calls(session: Session) -> Iterator[ToolCall]:
    for each in session.all_sessions():
        yield from each.tool_calls.values()


def test_the_render_environment_is_strict() -> None:
    environment = template_environment()
    assert environment.undefined is StrictUndefined
    with pytest.raises(UndefinedError):
        environment.from_string("{{ v.nothing }}").render(v=object())


def _drawn_without_failures(session: Session) -> None:
    renderer = SessionRenderer(RenderOptions(lazy=False))
    renderer.page(session)
    assert renderer.view_failures == []


@pytest.mark.slow
@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: str(p.relative_to(CORPUS)))
def test_every_corpus_session_draws_with_no_view_failing(path: Path) -> None:
    _drawn_without_failures(load_session(path))


@pytest.mark.parametrize("path", OTHER_AGENTS, ids=lambda p: str(p.relative_to(AGENTS)))
def test_every_other_agent_s_session_draws_with_no_view_failing(path: Path) -> None:
    _drawn_without_failures(load_path(path))


def test_every_synthetic_case_draws_with_no_view_failing(tmp_path: Path) -> None:
    for _, call in load_cases(tmp_path, CASES):
        assert render(call).failures == [], call.name


def test_a_view_missing_a_name_its_template_reads_fails_and_is_counted(tmp_path: Path) -> None:
    ((_, call),) = load_cases(tmp_path, [next(c for c in CASES if c.tool == "Bash")])
    # The Read template fed the view of a command: v.path is not there.
    wrong = ToolView("read", "tools/read.html", lambda call, h: view_for(call).prepare(call, h))
    renderer = SessionRenderer(RenderOptions(lazy=False), views=lambda _: wrong)
    html = str(renderer.tool(call))
    assert 'data-view="generic"' in html
    assert len(renderer.view_failures) == 1
    assert "UndefinedError" in renderer.view_failures[0]
    assert "ShellView object' has no attribute 'path'" in renderer.view_failures[0]


def _template_shows_a_result(call: ToolCall, view: ToolView, prepared: PreparedView) -> bool:
    """Whether the view's own template drew a result (``data-part="result"``)."""
    environment = template_environment()
    template = environment.get_template(view.template)
    helpers = ViewHelpers(environment)
    html = template.render(call=call, v=prepared, h=helpers, f=tool_frame(call, prepared))
    return 'data-part="result"' in html


def _views_agree(session: Session) -> list[str]:
    """Calls whose text parts and page disagree on whether the view shows the result."""
    disagree = []
    for call in _calls(session):
        if call.subagents:
            continue  # the page draws the subagents' own results inside the call
        view = view_for(call)
        prepared = prepared_view(call)
        parts = prepared.text_parts()
        assert all(isinstance(part, TextPart) for part in parts)
        if _template_shows_a_result(call, view, prepared) != any(p.result for p in parts):
            disagree.append(f"{call.name} {call.id} ({view.name})")
    return disagree


def test_text_parts_show_the_result_when_the_page_does(tmp_path: Path) -> None:
    sessions = [session for session, _ in load_cases(tmp_path, CASES)]
    sessions += [load_path(path) for path in OTHER_AGENTS]
    assert [call for session in sessions for call in _views_agree(session)] == []


@pytest.mark.slow
def test_text_parts_show_the_result_when_the_page_does_on_the_corpus() -> None:
    found = [call for path in corpus_files() for call in _views_agree(load_session(path))]
    assert found == []


def test_every_view_is_a_frozen_typed_model(tmp_path: Path) -> None:
    for _, call in load_cases(tmp_path, CASES):
        prepared = prepared_view(call)
        # A msgspec Struct: typed fields, made in C (a page defines its views' classes fast).
        assert isinstance(prepared, PreparedView) and isinstance(prepared, msgspec.Struct)
        assert {"i", "r", "error", "rejected", "badges", "notes"} <= set(prepared.__struct_fields__)
        with pytest.raises(AttributeError):
            prepared.error = "changed"  # type: ignore[misc]


def _markdown_and_terminal(session: Session) -> tuple[str, str]:
    console = Console(file=io.StringIO(), width=100, color_system=None)
    for renderable in session_renderables(session, TerminalOptions(result_lines=0)):
        console.print(renderable)
    output = console.file
    assert isinstance(output, io.StringIO)
    return export_markdown(session), output.getvalue()


def _case(tmp_path: Path, label: str) -> tuple[Session, ToolCall]:
    ((session, call),) = load_cases(tmp_path, [next(c for c in CASES if c.label == label)])
    return session, call


def test_a_command_is_drawn_from_its_view_in_every_output(tmp_path: Path) -> None:
    session, call = _case(tmp_path, "bash exit code")
    view = prepared_view(call)
    assert isinstance(view, ShellView) and ("exit code 1", "error") in view.badges
    markdown, terminal = _markdown_and_terminal(session)
    # The exit code is a badge of the view, said beside the call in both texts; the error is
    # the view's, without the "Exit code 1" line the page takes off it.
    assert "*(error, exit code 1" in markdown and "[exit code 1]" in terminal
    assert "something broke" in markdown and "something broke" in terminal
    assert "Exit code 1" not in markdown.split("What the model read besides")[0]


def test_an_edit_is_a_diff_in_every_output(tmp_path: Path) -> None:
    session, _ = _case(tmp_path, "edit without result")
    markdown, terminal = _markdown_and_terminal(session)
    assert "```diff\n@@" in markdown
    assert "\n-" in markdown and "\n+" in markdown
    assert "@@" in terminal


def test_a_todo_list_is_a_checklist_in_every_output(tmp_path: Path) -> None:
    session, call = _case(tmp_path, "todo write")
    items = [
        (part.label, part.text) for part in prepared_view(call).text_parts() if part.kind == "item"
    ]
    assert items == [
        ("completed", "Write tests"),
        ("in_progress", "Ship it (new)"),
        ("pending", "Announce (new)"),
        ("removed", "Old idea"),
    ]
    markdown, terminal = _markdown_and_terminal(session)
    assert "- [x] Write tests\n- [ ] Ship it (new) *(in progress)*" in markdown
    assert "- [ ] ~~Old idea~~ *(removed)*" in markdown
    assert "● Write tests" in terminal and "◐ Ship it (new)" in terminal


def test_a_read_shows_the_file_not_the_numbered_text(tmp_path: Path) -> None:
    session, call = _case(tmp_path, "read text")
    view = prepare_read(call, ViewHelpers(template_environment()))
    assert view.code is not None and view.code.start_line == 10
    assert view.range == "Lines 10–11 of 40"
    markdown, terminal = _markdown_and_terminal(session)
    assert "```python\ndef main():\n    return 1\n```" in markdown and "→" not in markdown
    lines = [line.rstrip() for line in terminal.split("\n")]
    assert lines[-3:] == ["  def main():", "      return 1", ""]
