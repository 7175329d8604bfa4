"""Sessions listed with filters, sorted and paged in SQL, with their counted cost and tokens
(for ``cclens mcp``'s ``list_sessions``)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from .queries import _SESSION_COLUMNS, SessionSummary, _session

Sort = Literal["recent", "oldest", "cost", "tokens"]
_ORDER: dict[str, str] = {
    "recent": "coalesce(s.ended, s.started, 0) DESC, s.key",
    "oldest": "coalesce(s.started, s.ended, 0), s.key",
    "cost": "coalesce(u.cost, 0) DESC, s.key",
    "tokens": "coalesce(u.tokens, 0) DESC, s.key",
}


_SUMS = (
    "SELECT session, sum(input + output + cache_write_5m + cache_write_1h + cache_read) "
    "AS tokens, sum(cost) AS cost FROM usage_counted"
)


@dataclass(frozen=True, slots=True)
class SessionListing:
    """One page of sessions, each with its tokens and cost (``None``: nothing priced), and
    how many sessions match in all."""

    sessions: list[tuple[SessionSummary, int, float | None]]
    total: int


def list_sessions(
    connection: sqlite3.Connection,
    *,
    projects: Sequence[str] | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    title: str | None = None,
    model: str | None = None,
    include_archived: bool = True,
    sort: Sort = "recent",
    limit: int = 20,
    offset: int = 0,
) -> SessionListing:
    """Sessions active between ``since`` and ``until``, of ``projects``, whose title holds
    ``title`` or which used ``model`` (a part of its id)."""
    clauses: list[str] = []
    values: list[Any] = []
    if projects is not None:
        clauses.append(f"p.slug IN ({', '.join('?' * len(projects))})")
        values.extend(projects)
    if since is not None:
        clauses.append("coalesce(s.ended, s.started) >= ?")
        values.append(since.timestamp())
    if until is not None:
        clauses.append("coalesce(s.started, s.ended) <= ?")
        values.append(until.timestamp())
    if title:
        clauses.append("(s.title LIKE ? ESCAPE '\\' OR s.first_prompt LIKE ? ESCAPE '\\')")
        pattern = "%" + title.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        values.extend([pattern, pattern])
    if model:
        clauses.append("s.models LIKE ? ESCAPE '\\'")
        values.append("%" + model.replace("\\", "\\\\").replace("%", "\\%") + "%")
    if not include_archived:
        clauses.append("s.archived IS NULL")
    where = " AND ".join(clauses) or "1"
    base = f"FROM sessions s JOIN projects p ON p.id = s.project WHERE {where}"
    total = int(connection.execute(f"SELECT count(*) {base}", values).fetchone()[0])
    if sort in ("cost", "tokens"):
        # Every session's sums are needed to order by them.
        rows = connection.execute(
            f"SELECT {_SESSION_COLUMNS}, s.id FROM sessions s "
            "JOIN projects p ON p.id = s.project "
            f"LEFT JOIN ({_SUMS} GROUP BY session) u "
            f"ON u.session = s.id WHERE {where} ORDER BY {_ORDER[sort]} LIMIT ? OFFSET ?",
            [*values, limit, offset],
        ).fetchall()
    else:
        rows = connection.execute(
            f"SELECT {_SESSION_COLUMNS}, s.id {base} ORDER BY {_ORDER[sort]} LIMIT ? OFFSET ?",
            [*values, limit, offset],
        ).fetchall()
    ids = [row[-1] for row in rows]
    sums = {
        row[0]: (int(row[1] or 0), row[2])
        for row in connection.execute(
            f"{_SUMS} WHERE session IN ({', '.join('?' * len(ids))}) GROUP BY session", ids
        )
    }
    return SessionListing(
        [(_session(row[:-1]), *sums.get(row[-1], (0, None))) for row in rows], total
    )


__all__ = ["SessionListing", "Sort", "list_sessions"]
