"""Tokens and cost grouped by day, week, month, project, session, model or tool.

Every response is priced on its own (long-context and fast-mode rates depend on the response),
then added to its group. A group's ``cost`` covers its priced responses; ``unpriced_responses``
counts the others, and ``cost`` is ``None`` only when no response of the group had a price.

Grouping by tool gives each response's tokens and cost to the tools it called, split evenly
among its calls (a response that called Read twice and Bash once gives two thirds to Read and
one third to Bash; integer token counts are split so that the shares add up exactly, see
:meth:`TokenCounts.split`). Responses that called no tool are the ``(no tool)`` group. Each tool
row also carries the tool's calls, errors, rejections and durations (:class:`ToolUsage`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, TypeAlias

import msgspec

from .inventory import ToolUsage
from .period import Period, week_start
from .pricing import PricedCost, PriceTable, response_cost
from .tokens import TokenCounts
from .usage import Response

GroupBy: TypeAlias = Literal["day", "week", "month", "project", "session", "model", "tool"]
#: Every grouping, in the order ``--by`` lists them.
GROUPINGS: tuple[GroupBy, ...] = ("day", "week", "month", "project", "session", "model", "tool")
#: Groupings whose rows are in time order (the others are largest first).
TIME_GROUPINGS: frozenset[GroupBy] = frozenset({"day", "week", "month"})

#: The group of responses without a timestamp (by time) or without a model (by model).
UNKNOWN = "unknown"
#: The tool group of responses that called no tool.
NO_TOOL = "(no tool)"


class UsageRow(msgspec.Struct, kw_only=True):
    """Tokens and cost of one group.

    ``key`` is the group: ``2025-06-01`` (day), ``2025-05-26`` (the Monday that starts the
    week), ``2025-06`` (month), the project folder, the session id, the model id or the tool
    name. ``responses`` counts API responses (for a tool: the responses that called it);
    ``sessions`` the distinct sessions they came from. ``title`` and ``project`` describe a
    session; ``prices`` lists the price-table entries used for a model; ``tool`` holds a
    tool's call statistics.
    """

    key: str
    responses: int = 0
    sessions: int = 0
    tokens: TokenCounts = msgspec.field(default_factory=TokenCounts)
    cost: float | None = None
    unpriced_responses: int = 0
    title: str | None = None
    project: str | None = None
    prices: list[str] = msgspec.field(default_factory=list)
    tool: ToolUsage | None = None


class UnpricedModel(msgspec.Struct, kw_only=True):
    """A model (as the transcripts name it) whose responses have no price, and why."""

    model: str
    reason: str
    responses: int = 0
    tokens: TokenCounts = msgspec.field(default_factory=TokenCounts)


@dataclass(slots=True)
class PricedResponse:
    """A response with its cost worked out once."""

    response: Response
    priced: PricedCost


def price_responses(responses: Iterable[Response], table: PriceTable) -> list[PricedResponse]:
    """Each response with its cost under ``table``."""
    return [
        PricedResponse(
            response,
            response_cost(
                table,
                response.model,
                response.tokens,
                speed=response.speed,
                inference_geo=response.inference_geo,
            ),
        )
        for response in responses
    ]


class _Group:
    """A row being summed."""

    def __init__(self, key: str) -> None:
        self.row = UsageRow(key=key)
        self.sessions: set[str] = set()

    def count(self, item: PricedResponse) -> None:
        """Count ``item`` as one of the group's responses."""
        self.row.responses += 1
        self.sessions.add(item.response.session_id)
        if item.priced.cost is None:
            self.row.unpriced_responses += 1

    def share(self, item: PricedResponse, tokens: TokenCounts, fraction: float) -> None:
        """Add ``tokens`` of ``item`` and ``fraction`` of its cost."""
        row = self.row
        row.tokens = row.tokens + tokens
        if item.priced.cost is not None:
            row.cost = (row.cost or 0.0) + item.priced.cost * fraction
            if item.priced.price and item.priced.price not in row.prices:
                row.prices.append(item.priced.price)

    def add(self, item: PricedResponse) -> None:
        """Add all of ``item``."""
        self.count(item)
        self.share(item, item.response.tokens, 1.0)

    def finish(self) -> UsageRow:
        self.row.sessions = len(self.sessions)
        if self.row.responses == 0:
            self.row.cost = 0.0  # an empty group costs nothing (a tool with calls out of range)
        return self.row


def _time_key(by: GroupBy, when: datetime | None, period: Period) -> str:
    if when is None:
        return UNKNOWN
    day = period.day(when)
    if by == "day":
        return day.isoformat()
    if by == "week":
        return week_start(day).isoformat()
    return f"{day.year:04d}-{day.month:02d}"


def _key_function(by: GroupBy, period: Period) -> Callable[[Response], str]:
    if by in TIME_GROUPINGS:
        return lambda response: _time_key(by, response.timestamp, period)
    if by == "project":
        return lambda response: response.project
    if by == "session":
        return lambda response: response.session_id
    return lambda response: response.model or UNKNOWN


def total_row(items: Iterable[PricedResponse]) -> UsageRow:
    """All responses as one row keyed ``total``."""
    group = _Group("total")
    for item in items:
        group.add(item)
    return group.finish()


def aggregate(
    items: Sequence[PricedResponse],
    by: GroupBy,
    *,
    period: Period | None = None,
    tools: Mapping[str, ToolUsage] | None = None,
) -> list[UsageRow]:
    """``items`` grouped ``by`` one of :data:`GROUPINGS`.

    ``period`` places times in local days (its zone; the machine's by default). ``tools`` is the
    call inventory attached to the rows when grouping by tool (tools called but with no
    response in ``items`` still get a row).
    """
    period = period or Period()
    groups: dict[str, _Group] = {}

    def group(key: str) -> _Group:
        found = groups.get(key)
        if found is None:
            found = groups[key] = _Group(key)
        return found

    if by == "tool":
        for item in items:
            names = item.response.tool_names or [NO_TOOL]
            shares = item.response.tokens.split(len(names))
            for name, tokens in zip(names, shares, strict=True):
                group(name).share(item, tokens, 1 / len(names))
            for name in dict.fromkeys(names):
                group(name).count(item)
        for name, usage in (tools or {}).items():
            group(name).row.tool = usage
    else:
        key_of = _key_function(by, period)
        for item in items:
            group(key_of(item.response)).add(item)
        if by == "session":
            for item in items:
                row = groups[item.response.session_id].row
                row.title = item.response.session_title
                row.project = item.response.project

    rows = [found.finish() for found in groups.values()]
    if by in TIME_GROUPINGS:
        rows.sort(key=lambda row: (row.key == UNKNOWN, row.key))
    else:
        rows.sort(key=lambda row: (-row.tokens.total, row.key))
    return rows


def unpriced_models(items: Iterable[PricedResponse]) -> list[UnpricedModel]:
    """The models whose responses had no price, most tokens first."""
    found: dict[str, UnpricedModel] = {}
    for item in items:
        if item.priced.cost is not None:
            continue
        name = item.response.model or UNKNOWN
        model = found.get(name)
        if model is None:
            model = found[name] = UnpricedModel(model=name, reason=item.priced.reason or "")
        model.responses += 1
        model.tokens = model.tokens + item.response.tokens
    return sorted(found.values(), key=lambda m: (-m.tokens.total, m.model))


def activity(items: Iterable[PricedResponse], period: Period | None = None) -> list[list[int]]:
    """Responses per local weekday (Monday first) and hour: seven rows of 24 counts."""
    period = period or Period()
    grid = [[0] * 24 for _ in range(7)]
    for item in items:
        when = item.response.timestamp
        if when is not None:
            local = period.local(when)
            grid[local.weekday()][local.hour] += 1
    return grid


__all__ = [
    "GROUPINGS",
    "NO_TOOL",
    "TIME_GROUPINGS",
    "UNKNOWN",
    "GroupBy",
    "PricedResponse",
    "UnpricedModel",
    "UsageRow",
    "activity",
    "aggregate",
    "price_responses",
    "total_row",
    "unpriced_models",
]
