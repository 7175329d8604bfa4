"""Another agent's session as the session model's records, file by file, before assembly.

A reader of an agent other than Claude Code writes each of its files' lines (or messages) as
the session model's records (:mod:`cclens.model.records`), then assembles them
(:func:`cclens.readers.claude.assemble_entries`) and hangs the subagents' sessions under it.
:class:`FileRecords` is what it has between the two: enough for the index to derive a session's
summary and search documents from the records themselves (:mod:`cclens.index.write.agents`),
as it does from Claude Code's lines, without building the assembled session.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from ..model import UNSET, Opt, Usage
from ..model.blocks import ContentBlock
from ..model.entries import Diagnostic, Entry
from ..model.messages import Message
from ..model.records import AssistantRecord
from .lines import Read


class FileRecords(msgspec.Struct):
    """One file of a session, written as records.

    ``role`` is ``session`` (the session's own file) or ``subagent``; ``agent_id`` is the
    subagent whose file it is (``None`` for the session's own file, unless that is an orphan
    subagent's kept as a session of its own): the :attr:`cclens.model.session.Session.agent_id`
    of the session assembled from it. ``direct``: a subagent that hangs right under the
    session (one of :attr:`~cclens.model.session.Session.subagents`), not under another
    subagent. ``entries``, ``diagnostics``, ``lines`` and ``end_offset`` are what the reader
    gives :func:`~cclens.readers.claude.assemble_entries`, but that a reader may leave out of
    a tool result's structured result (``UserRecord.tool_use_result``) what the index does not
    read of it: all but ``interrupted``.
    """

    path: Path
    role: str
    agent_id: str | None
    entries: list[Entry]
    diagnostics: list[Diagnostic]
    lines: int = 0
    end_offset: int = 0
    direct: bool = True

    @classmethod
    def of(
        cls, path: Path, role: str, agent_id: str | None, entries: list[Entry], read: Read
    ) -> FileRecords:
        """The records ``entries`` written from what a reader ``read`` of the file."""
        return cls(
            path, role, agent_id, entries, list(read.diagnostics), read.lines, read.end_offset
        )


def response_record(
    identifier: str,
    model: Opt[str],
    content: list[ContentBlock],
    usage: Opt[Usage] = UNSET,
    **common: Any,
) -> AssistantRecord:
    """One model response as an assistant record: its message (``identifier``, ``model``,
    ``content``, ``usage``) and the record's own fields ``common`` (uuid, parent, time...)."""
    message = Message(
        id=identifier, role="assistant", type="message", model=model, content=content, usage=usage
    )
    return AssistantRecord(message=message, **common)


class Unsettled(Exception):
    """The records alone cannot say what the assembled session would (the caller assembles
    it)."""


__all__ = ["FileRecords", "Unsettled", "response_record"]
