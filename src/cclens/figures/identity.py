"""How cclens knows that two records are the same response, tool call or prompt, and which
session counts it.

Claude Code writes the same thing in several places: every record split from one streamed
response repeats its ``usage``; a resumed session copies earlier records into its new file; a
subagent's records are mirrored into the parent transcript. Every figure counts each response,
tool call and prompt once, by these identities:

* a **response** is its ``message.id`` and ``requestId``: records with the same pair are one
  response; a record without ``requestId`` joins the response with its ``message.id`` (the
  first, should two requests have returned the same id); a record without ``message.id`` is
  keyed by its ``requestId``, else by its ``uuid`` (copies keep it), else it stands alone;
* a **tool call** is its ``tool_use`` id (a call without one: its file, line and name);
* a **prompt** is its record's ``uuid`` (without one: its file and line).

Ids that test fixtures replaced with a bracketed placeholder (``[trimmed for fixture]``) are
treated as absent.

Copies stay within a project: Claude Code resumes and forks a session in the project folder of
the directory it ran in. So each **project** (a folder under ``projects/``) is counted on its
own: when several of its sessions hold the same response, call or prompt, the first in
**reading order** counts it — the session whose file was written to least recently first (then
by session id and path), the order :func:`cclens.readers.claude.discover` lists them in. A session
resumed into a new file stops being written when its continuation starts, so the original
keeps what the continuation copies. The figures of a project depend on that project alone
(``--project`` and a project's pages give exactly its share), and the figures of all projects
add up to the totals.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Generic, TypeVar

import msgspec

if TYPE_CHECKING:
    from ..model.session import Session

T = TypeVar("T")

#: ``(project, mtime, session id, path)``: see the module docstring.
ReadingKey = tuple[str, float, str, str]


def real_id(text: object) -> str | None:
    """``text`` when it is a real id: not empty, not a bracketed fixture placeholder."""
    if not isinstance(text, str) or not text or text.startswith("["):
        return None
    return text


def reading_key(project: str, mtime: float, session_id: str, path: Path | str) -> ReadingKey:
    """Where a session comes in reading order (see the module docstring)."""
    return (project, mtime, session_id, str(path))


def session_reading_key(session: Session) -> ReadingKey:
    """:func:`reading_key` of a loaded session."""
    return reading_key(session.project, session.mtime, session.session_id, session.path)


def reading_order(sessions: Iterable[Session]) -> list[Session]:
    """``sessions`` in reading order (project by project)."""
    return sorted(sessions, key=session_reading_key)


def by_project(sessions: Iterable[Session]) -> list[list[Session]]:
    """``sessions`` in reading order, one list per project: each is counted on its own."""
    groups: dict[str, list[Session]] = {}
    for session in reading_order(sessions):
        groups.setdefault(session.project, []).append(session)
    return list(groups.values())


def response_fallback(request_id: str | None, uuid: str | None, path: Path | str, line: int) -> str:
    """The key of a response record without a ``message.id``."""
    if request_id is not None:
        return f"request:{request_id}"
    if uuid is not None:
        return f"uuid:{uuid}"
    return f"line:{path}:{line}"


def call_key(tool_use_id: object, path: Path | str, line: int, name: str) -> str:
    """The identity of a tool call (see the module docstring)."""
    return tool_use_id if isinstance(tool_use_id, str) and tool_use_id else f"{path}:{line}:{name}"


def prompt_key(uuid: str | None, path: Path | str, line: int) -> str:
    """The identity of a prompt (see the module docstring)."""
    return real_id(uuid) or f"{path}:{line}"


class Match(msgspec.Struct, Generic[T]):
    """A response the matcher knows, and what the caller keeps for it."""

    request_id: str | None
    value: T


class ResponseMatcher(Generic[T]):
    """Finds the response a record belongs to, by the rules in the module docstring.

    ``value`` is whatever the caller keeps per response (a builder, a position, a flag).
    """

    def __init__(self) -> None:
        self._by_message: dict[str, list[Match[T]]] = {}
        self._by_other: dict[str, Match[T]] = {}

    def find(
        self, message_id: str | None, request_id: str | None, fallback: str
    ) -> Match[T] | None:
        """The response a record with these ids belongs to, if one is known.

        ``message_id`` and ``request_id`` must be real ids (see :func:`real_id`) or ``None``;
        ``fallback`` is :func:`response_fallback` of the record. When a response first seen
        without ``requestId`` is found again with one, set the match's ``request_id``.
        """
        if message_id is None:
            return self._by_other.get(fallback)
        candidates = self._by_message.get(message_id)
        if not candidates:
            return None
        for match in candidates:
            if match.request_id == request_id:
                return match
        if request_id is None:
            return candidates[0]
        for match in candidates:
            if match.request_id is None:
                return match  # an earlier copy without requestId: the same response
        return None

    def add(
        self, message_id: str | None, request_id: str | None, fallback: str, value: T
    ) -> Match[T]:
        """Remember a new response."""
        match = Match(request_id, value)
        if message_id is None:
            self._by_other[fallback] = match
        else:
            self._by_message.setdefault(message_id, []).append(match)
        return match

    def claim(
        self, message_id: str | None, request_id: str | None, fallback: str, value: T
    ) -> bool:
        """Remember the response unless it is known; whether it was new."""
        found = self.find(message_id, request_id, fallback)
        if found is not None:
            if found.request_id is None and request_id is not None:
                found.request_id = request_id
            return False
        self.add(message_id, request_id, fallback, value)
        return True


__all__ = [
    "Match",
    "ReadingKey",
    "ResponseMatcher",
    "by_project",
    "call_key",
    "prompt_key",
    "reading_key",
    "reading_order",
    "real_id",
    "response_fallback",
    "session_reading_key",
]
