"""What folded tool rows say: each call's argument from its view's typed summary, the same on
the page, in the terminal and in Markdown (issue 19)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from cclens.readers.claude import AssistantItem, Session, ToolCall, load_session
from cclens.render import RenderOptions, render_session_page
from cclens.render.parts import expand_page
from cclens.render.summary import ToolSummary, fallback_summary, first_line
from cclens.render.tool_views import TOOL_VIEWS, VIEWS, tool_summary, view_for
from cclens.render.tool_views.summaries import SUMMARIES

from .conftest import corpus_files


def _sessions() -> list[Session]:
    found = []
    for path in corpus_files():
        try:
            found.append(load_session(path))
        except Exception:  # files the corpus keeps to test failures
            continue
    return found


@pytest.fixture(scope="module")
def calls() -> list[ToolCall]:
    return [
        call
        for session in _sessions()
        for agent in session.all_sessions()
        for call in agent.tool_calls.values()
    ]


def test_every_view_of_a_tool_with_an_argument_has_a_typed_summary() -> None:
    names = {view.name for view, _ in VIEWS}
    assert set(SUMMARIES) <= names, set(SUMMARIES) - names
    for name in ("bash", "glob", "grep", "read", "edit", "write", "web-fetch", "agent"):
        assert (
            TOOL_VIEWS[
                {
                    "bash": "Bash",
                    "glob": "Glob",
                    "grep": "Grep",
                    "read": "Read",
                    "edit": "Edit",
                    "write": "Write",
                    "web-fetch": "WebFetch",
                    "agent": "Agent",
                }[name]
            ].summarize
            is SUMMARIES[name]
        )


@pytest.mark.slow
def test_rows_name_the_argument_of_every_call_of_the_corpus(calls: list[ToolCall]) -> None:
    said: Counter[bool] = Counter()
    for call in calls:
        summary = tool_summary(call)  # never raises
        raw = call.block.input if isinstance(call.block.input, dict) else {}
        if call.name in ("Bash", "PowerShell") and isinstance(raw.get("command"), str):
            assert summary.argument == first_line(raw["command"]), call.id
            if raw.get("description"):
                assert summary.note, call.id
        elif call.name in ("Glob", "Grep") and isinstance(raw.get("pattern"), str):
            assert summary.argument == first_line(raw["pattern"]), call.id
            if raw.get("path"):
                assert raw["path"] in summary.note or summary.note.endswith("…"), call.id
        elif call.name in ("Read", "Edit", "Write", "MultiEdit") and raw.get("file_path"):
            assert summary.argument == first_line(raw["file_path"]), call.id
        elif call.name == "WebFetch" and raw.get("url"):
            assert summary.argument == first_line(raw["url"])
        elif call.name in ("Task", "Agent") and raw.get("subagent_type"):
            assert summary.argument == raw["subagent_type"]
            assert summary.note
        elif call.name.startswith("mcp__") and raw:
            assert summary.label.endswith(":") and summary.argument, call.id
        said[bool(summary)] += 1
    # Calls whose input names nothing (TaskList, CronList, …) say nothing; the others all do.
    assert said[True] >= 0.95 * len(calls), said


def test_one_line_summary_for_terminal_and_markdown() -> None:
    assert ToolSummary.of("git status\ngit diff", "Show changes").line() == (
        "git status … — Show changes"
    )
    assert ToolSummary.of(note="8 items, 2 done").line() == "8 items, 2 done"
    assert ToolSummary.of("a.py", label="path:").line() == "path: a.py"
    assert not ToolSummary.of("  ", " ")
    assert len(ToolSummary.of("x" * 500).argument) == 140


def test_a_tool_without_a_typed_summary_falls_back_on_its_input(calls: list[ToolCall]) -> None:
    unknown = [call for call in calls if view_for(call).name == "generic"]
    assert unknown
    for call in unknown:
        assert tool_summary(call) == fallback_summary(call)


def test_the_folded_row_draws_the_summary_argument_in_monospace() -> None:
    path = next(p for p in corpus_files() if "ai-music" in str(p) and "d3ad4cdc" in p.name)
    session = load_session(path)
    html = expand_page(render_session_page(session, RenderOptions()))
    bash = [c for c in session.tool_calls.values() if c.name == "Bash"]
    assert bash
    for call in bash[:5]:
        summary = tool_summary(call)
        head = html.split(f'id="tool-{call.id}"', 1)[1].split("</summary>", 1)[0]
        assert '<code class="tool-argument">' in head
        assert summary.note == "" or 'class="tool-note"' in head


def test_parallel_calls_are_grouped() -> None:
    for path in corpus_files():
        try:
            session = load_session(path)
        except Exception:
            continue
        items = [
            item
            for item in session.main_line
            if isinstance(item, AssistantItem) and len(item.tool_calls) >= 2
        ]
        if items:
            break
    else:
        pytest.skip("no response with parallel calls in the corpus")
    html = expand_page(render_session_page(session, RenderOptions()))
    count = len(items[0].tool_calls)
    assert f"{count} calls in parallel" in html


def test_summary_docs_name_the_mechanism() -> None:
    docs = (Path(__file__).resolve().parents[1] / "docs" / "rendering.md").read_text()
    assert "summarize" in docs and "ToolSummary" in docs
