"""The dashboard's figures over the index, kept between requests and brought up to date cheaply.

The index stores every session's API responses and tool calls as the analytics count them,
each response and call counted once across sessions (:mod:`cclens.index.write.counted`); the
store reads those of the projects a filter selects, prices them, and works the figures out
with the analytics' functions. Two levels of cache, each keyed by what it depends on:

1. the index's session list (:class:`~cclens.web.listing.IndexListing`), read again only when
   the index file changed;
2. the responses and calls of the projects a filter selects (keyed by their sessions' keys and
   revisions), and the figures of each filter on them (a few of each, the least recently used
   dropped first).

Everything runs under one lock: two requests for figures never do the same work twice.
"""

from __future__ import annotations

import threading

import msgspec

from ..figures.aggregate import price_responses
from ..figures.pricing import PriceTable, load_price_table
from ..index import Index
from ..index.read.usage_query import UsageSelection
from .dashboard_figures import DashboardFigures, Selection, figures
from .filters import UsageFilters, matching_projects
from .listing import IndexListing, Listing
from .recent import Recent

_KEPT_SELECTIONS = 4
_KEPT_FIGURES = 32

#: The projects chosen, the ``(key, revision)`` of each of their sessions, and the agent chosen
#: (``""``: every agent's).
SelectionKey = tuple[tuple[str, ...], tuple[tuple[str, int], ...], str]


class StatsStore:
    """Dashboard figures over ``index``, priced with ``table`` (the bundled one by default)."""

    def __init__(
        self, index: Index, listing: IndexListing | None = None, table: PriceTable | None = None
    ) -> None:
        self.index = index
        self.listing = listing if listing is not None else IndexListing(index)
        self.table = table if table is not None else load_price_table()
        self._lock = threading.Lock()
        self._selections: Recent[SelectionKey, Selection] = Recent(_KEPT_SELECTIONS)
        self._figures: Recent[tuple[SelectionKey, UsageFilters], DashboardFigures] = Recent(
            _KEPT_FIGURES
        )

    def _selection(
        self, listing: Listing, projects: set[str], agent: str
    ) -> tuple[SelectionKey, Selection]:
        identity = (tuple(sorted(projects)), listing.revisions(projects), agent)
        found = self._selections.get(identity)
        if found is None:
            chosen = UsageSelection(projects=identity[0], agent=agent or None)
            found = Selection(
                projects=identity[0],
                sessions=len(identity[1]),
                priced=price_responses(self.index.usage_responses(chosen), self.table),
                calls=self.index.usage_calls(chosen),
                prompts=self.index.usage_prompts(chosen),
            )
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
            identity = (tuple(sorted(projects)), listing.revisions(projects), filters.agent)
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
            projects = {p.slug for p in matching_projects(listing.projects, filters.project)}
            identity, selection = self._selection(listing, projects, filters.agent)
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
