"""The per-session timeline: turns, tool calls and context size, checked against the raw JSON."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import msgspec

from cclens.figures.timeline import session_timeline
from cclens.readers.claude import load_session

from .test_usage import PROJECT, SESSION, assistant, prompt, tool_result, tool_use, usage, write

MUSIC = "chiphuyen__sniffly/tests/mock-data/-Users-chip-dev-ai-music"
SESSION_FILE = "d3ad4cdc-5657-435d-98fa-0035d53e383d.jsonl"


def _records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_bytes().splitlines() if line.strip()]


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def test_timeline_of_a_real_session(corpus: Path) -> None:
    path = corpus / MUSIC / SESSION_FILE
    records = _records(path)
    timeline = session_timeline(load_session(path))

    prompts = [
        r for r in records if r["type"] == "user" and isinstance(r["message"]["content"], str)
    ]
    assert [t.prompt for t in timeline.turns] == [
        " ".join(r["message"]["content"].split())[:119]
        + ("…" if len(r["message"]["content"]) > 120 else "")
        for r in prompts
    ]
    assert [t.started for t in timeline.turns] == [_time(r["timestamp"]) for r in prompts]

    # Context size by hand: per response, the largest snapshot's input + cache read + write.
    best: dict[str, dict[str, Any]] = {}
    order: list[str] = []
    for record in records:
        if record["type"] != "assistant":
            continue
        message = record["message"]
        if message["id"] not in best:
            order.append(message["id"])
            best[message["id"]] = message["usage"]
        elif message["usage"]["output_tokens"] >= best[message["id"]]["output_tokens"]:
            best[message["id"]] = message["usage"]
    expected = [
        (
            key,
            best[key]["input_tokens"]
            + best[key]["cache_read_input_tokens"]
            + best[key]["cache_creation_input_tokens"],
        )
        for key in order
    ]
    assert [(p.message_id, p.context) for p in timeline.context] == expected
    assert timeline.peak_context == max(size for _, size in expected)
    assert sum(t.responses for t in timeline.turns) == len(expected)

    # Tool calls: every tool_use, timed to its tool_result.
    uses = {
        block["id"]: (block["name"], record["timestamp"])
        for record in records
        if record["type"] == "assistant"
        for block in record["message"]["content"]
        if block.get("type") == "tool_use"
    }
    results = {
        block["tool_use_id"]: record["timestamp"]
        for record in records
        if record["type"] == "user" and isinstance(record["message"]["content"], list)
        for block in record["message"]["content"]
        if block.get("type") == "tool_result"
    }
    assert {c.id: c.name for c in timeline.calls} == {k: v[0] for k, v in uses.items()}
    for call in timeline.calls:
        started = _time(uses[call.id][1])
        assert call.started == started
        if call.id in results:
            assert call.duration_seconds == (_time(results[call.id]) - started).total_seconds()
        else:
            assert call.status == "pending" and call.duration_seconds is None
    assert sum(t.tool_calls for t in timeline.turns) == len(uses)
    assert all(
        t.ended is not None and t.started is not None and t.ended >= t.started
        for t in timeline.turns
    )

    encoded = json.loads(msgspec.json.encode(timeline))
    assert set(encoded) == {
        "session_id",
        "started",
        "ended",
        "turns",
        "calls",
        "context",
        "compactions",
    }


def test_compactions_are_marked(corpus: Path) -> None:
    path = corpus / "jazzyalex__agent-sessions/Resources/Fixtures/stage0/agents/claude/small.jsonl"
    boundaries = [
        r
        for r in _records(path)
        if r.get("type") == "system" and r.get("subtype") == "compact_boundary"
    ]
    timeline = session_timeline(load_session(path))
    assert len(timeline.compactions) == len(boundaries) > 0
    assert {c.anchor for c in timeline.compactions} == {r["uuid"] for r in boundaries}


def test_responses_before_the_first_prompt_form_a_turn_and_branches_are_left_out(
    tmp_path: Path,
) -> None:
    records = [
        assistant(
            "a0",
            "msg_0",
            usage(input=10, read=90, output=1),
            time="2025-06-01T10:00:00.000Z",
            content=[tool_use("t0", "Read", {"file_path": "/a"})],
        ),
        tool_result("u1", "t0", "text", parent="a0", time="2025-06-01T10:00:02.000Z"),
        prompt("u2", "next", time="2025-06-01T10:01:00.000Z"),
        {**prompt("u2b", "abandoned", time="2025-06-01T10:01:30.000Z"), "parentUuid": "u1"},
        {
            **assistant(
                "a3",
                "msg_3",
                usage(input=1, write_5m=200, read=100),
                request_id="req_3",
                time="2025-06-01T10:02:00.000Z",
            ),
            "parentUuid": "u2",
        },
    ]
    # u2 (and its answer a3) is the main line's last turn; u2b is a rewound branch.
    records[2]["parentUuid"] = "u1"
    path = write(tmp_path / "projects" / PROJECT / f"{SESSION}.jsonl", records)
    timeline = session_timeline(load_session(path))
    assert [(t.index, t.prompt, t.responses, t.tool_calls) for t in timeline.turns] == [
        (0, "", 1, 1),
        (1, "next", 1, 0),
    ]
    assert [p.context for p in timeline.context] == [100, 301]
    assert [c.duration_seconds for c in timeline.calls] == [2.0]
