"""What a session's files hold is counted once and whole, on every surface.

Three ways Claude Code spreads a session over its files, each once left something out:

* a subagent known only from the ``agent_progress`` records that mirror it into the parent
  transcript (its own file is gone): its responses counted, but not its tool calls, so
  ``stats --by tool`` showed rows with tokens and no calls;
* an orphan subagent transcript (its session file is gone): its first message, a prompt the
  model wrote ("Warmup", a compaction instruction), counted as typed by a person;
* a call whose result sits in another file of the session (``agent-acompact-*.jsonl``): left
  "pending".

Each case is written here as a small transcript, and read through the commands that read
transcripts directly and those that read the index; the real orphans of the shared corpus too.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cclens.cli.main import main

from .test_usage import (
    PROJECT,
    SESSION,
    assistant,
    project_dir,
    prompt,
    tool_result,
    tool_use,
    usage,
    write,
)

AGENT = "a1b2c3d4e5f6a7b8c"
NO_TOOL = "(no tool)"
HAIKU = "claude-haiku-4-5-20251001"


def _json(*args: str) -> Any:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _mirror(uuid: str, record: dict[str, Any], *, time: str) -> dict[str, Any]:
    """An ``agent_progress`` record mirroring one of the subagent's records into the parent."""
    mirrored = {
        "type": record["type"],
        "message": record["message"],
        "uuid": record["uuid"],
        "timestamp": record["timestamp"],
    }
    if "requestId" in record:
        mirrored["requestId"] = record["requestId"]
    if "toolUseResult" in record:
        mirrored["toolUseResult"] = record["toolUseResult"]
    return {
        "parentUuid": "a1",
        "isSidechain": False,
        "userType": "external",
        "cwd": "/home/me/app",
        "sessionId": SESSION,
        "version": "2.0.60",
        "type": "progress",
        "data": {
            "message": mirrored,
            "normalizedMessages": [],
            "type": "agent_progress",
            "prompt": "look around",
            "agentId": AGENT,
        },
        "toolUseID": f"agent_msg_{uuid}",
        "parentToolUseID": "toolu_agent",
        "uuid": uuid,
        "timestamp": time,
    }


def _agent_records() -> list[dict[str, Any]]:
    """The subagent's transcript: a failed Bash call, a Read call, and a last answer."""

    def sub(record: dict[str, Any]) -> dict[str, Any]:
        return {**record, "isSidechain": True, "agentId": AGENT}

    return [
        sub(prompt("s0", "look around", time="2025-06-01T10:00:02.000Z")),
        sub(
            assistant(
                "s1",
                "msg_sub_1",
                usage(input=2, output=30, read=400),
                request_id="req_sub_1",
                parent="s0",
                time="2025-06-01T10:00:10.000Z",
                model=HAIKU,
                content=[tool_use("toolu_sub_1", "Bash", {"command": "make"})],
            )
        ),
        sub(
            tool_result(
                "s2",
                "toolu_sub_1",
                "boom",
                parent="s1",
                time="2025-06-01T10:00:11.000Z",
                is_error=True,
            )
        ),
        sub(
            assistant(
                "s3",
                "msg_sub_2",
                usage(input=1, output=20, read=500),
                request_id="req_sub_2",
                parent="s2",
                time="2025-06-01T10:00:20.000Z",
                model=HAIKU,
                content=[tool_use("toolu_sub_2", "Read", {"file_path": "/home/me/app/x"})],
            )
        ),
        sub(
            tool_result(
                "s4", "toolu_sub_2", "contents", parent="s3", time="2025-06-01T10:00:21.000Z"
            )
        ),
        sub(
            assistant(
                "s5",
                "msg_sub_3",
                usage(input=1, output=10, read=600),
                request_id="req_sub_3",
                parent="s4",
                time="2025-06-01T10:00:25.000Z",
                model=HAIKU,
            )
        ),
    ]


def mirrored_session(root: Path, *, with_agent_file: bool) -> Path:
    """A session whose Task call ran a subagent, mirrored into the session's transcript by
    ``agent_progress`` records (and, ``with_agent_file``, written to its own file too)."""
    records = _agent_records()
    parent = [
        prompt("u0", "look around", time="2025-06-01T10:00:00.000Z"),
        assistant(
            "a1",
            "msg_1",
            usage(input=4, output=40),
            parent="u0",
            time="2025-06-01T10:00:01.000Z",
            content=[
                tool_use("toolu_agent", "Task", {"description": "x", "prompt": "look around"})
            ],
        ),
        # Claude Code mirrors the subagent's messages, not the prompt it was given.
        *[
            _mirror(f"p{n}", record, time=record["timestamp"])
            for n, record in enumerate(records[1:], start=1)
        ],
        tool_result("u9", "toolu_agent", "done", parent="a1", time="2025-06-01T10:00:30.000Z"),
    ]
    folder = project_dir(root)
    path = write(folder / f"{SESSION}.jsonl", parent)
    if with_agent_file:
        write(folder / SESSION / "subagents" / f"agent-{AGENT}.jsonl", records)
    return path


def _by_tool(rows: list[dict[str, Any]]) -> dict[str, tuple[int, int]]:
    """``{tool: (calls, failed)}`` of a ``stats --by tool`` report; no row may hold tokens
    without the calls that spent them."""
    found = {}
    for row in rows:
        if row["key"] == NO_TOOL:  # the responses that called no tool
            assert row["tool"] is None
            continue
        assert row["tool"] is not None, row
        assert row["tool"]["calls"] > 0, row
        found[row["key"]] = (row["tool"]["calls"], row["tool"]["errors"])
    return found


EXPECTED_TOOLS = {"Task": (1, 0), "Bash": (1, 1), "Read": (1, 0)}


@pytest.mark.parametrize("with_agent_file", [False, True], ids=["mirrored only", "both"])
def test_the_calls_of_a_mirrored_subagent_are_counted(
    tmp_path: Path, with_agent_file: bool
) -> None:
    claude = tmp_path / "claude"
    mirrored_session(claude, with_agent_file=with_agent_file)
    db = str(tmp_path / "index.db")

    direct = _json("stats", "--json", "--claude-dir", str(claude))
    by_tool = _json("stats", "--json", "--by", "tool", "--claude-dir", str(claude))
    assert direct["responses"] == 4
    assert direct["tool_calls"]["calls"] == 3 and direct["tool_calls"]["failed"] == 1
    assert _by_tool(by_tool["rows"]) == EXPECTED_TOOLS

    tools = {
        row["name"]: (row["calls"], row["errors"]) for row in _json("tools", "--json", str(claude))
    }
    assert tools == EXPECTED_TOOLS
    check = _json("check", "--json", str(claude))
    assert {name: (t["calls"], t["errors"]) for name, t in check["tools"].items()} == EXPECTED_TOOLS

    _json("index", "--json", "--claude-dir", str(claude), "--db", db)
    indexed = _json("stats", "--json", "--no-update", "--db", db)
    assert indexed["tool_calls"] == direct["tool_calls"]
    indexed_tools = _json("stats", "--json", "--by", "tool", "--no-update", "--db", db)
    assert _by_tool(indexed_tools["rows"]) == EXPECTED_TOOLS
    (listed,) = _json("sessions", "--json", "--no-update", "--db", db)["sessions"]
    assert (listed["responses"], listed["tool_calls"], listed["errors"]) == (4, 3, 1)


def test_a_mirrored_subagent_is_shown_under_its_call(tmp_path: Path) -> None:
    claude = tmp_path / "claude"
    path = mirrored_session(claude, with_agent_file=False)
    result = CliRunner().invoke(main, ["show", str(path), "--no-pager", "--subagents"])
    assert result.exit_code == 0, result.output
    assert "make" in result.output and "boom" in result.output


def orphan_agent(root: Path, first: str) -> Path:
    """A subagent transcript whose session file is gone; its first message is ``first``."""
    records = [
        {
            **prompt("o0", first, time="2025-06-02T10:00:00.000Z"),
            "isSidechain": True,
            "agentId": "0rphan01",
        },
        {
            **assistant(
                "o1",
                "msg_o_1",
                usage(input=3, output=5),
                request_id="req_o_1",
                parent="o0",
                time="2025-06-02T10:00:02.000Z",
            ),
            "isSidechain": True,
            "agentId": "0rphan01",
        },
    ]
    return write(project_dir(root) / "agent-0rphan01.jsonl", records)


@pytest.mark.parametrize("first", ["Warmup", "Summarize the conversation so far.", "Find the bug"])
def test_an_orphan_subagent_has_no_prompt_a_person_typed(tmp_path: Path, first: str) -> None:
    claude = tmp_path / "claude"
    orphan_agent(claude, first)
    db = str(tmp_path / "index.db")
    assert _json("stats", "--json", "--claude-dir", str(claude))["prompts"] == 0
    _json("index", "--json", "--claude-dir", str(claude), "--db", db)
    assert _json("stats", "--json", "--no-update", "--db", db)["prompts"] == 0
    (listed,) = _json("sessions", "--json", "--no-update", "--db", db)["sessions"]
    assert listed["orphan"] and listed["prompts"] == 0 and listed["responses"] == 1


@pytest.mark.slow
def test_the_real_orphans_count_no_prompt(corpus: Path, tmp_path: Path) -> None:
    db = str(tmp_path / "index.db")
    _json("index", "--json", "--claude-dir", str(corpus), "--db", db)
    listed = _json("sessions", "--json", "--no-update", "--limit", "0", "--db", db)["sessions"]
    orphans = [s for s in listed if s["orphan"]]
    assert len(orphans) == 5
    assert [s["prompts"] for s in orphans] == [0] * 5


def compacted_session(root: Path) -> Path:
    """A session whose last call's result was written only to the compaction agent's file."""
    main_records = [
        prompt("u0", "run the tests", time="2025-06-03T10:00:00.000Z"),
        assistant(
            "a1",
            "msg_c_1",
            usage(input=4, output=40),
            request_id="req_c_1",
            parent="u0",
            time="2025-06-03T10:00:01.000Z",
            content=[tool_use("toolu_late", "Bash", {"command": "pytest"})],
        ),
    ]
    compaction = [
        {
            **tool_result(
                "c1",
                "toolu_late",
                "3 failed",
                parent="a1",
                time="2025-06-03T10:00:40.000Z",
                is_error=True,
            ),
            "isSidechain": True,
            "agentId": "acompact-5e1f",
        },
        {
            **prompt(
                "c2",
                "Your task is to create a detailed summary of the conversation",
                time="2025-06-03T10:00:41.000Z",
            ),
            "isSidechain": True,
            "agentId": "acompact-5e1f",
        },
    ]
    folder = project_dir(root)
    write(folder / SESSION / "subagents" / "agent-acompact-5e1f.jsonl", compaction)
    return write(folder / f"{SESSION}.jsonl", main_records)


def test_a_call_is_paired_with_its_result_in_another_file(tmp_path: Path) -> None:
    claude = tmp_path / "claude"
    compacted_session(claude)
    db = str(tmp_path / "index.db")
    direct = _json("stats", "--json", "--claude-dir", str(claude))
    assert direct["tool_calls"]["pending"] == 0 and direct["tool_calls"]["error"] == 1
    check = _json("check", "--json", str(claude))
    assert check["tools"]["Bash"]["unpaired"] == 0 and check["tools"]["Bash"]["errors"] == 1
    _json("index", "--json", "--claude-dir", str(claude), "--db", db)
    indexed = _json("stats", "--json", "--no-update", "--db", db)
    assert indexed["tool_calls"] == direct["tool_calls"]
    (listed,) = _json("sessions", "--json", "--no-update", "--db", db)["sessions"]
    assert (listed["tool_calls"], listed["errors"], listed["prompts"]) == (1, 1, 1)


def test_the_project_folder_is_the_one_written(tmp_path: Path) -> None:
    # The cases above are written where Claude Code writes them.
    assert project_dir(tmp_path).name == PROJECT
