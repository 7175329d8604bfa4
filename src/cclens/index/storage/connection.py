"""Open the index file: check that it is ours, bring its schema up to date, set it up for speed;
and say in one line what went wrong when SQLite fails (damage, a read-only disk, a full one).
"""

from __future__ import annotations

import os
import sqlite3
import time
from contextlib import suppress
from pathlib import Path
from urllib.parse import quote

from .schema import APPLICATION_ID, FORMAT_KEY, FORMAT_VALUE, LATEST, applied, migrate, pending

REBUILD_HINT = "run `cclens index --rebuild` to move it aside and build a new index"
#: The page size of a new index file (SQLite's default is 4 KB).
PAGE_SIZE = 16384


class IndexUnusable(Exception):
    """The index file cannot be used (now): damaged, not a cclens index, from a newer cclens,
    on a read-only or full disk. The message is one line: what failed, and what to do."""

    def __init__(self, path: Path, reason: str, hint: str = REBUILD_HINT) -> None:
        super().__init__(f"{path}: {reason}; {hint}")
        self.path = path
        self.reason = reason
        self.hint = hint

    @property
    def damaged(self) -> bool:
        """Whether the file itself is damaged (the only case where rebuilding is the way out)."""
        return self.hint == REBUILD_HINT


class IndexReadOnly(IndexUnusable):
    """The index can be read but not written: a read-only file, folder or file system."""


READ_ONLY_HINT = (
    "cclens can read it but not update it: make it writable, or point --db at a writable copy"
)


def _primary(error: sqlite3.Error) -> int | None:
    code = getattr(error, "sqlite_errorcode", None)
    return None if code is None else int(code) & 0xFF


#: SQLite's result codes that say something about the file or the disk, not about a statement:
#: what :func:`problem` turns into a line for the person. Others (a statement interrupted on
#: purpose, a programming error) go up as they are.
_ABOUT_THE_FILE = frozenset(
    {
        sqlite3.SQLITE_CORRUPT,
        sqlite3.SQLITE_NOTADB,
        sqlite3.SQLITE_FULL,
        sqlite3.SQLITE_READONLY,
        sqlite3.SQLITE_IOERR,
        sqlite3.SQLITE_CANTOPEN,
        sqlite3.SQLITE_BUSY,
        sqlite3.SQLITE_LOCKED,
        sqlite3.SQLITE_NOMEM,
        sqlite3.SQLITE_PERM,
        sqlite3.SQLITE_NOLFS,
    }
)


def about_the_file(error: sqlite3.Error) -> bool:
    """Whether ``error`` is about the index file or its disk (see :func:`problem`)."""
    return _primary(error) in _ABOUT_THE_FILE


def is_damaged(path: Path) -> bool:
    """Whether SQLite's own check finds the file damaged (``PRAGMA quick_check``; a few seconds
    per GB, so only run once something already failed)."""
    try:
        connection = sqlite3.connect(_read_only_uri(path), uri=True)
    except sqlite3.Error:
        return False
    try:
        rows = connection.execute("PRAGMA quick_check(1)").fetchall()
    except sqlite3.DatabaseError as error:
        return _primary(error) in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)
    finally:
        connection.close()
    return rows != [("ok",)]


def problem(path: Path, error: sqlite3.Error) -> IndexUnusable:
    """What ``error`` (raised while using the index at ``path``) means for the person, in one
    line; ``--rebuild`` is advised only when the file is damaged."""
    code = _primary(error)
    if code in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
        return IndexUnusable(path, f"the index file is damaged ({error})")
    if code == sqlite3.SQLITE_FULL or "disk is full" in str(error):
        return IndexUnusable(
            path,
            f"the disk holding the index is full ({error})",
            "free some space and run the command again (what was not committed was rolled "
            "back; the index is intact)",
        )
    if code == sqlite3.SQLITE_READONLY or not writable(path):
        return IndexReadOnly(path, f"the index is read-only ({error})", READ_ONLY_HINT)
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return IndexUnusable(
            path,
            f"the index is busy ({error})",
            "another program holds it; try again when it is done",
        )
    if code == sqlite3.SQLITE_IOERR:
        return IndexUnusable(
            path,
            f"the disk could not read or write the index ({error})",
            "check the disk (or its free space) and run the command again",
        )
    if code == sqlite3.SQLITE_CANTOPEN:
        return IndexUnusable(
            path,
            f"cannot open the index ({error})",
            "check that the file and its folder exist and can be read and written",
        )
    if is_damaged(path):
        return IndexUnusable(path, f"the index file is damaged ({error})")
    return IndexUnusable(
        path, f"SQLite failed ({error})", "run the command again; report it if it persists"
    )


def writable(path: Path) -> bool:
    """Whether cclens may write the index and its ``-wal``/``-shm`` companions (a read-only
    file, folder or file system says no, even to root)."""
    folder = path.parent
    if path.exists() and not os.access(path, os.W_OK):
        return False
    return not folder.exists() or os.access(folder, os.W_OK)


def _read_only_uri(path: Path, *, immutable: bool = False) -> str:
    extra = "&immutable=1" if immutable else ""
    return f"file:{quote(str(path.absolute()))}?mode=ro{extra}"


def _open_read_only(path: Path) -> sqlite3.Connection:
    """A read-only connection to an index on a medium cclens cannot write.

    SQLite reads a database in WAL mode through its ``-shm`` file, which it cannot create in a
    read-only folder: the file is then opened as immutable (nothing can change it there).
    """
    last: sqlite3.Error | None = None
    for immutable in (False, True):
        try:
            connection = sqlite3.connect(
                _read_only_uri(path, immutable=immutable),
                uri=True,
                isolation_level=None,
                timeout=30.0,
                check_same_thread=False,
            )
        except sqlite3.Error as error:
            last = error
            continue
        try:
            connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.Error as error:
            connection.close()
            last = error
            if _primary(error) in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
                break
            continue
        return connection
    assert last is not None
    raise problem(path, last) from last


#: SQLite's page cache per connection, in KiB: the writer's holds what a large update works
#: on; a reader's (a pool holds several, see cclens.index.storage.pool) is enough for the pages a
#: request reads again, and the operating system caches the file for all of them.
WRITER_CACHE_KIB = 32768
READER_CACHE_KIB = 8192


def _configure(connection: sqlite3.Connection, *, writer: bool) -> None:
    # WAL lets the web app read while the indexer writes; NORMAL is durable enough in WAL mode
    # (a power cut can lose the last transactions, never corrupt) and much faster than FULL.
    if writer:
        # A large update running alone uses a rollback journal (see cclens.index.write.ingest) and
        # holds the lock this needs; the connection then works in that mode, and the update
        # puts WAL mode back when it ends.
        with suppress(sqlite3.OperationalError):
            connection.execute("PRAGMA journal_mode = WAL")
    connection.execute("PRAGMA synchronous = NORMAL")
    connection.execute("PRAGMA temp_store = MEMORY")
    cache = WRITER_CACHE_KIB if writer else READER_CACHE_KIB
    connection.execute(f"PRAGMA cache_size = -{cache}")
    if not writer:
        connection.execute("PRAGMA query_only = 1")  # a reader never writes, by mistake or not


def _check(connection: sqlite3.Connection, path: Path) -> int:
    """The migration the file is at; raise :class:`IndexUnusable` when it is not an index."""
    try:
        application_id = int(connection.execute("PRAGMA application_id").fetchone()[0])
        tables = {
            row[0]
            for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
    except sqlite3.DatabaseError as error:
        found = problem(path, error)
        if found.damaged:
            raise IndexUnusable(path, f"not a readable SQLite database ({error})") from error
        raise found from error
    if application_id == 0 and not tables:
        return 0  # a new, empty file
    marked = application_id == APPLICATION_ID
    if not marked and "meta" in tables:
        row = connection.execute("SELECT value FROM meta WHERE key = ?", (FORMAT_KEY,)).fetchone()
        marked = row is not None and row[0] == FORMAT_VALUE
    if not marked:
        raise IndexUnusable(path, "a SQLite database, but not a cclens index")
    try:
        version = applied(connection)
        connection.execute("SELECT count(*) FROM sessions").fetchone()
    except sqlite3.DatabaseError as error:
        raise problem(path, error) from error
    if version > LATEST:
        raise IndexUnusable(
            path,
            f"written by a newer cclens (schema {version}, this one knows up to {LATEST})",
            "upgrade cclens, or point --db at another file",
        )
    return version


def connect(path: Path, *, writer: bool = True) -> sqlite3.Connection:
    """A connection to the index at ``path``, created and migrated when needed.

    Readers (``writer=False``) never create the file or change its schema. Raises
    :class:`IndexUnusable` for a damaged or foreign file, :class:`IndexReadOnly` when a
    writer is asked for on a medium cclens cannot write (a reader then opens it read-only).
    """
    path = Path(path)
    read_only = path.exists() and not writable(path)
    if writer:
        if read_only:
            raise IndexReadOnly(path, "the index is read-only", READ_ONLY_HINT)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise IndexUnusable(
                path,
                f"cannot create its folder ({error.strerror})",
                "choose a writable place with --db or $CCLENS_DB",
            ) from error
        if not path.exists() and not writable(path):
            # Not an index to read as it is: there is none, and none can be made there.
            raise IndexUnusable(
                path,
                "cannot create the index file there (its folder is read-only)",
                "choose a writable place with --db or $CCLENS_DB",
            )
    elif not path.exists():
        raise IndexUnusable(path, "no index here yet", "run `cclens index` first")
    try:
        if read_only:
            connection = _open_read_only(path)
        else:
            connection = sqlite3.connect(
                path, isolation_level=None, timeout=30.0, check_same_thread=False
            )
    except sqlite3.Error as error:
        raise problem(path, error) from error
    try:
        version = _check(connection, path)
        if version == 0 and writer:
            # A new file: 16 KB pages hold the stored transcripts and the full-text index in
            # a quarter of the pages (the size can only be chosen before the first table).
            connection.execute(f"PRAGMA page_size = {PAGE_SIZE}")
        if version < LATEST or pending(connection):
            if not writer:
                raise IndexUnusable(path, "needs migrating", "run `cclens index` to update it")
            migrate(connection)
        _configure(connection, writer=writer)
    except sqlite3.DatabaseError as error:
        connection.close()
        raise problem(path, error) from error
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
