"""Every session of the index at one moment, read again only when the index file changed.

The dashboard and the permissions pages add up all sessions; listing them takes a query
(about 0.1 s for 10,000 sessions). Every commit to the index writes its write-ahead log
(or, after a checkpoint, the file itself), so the size and modification time of those two files
tell when the list may have changed: two ``stat`` calls per request instead of the queries.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass

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


class IndexListing:
    """The current :class:`Listing` of ``index``."""

    def __init__(self, index: Index) -> None:
        self.index = index
        self._lock = threading.Lock()
        self._signature: tuple[object, ...] | None = None
        self._listing: Listing | None = None

    def _signature_now(self) -> tuple[object, ...]:
        path = str(self.index.path)
        return (_file_signature(path), _file_signature(path + "-wal"))

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


__all__ = ["IndexListing", "Listing"]
