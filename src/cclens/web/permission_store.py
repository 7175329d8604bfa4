"""The permission audit of the index's projects, kept until a session or a settings file changes.

Each project is audited by :func:`cclens.reports.permission_audit.permission_audit` over its
sessions loaded from the index. User settings come from the Claude folder the project's
transcripts were read from (a served ``--claude-dir``, else the folder holding ``projects/``),
project and local settings from the working directories its sessions ran in. Settings files
are only read. An audit is kept until one of the project's sessions changes in the index or
one of those settings files changes on disk (its size or modification time): applying a
suggested rule shows on the next view.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from ..index import Index, ProjectSummary, SessionSummary
from ..permissions import Suggestion, claude_config_dir, merge_same, settings_paths
from ..readers.claude import Diagnostic
from ..readers.claude.isolate import each_isolated
from ..reports.permission_audit import ProjectAudit, permission_audit
from .listing import IndexListing
from .recent import Recent

_KEPT_AUDITS = 8
#: Suggestions an overview row keeps.
_ROW_SUGGESTIONS = 5

#: The sessions' ``(key, revision)`` and each settings file's ``(path, mtime, size)``.
Signature = tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int, int], ...]]


@dataclass(frozen=True, slots=True)
class ProjectPermissions:
    """The audit of one project of the index.

    ``audits`` has one :class:`ProjectAudit` per working directory its sessions ran in (each
    has its own project settings). ``session_keys`` maps session ids to the index's keys, for
    links to a call (``/sessions/{key}#tool-{id}``). ``diagnostics`` are the malformed lines
    of its transcripts.
    """

    project: ProjectSummary
    claude_dir: str
    audits: list[ProjectAudit]
    session_keys: dict[str, str]
    diagnostics: list[str]

    @property
    def calls(self) -> int:
        return sum(len(audit.calls) for audit in self.audits)

    def count(self, behavior: str) -> int:
        """Calls today's rules ``allow``, ``ask`` about or ``deny``."""
        return sum(getattr(tool, behavior) for audit in self.audits for tool in audit.tools)

    @property
    def rejected(self) -> int:
        return sum(len(audit.rejected) for audit in self.audits)

    def suggestions(self) -> list[Suggestion]:
        """Every suggested rule of the project, once per settings file, best first (see
        :func:`cclens.permissions.rank`)."""
        return merge_same(s for audit in self.audits for s in audit.suggestions)


@dataclass(frozen=True, slots=True)
class PermissionsRow:
    """One project in the overview: its decisions counted, and its best suggestions."""

    project: ProjectSummary
    claude_dir: str
    sessions: int
    calls: int
    allow: int
    ask: int
    deny: int
    rejected: int
    suggestions: list[Suggestion]


def _row(found: ProjectPermissions, sessions: int) -> PermissionsRow:
    return PermissionsRow(
        project=found.project,
        claude_dir=found.claude_dir,
        sessions=sessions,
        calls=found.calls,
        allow=found.count("allow"),
        ask=found.count("ask"),
        deny=found.count("deny"),
        rejected=found.rejected,
        suggestions=found.suggestions()[:_ROW_SUGGESTIONS],
    )


def _stat(path: str) -> tuple[str, int, int]:
    try:
        found = os.stat(path)
    except (OSError, ValueError):  # ValueError: a path no file can have (a NUL in it)
        return (path, -1, -1)
    return (path, found.st_mtime_ns, found.st_size)


def _summary_path(summary: SessionSummary) -> Path:
    return Path(summary.path)


class AuditStopped(Exception):
    """An overview left unfinished: the server is stopping."""


class PermissionsStore:
    """Permission audits of the index's projects.

    ``claude_dirs`` are the served Claude folders; ``home`` is what ``~`` means in rules (the
    current user's home by default). Once ``stopping`` is set, an overview under way stops at
    the next project (:class:`AuditStopped`): the server does not wait for a whole audit, nor
    leaves one reading the index after it closed.
    """

    def __init__(
        self,
        index: Index,
        claude_dirs: Sequence[Path],
        *,
        listing: IndexListing | None = None,
        home: str | None = None,
        stopping: threading.Event | None = None,
    ) -> None:
        self.index = index
        self.claude_dirs = list(claude_dirs)
        self.listing = listing if listing is not None else IndexListing(index)
        self.home = home if home is not None else os.path.expanduser("~")
        self._lock = threading.Lock()
        self._audits: Recent[str, tuple[Signature, ProjectPermissions]] = Recent(_KEPT_AUDITS)
        self._rows: dict[str, tuple[Signature, PermissionsRow]] = {}
        self._stopping = stopping

    def claude_dir(self, sessions: Sequence[SessionSummary]) -> str:
        """The Claude folder whose ``settings.json`` applies to these sessions."""
        for summary in sessions:
            path = Path(summary.path)
            for root in self.claude_dirs:
                if path.is_relative_to(root):
                    return str(root)
            for parent in path.parents:
                if parent.name == "projects":
                    return str(parent.parent)
        return claude_config_dir(os.environ, home=self.home)

    def _signature(self, sessions: Sequence[SessionSummary], claude_dir: str) -> Signature:
        paths: set[str] = set()
        for project_dir in {summary.cwd or None for summary in sessions}:
            paths.update(settings_paths(claude_dir=claude_dir, project_dir=project_dir).values())
        revisions = tuple(sorted((summary.key, summary.revision) for summary in sessions))
        return (revisions, tuple(_stat(path) for path in sorted(paths)))

    def _audit(self, project: ProjectSummary, sessions: list[SessionSummary]) -> ProjectPermissions:
        claude_dir = self.claude_dir(sessions)
        signature = self._signature(sessions, claude_dir)
        cached = self._audits.get(project.slug)
        if cached is not None and cached[0] == signature:
            return cached[1]
        failed: list[Diagnostic] = []
        found = each_isolated(
            sessions, lambda summary: self.index.load(summary.key), _summary_path, failed
        )
        loaded = [session for session in found if session is not None]
        # Oldest first: the calls are listed in the order they were made.
        loaded.sort(key=lambda s: (s.started is None, s.started or datetime.min, str(s.path)))
        audit = permission_audit(loaded, claude_dir=claude_dir, home=self.home)
        diagnostics = [str(problem) for problem in failed] + [
            str(diagnostic)
            for session in loaded
            for each in session.all_sessions()
            for diagnostic in each.diagnostics
        ]
        audited = ProjectPermissions(
            project=project,
            claude_dir=claude_dir,
            audits=audit.projects,
            session_keys={summary.session_id: summary.key for summary in reversed(sessions)},
            diagnostics=list(dict.fromkeys(diagnostics)),
        )
        self._audits.put(project.slug, (signature, audited))
        self._rows[project.slug] = (signature, _row(audited, len(sessions)))
        return audited

    def project(self, slug: str) -> ProjectPermissions | None:
        """The audit of the project ``slug``, or ``None`` when the index has no such project."""
        with self._lock:
            listing = self.listing.current()
            project = next((p for p in listing.projects if p.slug == slug), None)
            if project is None:
                return None
            sessions = [s for s in listing.sessions.values() if s.project == slug]
            return self._audit(project, sessions)

    def _overview(self, *, compute: bool) -> list[PermissionsRow] | None:
        listing = self.listing.current()
        by_project: dict[str, list[SessionSummary]] = {}
        for summary in listing.sessions.values():
            by_project.setdefault(summary.project, []).append(summary)
        rows: list[PermissionsRow] = []
        for project in listing.projects:
            if self._stopping is not None and self._stopping.is_set():
                raise AuditStopped("the server is stopping")
            sessions = by_project.get(project.slug, [])
            kept = self._rows.get(project.slug)
            signature = self._signature(sessions, self.claude_dir(sessions))
            if kept is None or kept[0] != signature:
                if not compute:
                    return None
                self._audit(project, sessions)
                kept = self._rows[project.slug]
            rows.append(kept[1])
        for gone in set(self._rows) - {p.slug for p in listing.projects}:
            del self._rows[gone]
        rows = [row for row in rows if row.calls]
        return sorted(rows, key=lambda row: (-row.ask, -row.calls, row.project.slug))

    def overview(self) -> list[PermissionsRow]:
        """Every project with recorded tool calls, those with most prompts to answer first."""
        with self._lock:
            rows = self._overview(compute=True)
        assert rows is not None
        return rows

    def cached_overview(self) -> list[PermissionsRow] | None:
        """:meth:`overview` if every project's audit is at hand, without auditing anything
        (``None`` otherwise, or while another request audits)."""
        if not self._lock.acquire(blocking=False):
            return None
        try:
            return self._overview(compute=False)
        finally:
            self._lock.release()


__all__ = ["AuditStopped", "PermissionsRow", "PermissionsStore", "ProjectPermissions"]
