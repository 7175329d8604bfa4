"""The dashboard's figures over the index, kept between requests and brought up to date cheaply.

Three levels of cache, each keyed by what it depends on:

1. the index's session list (:class:`~cclens.web.listing.IndexListing`), read again only when
   the index file changed;
2. each session's :class:`~cclens.web.usage_facts.SessionFacts`, by session key and revision:
   after an update only the sessions it touched are loaded and reduced again;
3. the merged responses and calls of the projects a filter selects (keyed by their sessions'
   keys and revisions), and the figures of each filter on them (a few of each, the least
   recently used dropped first).

Everything runs under one lock: two requests for figures never do the same work twice.
"""

from __future__ import annotations

import threading
from functools import partial
from pathlib import Path

import msgspec

from ..analytics.pricing import PriceTable, load_price_table
from ..index import Index
from ..parse import Diagnostic
from ..parse.assemble import failed_session
from ..parse.isolate import isolated
from .dashboard_figures import DashboardFigures, Selection, figures, select
from .filters import UsageFilters, matching_projects
from .listing import IndexListing, Listing
from .recent import Recent
from .usage_facts import SessionFacts, reading_order, session_facts

_KEPT_SELECTIONS = 4
_KEPT_FIGURES = 32

#: The projects chosen and the ``(key, revision)`` of each of their sessions.
SelectionKey = tuple[tuple[str, ...], tuple[tuple[str, int], ...]]


class StatsStore:
    """Dashboard figures over ``index``, priced with ``table`` (the bundled one by default)."""

    def __init__(
        self, index: Index, listing: IndexListing | None = None, table: PriceTable | None = None
    ) -> None:
        self.index = index
        self.listing = listing if listing is not None else IndexListing(index)
        self.table = table if table is not None else load_price_table()
        self._lock = threading.Lock()
        self._facts: dict[str, SessionFacts] = {}
        #: Sessions cclens failed on (counted as empty), by key, with why.
        self.problems: dict[str, Diagnostic] = {}
        self._selections: Recent[SelectionKey, Selection] = Recent(_KEPT_SELECTIONS)
        self._figures: Recent[tuple[SelectionKey, UsageFilters], DashboardFigures] = Recent(
            _KEPT_FIGURES
        )

    def _facts_of(self, key: str, revision: int) -> SessionFacts | None:
        kept = self._facts.get(key)
        if kept is not None and kept.revision == revision:
            return kept
        problems: list[Diagnostic] = []
        session = isolated(partial(self.index.load, key), Path(key), problems)
        if session is None and not problems:
            return None  # removed since the list was read
        found: SessionFacts | None = None
        if session is not None:
            found = isolated(
                partial(session_facts, session, key=key, revision=revision, table=self.table),
                session.path,
                problems,
            )
        if problems or found is None:
            # One session cclens fails on must not fail the dashboard: it counts as empty.
            self.problems[key] = problems[0]
            empty = failed_session(Path(key), problems, session_id=key, project="")
            found = session_facts(empty, key=key, revision=revision, table=self.table)
        else:
            self.problems.pop(key, None)
        self._facts[key] = found
        return found

    def _selection(self, listing: Listing, projects: set[str]) -> tuple[SelectionKey, Selection]:
        identity = (tuple(sorted(projects)), listing.revisions(projects))
        found = self._selections.get(identity)
        if found is None:
            facts = [f for key, revision in identity[1] if (f := self._facts_of(key, revision))]
            found = select(identity[0], reading_order(facts), self.table)
            self._selections.put(identity, found)
        return identity, found

    def cached(self, filters: UsageFilters) -> DashboardFigures | None:
        """The figures for ``filters`` if they are at hand for the index as it is now, without
        working anything out (``None`` otherwise, or while another request works)."""
        if not self._lock.acquire(blocking=False):
            return None
        try:
            listing = self.listing.current()
            projects = {p.slug for p in matching_projects(listing.projects, filters.project)}
            identity = (tuple(sorted(projects)), listing.revisions(projects))
            found = self._figures.get((identity, filters))
            if found is not None and found.generation != listing.generation:
                found = msgspec.structs.replace(found, generation=listing.generation)
            return found
        finally:
            self._lock.release()

    def figures(self, filters: UsageFilters) -> DashboardFigures:
        """The dashboard's figures for ``filters`` (see :class:`DashboardFigures`)."""
        with self._lock:
            listing = self.listing.current()
            for gone in set(self._facts) - set(listing.sessions):
                del self._facts[gone]
            projects = {p.slug for p in matching_projects(listing.projects, filters.project)}
            identity, selection = self._selection(listing, projects)
            found = self._figures.get((identity, filters))
            if found is None:
                found = figures(selection, filters, table=self.table, generation=listing.generation)
                self._figures.put((identity, filters), found)
            elif found.generation != listing.generation:
                # Other projects changed: the same figures, under the index's new generation.
                found = msgspec.structs.replace(found, generation=listing.generation)
                self._figures.put((identity, filters), found)
            return found


__all__ = ["StatsStore"]
