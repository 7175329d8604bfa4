"""Write what the workers learnt into the index (the main process is the only writer)."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import msgspec

from ..extract import EXTRACT_VERSION, Claim, DocumentRow, DocumentUpdate, SessionDigest
from ..storage.compression import compress, decompress
from ..storage.versions import archive_version
from . import rate_limits, titles
from .counted import sharing, store_claims
from .plan import FileTask, SessionTask
from .worker import FileOutcome, SessionOutcome

#: A file stored in more chunks than this (a live session read a few lines at a time) has
#: them merged into one, which compresses far better and reads back faster.
MAX_CHUNKS = 32

_SESSION_COLUMNS = (
    "project, title, title_source, first_prompt, cwd, git_branch, started, ended, messages, "
    "tool_calls, errors, subagents, input_tokens, output_tokens, cache_read_tokens, "
    "cache_write_tokens, models, versions, malformed, prompts, responses, cache_write_1h_tokens, "
    "cost, unpriced, own_title, own_title_source, version, version_key, agent"
)
_SUMMARY_COUNT = _SESSION_COLUMNS.count(",") + 1
_NEW_SESSION = (
    f"INSERT INTO sessions(id, key, session_id, path, {_SESSION_COLUMNS}, archived, revision, "
    "doc_version, updated) VALUES (" + ", ".join("?" * (_SUMMARY_COUNT + 8)) + ")"
)
_NEW_FILE = (
    "INSERT INTO files(id, session, path, relative, role, position, agent_id, layout, "
    "workflow_run, parent_session_id, meta, size, mtime_ns, offset, lines, head, digest) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


@dataclass(frozen=True, slots=True)
class Written:
    """A session the update wrote: its key, and whether it is new to the index."""

    key: str
    new: bool


def _project(connection: sqlite3.Connection, slug: str, cwd: str | None) -> int:
    row = connection.execute(
        "INSERT INTO projects(slug, cwd) VALUES (?, ?) "
        "ON CONFLICT(slug) DO UPDATE SET cwd = coalesce(excluded.cwd, projects.cwd) "
        "RETURNING id",
        (slug, cwd),
    ).fetchone()
    return int(row[0])


def assign_keys(connection: sqlite3.Connection, tasks: Iterable[SessionTask]) -> None:
    """Give each new session its key, before any work is done.

    The key is the session id, or (when another file already has that id) the id with a suffix
    made from the file's path inside the folder it was found in, so the same files get the same
    keys on every machine; the full path settles what that leaves equal. Tasks are taken in path
    order, so the same files always get the same keys whichever worker finishes first.
    """
    chosen: set[str] = set()
    for task in sorted((t for t in tasks if t.session_row is None), key=lambda t: t.path):
        digest = _digest(task.inside or task.path)
        for candidate in (
            task.session_id,
            f"{task.session_id}-{digest[:8]}",
            f"{task.session_id}-{digest}",
            f"{task.session_id}-{_digest(task.path)}",
        ):
            taken = connection.execute("SELECT 1 FROM sessions WHERE key = ?", (candidate,))
            if candidate not in chosen and taken.fetchone() is None:
                task.key = candidate
                chosen.add(candidate)
                break


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()


def _file_values(
    file_id: int, session_row: int, task: FileTask, outcome: FileOutcome
) -> tuple[object, ...]:
    """A new ``files`` row (the values of :data:`_NEW_FILE`)."""
    return (
        file_id,
        session_row,
        task.path,
        task.relative,
        task.role,
        task.position,
        task.agent_id,
        task.layout,
        task.workflow_run,
        task.parent_session_id,
        outcome.meta,
        task.size,
        task.mtime_ns,
        outcome.offset,
        outcome.lines,
        outcome.head or b"",
        outcome.digest,
    )


def _file_row(
    connection: sqlite3.Connection,
    session_row: int,
    task: FileTask,
    outcome: FileOutcome,
    new_id: Callable[[], int],
    now: float,
) -> int:
    """Insert or update a file's row now; its id. A new row's id comes from ``new_id`` (the
    writer hands ids out before rows are inserted). A file rewritten since it was stored keeps
    its stored bytes as a version (see cclens.index.storage.versions) before the new ones go in."""
    if task.file_id is None:
        file_id = new_id()
        connection.execute(_NEW_FILE, _file_values(file_id, session_row, task, outcome))
        return file_id
    file_id = task.file_id
    if task.reset or outcome.rewritten:
        owner = connection.execute("SELECT session FROM files WHERE id = ?", (file_id,))
        archive_version(connection, file_id, int(owner.fetchone()[0]), now)
    connection.execute(
        "UPDATE files SET size = ?, mtime_ns = ?, offset = ?, lines = ?, "
        "head = coalesce(?, head), meta = ?, digest = ?, missing = NULL WHERE id = ?",
        (
            task.size,
            task.mtime_ns,
            outcome.offset,
            outcome.lines,
            outcome.head,
            outcome.meta,
            outcome.digest,
            file_id,
        ),
    )
    return file_id


def _store_chunk(connection: sqlite3.Connection, file_id: int, outcome: FileOutcome) -> None:
    if outcome.chunk is None:
        return
    connection.execute(
        "INSERT OR REPLACE INTO chunks(file, start, size, data) VALUES (?, ?, ?, ?)",
        (file_id, outcome.chunk_start, outcome.chunk_size, outcome.chunk),
    )
    if outcome.chunk_start == 0:
        return
    count = connection.execute("SELECT count(*) FROM chunks WHERE file = ?", (file_id,))
    if count.fetchone()[0] <= MAX_CHUNKS:
        return
    rows = connection.execute(
        "SELECT data FROM chunks WHERE file = ? ORDER BY start", (file_id,)
    ).fetchall()
    data = b"".join(decompress(row[0]) for row in rows)
    connection.execute("DELETE FROM chunks WHERE file = ?", (file_id,))
    connection.execute(
        "INSERT INTO chunks(file, start, size, data) VALUES (?, 0, ?, ?)",
        (file_id, len(data), compress(data)),
    )


def _delete_documents(
    connection: sqlite3.Connection, file_id: int, anchors: Iterable[str] | None
) -> None:
    if anchors is None:
        connection.execute(
            "DELETE FROM documents_text WHERE rowid IN (SELECT id FROM documents WHERE file = ?)",
            (file_id,),
        )
        connection.execute("DELETE FROM documents WHERE file = ?", (file_id,))
        return
    pairs = [(file_id, anchor) for anchor in anchors]
    if not pairs:
        return
    connection.executemany(
        "DELETE FROM documents_text WHERE rowid IN "
        "(SELECT id FROM documents WHERE file = ? AND anchor = ?)",
        pairs,
    )
    connection.executemany("DELETE FROM documents WHERE file = ? AND anchor = ?", pairs)


def _version_key(version: str) -> str:
    """A version that sorts as text: each number zero-padded (``2.1.9`` before ``2.1.114``)."""
    return ".".join(part.zfill(8) if part.isdigit() else part for part in version.split("."))


def latest_version(versions: list[str]) -> str | None:
    """The highest of the Claude Code versions a session was written by."""
    return max(versions, key=_version_key) if versions else None


def _summary_values(project: int, summary: SessionDigest) -> tuple[object, ...]:
    """The values of :data:`_SESSION_COLUMNS`, in order (the title is the session's own until
    :func:`cclens.index.write.titles.resolve_titles` looks at other files)."""
    version = latest_version(summary.versions)
    return (
        project,
        summary.title,
        summary.title_source,
        summary.first_prompt,
        summary.cwd,
        summary.git_branch,
        summary.started,
        summary.ended,
        summary.messages,
        summary.tool_calls,
        summary.errors,
        summary.subagents,
        summary.input_tokens,
        summary.output_tokens,
        summary.cache_read_tokens,
        summary.cache_write_tokens,
        msgspec.json.encode(summary.models).decode(),
        msgspec.json.encode(summary.versions).decode(),
        summary.malformed,
        summary.prompts,
        summary.responses,
        summary.cache_write_1h_tokens,
        summary.cost,
        summary.unpriced,
        summary.title,
        summary.title_source,
        version,
        _version_key(version) if version else None,
        summary.agent,
    )


class _Ids:
    """The next free row id of a table, taken once per batch (the main process is the only
    writer, so ids can be handed out before the rows are inserted)."""

    def __init__(self, connection: sqlite3.Connection, table: str) -> None:
        self.connection = connection
        self.table = table
        self._next: int | None = None

    def take(self) -> int:
        if self._next is None:
            # An AUTOINCREMENT table (documents) never hands an id out twice, even after its
            # last rows were deleted: search keeps facts about documents by id.
            row = self.connection.execute(
                f"SELECT max(coalesce(max(id), 0), coalesce((SELECT seq FROM sqlite_sequence "
                f"WHERE name = '{self.table}'), 0)) + 1 FROM {self.table}"
            )
            self._next = int(row.fetchone()[0])
        taken = self._next
        self._next += 1
        return taken

    def reset(self) -> None:
        self._next = None


class Writer:
    """Writes outcomes inside the caller's transaction, holding rows back until :meth:`flush`.

    New sessions, their files, stored bytes and search documents are inserted a batch at a
    time (one statement for many rows). Inserting into the full-text table between other
    writes would also make FTS5 flush its in-memory terms at every statement savepoint,
    leaving thousands of tiny segments to merge. Sessions already in the index are updated at
    once.
    """

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection
        self._documents: list[tuple[object, ...]] = []
        self._texts: list[tuple[int, str]] = []
        self._sessions: list[tuple[object, ...]] = []
        self._files: list[tuple[object, ...]] = []
        self._chunks: list[tuple[int, int, int, bytes]] = []
        self._document_ids = _Ids(connection, "documents")
        self._session_ids = _Ids(connection, "sessions")
        self._file_ids = _Ids(connection, "files")
        self._projects: dict[str, tuple[int, str | None]] = {}
        self._claims: dict[int, list[Claim]] = {}
        self._known: set[int] = set()
        #: Sessions written, and the sessions that shared claims with what they held before:
        #: their figures are settled at the end (:func:`cclens.index.write.counted.settle`).
        self.touched: set[int] = set()
        self.shared_before: set[int] = set()
        self._tips: list[titles.TipRow] = []
        self._summaries: list[titles.SummaryRow] = []
        #: Sessions written since the last flush, and leaves their summaries point (or
        #: pointed) at: their titles are looked at again when the rows are in.
        self._written: set[int] = set()
        self._leaves: set[str] = set()
        #: Keys of sessions whose title changed because of another session's file.
        self.retitled: list[str] = []

    def _project(self, slug: str, cwd: str | None) -> int:
        known = self._projects.get(slug)
        if known is None or (cwd and cwd != known[1]):
            known = (_project(self.connection, slug, cwd), cwd or (known[1] if known else None))
            self._projects[slug] = known
        return known[0]

    def _queue(self, session_row: int, project: int, file_id: int, rows: list[DocumentRow]) -> None:
        documents = self._documents
        texts = self._texts
        take = self._document_ids.take
        part = 0
        for anchor, target, kind, tool, error, subagent, moment, piece, text in rows:
            number = take()
            if piece == 0:
                part = number  # the pieces of one text follow its first
            documents.append(
                (
                    number,
                    session_row,
                    file_id,
                    project,
                    anchor,
                    target,
                    part,
                    kind,
                    tool,
                    error,
                    subagent,
                    moment,
                )
            )
            texts.append((number, text))

    def pending(self) -> int:
        """Documents held back."""
        return len(self._texts)

    def flush(self) -> None:
        """Insert the rows held back (before the caller commits)."""
        connection = self.connection
        if self._sessions:
            connection.executemany(_NEW_SESSION, self._sessions)
        if self._files:
            connection.executemany(_NEW_FILE, self._files)
        if self._chunks:
            connection.executemany(
                "INSERT INTO chunks(file, start, size, data) VALUES (?, ?, ?, ?)", self._chunks
            )
        if self._documents:
            connection.executemany(
                "INSERT INTO documents(id, session, file, project, anchor, target, part, kind, "
                "tool, error, subagent, time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                self._documents,
            )
            connection.executemany(
                "INSERT INTO documents_text(rowid, text) VALUES (?, ?)", self._texts
            )
        if self._claims:
            if self._known:
                self.shared_before |= sharing(connection, self._known) - self._known
            for session_row, claims in self._claims.items():
                store_claims(connection, session_row, claims)
            self.touched.update(self._claims)
        self._claims.clear()
        self._known.clear()
        titles.insert(connection, self._tips, self._summaries)
        self.retitled.extend(titles.resolve_titles(connection, self._written, self._leaves))
        for held in (self._sessions, self._files, self._chunks, self._documents, self._texts):
            held.clear()
        for pending in (self._tips, self._summaries, self._written, self._leaves):
            pending.clear()
        for ids in (self._document_ids, self._session_ids, self._file_ids):
            ids.reset()

    def _queue_titles(self, session_row: int, summary: SessionDigest, *, new: bool) -> None:
        """Hold back the session's tips and summaries (replacing those stored)."""
        if not new:
            self._leaves |= titles.forget(self.connection, session_row)
        self._tips.extend((uuid, session_row) for uuid in summary.tips)
        self._summaries.extend(
            (session_row, line, leaf, text) for leaf, text, line in summary.summaries
        )
        self._leaves.update(leaf for leaf, _, _ in summary.summaries)
        self._written.add(session_row)

    def _queue_documents(
        self,
        task: SessionTask,
        documents: dict[str, DocumentUpdate],
        session_row: int,
        project: int,
        file_ids: dict[str, int],
    ) -> None:
        """Hold back each file's new documents, after deleting those they replace."""
        known_before = {t.path for t in task.files if t.file_id is not None}
        for update in documents.values():
            file_id = file_ids.get(update.path)
            if file_id is None:
                continue
            if update.path in known_before:
                _delete_documents(self.connection, file_id, update.replaced)
            self._queue(session_row, project, file_id, update.rows)

    def _add_new(
        self,
        task: SessionTask,
        files: list[tuple[FileTask, FileOutcome]],
        documents: dict[str, DocumentUpdate],
        project: int,
        summary: SessionDigest,
        now: float,
    ) -> Written:
        """Hold back the rows of a session new to the index."""
        key = task.key or task.session_id
        session_row = self._session_ids.take()
        file_ids: dict[str, int] = {}
        for file_task, file_outcome in files:
            if file_task.file_id is not None:
                file_ids[file_task.path] = file_task.file_id  # stored with another session
            if file_outcome.failed or not file_task.read:
                continue
            if file_task.file_id is not None:
                file_ids[file_task.path] = _file_row(
                    self.connection,
                    session_row,
                    file_task,
                    file_outcome,
                    self._file_ids.take,
                    now,
                )
                _store_chunk(self.connection, file_ids[file_task.path], file_outcome)
                continue
            file_id = self._file_ids.take()
            file_ids[file_task.path] = file_id
            self._files.append(_file_values(file_id, session_row, file_task, file_outcome))
            if file_outcome.chunk is not None:
                self._chunks.append(
                    (file_id, file_outcome.chunk_start, file_outcome.chunk_size, file_outcome.chunk)
                )
        self._queue_documents(task, documents, session_row, project, file_ids)
        self._queue_titles(session_row, summary, new=True)
        self._claims[session_row] = summary.claims
        self._sessions.append(
            (
                session_row,
                key,
                task.session_id,
                task.path,
                *_summary_values(project, summary),
                None,
                1,
                EXTRACT_VERSION,
                now,
            )
        )
        return Written(str(key), True)

    def apply(self, task: SessionTask, outcome: SessionOutcome, now: float) -> Written | None:
        """Write one session's outcome; new rows and documents wait for :meth:`flush`."""
        connection = self.connection
        summary = outcome.digest
        if summary is None:
            return None
        files = list(zip(task.files, outcome.files, strict=True))
        main = next((pair for pair in files if pair[0].role == "session"), None)
        if main is None:
            return None
        main_task, main_outcome = main
        if task.session_row is None and main_outcome.failed:
            return None  # never read: nothing to keep yet
        project = self._project(task.project, summary.cwd)
        if outcome.limits or outcome.superseded_limits:
            # The plan's history the session's new lines tell (in the session's transaction).
            rate_limits.forget(connection, outcome.superseded_limits)
            rate_limits.record(connection, outcome.limits)
        if task.session_row is None:
            return self._add_new(task, files, outcome.documents, project, summary, now)
        session_row = task.session_row
        key = connection.execute(
            "SELECT key FROM sessions WHERE id = ?", (session_row,)
        ).fetchone()[0]
        file_ids: dict[str, int] = {}
        for file_task, file_outcome in files:
            if file_task.file_id is not None:
                file_ids[file_task.path] = file_task.file_id
            if file_outcome.failed or not file_task.read:
                continue
            written_id = _file_row(
                connection, session_row, file_task, file_outcome, self._file_ids.take, now
            )
            file_ids[file_task.path] = written_id
            _store_chunk(connection, written_id, file_outcome)
        self._queue_documents(task, outcome.documents, session_row, project, file_ids)
        # Reading the transcript now proves it is on disk: a session that was archived is back.
        keep_archived = not (main_task.read and not main_outcome.failed)
        self._queue_titles(session_row, summary, new=False)
        self._claims[session_row] = summary.claims
        self._known.add(session_row)
        connection.execute(
            f"UPDATE sessions SET ({_SESSION_COLUMNS}) = ("
            + ", ".join("?" * _SUMMARY_COUNT)
            + "), archived = CASE WHEN ? THEN archived ELSE NULL END, "
            "revision = revision + 1, doc_version = ?, updated = ? WHERE id = ?",
            (*_summary_values(project, summary), keep_archived, EXTRACT_VERSION, now, session_row),
        )
        return Written(str(key), False)


def mark_missing(
    connection: sqlite3.Connection, missing: Iterable[tuple[int, int, str]], now: float
) -> list[str]:
    """Mark files no longer on disk; archive the sessions whose transcript went. Their keys."""
    archived: list[str] = []
    for file_id, session_row, role in missing:
        connection.execute("UPDATE files SET missing = ? WHERE id = ?", (now, file_id))
        if role == "session":
            row = connection.execute(
                "UPDATE sessions SET archived = ?, revision = revision + 1 WHERE id = ? "
                "RETURNING key",
                (now, session_row),
            ).fetchone()
            if row is not None:
                archived.append(str(row[0]))
        else:
            connection.execute(
                "UPDATE sessions SET revision = revision + 1 WHERE id = ?", (session_row,)
            )
    return archived
