"""``cclens stats``: read the transcripts of a period and report tokens and cost by group.

Files are chosen before they are parsed: a project filter picks project folders, and a file
last written before ``since`` is skipped (it cannot hold later records). Every file that may
hold records of the period is read, and responses and tool calls are then kept by their own
timestamps.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import msgspec

from ..parse import Diagnostic, Discovery, Session, SessionFile, discover, load
from ..parse.isolate import each_isolated
from .aggregate import (
    GroupBy,
    UnpricedModel,
    UsageRow,
    activity,
    aggregate,
    price_responses,
    total_row,
    unpriced_models,
)
from .figures import CallCounts, owned_prompts
from .inventory import call_facts, calls_usage
from .period import Period, select_files
from .pricing import PriceTable, load_price_table
from .usage import collect_responses

_NOT_ALPHANUMERIC = re.compile(r"[^A-Za-z0-9]")


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
    #: Malformed lines and unreadable files, as ``path:line: reason``; they never stop a run.
    diagnostics: list[str]


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


def slug(path: str) -> str:
    """The folder name Claude Code gives a project: its path with every character that is not
    a letter or digit replaced by ``-``."""
    return _NOT_ALPHANUMERIC.sub("-", path)


def project_matches(folder: str, name: str) -> bool:
    """Whether the project folder ``folder`` is the project ``name``.

    ``name`` may be the folder name itself, the project's path (``/home/me/src/app``), or the
    end of its path (``app`` or ``src/app``).
    """
    wanted = slug(name.rstrip("/"))
    return folder in (name, wanted) or folder.endswith("-" + wanted.lstrip("-"))


def summarize(
    sessions: Sequence[Session],
    *,
    by: GroupBy = "day",
    period: Period | None = None,
    prices: PriceTable | None = None,
) -> UsageSummary:
    """Tokens and cost of ``sessions`` (with their subagents) in ``period``, grouped ``by``."""
    period = period or Period()
    table = prices or load_price_table()
    responses = [r for r in collect_responses(sessions) if period.contains(r.timestamp)]
    items = price_responses(responses, table)
    calls = [fact for fact in call_facts(sessions) if period.contains(fact.started)]
    tools = calls_usage(calls) if by == "tool" else None
    return UsageSummary(
        rows=aggregate(items, by, period=period, tools=tools),
        total=total_row(items),
        unpriced=unpriced_models(items),
        activity=activity(items, period),
        responses=len(items),
        prompts=sum(1 for _, item in owned_prompts(sessions) if period.contains(item.timestamp)),
        tool_calls=CallCounts.of(fact.status for fact in calls),
    )


@dataclass(slots=True)
class LoadedSessions:
    """Sessions loaded for a period, how many files that took, and the problems met."""

    sessions: list[Session]
    files: int
    problems: list[str]


def load_period(found: Discovery, period: Period, project: str | None) -> LoadedSessions:
    """Load the sessions (orphan subagent files included) that may hold records of
    ``period``."""
    problems = [f"{path}: {reason}" for path, reason in found.errors]
    files: list[SessionFile] = [
        file
        for file in select_files(found.sessions, period)
        if project is None or project_matches(file.project, project)
    ]
    loaded = LoadedSessions([], 0, problems)
    failed: list[Diagnostic] = []
    for session in each_isolated(files, load, lambda file: file.path, failed):
        loaded.sessions.append(session)
        loaded.files += len({each.path for each in session.all_sessions()})
    problems.extend(str(problem) for problem in failed)
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
) -> StatsReport:
    """Tokens and cost of the transcripts under ``paths`` (Claude's folders when empty).

    ``period`` limits the report to whole local days; ``project`` to one project (see
    :func:`project_matches`); ``prices`` defaults to the bundled table. Malformed lines and
    unreadable files are listed in ``diagnostics``; nothing here raises for bad input.
    """
    period = period or Period()
    table = prices or load_price_table()
    loaded = load_period(discover(*paths), period, project)
    summary = summarize(loaded.sessions, by=by, period=period, prices=table)
    return StatsReport(
        by=by,
        since=period.since.isoformat() if period.since else None,
        until=period.until.isoformat() if period.until else None,
        project=project,
        timezone=period.zone_name,
        prices=PriceInfo(as_of=table.as_of, source=table.source, overrides=list(table.overrides)),
        files_read=loaded.files,
        sessions_read=len(loaded.sessions),
        prompts=summary.prompts,
        responses=summary.responses,
        tool_calls=summary.tool_calls,
        total=summary.total,
        rows=summary.rows,
        unpriced=summary.unpriced,
        activity=summary.activity,
        diagnostics=loaded.problems,
    )


__all__ = [
    "LoadedSessions",
    "PriceInfo",
    "StatsReport",
    "UsageSummary",
    "load_period",
    "project_matches",
    "slug",
    "summarize",
    "usage_stats",
]
