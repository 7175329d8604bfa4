"""Count each API response and each tool call once, however many files repeat it.

A resumed session copies earlier records into its new file, so the same response (and the
tool calls it made) can be read from several sessions; the first session to claim it keeps it.
Within one session tree :func:`cclens.analytics.usage.collect_responses` already merges the
records of a response; this ledger carries the same rules across sessions and across runs: a
response is identified by ``message.id`` and ``requestId``, a copy without ``requestId`` is the
same response as any one with its ``message.id``, and a response with neither id by its record
uuid. A tool call is identified by its ``tool_use`` id. Ids that test fixtures replaced with a
bracketed placeholder (``[trimmed for fixture]``) are no ids.
"""

from __future__ import annotations

from collections.abc import Iterable


def real_id(text: str | None) -> str | None:
    """``text``, unless it is empty or a bracketed placeholder."""
    return text if text and not text.startswith("[") else None


class Ledger:
    """Remembers the responses and tool calls already counted."""

    def __init__(self) -> None:
        self._pairs: set[tuple[str, str]] = set()
        self._messages: set[str] = set()
        self._bare_messages: set[str] = set()
        self._requests: set[str] = set()
        self._uuids: set[str] = set()
        self._tool_calls: set[str] = set()

    def remember_responses(self, keys: Iterable[tuple[str | None, str | None, str | None]]) -> None:
        """Mark responses as counted: ``(message_id, request_id, uuid)`` triples."""
        for message_id, request_id, uuid in keys:
            self._add(message_id, request_id, uuid)

    def remember_tool_calls(self, ids: Iterable[str | None]) -> None:
        """Mark tool calls as counted, by ``tool_use`` id."""
        self._tool_calls.update(i for i in ids if i)

    def _add(self, message_id: str | None, request_id: str | None, uuid: str | None) -> None:
        message_id, request_id, uuid = real_id(message_id), real_id(request_id), real_id(uuid)
        if message_id:
            self._messages.add(message_id)
            if request_id:
                self._pairs.add((message_id, request_id))
            else:
                self._bare_messages.add(message_id)
        elif request_id:
            self._requests.add(request_id)
        elif uuid:
            self._uuids.add(uuid)

    def seen_response(
        self, message_id: str | None, request_id: str | None, uuid: str | None = None
    ) -> bool:
        """Whether a response with these ids was counted already."""
        message_id, request_id, uuid = real_id(message_id), real_id(request_id), real_id(uuid)
        if message_id:
            if not request_id:
                return message_id in self._messages
            return (message_id, request_id) in self._pairs or message_id in self._bare_messages
        if request_id:
            return request_id in self._requests
        return uuid is not None and uuid in self._uuids

    def claim_response(
        self, message_id: str | None, request_id: str | None, uuid: str | None = None
    ) -> bool:
        """Count a response; ``False`` when it was counted already. A response with no id at
        all cannot be matched with anything and is always counted."""
        if self.seen_response(message_id, request_id, uuid):
            return False
        self._add(message_id, request_id, uuid)
        return True

    def claim_tool_call(self, tool_use_id: str | None) -> bool:
        """Count a tool call; ``False`` when it was counted already (``None``: no id, always
        counted)."""
        if not tool_use_id:
            return True
        if tool_use_id in self._tool_calls:
            return False
        self._tool_calls.add(tool_use_id)
        return True


__all__ = ["Ledger", "real_id"]
