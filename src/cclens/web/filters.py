"""The filters the dashboard shares with the search page: project and dates.

The query parameters are the search page's: ``project`` (a project's folder name or working
directory, or a part of either, matched as search matches it), ``since`` and ``until``
(``YYYY-MM-DD``, both days included). The dashboard adds ``by`` (``day``, ``week`` or
``month``), the grouping of its charts over time. Days are local days of the machine serving
the page, as in ``cclens stats``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Literal, TypeAlias

from starlette.datastructures import QueryParams

from ..figures.period import DateError, Period, parse_date
from ..index import ProjectSummary
from ..index.read.bounds import check_length
from ..readers.agents import AGENTS

TimeGrouping: TypeAlias = Literal["day", "week", "month"]
TIME_GROUPINGS: tuple[TimeGrouping, ...] = ("day", "week", "month")


class FilterError(ValueError):
    """A filter value that cannot be used; the message names the parameter."""


@dataclass(frozen=True, slots=True)
class UsageFilters:
    """Which sessions and days the dashboard adds up, and how it groups them over time.

    ``project``, ``since`` and ``until`` keep the text given (to fill the form again).
    """

    project: str = ""
    since: str = ""
    until: str = ""
    by: TimeGrouping = "day"
    #: Only this agent's sessions (``claude``, ``codex``…; empty: every agent's).
    agent: str = ""

    @property
    def period(self) -> Period:
        """The days chosen, in the machine's local time (``FilterError`` for a bad date)."""
        since, until = day_parameter("since", self.since), day_parameter("until", self.until)
        return Period(since=since, until=until)

    def query(self, **changes: str) -> dict[str, str]:
        """The parameters that give these filters (with ``changes``), empty ones left out."""
        values = {
            "project": self.project,
            "agent": self.agent,
            "since": self.since,
            "until": self.until,
        }
        values["by"] = self.by if self.by != "day" else ""
        values.update(changes)
        return {name: value for name, value in values.items() if value}


def day_parameter(name: str, text: str) -> date | None:
    """The day a query parameter names (``None`` when empty); :class:`FilterError` naming the
    parameter when it is not a date."""
    if not text:
        return None
    try:
        return parse_date(text)
    except DateError as error:
        raise FilterError(f"{name}: {error}") from None


def usage_filters(params: QueryParams) -> UsageFilters:
    """Read ``project``, ``agent``, ``since``, ``until`` and ``by``; a bad value raises
    ``FilterError``."""
    by = params.get("by") or "day"
    grouping = next((known for known in TIME_GROUPINGS if known == by), None)
    if grouping is None:
        raise FilterError(f"by: {by!r} is not one of {', '.join(TIME_GROUPINGS)}")
    since, until = params.get("since", "").strip(), params.get("until", "").strip()
    day_parameter("since", since)  # raise now, so the caller can say what is wrong
    day_parameter("until", until)
    check_length("project", params.get("project"))
    agent = params.get("agent", "").strip()
    if agent and agent not in AGENTS:
        raise FilterError(f"agent: {agent!r} is not one of {', '.join(AGENTS)}")
    return UsageFilters(
        project=params.get("project", "").strip(),
        since=since,
        until=until,
        by=grouping,
        agent=agent,
    )


def matching_projects(projects: list[ProjectSummary], wanted: str) -> list[ProjectSummary]:
    """The projects ``wanted`` names, as the search filter finds them.

    A project whose folder name or working directory is ``wanted`` is the one meant; otherwise
    every project whose folder name or working directory contains it (ignoring case).
    ``wanted`` empty means every project.
    """
    if not wanted:
        return list(projects)
    exact = [p for p in projects if wanted in (p.slug, p.cwd)]
    if exact:
        return exact
    folded = wanted.casefold()
    return [
        p
        for p in projects
        if folded in p.slug.casefold() or (p.cwd is not None and folded in p.cwd.casefold())
    ]


__all__ = [
    "TIME_GROUPINGS",
    "FilterError",
    "TimeGrouping",
    "UsageFilters",
    "day_parameter",
    "matching_projects",
    "usage_filters",
]
