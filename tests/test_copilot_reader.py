"""Copilot CLI event logs: read losslessly, every kind declared, mapped onto the session model
with calls and statuses equal to a json-only count."""

from __future__ import annotations

import json
from pathlib import Path

from cclens.model import to_builtins
from cclens.model.copilot import EVENT_TYPES, decode_event
from cclens.model.session import AssistantItem, SystemItem, UserItem
from cclens.readers.copilot import (
    assemble_events,
    discover,
    read_events,
    shutdown_usage,
    unknown_kinds,
)

HOME = Path(__file__).parent / "data" / "agents" / "copilot" / "synthetic" / "copilot-home"
LOG = HOME / "session-state" / "5e55e551-0000-4000-8000-000000000001" / "events.jsonl"
#: Every tool of Copilot CLI 1.0.40, one call each (drawn in test_copilot_views).
TOOLS = HOME / "session-state" / "5e55e551-0000-4000-8000-000000000002" / "events.jsonl"


def test_every_event_reencodes_to_equal_json() -> None:
    for log in (LOG, TOOLS):
        lines = [line for line in log.read_bytes().splitlines() if line.strip()]
        for line in lines:
            assert to_builtins(decode_event(line).value) == json.loads(line)
        assert len(read_events(log).entries) == len(lines)
        assert unknown_kinds(read_events(log)) == []


def test_every_kind_is_declared_and_unknown_ones_are_reported(tmp_path: Path) -> None:
    assert unknown_kinds(read_events(LOG)) == []
    assert {json.loads(line)["type"] for line in LOG.read_bytes().splitlines()} <= EVENT_TYPES
    odd = tmp_path / "events.jsonl"
    odd.write_bytes(b'{"type":"hologram.projected","data":{"x":1},"id":"e1"}\n')
    events = read_events(odd)
    assert unknown_kinds(events) == ["hologram.projected"]
    assert to_builtins(events.entries[0].record) == {
        "type": "hologram.projected",
        "data": {"x": 1},
        "id": "e1",
    }


def test_calls_statuses_and_items_equal_a_json_count() -> None:
    events = [json.loads(line) for line in LOG.read_bytes().splitlines()]
    requested = [
        r["toolCallId"]
        for e in events
        if e["type"] == "assistant.message"
        for r in e["data"].get("toolRequests", [])
    ]
    outcome = {
        e["data"]["toolCallId"]: e["data"]["success"]
        for e in events
        if e["type"] == "tool.execution_complete"
    }
    session = assemble_events(read_events(LOG), "shop")
    assert list(session.tool_calls) == requested
    for call_id, success in outcome.items():
        assert session.tool_calls[call_id].status == ("ok" if success else "error")
    assert session.tool_calls["tc-3"].block.input["path"] == "/home/dev/shop/test_cart.py"
    prompts = [i for i in session.items if isinstance(i, UserItem) and i.kind == "prompt"]
    assert [p.text for p in prompts] == ["Add a test for the cart total"]
    assert session.session_id == "5e55e551-0000-4000-8000-000000000001"
    assert session.cwd == "/home/dev/shop" and session.git_branch == "main"
    assert session.versions == ["1.0.86"]
    assert session.models == ["claude-sonnet-4.5"]
    assert session.title == "Add a test for the cart total"
    first = next(i for i in session.items if isinstance(i, AssistantItem))
    assert [type(b).__name__ for b in first.blocks] == [
        "ThinkingBlock",
        "TextBlock",
        "ToolUseBlock",
        "ToolUseBlock",
    ]
    (compaction,) = session.compactions
    assert compaction.summary is not None and compaction.pre_tokens == 120000
    levels = [i.record.level for i in session.items if isinstance(i, SystemItem)]
    assert levels.count("warning") == 1 and levels.count("error") == 1


def test_shutdown_usage_per_model() -> None:
    assert shutdown_usage(read_events(LOG)) == {
        "claude-sonnet-4.5": {
            "input_tokens": 52000,
            "output_tokens": 137,
            "cache_read_tokens": 40000,
            "cache_write_tokens": 5000,
        }
    }


def test_discovery_and_bad_lines(tmp_path: Path) -> None:
    assert [log.session_id for log in discover(HOME)] == [LOG.parent.name, TOOLS.parent.name]
    flat = tmp_path / "session-state"
    flat.mkdir()
    lines = LOG.read_bytes().splitlines(keepends=True)
    (flat / "abc.jsonl").write_bytes(b"".join([lines[0], b"{oops\n", *lines[1:], b'{"type":']))
    (found,) = discover(tmp_path)
    events = read_events(found.path)
    assert [d.line for d in events.diagnostics] == [2, len(lines) + 2]
    assert len(events.entries) == len(lines)


def test_a_subagents_events_are_its_own_session_under_its_call() -> None:
    """Events a subagent wrote (``parentToolCallId``: the ``task`` call that ran it) are a
    session of their own, under that call; every call is counted once, where it was made."""
    events = [json.loads(line) for line in TOOLS.read_bytes().splitlines()]
    requested: dict[str | None, list[str]] = {}
    for event in events:
        if event["type"] == "assistant.message":
            parent = event["data"].get("parentToolCallId")
            for request in event["data"].get("toolRequests", []):
                requested.setdefault(parent, []).append(request["toolCallId"])
    session = assemble_events(read_events(TOOLS), "shop")
    assert list(session.tool_calls) == requested[None]
    (agent,) = session.tool_calls["c-19"].subagents
    assert agent.parent_tool_use_id == "c-19" and session.subagents == [agent]
    assert list(agent.tool_calls) == requested["c-19"]
    assert [i.text for i in agent.items if isinstance(i, AssistantItem)][-1] == (
        "docs/tax.md mentions tax twice."
    )
