"""Write what the workers learnt into the index (the main process is the only writer)."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass

import msgspec

from .extract import EXTRACT_VERSION, DocumentRow
from .plan import SessionTask
from .stored import compress, decompress
from .worker import FileOutcome, SessionOutcome

#: A file stored in more chunks than this (a live session read a few lines at a time) has
#: them merged into one, which compresses far better and reads back faster.
MAX_CHUNKS = 32


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
    made from the file's path. Tasks are taken in path order, so the same files always get the
    same keys whichever worker finishes first.
    """
    chosen: set[str] = set()
    for task in sorted((t for t in tasks if t.session_row is None), key=lambda t: t.path):
        digest = hashlib.sha1(task.path.encode(), usedforsecurity=False).hexdigest()
        for candidate in (
            task.session_id,
            f"{task.session_id}-{digest[:8]}",
            f"{task.session_id}-{digest}",
        ):
            taken = connection.execute("SELECT 1 FROM sessions WHERE key = ?", (candidate,))
            if candidate not in chosen and taken.fetchone() is None:
                task.key = candidate
                chosen.add(candidate)
                break


def _file_row(
    connection: sqlite3.Connection, session_row: int, outcome: FileOutcome, now: float
) -> int:
    task = outcome.task
    if task.file_id is None:
        row = connection.execute(
            "INSERT INTO files(session, path, relative, role, position, agent_id, layout, "
            "workflow_run, parent_session_id, meta, size, mtime_ns, offset, lines, head) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (
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
            ),
        ).fetchone()
        return int(row[0])
    file_id = task.file_id
    if task.reset:
        connection.execute("DELETE FROM chunks WHERE file = ?", (file_id,))
    connection.execute(
        "UPDATE files SET size = ?, mtime_ns = ?, offset = ?, lines = ?, "
        "head = coalesce(?, head), meta = ?, missing = NULL WHERE id = ?",
        (
            task.size,
            task.mtime_ns,
            outcome.offset,
            outcome.lines,
            outcome.head,
            outcome.meta,
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


class Writer:
    """Writes outcomes inside the caller's transaction, holding search documents back until
    :meth:`flush`.

    Inserting into the full-text table between other writes makes FTS5 flush its in-memory
    terms at every statement savepoint, leaving thousands of tiny segments to merge; inserting
    a whole batch at once makes a first index much faster.
    """

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection
        self._documents: list[tuple[object, ...]] = []
        self._texts: list[tuple[int, str]] = []
        self._next_id: int | None = None
        self._projects: dict[str, tuple[int, str | None]] = {}

    def _project(self, slug: str, cwd: str | None) -> int:
        known = self._projects.get(slug)
        if known is None or (cwd and cwd != known[1]):
            known = (_project(self.connection, slug, cwd), cwd or (known[1] if known else None))
            self._projects[slug] = known
        return known[0]

    def _queue(self, session_row: int, project: int, file_id: int, rows: list[DocumentRow]) -> None:
        if self._next_id is None:
            first = self.connection.execute("SELECT coalesce(max(id), 0) + 1 FROM documents")
            self._next_id = int(first.fetchone()[0])
        for anchor, kind, tool, error, moment, text in rows:
            number = self._next_id
            self._next_id += 1
            self._documents.append(
                (number, session_row, file_id, project, anchor, kind, tool, error, moment)
            )
            self._texts.append((number, text))

    def pending(self) -> int:
        """Documents held back."""
        return len(self._texts)

    def flush(self) -> None:
        """Insert the documents held back (before the caller commits)."""
        if self._documents:
            self.connection.executemany(
                "INSERT INTO documents(id, session, file, project, anchor, kind, tool, error, "
                "time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                self._documents,
            )
            self.connection.executemany(
                "INSERT INTO documents_text(rowid, text) VALUES (?, ?)", self._texts
            )
        self._documents.clear()
        self._texts.clear()
        self._next_id = None

    def apply(self, outcome: SessionOutcome, now: float) -> Written | None:
        """Write one session's outcome; its documents wait for :meth:`flush`."""
        connection = self.connection
        task = outcome.task
        summary = outcome.digest
        main = next((f for f in outcome.files if f.task.role == "session"), None)
        if summary is None or main is None:
            return None
        if task.session_row is None and main.failed:
            return None  # never read: nothing to keep yet
        project = self._project(task.project, summary.cwd)
        new = task.session_row is None
        if new:
            key = task.key or task.session_id
            session_row = int(
                connection.execute(
                    "INSERT INTO sessions(key, session_id, project, path, updated) "
                    "VALUES (?, ?, ?, ?, ?) RETURNING id",
                    (key, task.session_id, project, task.path, now),
                ).fetchone()[0]
            )
        else:
            assert task.session_row is not None
            session_row = task.session_row
            key = connection.execute(
                "SELECT key FROM sessions WHERE id = ?", (session_row,)
            ).fetchone()[0]
        file_ids: dict[str, int] = {}
        for file_outcome in outcome.files:
            file_task = file_outcome.task
            if file_task.file_id is not None:
                file_ids[file_task.path] = file_task.file_id
            if file_outcome.failed or not file_task.read:
                continue
            written_id = _file_row(connection, session_row, file_outcome, now)
            file_ids[file_task.path] = written_id
            _store_chunk(connection, written_id, file_outcome)
        known_before = {f.task.path for f in outcome.files if f.task.file_id is not None}
        for update in outcome.documents.values():
            file_id = file_ids.get(update.path)
            if file_id is None:
                continue
            if update.path in known_before:
                _delete_documents(connection, file_id, update.replaced)
            self._queue(session_row, project, file_id, update.rows)
        # Reading the transcript now proves it is on disk: a session that was archived is back.
        keep_archived = not (main.task.read and not main.failed)
        connection.execute(
            "UPDATE sessions SET project = ?, title = ?, title_source = ?, first_prompt = ?, "
            "cwd = ?, git_branch = ?, started = ?, ended = ?, messages = ?, tool_calls = ?, "
            "errors = ?, subagents = ?, input_tokens = ?, output_tokens = ?, "
            "cache_read_tokens = ?, cache_write_tokens = ?, models = ?, versions = ?, "
            "malformed = ?, archived = CASE WHEN ? THEN archived ELSE NULL END, "
            "revision = revision + 1, doc_version = ?, updated = ? WHERE id = ?",
            (
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
                keep_archived,
                EXTRACT_VERSION,
                now,
                session_row,
            ),
        )
        return Written(str(key), new)


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
