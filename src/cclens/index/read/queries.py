"""Read the project and session lists back from the index."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import PurePath
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import msgspec

from .bounds import check_length

if TYPE_CHECKING:
    from ...readers.resume import ResumeCommand


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
    #: (see :mod:`cclens.figures.figures`).
    prompts: int = 0
    responses: int = 0
    errors: int = 0
    cache_write_1h_tokens: int = 0
    #: US dollars of the priced responses (``None`` when none had a price).
    cost: float | None = None
    #: Responses with no price (their tokens are counted, their cost is not).
    unpriced: int = 0

    @property
    def name(self) -> str:
        """The project's working directory when known, else its folder name."""
        return project_name(self.slug, self.cwd)

    @property
    def url(self) -> str:
        """The project's page in ``cclens serve``."""
        return f"/projects/{quote(self.slug, safe='')}"

    def as_json(self) -> dict[str, Any]:
        """The project as plain JSON (``/api/projects``, ``cclens sessions --projects``)."""
        return {
            "id": self.slug,
            "name": self.name,
            "cwd": self.cwd,
            "sessions": self.sessions,
            "archived_sessions": self.archived,
            "first_activity": _iso(self.first_activity),
            "last_activity": _iso(self.last_activity),
            "messages": self.messages,
            "prompts": self.prompts,
            "responses": self.responses,
            "tool_calls": self.tool_calls,
            "failed_tool_calls": self.errors,
            "tokens": _tokens(self),
            "cost": self.cost,
            "unpriced_responses": self.unpriced,
            "url": self.url,
        }

    @property
    def tokens(self) -> int:
        """Every token of every response: input, output, cache reads and writes."""
        return _every_token(self)


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
    #: Prompts and responses counted once (see :mod:`cclens.figures.figures`); ``errors``
    #: are the calls that failed; ``cache_write_1h_tokens`` are part of ``cache_write_tokens``.
    prompts: int = 0
    responses: int = 0
    cache_write_1h_tokens: int = 0
    #: US dollars of the priced responses (``None`` when none had a price).
    cost: float | None = None
    #: Responses with no price (their tokens are counted, their cost is not).
    unpriced: int = 0
    #: The highest Claude Code version that wrote to the session.
    version: str | None = None
    #: The project's working directory (its folder name when unknown).
    project_path: str = ""
    #: The agent that wrote the session (see :mod:`cclens.readers.agents`).
    agent: str = "claude"

    @property
    def archived(self) -> bool:
        return self.archived_at is not None

    @property
    def orphan(self) -> bool:
        """A subagent transcript whose session file is gone, kept as a session of its own."""
        return PurePath(self.path).name.startswith("agent-")

    @property
    def last_activity(self) -> datetime | None:
        """When the session last changed: its last record, else its first."""
        return self.ended or self.started

    @property
    def duration_seconds(self) -> float | None:
        if self.started is None or self.ended is None:
            return None
        return (self.ended - self.started).total_seconds()

    @property
    def tokens(self) -> int:
        """Every token of every response: input, output, cache reads and writes."""
        return _every_token(self)

    @property
    def url(self) -> str:
        """The session's page in ``cclens serve``."""
        return f"/sessions/{quote(self.key, safe='')}"

    @property
    def resume(self) -> ResumeCommand:
        """The command that resumes the session in the directory it ran in."""
        from ...readers.resume import resume_command

        return resume_command(self.session_id, self.cwd, agent=self.agent)

    def as_json(self) -> dict[str, Any]:
        """The session's summary as plain JSON (the API and ``cclens sessions --json``)."""
        return {
            "id": self.key,
            "session_id": self.session_id,
            "agent": self.agent,
            "project": self.project,
            "project_path": self.project_path or self.project,
            "path": self.path,
            "title": self.title,
            "title_source": self.title_source,
            "first_prompt": self.first_prompt,
            "cwd": self.cwd,
            "git_branch": self.git_branch,
            "started": _iso(self.started),
            "ended": _iso(self.ended),
            "last_activity": _iso(self.last_activity),
            "duration_seconds": self.duration_seconds,
            "messages": self.messages,
            "prompts": self.prompts,
            "responses": self.responses,
            "tool_calls": self.tool_calls,
            "errors": self.errors,
            "subagents": self.subagents,
            "orphan": self.orphan,
            "tokens": _tokens(self),
            "cost": self.cost,
            "unpriced_responses": self.unpriced,
            "models": self.models,
            "versions": self.versions,
            "version": self.version,
            "malformed_lines": self.malformed,
            "archived": self.archived,
            "archived_at": _iso(self.archived_at),
            "revision": self.revision,
            "resume": self.resume.as_json(),
            "url": self.url,
        }


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _every_token(summary: ProjectSummary | SessionSummary) -> int:
    return (
        summary.input_tokens
        + summary.output_tokens
        + summary.cache_read_tokens
        + summary.cache_write_tokens
    )


def _tokens(summary: ProjectSummary | SessionSummary) -> dict[str, int]:
    return {
        "total": summary.tokens,
        "input": summary.input_tokens,
        "output": summary.output_tokens,
        "cache_read": summary.cache_read_tokens,
        "cache_write": summary.cache_write_tokens,
        "cache_write_5m": summary.cache_write_tokens - summary.cache_write_1h_tokens,
        "cache_write_1h": summary.cache_write_1h_tokens,
    }


PROJECT_COLUMNS = """
    p.slug, p.cwd, count(s.id), count(s.archived), min(s.started),
    max(coalesce(s.ended, s.started)), coalesce(sum(s.messages), 0),
    coalesce(sum(s.tool_calls), 0), coalesce(sum(s.input_tokens), 0),
    coalesce(sum(s.output_tokens), 0), coalesce(sum(s.cache_read_tokens), 0),
    coalesce(sum(s.cache_write_tokens), 0), coalesce(sum(s.prompts), 0),
    coalesce(sum(s.responses), 0), coalesce(sum(s.errors), 0),
    coalesce(sum(s.cache_write_1h_tokens), 0), sum(s.cost), coalesce(sum(s.unpriced), 0)
"""

SESSION_COLUMNS = """
    s.key, s.session_id, p.slug, s.path, s.title, s.title_source, s.first_prompt, s.cwd,
    s.git_branch, s.started, s.ended, s.messages, s.tool_calls, s.errors, s.subagents,
    s.input_tokens, s.output_tokens, s.cache_read_tokens, s.cache_write_tokens, s.models,
    s.versions, s.malformed, s.archived, s.revision, s.prompts, s.responses,
    s.cache_write_1h_tokens, s.cost, s.unpriced, s.version, coalesce(p.cwd, p.slug), s.agent
"""


def project_from_row(row: Any) -> ProjectSummary:
    """A :class:`ProjectSummary` from a row of :data:`PROJECT_COLUMNS`."""
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
        cost=row[16],
        unpriced=row[17],
    )


def session_from_row(row: Any) -> SessionSummary:
    """A :class:`SessionSummary` from a row of :data:`SESSION_COLUMNS`."""
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
        cost=row[27],
        unpriced=row[28],
        version=row[29],
        project_path=row[30],
        agent=row[31],
    )


def get_project(connection: sqlite3.Connection, slug: str) -> ProjectSummary | None:
    """One project by its folder name."""
    row = connection.execute(
        f"SELECT {PROJECT_COLUMNS} FROM projects p JOIN sessions s ON s.project = p.id "
        "WHERE p.slug = ? GROUP BY p.id",
        (slug,),
    ).fetchone()
    return project_from_row(row) if row else None


def get_session(connection: sqlite3.Connection, key: str) -> SessionSummary | None:
    """One session by its key."""
    row = connection.execute(
        f"SELECT {SESSION_COLUMNS} FROM sessions s JOIN projects p ON p.id = s.project "
        "WHERE s.key = ?",
        (key,),
    ).fetchone()
    return session_from_row(row) if row else None


def find_sessions(connection: sqlite3.Connection, text: str) -> list[SessionSummary]:
    """Sessions ``text`` names: a key, a session id, a transcript path, or a prefix of an id.

    A key names its session alone: when one session id is in two project folders (keys ``X``
    and ``X-<hash>``), ``X`` is the first, and ``X-<hash>`` the second. Raises
    :class:`~cclens.index.read.bounds.FilterTooLong` for a text too long to be any of these.
    """
    check_length("the session", text)
    select = f"SELECT {SESSION_COLUMNS} FROM sessions s JOIN projects p ON p.id = s.project "
    keyed = connection.execute(select + "WHERE s.key = ?", (text,)).fetchall()
    if keyed:
        return [session_from_row(row) for row in keyed]
    exact = connection.execute(
        select + "WHERE s.session_id = ? OR s.path = ? ORDER BY s.key", (text, text)
    ).fetchall()
    if exact:
        return [session_from_row(row) for row in exact]
    pattern = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    rows = connection.execute(
        f"SELECT {SESSION_COLUMNS} FROM sessions s JOIN projects p ON p.id = s.project "
        "WHERE s.key LIKE ? ESCAPE '\\' OR s.session_id LIKE ? ESCAPE '\\' ORDER BY s.key",
        (pattern, pattern),
    )
    return [session_from_row(row) for row in rows]


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
