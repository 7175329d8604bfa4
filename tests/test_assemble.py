"""Assembly: merged responses, paired tool calls, subagents, branches, compactions, titles."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from cclens.model.session import Session
from cclens.readers.claude import AssistantItem, UserItem, load_session

TEST_DATA = "iansherr__claude-code-log/test/test_data"


def write(path: Path, *records: Mapping[str, object]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def user(uuid: str, parent: str | None, content: object, **extra: object) -> dict[str, object]:
    return {
        "type": "user",
        "uuid": uuid,
        "parentUuid": parent,
        "sessionId": "s",
        "timestamp": "2026-01-01T00:00:00Z",
        "message": {"role": "user", "content": content},
        **extra,
    }


def assistant(
    uuid: str, parent: str | None, message_id: str, blocks: list[object], **usage: int
) -> dict[str, object]:
    return {
        "type": "assistant",
        "uuid": uuid,
        "parentUuid": parent,
        "sessionId": "s",
        "requestId": "req-" + message_id,
        "timestamp": "2026-01-01T00:00:01Z",
        "message": {
            "id": message_id,
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "content": blocks,
            "usage": {"input_tokens": 1, "output_tokens": usage.get("out", 1)},
        },
    }


def tool_use(call_id: str, name: str, **fields: object) -> dict[str, object]:
    return {"type": "tool_use", "id": call_id, "name": name, "input": fields}


def tool_result(call_id: str, text: str, *, error: bool = False) -> dict[str, object]:
    return {"type": "tool_result", "tool_use_id": call_id, "content": text, "is_error": error}


def test_streamed_response_is_merged_and_calls_paired(tmp_path: Path) -> None:
    path = write(
        tmp_path / "s.jsonl",
        user("u1", None, "list files"),
        assistant("a1", "u1", "m1", [{"type": "text", "text": "Looking."}], out=3),
        assistant("a2", "a1", "m1", [tool_use("t1", "Bash", command="ls")], out=9),
        assistant("a3", "a2", "m1", [tool_use("t2", "Read", file_path="/x")], out=9),
        user("u2", "a3", [tool_result("t1", "a.txt")], toolUseResult={"stdout": "a.txt"}),
        user("u3", "a3", [tool_result("t2", "boom", error=True)], toolUseResult="Error: boom"),
    )
    session = load_session(path)
    responses = [i for i in session.items if isinstance(i, AssistantItem)]
    assert len(responses) == 1
    response = responses[0]
    assert [type(b).__name__ for b in response.blocks] == [
        "TextBlock",
        "ToolUseBlock",
        "ToolUseBlock",
    ]
    assert response.usage is not None and response.usage.output_tokens == 9
    first, second = response.tool_calls
    assert first.status == "ok" and first.raw_result == {"stdout": "a.txt"}
    assert second.status == "error" and second.raw_result == "Error: boom"
    # both parallel results stay on the main line
    assert all(item.main for item in session.items)


def test_rejection_and_interruption(tmp_path: Path) -> None:
    rejected = "The user doesn't want to proceed with this tool use. The tool use was rejected."
    path = write(
        tmp_path / "s.jsonl",
        user("u1", None, "go"),
        assistant("a1", "u1", "m1", [tool_use("t1", "Bash", command="rm -rf /")]),
        user("u2", "a1", [tool_result("t1", rejected, error=True)]),
        assistant("a2", "u2", "m2", [tool_use("t2", "Bash", command="sleep 100")]),
        user(
            "u3",
            "a2",
            [tool_result("t2", "[Request interrupted by user for tool use]", error=True)],
        ),
        assistant("a3", "u3", "m3", [tool_use("t3", "Read", file_path="/x")]),
    )
    calls = load_session(path).tool_calls
    assert [calls[t].status for t in ("t1", "t2", "t3")] == ["rejected", "interrupted", "pending"]


def test_user_kinds(tmp_path: Path) -> None:
    path = write(
        tmp_path / "s.jsonl",
        user("u1", None, "<command-name>/model</command-name>\n<command-args>opus</command-args>"),
        user("u2", "u1", "<local-command-stdout>Set model</local-command-stdout>"),
        user("u3", "u2", "Summary of earlier work", isCompactSummary=True),
        user("u4", "u3", "[Request interrupted by user]"),
        user("u5", "u4", "Caveat: messages below", isMeta=True),
        user("u6", "u5", "real prompt"),
    )
    session = load_session(path)
    kinds = [i.kind for i in session.items if isinstance(i, UserItem)]
    assert kinds == ["command", "command_output", "compact_summary", "interrupt", "meta", "prompt"]
    # The first prompt the user typed; the slash command before it only titles a session
    # that has no prompt (see tests/test_titles.py).
    assert session.first_prompt == "real prompt"


def test_title_precedence(tmp_path: Path) -> None:
    base = [user("u1", None, "first prompt here"), assistant("a1", "u1", "m", [])]
    plain = load_session(write(tmp_path / "a.jsonl", *base))
    assert (plain.title, plain.title_source) == ("first prompt here", "first-prompt")
    summary = {"type": "summary", "summary": "Summarised", "leafUuid": "a1"}
    foreign = {"type": "summary", "summary": "Other session", "leafUuid": "zzz"}
    with_summary = load_session(write(tmp_path / "b.jsonl", summary, foreign, *base))
    assert (with_summary.title, with_summary.title_source) == ("Summarised", "summary")
    ai = {"type": "ai-title", "aiTitle": "AI title", "sessionId": "s"}
    custom = {"type": "custom-title", "customTitle": "Mine", "sessionId": "s"}
    assert load_session(write(tmp_path / "c.jsonl", summary, ai, *base)).title == "AI title"
    titled = load_session(write(tmp_path / "d.jsonl", summary, ai, custom, *base))
    assert (titled.title, titled.title_source) == ("Mine", "custom")


def test_branches_from_a_rewind(corpus: Path) -> None:
    session = load_session(corpus / TEST_DATA / "dag_fork.jsonl")
    main = [i.uuid for i in session.main_line]
    assert main == ["a", "b", "c", "i", "j", "k"]
    assert len(session.branches) == 1
    branch = session.branches[0]
    assert branch.fork == "c"
    assert [i.uuid for i in branch.items] == ["d", "e", "f", "g", "h"]


def test_compaction_boundary_keeps_history_on_the_main_line(tmp_path: Path) -> None:
    path = write(
        tmp_path / "s.jsonl",
        user("u1", None, "old work"),
        assistant("a1", "u1", "m1", [{"type": "text", "text": "done"}]),
        {
            "type": "system",
            "subtype": "compact_boundary",
            "uuid": "b1",
            "parentUuid": None,
            "logicalParentUuid": "a1",
            "compactMetadata": {"trigger": "auto", "preTokens": 150000},
        },
        user("u2", "b1", "This session is being continued...", isCompactSummary=True),
        user("u3", "u2", "new work"),
    )
    session = load_session(path)
    assert all(item.main for item in session.items)
    (compaction,) = session.compactions
    assert compaction.trigger == "auto" and compaction.pre_tokens == 150000
    assert compaction.summary is not None and compaction.summary.uuid == "u2"


def test_nested_subagent_attached_by_agent_id(corpus: Path) -> None:
    session = load_session(
        corpus / TEST_DATA / "async_agents/eb000000-0000-4000-8000-000000000001.jsonl"
    )
    (agent,) = session.subagents
    assert agent.agent_id == "cccc333"
    call = session.tool_calls[agent.parent_tool_use_id or ""]
    assert call.name == "Task" and call.subagents == [agent]


def test_workflow_agents_attached_to_the_workflow_call(corpus: Path) -> None:
    session = load_session(
        corpus / TEST_DATA / "workflow_basic/11110000-0000-4000-8000-000000000001.jsonl"
    )
    call = session.tool_calls["toolu_wf01"]
    assert sorted(a.agent_id or "" for a in call.subagents) == ["ag000001", "ag000002", "ag000003"]


def test_inline_sidechain_attached_to_its_task(corpus: Path) -> None:
    session = load_session(corpus / TEST_DATA / "memory_sidechain.jsonl")
    (agent,) = session.subagents
    assert agent.agent_id == "sidechain-sa1"
    (call,) = [c for c in session.tool_calls.values() if c.name == "Task"]
    assert call.subagents == [agent]
    assert [i.uuid for i in session.main_line] == ["u1", "a1", "a2"]


def test_teammate_attached_by_agent_id_in_result_text(corpus: Path) -> None:
    session = load_session(
        corpus / TEST_DATA / "teammates/ef000000-0000-4000-8000-000000000001.jsonl"
    )
    attached = {a.agent_id: a.parent_tool_use_id for a in session.subagents}
    assert attached == {"aaaa111111111111": "tu_Task_alice", "bbbb222222222222": "tu_Task_bob"}


def test_real_session_metadata(corpus: Path) -> None:
    path = next(corpus.glob("chiphuyen__sniffly/**/d3ad4cdc-*.jsonl"))
    session = load_session(path)
    assert isinstance(session, Session)
    assert session.cwd and session.versions and session.models
    assert session.started and session.ended and session.started <= session.ended
    assert session.title
    assert not session.diagnostics
