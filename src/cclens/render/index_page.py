"""The index page of a bulk export: every exported session, grouped by project, with links."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from markupsafe import Markup

from .assets import CSP, page_css, page_js
from .environment import template_environment
from .options import DEFAULT_OPTIONS, RenderOptions

__all__ = ["IndexEntry", "IndexProject", "group_entries", "render_index_page"]


@dataclass(frozen=True)
class IndexEntry:
    """One exported session as the index lists it.

    ``href`` is the page's path relative to the index (``<project>/<session-id>.html``), empty
    when the session could not be exported; ``error`` then says why. ``malformed`` counts the
    transcript lines that could not be read (the page was still written).
    """

    project: str
    session_id: str
    title: str
    href: str
    started: datetime | None = None
    duration: timedelta | None = None
    prompts: int = 0
    responses: int = 0
    tool_calls: int = 0
    #: Calls that failed, and every token of the responses (as the session's header counts).
    failed: int = 0
    tokens: int = 0
    #: The transcript's path.
    path: str = ""
    subagents: int = 0
    size: int = 0
    malformed: int = 0
    error: str = ""
    #: A subagent transcript whose session file is gone, exported as a session of its own.
    orphan: bool = False


@dataclass(frozen=True)
class IndexProject:
    """A project's sessions on the index, newest first."""

    name: str
    entries: list[IndexEntry]


def group_entries(entries: Iterable[IndexEntry]) -> list[IndexProject]:
    """``entries`` by project (projects by name), each project's sessions newest first."""
    projects: dict[str, list[IndexEntry]] = {}
    for entry in entries:
        projects.setdefault(entry.project, []).append(entry)
    oldest = datetime.min

    def newest_first(entry: IndexEntry) -> tuple[bool, datetime, str]:
        started = entry.started.replace(tzinfo=None) if entry.started else oldest
        return (entry.started is not None, started, entry.session_id)

    return [
        IndexProject(name, sorted(found, key=newest_first, reverse=True))
        for name, found in sorted(projects.items())
    ]


def render_index_page(
    entries: Iterable[IndexEntry], options: RenderOptions = DEFAULT_OPTIONS, *, title: str = ""
) -> str:
    """The index document: one self-contained file (CSS inline, same CSP as session pages)."""
    listed = list(entries)
    projects = group_entries(listed)
    template = template_environment().get_template("export_index.html")
    return template.render(
        projects=projects,
        count=len(listed),
        failed=sum(1 for entry in listed if entry.error),
        title=title or "Claude Code sessions",
        options=options,
        csp=CSP,
        css=Markup(page_css()),
        js=Markup(page_js()),
    )
