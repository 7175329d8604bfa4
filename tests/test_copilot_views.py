"""Copilot CLI's tools drawn by their own views (every tool of the synthetic logs, written from
Copilot CLI 1.0.40's tool schemas), what the results say read back, and tool names Copilot
shares with Gemini CLI (``glob``, ``web_fetch``, ``ask_user``) drawn by each agent's own view."""

from __future__ import annotations

import re
from pathlib import Path

from cclens.model.session import ToolCall
from cclens.model.tools import copilot as tools
from cclens.readers.copilot import assemble_events, discover, read_events
from cclens.render import RenderOptions, SessionRenderer, view_for
from cclens.render.tool_views import AGENT_VIEWS

HOME = Path(__file__).parent / "data" / "agents" / "copilot" / "synthetic" / "copilot-home"


def _calls() -> dict[str, ToolCall]:
    found: dict[str, ToolCall] = {}
    for log in discover(HOME):
        found.update(assemble_events(read_events(log.path), "shop").tool_calls)
    return found


def _draw(call: ToolCall, lazy: bool = False) -> tuple[str, list[str]]:
    renderer = SessionRenderer(RenderOptions(lazy=lazy))
    return str(renderer.tool(call)), renderer.view_failures


def test_every_call_has_its_own_view_and_typed_input() -> None:
    calls = _calls()
    assert len(calls) >= 29
    for call in calls.values():
        html, failures = _draw(call)
        assert failures == [], (call.name, failures)
        view = re.search(r'data-view="([^"]*)"', html)
        assert view is not None
        assert view.group(1).startswith("copilot-") or view.group(1) == "mcp", call.name
        assert call.parsed_input.notes == [], call.name


def test_results_statuses_and_folded_headers() -> None:
    calls = _calls()
    assert calls["c-25"].status == "rejected"
    assert calls["c-26"].status == "error"
    assert calls["c-07"].status == "ok"
    shell, _ = _draw(calls["c-07"])
    assert "exit code 1" in shell and "1 failed, 3 passed" in shell
    assert "&lt;exited with exit code" not in shell.split("What the model read besides")[0]
    view, _ = _draw(calls["c-02"])
    assert "Lines 1–3" in view and "total" in view
    todo, _ = _draw(calls["c-16"])
    assert "1 of 3 done" in todo and "Add tax" in todo
    grep, _ = _draw(calls["c-05"])
    assert "<mark>def total</mark>" in grep
    editor, _ = _draw(calls["c-14"])
    assert "dl dl-add" in editor  # str_replace drawn as the Edit diff
    mcp, _ = _draw(calls["c-24"])
    assert "github-mcp-server" in mcp and "get_issue" in mcp
    folded = {key: _draw(call, lazy=True)[0] for key, call in calls.items()}
    for key, summary in {
        "c-07": "Run the tests",
        "c-12": "/home/dev/shop/cart.py",
        "c-16": "1/3 done · Add tax",
        "c-19": "Check the docs",
        "c-01": "Exploring the cart",
    }.items():
        assert summary in folded[key], key


def test_texts_read_back() -> None:
    assert tools.shell_exit("a\nb\n<exited with exit code 2>") == ("a\nb", 2)
    assert tools.shell_exit("x\n<command with id: s1 exited with exit code 0>") == ("x", 0)
    assert tools.shell_exit("still running") == ("still running", None)
    assert tools.numbered_lines("7. a\n8. b") == ("a\nb", 7)
    assert tools.numbered_lines("cart.py\ndocs/") is None
    assert tools.checklist("- [x] a\n- [ ] b\n* [~] c") == [
        ("completed", "a"),
        ("pending", "b"),
        ("in_progress", "c"),
    ]


def test_shared_tool_names_stay_with_their_agent() -> None:
    calls = _calls()
    assert view_for(calls["c-04"]).name == "copilot-glob"
    assert view_for(calls["c-17"]).name == "copilot-web-fetch"
    assert AGENT_VIEWS["copilot"]["glob"] is not AGENT_VIEWS["gemini"]["glob"]
    assert AGENT_VIEWS["copilot"]["ask_user"] is not AGENT_VIEWS["gemini"]["ask_user"]
