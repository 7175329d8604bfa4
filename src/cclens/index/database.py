"""The index as one object: open it once, then update, list, load, search and restore."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Collection
from pathlib import Path

from ..parse import Session
from . import queries
from .connection import connect
from .ingest import POOL_THRESHOLD, Progress, UpdateReport, update_index
from .queries import ProjectSummary, SessionSummary, Totals
from .search import (
    Budget,
    ProjectChoice,
    SearchFilters,
    project_choices,
    search,
    search_results,
)
from .search_facts import DocumentFacts
from .search_result import SearchHit, SearchResult
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
        #: What searches learnt about documents, kept for the next ones (see DocumentFacts).
        self._search_facts = DocumentFacts()
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

    def projects(self) -> list[ProjectSummary]:
        """Every project, the most recently active first."""
        return queries.list_projects(self.connection())

    def project(self, slug: str) -> ProjectSummary | None:
        """One project by its folder name."""
        return queries.get_project(self.connection(), slug)

    def sessions(self, project: str) -> list[SessionSummary]:
        """A project's sessions, the most recent first."""
        return queries.project_sessions(self.connection(), project)

    def session(self, key: str) -> SessionSummary | None:
        """One session's summary by its key."""
        return queries.get_session(self.connection(), key)

    def find(self, text: str) -> list[SessionSummary]:
        """Sessions named by a key, session id, transcript path or id prefix."""
        return queries.find_sessions(self.connection(), text)

    def load(self, key: str) -> Session | None:
        """The whole session, assembled from the stored bytes (archived sessions too)."""
        connection = self.connection()
        row = queries.session_row(connection, key)
        return load_stored(connection, row) if row is not None else None

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
        budget: Budget | None = None,
    ) -> list[SearchHit]:
        """The best hits for ``text``, not grouped (see :func:`cclens.index.search.search`)."""
        return search(
            self.connection(),
            text,
            filters,
            limit=limit,
            offset=offset,
            budget=budget,
            facts=self._search_facts,
        )

    def search_results(
        self,
        text: str,
        filters: SearchFilters | None = None,
        *,
        offset: int = 0,
        limit: int = 10,
        per_session: int = 3,
        budget: Budget | None = None,
    ) -> SearchResult:
        """Hits grouped by session, with totals and facets (see
        :func:`cclens.index.search.search_results`)."""
        return search_results(
            self.connection(),
            text,
            filters,
            offset=offset,
            limit=limit,
            per_session=per_session,
            budget=budget,
            facts=self._search_facts,
        )

    def project_choices(self) -> list[ProjectChoice]:
        """The projects a search can be narrowed to, by name."""
        return project_choices(self.connection())

    def learn_search_facts(self) -> None:
        """Read what search groups and counts by for every document now (see
        :class:`~cclens.index.search_facts.DocumentFacts`): the web app does it once at start,
        so that its first searches are as fast as the next ones."""
        self._search_facts.learn_all(self.connection())

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
