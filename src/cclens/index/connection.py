"""Open the index file: check that it is ours, bring its schema up to date, set it up for speed."""

from __future__ import annotations

import sqlite3
import time
from contextlib import suppress
from pathlib import Path

from .schema import (
    APPLICATION_ID,
    FORMAT_KEY,
    FORMAT_VALUE,
    LATEST,
    MIGRATIONS,
    applied_numbers,
    migrate,
    pending,
)

REBUILD_HINT = "run `cclens index --rebuild` to move it aside and build a new index"
#: The page size of a new index file (SQLite's default is 4 KB).
PAGE_SIZE = 16384


class IndexUnusable(Exception):
    """The index file cannot be used: damaged, not a cclens index, or from a newer cclens."""

    def __init__(self, path: Path, reason: str, hint: str = REBUILD_HINT) -> None:
        super().__init__(f"{path}: {reason}; {hint}")
        self.path = path
        self.reason = reason
        self.hint = hint


def _configure(connection: sqlite3.Connection, *, writer: bool) -> None:
    # WAL lets the web app read while the indexer writes; NORMAL is durable enough in WAL mode
    # (a power cut can lose the last transactions, never corrupt) and much faster than FULL.
    if writer:
        # A large update running alone uses a rollback journal (see cclens.index.ingest) and
        # holds the lock this needs; the connection then works in that mode, and the update
        # puts WAL mode back when it ends.
        with suppress(sqlite3.OperationalError):
            connection.execute("PRAGMA journal_mode = WAL")
    connection.execute("PRAGMA synchronous = NORMAL")
    connection.execute("PRAGMA temp_store = MEMORY")
    connection.execute("PRAGMA cache_size = -32768")


def _check(connection: sqlite3.Connection, path: Path) -> int:
    """The migration the file is at; raise :class:`IndexUnusable` when it is not an index."""
    try:
        application_id = int(connection.execute("PRAGMA application_id").fetchone()[0])
        tables = {
            row[0]
            for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
    except sqlite3.DatabaseError as error:
        raise IndexUnusable(path, f"not a readable SQLite database ({error})") from error
    if application_id == 0 and not tables:
        return 0  # a new, empty file
    marked = application_id == APPLICATION_ID
    if not marked and "meta" in tables:
        row = connection.execute("SELECT value FROM meta WHERE key = ?", (FORMAT_KEY,)).fetchone()
        marked = row is not None and row[0] == FORMAT_VALUE
    if not marked:
        raise IndexUnusable(path, "a SQLite database, but not a cclens index")
    try:
        numbers = applied_numbers(connection)
        connection.execute("SELECT count(*) FROM sessions").fetchone()
    except sqlite3.DatabaseError as error:
        raise IndexUnusable(path, f"the index is damaged ({error})") from error
    version = max(numbers) if numbers else 0
    if numbers - {migration.number for migration in MIGRATIONS}:
        raise IndexUnusable(
            path,
            f"written by a newer cclens (schema {version}, this one knows up to {LATEST})",
            "upgrade cclens, or point --db at another file",
        )
    return version


def connect(path: Path, *, writer: bool = True) -> sqlite3.Connection:
    """A connection to the index at ``path``, created and migrated when needed.

    Readers (``writer=False``) never create the file or change its schema. Raises
    :class:`IndexUnusable` for a damaged or foreign file.
    """
    path = Path(path)
    if writer:
        path.parent.mkdir(parents=True, exist_ok=True)
    elif not path.exists():
        raise IndexUnusable(path, "no index here yet", "run `cclens index` first")
    try:
        connection = sqlite3.connect(
            path, isolation_level=None, timeout=30.0, check_same_thread=False
        )
    except sqlite3.Error as error:
        raise IndexUnusable(path, f"cannot open ({error})") from error
    try:
        version = _check(connection, path)
        if version == 0 and writer:
            # A new file: 16 KB pages hold the stored transcripts and the full-text index in
            # a quarter of the pages (the size can only be chosen before the first table).
            connection.execute(f"PRAGMA page_size = {PAGE_SIZE}")
        if pending(connection):
            if not writer:
                raise IndexUnusable(path, "needs migrating", "run `cclens index` to update it")
            migrate(connection)
        _configure(connection, writer=writer)
    except sqlite3.DatabaseError as error:
        connection.close()
        raise IndexUnusable(path, f"the index is damaged ({error})") from error
    except BaseException:
        connection.close()
        raise
    return connection


def move_aside(path: Path) -> Path | None:
    """Rename the index file (and its ``-wal``/``-shm`` companions) out of the way.

    Nothing is deleted: the file is kept as ``<name>.<timestamp>.old`` beside the original.
    Returns the new name, or ``None`` when there was no file.
    """
    path = Path(path)
    if not path.exists():
        return None
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.{stamp}.old")
    counter = 1
    while target.exists():
        counter += 1
        target = path.with_name(f"{path.name}.{stamp}-{counter}.old")
    path.rename(target)
    for suffix in ("-wal", "-shm"):
        companion = path.with_name(path.name + suffix)
        if companion.exists():
            companion.rename(target.with_name(target.name + suffix))
    return target
