"""A small Claude folder with fake secrets in every kind of field, for the dataset and trace
tests; and checks that the library reads it the way those tests assume.

Secrets are built by concatenation so no complete credential sits in the source.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cclens.readers.claude import discover, load

PROJECT = "-home-alex-shop"
SESSION = "5e551011-0000-4000-8000-000000000001"
RESUMED = "5e551011-0000-4000-8000-000000000002"
AGENT = "abc123"

GITHUB = "ghp_" + "Zq8Lm2Xc4Vb6Nn1Tt3Rr5Yy7Uu9Ii0Oo2Pp4"
AWS = "AKIA" + "QWERTYUIOPASDFGH"
ANTHROPIC = "sk-ant-api03-" + "Xy7" * 12 + "AbCdEfGhIj"
STRIPE = "sk_live_" + "51HxYzAbCdEfGhIjKlMnOpQr"
PASSWORD = "Pw9-" + "tz4Qk2Lm8Vn"
DATABASE_URL = f"postgres://admin:{PASSWORD}@db.example.com:5432/shop"
#: Every secret, and a part of each that must not survive either.
SECRETS = {
    GITHUB: GITHUB[4:20],
    AWS: AWS[4:],
    ANTHROPIC: ANTHROPIC[13:40],
    STRIPE: STRIPE[8:],
    PASSWORD: PASSWORD,
}

CWD = "/home/alex/shop"


def _record(kind: str, uuid: str, parent: str | None, time: str, **fields: Any) -> dict[str, Any]:
    return {
        "parentUuid": parent,
        "isSidechain": False,
        "userType": "external",
        "cwd": CWD,
        "sessionId": SESSION,
        "version": "2.1.34",
        "gitBranch": "main",
        "uuid": uuid,
        "timestamp": f"2025-03-10T{time}Z",
        "type": kind,
        **fields,
    }


def _usage(input_tokens: int, output: int, read: int = 0, write: int = 0) -> dict[str, int]:
    return {
        "input_tokens": input_tokens,
        "output_tokens": output,
        "cache_read_input_tokens": read,
        "cache_creation_input_tokens": write,
    }


def _assistant(
    uuid: str,
    parent: str,
    time: str,
    message_id: str,
    content: list[dict[str, Any]],
    usage: dict[str, int],
    stop: str,
    **fields: Any,
) -> dict[str, Any]:
    message = {
        "id": message_id,
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5-20250929",
        "content": content,
        "stop_reason": stop,
        "usage": usage,
    }
    return _record(
        "assistant", uuid, parent, time, message=message, requestId=f"req_{message_id}", **fields
    )


def _user(uuid: str, parent: str | None, time: str, content: Any, **fields: Any) -> dict[str, Any]:
    return _record(
        "user", uuid, parent, time, message={"role": "user", "content": content}, **fields
    )


def _result(tool_use_id: str, text: str, *, error: bool = False) -> list[dict[str, Any]]:
    return [{"type": "tool_result", "tool_use_id": tool_use_id, "content": text, "is_error": error}]


def session_records() -> list[dict[str, Any]]:
    """The main session: two turns, a Bash call, a Task call with a subagent, a failed Read."""
    bash = {
        "command": f"curl -H 'Authorization: Bearer {GITHUB}' https://api.github.com/user",
        "description": "Check the token",
    }
    task = {
        "description": "Audit the config",
        "prompt": f"Check whether {STRIPE} is still in the config",
        "subagent_type": "Explore",
    }
    return [
        {"type": "custom-title", "customTitle": f"deploy with {GITHUB}", "sessionId": SESSION},
        _user("u1", None, "09:00:00", f"Deploy with {GITHUB} and connect to {DATABASE_URL}"),
        _assistant(
            "a1",
            "u1",
            "09:00:05",
            "msg_s1_1",
            [
                {"type": "thinking", "thinking": f"The key {ANTHROPIC} is sensitive"},
                {"type": "text", "text": "Checking the token first."},
                {"type": "tool_use", "id": "toolu_bash1", "name": "Bash", "input": bash},
            ],
            _usage(10, 20, 100, 50),
            "tool_use",
        ),
        _user(
            "r1",
            "a1",
            "09:00:09",
            _result("toolu_bash1", f"aws_access_key_id = {AWS}"),
            toolUseResult={
                "stdout": f"DATABASE_PASSWORD={PASSWORD}",
                "stderr": "",
                "interrupted": False,
                "isImage": False,
            },
        ),
        _assistant(
            "a2",
            "r1",
            "09:00:10",
            "msg_s1_2",
            [{"type": "tool_use", "id": "toolu_task1", "name": "Task", "input": task}],
            _usage(5, 7, 200, 0),
            "tool_use",
        ),
        _user(
            "r2",
            "a2",
            "09:01:00",
            _result("toolu_task1", "The audit is done."),
            toolUseResult={
                "status": "completed",
                "agentId": AGENT,
                "content": [{"type": "text", "text": f"Found {STRIPE}"}],
            },
        ),
        _assistant(
            "a3",
            "r2",
            "09:01:05",
            "msg_s1_3",
            [
                {
                    "type": "tool_use",
                    "id": "toolu_read1",
                    "name": "Read",
                    "input": {"file_path": f"{CWD}/.env"},
                }
            ],
            _usage(3, 4, 300, 10),
            "tool_use",
        ),
        _user(
            "r3",
            "a3",
            "09:01:06",
            _result("toolu_read1", f"File does not exist: {CWD}/.env", error=True),
            toolUseResult=f"Error: File does not exist: {CWD}/.env",
        ),
        _assistant(
            "a4",
            "r3",
            "09:01:10",
            "msg_s1_4",
            [{"type": "text", "text": f"Done. Rotate {ANTHROPIC} soon."}],
            _usage(2, 30, 400, 0),
            "end_turn",
        ),
        _user("u2", "a4", "09:05:00", "thanks"),
        _assistant(
            "a5",
            "u2",
            "09:05:02",
            "msg_s1_5",
            [{"type": "text", "text": "You're welcome."}],
            _usage(1, 5, 500, 0),
            "end_turn",
        ),
    ]


def subagent_records() -> list[dict[str, Any]]:
    """The Explore subagent the Task call spawned."""
    side = {"isSidechain": True, "agentId": AGENT}
    records = [
        _user("s1", None, "09:00:11", f"Check whether {STRIPE} is still in the config", **side),
        _assistant(
            "s2",
            "s1",
            "09:00:20",
            "msg_sub_1",
            [
                {
                    "type": "tool_use",
                    "id": "toolu_grep1",
                    "name": "Grep",
                    "input": {"pattern": "sk_live_", "path": CWD},
                }
            ],
            _usage(4, 6, 50, 0),
            "tool_use",
            **side,
        ),
        _user(
            "s3",
            "s2",
            "09:00:25",
            _result("toolu_grep1", f"config.py: STRIPE_KEY = '{STRIPE}'"),
            **side,
        ),
        _assistant(
            "s4",
            "s3",
            "09:00:50",
            "msg_sub_2",
            [{"type": "text", "text": f"Found {STRIPE} in config.py"}],
            _usage(8, 9, 60, 0),
            "end_turn",
            **side,
        ),
    ]
    return records


def resumed_records() -> list[dict[str, Any]]:
    """A session resumed from the first one: it repeats its first exchange, then goes on."""
    copied = [dict(record, sessionId=RESUMED) for record in session_records()[1:3]]
    return [
        *copied,
        _user("v1", "a1", "09:10:00", "one more thing", sessionId=RESUMED),
        _assistant(
            "b1",
            "v1",
            "09:10:03",
            "msg_s2_1",
            [{"type": "text", "text": "Sure."}],
            _usage(11, 12, 13, 14),
            "end_turn",
            sessionId=RESUMED,
        ),
    ]


#: The malformed line put in the resumed session (its line number there).
MALFORMED_LINE = 3


def _write_jsonl(path: Path, records: list[dict[str, Any]], bad_line: int | None = None) -> None:
    lines = [json.dumps(record) for record in records]
    if bad_line is not None:
        lines.insert(bad_line - 1, '{"type": "user", "uuid": ')
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_claude_dir(root: Path) -> Path:
    """Write the synthetic Claude folder under ``root``; returns its ``projects`` folder."""
    project = root / "projects" / PROJECT
    agents = project / SESSION / "subagents"
    agents.mkdir(parents=True)
    _write_jsonl(project / f"{SESSION}.jsonl", session_records())
    _write_jsonl(project / f"{RESUMED}.jsonl", resumed_records(), bad_line=MALFORMED_LINE)
    _write_jsonl(agents / f"agent-{AGENT}.jsonl", subagent_records())
    meta = {"agentId": AGENT, "toolUseId": "toolu_task1", "agentType": "Explore"}
    (agents / f"agent-{AGENT}.meta.json").write_text(json.dumps(meta), encoding="utf-8")
    return root / "projects"


def test_the_library_reads_the_synthetic_folder_as_the_tests_assume(tmp_path: Path) -> None:
    found = discover(write_claude_dir(tmp_path))
    sessions = {file.session_id: load(file) for file in found.sessions}
    assert set(sessions) == {SESSION, RESUMED}
    main = sessions[SESSION]
    assert main.title == f"deploy with {GITHUB}"
    statuses = {call.id: call.status for call in main.tool_calls.values()}
    assert statuses == {"toolu_bash1": "ok", "toolu_task1": "ok", "toolu_read1": "error"}
    (agent,) = main.tool_calls["toolu_task1"].subagents
    assert agent.agent_id == AGENT
    assert [call.name for call in agent.tool_calls.values()] == ["Grep"]
    resumed = sessions[RESUMED]
    assert [(d.line, d.path.name) for d in resumed.diagnostics] == [
        (MALFORMED_LINE, f"{RESUMED}.jsonl")
    ]
