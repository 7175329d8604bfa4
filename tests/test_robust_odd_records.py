"""Records with one odd value keep the rest of what they say: a timestamp in year 9999, a lone
UTF-16 surrogate, a ``type`` key written twice."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cclens.index import Index
from cclens.model.messages import Message
from cclens.model.records import AssistantRecord, UserRecord
from cclens.readers.claude import load_session, read_file
from cclens.times import parse_time

from .conftest import ROOT

SESSION = "5e55a0c1-0000-4000-8000-00000000d00d"


def _user(uuid: str, time: str, text: str, parent: str | None = None) -> dict[str, object]:
    return {
        "type": "user",
        "uuid": uuid,
        "parentUuid": parent,
        "sessionId": SESSION,
        "timestamp": time,
        "message": {"role": "user", "content": text},
    }


def _assistant(uuid: str, parent: str, time: str, text: str) -> dict[str, object]:
    return {
        "type": "assistant",
        "uuid": uuid,
        "parentUuid": parent,
        "sessionId": SESSION,
        "timestamp": time,
        "message": {
            "id": f"msg_{uuid}",
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "content": [{"type": "text", "text": text}],
            "usage": {"input_tokens": 3, "output_tokens": 5},
        },
    }


def _write(folder: Path, lines: list[str]) -> Path:
    project = folder / "projects" / "-tmp-odd"
    project.mkdir(parents=True, exist_ok=True)
    path = project / f"{SESSION}.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_timestamp_far_in_the_future_is_not_used(tmp_path: Path) -> None:
    assert parse_time("9999-12-31T23:59:59Z") is None
    tomorrow = datetime.now(UTC) + timedelta(hours=2)
    assert parse_time(tomorrow.isoformat()) is not None  # a clock a little ahead is fine
    lines = [
        json.dumps(_user("u1", "2025-06-01T09:00:00Z", "hello")),
        json.dumps(_assistant("a1", "u1", "2025-06-01T09:00:05Z", "hi")),
        json.dumps(_assistant("a2", "a1", "9999-12-31T23:59:59Z", "from the future")),
    ]
    path = _write(tmp_path / "claude", lines)
    session = load_session(path)
    assert session.ended is not None and session.ended.year == 2025
    assert session.duration is not None and session.duration < timedelta(minutes=1)
    flagged = [d for d in session.diagnostics if "9999" in d.reason]
    assert flagged and flagged[0].line == 3 and flagged[0].partial
    later = path.with_name("later.jsonl")  # a session active after it, in July
    later.write_text(json.dumps(_user("v1", "2025-07-01T09:00:00Z", "x")) + "\n")
    with Index(tmp_path / "index.db") as index:
        index.update([tmp_path / "claude"])
        listed = list(index.sessions())
    assert [summary.session_id for summary in listed] == ["later", SESSION]  # not pinned
    mine = next(summary for summary in listed if summary.session_id == SESSION)
    assert mine.ended is not None and mine.ended.year == 2025


def test_a_lone_surrogate_keeps_the_record(tmp_path: Path) -> None:
    line = json.dumps(_user("u1", "2025-06-01T09:00:00Z", "before ATURN after"))
    line = line.replace("ATURN", "\\ud800")
    path = _write(
        tmp_path, [line, json.dumps(_assistant("a1", "u1", "2025-06-01T09:00:05Z", "ok"))]
    )
    read = read_file(path)
    assert len(read.entries) == 2
    record = read.entries[0].record
    assert isinstance(record, UserRecord) and isinstance(record.message, Message)
    text = str(record.message.content)
    assert "before" in text and "after" in text and "\ud800" not in text and "\ufffd" in text
    flagged = [d for d in read.diagnostics if d.line == 1]
    assert flagged and flagged[0].partial and "surrogate" in flagged[0].reason


def test_two_type_keys_are_read_as_json_parsers_read_them(tmp_path: Path) -> None:
    record = _assistant("a1", "u1", "2025-06-01T09:00:05Z", "two types")
    line = '{"type":"user",' + json.dumps(record)[1:]
    assert json.loads(line)["type"] == "assistant"  # the last one wins
    path = _write(tmp_path, [json.dumps(_user("u1", "2025-06-01T09:00:00Z", "hi")), line])
    read = read_file(path)
    assert isinstance(read.entries[1].record, AssistantRecord)
    flagged = [d for d in read.diagnostics if d.line == 2]
    assert flagged and flagged[0].partial and "type" in flagged[0].reason
    assert "unknown" not in flagged[0].reason


def test_the_exit_code_rule_is_documented() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "#### Exit status: inputs that cannot be read" in readme
    assert "`cclens: cannot read PATH: why`" in readme and "exit status 2" in readme
