"""Titles from summaries written in other files, kept right as files come and grow.

A session's own file gives it a title (:mod:`cclens.readers.claude.titles`: custom title, AI title,
summary of its own file, first real prompt), stored as ``own_title``. Claude Code also writes
summaries of earlier conversations into *later* session files of the project, pointing at the
last message of the conversation they summarise (``leafUuid``). The index keeps, for every
session, where its conversations end (``session_tips``) and the summary records of its file
(``session_summaries``); a session whose own title comes from a prompt takes the last summary
(by file path, then line) that another session of its project points at one of its tips.

Either side can arrive first or change later: whenever a session is written, its own title is
combined again with what points at it, and so is the title of every session its summaries
(new or removed) point at. :func:`resolve_titles` does this inside the writer's transaction.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Iterable

from ...model.session import TitleSource
from ...readers.claude.titles import with_summary

#: Rows of ``session_tips``: ``(uuid, session row)``.
TipRow = tuple[str, int]
#: Rows of ``session_summaries``: ``(session row, line, leaf uuid, summary)``.
SummaryRow = tuple[int, int, str, str]


def forget(connection: sqlite3.Connection, session_row: int) -> set[str]:
    """Delete a session's tips and summaries before new ones are written; the leaves its old
    summaries pointed at (the sessions there may lose their title)."""
    leaves = {
        str(row[0])
        for row in connection.execute(
            "SELECT leaf FROM session_summaries WHERE session = ?", (session_row,)
        )
    }
    connection.execute("DELETE FROM session_summaries WHERE session = ?", (session_row,))
    connection.execute("DELETE FROM session_tips WHERE session = ?", (session_row,))
    return leaves


def insert(connection: sqlite3.Connection, tips: list[TipRow], summaries: list[SummaryRow]) -> None:
    """Write tips and summaries held back by the writer."""
    if tips:
        connection.executemany(
            "INSERT OR IGNORE INTO session_tips(uuid, session) VALUES (?, ?)", tips
        )
    if summaries:
        connection.executemany(
            "INSERT OR REPLACE INTO session_summaries(session, line, leaf, summary) "
            "VALUES (?, ?, ?, ?)",
            summaries,
        )


def _temp_rows(connection: sqlite3.Connection, name: str, values: Iterable[object]) -> None:
    connection.execute(f"CREATE TEMP TABLE IF NOT EXISTS {name} (value PRIMARY KEY)")
    connection.execute(f"DELETE FROM temp.{name}")
    connection.executemany(
        f"INSERT OR IGNORE INTO temp.{name}(value) VALUES (?)", ((v,) for v in values)
    )


def resolve_titles(
    connection: sqlite3.Connection, written: Collection[int], leaves: Collection[str]
) -> list[str]:
    """Set the title of the sessions ``written`` and of those ``leaves`` point at; the keys of
    the sessions whose title changed (their revision grows, so pages show it)."""
    if not written and not leaves:
        return []
    _temp_rows(connection, "retitle", written)
    if leaves:
        _temp_rows(connection, "retitle_leaves", leaves)
        connection.execute(
            "INSERT OR IGNORE INTO temp.retitle(value) SELECT t.session FROM session_tips t "
            "WHERE t.uuid IN (SELECT value FROM temp.retitle_leaves)"
        )
    pointing: dict[int, tuple[str, int, str]] = {}
    rows = connection.execute(
        "SELECT t.session, ms.path, m.line, m.summary FROM temp.retitle r "
        "JOIN session_tips t ON t.session = r.value "
        "JOIN session_summaries m ON m.leaf = t.uuid AND m.session != t.session "
        "JOIN sessions ms ON ms.id = m.session "
        "JOIN sessions ts ON ts.id = t.session AND ts.project = ms.project"
    )
    for session_row, path, line, summary in rows:
        best = pointing.get(session_row)
        if best is None or (path, line) > best[:2]:
            pointing[session_row] = (str(path), int(line), str(summary))
    changed: list[str] = []
    current = connection.execute(
        "SELECT s.id, s.key, s.own_title, s.own_title_source, s.title, s.title_source "
        "FROM sessions s WHERE s.id IN (SELECT value FROM temp.retitle)"
    ).fetchall()
    for session_row, key, own, own_source, title, source in current:
        summary = pointing.get(session_row)
        own_kind: TitleSource = own_source
        wanted = with_summary(own, own_kind, summary[2] if summary else None)
        if wanted != (title, source):
            connection.execute(
                "UPDATE sessions SET title = ?, title_source = ?, revision = revision + 1 "
                "WHERE id = ?",
                (*wanted, session_row),
            )
            changed.append(str(key))
    return changed


__all__ = ["SummaryRow", "TipRow", "forget", "insert", "resolve_titles"]
