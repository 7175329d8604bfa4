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


def _counted(connection: sqlite3.Connection) -> None:
    """Each session's figures counted once across sessions.

    ``counted`` lists what each session holds (a row per prompt, response and tool call, see
    :data:`cclens.index.extract.Claim`); when sessions share one (a resumed session copies
    earlier records), the first in reading order counts it and the session's figures say so.
    Sessions get prompt and response counts and 1-hour cache writes; every session is derived
    again on the next update (``EXTRACT_VERSION`` 2), from the stored lines.
    """
    _run(
        connection,
        """
        CREATE TABLE counted (
            session INTEGER NOT NULL REFERENCES sessions(id),
            kind INTEGER NOT NULL,
            key TEXT NOT NULL,
            request TEXT,
            status TEXT,
            input INTEGER NOT NULL DEFAULT 0,
            output INTEGER NOT NULL DEFAULT 0,
            cache_write_5m INTEGER NOT NULL DEFAULT 0,
            cache_write_1h INTEGER NOT NULL DEFAULT 0,
            cache_read INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX counted_by_session ON counted(session);
        CREATE INDEX counted_by_key ON counted(key);
        ALTER TABLE sessions ADD COLUMN prompts INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE sessions ADD COLUMN responses INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE sessions ADD COLUMN cache_write_1h_tokens INTEGER NOT NULL DEFAULT 0;
        UPDATE sessions SET doc_version = 0
        """,
    )


def _search_targets(connection: sqlite3.Connection) -> None:
    """Search documents that name their finest element and their text.

    ``target`` is the element id a hit opens (the item's anchor, or ``tool-<id>`` for a tool
    call's input and output), ``part`` the id of the first document of the same text (a long
    text is cut into overlapping pieces, which count as one hit), ``subagent`` whether the text
    is a subagent's. The documents are made again from the stored lines on the next update
    (``doc_version = 0``), archived sessions included, so the old tables are dropped.
    """
    connection.execute("DROP TABLE documents_text")
    _run(
        connection,
        """
        DROP TABLE documents;
        CREATE TABLE documents (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            session INTEGER NOT NULL REFERENCES sessions(id),
            file INTEGER NOT NULL REFERENCES files(id),
            project INTEGER NOT NULL REFERENCES projects(id),
            anchor TEXT NOT NULL,
            target TEXT NOT NULL,
            part INTEGER NOT NULL,
            kind TEXT NOT NULL,
            tool TEXT,
            error INTEGER NOT NULL DEFAULT 0,
            subagent INTEGER NOT NULL DEFAULT 0,
            time REAL
        );
        CREATE INDEX documents_by_file ON documents(file, anchor);
        CREATE VIRTUAL TABLE documents_text USING fts5(
            text, tokenize = 'unicode61 remove_diacritics 2'
        );
        UPDATE sessions SET doc_version = 0;
        """,
    )
    _search_segments(connection)


def _session_list(connection: sqlite3.Connection) -> None:
    """The sessions view: cost, the highest Claude Code version, and what titles
    need (the title from the session's own file, where its conversations end, the summary
    records of its file; see :mod:`cclens.index.write.titles`). ``claim_costs`` keeps each
    response's
    cost by its identity (see :mod:`cclens.index.costs`).

    The new columns are filled when sessions are derived again from their stored lines, which
    the extraction version that came with this migration asks for.
    """
    _run(
        connection,
        """
        ALTER TABLE sessions ADD COLUMN cost REAL;
        ALTER TABLE sessions ADD COLUMN unpriced INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE sessions ADD COLUMN own_title TEXT NOT NULL DEFAULT '';
        ALTER TABLE sessions ADD COLUMN own_title_source TEXT NOT NULL DEFAULT 'none';
        ALTER TABLE sessions ADD COLUMN version TEXT;
        ALTER TABLE sessions ADD COLUMN version_key TEXT;
        UPDATE sessions SET own_title = title, own_title_source = title_source;
        CREATE INDEX sessions_by_activity ON sessions(coalesce(ended, started));
        CREATE TABLE session_tips (
            uuid TEXT NOT NULL,
            session INTEGER NOT NULL REFERENCES sessions(id),
            PRIMARY KEY (uuid, session)
        ) WITHOUT ROWID;
        CREATE INDEX session_tips_by_session ON session_tips(session);
        CREATE TABLE session_summaries (
            session INTEGER NOT NULL REFERENCES sessions(id),
            line INTEGER NOT NULL,
            leaf TEXT NOT NULL,
            summary TEXT NOT NULL,
            PRIMARY KEY (session, line)
        ) WITHOUT ROWID;
        CREATE INDEX session_summaries_by_leaf ON session_summaries(leaf);
        CREATE TABLE claim_costs (
            session INTEGER NOT NULL REFERENCES sessions(id),
            key TEXT NOT NULL,
            cost REAL,
            PRIMARY KEY (session, key)
        ) WITHOUT ROWID;
        """,
    )


#: What ``counted.counts`` says of a row (migration 7, see :mod:`cclens.index.write.counted`): a
# copy
#: another row counts for, a claim that counts as it is, a row merged from several copies.
COUNTS_COPY, COUNTS_AS_IS, COUNTS_MERGED = 0, 1, 2


def _usage(connection: sqlite3.Connection) -> None:
    """Usage from the index: each claim keeps what the figures by time, model and tool need,
    and which copy counts.

    Every row of ``counted`` (migration 8) gets its moment (``time``: a prompt's, a response's
    earliest record's, a call's ``tool_use``), a response's ``model``, ``agent`` (a subagent's
    response), ``speed`` and ``inference_geo``, its cost priced with the bundled table
    (``cost``; ``price`` names the table entry, ``reason`` says why there is none) and the
    ``tools`` it called (names, one per line), the part of its cache writes its breakdown did
    not split (``cache_write_unsplit``), and a call's tool ``name`` and ``seconds`` to its
    result. ``counts`` says how a row counts (see :mod:`cclens.index.write.counted`): 1, as it is;
    0,
    a copy another row counts for; 2, a response, call or prompt several sessions hold, merged
    once for the session that counts it (not a claim of its own). A response's cost lives only
    here, so ``claim_costs`` goes. Applied after migration 8 (which made ``counted``) whatever
    the order the index met them in; every session is derived again from its stored lines.
    """
    _run(
        connection,
        """
        ALTER TABLE counted ADD COLUMN counts INTEGER NOT NULL DEFAULT 1;
        ALTER TABLE counted ADD COLUMN time REAL;
        ALTER TABLE counted ADD COLUMN model TEXT;
        ALTER TABLE counted ADD COLUMN agent TEXT;
        ALTER TABLE counted ADD COLUMN name TEXT;
        ALTER TABLE counted ADD COLUMN seconds REAL;
        ALTER TABLE counted ADD COLUMN speed TEXT;
        ALTER TABLE counted ADD COLUMN inference_geo TEXT;
        ALTER TABLE counted ADD COLUMN cost REAL;
        ALTER TABLE counted ADD COLUMN price TEXT;
        ALTER TABLE counted ADD COLUMN reason TEXT;
        ALTER TABLE counted ADD COLUMN tools TEXT;
        ALTER TABLE counted ADD COLUMN cache_write_unsplit INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX counted_by_time ON counted(time);
        DROP TABLE claim_costs;
        UPDATE sessions SET doc_version = 0
        """,
    )


#: The columns of ``rate_limits`` (migration 21) in the order the index reads and writes them.
RATE_LIMIT_COLUMNS = "agent, window_name, time, used, resets, minutes, session"


def _rate_limits(connection: sqlite3.Connection) -> None:
    """Plan limits: where each usage window of an agent's plan stood, sample by sample (see
    :mod:`cclens.figures.limits`). Keyed by agent, window and time (epoch seconds); ``used``
    is the share used (0-100), ``resets`` when the window starts again, ``minutes`` its
    length as the agent gave it, ``session`` the session the sample came with. Only a sample
    that differs from the one before it in its window is stored."""
    connection.execute(
        """
        CREATE TABLE rate_limits (
            agent TEXT NOT NULL,
            window_name TEXT NOT NULL,
            time REAL NOT NULL,
            used REAL NOT NULL,
            resets REAL,
            minutes INTEGER,
            session TEXT,
            PRIMARY KEY (agent, window_name, time)
        ) WITHOUT ROWID
        """
    )


def _unspaced(connection: sqlite3.Connection) -> None:
    """Search: each character of a script written without spaces (Chinese, Japanese, Korean,
    Thai...) is a token of its own, so any part of a run of them is found
    (:mod:`cclens.index.words`). The table and its tokenizer stay; the texts it holds
    are written again with breaks between those characters, when every session is derived
    again from its stored lines (``EXTRACT_VERSION`` 6).
    """
    connection.execute("UPDATE sessions SET doc_version = 0")


#: Indexes a first index builds after its rows rather than row by row (sorting once is faster
#: than keeping an index in order through every insert); ``name -> statement``.
BULK_INDEXES: dict[str, str] = {
    "documents_by_file": "CREATE INDEX documents_by_file ON documents(file, anchor)",
    "counted_by_key": "CREATE INDEX counted_by_key ON counted(key)",
    "counted_by_time": "CREATE INDEX counted_by_time ON counted(time)",
}


def _vectors(connection: sqlite3.Connection) -> None:
    """Semantic search: the vectors of documents (int8, one per chunk of a document's text,
    see :mod:`cclens.index.write.vectors`), dropped with their document. Empty until an update
    runs with the model installed."""
    connection.execute(
        "CREATE TABLE IF NOT EXISTS vectors ("
        "document INTEGER PRIMARY KEY, session INTEGER NOT NULL, data BLOB NOT NULL)"
    )
    connection.execute(
        "CREATE TRIGGER IF NOT EXISTS vectors_of_deleted_documents AFTER DELETE ON documents "
        "BEGIN DELETE FROM vectors WHERE document = old.id; END"
    )
    # Readers keep the vectors in memory: new ones are read by id (above the highest they
    # have), and this count tells them when some were deleted (then they read them all again).
    connection.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('vectors_deleted', '0')")
    connection.execute(
        "CREATE TRIGGER IF NOT EXISTS vectors_deleted AFTER DELETE ON vectors BEGIN "
        "UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'vectors_deleted'; END"
    )


def _session_vectors(connection: sqlite3.Connection) -> None:
    """Semantic search: one vector per session of its summary (title, compaction summaries,
    prompts; see :mod:`cclens.index.write.summaries`), with the digest of the summary it was
    computed from. Empty unless the ``semantic-summaries`` extra is installed."""
    connection.execute(
        "CREATE TABLE IF NOT EXISTS session_vectors ("
        "session INTEGER PRIMARY KEY, digest BLOB NOT NULL, data BLOB NOT NULL)"
    )
    connection.execute(
        "CREATE TRIGGER IF NOT EXISTS session_vectors_of_deleted_sessions AFTER DELETE ON "
        "sessions BEGIN DELETE FROM session_vectors WHERE session = old.id; END"
    )
    # Readers keep them in memory and read them again when this count changed (each write
    # of summary vectors adds one).
    connection.execute(
        "INSERT OR IGNORE INTO meta (key, value) VALUES ('session_vectors_written', '0')"
    )


def _agents(connection: sqlite3.Connection) -> None:
    """Sessions of every agent: ``sessions.agent`` names the agent that wrote each session
    (``claude``, ``codex``...: see :mod:`cclens.readers.agents`); every session indexed before
    is Claude Code's."""
    _run(
        connection,
        """
        ALTER TABLE sessions ADD COLUMN agent TEXT NOT NULL DEFAULT 'claude';
        CREATE INDEX sessions_by_agent ON sessions(agent);
        """,
    )


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


#: Every migration, in the order applied. Append only: numbers were handed out to lines of work
#: ahead of time, so they need not be in order (7 comes after 8, which made the table 7
#: extends); an index that lacks any of them gets it, in this order.
MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "core: projects, sessions, files and their stored bytes", _core),
    Migration(2, "search: documents and their full-text index", _search),
    Migration(3, "search: a larger buffer of terms in memory", _search_segments),
    Migration(4, "versions: a rewritten file keeps its old bytes", _versions),
    Migration(5, "search: documents name the element they are shown in", _search_targets),
    Migration(6, "sessions: cost, version, titles from other files", _session_list),
    Migration(8, "figures: what each session counts, once across sessions", _counted),
    Migration(7, "usage: when, what model, what cost of each claim, and which copy counts", _usage),
    Migration(18, "agents: the agent that wrote each session", _agents),
    Migration(21, "limits: plan usage windows, sample by sample", _rate_limits),
    Migration(19, "search: each character of a script written without spaces is a word", _unspaced),
    Migration(23, "semantic search: vectors of documents", _vectors),
    Migration(24, "semantic search: vectors of session summaries", _session_vectors),
)
#: The highest migration number this cclens knows.
LATEST = max(migration.number for migration in MIGRATIONS)


def applied(connection: sqlite3.Connection) -> int:
    """The number of the last migration applied (0 for a new, empty database)."""
    exists = connection.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'migrations'"
    ).fetchone()
    if not exists:
        return 0
    row = connection.execute("SELECT max(number) FROM migrations").fetchone()
    return int(row[0] or 0)


def _applied_numbers(connection: sqlite3.Connection) -> set[int]:
    exists = connection.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'migrations'"
    ).fetchone()
    if not exists:
        return set()
    return {int(row[0]) for row in connection.execute("SELECT number FROM migrations")}


def pending(connection: sqlite3.Connection, *, target: int = LATEST) -> list[Migration]:
    """The migrations up to ``target`` the database has not had, in order.

    Numbers are not contiguous (each line of work has its own), and an index may have had a
    later one before an earlier one existed: every known number missing from the
    ``migrations`` table is pending, not only those after the highest applied.
    """
    done = _applied_numbers(connection)
    return [m for m in MIGRATIONS if m.number not in done and m.number <= target]


def migrate(connection: sqlite3.Connection, *, target: int = LATEST) -> list[Migration]:
    """Apply the :func:`pending` migrations up to ``target``; return those applied.

    Each runs in its own transaction together with its ``migrations`` row, so a failure leaves
    the database at the previous step; under that transaction's write lock a migration another
    connection has applied meanwhile (two processes opening a new index at once) is skipped.
    """
    done: list[Migration] = []
    for migration in pending(connection, target=target):
        connection.execute("BEGIN IMMEDIATE")
        try:
            # Another process opening the same new or older file may have applied it since
            # the list was made: under the write lock, the migrations table says for sure.
            if migration.number in _applied_numbers(connection):
                connection.execute("ROLLBACK")
                continue
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
