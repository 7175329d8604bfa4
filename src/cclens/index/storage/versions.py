"""Versions of a session's files: what the index kept when a file changed other than by growing.

Claude Code only appends to a transcript, so the index reads each file from where it stopped.
A file can still be edited in place, cut short or replaced (by hand, by another tool, by a sync
that went wrong). The index never mixes the old bytes with the new, and never drops what it
had: the bytes stored of the file become a numbered version (its ``file_versions`` row and its
``version_chunks``), and the file is read again from its first byte as the newest version.
Everything derived (summary, search documents) follows the newest version; every version can
be written back byte for byte (:func:`cclens.index.storage.stored.restore_files`).

Versions are numbered within a session, in the order files were replaced: version ``k`` of a
session is what it held before the ``k``-th replacement, and the newest version (the files as
the index holds them now) is numbered one more than the versions kept.
"""

from __future__ import annotations

import hashlib
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime

from .compression import decompress


def content_digest(data: bytes | memoryview) -> str:
    """The hash that identifies the bytes stored of a file (BLAKE2b, 128 bits, hex)."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def archive_version(
    connection: sqlite3.Connection, file_id: int, session_row: int, now: float
) -> int | None:
    """Keep the bytes stored of ``file_id`` as a version of its session; its number.

    The file's chunks move, as they are, to the version (``None`` when nothing was stored).
    Run inside the writer's transaction, just before the file's new bytes are stored.
    """
    row = connection.execute(
        "SELECT offset, lines, digest, meta FROM files WHERE id = ?", (file_id,)
    ).fetchone()
    if row is None or not row[0]:
        return None
    size, lines, digest, meta = row
    if digest is None:
        digest = content_digest(_chunk_bytes(connection, "chunks", "file", file_id))
    number = connection.execute(
        "SELECT coalesce(max(number), 0) + 1 FROM file_versions WHERE session = ?",
        (session_row,),
    ).fetchone()[0]
    version = connection.execute(
        "INSERT INTO file_versions(session, file, number, size, lines, digest, meta, replaced) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (session_row, file_id, number, size, lines, digest, meta, now),
    ).fetchone()[0]
    connection.execute(
        "INSERT INTO version_chunks(version, start, size, data) "
        "SELECT ?, start, size, data FROM chunks WHERE file = ? ORDER BY start",
        (version, file_id),
    )
    connection.execute("DELETE FROM chunks WHERE file = ?", (file_id,))
    return int(number)


def _chunk_bytes(connection: sqlite3.Connection, table: str, column: str, owner: int) -> bytes:
    rows = connection.execute(
        f"SELECT data FROM {table} WHERE {column} = ? ORDER BY start", (owner,)
    ).fetchall()
    return b"".join(decompress(row[0]) for row in rows)


def version_bytes(connection: sqlite3.Connection, version_id: int) -> bytes:
    """Every byte of one kept version of a file, in order."""
    return _chunk_bytes(connection, "version_chunks", "version", version_id)


@dataclass(frozen=True, slots=True)
class SessionVersion:
    """One version of a session: its number, and when it stopped being the newest."""

    number: int
    #: ``None`` for the newest version (what the index holds now).
    replaced: datetime | None
    #: The files that differ from the next version (their paths as stored).
    changed: tuple[str, ...]
    #: Bytes of the session's files in this version, and lines of its transcript.
    size: int
    lines: int

    @property
    def newest(self) -> bool:
        return self.replaced is None


@dataclass(frozen=True, slots=True)
class _Kept:
    version_id: int
    path: str
    role: str
    size: int
    lines: int
    meta: bytes | None


def kept_for(connection: sqlite3.Connection, session_row: int, number: int) -> dict[int, _Kept]:
    """For version ``number`` of a session: each file whose bytes then were a kept version
    (``file id -> that version``); the other files are as stored now."""
    rows = connection.execute(
        "SELECT v.file, v.id, f.path, f.role, v.size, v.lines, v.meta FROM file_versions v "
        "JOIN files f ON f.id = v.file WHERE v.session = ? AND v.number >= ? "
        "ORDER BY v.number DESC",
        (session_row, number),
    ).fetchall()
    # Descending, so each file ends with its earliest version at or after ``number``.
    return {row[0]: _Kept(row[1], row[2], row[3], row[4], row[5], row[6]) for row in rows}


def list_versions(connection: sqlite3.Connection, session_row: int) -> list[SessionVersion]:
    """Every version of a session, the oldest first; the last is the newest (one at least)."""
    kept = connection.execute(
        "SELECT v.number, v.replaced, f.path FROM file_versions v JOIN files f ON f.id = v.file "
        "WHERE v.session = ? ORDER BY v.number",
        (session_row,),
    ).fetchall()
    current = connection.execute(
        "SELECT id, offset, lines, role FROM files WHERE session = ?", (session_row,)
    ).fetchall()
    found: list[SessionVersion] = []
    for number, replaced, path in kept:
        found.append(_described(connection, session_row, number, current, _time(replaced), (path,)))
    newest = len(kept) + 1
    found.append(_described(connection, session_row, newest, current, None, ()))
    return found


def _time(value: float) -> datetime:
    return datetime.fromtimestamp(value, UTC)


def _described(
    connection: sqlite3.Connection,
    session_row: int,
    number: int,
    current: list[tuple[int, int, int, str]],
    replaced: datetime | None,
    changed: tuple[str, ...],
) -> SessionVersion:
    kept = kept_for(connection, session_row, number)
    size = lines = 0
    for file_id, offset, file_lines, role in current:
        version = kept.get(file_id)
        size += version.size if version is not None else offset
        if role == "session":
            lines = version.lines if version is not None else file_lines
    return SessionVersion(number, replaced, changed, size, lines)
