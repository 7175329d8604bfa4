"""The index as one object: open it once, then update, list, load, search and restore."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Collection, Sequence
from pathlib import Path

from ..analytics.inventory import CallFact
from ..analytics.usage import Response
from ..parse import Session
from . import queries, usage_query
from .connection import connect
from .ingest import POOL_THRESHOLD, Progress, UpdateReport, update_index
from .queries import ProjectSummary, SessionSummary, Totals
from .search import SearchFilters, SearchHit, search
from .stored import load_stored, restore_files
from .usage_query import QUARTER_HOUR, BucketSum, UsageSelection


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

    def usage_sums(
        self, selection: UsageSelection, *, seconds: int = QUARTER_HOUR
    ) -> list[BucketSum]:
        """Selected responses summed per time bucket, session, model and price (see
        :mod:`.usage_query`)."""
        return usage_query.bucket_sums(self.connection(), selection, seconds=seconds)

    def usage_responses(self, selection: UsageSelection) -> list[Response]:
        """Every selected API response once, as the analytics count it."""
        return usage_query.counted_responses(self.connection(), selection)

    def usage_calls(self, selection: UsageSelection) -> list[CallFact]:
        """Every selected tool call once (timed by when it was made)."""
        return usage_query.counted_calls(self.connection(), selection)

    def usage_costs_current(self) -> bool:
        """Whether the stored costs come from this cclens's bundled price table."""
        return usage_query.costs_current(self.connection())

    def usage_projects(self) -> list[str]:
        """Every project folder the index knows."""
        return usage_query.project_slugs(self.connection())

    def usage_sessions(self, projects: Sequence[str] | None = None) -> tuple[int, int]:
        """Sessions and transcript files held for ``projects`` (all when ``None``)."""
        return usage_query.selected_sessions(self.connection(), projects)

    def totals(self) -> Totals:
        """How much the index holds."""
        return queries.totals(self.connection())
