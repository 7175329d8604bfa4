"""The sessions view: every session of every project, filtered and sorted, a page at a time.

One function answers the web page, the JSON API and ``cclens sessions`` (and anything else that
lists sessions): :func:`list_sessions`, through :meth:`cclens.index.Index.sessions`. The project
list is the same sessions, filtered the same way, added up per project
(:func:`list_projects`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, TypeAlias

from .bounds import check_length
from .queries import (
    PROJECT_COLUMNS,
    SESSION_COLUMNS,
    ProjectSummary,
    SessionSummary,
    project_from_row,
    session_from_row,
)

Order: TypeAlias = Literal["asc", "desc"]


class ListError(ValueError):
    """A sort key or order the lists do not know; the message says which ones they do."""


@dataclass(frozen=True, slots=True)
class SessionFilters:
    """Which sessions a list holds; every filter left at ``None`` keeps every session.

    * ``text``: words that must each appear (ignoring ASCII case) in the title, the first
      prompt, the working directory, the project or the session id;
    * ``project``: a project's folder name or working directory (that project), or a part of
      either (every project it is part of), as search's project filter;
    * ``since`` / ``until``: sessions active in that span: last activity at or after
      ``since``, first record before ``until`` (pass the end of the last day wanted);
    * ``model``: part of a model id (``opus``, ``claude-sonnet-4-5``);
    * ``branch``: the git branch the session was last on, exactly;
    * ``errors``: ``True`` for sessions with at least one failed tool call, ``False`` for
      those with none;
    * ``archived``: ``True`` for sessions whose transcript its agent deleted (kept by the
      index), ``False`` for those still on disk;
    * ``agent``: the agent that wrote the session (``claude``, ``codex``...).
    """

    text: str | None = None
    project: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    model: str | None = None
    branch: str | None = None
    errors: bool | None = None
    archived: bool | None = None
    agent: str | None = None

    def __post_init__(self) -> None:
        for name in ("text", "project", "model", "branch"):
            check_length(name, getattr(self, name))

    def as_json(self) -> dict[str, Any]:
        """The filters as plain JSON (times in ISO 8601)."""
        return {
            "text": self.text,
            "project": self.project,
            "since": self.since.isoformat() if self.since else None,
            "until": self.until.isoformat() if self.until else None,
            "model": self.model,
            "branch": self.branch,
            "errors": self.errors,
            "archived": self.archived,
            "agent": self.agent,
        }


#: Sort keys of the sessions list: the SQL it sorts by, and whether it sorts from the largest
#: (or latest) first unless told otherwise.
SESSION_SORTS: dict[str, tuple[str, Order]] = {
    "last_activity": ("coalesce(s.ended, s.started)", "desc"),
    "started": ("s.started", "desc"),
    "title": ("nullif(s.title, '') COLLATE NOCASE", "asc"),
    "project": ("coalesce(p.cwd, p.slug) COLLATE NOCASE", "asc"),
    "duration": ("s.ended - s.started", "desc"),
    "prompts": ("s.prompts", "desc"),
    "tool_calls": ("s.tool_calls", "desc"),
    "failures": ("s.errors", "desc"),
    "tokens": (
        "s.input_tokens + s.output_tokens + s.cache_read_tokens + s.cache_write_tokens",
        "desc",
    ),
    "cost": ("s.cost", "desc"),
    "models": ("nullif(s.models, '[]')", "asc"),
    "branch": ("nullif(s.git_branch, '') COLLATE NOCASE", "asc"),
    "version": ("s.version_key", "desc"),
    "archived": ("s.archived", "desc"),
    "agent": ("s.agent", "asc"),
}

#: Sort keys of the project list, as :data:`SESSION_SORTS`.
PROJECT_SORTS: dict[str, tuple[str, Order]] = {
    "last_activity": ("max(coalesce(s.ended, s.started))", "desc"),
    "first_activity": ("min(s.started)", "desc"),
    "project": ("coalesce(p.cwd, p.slug) COLLATE NOCASE", "asc"),
    "sessions": ("count(s.id)", "desc"),
    "archived": ("count(s.archived)", "desc"),
    # A project's figure is the sum of its sessions'.
    **{
        name: (f"sum({SESSION_SORTS[name][0]})", "desc")
        for name in ("prompts", "tool_calls", "failures", "tokens", "cost")
    },
}

_ORDERS: tuple[Order, ...] = ("asc", "desc")


@dataclass(slots=True)
class SessionPage:
    """One page of a sessions list: the sessions, how many match in all, and how they were
    asked for (to draw the next page, or the same list sorted otherwise)."""

    sessions: list[SessionSummary]
    total: int
    filters: SessionFilters = field(default_factory=SessionFilters)
    sort: str = "last_activity"
    order: Order = "desc"
    limit: int | None = None
    offset: int = 0

    def __iter__(self) -> Iterator[SessionSummary]:
        return iter(self.sessions)

    def __len__(self) -> int:
        return len(self.sessions)

    @property
    def more(self) -> bool:
        """Whether sessions follow this page."""
        return self.offset + len(self.sessions) < self.total

    def as_json(self) -> dict[str, Any]:
        """The page as plain JSON: what ``/api/sessions`` answers and ``cclens sessions
        --json`` prints."""
        return {
            "total": self.total,
            "offset": self.offset,
            "limit": self.limit,
            "sort": self.sort,
            "order": self.order,
            "filters": self.filters.as_json(),
            "sessions": [session.as_json() for session in self.sessions],
        }


def like_pattern(text: str) -> str:
    """``%text%`` for ``LIKE ... ESCAPE '\\'``, with the wildcards of ``text`` taken literally."""
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def project_ids(connection: sqlite3.Connection, project: str) -> list[int]:
    """The projects ``project`` names: the one whose folder name or working directory it is,
    else every project whose folder name or working directory contains it."""
    exact = connection.execute(
        "SELECT id FROM projects WHERE slug = ? OR cwd = ?", (project, project)
    ).fetchall()
    if exact:
        return [int(row[0]) for row in exact]
    pattern = like_pattern(project)
    rows = connection.execute(
        "SELECT id FROM projects WHERE slug LIKE ? ESCAPE '\\' OR cwd LIKE ? ESCAPE '\\'",
        (pattern, pattern),
    )
    return [int(row[0]) for row in rows]


_TEXT_FIELDS = (
    "s.title",
    "s.first_prompt",
    "coalesce(s.cwd, '')",
    "coalesce(p.cwd, '')",
    "p.slug",
    "s.key",
)


def _where(
    connection: sqlite3.Connection, filters: SessionFilters
) -> tuple[str, list[object]] | None:
    """The ``WHERE`` clause and its values; ``None`` when no session can match."""
    clauses: list[str] = []
    values: list[object] = []
    for word in (filters.text or "").split():
        pattern = like_pattern(word)
        clauses.append(
            "(" + " OR ".join(f"{column} LIKE ? ESCAPE '\\'" for column in _TEXT_FIELDS) + ")"
        )
        values.extend([pattern] * len(_TEXT_FIELDS))
    if filters.project:
        ids = project_ids(connection, filters.project)
        if not ids:
            return None
        clauses.append(f"s.project IN ({', '.join('?' * len(ids))})")
        values.extend(ids)
    if filters.since is not None:
        clauses.append("coalesce(s.ended, s.started) >= ?")
        values.append(filters.since.timestamp())
    if filters.until is not None:
        clauses.append("coalesce(s.started, s.ended) < ?")
        values.append(filters.until.timestamp())
    if filters.model:
        clauses.append("s.models LIKE ? ESCAPE '\\'")
        values.append(like_pattern(filters.model))
    if filters.branch:
        clauses.append("s.git_branch = ?")
        values.append(filters.branch)
    if filters.errors is not None:
        clauses.append("s.errors > 0" if filters.errors else "s.errors = 0")
    if filters.archived is not None:
        clauses.append("s.archived IS NOT NULL" if filters.archived else "s.archived IS NULL")
    if filters.agent:
        clauses.append("s.agent = ?")
        values.append(filters.agent)
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), values


def _order_by(
    sorts: dict[str, tuple[str, Order]], sort: str, order: str | None
) -> tuple[str, Order]:
    """The ``ORDER BY`` terms for ``sort`` (empty values last whichever the order)."""
    if sort not in sorts:
        raise ListError(f"sort: {sort!r} is not one of {', '.join(sorts)}")
    expression, default = sorts[sort]
    chosen = order or default
    if chosen not in _ORDERS:
        raise ListError(f"order: {order!r} is not asc or desc")
    direction: Order = "asc" if chosen == "asc" else "desc"
    return f"({expression}) IS NULL, {expression} {direction.upper()}", direction


def list_sessions(
    connection: sqlite3.Connection,
    filters: SessionFilters | None = None,
    *,
    sort: str = "last_activity",
    order: str | None = None,
    limit: int | None = None,
    offset: int = 0,
) -> SessionPage:
    """The sessions ``filters`` keep, sorted by ``sort`` (a key of :data:`SESSION_SORTS`) in
    ``order`` (``asc``, ``desc``, or ``None`` for the key's natural order), ``limit`` of them
    from ``offset``. Sessions that tie (and empty values, always last) go most recent first.
    Raises :class:`ListError` for an unknown sort key or order."""
    filters = filters or SessionFilters()
    terms, direction = _order_by(SESSION_SORTS, sort, order)
    offset = max(offset, 0)
    page = SessionPage([], 0, filters, sort, direction, limit, offset)
    where = _where(connection, filters)
    if where is None:
        return page
    clause, values = where
    source = "FROM sessions s JOIN projects p ON p.id = s.project" + clause
    page.total = int(connection.execute(f"SELECT count(*) {source}", values).fetchone()[0])
    rows = connection.execute(
        f"SELECT {SESSION_COLUMNS} {source} ORDER BY {terms}, "
        "coalesce(s.ended, s.started) DESC, s.key LIMIT ? OFFSET ?",
        [*values, -1 if limit is None else max(limit, 0), offset],
    )
    page.sessions = [session_from_row(row) for row in rows]
    return page


def list_projects(
    connection: sqlite3.Connection,
    filters: SessionFilters | None = None,
    *,
    sort: str = "last_activity",
    order: str | None = None,
    limit: int | None = None,
    offset: int = 0,
) -> list[ProjectSummary]:
    """Every project with a session ``filters`` keep, its figures added up over those
    sessions, sorted by ``sort`` (a key of :data:`PROJECT_SORTS`) in ``order``; ``limit`` of
    them (``None``: all) from ``offset``."""
    terms, _ = _order_by(PROJECT_SORTS, sort, order)
    where = _where(connection, filters or SessionFilters())
    if where is None:
        return []
    clause, values = where
    rows = connection.execute(
        f"SELECT {PROJECT_COLUMNS} FROM sessions s JOIN projects p ON p.id = s.project{clause} "
        f"GROUP BY p.id ORDER BY {terms}, max(coalesce(s.ended, s.started, 0)) DESC, p.slug "
        "LIMIT ? OFFSET ?",
        [*values, -1 if limit is None else max(limit, 0), max(offset, 0)],
    )
    return [project_from_row(row) for row in rows]


def count_projects(connection: sqlite3.Connection, filters: SessionFilters | None = None) -> int:
    """How many projects have a session ``filters`` keep."""
    where = _where(connection, filters or SessionFilters())
    if where is None:
        return 0
    clause, values = where
    row = connection.execute(
        "SELECT count(DISTINCT s.project) FROM sessions s JOIN projects p ON p.id = s.project"
        + clause,
        values,
    ).fetchone()
    return int(row[0])


def agents_indexed(connection: sqlite3.Connection) -> list[str]:
    """Every agent with a session in the index, most sessions first (for a filter's
    choices)."""
    rows = connection.execute(
        "SELECT agent FROM sessions GROUP BY agent ORDER BY count(*) DESC, agent"
    )
    return [str(row[0]) for row in rows]


def branches(connection: sqlite3.Connection) -> list[str]:
    """Every git branch a session was last on, most used first (for a filter's choices)."""
    rows = connection.execute(
        "SELECT git_branch FROM sessions WHERE git_branch IS NOT NULL AND git_branch != '' "
        "GROUP BY git_branch ORDER BY count(*) DESC, git_branch"
    )
    return [str(row[0]) for row in rows]


def models(connection: sqlite3.Connection) -> list[str]:
    """Every model a session used, most used first (for a filter's choices)."""
    rows = connection.execute(
        "SELECT j.value FROM sessions s, json_each(s.models) j "
        "GROUP BY j.value ORDER BY count(*) DESC, j.value"
    )
    return [str(row[0]) for row in rows]


__all__ = [
    "PROJECT_SORTS",
    "SESSION_SORTS",
    "ListError",
    "Order",
    "SessionFilters",
    "SessionPage",
    "agents_indexed",
    "branches",
    "count_projects",
    "like_pattern",
    "list_projects",
    "list_sessions",
    "models",
    "project_ids",
]
