"""Which sessions an export takes: by date, project and session id.

Shared by the Parquet dataset and the OpenTelemetry export, which both take ``--since``,
``--project`` and (for traces) ``--session``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from ..figures.period import parse_moment
from ..figures.projects import project_matches
from ..model.entries import Diagnostic
from ..model.session import Session
from ..readers.agents import discover, load
from ..readers.claude.isolate import each_isolated
from ..readers.discovery import Discovery, SessionFile


@dataclass(frozen=True, slots=True)
class SessionFilter:
    """What to keep.

    Attributes:
        since: keep sessions with a record at or after this moment (their last activity).
        projects: keep the sessions of these projects, each given as its folder name, its
            path or the end of its path (as ``cclens stats --project`` takes it); empty keeps
            every project.
        sessions: keep sessions whose id equals or starts with one of these, or whose file is
            one of these paths; empty keeps every session.
    """

    since: datetime | None = None
    projects: tuple[str, ...] = ()
    sessions: tuple[str, ...] = ()

    def wants_file(self, file: SessionFile) -> bool:
        """Whether a discovered file may hold a wanted session (checked before reading it).

        A file last modified before ``since`` cannot hold a record written after it, so it is
        skipped unread; the exact test on record times is :meth:`wants_session`.
        """
        if self.projects and not any(project_matches(file.project, p) for p in self.projects):
            return False
        if self.sessions and not any(
            file.session_id == key or file.session_id.startswith(key) or str(file.path) == key
            for key in self.sessions
        ):
            return False
        if self.since is not None:
            newest = max([file.mtime, *(_mtime(agent.path) for agent in file.subagents)])
            if newest < self.since.timestamp():
                return False
        return True

    def wants_session(self, session: Session) -> bool:
        """Whether a loaded session is wanted: its last record is at or after ``since``."""
        if self.since is None:
            return True
        ended = last_activity(session)
        return ended is not None and ended >= self.since


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def parse_since(text: str) -> datetime:
    """``YYYY-MM-DD``, ``YYYYMMDD`` or an ISO 8601 date and time, as an aware datetime.

    A date means its midnight and a time without an offset means local time, because that is
    what a person typing ``--since 2025-06-01`` on their machine means (read by
    :func:`cclens.figures.period.parse_moment`, like every date cclens is given).

    Raises ``ValueError`` with a readable message for anything else.
    """
    return parse_moment(text)


def last_activity(session: Session) -> datetime | None:
    """The time of the session's last record, its subagents' records included."""
    times = [s.ended for s in session.all_sessions() if s.ended is not None]
    return max(times) if times else None


def first_activity(session: Session) -> datetime | None:
    """The time of the session's first record, its subagents' records included."""
    times = [s.started for s in session.all_sessions() if s.started is not None]
    return min(times) if times else None


@dataclass(slots=True)
class Selection:
    """Discovered files that pass a filter, and what could not be read."""

    discovery: Discovery
    files: list[SessionFile]
    #: Paths that could not be read, with the reason (from discovery and from loading).
    errors: list[tuple[Path, str]] = field(default_factory=list)

    @property
    def orphans(self) -> int:
        """Selected subagent files whose session was not found (each is exported as a session
        of its own)."""
        return sum(1 for file in self.files if file.orphan is not None)


def select_files(roots: Sequence[Path], wanted: SessionFilter) -> Selection:
    """Discover the sessions under ``roots`` (Claude's own folders when empty) and keep the
    files ``wanted`` may want."""
    found = discover(*roots)
    files = [file for file in found.sessions if wanted.wants_file(file)]
    return Selection(found, files, list(found.errors))


def load_selected(selection: Selection, wanted: SessionFilter) -> Iterator[Session]:
    """Load the selected files one by one and yield the wanted sessions.

    A file that cannot be read (or that cclens fails on) is added to ``selection.errors`` and
    skipped; malformed lines are in each session's ``diagnostics``.
    """
    problems: list[Diagnostic] = []
    for session in each_isolated(selection.files, load, lambda file: file.path, problems):
        if wanted.wants_session(session):
            yield session
    selection.errors.extend(
        (problem.path, problem.reason.removeprefix("cannot read: ")) for problem in problems
    )


def diagnostics(session: Session) -> list[Diagnostic]:
    """Malformed lines of the session and of its subagent files."""
    return [d for s in session.all_sessions() for d in s.diagnostics]


__all__ = [
    "Selection",
    "SessionFilter",
    "diagnostics",
    "first_activity",
    "last_activity",
    "load_selected",
    "parse_since",
    "select_files",
]
