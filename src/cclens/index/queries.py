"""Read the project and session lists back from the index."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import PurePath
from typing import Any

import msgspec


def _time(value: float | None) -> datetime | None:
    return datetime.fromtimestamp(value, UTC) if value is not None else None


def project_name(slug: str, cwd: str | None) -> str:
    """How a project is shown: its working directory when known, else its folder name."""
    return cwd or slug


@dataclass(frozen=True, slots=True)
class ProjectSummary:
    """A project (one folder of ``~/.claude/projects``) and its sessions' totals."""

    slug: str
    cwd: str | None
    sessions: int
    archived: int
    first_activity: datetime | None
    last_activity: datetime | None
    messages: int
    tool_calls: int
    input_tokens: int
    output_tokens: int
    cache_read_tokens: int
    cache_write_tokens: int
    #: Prompts, responses, calls that failed and 1-hour cache writes, each counted once
    #: (see :mod:`cclens.analytics.figures`).
    prompts: int = 0
    responses: int = 0
    errors: int = 0
    cache_write_1h_tokens: int = 0

    @property
    def name(self) -> str:
        """The project's working directory when known, else its folder name."""
        return project_name(self.slug, self.cwd)

    @property
    def tokens(self) -> int:
        """Every token of every response: input, output, cache reads and writes."""
        return (
            self.input_tokens
            + self.output_tokens
            + self.cache_read_tokens
            + self.cache_write_tokens
        )


@dataclass(frozen=True, slots=True)
class SessionSummary:
    """One session as the lists show it (the whole session is :func:`Index.load`)."""

    key: str
    session_id: str
    project: str
    path: str
    title: str
    title_source: str
    first_prompt: str
    cwd: str | None
    git_branch: str | None
    started: datetime | None
    ended: datetime | None
    messages: int
    tool_calls: int
    errors: int
    subagents: int
    input_tokens: int
    output_tokens: int
    cache_read_tokens: int
    cache_write_tokens: int
    models: list[str]
    versions: list[str]
    malformed: int
    #: When the transcript was found deleted (``None``: still on disk).
    archived_at: datetime | None
    #: Grows each time the index changes what it holds for the session.
    revision: int
    #: Prompts and responses counted once (see :mod:`cclens.analytics.figures`); ``errors``
    #: are the calls that failed; ``cache_write_1h_tokens`` are part of ``cache_write_tokens``.
    prompts: int = 0
    responses: int = 0
    cache_write_1h_tokens: int = 0

    @property
    def archived(self) -> bool:
        return self.archived_at is not None

    @property
    def orphan(self) -> bool:
        """A subagent transcript whose session file is gone, kept as a session of its own."""
        return PurePath(self.path).name.startswith("agent-")

    @property
    def duration_seconds(self) -> float | None:
        if self.started is None or self.ended is None:
            return None
        return (self.ended - self.started).total_seconds()

    @property
    def tokens(self) -> int:
        return (
            self.input_tokens
            + self.output_tokens
            + self.cache_read_tokens
            + self.cache_write_tokens
        )


_PROJECT_COLUMNS = """
    p.slug, p.cwd, count(s.id), count(s.archived), min(s.started),
    max(coalesce(s.ended, s.started)), coalesce(sum(s.messages), 0),
    coalesce(sum(s.tool_calls), 0), coalesce(sum(s.input_tokens), 0),
    coalesce(sum(s.output_tokens), 0), coalesce(sum(s.cache_read_tokens), 0),
    coalesce(sum(s.cache_write_tokens), 0), coalesce(sum(s.prompts), 0),
    coalesce(sum(s.responses), 0), coalesce(sum(s.errors), 0),
    coalesce(sum(s.cache_write_1h_tokens), 0)
"""

_SESSION_COLUMNS = """
    s.key, s.session_id, p.slug, s.path, s.title, s.title_source, s.first_prompt, s.cwd,
    s.git_branch, s.started, s.ended, s.messages, s.tool_calls, s.errors, s.subagents,
    s.input_tokens, s.output_tokens, s.cache_read_tokens, s.cache_write_tokens, s.models,
    s.versions, s.malformed, s.archived, s.revision, s.prompts, s.responses,
    s.cache_write_1h_tokens
"""


def _project(row: Any) -> ProjectSummary:
    return ProjectSummary(
        row[0],
        row[1],
        row[2],
        row[3],
        _time(row[4]),
        _time(row[5]),
        row[6],
        row[7],
        row[8],
        row[9],
        row[10],
        row[11],
        prompts=row[12],
        responses=row[13],
        errors=row[14],
        cache_write_1h_tokens=row[15],
    )


def _session(row: Any) -> SessionSummary:
    return SessionSummary(
        key=row[0],
        session_id=row[1],
        project=row[2],
        path=row[3],
        title=row[4],
        title_source=row[5],
        first_prompt=row[6],
        cwd=row[7],
        git_branch=row[8],
        started=_time(row[9]),
        ended=_time(row[10]),
        messages=row[11],
        tool_calls=row[12],
        errors=row[13],
        subagents=row[14],
        input_tokens=row[15],
        output_tokens=row[16],
        cache_read_tokens=row[17],
        cache_write_tokens=row[18],
        models=msgspec.json.decode(row[19]),
        versions=msgspec.json.decode(row[20]),
        malformed=row[21],
        archived_at=_time(row[22]),
        revision=row[23],
        prompts=row[24],
        responses=row[25],
        cache_write_1h_tokens=row[26],
    )


def list_projects(connection: sqlite3.Connection) -> list[ProjectSummary]:
    """Every project with at least one session, the most recently active first."""
    rows = connection.execute(
        f"SELECT {_PROJECT_COLUMNS} FROM projects p JOIN sessions s ON s.project = p.id "
        "GROUP BY p.id ORDER BY max(coalesce(s.ended, s.started, 0)) DESC, p.slug"
    )
    return [_project(row) for row in rows]


def get_project(connection: sqlite3.Connection, slug: str) -> ProjectSummary | None:
    """One project by its folder name."""
    row = connection.execute(
        f"SELECT {_PROJECT_COLUMNS} FROM projects p JOIN sessions s ON s.project = p.id "
        "WHERE p.slug = ? GROUP BY p.id",
        (slug,),
    ).fetchone()
    return _project(row) if row else None


def project_sessions(connection: sqlite3.Connection, slug: str) -> list[SessionSummary]:
    """The sessions of a project, the most recent first."""
    rows = connection.execute(
        f"SELECT {_SESSION_COLUMNS} FROM sessions s JOIN projects p ON p.id = s.project "
        "WHERE p.slug = ? ORDER BY coalesce(s.ended, s.started, 0) DESC, s.key",
        (slug,),
    )
    return [_session(row) for row in rows]


def get_session(connection: sqlite3.Connection, key: str) -> SessionSummary | None:
    """One session by its key."""
    row = connection.execute(
        f"SELECT {_SESSION_COLUMNS} FROM sessions s JOIN projects p ON p.id = s.project "
        "WHERE s.key = ?",
        (key,),
    ).fetchone()
    return _session(row) if row else None


def find_sessions(connection: sqlite3.Connection, text: str) -> list[SessionSummary]:
    """Sessions ``text`` names: a key, a session id, a transcript path, or a prefix of an id."""
    exact = connection.execute(
        f"SELECT {_SESSION_COLUMNS} FROM sessions s JOIN projects p ON p.id = s.project "
        "WHERE s.key = ? OR s.session_id = ? OR s.path = ? ORDER BY s.key",
        (text, text, text),
    ).fetchall()
    if exact:
        return [_session(row) for row in exact]
    pattern = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    rows = connection.execute(
        f"SELECT {_SESSION_COLUMNS} FROM sessions s JOIN projects p ON p.id = s.project "
        "WHERE s.key LIKE ? ESCAPE '\\' OR s.session_id LIKE ? ESCAPE '\\' ORDER BY s.key",
        (pattern, pattern),
    )
    return [_session(row) for row in rows]


def session_row(connection: sqlite3.Connection, key: str) -> int | None:
    """The internal row id of a session."""
    row = connection.execute("SELECT id FROM sessions WHERE key = ?", (key,)).fetchone()
    return int(row[0]) if row else None


def file_lines(connection: sqlite3.Connection, key: str) -> dict[str, int]:
    """For each stored file of a session, the line number stored up to (for live updates)."""
    rows = connection.execute(
        "SELECT f.path, f.lines FROM files f JOIN sessions s ON s.id = f.session WHERE s.key = ?",
        (key,),
    )
    return {str(row[0]): int(row[1]) for row in rows}


@dataclass(frozen=True, slots=True)
class Totals:
    """How much the index holds."""

    projects: int
    sessions: int
    archived: int
    files: int
    stored_bytes: int


def totals(connection: sqlite3.Connection) -> Totals:
    """Counts for the home page and ``cclens index``."""
    sessions, archived = connection.execute(
        "SELECT count(*), count(archived) FROM sessions"
    ).fetchone()
    projects = connection.execute("SELECT count(DISTINCT project) FROM sessions").fetchone()[0]
    files, stored = connection.execute(
        "SELECT count(*), coalesce(sum(offset), 0) FROM files"
    ).fetchone()
    return Totals(projects, sessions, archived, files, stored)
