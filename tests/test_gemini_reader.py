"""Gemini CLI recordings: read losslessly, replayed as gemini-cli loads them, mapped onto the
session model with exact counts (checked against counts written here with the json module)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import msgspec
import pytest

from cclens.model import to_builtins
from cclens.model.gemini import UnknownLine, UnknownMessage, decode_conversation, decode_line
from cclens.model.records import AiTitleRecord
from cclens.model.session import AssistantItem, SystemItem, UserItem
from cclens.readers.gemini import (
    Located,
    assemble_chat,
    discover,
    read_chat,
    read_chat_data,
    read_projects,
    unknown_kinds,
)
from cclens.readers.gemini.discover import project_hash
from cclens.readers.gemini.load import load

DATA = Path(__file__).parent / "data" / "agents" / "gemini"
REAL = sorted((DATA / "real").glob("*.json"))
HOME = DATA / "synthetic" / "gemini-home"
SYNTHETIC = sorted(p for p in HOME.rglob("*.json*") if p.parent.name != "gemini-home")
RECORDINGS = [p for p in REAL + SYNTHETIC if p.name.startswith("session-") or p in REAL]
SUBAGENT = next(HOME.rglob("cccc3333-*.jsonl"))
MAIN = next(HOME.rglob("session-2026-05-01T10-00-aaaa1111.jsonl"))
LEGACY = next(HOME.rglob("session-2025-10-10T20-48-bbbb2222.json"))


def _ids(paths: list[Path]) -> list[str]:
    return [p.name for p in paths]


@pytest.mark.parametrize("path", [*RECORDINGS, SUBAGENT], ids=_ids([*RECORDINGS, SUBAGENT]))
def test_every_record_reencodes_to_equal_json(path: Path) -> None:
    data = path.read_bytes()
    if path.suffix == ".json":
        assert to_builtins(decode_conversation(data).value) == json.loads(data)
        return
    checked = 0
    for line in data.splitlines():
        if line.strip():
            assert to_builtins(decode_line(line).value) == json.loads(line)
            checked += 1
    assert checked


@pytest.mark.parametrize("path", [*RECORDINGS, SUBAGENT], ids=_ids([*RECORDINGS, SUBAGENT]))
def test_no_unknown_kinds_in_real_or_documented_files(path: Path) -> None:
    chat = read_chat(path)
    assert unknown_kinds(chat) == []
    assert chat.diagnostics == []
    assert all(not record.notes for record in chat.records)


def test_unknown_kinds_are_kept_and_reported() -> None:
    path = DATA / "synthetic" / "unknown-kinds.jsonl"
    chat = read_chat(path)
    assert unknown_kinds(chat) == ["message notice", "line {$future}"]
    assert [type(r.value) for r in chat.records][1:3] == [UnknownMessage, UnknownLine]
    for record, line in zip(chat.records, path.read_bytes().splitlines(), strict=True):
        assert to_builtins(record.value) == json.loads(line)
    # Unknown fields are kept too, and noted.
    assert any("futureField" in note for note in chat.records[0].notes)
    session = assemble_chat(chat, Located("demo"))
    assert [item.anchor for item in session.items] == ["n1", "u1"]


def _final_messages(path: Path) -> list[dict[str, Any]]:
    """Every message ever written, last version per id, read with json alone."""
    if path.suffix == ".json":
        return list(json.loads(path.read_bytes())["messages"])
    last: dict[str, dict[str, Any]] = {}
    for line in path.read_bytes().splitlines():
        if not line.strip():
            continue
        value = json.loads(line)
        if "$rewindTo" in value:
            continue
        written = value.get("$set", {}).get("messages", []) if "$set" in value else [value]
        for message in written:
            if isinstance(message.get("id"), str) and "type" in message:
                last[message["id"]] = message
    return list(last.values())


@pytest.mark.parametrize("path", [*RECORDINGS, SUBAGENT], ids=_ids([*RECORDINGS, SUBAGENT]))
def test_tool_calls_and_tokens_equal_an_independent_count(path: Path) -> None:
    messages = _final_messages(path)
    calls = {c["id"] for m in messages for c in m.get("toolCalls") or []}
    content_calls = {
        p["functionCall"]["id"]
        for m in messages
        if m["type"] == "gemini" and isinstance(m.get("content"), list)
        for p in m["content"]
        if "functionCall" in p
    }
    tokens = [m["tokens"] for m in messages if m.get("tokens")]
    session = assemble_chat(read_chat(path), Located("x"))
    assert set(session.tool_calls) == calls | content_calls
    usages = [
        item.usage for item in session.items if isinstance(item, AssistantItem) and item.usage
    ]
    assert sum(u.total_tokens for u in usages) == sum(t["total"] for t in tokens)
    assert sum(u.cache_read_input_tokens or 0 for u in usages) == sum(t["cached"] for t in tokens)
    assert sum(u.output_tokens or 0 for u in usages) == sum(
        t["output"] + t.get("thoughts", 0) for t in tokens
    )
    statuses = {c["id"]: c["status"] for m in messages for c in m.get("toolCalls") or []}
    expected = {"success": "ok", "error": "error", "cancelled": "interrupted"}
    for call_id, status in statuses.items():
        assert session.tool_calls[call_id].status == expected[status]


def test_real_pomodoro_session() -> None:
    path = DATA / "real" / "ai-sessions-gemini-cli-pomodoro-timer.json"
    session = assemble_chat(read_chat(path), Located("gemini"))
    prompts = [i for i in session.items if isinstance(i, UserItem) and i.kind == "prompt"]
    assert len(prompts) == 5
    assert session.title.startswith("Build a simple Pomodoro timer")
    assert session.models == ["gemini-2.5-pro"]
    assert {c.name for c in session.tool_calls.values()} == {"write_file", "replace"}
    failed = [c for c in session.tool_calls.values() if c.status == "error"]
    assert len(failed) == 1 and failed[0].name == "replace"


@pytest.mark.parametrize("path", [*REAL, LEGACY], ids=_ids([*REAL, LEGACY]))
def test_json_entries_point_at_their_message_bytes(path: Path) -> None:
    data = path.read_bytes()
    document = json.loads(data)
    session = assemble_chat(read_chat(path), Located("x"))
    for entry in session.entries:
        if entry.line == 0:  # the summary gemini-cli wrote: the whole object's
            assert isinstance(entry.record, AiTitleRecord) and entry.length == len(data)
            continue
        message = document["messages"][entry.line - 1]
        assert json.loads(data[entry.offset : entry.offset + entry.length]) == message
        assert getattr(entry.record, "uuid", "").split("/")[0] == message["id"]


def test_jsonl_entries_point_at_the_line_of_the_last_version() -> None:
    lines = MAIN.read_bytes().splitlines(keepends=True)
    session = assemble_chat(read_chat(MAIN), Located("x"))
    g1 = next(i for i in session.items if i.anchor == "g1")
    assert g1.first.line == 7  # the second version, with tokens and the finished call
    assert lines[6].startswith(b'{"id":"g1"') and b'"tokens"' in lines[6]
    offset = sum(len(line) for line in lines[:6])
    assert g1.first.offset == offset


def test_replay_rewind_checkpoint_and_kinds() -> None:
    session = load(next(i for i in discover(HOME) if i.path == MAIN), read_projects(HOME))
    kinds = {item.anchor: getattr(item, "kind", type(item).__name__) for item in session.items}
    assert kinds["ctx-1"] == "meta"
    assert kinds["u1"] == "prompt"
    assert kinds["tr1"] == "tool_results"  # tool responses gemini-cli recorded as a user turn
    assert kinds["u4"] == "command"
    assert kinds["sum-1"] == "compact_summary"
    # /rewind: the dropped prompt and reply form a branch, off the main line.
    assert [[i.anchor for i in b.items] for b in session.branches] == [["u2", "g3-rewound"]]
    assert not any(i.main for b in session.branches for i in b.items)
    # The history a $set of messages replaced stays, after it a compaction boundary.
    assert len(session.compactions) == 1
    compaction = session.compactions[0]
    assert compaction.summary is not None and compaction.summary.anchor == "sum-1"
    assert session.items.index(compaction.boundary) == session.items.index(compaction.summary) - 1
    levels = {
        i.anchor: i.record.level
        for i in session.items
        if isinstance(i, SystemItem) and i.record.level
    }
    assert levels == {"i1": "info", "w1": "warning", "e1": "error", "i2": "info"}
    g2 = next(i for i in session.items if i.anchor == "g2")
    assert isinstance(g2, AssistantItem)
    kinds_of_blocks = [type(b).__name__ for b in g2.blocks]
    # The thought part, the text, then both calls (the functionCall part is drawn from toolCalls).
    assert kinds_of_blocks == ["ThinkingBlock", "TextBlock", "ToolUseBlock", "ToolUseBlock"]
    assert session.cwd == "/home/dev/demo-app"
    assert session.title == "Fix the failing calc test" and session.title_source == "ai"


def test_usage_mapping_of_one_response() -> None:
    session = assemble_chat(read_chat(MAIN), Located("x"))
    g3 = next(i for i in session.items if i.anchor == "g3")
    assert isinstance(g3, AssistantItem) and g3.usage is not None
    # tokens: input 30000 (25000 cached), output 300, thoughts 200, tool 50, total 30550
    assert g3.usage.input_tokens == 5050
    assert g3.usage.cache_read_input_tokens == 25000
    assert g3.usage.output_tokens == 500
    assert g3.usage.total_tokens == 30550
    assert g3.model == "gemini-2.5-pro"


def test_discovery_projects_and_subagents() -> None:
    found = discover(HOME)
    names = sorted(info.path.name for info in found)
    # The .json a resume copied into a .jsonl is superseded; logs.json and checkpoints are not
    # recordings.
    assert names == [
        "session-2025-10-10T20-48-bbbb2222.json",
        "session-2026-03-01T09-00-dddd4444.jsonl",
        "session-2026-05-01T10-00-aaaa1111.jsonl",
    ]
    projects = read_projects(HOME)
    sessions = {info.path.name: load(info, projects) for info in found}
    legacy = sessions["session-2025-10-10T20-48-bbbb2222.json"]
    assert legacy.project == "legacy-app"  # the hash folder takes the registry's slug
    assert legacy.cwd == "/home/dev/legacy-app"
    main = sessions["session-2026-05-01T10-00-aaaa1111.jsonl"]
    (agent,) = main.subagents
    call = main.tool_calls["codebase_investigator_1"]
    assert call.subagents == [agent]
    assert agent.parent_tool_use_id == call.id
    assert agent.agent_id == "cccc3333-0000-4000-8000-000000000003"
    assert [c.name for c in agent.tool_calls.values()] == ["grep_search", "complete_task"]
    assert agent.tool_calls["complete_task_1"].status == "pending"


def test_project_from_context_without_registry(tmp_path: Path) -> None:
    chats = tmp_path / "tmp" / "some-slug" / "chats"
    chats.mkdir(parents=True)
    shutil.copy(MAIN, chats / MAIN.name)
    (info,) = discover(tmp_path)
    session = load(info)
    assert session.project == "some-slug"
    assert session.cwd == "/home/dev/demo-app"  # from the <session_context> message


def test_orphan_subagent_is_a_session(tmp_path: Path) -> None:
    folder = tmp_path / "chats" / "aaaa1111-0000-4000-8000-000000000001"
    folder.mkdir(parents=True)
    shutil.copy(SUBAGENT, folder / SUBAGENT.name)
    (info,) = discover(tmp_path)
    session = load(info)
    assert session.orphan and session.parent_session_id == folder.name
    assert session.is_subagent


def test_project_hash_is_gemini_clis() -> None:
    document = json.loads(LEGACY.read_bytes())
    assert document["projectHash"] == project_hash("/home/dev/legacy-app")


def test_bad_input_is_reported_and_the_rest_read(tmp_path: Path) -> None:
    lines = MAIN.read_bytes().splitlines(keepends=True)
    broken = [*lines[:3], b'{"id": "broken\n', *lines[3:], b'{"id":"half']
    path = tmp_path / MAIN.name
    path.write_bytes(b"".join(broken))
    chat = read_chat(path)
    reasons = [(d.line, d.reason) for d in chat.diagnostics]
    assert reasons[0][0] == 4 and reasons[0][1].startswith("invalid JSON")
    assert reasons[-1][0] == len(broken) and "incomplete last line" in reasons[-1][1]
    assert len(chat.records) == len([line for line in lines if line.strip()])
    assert chat.end_offset == len(b"".join(broken[:-1]))
    # A .json caught while gemini-cli rewrites it: one diagnostic, no session content.
    half = tmp_path / LEGACY.name
    half.write_bytes(LEGACY.read_bytes()[:500])
    chat = read_chat(half)
    assert chat.records == [] and "not a whole JSON object" in chat.diagnostics[0].reason
    assert assemble_chat(chat, Located("x")).items == []
    not_object = read_chat_data(tmp_path / "session-x.json", b"[1, 2]")
    assert "not a Gemini CLI recording" in not_object.diagnostics[0].reason


def test_a_value_nested_past_the_budget_is_kept_raw_and_noted(tmp_path: Path) -> None:
    """Tool arguments nested deeper than the model's budget are kept as raw JSON (re-encoding
    to the same text), reported as a partial read, and the rest of the recording is read."""
    deep: Any = "bottom"
    for _ in range(200):
        deep = {"a": [deep]}
    recording = {
        "sessionId": "deep",
        "projectHash": "0" * 64,
        "startTime": "2026-05-01T10:00:00Z",
        "lastUpdated": "2026-05-01T10:00:00Z",
        "messages": [
            {"id": "u1", "type": "user", "timestamp": "2026-05-01T10:00:01Z", "content": "go"},
            {
                "id": "g1",
                "type": "gemini",
                "timestamp": "2026-05-01T10:00:02Z",
                "content": "",
                "toolCalls": [
                    {"id": "c1", "name": "run_shell_command", "args": deep, "status": "success"}
                ],
            },
        ],
    }
    path = tmp_path / "session-2026-05-01T10-00-deep.json"
    path.write_text(json.dumps(recording))
    chat = read_chat(path)
    assert len(chat.records) == 2
    assert [d.partial for d in chat.diagnostics] == [True]
    assert json.loads(msgspec.json.encode(to_builtins(chat.conversation))) == recording
    session = assemble_chat(chat, Located("x"))
    assert len(session.tool_calls) == 1
