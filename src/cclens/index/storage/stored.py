"""The transcript bytes kept in the index, and sessions assembled again from them.

Every file of a session (the transcript, its subagent transcripts, workflow journals) is stored
as zstandard-compressed chunks of its raw bytes, one chunk per read, so that concatenating the
chunks gives the file back byte for byte up to where it was read. A session is always shown
from these bytes, whether its transcript still exists or Claude Code has deleted it.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from ...files import write_file
from ...model.entries import ReadResult
from ...model.session import Session
from ...readers import agents
from ...readers.claude import assemble_reads
from ...readers.claude.read import read_data
from ...readers.discovery import SourceFile
from .compression import decompress
from .versions import kept_for, list_versions, version_bytes


@dataclass(slots=True)
class StoredFile:
    """One file of a session as the index knows it: where it was, what it is, what it held."""

    path: Path
    role: str
    relative: str
    agent_id: str | None = None
    layout: str | None = None
    workflow_run: str | None = None
    parent_session_id: str | None = None
    meta: bytes | None = None
    read: ReadResult | None = None
    #: The stored bytes, between reading them from the index and decoding them.
    data: bytes | None = None
    #: Line number reached in the file (resumes an incremental read).
    lines: int = 0
    size: int = 0
    #: When the file was last seen written (seconds since the epoch).
    mtime: float = 0.0

    def source(self) -> SourceFile:
        """The file as a reader assembles it (its bytes, when they were read)."""
        return SourceFile(
            self.path,
            self.role,
            self.data or b"",
            self.agent_id,
            self.layout,
            self.workflow_run,
            self.parent_session_id,
            self.meta,
            self.mtime,
        )


@dataclass(slots=True)
class StoredSession:
    """The files of one session, ready to be assembled."""

    session_id: str
    project: str
    files: list[StoredFile] = field(default_factory=list)
    #: The agent that wrote it (see :mod:`cclens.readers.agents`).
    agent: str = "claude"


def build_session(stored: StoredSession) -> Session:
    """Assemble the session and attach its subagents, as its agent's reader would from the
    files (:func:`cclens.readers.agents.load`)."""
    if stored.agent != "claude":
        sources = [stored_file.source() for stored_file in stored.files]
        return agents.assemble(stored.agent, stored.session_id, stored.project, sources)
    reads = [
        (stored_file.source(), stored_file.read or ReadResult(stored_file.path))
        for stored_file in stored.files
        if stored_file.role in ("session", "subagent")
    ]
    return assemble_reads(stored.session_id, stored.project, reads)


def file_bytes(connection: sqlite3.Connection, file_id: int) -> bytes:
    """Every stored byte of one file, in order."""
    rows = connection.execute(
        "SELECT data FROM chunks WHERE file = ? ORDER BY start", (file_id,)
    ).fetchall()
    return b"".join(decompress(row[0]) for row in rows)


_FILE_COLUMNS = (
    "id, path, role, relative, agent_id, layout, workflow_run, parent_session_id, meta, "
    "offset, lines, mtime_ns"
)


def stored_files(
    connection: sqlite3.Connection, session_row: int
) -> list[tuple[int, StoredFile, bytes]]:
    """Each file of a session (in the order it was found) with its stored bytes."""
    found: list[tuple[int, StoredFile, bytes]] = []
    rows = connection.execute(
        f"SELECT {_FILE_COLUMNS} FROM files WHERE session = ? ORDER BY position, id",
        (session_row,),
    ).fetchall()
    for row in rows:
        file_id, path, role, relative, agent, layout, run, parent, meta, offset, lines, ns = row
        stored = StoredFile(
            Path(path),
            role,
            relative,
            agent,
            layout,
            run,
            parent,
            meta,
            lines=lines,
            size=offset,
            mtime=ns / 1e9,
        )
        found.append((file_id, stored, file_bytes(connection, file_id)))
    return found


def read_stored(connection: sqlite3.Connection, session_row: int) -> StoredSession | None:
    """The files of the session with row id ``session_row``, their stored bytes read (the
    part of loading a session that needs the database)."""
    row = connection.execute(
        "SELECT s.session_id, p.slug, s.agent FROM sessions s JOIN projects p "
        "ON p.id = s.project WHERE s.id = ?",
        (session_row,),
    ).fetchone()
    if row is None:
        return None
    stored = StoredSession(row[0], row[1], agent=row[2] or "claude")
    for _, stored_file, data in stored_files(connection, session_row):
        stored_file.data = data
        stored.files.append(stored_file)
    return stored


def build_stored(stored: StoredSession) -> Session | None:
    """The session assembled from what :func:`read_stored` read (no database needed)."""
    if stored.agent == "claude":
        for stored_file in stored.files:
            if stored_file.role in ("session", "subagent") and stored_file.data is not None:
                stored_file.read = read_data(stored_file.path, stored_file.data)
                stored_file.data = None
    if not any(f.role == "session" for f in stored.files):
        return None
    return build_session(stored)


def _safe_relative(relative: str) -> PurePosixPath:
    path = PurePosixPath(relative)
    if path.is_absolute() or not path.parts or ".." in path.parts:
        raise ValueError(f"refusing to restore to {relative!r}: not a plain relative path")
    return path


def restore_files(
    connection: sqlite3.Connection,
    session_row: int,
    out_dir: Path,
    *,
    overwrite: bool = False,
    version: int | None = None,
) -> list[Path]:
    """Write every stored file of a session under ``out_dir``, byte for byte.

    The session file, its subagent files (and their ``.meta.json`` sidecars) and workflow
    journals keep their layout relative to the session's folder. ``version``: the number of a
    version the index kept (see :mod:`cclens.index.storage.versions`); the newest when ``None``.
    Raises ``FileExistsError`` when a file would be replaced and ``overwrite`` is false;
    nothing is written then, and ``ValueError`` for a version the session does not have.
    """
    # Imported here: cclens.index.storage.versions reads chunks with this module's decompress.

    kept = {}
    if version is not None:
        newest = list_versions(connection, session_row)[-1].number
        if not 1 <= version <= newest:
            raise ValueError(f"no version {version}: this session has versions 1 to {newest}")
        kept = kept_for(connection, session_row, version)
    files = stored_files(connection, session_row)
    planned: list[tuple[Path, bytes]] = []
    for file_id, stored_file, data in files:
        meta = stored_file.meta
        older = kept.get(file_id)
        if older is not None:
            data, meta = version_bytes(connection, older.version_id), older.meta
        target = out_dir.joinpath(*_safe_relative(stored_file.relative).parts)
        planned.append((target, data))
        if meta is not None:
            name = target.name.removesuffix(".jsonl") + ".meta.json"
            planned.append((target.with_name(name), meta))
    if not overwrite:
        existing = [target for target, _ in planned if target.exists()]
        if existing:
            raise FileExistsError(f"{existing[0]} already exists")
    written: list[Path] = []
    for target, data in planned:
        target.parent.mkdir(parents=True, exist_ok=True)
        write_file(target, data)
        written.append(target)
    return written
