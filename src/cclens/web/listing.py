"""Every session of the index at one moment, read again only when the index file changed.

The dashboard and the permissions pages add up all sessions; listing them takes a query
(about 0.1 s for 10,000 sessions). Every commit to the index writes its write-ahead log
(or, after a checkpoint, the file itself), so the size and modification time of those two files
tell when the list may have changed: two ``stat`` calls per request instead of the queries.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from ..index import Index, ProjectSummary, SessionSummary


@dataclass(frozen=True, slots=True)
class Listing:
    """The index's projects and sessions; ``generation`` grows each time a session changes."""

    generation: int
    projects: list[ProjectSummary]
    #: Each session's summary by its key.
    sessions: dict[str, SessionSummary]

    def revisions(self, projects: set[str]) -> tuple[tuple[str, int], ...]:
        """``(key, revision)`` of every session of ``projects``, sorted: what they hold now."""
        return tuple(
            sorted(
                (key, summary.revision)
                for key, summary in self.sessions.items()
                if summary.project in projects
            )
        )


def _file_signature(path: str) -> tuple[int, int] | None:
    try:
        found = os.stat(path)
    except OSError:
        return None
    return (found.st_mtime_ns, found.st_size)


def index_signature(index: Index) -> tuple[object, ...]:
    """What changes whenever a commit changes the index: its file's and its log's size and
    modification time."""
    path = str(index.path)
    return (_file_signature(path), _file_signature(path + "-wal"))


T = TypeVar("T")


class IndexMemo:
    """Values worked out from the index (the choices of a filter form, its totals), kept until
    the index changes: two ``stat`` calls per request instead of the queries."""

    def __init__(self, index: Index) -> None:
        self.index = index
        self._lock = threading.Lock()
        self._values: dict[str, tuple[tuple[object, ...], Any]] = {}

    def get(self, name: str, compute: Callable[[], T]) -> T:
        """The value ``name``, from ``compute`` when the index changed since it was kept."""
        signature = index_signature(self.index)  # before computing: a later write shows next
        with self._lock:
            kept = self._values.get(name)
        if kept is not None and kept[0] == signature:
            value: T = kept[1]
            return value
        value = compute()
        with self._lock:
            self._values[name] = (signature, value)
        return value


class IndexListing:
    """The current :class:`Listing` of ``index``."""

    def __init__(self, index: Index) -> None:
        self.index = index
        self._lock = threading.Lock()
        self._signature: tuple[object, ...] | None = None
        self._listing: Listing | None = None

    def _signature_now(self) -> tuple[object, ...]:
        return index_signature(self.index)

    def current(self) -> Listing:
        """The sessions now (the same object as last time when the index did not change)."""
        with self._lock:
            signature = self._signature_now()  # before reading: a later write is seen next time
            previous = self._listing
            if previous is not None and signature == self._signature:
                return previous
            projects = self.index.projects()
            sessions = {summary.key: summary for summary in self.index.sessions()}
            generation = 0 if previous is None else previous.generation
            if previous is not None and {k: s.revision for k, s in sessions.items()} != {
                k: s.revision for k, s in previous.sessions.items()
            }:
                generation += 1
            self._listing = Listing(generation, projects, sessions)
            self._signature = signature
            return self._listing


__all__ = ["IndexListing", "IndexMemo", "Listing", "index_signature"]
