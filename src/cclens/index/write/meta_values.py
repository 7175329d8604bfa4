"""The index's ``meta`` values and the write transactions of the vectors' updates
(:mod:`cclens.index.write.vectors`, :mod:`cclens.index.write.summaries`), which run on the
writing connection after the documents are written."""

from __future__ import annotations

import sqlite3


def meta_value(connection: sqlite3.Connection, key: str) -> str | None:
    """The index's ``meta`` value under ``key`` (``None``: not set)."""
    row = connection.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])


def set_meta_value(connection: sqlite3.Connection, key: str, value: str) -> None:
    """Set the index's ``meta`` value under ``key`` (in the caller's transaction)."""
    connection.execute(
        "INSERT INTO meta (key, value) VALUES (?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (key, value),
    )


def begin(connection: sqlite3.Connection) -> None:
    """A write transaction on the writing connection, unless one is open."""
    if not connection.in_transaction:
        connection.execute("BEGIN IMMEDIATE")


def commit(connection: sqlite3.Connection) -> None:
    """Commit the open transaction, if any."""
    if connection.in_transaction:
        connection.execute("COMMIT")


__all__ = ["begin", "commit", "meta_value", "set_meta_value"]
