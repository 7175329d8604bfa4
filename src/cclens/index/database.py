"""The index as one object: open it once, then update, list, load, search and restore."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Collection
from pathlib import Path

from ..parse import Session
from . import queries, session_list
from .connection import connect
from .ingest import POOL_THRESHOLD, Progress, UpdateReport, update_index
from .queries import ProjectSummary, SessionSummary, Totals
from .search import SearchFilters, SearchHit, search
from .session_list import SessionFilters, SessionPage
from .stored import load_stored, restore_files


class Index:
    """A cclens index file.

    Opening it checks the file and migrates an older schema (see :func:`connect`). Each thread
    gets its own SQLite connection, so the web app's request threads read while its indexing
    thread writes.
    """

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._update_lock = threading.Lock()
        self.connection()  # fail now, with a clear message, on a damaged or foreign file

    def connection(self) -> sqlite3.Connection:
        """This thread's connection to the index."""
        found: sqlite3.Connection | None = getattr(self._local, "connection", None)
        if found is None:
            found = connect(self.path)
            self._local.connection = found
            with self._lock:
                self._connections.append(found)
        return found

    def close(self) -> None:
        """Close every connection opened through this object."""
        with self._lock:
            for connection in self._connections:
                connection.close()
            self._connections.clear()
        self._local = threading.local()

    def __enter__(self) -> Index:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def update(
        self,
        roots: list[Path],
        *,
        workers: int = 2,
        progress: Progress | None = None,
        pool_threshold: int = POOL_THRESHOLD,
        changed: Collection[Path | str] | None = None,
    ) -> UpdateReport:
        """Read what changed under ``roots`` (one update at a time per ``Index`` object).

        See :func:`cclens.index.ingest.update_index`. A large update starts worker processes
        with ``multiprocessing``'s "spawn" method, so a script calling this must guard its
        entry point with ``if __name__ == "__main__":``.
        """
        with self._update_lock:
            return update_index(
                self.connection(),
                self.path,
                roots,
                workers=workers,
                progress=progress,
                pool_threshold=pool_threshold,
                changed=changed,
            )

    def projects(
        self,
        filters: SessionFilters | None = None,
        *,
        sort: str = "last_activity",
        order: str | None = None,
        limit: int | None = None,
        offset: int = 0,
    ) -> list[ProjectSummary]:
        """Every project with a session ``filters`` keep (all by default), its figures added
        up over those sessions, the most recently active first unless ``sort`` (a key of
        :data:`~cclens.index.session_list.PROJECT_SORTS`) and ``order`` (``asc`` or
        ``desc``) say otherwise; ``limit`` of them (``None``: all) from ``offset``. Raises
        :class:`~cclens.index.ListError` for an unknown key."""
        return session_list.list_projects(
            self.connection(), filters, sort=sort, order=order, limit=limit, offset=offset
        )

    def count_projects(self, filters: SessionFilters | None = None) -> int:
        """How many projects have a session ``filters`` keep."""
        return session_list.count_projects(self.connection(), filters)

    def project(self, slug: str) -> ProjectSummary | None:
        """One project by its folder name."""
        return queries.get_project(self.connection(), slug)

    def sessions(
        self,
        filters: SessionFilters | None = None,
        *,
        sort: str = "last_activity",
        order: str | None = None,
        limit: int | None = None,
        offset: int = 0,
    ) -> SessionPage:
        """The sessions of every project that ``filters`` keep, a page at a time.

        ``sort`` is a key of :data:`~cclens.index.session_list.SESSION_SORTS`
        (``last_activity`` by default, the most recent first), ``order`` ``asc`` or ``desc``
        (``None``: the key's natural order, largest or latest first for figures and times,
        A to Z for text), ``limit`` how many to return (``None``: all) from ``offset``. The
        page says how many sessions match in all (``total``) and iterates over its sessions.
        Raises :class:`~cclens.index.ListError` for an unknown key or order. This is the one
        listing of sessions: the web pages, the JSON API and ``cclens sessions`` call it.
        """
        return session_list.list_sessions(
            self.connection(), filters, sort=sort, order=order, limit=limit, offset=offset
        )

    def branches(self) -> list[str]:
        """Every git branch a session was last on, most used first."""
        return session_list.branches(self.connection())

    def models(self) -> list[str]:
        """Every model a session used, most used first."""
        return session_list.models(self.connection())

    def session(self, key: str) -> SessionSummary | None:
        """One session's summary by its key."""
        return queries.get_session(self.connection(), key)

    def find(self, text: str) -> list[SessionSummary]:
        """Sessions named by a key, session id, transcript path or id prefix."""
        return queries.find_sessions(self.connection(), text)

    def load(self, key: str) -> Session | None:
        """The whole session, assembled from the stored bytes (archived sessions too).

        Its title is the index's, which also sees summaries written in other files of the
        project (see :mod:`cclens.index.titles`).
        """
        connection = self.connection()
        row = queries.session_row(connection, key)
        if row is None:
            return None
        session = load_stored(connection, row)
        titled = connection.execute(
            "SELECT title, title_source FROM sessions WHERE id = ?", (row,)
        ).fetchone()
        if session is not None and titled is not None:
            session.title, session.title_source = titled[0], titled[1]
        return session

    def file_lines(self, key: str) -> dict[str, int]:
        """For each stored file of a session, the line number stored up to."""
        return queries.file_lines(self.connection(), key)

    def search(
        self,
        text: str,
        filters: SearchFilters | None = None,
        *,
        limit: int = 50,
        offset: int = 0,
    ) -> list[SearchHit]:
        """The best matches for ``text`` (see :func:`cclens.index.search.search`)."""
        return search(self.connection(), text, filters, limit=limit, offset=offset)

    def restore(self, key: str, out_dir: Path, *, overwrite: bool = False) -> list[Path]:
        """Write a session's files back under ``out_dir``, byte for byte; the paths written."""
        connection = self.connection()
        row = queries.session_row(connection, key)
        if row is None:
            raise KeyError(key)
        return restore_files(connection, row, out_dir, overwrite=overwrite)

    def totals(self) -> Totals:
        """How much the index holds."""
        return queries.totals(self.connection())
