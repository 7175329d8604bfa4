"""Write each session's API responses and tool calls, and count each response once.

A session's rows are replaced whole each time it is derived (a live session's responses grow
and merge as lines are appended). A response recorded by several sessions (a resumed session
copies earlier records into its new file) is then merged by
:func:`cclens.analytics.usage.merge_responses`, in the order ``cclens stats`` reads sessions
(oldest first, then by path): its rows are marked ``counted = 0`` and the merged response is
kept in ``usage_merged``. A tool call met in several sessions counts for the first.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from datetime import UTC
from itertools import groupby
from typing import Any

from ..analytics.pricing import response_cost
from ..analytics.tokens import TokenCounts
from ..analytics.usage import Response, merge_responses
from .responses import (
    RESPONSES_VERSION,
    CallRow,
    ResponseRow,
    bundled_prices,
    response_row,
    row_response,
)
from .schema import RESPONSE_FIELDS

_COLUMNS = (
    "key, message_id, request_id, uuid, model, time, agent_id, input, output, cache_write_5m, "
    "cache_write_1h, cache_read, speed, inference_geo, path, line, tools, cost, price, reason"
)
_INSERT_RESPONSE = (
    f"INSERT INTO usage_responses(session, {_COLUMNS}) VALUES (?, " + ", ".join("?" * 20) + ")"
)
_INSERT_MERGED = (
    f"INSERT INTO usage_merged(session, place, {_COLUMNS}) VALUES (?, ?, "
    + ", ".join("?" * 20)
    + ")"
)
_INSERT_CALL = (
    "INSERT INTO usage_calls(session, key, name, status, started, seconds) "
    "VALUES (?, ?, ?, ?, ?, ?)"
)
#: The ``meta`` key naming the price table the stored costs come from.
PRICES_KEY = "usage_prices"


def stored_prices(connection: sqlite3.Connection) -> str | None:
    """The fingerprint of the table the index's costs were priced with."""
    row = connection.execute("SELECT value FROM meta WHERE key = ?", (PRICES_KEY,)).fetchone()
    return str(row[0]) if row else None


def _reprice(connection: sqlite3.Connection) -> None:
    """Price every stored response again with the bundled table (a new cclens brought a new
    table)."""
    table, fingerprint = bundled_prices()
    for name in ("usage_responses", "usage_merged"):
        rows = connection.execute(
            f"SELECT id, model, input, output, cache_write_5m, cache_write_1h, cache_read, speed, "
            f"inference_geo FROM {name}"
        ).fetchall()
        updates = []
        for row_id, model, i, o, w5, w1, r, speed, geo in rows:
            tokens = TokenCounts(
                input=i, output=o, cache_write_5m=w5, cache_write_1h=w1, cache_read=r
            )
            priced = response_cost(table, model, tokens, speed=speed, inference_geo=geo)
            updates.append((priced.cost, priced.price, priced.reason, row_id))
        connection.executemany(
            f"UPDATE {name} SET cost = ?, price = ?, reason = ? WHERE id = ?", updates
        )
    connection.execute(
        "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (PRICES_KEY, fingerprint)
    )


class UsageWriter:
    """Holds sessions' rows back until :meth:`flush` (inside the caller's transaction)."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection
        self._responses: list[tuple[Any, ...]] = []
        self._calls: list[tuple[Any, ...]] = []
        self._sessions: list[int] = []
        self._response_keys: set[str] = set()
        self._call_keys: set[str] = set()
        self._priced = False

    def queue(
        self,
        session_row: int,
        responses: list[ResponseRow] | None,
        calls: list[CallRow] | None,
        *,
        new: bool,
    ) -> None:
        """Replace a session's rows with these (``new``: the session has none yet)."""
        if responses is None or calls is None:
            return
        connection = self.connection
        if not new:
            old = connection.execute(
                "DELETE FROM usage_responses WHERE session = ? RETURNING key", (session_row,)
            ).fetchall()
            self._response_keys.update(row[0] for row in old)
            connection.execute("DELETE FROM usage_merged WHERE session = ?", (session_row,))
            old = connection.execute(
                "DELETE FROM usage_calls WHERE session = ? RETURNING key", (session_row,)
            ).fetchall()
            self._call_keys.update(row[0] for row in old)
        self._sessions.append(session_row)
        for row in responses:
            self._responses.append((session_row, *row))
            self._response_keys.add(row[0])
        for call in calls:
            self._calls.append((session_row, *call))
            self._call_keys.add(call[0])

    def flush(self) -> None:
        """Insert the rows held back, then count each response and call once."""
        connection = self.connection
        if not self._priced:
            self._priced = True
            if stored_prices(connection) != bundled_prices()[1]:
                _reprice(connection)
        if self._responses:
            connection.executemany(_INSERT_RESPONSE, self._responses)
        if self._calls:
            connection.executemany(_INSERT_CALL, self._calls)
        if self._sessions:
            connection.executemany(
                "UPDATE sessions SET usage_version = ? WHERE id = ?",
                [(RESPONSES_VERSION, row) for row in self._sessions],
            )
        if self._response_keys:
            _count_responses_once(connection, self._response_keys)
        if self._call_keys:
            _count_calls_once(connection, self._call_keys)
        for held in (self._responses, self._calls, self._sessions):
            held.clear()
        self._response_keys.clear()
        self._call_keys.clear()


def _touched(connection: sqlite3.Connection, keys: Iterable[str]) -> None:
    connection.execute("CREATE TEMP TABLE IF NOT EXISTS usage_touched (key TEXT PRIMARY KEY)")
    connection.execute("DELETE FROM temp.usage_touched")
    connection.executemany(
        "INSERT OR IGNORE INTO temp.usage_touched VALUES (?)", [(key,) for key in keys]
    )


#: Sessions in the order ``cclens stats`` reads them (see
#: :func:`cclens.analytics.usage.collect_responses`).
READING_ORDER = "s.started IS NULL, s.started, s.path"


def _count_responses_once(connection: sqlite3.Connection, keys: Iterable[str]) -> None:
    _touched(connection, keys)
    shared = [
        row[0]
        for row in connection.execute(
            "SELECT key FROM usage_responses WHERE key IN (SELECT key FROM temp.usage_touched) "
            "GROUP BY key HAVING count(DISTINCT session) > 1"
        )
    ]
    merged_before = [
        row[0]
        for row in connection.execute(
            "SELECT DISTINCT key FROM usage_merged "
            "WHERE key IN (SELECT key FROM temp.usage_touched)"
        )
    ]
    reset = [(key,) for key in {*shared, *merged_before}]
    connection.executemany("DELETE FROM usage_merged WHERE key = ?", reset)
    connection.executemany("UPDATE usage_responses SET counted = 1 WHERE key = ?", reset)
    if not shared:
        return
    _touched(connection, shared)
    fields = ", ".join("r." + name.strip() for name in RESPONSE_FIELDS.split(","))
    rows = connection.execute(
        f"SELECT r.key, r.session, r.id, {fields} "
        "FROM usage_responses r JOIN sessions s ON s.id = r.session "
        "WHERE r.key IN (SELECT key FROM temp.usage_touched) "
        f"ORDER BY r.key, {READING_ORDER}, r.id"
    ).fetchall()
    table, _ = bundled_prices()
    merged_rows: list[tuple[Any, ...]] = []
    for _, of_key in groupby(rows, key=lambda row: row[0]):
        per_session: list[list[Response]] = []
        ids: list[int] = []
        for session_row, of_session in groupby(of_key, key=lambda row: row[1]):
            responses = []
            for row in of_session:
                ids.append(row[2])
                responses.append(
                    row_response(row[3:], session_id=str(session_row), project="", title="", tz=UTC)
                )
            per_session.append(responses)
        origins: list[int] = []
        merged = merge_responses(per_session, origins)
        for response, origin in zip(merged, origins, strict=True):
            merged_rows.append(
                (int(response.session_id), ids[origin], *response_row(response, table))
            )
    connection.executemany(_INSERT_MERGED, merged_rows)
    connection.executemany(
        "UPDATE usage_responses SET counted = 0 WHERE key = ?", [(key,) for key in shared]
    )


def _count_calls_once(connection: sqlite3.Connection, keys: Iterable[str]) -> None:
    _touched(connection, keys)
    connection.execute(
        "UPDATE usage_calls SET counted = 1 WHERE key IN (SELECT key FROM temp.usage_touched)"
    )
    # Every copy but the first, in reading order, of a call met in several places.
    connection.execute(
        "UPDATE usage_calls SET counted = 0 WHERE id IN ("
        " SELECT id FROM ("
        "  SELECT c.id, row_number() OVER ("
        f"   PARTITION BY c.key ORDER BY {READING_ORDER}, c.id) AS place"
        "  FROM usage_calls c JOIN sessions s ON s.id = c.session"
        "  WHERE c.key IN (SELECT key FROM temp.usage_touched)"
        " ) WHERE place > 1)"
    )


__all__ = ["PRICES_KEY", "READING_ORDER", "RESPONSE_FIELDS", "UsageWriter", "stored_prices"]
