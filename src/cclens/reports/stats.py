"""``cclens stats``: read the transcripts of a period and report tokens and cost by group.

Files are chosen before they are parsed: a project filter picks project folders, and a file
last written before ``since`` is skipped (it cannot hold later records). Every file that may
hold records of the period is read, and responses and tool calls are then kept by their own
timestamps.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path

import msgspec

from ..figures.aggregate import (
    GroupBy,
    PricedResponse,
    UnpricedModel,
    UsagePart,
    UsageRow,
    activity,
    aggregate,
    aggregate_parts,
    aggregate_tool_parts,
    part_of,
    price_responses,
    total_parts,
    unpriced_parts,
)
from ..figures.blocks import five_hour_blocks
from ..figures.figures import CallCounts, owned_prompts
from ..figures.inventory import STATUSES, ToolUsage, call_facts, calls_usage
from ..figures.period import Period, select_files
from ..figures.pricing import PriceTable, load_price_table
from ..figures.projects import project_matches
from ..figures.usage import collect_responses
from ..index import Index
from ..index.read.usage_query import QUARTER_HOUR, BucketSum, UsageSelection
from ..model.entries import Diagnostic
from ..model.session import Session
from ..readers.agents import discover, load
from ..readers.claude.isolate import each_isolated, unreadable_reasons
from ..readers.discovery import Discovery, SessionFile


class PriceInfo(msgspec.Struct, kw_only=True):
    """Which price table priced the report."""

    as_of: str
    source: str
    overrides: list[str]


class StatsReport(msgspec.Struct, kw_only=True):
    """What ``cclens stats --json`` prints (see ``docs/stats.md``)."""

    by: GroupBy
    since: str | None
    until: str | None
    project: str | None
    timezone: str
    prices: PriceInfo
    #: Transcript files read (sessions and subagents) and sessions among them.
    files_read: int
    sessions_read: int
    #: Prompts typed in the period, each counted once.
    prompts: int
    #: API responses in the period, each counted once.
    responses: int
    #: Tool calls started in the period by status, each counted once.
    tool_calls: CallCounts
    total: UsageRow
    rows: list[UsageRow]
    unpriced: list[UnpricedModel]
    #: Responses per local weekday (Monday first) and hour of the day.
    activity: list[list[int]]
    #: Malformed lines, as ``path:line: reason``; they never stop a run.
    diagnostics: list[str]
    #: Where the figures come from: ``index`` or ``transcripts`` (read directly).
    source: str = "transcripts"
    #: ``--token-limit`` as a number of tokens (``--by block``), or ``null``.
    token_limit: int | None = None
    #: Paths that could not be read, as ``path: reason`` (the rest was read).
    unreadable: list[str] = msgspec.field(default_factory=list)


@dataclass(slots=True)
class UsageSummary:
    """Tokens and cost of some loaded sessions: grouped rows, total and what was unpriced."""

    rows: list[UsageRow]
    total: UsageRow
    unpriced: list[UnpricedModel]
    activity: list[list[int]]
    responses: int
    prompts: int
    tool_calls: CallCounts


def grouped_rows(
    parts: Sequence[UsagePart], by: GroupBy, *, now: datetime | None = None
) -> list[UsageRow]:
    """``parts`` as the rows of any grouping but ``tool`` (blocks included)."""
    if by == "block":
        return five_hour_blocks(parts, now=now)
    return aggregate_parts(parts, by)


def summarize_priced(
    items: Sequence[PricedResponse],
    *,
    by: GroupBy,
    period: Period,
    prompts: int,
    tool_calls: CallCounts,
    tools: Mapping[str, ToolUsage] | None = None,
    now: datetime | None = None,
) -> UsageSummary:
    """Tokens and cost of priced responses, grouped ``by`` (``tools``: the calls' figures for
    ``by="tool"``); ``prompts`` and ``tool_calls`` are counted by the caller."""
    parts = [part_of(item, period) for item in items]
    if by == "tool":
        rows = aggregate(items, by, period=period, tools=tools)
    else:
        rows = grouped_rows(parts, by, now=now)
    return UsageSummary(
        rows=rows,
        total=total_parts(parts),
        unpriced=unpriced_parts(parts),
        activity=activity(items, period),
        responses=len(items),
        prompts=prompts,
        tool_calls=tool_calls,
    )


def summarize(
    sessions: Sequence[Session],
    *,
    by: GroupBy = "day",
    period: Period | None = None,
    prices: PriceTable | None = None,
    now: datetime | None = None,
) -> UsageSummary:
    """Tokens and cost of ``sessions`` (with their subagents) in ``period``, grouped ``by``."""
    period = period or Period()
    table = prices or load_price_table()
    responses = [r for r in collect_responses(sessions) if period.contains(r.timestamp)]
    items = price_responses(responses, table)
    calls = [fact for fact in call_facts(sessions) if period.contains(fact.started)]
    return summarize_priced(
        items,
        by=by,
        period=period,
        prompts=sum(1 for _, item in owned_prompts(sessions) if period.contains(item.timestamp)),
        tool_calls=CallCounts.of(fact.status for fact in calls),
        tools=calls_usage(calls) if by == "tool" else None,
        now=now,
    )


def index_selection(
    index: Index,
    period: Period,
    project: str | None,
    sessions: Sequence[str] | None = None,
    agent: str | None = None,
    *,
    at: datetime | None = None,
) -> UsageSelection:
    """What the index selects for ``period``, ``project`` (see :func:`project_matches`) and
    ``agent``; with ``at``, only what was recorded at that moment or before."""
    projects = None
    if project is not None:
        projects = tuple(s for s in index.usage_projects() if project_matches(s, project))
    start = period.start
    end = period.end.timestamp() if period.end is not None else None
    if at is not None:
        # The selection's end is exclusive: what was recorded at ``at`` itself stood then.
        moment = math.nextafter(at.timestamp(), math.inf)
        end = moment if end is None else min(end, moment)
    return UsageSelection(
        start=start.timestamp() if start is not None else None,
        end=end,
        projects=projects,
        sessions=tuple(sessions) if sessions is not None else None,
        agent=agent,
    )


def _summed_parts(
    sums: Iterable[BucketSum], period: Period, *, minutes: bool
) -> tuple[list[UsagePart], list[list[int]]]:
    """The index's sums as parts (local days worked out once per bucket), and the responses
    per local weekday and hour (as :func:`cclens.figures.aggregate.activity`)."""
    places: dict[int, tuple[date, int, int]] = {}
    grid = [[0] * 24 for _ in range(7)]
    parts = []
    for each in sums:
        day: date | None = None
        minute: datetime | None = None
        if each.bucket is not None:
            place = places.get(each.bucket)
            if place is None:
                local = period.local(datetime.fromtimestamp(each.bucket, UTC))
                place = places[each.bucket] = (local.date(), local.weekday(), local.hour)
            day = place[0]
            grid[place[1]][place[2]] += each.responses
            if minutes:
                minute = datetime.fromtimestamp(each.bucket, UTC)
        parts.append(
            UsagePart(
                day=day,
                session_id=each.session_id,
                project=each.project,
                title=each.title,
                model=each.model,
                price=each.price,
                reason=each.reason,
                responses=each.responses,
                tokens=each.tokens,
                cost=each.cost,
                minute=minute,
                agent=each.agent,
            )
        )
    return parts, grid


def summarize_index(
    index: Index,
    *,
    by: GroupBy = "day",
    period: Period | None = None,
    project: str | None = None,
    prices: PriceTable | None = None,
    now: datetime | None = None,
    agent: str | None = None,
    at: datetime | None = None,
) -> UsageSummary:
    """What :func:`summarize` gives over every session the index holds (archived ones too;
    only ``agent``'s when given); with ``at``, as it stood at that moment (what was recorded
    later is left out).

    The index stores each response as the analytics count it, priced with the bundled table:
    with that table, the figures are summed in SQLite per quarter hour (per minute for
    blocks), session, model and price (by tool: per tools called, with the tokens' shares
    summed, and the calls read back), and those sums are grouped here; with another table,
    the responses are read back one by one and summed by the same functions :func:`summarize`
    uses.
    """
    period = period or Period()
    selection = index_selection(index, period, project, agent=agent, at=at)
    prompts, statuses = index.usage_counts(selection)
    tool_calls = CallCounts()
    for status in STATUSES:
        tool_calls.add(status, statuses.get(status, 0))
    if prices is None and index.usage_costs_current():
        sums = index.usage_sums(selection, seconds=60 if by == "block" else QUARTER_HOUR)
        parts, grid = _summed_parts(sums, period, minutes=by == "block")
        if by == "tool":
            inventory = calls_usage(index.usage_call_rows(selection))
            rows = aggregate_tool_parts(index.usage_tools(selection), inventory)
        else:
            rows = grouped_rows(parts, by, now=now)
        return UsageSummary(
            rows=rows,
            total=total_parts(parts),
            unpriced=unpriced_parts(parts),
            activity=grid,
            responses=sum(part.responses for part in parts),
            prompts=prompts,
            tool_calls=tool_calls,
        )
    table = prices or load_price_table()
    items = price_responses(index.usage_responses(selection), table)
    tools = calls_usage(index.usage_calls(selection)) if by == "tool" else None
    return summarize_priced(
        items, by=by, period=period, prompts=prompts, tool_calls=tool_calls, tools=tools, now=now
    )


@dataclass(slots=True)
class LoadedSessions:
    """Sessions loaded for a period, how many files that took, and the problems met."""

    sessions: list[Session]
    files: int
    problems: list[str]
    #: Paths that could not be read, as ``path: reason``.
    unreadable: list[str] = field(default_factory=list)


def load_period(
    found: Discovery, period: Period, project: str | None, agent: str | None = None
) -> LoadedSessions:
    """Load the sessions (orphan subagent files included) that may hold records of
    ``period`` (of ``project`` and ``agent`` when given)."""
    problems: list[str] = []
    files: list[SessionFile] = [
        file
        for file in select_files(found.sessions, period)
        if (project is None or project_matches(file.project, project))
        and (agent is None or file.agent == agent)
    ]
    loaded = LoadedSessions([], 0, problems, [f"{path}: {why}" for path, why in found.errors])
    failed: list[Diagnostic] = []
    for session in each_isolated(files, load, lambda file: file.path, failed):
        loaded.sessions.append(session)
        loaded.files += len({each.path for each in session.all_sessions()})
    loaded.unreadable.extend(unreadable_reasons(failed))
    for session in loaded.sessions:
        for each in session.all_sessions():
            problems.extend(str(diagnostic) for diagnostic in each.diagnostics)
    loaded.problems = list(dict.fromkeys(problems))
    return loaded


def usage_stats(
    paths: Sequence[Path | str] = (),
    *,
    by: GroupBy = "day",
    period: Period | None = None,
    project: str | None = None,
    prices: PriceTable | None = None,
    now: datetime | None = None,
    agent: str | None = None,
) -> StatsReport:
    """Tokens and cost of the transcripts under ``paths`` (every agent's folders when empty).

    ``period`` limits the report to whole local days; ``project`` to one project (see
    :func:`project_matches`); ``agent`` to one agent's sessions; ``prices`` defaults to the
    bundled table. Malformed lines and unreadable files are listed in ``diagnostics``; nothing
    here raises for bad input.
    """
    period = period or Period()
    table = prices or load_price_table()
    loaded = load_period(discover(*paths), period, project, agent)
    summary = summarize(loaded.sessions, by=by, period=period, prices=table, now=now)
    return _report(
        summary,
        by,
        period,
        project,
        table,
        files_read=loaded.files,
        sessions_read=len(loaded.sessions),
        diagnostics=loaded.problems,
        source="transcripts",
        unreadable=loaded.unreadable,
    )


def index_stats(
    index: Index,
    *,
    by: GroupBy = "day",
    period: Period | None = None,
    project: str | None = None,
    prices: PriceTable | None = None,
    now: datetime | None = None,
    diagnostics: Sequence[str] = (),
    agent: str | None = None,
) -> StatsReport:
    """:func:`usage_stats` over the index (see :func:`summarize_index`); ``files_read`` and
    ``sessions_read`` count what the index holds for ``project``."""
    period = period or Period()
    table = prices or load_price_table()
    summary = summarize_index(
        index, by=by, period=period, project=project, prices=prices, now=now, agent=agent
    )
    selection = index_selection(index, period, project, agent=agent)
    sessions, files = index.usage_sessions(selection.projects, agent)
    return _report(
        summary,
        by,
        period,
        project,
        table,
        files_read=files,
        sessions_read=sessions,
        diagnostics=list(diagnostics),
        source="index",
    )


def _report(
    summary: UsageSummary,
    by: GroupBy,
    period: Period,
    project: str | None,
    table: PriceTable,
    *,
    files_read: int,
    sessions_read: int,
    diagnostics: list[str],
    source: str,
    unreadable: list[str] | None = None,
) -> StatsReport:
    """The report of ``summary``: what was asked (``by``, ``period``, ``project``), the price
    table, the summary's figures, and what was read to make them (``source``)."""
    return StatsReport(
        by=by,
        since=period.since.isoformat() if period.since else None,
        until=period.until.isoformat() if period.until else None,
        project=project,
        timezone=period.zone_name,
        prices=PriceInfo(as_of=table.as_of, source=table.source, overrides=list(table.overrides)),
        files_read=files_read,
        sessions_read=sessions_read,
        prompts=summary.prompts,
        responses=summary.responses,
        tool_calls=summary.tool_calls,
        total=summary.total,
        rows=summary.rows,
        unpriced=summary.unpriced,
        activity=summary.activity,
        diagnostics=diagnostics,
        source=source,
        unreadable=unreadable if unreadable is not None else [],
    )


__all__ = [
    "LoadedSessions",
    "PriceInfo",
    "StatsReport",
    "UsageSummary",
    "grouped_rows",
    "index_selection",
    "index_stats",
    "load_period",
    "summarize",
    "summarize_index",
    "summarize_priced",
    "usage_stats",
]
