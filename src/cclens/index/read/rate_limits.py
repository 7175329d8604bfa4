"""The plan-limit samples the index keeps (table ``rate_limits``, migration 21), read back.

See :mod:`cclens.figures.limits` for what a sample is, and
:mod:`cclens.index.write.rate_limits` for which are stored.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime

from ...figures.limits import LimitSample
from ..storage.schema import RATE_LIMIT_COLUMNS


def _sample(row: Sequence[object]) -> LimitSample:
    agent, window, moment, used, resets, minutes, session = row
    assert isinstance(moment, float | int) and isinstance(used, float | int)
    return LimitSample(
        agent=str(agent),
        window=str(window),
        at=datetime.fromtimestamp(moment, UTC),
        used_percent=float(used),
        resets_at=datetime.fromtimestamp(resets, UTC) if isinstance(resets, float | int) else None,
        window_minutes=minutes if isinstance(minutes, int) else None,
        session=str(session) if session is not None else None,
    )


def samples(
    connection: sqlite3.Connection,
    *,
    agent: str | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
) -> list[LimitSample]:
    """The stored samples (of ``agent``; from ``since`` to ``until``), by agent and window,
    oldest first."""
    where = []
    arguments: list[object] = []
    if agent is not None:
        where.append("agent = ?")
        arguments.append(agent)
    if since is not None:
        where.append("time >= ?")
        arguments.append(since.timestamp())
    if until is not None:
        where.append("time <= ?")
        arguments.append(until.timestamp())
    clause = f" WHERE {' AND '.join(where)}" if where else ""
    rows = connection.execute(
        f"SELECT {RATE_LIMIT_COLUMNS} FROM rate_limits{clause} ORDER BY agent, window_name, time",
        arguments,
    ).fetchall()
    return [_sample(row) for row in rows]


def around(connection: sqlite3.Connection, start: datetime, end: datetime) -> list[LimitSample]:
    """The samples from ``start`` to ``end`` and, for each window, the last one before
    ``start`` (what the use during a span is counted from), oldest first."""
    found = samples(connection, since=start, until=end)
    # With max(), SQLite takes the other columns from the row that has it.
    before = connection.execute(
        "SELECT agent, window_name, max(time), used, resets, minutes, session FROM rate_limits "
        "WHERE time < ? GROUP BY agent, window_name",
        (start.timestamp(),),
    ).fetchall()
    return sorted([*(_sample(row) for row in before), *found], key=lambda s: s.at)


__all__ = ["around", "samples"]
