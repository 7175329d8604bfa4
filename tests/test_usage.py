"""Usage counted once per API response, across every file that repeats it.

Small transcripts written here reproduce each way Claude Code repeats a response: records split
from one streamed response, streaming snapshots with growing ``output_tokens``, resumed
sessions copying records into a new file, subagent replays (``agent_progress`` records in the
parent and the agent's own file), and records without ``requestId``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from cclens.figures.tokens import TokenCounts
from cclens.figures.usage import collect_responses
from cclens.model import Usage
from cclens.readers.claude import load_session
from cclens.reports.stats import usage_stats

SESSION = "11111111-1111-4111-8111-111111111111"
RESUMED = "22222222-2222-4222-8222-222222222222"
PROJECT = "-home-me-app"
SONNET = "claude-sonnet-4-5-20250929"


def usage(
    input: int = 0, output: int = 0, write_5m: int = 0, write_1h: int = 0, read: int = 0
) -> dict[str, Any]:
    """A ``usage`` object as the API writes it, with the cache-write split."""
    return {
        "input_tokens": input,
        "output_tokens": output,
        "cache_creation_input_tokens": write_5m + write_1h,
        "cache_read_input_tokens": read,
        "cache_creation": {
            "ephemeral_5m_input_tokens": write_5m,
            "ephemeral_1h_input_tokens": write_1h,
        },
        "service_tier": "standard",
    }


def assistant(
    uuid: str,
    message_id: str | None,
    tokens: dict[str, Any],
    *,
    request_id: str | None = "req_1",
    parent: str | None = None,
    session: str = SESSION,
    time: str = "2025-06-01T10:00:00.000Z",
    model: str = SONNET,
    content: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """One assistant record."""
    message: dict[str, Any] = {
        "model": model,
        "type": "message",
        "role": "assistant",
        "content": content if content is not None else [{"type": "text", "text": "ok"}],
        "stop_reason": None,
        "usage": tokens,
    }
    if message_id is not None:
        message["id"] = message_id
    record: dict[str, Any] = {
        "parentUuid": parent,
        "isSidechain": False,
        "userType": "external",
        "cwd": "/home/me/app",
        "sessionId": session,
        "version": "2.0.42",
        "type": "assistant",
        "message": message,
        "uuid": uuid,
        "timestamp": time,
    }
    if request_id is not None:
        record["requestId"] = request_id
    return record


def prompt(uuid: str, text: str, *, session: str = SESSION, time: str) -> dict[str, Any]:
    """A prompt the user typed."""
    return {
        "parentUuid": None,
        "isSidechain": False,
        "userType": "external",
        "cwd": "/home/me/app",
        "sessionId": session,
        "version": "2.0.42",
        "type": "user",
        "message": {"role": "user", "content": text},
        "uuid": uuid,
        "timestamp": time,
    }


def tool_use(tool_id: str, name: str, tool_input: dict[str, Any]) -> dict[str, Any]:
    return {"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}


def tool_result(
    uuid: str,
    tool_id: str,
    text: str,
    *,
    parent: str,
    time: str,
    is_error: bool = False,
    session: str = SESSION,
) -> dict[str, Any]:
    """A user record carrying one tool result."""
    return {
        "parentUuid": parent,
        "isSidechain": False,
        "userType": "external",
        "cwd": "/home/me/app",
        "sessionId": session,
        "version": "2.0.42",
        "type": "user",
        "message": {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": tool_id,
                    "content": text,
                    "is_error": is_error,
                }
            ],
        },
        "toolUseResult": text,
        "uuid": uuid,
        "timestamp": time,
    }


def write(path: Path, records: list[dict[str, Any]]) -> Path:
    """Write ``records`` as a JSONL transcript at ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


def project_dir(root: Path) -> Path:
    return root / "projects" / PROJECT


def tokens_of(raw: dict[str, Any]) -> TokenCounts:
    split = raw["cache_creation"]
    return TokenCounts(
        input=raw["input_tokens"],
        output=raw["output_tokens"],
        cache_write_5m=split["ephemeral_5m_input_tokens"],
        cache_write_1h=split["ephemeral_1h_input_tokens"],
        cache_read=raw["cache_read_input_tokens"],
    )


def test_records_split_from_one_response_count_once(tmp_path: Path) -> None:
    same = usage(input=10, output=50, write_5m=100, read=1000)
    path = write(
        project_dir(tmp_path) / f"{SESSION}.jsonl",
        [
            prompt("u0", "hi", time="2025-06-01T09:59:59.000Z"),
            assistant(
                "a1", "msg_1", same, parent="u0", content=[{"type": "thinking", "thinking": "…"}]
            ),
            assistant("a2", "msg_1", same, parent="a1"),
            assistant(
                "a3",
                "msg_1",
                same,
                parent="a2",
                content=[tool_use("t1", "Read", {"file_path": "/x"})],
            ),
        ],
    )
    responses = collect_responses([load_session(path)])
    assert len(responses) == 1
    assert responses[0].tokens == tokens_of(same)
    assert responses[0].tool_calls == [("t1", "Read")]


def test_streaming_snapshots_keep_the_last_largest_usage(tmp_path: Path) -> None:
    first = usage(input=3, output=1, write_5m=2142, read=15099)
    final = usage(input=3, output=420, write_5m=2142, read=15099)
    path = write(
        project_dir(tmp_path) / f"{SESSION}.jsonl",
        [
            assistant("a1", "msg_1", first),
            assistant("a2", "msg_1", final, parent="a1"),
            # A late copy of an early snapshot must not replace the final count.
            assistant("a3", "msg_1", first, parent="a2"),
        ],
    )
    (response,) = collect_responses([load_session(path)])
    assert response.tokens == tokens_of(final)
    assert response.tokens.output == 420
    assert response.line == 2


def resumed_corpus(root: Path) -> None:
    """A session of one response (5 in, 7 out) and the session that resumed it: a copy of it,
    then one more response (11 in, 13 out) the next day."""
    original = [
        prompt("u0", "first", time="2025-06-01T09:00:00.000Z"),
        assistant(
            "a1", "msg_1", usage(input=5, output=7), parent="u0", time="2025-06-01T09:00:05.000Z"
        ),
    ]
    resumed = [
        # Claude Code copies the history into the new file, then goes on.
        *[{**record, "sessionId": RESUMED} for record in original],
        prompt("u2", "more", session=RESUMED, time="2025-06-02T09:00:00.000Z"),
        assistant(
            "a3",
            "msg_2",
            usage(input=11, output=13),
            request_id="req_2",
            parent="u2",
            session=RESUMED,
            time="2025-06-02T09:00:05.000Z",
        ),
    ]
    write(project_dir(root) / f"{SESSION}.jsonl", original)
    write(project_dir(root) / f"{RESUMED}.jsonl", resumed)


def test_resumed_session_copies_count_once_with_the_original_session(tmp_path: Path) -> None:
    resumed_corpus(tmp_path)
    report = usage_stats([tmp_path], by="session")
    assert report.responses == 2
    assert report.total.tokens == TokenCounts(input=16, output=20)
    by_session = {row.key: row.tokens for row in report.rows}
    assert by_session == {
        SESSION: TokenCounts(input=5, output=7),
        RESUMED: TokenCounts(input=11, output=13),
    }


def _progress(uuid: str, mirrored: dict[str, Any], *, parent_tool: str) -> dict[str, Any]:
    """An ``agent_progress`` record mirroring a subagent record into the parent."""
    return {
        "parentUuid": None,
        "isSidechain": False,
        "userType": "external",
        "cwd": "/home/me/app",
        "sessionId": SESSION,
        "version": "2.0.60",
        "type": "progress",
        "data": {
            "message": {
                "type": "assistant",
                "message": mirrored["message"],
                "requestId": mirrored.get("requestId"),
                "uuid": mirrored["uuid"],
                "timestamp": mirrored["timestamp"],
            },
            "normalizedMessages": [],
            "type": "agent_progress",
            "prompt": "",
            "agentId": "abc123",
        },
        "toolUseID": f"agent_{uuid}",
        "parentToolUseID": parent_tool,
        "uuid": uuid,
        "timestamp": mirrored["timestamp"],
    }


def test_subagent_replays_count_once(tmp_path: Path) -> None:
    agent_records = [
        {
            **assistant(
                "s1",
                "msg_sub_1",
                usage(input=2, output=30, read=400),
                request_id="req_sub_1",
                time="2025-06-01T10:00:10.000Z",
                model="claude-haiku-4-5-20251001",
            ),
            "isSidechain": True,
            "agentId": "abc123",
        },
        {
            **assistant(
                "s2",
                "msg_sub_2",
                usage(input=1, output=60, write_5m=20, read=500),
                request_id="req_sub_2",
                parent="s1",
                time="2025-06-01T10:00:20.000Z",
                model="claude-haiku-4-5-20251001",
            ),
            "isSidechain": True,
            "agentId": "abc123",
        },
    ]
    parent = [
        prompt("u0", "look around", time="2025-06-01T10:00:00.000Z"),
        assistant(
            "a1",
            "msg_1",
            usage(input=4, output=40),
            parent="u0",
            content=[tool_use("toolu_agent", "Task", {"description": "x", "prompt": "look"})],
        ),
        _progress("p1", agent_records[0], parent_tool="toolu_agent"),
        _progress("p2", agent_records[1], parent_tool="toolu_agent"),
        tool_result("u3", "toolu_agent", "done", parent="a1", time="2025-06-01T10:00:30.000Z"),
    ]
    folder = project_dir(tmp_path)
    write(folder / f"{SESSION}.jsonl", parent)
    write(folder / SESSION / "subagents" / "agent-abc123.jsonl", agent_records)

    report = usage_stats([tmp_path], by="session")
    assert report.responses == 3
    expected = TokenCounts(input=7, output=130, cache_write_5m=20, cache_read=900)
    assert report.total.tokens == expected
    assert [row.key for row in report.rows] == [SESSION]

    # The mirrored records alone (no agent file) still count, once.
    (folder / SESSION / "subagents" / "agent-abc123.jsonl").unlink()
    alone = usage_stats([tmp_path], by="session")
    assert alone.responses == 3 and alone.total.tokens == expected


def test_missing_request_id_dedupes_by_message_id(tmp_path: Path) -> None:
    tokens = usage(input=9, output=99, read=900)
    folder = project_dir(tmp_path)
    write(
        folder / f"{SESSION}.jsonl",
        [
            assistant("a1", "msg_1", tokens, request_id=None),
            assistant("a2", "msg_1", tokens, request_id=None, parent="a1"),
        ],
    )
    # A copy elsewhere with the requestId present is still the same response.
    write(
        folder / f"{RESUMED}.jsonl",
        [assistant("a1", "msg_1", tokens, request_id="req_9", session=RESUMED)],
    )
    report = usage_stats([tmp_path])
    assert report.responses == 1
    assert report.total.tokens == tokens_of(tokens)


def test_different_requests_with_one_message_id_are_two_responses(tmp_path: Path) -> None:
    path = write(
        project_dir(tmp_path) / f"{SESSION}.jsonl",
        [
            assistant("a1", "msg_1", usage(output=5), request_id="req_1"),
            assistant("a2", "msg_1", usage(output=6), request_id="req_2", parent="a1"),
        ],
    )
    responses = collect_responses([load_session(path)])
    assert sorted(r.tokens.output for r in responses) == [5, 6]


def test_records_without_message_id_dedupe_by_uuid(tmp_path: Path) -> None:
    tokens = usage(input=1, output=2)
    folder = project_dir(tmp_path)
    write(
        folder / f"{SESSION}.jsonl",
        [
            assistant("a1", None, tokens, request_id=None),
            assistant("a2", None, tokens, request_id=None, parent="a1"),
        ],
    )
    write(
        folder / f"{RESUMED}.jsonl",
        [assistant("a1", None, tokens, request_id=None, session=RESUMED)],
    )
    report = usage_stats([tmp_path])
    assert report.responses == 2  # a1 (twice, same uuid) and a2
    assert report.total.tokens == TokenCounts(input=2, output=4)


def test_synthetic_messages_are_not_responses(tmp_path: Path) -> None:
    path = write(
        project_dir(tmp_path) / f"{SESSION}.jsonl",
        [
            assistant("a1", "msg_1", usage(input=1, output=1)),
            assistant("a2", "msg_2", usage(), request_id=None, parent="a1", model="<synthetic>"),
        ],
    )
    responses = collect_responses([load_session(path)])
    assert [r.message_id for r in responses] == ["msg_1"]


def test_split_shares_add_up_exactly() -> None:
    counts = TokenCounts(input=10, output=7, cache_write_5m=1, cache_write_1h=0, cache_read=100)
    shares = counts.split(3)
    assert [s.output for s in shares] == [3, 2, 2]
    assert sum((s for s in shares), TokenCounts()) == counts
    assert counts.context == 111 and counts.total == 118


@pytest.mark.parametrize(
    ("total", "split_5m", "split_1h", "expected"),
    [
        # A breakdown of zeros under a real total (83 responses of a real corpus): the total
        # counts, as 5-minute writes the breakdown did not split.
        (1000, 0, 0, (1000, 0, 1000)),
        (1000, 600, 400, (600, 400, 0)),
        (1000, 300, 400, (600, 400, 300)),  # part unexplained
        (1000, 0, 1500, (0, 1000, 0)),  # a breakdown larger than the total is cut to it
        (None, 200, 100, (200, 100, 0)),  # no total: the breakdown's sum
        (700, None, None, (700, 0, 700)),  # no breakdown at all
    ],
)
def test_cache_writes_are_the_apis_total_split_by_the_breakdown(
    total: int | None, split_5m: int | None, split_1h: int | None, expected: tuple[int, int, int]
) -> None:
    raw: dict[str, Any] = {"input_tokens": 1, "output_tokens": 2, "cache_read_input_tokens": 3}
    if total is not None:
        raw["cache_creation_input_tokens"] = total
    if split_5m is not None or split_1h is not None:
        raw["cache_creation"] = {
            "ephemeral_5m_input_tokens": split_5m,
            "ephemeral_1h_input_tokens": split_1h,
        }
    counts = TokenCounts.of(msgspec.convert(raw, Usage))
    assert (counts.cache_write_5m, counts.cache_write_1h, counts.cache_write_unsplit) == expected
    assert counts.cache_write == (total if total is not None else 300)
    assert counts.total == 1 + 2 + 3 + counts.cache_write
