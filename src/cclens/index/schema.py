"""The index's schema, built by numbered migrations recorded in the ``migrations`` table.

A migration is never edited once released: a change to the schema is a new migration appended
to :data:`MIGRATIONS`. Opening an index written by an older cclens applies the migrations it
lacks, in order, each in its own transaction; nothing already stored is dropped.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass

#: Written into the SQLite header (``PRAGMA application_id``): "ccln". It tells a cclens index
#: apart from any other SQLite file before a single table is read.
APPLICATION_ID = 0x63636C6E
#: The ``meta`` row that marks a cclens index (kept beside the header for tools that copy rows).
FORMAT_KEY = "format"
FORMAT_VALUE = "cclens-index"


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered step of the schema."""

    number: int
    name: str
    apply: Callable[[sqlite3.Connection], None]


def _run(connection: sqlite3.Connection, script: str) -> None:
    """Run each statement of ``script`` inside the current transaction.

    ``executescript`` would commit first, breaking the one-transaction-per-migration rule; the
    scripts here hold no semicolon inside a literal, so splitting on them is exact.
    """
    for statement in script.split(";"):
        if statement.strip():
            connection.execute(statement)


def _core(connection: sqlite3.Connection) -> None:
    """Projects, sessions, the files they were read from and those files' bytes."""
    _run(
        connection,
        """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE projects (
            id INTEGER PRIMARY KEY,
            slug TEXT NOT NULL UNIQUE,
            cwd TEXT
        );
        CREATE TABLE sessions (
            id INTEGER PRIMARY KEY,
            key TEXT NOT NULL UNIQUE,
            session_id TEXT NOT NULL,
            project INTEGER NOT NULL REFERENCES projects(id),
            path TEXT NOT NULL UNIQUE,
            title TEXT NOT NULL DEFAULT '',
            title_source TEXT NOT NULL DEFAULT 'none',
            first_prompt TEXT NOT NULL DEFAULT '',
            cwd TEXT,
            git_branch TEXT,
            started REAL,
            ended REAL,
            messages INTEGER NOT NULL DEFAULT 0,
            tool_calls INTEGER NOT NULL DEFAULT 0,
            errors INTEGER NOT NULL DEFAULT 0,
            subagents INTEGER NOT NULL DEFAULT 0,
            input_tokens INTEGER NOT NULL DEFAULT 0,
            output_tokens INTEGER NOT NULL DEFAULT 0,
            cache_read_tokens INTEGER NOT NULL DEFAULT 0,
            cache_write_tokens INTEGER NOT NULL DEFAULT 0,
            models TEXT NOT NULL DEFAULT '[]',
            versions TEXT NOT NULL DEFAULT '[]',
            malformed INTEGER NOT NULL DEFAULT 0,
            archived REAL,
            revision INTEGER NOT NULL DEFAULT 0,
            doc_version INTEGER NOT NULL DEFAULT 0,
            updated REAL NOT NULL
        );
        CREATE INDEX sessions_by_project ON sessions(project, started);
        CREATE INDEX sessions_by_session_id ON sessions(session_id);
        CREATE TABLE files (
            id INTEGER PRIMARY KEY,
            session INTEGER NOT NULL REFERENCES sessions(id),
            path TEXT NOT NULL UNIQUE,
            relative TEXT NOT NULL,
            role TEXT NOT NULL,
            position INTEGER NOT NULL,
            agent_id TEXT,
            layout TEXT,
            workflow_run TEXT,
            parent_session_id TEXT,
            meta BLOB,
            size INTEGER NOT NULL,
            mtime_ns INTEGER NOT NULL,
            offset INTEGER NOT NULL,
            lines INTEGER NOT NULL,
            head BLOB NOT NULL,
            missing REAL
        );
        CREATE INDEX files_by_session ON files(session, position);
        CREATE TABLE chunks (
            id INTEGER PRIMARY KEY,
            file INTEGER NOT NULL REFERENCES files(id),
            start INTEGER NOT NULL,
            size INTEGER NOT NULL,
            data BLOB NOT NULL
        );
        CREATE UNIQUE INDEX chunks_by_file ON chunks(file, start);
        """,
    )
    connection.execute("INSERT INTO meta(key, value) VALUES (?, ?)", (FORMAT_KEY, FORMAT_VALUE))


def _search(connection: sqlite3.Connection) -> None:
    """Full-text search over what was said and done; filled from the stored lines.

    Every session is marked for its documents to be derived again (``doc_version = 0``), so an
    index that predates search, archived sessions included, becomes searchable on the next
    update without reading a single transcript file.
    """
    _run(
        connection,
        """
        CREATE TABLE documents (
            id INTEGER PRIMARY KEY,
            session INTEGER NOT NULL REFERENCES sessions(id),
            file INTEGER NOT NULL REFERENCES files(id),
            project INTEGER NOT NULL REFERENCES projects(id),
            anchor TEXT NOT NULL,
            kind TEXT NOT NULL,
            tool TEXT,
            error INTEGER NOT NULL DEFAULT 0,
            time REAL
        );
        CREATE INDEX documents_by_file ON documents(file, anchor);
        CREATE VIRTUAL TABLE documents_text USING fts5(
            text, tokenize = 'unicode61 remove_diacritics 2'
        );
        UPDATE sessions SET doc_version = 0;
        """,
    )


#: Terms FTS5 gathers in memory before writing them out as an index segment (its default is
#: 1 MB): larger segments leave less merging to do, which makes a first index ~20% faster.
FTS_HASH_BYTES = 32 * 1024 * 1024


def _search_segments(connection: sqlite3.Connection) -> None:
    """Full-text search: a larger buffer of terms in memory, for fewer, larger segments."""
    connection.execute(
        "INSERT INTO documents_text(documents_text, rank) VALUES ('hashsize', ?)", (FTS_HASH_BYTES,)
    )


def _versions(connection: sqlite3.Connection) -> None:
    """Versions: a file changed other than by appending keeps its old bytes beside the new.

    ``files.digest`` is a hash of the bytes stored of a file (``NULL`` for files stored before
    this migration: it is worked out from the stored bytes when first needed). When a file is
    rewritten, its stored bytes move to ``version_chunks`` under a ``file_versions`` row
    numbered within its session (1 for the first replaced), and ``chunks`` holds the new ones.
    """
    _run(
        connection,
        """
        ALTER TABLE files ADD COLUMN digest TEXT;
        CREATE TABLE file_versions (
            id INTEGER PRIMARY KEY,
            session INTEGER NOT NULL REFERENCES sessions(id),
            file INTEGER NOT NULL REFERENCES files(id),
            number INTEGER NOT NULL,
            size INTEGER NOT NULL,
            lines INTEGER NOT NULL,
            digest TEXT,
            meta BLOB,
            replaced REAL NOT NULL,
            UNIQUE (session, number)
        );
        CREATE INDEX file_versions_by_file ON file_versions(file, number);
        CREATE TABLE version_chunks (
            id INTEGER PRIMARY KEY,
            version INTEGER NOT NULL REFERENCES file_versions(id),
            start INTEGER NOT NULL,
            size INTEGER NOT NULL,
            data BLOB NOT NULL
        );
        CREATE UNIQUE INDEX version_chunks_by_version ON version_chunks(version, start)
        """,
    )


#: Indexes a first index builds after its rows rather than row by row (sorting once is faster
#: than keeping an index in order through every insert); ``name -> statement``.
BULK_INDEXES: dict[str, str] = {
    "documents_by_file": "CREATE INDEX documents_by_file ON documents(file, anchor)",
}


def drop_bulk_indexes(connection: sqlite3.Connection) -> None:
    """Drop :data:`BULK_INDEXES` before loading many rows (in the caller's transaction)."""
    for name in BULK_INDEXES:
        connection.execute(f"DROP INDEX IF EXISTS {name}")


def restore_bulk_indexes(connection: sqlite3.Connection) -> None:
    """Create any of :data:`BULK_INDEXES` that is missing (after a load, or one cut short)."""
    present = {
        row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'index'")
    }
    for name, statement in BULK_INDEXES.items():
        if name not in present:
            connection.execute(statement)


_RESPONSE_COLUMNS = """
    key TEXT NOT NULL,
    message_id TEXT,
    request_id TEXT,
    uuid TEXT,
    model TEXT,
    time REAL,
    agent_id TEXT,
    input INTEGER NOT NULL,
    output INTEGER NOT NULL,
    cache_write_5m INTEGER NOT NULL,
    cache_write_1h INTEGER NOT NULL,
    cache_read INTEGER NOT NULL,
    speed TEXT,
    inference_geo TEXT,
    path TEXT NOT NULL,
    line INTEGER NOT NULL,
    tools TEXT,
    cost REAL,
    price TEXT,
    reason TEXT
"""


#: The columns :func:`cclens.index.responses.row_response` reads, in order.
RESPONSE_FIELDS = (
    "message_id, request_id, uuid, model, time, agent_id, input, output, cache_write_5m, "
    "cache_write_1h, cache_read, speed, inference_geo, path, line, tools"
)
_RESPONSE_NAMES = ", ".join(
    line.strip().split()[0] for line in _RESPONSE_COLUMNS.strip().splitlines()
)


def _usage(connection: sqlite3.Connection) -> None:
    """Usage figures from the index: each session's API responses and tool calls.

    ``usage_responses`` holds what :func:`cclens.analytics.usage.session_responses` finds in
    each session tree, priced with the bundled table. A response recorded by several sessions
    (a resumed session copies earlier records) has its rows marked ``counted = 0`` and is
    counted once, merged, in ``usage_merged`` (``place``: the row of the session's own
    response it was first met as); ``usage_counted`` is every response once, and ``place``
    orders a session's responses as the analytics list them.
    ``usage_calls`` holds each session's tool calls; a call met in several sessions is counted
    for the first. Every session is marked for its rows to be derived from the stored lines.
    """
    _run(
        connection,
        f"""
        CREATE TABLE usage_responses (
            id INTEGER PRIMARY KEY,
            session INTEGER NOT NULL REFERENCES sessions(id),
            counted INTEGER NOT NULL DEFAULT 1,
            {_RESPONSE_COLUMNS}
        );
        CREATE INDEX usage_responses_by_session ON usage_responses(session);
        CREATE INDEX usage_responses_by_key ON usage_responses(key);
        CREATE INDEX usage_responses_by_time ON usage_responses(time);
        CREATE TABLE usage_merged (
            id INTEGER PRIMARY KEY,
            session INTEGER NOT NULL REFERENCES sessions(id),
            place INTEGER NOT NULL,
            {_RESPONSE_COLUMNS}
        );
        CREATE INDEX usage_merged_by_key ON usage_merged(key);
        CREATE INDEX usage_merged_by_session ON usage_merged(session);
        CREATE INDEX usage_merged_by_time ON usage_merged(time);
        CREATE VIEW usage_counted AS
            SELECT session, id AS place, {_RESPONSE_NAMES} FROM usage_responses WHERE counted
            UNION ALL SELECT session, place, {_RESPONSE_NAMES} FROM usage_merged;
        CREATE TABLE usage_calls (
            id INTEGER PRIMARY KEY,
            session INTEGER NOT NULL REFERENCES sessions(id),
            counted INTEGER NOT NULL DEFAULT 1,
            key TEXT NOT NULL,
            name TEXT NOT NULL,
            status TEXT NOT NULL,
            started REAL,
            seconds REAL
        );
        CREATE INDEX usage_calls_by_session ON usage_calls(session);
        CREATE INDEX usage_calls_by_key ON usage_calls(key);
        ALTER TABLE sessions ADD COLUMN usage_version INTEGER NOT NULL DEFAULT 0
        """,
    )


#: Every migration, in order. Append only.
MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "core: projects, sessions, files and their stored bytes", _core),
    Migration(2, "search: documents and their full-text index", _search),
    Migration(3, "search: a larger buffer of terms in memory", _search_segments),
    Migration(4, "versions: a rewritten file keeps its old bytes", _versions),
    Migration(7, "usage: responses and tool calls of each session", _usage),
)
LATEST = MIGRATIONS[-1].number


def applied(connection: sqlite3.Connection) -> int:
    """The number of the last migration applied (0 for a new, empty database)."""
    exists = connection.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'migrations'"
    ).fetchone()
    if not exists:
        return 0
    row = connection.execute("SELECT max(number) FROM migrations").fetchone()
    return int(row[0] or 0)


def migrate(connection: sqlite3.Connection, *, target: int = LATEST) -> list[Migration]:
    """Apply the migrations after the database's own, up to ``target``; return those applied.

    Each runs in its own transaction together with its ``migrations`` row, so a failure leaves
    the database at the previous step.
    """
    done: list[Migration] = []
    current = applied(connection)
    for migration in MIGRATIONS:
        if migration.number <= current or migration.number > target:
            continue
        connection.execute("BEGIN IMMEDIATE")
        try:
            if migration.number == 1:
                connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                connection.execute(
                    "CREATE TABLE migrations ("
                    "number INTEGER PRIMARY KEY, name TEXT NOT NULL, applied REAL NOT NULL)"
                )
            migration.apply(connection)
            connection.execute(
                "INSERT INTO migrations(number, name, applied) VALUES (?, ?, ?)",
                (migration.number, migration.name, time.time()),
            )
        except BaseException:
            if connection.in_transaction:  # SQLite rolls back by itself after some errors
                connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")
        done.append(migration)
    return done
