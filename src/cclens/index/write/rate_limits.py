"""Storing plan-limit samples (table ``rate_limits``, migration 21).

The status line stores Claude's samples; indexing a Codex session stores those of the
``token_count`` events of its new lines (:func:`cclens.figures.limits.codex_file_samples`), in
the transaction that writes the session. An agent repeats the same figures with every
response: only a sample that differs from the one before it in its window (stored or given)
is kept, so the history is the list of changes, and storing the same samples again adds
nothing.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from ...figures.limits import RESET_JITTER, LimitSample
from ..storage.schema import RATE_LIMIT_COLUMNS

_Row = tuple[str, str, float, float, float | None, int | None, str | None]


def _row(sample: LimitSample) -> _Row:
    return (
        sample.agent,
        sample.window,
        sample.at.timestamp(),
        sample.used_percent,
        sample.resets_at.timestamp() if sample.resets_at is not None else None,
        sample.window_minutes,
        sample.session,
    )


def _same(a: _Row, b: _Row) -> bool:
    """Whether two rows say the same of their window (reset times within the jitter)."""
    if a[3] != b[3]:
        return False
    if a[4] is None or b[4] is None:
        return a[4] is None and b[4] is None
    return abs(a[4] - b[4]) <= RESET_JITTER.total_seconds()


def record(connection: sqlite3.Connection, samples: Iterable[LimitSample]) -> int:
    """Store the samples that differ from the one before them in their window; return how
    many were stored. Runs in the caller's transaction (or each statement commits)."""
    by_window: dict[tuple[str, str], list[_Row]] = {}
    for sample in samples:
        by_window.setdefault((sample.agent, sample.window), []).append(_row(sample))
    stored = 0
    for (agent, window), rows in by_window.items():
        rows.sort(key=lambda row: row[2])
        found = connection.execute(
            f"SELECT {RATE_LIMIT_COLUMNS} FROM rate_limits WHERE agent = ? AND window_name = ? "
            "AND time <= ? ORDER BY time DESC LIMIT 1",
            (agent, window, rows[0][2]),
        ).fetchone()
        previous: _Row | None = tuple(found) if found else None
        fresh = []
        for row in rows:
            if previous is None or not _same(previous, row):
                fresh.append(row)
            previous = row
        if fresh:
            before = connection.total_changes
            connection.executemany(
                f"INSERT OR IGNORE INTO rate_limits ({RATE_LIMIT_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                fresh,
            )
            stored += connection.total_changes - before
    return stored


def forget(connection: sqlite3.Connection, samples: Iterable[LimitSample]) -> None:
    """Remove these samples (stored before, superseded since by a sample that came after
    them: see :data:`cclens.figures.limits.SUPERSEDED_WITHIN`). Runs in the caller's
    transaction; call it before :func:`record` stores what supersedes them."""
    connection.executemany(
        "DELETE FROM rate_limits WHERE agent = ? AND window_name = ? AND time = ? AND session IS ?",
        [(s.agent, s.window, s.at.timestamp(), s.session) for s in samples],
    )


__all__ = ["forget", "record"]
