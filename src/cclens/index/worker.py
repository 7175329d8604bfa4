"""The work done for one session during an update, in a worker process or in-line.

A worker reads what is new in the session's files (from the offset the last update reached),
takes what was read before from the index's stored bytes, assembles the session, summarises it,
derives its search documents and compresses the new bytes. It returns plain data; only the main
process writes to the database.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from ..parse import read_file
from ..parse.read import Diagnostic, ReadResult, read_data
from .extract import DocumentUpdate, SessionDigest, digest, documents
from .plan import HEAD_BYTES, FileTask, SessionTask
from .stored import StoredFile, StoredSession, build_session, compress, file_bytes


@dataclass(slots=True)
class FileOutcome:
    """What an update learnt about one file."""

    task: FileTask
    #: Compressed bytes read this time (``None`` when nothing new), and where they start.
    chunk: bytes | None = None
    chunk_start: int = 0
    chunk_size: int = 0
    #: Bytes stored after this update, and the line number they end at.
    offset: int = 0
    lines: int = 0
    head: bytes | None = None
    meta: bytes | None = None
    #: The file could not be read now (it keeps what was stored).
    failed: bool = False


@dataclass(slots=True)
class SessionOutcome:
    """What an update learnt about one session, ready to be written."""

    task: SessionTask
    files: list[FileOutcome] = field(default_factory=list)
    digest: SessionDigest | None = None
    documents: dict[str, DocumentUpdate] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    bytes_read: int = 0


def _read_new(
    task: FileTask, outcome: FileOutcome, problems: list[Diagnostic]
) -> tuple[ReadResult | None, bytes]:
    """Read the file from where the index stopped; its new records and raw bytes."""
    path = Path(task.path)
    start, start_line = (0, 0) if task.reset else (task.stored, task.stored_lines)
    try:
        result = read_file(path, start, start_line)
        with path.open("rb") as handle:
            handle.seek(start)
            raw = handle.read(result.end_offset - start)
    except OSError as error:
        problems.append(Diagnostic(path, 0, f"cannot read: {error.strerror or error}"))
        outcome.failed = True
        return None, b""
    if len(raw) != result.end_offset - start:
        problems.append(Diagnostic(path, 0, "the file shrank while it was read; retrying later"))
        outcome.failed = True
        return None, b""
    return result, raw


def _sidecar(task: FileTask) -> bytes | None:
    """The subagent's ``.meta.json`` as written, when there is one."""
    if task.role != "subagent":
        return None
    path = Path(task.path)
    try:
        return path.with_name(path.name.removesuffix(".jsonl") + ".meta.json").read_bytes()
    except OSError:
        return None


def _merge(before: ReadResult, after: ReadResult) -> ReadResult:
    merged = ReadResult(before.path)
    merged.entries = before.entries + after.entries
    merged.diagnostics = before.diagnostics + after.diagnostics
    merged.lines = before.lines + after.lines
    merged.end_offset = after.end_offset
    merged.bytes = merged.end_offset
    return merged


class _Store:
    """Read access to what the index holds, opened only when a task needs it."""

    def __init__(self, db_path: str) -> None:
        self.db_path = db_path
        self.connection: sqlite3.Connection | None = None

    def content(self, file_id: int, size: int) -> tuple[bytes, bytes | None]:
        if self.connection is None:
            self.connection = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True)
        meta = self.connection.execute("SELECT meta FROM files WHERE id = ?", (file_id,))
        row = meta.fetchone()
        return file_bytes(self.connection, file_id)[:size], (row[0] if row else None)

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()


def _process_file(
    task: FileTask, outcome: SessionOutcome, store: _Store, rederive: bool, since: dict[str, int]
) -> StoredFile:
    result = FileOutcome(task, offset=task.stored, lines=task.stored_lines)
    outcome.files.append(result)
    new_read, raw = _read_new(task, result, outcome.diagnostics) if task.read else (None, b"")
    # A file that could not be read keeps what is stored of it.
    reset = task.reset and new_read is not None
    prefix, meta = b"", None
    if task.file_id is not None and not reset and task.stored:
        prefix, meta = store.content(task.file_id, task.stored)
    elif task.file_id is not None and not reset:
        meta = store.content(task.file_id, 0)[1]
    result.meta = meta
    if new_read is not None:
        outcome.diagnostics.extend(new_read.diagnostics)
        outcome.bytes_read += len(raw)
        base = 0 if reset else task.stored
        if raw:
            result.chunk = compress(raw)
            result.chunk_start, result.chunk_size = base, len(raw)
        result.offset = base + len(raw)
        result.lines = (0 if reset else task.stored_lines) + raw.count(b"\n")
        if base < HEAD_BYTES:
            result.head = (prefix + raw)[:HEAD_BYTES]
        result.meta = _sidecar(task) or meta
    if task.file_id is not None and not reset and not rederive:
        since[task.path] = task.stored_lines
    stored = StoredFile(
        Path(task.path),
        task.role,
        task.relative,
        task.agent_id,
        task.layout,
        task.workflow_run,
        task.parent_session_id,
        result.meta,
    )
    if task.role in ("session", "subagent"):
        before = read_data(stored.path, prefix)
        if new_read is None:
            stored.read = before
        elif reset:
            stored.read = new_read
        else:
            stored.read = _merge(before, new_read)
    return stored


def process(task: SessionTask) -> SessionOutcome:
    """Do the work for one session (the function worker processes run)."""
    outcome = SessionOutcome(task)
    stored = StoredSession(task.session_id, task.project)
    since: dict[str, int] = {}
    store = _Store(task.db_path)
    try:
        for file_task in task.files:
            stored.files.append(_process_file(file_task, outcome, store, task.rederive, since))
    finally:
        store.close()
    if not any(f.role == "session" for f in stored.files):
        return outcome
    session = build_session(stored)
    outcome.digest = digest(session)
    outcome.documents = documents(session, since)
    return outcome
