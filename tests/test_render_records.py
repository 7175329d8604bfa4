"""A builder of synthetic transcripts for the render and export tests, and checks of the builder.

:class:`Transcript` writes records the way Claude Code does (uuid chain, session id, timestamps)
so a test can describe a session by what it contains and get a real ``.jsonl`` file back.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cclens.model.session import Session
from cclens.readers.claude import AssistantItem, load_session

UNSET: Any = object()


class Transcript:
    """Records of one synthetic session, chained by ``parentUuid`` in the order they are added."""

    def __init__(self, session_id: str = "0d5e55a1-0000-4000-8000-000000000001", **common: Any):
        self.session_id = session_id
        self.records: list[dict[str, Any]] = []
        self.parent: str | None = None
        self.count = 0
        self.common: dict[str, Any] = {
            "cwd": "/home/user/project",
            "version": "2.1.0",
            "gitBranch": "main",
            "userType": "external",
            "isSidechain": False,
            **common,
        }

    def _time(self) -> str:
        self.count += 1
        minutes, seconds = divmod(self.count, 60)
        return f"2026-01-02T03:{minutes:02d}:{seconds:02d}.000Z"

    def chain(self, record: dict[str, Any], uuid: str | None = None) -> str:
        """Add a conversation record (uuid, parent, session, timestamp filled in)."""
        uuid = uuid or f"u{len(self.records) + 1:03d}"
        full = {
            "parentUuid": self.parent,
            "sessionId": self.session_id,
            "timestamp": self._time(),
            **self.common,
            "uuid": uuid,
            **record,
        }
        self.records.append(full)
        self.parent = uuid
        return uuid

    def meta(self, record: dict[str, Any]) -> None:
        """Add a record outside the conversation tree (titles, modes, links)."""
        self.records.append({"sessionId": self.session_id, **record})

    def user(self, content: Any, **extra: Any) -> str:
        message = {"role": "user", "content": content}
        return self.chain({"type": "user", "message": message, **extra})

    def assistant(
        self, *blocks: dict[str, Any], message_id: str | None = None, **extra: Any
    ) -> str:
        message_id = message_id or f"msg_{len(self.records) + 1:03d}"
        message = {
            "id": message_id,
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5-20250929",
            "content": list(blocks),
            "stop_reason": "end_turn",
            "usage": {"input_tokens": 10, "output_tokens": 5, "cache_read_input_tokens": 100},
        }
        return self.chain(
            {"type": "assistant", "requestId": "req_" + message_id, "message": message, **extra}
        )

    def tool(
        self,
        name: str,
        tool_input: Any,
        content: Any = "ok",
        result: Any = UNSET,
        *,
        call_id: str | None = None,
        error: bool = False,
    ) -> str:
        """A tool call and its result (``result`` is the ``toolUseResult``)."""
        call_id = call_id or f"toolu_{len(self.records) + 1:03d}"
        self.assistant({"type": "tool_use", "id": call_id, "name": name, "input": tool_input})
        block: dict[str, Any] = {"type": "tool_result", "tool_use_id": call_id, "content": content}
        if error:
            block["is_error"] = True
        extra = {} if result is UNSET else {"toolUseResult": result}
        self.user([block], **extra)
        return call_id

    def system(self, subtype: str | None, **fields: Any) -> str:
        record: dict[str, Any] = {"type": "system", "level": "info", **fields}
        if subtype is not None:
            record["subtype"] = subtype
        return self.chain(record)

    def attachment(self, attachment: dict[str, Any]) -> str:
        return self.chain({"type": "attachment", "attachment": attachment})

    def write(self, path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(r) + "\n" for r in self.records), encoding="utf-8")
        return path

    def load(self, directory: Path, name: str | None = None) -> Session:
        return load_session(self.write(directory / (name or f"{self.session_id}.jsonl")))


def test_builder_chains_and_pairs_calls(tmp_path: Path) -> None:
    transcript = Transcript()
    transcript.user("hello")
    call_id = transcript.tool("Bash", {"command": "ls"}, "a\nb", {"stdout": "a\nb", "stderr": ""})
    transcript.assistant({"type": "text", "text": "done"})
    session = transcript.load(tmp_path)
    assert [item.main for item in session.items] == [True] * len(session.items)
    call = session.tool_calls[call_id]
    assert call.status == "ok" and call.result_text == "a\nb"
    assert isinstance(call.item, AssistantItem)
    assert session.title == "hello"
