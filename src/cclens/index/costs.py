"""What a session's responses cost, worked out when the session is indexed.

Each response a session holds, as :mod:`cclens.figures.usage` counts responses (for the
session on its own, subagents included), is priced by
:func:`cclens.figures.pricing.response_cost` with the price table bundled with cclens (the
table ``cclens stats`` uses without ``--pricing``): the index keeps the one definition of a
response's cost, it does not make its own. Responses of Claude Code's ``<synthetic>`` model
are its own notices, not API calls, and are not priced. A session's cost covers its priced
responses; those without a price are counted apart.

Each response's cost is kept in its claim (the ``counted`` table, the one place a response's
usage and cost are stored): when sessions share a response (a resumed session holds copies of
an earlier one's), the session that counts it (:mod:`cclens.index.write.counted`) counts its cost,
so
a session's cost covers the responses its tokens cover, and the usage figures read the same
rows. When the bundled table changes (a new cclens), every session is derived again on
the next update (:func:`prices_changed`), so stored costs always come from the table in use.
"""

from __future__ import annotations

import functools
import hashlib
import math
import sqlite3
from dataclasses import dataclass, field

import msgspec

from ..figures.pricing import PricedCost, PriceTable, bundled_price_table
from ..figures.usage import SYNTHETIC_MODEL, Response

_META_KEY = "prices"


@functools.cache
def price_table() -> PriceTable:
    """The bundled price table (read once per process)."""
    return bundled_price_table()


@functools.cache
def prices_signature() -> str:
    """Names the bundled table's contents: its date and a digest of its prices."""
    table = price_table()
    digest = hashlib.sha1(msgspec.json.encode(table), usedforsecurity=False).hexdigest()
    return f"{table.as_of}:{digest[:16]}"


@dataclass(slots=True)
class CostTally:
    """The cost of a session's responses, added up as they are counted."""

    costs: list[float] = field(default_factory=list)
    unpriced: int = 0

    def add_response(self, response: Response) -> PricedCost | None:
        """Price one response (as :mod:`cclens.figures.usage` counts it); its cost, kept in
        its claim (``None`` for Claude Code's own ``<synthetic>`` notices)."""
        if response.model == SYNTHETIC_MODEL:
            return None
        priced = response.priced(price_table())
        if priced.cost is None:
            self.unpriced += 1
        else:
            self.costs.append(priced.cost)
        return priced

    @property
    def cost(self) -> float | None:
        """US dollars for the priced responses (``None`` when none had a price); the same sum
        whatever order responses were added in."""
        return math.fsum(self.costs) if self.costs else None


def prices_recorded(connection: sqlite3.Connection) -> bool:
    """Whether the index records the bundled table as the one its costs come from (a read:
    an update writes only when it is not)."""
    row = connection.execute("SELECT value FROM meta WHERE key = ?", (_META_KEY,)).fetchone()
    return row is not None and row[0] == prices_signature()


def prices_changed(connection: sqlite3.Connection) -> bool:
    """Record the bundled table's signature; ``True`` when costs stored in the index came from
    another table (the caller derives every session again). Runs in the caller's transaction."""
    signature = prices_signature()
    row = connection.execute("SELECT value FROM meta WHERE key = ?", (_META_KEY,)).fetchone()
    if row is not None and row[0] == signature:
        return False
    connection.execute(
        "INSERT INTO meta(key, value) VALUES (?, ?) "
        "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        (_META_KEY, signature),
    )
    return row is not None


__all__ = [
    "CostTally",
    "price_table",
    "prices_changed",
    "prices_recorded",
    "prices_signature",
]
