"""The few reads the status line makes: where a transcript stands in the index, the session's
stored responses, and the other sessions' usage since a moment.

Kept apart from the rest of the index, and light to import: the status line is a new process
each time Claude Code redraws it.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..storage.schema import COUNTS_COPY as COPY
from ..storage.schema import COUNTS_MERGED as MERGED

#: ``counted.kind`` of a response (:data:`cclens.index.extract.CLAIM_RESPONSE`; not imported,
#: to keep this module light).
_RESPONSE = 1
#: The columns :func:`session_responses` reads, in order.
RESPONSE_COLUMNS = (
    "counts, key, request, model, time, agent, input, output, cache_write_5m, cache_write_1h, "
    "cache_read, cache_write_unsplit, speed, inference_geo, cost, price, reason, tools"
)


def connect_reader(path: Path) -> sqlite3.Connection:
    """A read-only connection to the index (``sqlite3.OperationalError`` when it is missing)."""
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=2.0)
    connection.execute("PRAGMA query_only = ON")
    return connection


@dataclass(frozen=True, slots=True)
class StoredFile:
    """A transcript file as the index holds it: its session, and how far it was read."""

    session_row: int
    session_id: str
    project: str
    offset: int
    lines: int
    head: bytes


def stored_file(connection: sqlite3.Connection, path: str) -> StoredFile | None:
    """Where the index stands in the transcript ``path`` (``None``: not indexed)."""
    row = connection.execute(
        "SELECT f.session, s.session_id, p.slug, f.offset, f.lines, f.head FROM files f "
        "JOIN sessions s ON s.id = f.session JOIN projects p ON p.id = s.project "
        "WHERE f.path = ?",
        (path,),
    ).fetchone()
    if row is None:
        return None
    return StoredFile(row[0], row[1], row[2], row[3], row[4], bytes(row[5] or b""))


def session_responses(connection: sqlite3.Connection, session_row: int) -> list[tuple[Any, ...]]:
    """The session's stored responses (:data:`RESPONSE_COLUMNS` each): those it holds
    (``counts`` 0 for a copy another session counts, 1 for one it counts as it is) and those
    several sessions hold that it counts (``counts`` 2, merged; see
    :mod:`cclens.index.write.counted`)."""
    return connection.execute(
        f"SELECT {RESPONSE_COLUMNS} FROM counted WHERE session = ? AND kind = ? ORDER BY rowid",
        (session_row, _RESPONSE),
    ).fetchall()


def others_since(
    connection: sqlite3.Connection, start: float, session_row: int | None
) -> list[tuple[Any, ...]]:
    """Every other session's responses since ``start`` (epoch seconds), each once, summed per
    minute and price: ``(minute, responses, input, output, cache_write_5m, cache_write_1h,
    cache_read, cache_write_unsplit, cost, price, model)``."""
    return connection.execute(
        "SELECT CAST(time / 60 AS INTEGER) * 60 AS minute, count(*), sum(input), sum(output), "
        "sum(cache_write_5m), sum(cache_write_1h), sum(cache_read), sum(cache_write_unsplit), "
        "sum(cost), price, model FROM counted "
        "WHERE kind = ? AND counts > 0 AND time >= ? AND session IS NOT ? "
        "GROUP BY minute, price, model ORDER BY minute",
        (_RESPONSE, start, session_row),
    ).fetchall()


def prices_fingerprint(connection: sqlite3.Connection) -> str | None:
    """The signature of the price table the stored costs come from (see
    :func:`cclens.index.costs.prices_signature`)."""
    row = connection.execute("SELECT value FROM meta WHERE key = 'prices'").fetchone()
    return str(row[0]) if row else None


__all__ = [
    "COPY",
    "MERGED",
    "RESPONSE_COLUMNS",
    "StoredFile",
    "connect_reader",
    "others_since",
    "prices_fingerprint",
    "session_responses",
    "stored_file",
]
