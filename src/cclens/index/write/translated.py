"""Another agent's session summarised straight from its reader's records.

A reader of an agent other than Claude Code writes each of its files as the session model's
records (:class:`cclens.readers.records.FileRecords`), and assembles a session from them. What
the index keeps of a session (its summary and search documents: :func:`cclens.index.extract
.digest` and :func:`~cclens.index.extract.documents` of the assembled session) is derived here
from the records themselves, as Claude Code's are from its lines: each record seen through the
index's view (:func:`cclens.index.write.view.from_record`) and derived by
:func:`cclens.index.write.derive.derive`, without building the assembled session. The result is
the same (tested on every real and synthetic file of each agent); what the records alone cannot
settle raises :class:`~cclens.index.write.derive.NeedsAssembly`, and the caller assembles.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...readers.records import FileRecords
from ..extract import DocumentUpdate, SessionDigest
from .derive import ViewFile, derive
from .view import ViewRead, from_record


def view_file(records: FileRecords) -> ViewFile:
    """One file's records in the index's view."""
    read = ViewRead(records.path, lines=records.lines, end_offset=records.end_offset)
    read.diagnostics = records.diagnostics
    full: dict[int, object] = {}
    entries = read.entries
    for entry in records.entries:
        view = from_record(entry.record)
        full[id(view)] = entry.record
        entries.append((entry.line, view, entry.offset, entry.offset + entry.length))
    return ViewFile(
        records.path,
        records.role,
        read,
        b"",
        records=full,
        agent_id=records.agent_id,
        direct=records.direct,
    )


def derive_records(
    agent: str, files: Sequence[FileRecords], since: Mapping[str, int] | None = None
) -> tuple[SessionDigest, dict[str, DocumentUpdate]]:
    """The summary and documents of a session of ``agent`` from its files' records (the
    session's own file first, the others in the order of its assembled sessions). ``since``
    as in :func:`cclens.index.extract.documents`. Raises
    :class:`~cclens.index.write.derive.NeedsAssembly` when only the assembled session can
    say."""
    found, updates = derive([view_file(records) for records in files], since)
    found.agent = agent
    return found, updates


__all__ = ["derive_records", "view_file"]
