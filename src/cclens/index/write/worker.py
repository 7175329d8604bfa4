"""The work done for one session during an update, in a worker process or in-line.

A worker reads what is new in the session's files (from the offset the last update reached),
takes what was read before from the index's stored bytes, derives the session's summary and
search documents from the index's view of the records (:mod:`.view`, :mod:`.derive`), and
compresses the new bytes. It returns plain data; only the main process writes to the database.
"""

from __future__ import annotations

import os
import pickle
import sqlite3
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, cast

from ...figures.limits import LimitSample, codex_file_samples
from ...files import read_regular
from ...model.entries import Diagnostic, ReadResult
from ...readers import agents
from ...readers.claude._gc import paused
from ...readers.claude.assemble import failed_session
from ...readers.claude.isolate import failure
from ...readers.claude.read import read_data
from ...readers.codex import CodexRead, rate_limit_events, whole_read
from ...readers.discovery import SourceFile
from ..extract import DocumentUpdate, SessionDigest, digest, documents
from ..storage.compression import compress
from ..storage.stored import StoredFile, StoredSession, build_session, file_bytes
from ..storage.versions import content_digest
from .derive import NeedsAssembly, ViewFile, derive
from .plan import HEAD_BYTES, FileTask, SessionTask
from .translated import derive_records
from .view import ViewRead, read_view


@dataclass(slots=True)
class FileOutcome:
    """What an update learnt about one file (of the task's files, in the same place)."""

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
    #: The hash of the bytes stored after this update (see cclens.index.storage.versions).
    digest: str | None = None
    #: The bytes stored before no longer start the file: they are kept as a version, and the
    #: file is stored again from its first byte.
    rewritten: bool = False


@dataclass(slots=True)
class SessionOutcome:
    """What an update learnt about one session, ready to be written.

    It does not carry its task back (the main process has it): ``files`` are in the order of
    the task's files.
    """

    files: list[FileOutcome] = field(default_factory=list)
    digest: SessionDigest | None = None
    documents: dict[str, DocumentUpdate] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    bytes_read: int = 0
    #: Plan-limit samples of the new lines (:mod:`cclens.figures.limits`), and samples stored
    #: before that a new line supersedes (removed first).
    limits: list[LimitSample] = field(default_factory=list)
    superseded_limits: list[LimitSample] = field(default_factory=list)


@dataclass(slots=True)
class _Bytes:
    """A file's bytes for this update: those stored before, and those read now."""

    path: Path
    role: str
    prefix: bytes
    #: ``None``: nothing was read now.
    new: bytes | None
    new_start: int = 0
    new_line: int = 0
    #: What another agent's reader read of the file's every byte (when it read them all now).
    read: Any = None


def _read_file(task: FileTask, outcome: FileOutcome, problems: list[Diagnostic]) -> bytes | None:
    """Every byte of the file now (the part stored before is checked against its hash)."""
    path = Path(task.path)
    try:
        return read_regular(path)
    except OSError as error:
        problems.append(Diagnostic(path, 0, f"cannot read: {error.strerror or error}"))
        outcome.failed = True
        return None


def _still_starts_with_stored(task: FileTask, data: bytes, prefix: bytes) -> bool:
    """Whether the file still begins with the bytes stored of it (an append, not an edit)."""
    if len(data) < task.stored:
        return False
    expected = task.digest or content_digest(prefix)
    return content_digest(memoryview(data)[: task.stored]) == expected


def _sidecar(task: FileTask) -> bytes | None:
    """The subagent's ``.meta.json`` as written, when there is one."""
    if task.role != "subagent":
        return None
    path = Path(task.path)
    try:
        return read_regular(path.with_name(path.name.removesuffix(".jsonl") + ".meta.json"))
    except OSError:
        return None


def _joined(before: ViewRead, after: ViewRead, shift: int) -> ViewRead:
    """``before`` then ``after`` (read separately, as the index read them), as one read of
    their bytes joined (``after``'s positions move by ``shift``, the length of the first)."""
    joined = ViewRead(before.path)
    joined.entries = before.entries + [
        (line, record, start + shift, end + shift) for line, record, start, end in after.entries
    ]
    joined.diagnostics = before.diagnostics + after.diagnostics
    joined.lines = before.lines + after.lines
    joined.end_offset = after.end_offset
    return joined


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


class _Scan(Protocol):
    """What reading new bytes says: problems, where the complete lines end, how many newlines
    come before that."""

    @property
    def diagnostics(self) -> list[Diagnostic]: ...
    @property
    def end_offset(self) -> int: ...
    @property
    def newlines(self) -> int: ...


@dataclass(slots=True)
class _AgentScan:
    """:class:`_Scan` of another agent's reader (its lines read in full)."""

    diagnostics: list[Diagnostic]
    end_offset: int
    newlines: int
    read: Any = None


def _agent_scanner(agent: str) -> Callable[[Path, bytes, int, int], _Scan]:
    reader = agents.reader(agent)

    def scan(path: Path, data: bytes, base: int, start_line: int) -> _Scan:
        read = reader.read(path, data, base, start_line)
        newlines = data.count(b"\n", 0, read.end_offset - base)
        return _AgentScan(list(read.diagnostics), read.end_offset, newlines, read)

    return scan


def _process_file(
    task: FileTask,
    outcome: SessionOutcome,
    store: _Store,
    rederive: bool,
    since: dict[str, int],
    scan: Callable[[Path, bytes, int, int], _Scan] | None = None,
) -> tuple[ViewFile | None, _Bytes] | None:
    """Read one file's new bytes and record what to store; its view (Claude Code's files; an
    agent whose lines ``scan`` reads has none), for sessions' files."""
    result = FileOutcome(offset=task.stored, lines=task.stored_lines, digest=task.digest)
    outcome.files.append(result)
    data = _read_file(task, result, outcome.diagnostics) if task.read else None
    # A file that could not be read keeps what is stored of it.
    reset = task.reset and data is not None
    prefix, meta = b"", None
    if task.file_id is not None and not reset and task.stored:
        prefix, meta = store.content(task.file_id, task.stored)
    elif task.file_id is not None and not reset:
        meta = store.content(task.file_id, 0)[1]
    edited = data is not None and not reset and task.stored > 0
    if edited and not _still_starts_with_stored(task, data or b"", prefix):
        # Edited in place (the same length, or longer): never the old start with the new end.
        # The stored bytes become a version; the file is read again from the start.
        reset = result.rewritten = True
        prefix = b""
    result.meta = meta
    stored = 0 if reset else task.stored
    # Every byte on disk is stored, a half-written last line included (a crash or a full disk
    # leaves one, and Claude Code may delete the file before it is completed). Records are
    # read from the start of that line: when it is completed, it is read whole.
    base = prefix.rfind(b"\n") + 1
    prefix = prefix[:base]
    new_read: ViewRead | None = None
    new = raw = b""
    if data is not None:
        new = data[base:] if base else data
        start_line = 0 if reset else task.stored_lines
        if scan is not None:
            scanned = scan(Path(task.path), new, base, start_line)
        else:
            scanned = new_read = read_view(Path(task.path), new, base, start_line)
        raw = data[stored:]
        outcome.diagnostics.extend(scanned.diagnostics)
        outcome.bytes_read += len(raw)
        if raw:
            result.chunk = compress(raw)
            result.chunk_start, result.chunk_size = stored, len(raw)
        result.offset = len(data)
        result.lines = start_line + scanned.newlines
        result.digest = content_digest(data)
        if stored < HEAD_BYTES:
            result.head = data[:HEAD_BYTES]
        result.meta = _sidecar(task) or meta
    if task.file_id is not None and not reset and not rederive:
        since[task.path] = task.stored_lines
    if task.role not in ("session", "subagent"):
        return None
    path = Path(task.path)
    if scan is not None:
        kept_bytes = (prefix + new) if data is not None else prefix
        # Read from the first byte now: the reader need not read those bytes again.
        whole = getattr(scanned, "read", None) if data is not None and base == 0 else None
        return None, _Bytes(path, task.role, kept_bytes, None, read=whole)
    if new_read is None:
        view = ViewFile(path, task.role, read_view(path, prefix), prefix)
        kept = _Bytes(path, task.role, prefix, None)
    elif reset:
        view = ViewFile(path, task.role, new_read, new)
        kept = _Bytes(path, task.role, b"", new)
    else:
        before = read_view(path, prefix)
        view = ViewFile(path, task.role, _joined(before, new_read, base), prefix + new)
        kept = _Bytes(path, task.role, prefix, new, base, task.stored_lines)
    return view, kept


def _full_read(kept: _Bytes) -> ReadResult:
    """The file's records in the full model, read exactly as the index read them."""
    before = read_data(kept.path, kept.prefix)
    if kept.new is None:
        return before
    after = read_data(kept.path, kept.new, kept.new_start, kept.new_line)
    if not kept.prefix and not kept.new_start:
        return after
    merged = ReadResult(kept.path)
    merged.entries = before.entries + after.entries
    merged.diagnostics = before.diagnostics + after.diagnostics
    merged.lines = before.lines + after.lines
    merged.end_offset = after.end_offset
    merged.bytes = merged.end_offset
    return merged


def _assembled(
    task: SessionTask, tasks: list[FileTask], kept: list[_Bytes], since: dict[str, int]
) -> tuple[SessionDigest, dict[str, DocumentUpdate]]:
    """The summary and documents of the assembled session, for what the view cannot settle."""
    stored = StoredSession(task.session_id, task.project)
    for file_task, file_bytes_ in zip(tasks, kept, strict=True):
        stored_file = StoredFile(
            file_bytes_.path,
            file_task.role,
            file_task.relative,
            file_task.agent_id,
            file_task.layout,
            file_task.workflow_run,
            file_task.parent_session_id,
        )
        stored_file.read = _full_read(file_bytes_)
        stored.files.append(stored_file)
    session = build_session(stored)
    return digest(session), documents(session, since)


def _process_agent(task: SessionTask) -> SessionOutcome:
    """The work for a session of an agent other than Claude Code: its files' new bytes read by
    the agent's reader; its digest and documents derived from the records the reader writes
    of every byte stored (:mod:`.translated`), or, for an agent whose records the index does
    not derive and what the records cannot settle, the pure functions of
    :mod:`cclens.index.extract` over the session assembled from them."""
    outcome = SessionOutcome()
    since: dict[str, int] = {}
    store = _Store(task.db_path)
    scan = _agent_scanner(task.agent)
    sources: list[SourceFile] = []
    try:
        for file_task in task.files:
            found = _process_file(file_task, outcome, store, task.rederive, since, scan)
            if found is None:
                continue
            kept = found[1]
            sources.append(
                SourceFile(
                    kept.path,
                    file_task.role,
                    kept.prefix,
                    file_task.agent_id,
                    file_task.layout,
                    file_task.workflow_run,
                    file_task.parent_session_id,
                    mtime=file_task.mtime_ns / 1e9,
                    read=kept.read,
                )
            )
    finally:
        store.close()
    sources.sort(key=lambda source: source.role != "session")
    if not sources or sources[0].role != "session":
        return outcome
    path = Path(task.path)
    if task.agent == "codex":
        _codex_limits(task, sources, since, outcome)
    reader = agents.reader(task.agent)
    if reader.records is not None:
        try:
            files = reader.records(task.session_id, task.project, sources)
            outcome.digest, outcome.documents = derive_records(task.agent, files, since)
            return outcome
        except Exception:  # what the records cannot settle (NeedsAssembly, or a defect met
            pass  # on records nobody foresaw) is settled by the assembled session, below
    try:
        session = agents.assemble(task.agent, task.session_id, task.project, sources)
        outcome.digest, outcome.documents = digest(session), documents(session, since)
    except Exception as error:  # the bytes are still archived: only what is derived is lost
        outcome.diagnostics.append(failure(path, error))
        empty = failed_session(
            path, [], session_id=task.session_id, project=task.project, agent=task.agent
        )
        outcome.digest, outcome.documents = digest(empty), {}
    return outcome


def _codex_limits(
    task: SessionTask, sources: list[SourceFile], since: dict[str, int], outcome: SessionOutcome
) -> None:
    """The plan-limit samples of the new lines of a Codex session's files (every line's when
    the session is derived again), and those stored before that a new line supersedes."""
    for source in sources:
        found = whole_read(source)
        if found is None:
            # Read whole once here; the reader assembles the session from this read.
            source.read = agents.CODEX.read(source.path, source.data, 0, 0)
            found = cast(CodexRead, source.read)
        events = list(rate_limit_events(found.entries))
        now = codex_file_samples(events, session=task.session_id)
        limit = since.get(str(source.path))
        if limit is None:
            outcome.limits.extend(sample for _, sample in now)
            continue
        outcome.limits.extend(sample for line, sample in now if line > limit)
        kept = {(line, sample.window) for line, sample in now}
        before = codex_file_samples(
            [event for event in events if event[0] <= limit], session=task.session_id
        )
        outcome.superseded_limits.extend(
            sample for line, sample in before if (line, sample.window) not in kept
        )


def process(task: SessionTask) -> SessionOutcome:
    """Do the work for one session (the function worker processes run)."""
    if task.agent != "claude":
        # Another agent's reader builds its lines, their records and their view: millions of
        # objects in no cycle, which the cycle collector would walk again and again.
        with paused():
            return _process_agent(task)
    outcome = SessionOutcome()
    since: dict[str, int] = {}
    store = _Store(task.db_path)
    read: list[tuple[FileTask, ViewFile, _Bytes]] = []
    try:
        for file_task in task.files:
            found = _process_file(file_task, outcome, store, task.rederive, since)
            if found is not None and found[0] is not None:
                read.append((file_task, found[0], found[1]))
    finally:
        store.close()
    # The transcript first, then its subagents in the order they were found.
    read.sort(key=lambda entry: entry[0].role != "session")
    if not read or read[0][0].role != "session":
        return outcome
    try:
        outcome.digest, outcome.documents = _derived(task, read, since)
    except Exception as error:  # the bytes are still archived: only what is derived is lost
        path = Path(task.path)
        outcome.diagnostics.append(failure(path, error))
        empty = failed_session(path, [], session_id=task.session_id, project=task.project)
        outcome.digest, outcome.documents = digest(empty), {}
    return outcome


def _derived(
    task: SessionTask, read: list[tuple[FileTask, ViewFile, _Bytes]], since: dict[str, int]
) -> tuple[SessionDigest, dict[str, DocumentUpdate]]:
    try:
        return derive([view for _, view, _ in read], since)
    except NeedsAssembly:
        tasks = [file_task for file_task, _, _ in read]
        kept = [file_bytes_ for _, _, file_bytes_ in read]
        return _assembled(task, tasks, kept, since)


def failed(task: SessionTask, error: BaseException) -> SessionOutcome:
    """The outcome of a session whose work raised: nothing learnt, and why."""
    outcome = SessionOutcome()
    reason = f"could not be indexed ({type(error).__name__}: {error})"
    outcome.diagnostics.append(Diagnostic(Path(task.path), 0, reason))
    return outcome


def process_all_into(tasks: list[SessionTask], folder: str) -> str:
    """:func:`process_all` in a worker process, its outcomes pickled into a new file in
    ``folder``: the file's path (see :func:`read_outcomes`).

    What goes back through the pool's pipe is then a few hundred bytes, written at once. An
    answer of megabytes is written in pieces, and a worker killed between two (``kill -9``,
    the out-of-memory killer) left half of it in the pipe: the pool's reader waited for the
    rest forever, and the update with it."""
    outcomes = process_all(tasks)
    handle, name = tempfile.mkstemp(dir=folder, suffix=".outcomes")
    with os.fdopen(handle, "wb") as file:
        pickle.dump(outcomes, file, protocol=pickle.HIGHEST_PROTOCOL)
    return name


def read_outcomes(name: str) -> list[SessionOutcome]:
    """The outcomes :func:`process_all_into` wrote to ``name`` (the file is removed)."""
    path = Path(name)
    try:
        with path.open("rb") as file:
            outcomes: list[SessionOutcome] = pickle.load(file)
    finally:
        path.unlink(missing_ok=True)
    return outcomes


def process_all(tasks: list[SessionTask]) -> list[SessionOutcome]:
    """Do the work for several sessions (one round trip to a worker process for many small ones)."""
    outcomes = []
    for task in tasks:
        try:
            outcomes.append(process(task))
        except Exception as error:  # one bad session must not stop the rest
            outcomes.append(failed(task, error))
    return outcomes
