"""The plan-limit samples the index keeps (table ``rate_limits``, migration 21).

A sample is where one usage window of an agent's plan stood at a moment
(:class:`~cclens.figures.limits.LimitSample`). The status line stores Claude's, the Codex
reader stores those of every ``token_count`` event; only a sample that differs from the one
before it in its window is kept (an agent repeats the same figures with every response), so
the history is the list of changes.

The table is keyed by agent, window and time; ``used`` is the share used (0-100), ``resets``
and ``time`` epoch seconds, ``minutes`` the window's length as the agent gave it, ``session``
the session the sample came with.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime

from ..figures.limits import RESET_JITTER, LimitSample

#: The migration that makes the table (numbered after the issue that asked for it).
MIGRATION_NUMBER = 21
_COLUMNS = "agent, window_name, time, used, resets, minutes, session"


def create_table(connection: sqlite3.Connection) -> None:
    """Migration 21: the ``rate_limits`` table (in the migration's transaction)."""
    connection.execute(
        """
        CREATE TABLE rate_limits (
            agent TEXT NOT NULL,
            window_name TEXT NOT NULL,
            time REAL NOT NULL,
            used REAL NOT NULL,
            resets REAL,
            minutes INTEGER,
            session TEXT,
            PRIMARY KEY (agent, window_name, time)
        ) WITHOUT ROWID
        """
    )


def _row(sample: LimitSample) -> tuple[object, ...]:
    return (
        sample.agent,
        sample.window,
        sample.at.timestamp(),
        sample.used_percent,
        sample.resets_at.timestamp() if sample.resets_at is not None else None,
        sample.window_minutes,
        sample.session,
    )


def _sample(row: Sequence[object]) -> LimitSample:
    agent, window, moment, used, resets, minutes, session = row
    assert isinstance(moment, float | int) and isinstance(used, float | int)
    return LimitSample(
        agent=str(agent),
        window=str(window),
        at=datetime.fromtimestamp(moment, UTC),
        used_percent=float(used),
        resets_at=datetime.fromtimestamp(resets, UTC) if isinstance(resets, float | int) else None,
        window_minutes=int(minutes) if isinstance(minutes, int) else None,
        session=str(session) if session is not None else None,
    )


def _same(a: tuple[object, ...], b: tuple[object, ...]) -> bool:
    """Whether two rows say the same of their window (reset times within the jitter)."""
    if a[3] != b[3]:
        return False
    if a[4] is None or b[4] is None:
        return a[4] is b[4]
    assert isinstance(a[4], float) and isinstance(b[4], float)
    return abs(a[4] - b[4]) <= RESET_JITTER.total_seconds()


def record(connection: sqlite3.Connection, samples: Iterable[LimitSample]) -> int:
    """Store the samples that differ from the one before them in their window (stored or
    given); return how many were stored. Runs in the caller's transaction (or autocommits)."""
    by_window: dict[tuple[str, str], list[tuple[object, ...]]] = {}
    for sample in samples:
        by_window.setdefault((sample.agent, sample.window), []).append(_row(sample))
    stored = 0
    for (agent, window), rows in by_window.items():
        rows.sort(key=lambda row: row[2])  # type: ignore[arg-type, return-value]
        found = connection.execute(
            f"SELECT {_COLUMNS} FROM rate_limits WHERE agent = ? AND window_name = ? "
            "AND time <= ? ORDER BY time DESC LIMIT 1",
            (agent, window, rows[0][2]),
        ).fetchone()
        previous: tuple[object, ...] | None = tuple(found) if found else None
        fresh = []
        for row in rows:
            if previous is None or not _same(previous, row):
                fresh.append(row)
            previous = row
        if fresh:
            before = connection.total_changes
            connection.executemany(
                f"INSERT OR IGNORE INTO rate_limits ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                fresh,
            )
            stored += connection.total_changes - before
    return stored


def samples(
    connection: sqlite3.Connection,
    *,
    agent: str | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
) -> list[LimitSample]:
    """The stored samples (of ``agent``; from ``since`` to ``until``), oldest first."""
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
        f"SELECT {_COLUMNS} FROM rate_limits{clause} ORDER BY agent, window_name, time", arguments
    ).fetchall()
    return [_sample(row) for row in rows]


def around(connection: sqlite3.Connection, start: datetime, end: datetime) -> list[LimitSample]:
    """The samples from ``start`` to ``end`` and, for each window, the last one before
    ``start`` (what the use during a session is counted from)."""
    found = samples(connection, since=start, until=end)
    before = connection.execute(
        f"SELECT {_COLUMNS} FROM rate_limits r WHERE time = ("
        "SELECT max(time) FROM rate_limits WHERE agent = r.agent "
        "AND window_name = r.window_name AND time < ?)",
        (start.timestamp(),),
    ).fetchall()
    return sorted([*(_sample(row) for row in before), *found], key=lambda s: s.at)


__all__ = ["MIGRATION_NUMBER", "around", "create_table", "record", "samples"]
