"""The dashboard's figures: tokens and cost over time, per tool and per model, and activity.

Worked out from the responses and tool calls the index stores (each counted once, as the
analytics count them) with the functions ``cclens stats`` uses
(:mod:`cclens.figures.aggregate`), so every row has the shape and the value of a ``cclens
stats --json`` row for the same sessions and days.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import msgspec

from ..figures.aggregate import (
    DayHours,
    PricedResponse,
    UnpricedModel,
    UsageRow,
    activity,
    aggregate,
    day_hours,
    total_row,
    unpriced_models,
)
from ..figures.figures import CallCounts
from ..figures.inventory import CallFact, calls_usage
from ..figures.pricing import PriceTable
from ..reports.stats import PriceInfo
from .filters import TimeGrouping, UsageFilters


class FiltersUsed(msgspec.Struct, kw_only=True):
    """The filters as given (``null`` for none)."""

    project: str | None
    since: str | None
    until: str | None
    by: TimeGrouping
    agent: str | None = None


class DashboardFigures(msgspec.Struct, kw_only=True):
    """What ``GET /api/stats`` answers (see docs/web.md).

    ``over_time`` is grouped by ``filters.by``; ``days`` by day (its ``sessions`` are the
    sessions active each day); ``tools`` by tool (tokens split among a response's calls, and
    each tool's calls, errors and durations in ``tool``); ``models`` by model; ``agents`` by
    the agent that wrote the sessions (``claude``, ``codex``...). ``activity`` counts responses
    per local weekday (Monday first) and hour; ``day_hours`` per local day and hour, for the
    last 31 days with responses. ``prompts`` and ``tool_calls``
    (by status) are counted as ``cclens stats`` counts them. ``generation`` grows each time the
    index's sessions change.
    """

    filters: FiltersUsed
    projects: list[str]
    timezone: str
    prices: PriceInfo
    sessions: int
    prompts: int
    responses: int
    tool_calls: CallCounts
    total: UsageRow
    over_time: list[UsageRow]
    days: list[UsageRow]
    tools: list[UsageRow]
    models: list[UsageRow]
    agents: list[UsageRow]
    unpriced: list[UnpricedModel]
    activity: list[list[int]]
    day_hours: list[DayHours]
    generation: int


@dataclass(frozen=True, slots=True)
class Selection:
    """Some sessions merged once: their responses (priced) and their tool calls, each once."""

    projects: tuple[str, ...]
    sessions: int
    priced: list[PricedResponse]
    calls: list[CallFact]
    prompts: list[datetime | None]


def figures(
    selection: Selection, filters: UsageFilters, *, table: PriceTable, generation: int
) -> DashboardFigures:
    """The figures of ``selection`` for the days of ``filters``, grouped by ``filters.by``."""
    period = filters.period
    items = [item for item in selection.priced if period.contains(item.response.timestamp)]
    calls = [call for call in selection.calls if period.contains(call.started)]
    tools = calls_usage(calls)
    over_time = aggregate(items, filters.by, period=period)
    return DashboardFigures(
        filters=FiltersUsed(
            project=filters.project or None,
            since=filters.since or None,
            until=filters.until or None,
            by=filters.by,
            agent=filters.agent or None,
        ),
        projects=list(selection.projects),
        timezone=period.zone_name,
        prices=PriceInfo(as_of=table.as_of, source=table.source, overrides=list(table.overrides)),
        sessions=selection.sessions,
        prompts=sum(1 for when in selection.prompts if period.contains(when)),
        responses=len(items),
        tool_calls=CallCounts.of(call.status for call in calls),
        total=total_row(items),
        over_time=over_time,
        days=over_time if filters.by == "day" else aggregate(items, "day", period=period),
        tools=aggregate(items, "tool", period=period, tools=tools),
        models=aggregate(items, "model", period=period),
        agents=aggregate(items, "agent", period=period),
        unpriced=unpriced_models(items),
        activity=activity(items, period),
        day_hours=day_hours(items, period),
        generation=generation,
    )


__all__ = ["DashboardFigures", "FiltersUsed", "Selection", "figures"]
