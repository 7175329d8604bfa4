"""Count each API response, tool call and prompt once in its project, whatever file holds it.

A resumed session copies earlier records into its new file, so the same response (and the tool
calls and prompts around it) can be read from several sessions of a project; the first session
in reading order to claim it keeps it. Within one session tree
:func:`cclens.figures.usage.collect_responses` already merges the records of a response; this
ledger carries the same rules (:mod:`cclens.figures.identity`, the same matcher) across the
sessions of a project and across runs: rows a machine wrote earlier for the project are claimed
first.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..figures.identity import ResponseMatcher, real_id, response_fallback


def real_ids(
    message_id: str | None, request_id: str | None, uuid: str | None
) -> tuple[str | None, str | None, str | None]:
    """The ids, without empty ones and bracketed fixture placeholders."""
    return real_id(message_id), real_id(request_id), real_id(uuid)


class Ledger:
    """Remembers the responses, tool calls and prompts of a project already counted."""

    def __init__(self) -> None:
        self._responses: ResponseMatcher[None] = ResponseMatcher()
        self._tool_calls: set[str] = set()
        self._prompts: set[str] = set()

    def remember_responses(self, keys: Iterable[tuple[str | None, str | None, str | None]]) -> None:
        """Mark responses as counted: ``(message_id, request_id, uuid)`` of rows written."""
        for message_id, request_id, uuid in keys:
            message_id, request_id, uuid = real_ids(message_id, request_id, uuid)
            self.claim_response(message_id, request_id, response_fallback(request_id, uuid, "", 0))

    def remember_tool_calls(self, ids: Iterable[str | None]) -> None:
        """Mark tool calls as counted, by ``tool_use`` id."""
        self._tool_calls.update(i for i in ids if i)

    def remember_prompts(self, keys: Iterable[str | None]) -> None:
        """Mark prompts as counted, by key (their record's uuid)."""
        self._prompts.update(k for k in keys if k)

    def claim_response(self, message_id: str | None, request_id: str | None, fallback: str) -> bool:
        """Count a response (ids as :func:`real_ids` gives them; ``fallback`` its identity
        without a ``message.id``); ``False`` when it was counted already."""
        return self._responses.claim(message_id, request_id, fallback, None)

    def claim_tool_call(self, key: str | None) -> bool:
        """Count a tool call by key; ``False`` when it was counted already (``None``: no key,
        always counted)."""
        return self._claim(self._tool_calls, key)

    def claim_prompt(self, key: str | None) -> bool:
        """Count a prompt by key; ``False`` when it was counted already."""
        return self._claim(self._prompts, key)

    @staticmethod
    def _claim(seen: set[str], key: str | None) -> bool:
        if not key:
            return True
        if key in seen:
            return False
        seen.add(key)
        return True


__all__ = ["Ledger", "real_ids"]
