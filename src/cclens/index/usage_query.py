"""Read usage back from the index: each API response once, summed in SQL or one by one.

The rows were counted by the analytics' functions when they were written (see
:mod:`.usage_store`); here they are only selected (a time range, some projects) and summed.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ..analytics.inventory import CallFact
from ..analytics.tokens import TokenCounts
from ..analytics.usage import Response
from .responses import bundled_prices, row_response
from .schema import RESPONSE_FIELDS
from .usage_store import stored_prices


@dataclass(frozen=True, slots=True)
class UsageSelection:
    """Which responses: those timed in ``[start, end)`` (epoch seconds; ``None`` is open, and
    a response without a time is kept only when both are), of the projects ``projects``
    (folder names; ``None`` for all) or of the sessions ``sessions`` (index keys)."""

    start: float | None = None
    end: float | None = None
    projects: tuple[str, ...] | None = None
    sessions: tuple[str, ...] | None = None

    def where(self, time_column: str = "u.time") -> tuple[str, list[Any]]:
        """The SQL condition (over ``u``, ``s`` and ``p``) and its parameters."""
        clauses: list[str] = []
        values: list[Any] = []
        if self.start is not None:
            clauses.append(f"{time_column} >= ?")
            values.append(self.start)
        if self.end is not None:
            clauses.append(f"{time_column} < ?")
            values.append(self.end)
        if self.projects is not None:
            clauses.append(f"p.slug IN ({', '.join('?' * len(self.projects))})")
            values.extend(self.projects)
        if self.sessions is not None:
            clauses.append(f"s.key IN ({', '.join('?' * len(self.sessions))})")
            values.extend(self.sessions)
        return (" AND ".join(clauses) or "1"), values


_FROM = (
    "FROM usage_counted u JOIN sessions s ON s.id = u.session JOIN projects p ON p.id = s.project"
)


def costs_current(connection: sqlite3.Connection) -> bool:
    """Whether the stored costs come from the bundled price table of this cclens."""
    return stored_prices(connection) == bundled_prices()[1]


#: Seconds in the time buckets responses are summed in: every time zone's offset is a whole
#: number of quarter hours, so a bucket falls whole in one local day and hour.
QUARTER_HOUR = 900


@dataclass(frozen=True, slots=True)
class BucketSum:
    """Selected responses summed per time bucket (``bucket`` is its first second since the
    epoch; ``None`` for responses without a time), session, model and price-table entry."""

    bucket: int | None
    session_id: str
    project: str
    title: str
    model: str | None
    price: str | None
    reason: str | None
    responses: int
    tokens: TokenCounts
    cost: float | None


def bucket_sums(
    connection: sqlite3.Connection, selection: UsageSelection, *, seconds: int = QUARTER_HOUR
) -> list[BucketSum]:
    """The selected responses summed per ``seconds`` bucket, session, model and price, with
    the costs stored (the bundled table's)."""
    where, values = selection.where()
    rows = connection.execute(
        f"SELECT CAST(u.time / {seconds} AS INTEGER) * {seconds} AS bucket, s.session_id, "
        "p.slug, s.title, u.model, u.price, u.reason, count(*), sum(u.input), sum(u.output), "
        "sum(u.cache_write_5m), sum(u.cache_write_1h), sum(u.cache_read), sum(u.cost) "
        f"{_FROM} WHERE {where} GROUP BY bucket, u.session, u.model, u.price, u.reason",
        values,
    )
    sums = []
    for bucket, session_id, project, title, model, price, reason, count, *totals in rows:
        i, o, w5, w1, r, cost = totals
        sums.append(
            BucketSum(
                bucket=bucket,
                session_id=session_id,
                project=project,
                title=title,
                model=model,
                price=price,
                reason=reason,
                responses=count,
                tokens=TokenCounts(
                    input=i, output=o, cache_write_5m=w5, cache_write_1h=w1, cache_read=r
                ),
                cost=cost,
            )
        )
    return sums


def counted_responses(connection: sqlite3.Connection, selection: UsageSelection) -> list[Response]:
    """The selected responses, each once, as the analytics' :class:`Response` (reading order:
    the oldest session first)."""
    where, values = selection.where()
    fields = ", ".join("u." + name.strip() for name in RESPONSE_FIELDS.split(","))
    rows = connection.execute(
        f"SELECT s.session_id, p.slug, s.title, {fields} {_FROM} WHERE {where} "
        "ORDER BY s.started IS NULL, s.started, s.path, u.place",
        values,
    )
    return [
        row_response(row[3:], session_id=row[0], project=row[1], title=row[2], tz=UTC)
        for row in rows
    ]


def counted_calls(connection: sqlite3.Connection, selection: UsageSelection) -> list[CallFact]:
    """The selected sessions' tool calls, each once (timed by when the call was made)."""
    where, values = selection.where("c.started")
    rows = connection.execute(
        "SELECT c.key, c.name, c.status, c.started, c.seconds FROM usage_calls c "
        "JOIN sessions s ON s.id = c.session JOIN projects p ON p.id = s.project "
        f"WHERE c.counted AND {where} ORDER BY s.started IS NULL, s.started, s.path, c.id",
        values,
    )
    return [
        CallFact(
            key=key,
            name=name,
            status=status,
            started=datetime.fromtimestamp(started, UTC) if started is not None else None,
            seconds=seconds,
        )
        for key, name, status, started, seconds in rows
    ]


def selected_sessions(
    connection: sqlite3.Connection, projects: Sequence[str] | None
) -> tuple[int, int]:
    """How many sessions, and transcript files (sessions' and subagents'), the index holds for
    ``projects`` (all when ``None``)."""
    selection = UsageSelection(projects=tuple(projects) if projects is not None else None)
    where, values = selection.where()
    row = connection.execute(
        "SELECT count(DISTINCT s.id), count(f.id) FROM sessions s "
        "JOIN projects p ON p.id = s.project "
        "LEFT JOIN files f ON f.session = s.id AND f.role IN ('session', 'subagent') "
        f"WHERE {where}",
        values,
    ).fetchone()
    return int(row[0]), int(row[1])


def project_slugs(connection: sqlite3.Connection) -> list[str]:
    """Every project folder the index knows."""
    return [row[0] for row in connection.execute("SELECT slug FROM projects ORDER BY slug")]


__all__ = [
    "QUARTER_HOUR",
    "BucketSum",
    "UsageSelection",
    "bucket_sums",
    "costs_current",
    "counted_calls",
    "counted_responses",
    "project_slugs",
    "selected_sessions",
]
