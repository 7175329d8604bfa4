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
from datetime import UTC, date, datetime
from typing import Literal, TypeAlias

import msgspec

from .inventory import ToolUsage
from .period import Period, week_start
from .pricing import PricedCost, PriceTable
from .tokens import TokenCounts
from .usage import Response

GroupBy: TypeAlias = Literal[
    "day", "week", "month", "project", "session", "model", "tool", "block", "agent"
]
#: Every grouping, in the order ``--by`` lists them.
GROUPINGS: tuple[GroupBy, ...] = (
    "day",
    "week",
    "month",
    "project",
    "session",
    "model",
    "tool",
    "block",
    "agent",
)
#: Groupings whose rows are in time order (the others are largest first).
TIME_GROUPINGS: frozenset[GroupBy] = frozenset({"day", "week", "month"})

#: The group of responses without a timestamp (by time) or without a model (by model).
UNKNOWN = "unknown"
#: The tool group of responses that called no tool.
NO_TOOL = "(no tool)"


class BlockInfo(msgspec.Struct, kw_only=True):
    """What a ``--by block`` row adds to its tokens and cost.

    ``start`` and ``end`` bound the block (``end`` = ``start`` + 5 hours); ``first`` and
    ``last`` are the minutes of its first and last responses. A ``gap`` row stands for the
    time between two blocks with no response (its tokens are zero). Only the ``active`` block
    has ``minutes_left``, the burn rates and the projections.
    """

    start: datetime
    end: datetime
    first: datetime | None = None
    last: datetime | None = None
    gap: bool = False
    active: bool = False
    minutes_left: float | None = None
    tokens_per_hour: float | None = None
    cost_per_hour: float | None = None
    projected_tokens: int | None = None
    projected_cost: float | None = None
    #: Set when ``--token-limit`` is given: the block's tokens (projected tokens for the
    #: active block) are above it.
    over_limit: bool = False


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
    block: BlockInfo | None = None


class UnpricedModel(msgspec.Struct, kw_only=True):
    """A model (as the transcripts name it) whose responses have no price, and why."""

    model: str
    reason: str
    responses: int = 0
    tokens: TokenCounts = msgspec.field(default_factory=TokenCounts)


class PricedResponse(msgspec.Struct):
    """A response with its cost worked out once."""

    response: Response
    priced: PricedCost


def price_responses(responses: Iterable[Response], table: PriceTable) -> list[PricedResponse]:
    """Each response with its cost under ``table``."""
    return [PricedResponse(response, response.priced(table)) for response in responses]


class UsagePart(msgspec.Struct):
    """Responses summed before they are grouped: some responses of one session, on one local
    ``day`` (and one ``minute`` when known), of one ``model``, priced by one table entry
    ``price`` (``None``: unpriced, and ``reason`` says why). ``cost`` is their summed cost
    (``None`` when unpriced).

    One response is a part of one (:func:`part_of`); the index sums parts in SQL. Every row of
    :func:`aggregate` is the sum of its parts, so both give the same figures.
    """

    day: date | None
    session_id: str
    project: str
    title: str
    model: str | None
    price: str | None
    reason: str | None
    responses: int
    tokens: TokenCounts
    cost: float | None
    #: The minute (UTC) the responses were made in, when the part is that fine.
    minute: datetime | None = None
    #: The agent that wrote the session (``claude``, ``codex``...).
    agent: str = "claude"


def minute_of(when: datetime) -> datetime:
    """The start of the minute ``when`` falls in, in UTC."""
    return datetime.fromtimestamp(int(when.timestamp()) // 60 * 60, UTC)


def part_of(item: PricedResponse, period: Period) -> UsagePart:
    """One priced response as a part of one response."""
    response = item.response
    when = response.timestamp
    return UsagePart(
        day=period.day(when) if when is not None else None,
        session_id=response.session_id,
        project=response.project,
        title=response.session_title,
        model=response.model,
        price=item.priced.price,
        reason=item.priced.reason,
        responses=1,
        tokens=response.tokens,
        cost=item.priced.cost,
        minute=minute_of(when) if when is not None else None,
        agent=response.session_agent,
    )


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

    def add_part(self, part: UsagePart) -> None:
        """Add all of ``part``."""
        row = self.row
        row.responses += part.responses
        self.sessions.add(part.session_id)
        row.tokens = row.tokens + part.tokens
        if part.cost is None:
            row.unpriced_responses += part.responses
        else:
            row.cost = (row.cost or 0.0) + part.cost
            if part.price and part.price not in row.prices:
                row.prices.append(part.price)

    def finish(self) -> UsageRow:
        self.row.sessions = len(self.sessions)
        self.row.prices.sort()  # the same list however the responses were met
        if self.row.responses == 0:
            self.row.cost = 0.0  # an empty group costs nothing (a tool with calls out of range)
        return self.row


def _day_key(by: GroupBy, day: date | None) -> str:
    if day is None:
        return UNKNOWN
    if by == "day":
        return day.isoformat()
    if by == "week":
        return week_start(day).isoformat()
    return f"{day.year:04d}-{day.month:02d}"


def _part_key(by: GroupBy) -> Callable[[UsagePart], str]:
    if by in TIME_GROUPINGS:
        return lambda part: _day_key(by, part.day)
    if by == "project":
        return lambda part: part.project
    if by == "session":
        return lambda part: part.session_id
    if by == "agent":
        return lambda part: part.agent
    return lambda part: part.model or UNKNOWN


def _sorted(rows: list[UsageRow], by: GroupBy) -> list[UsageRow]:
    if by in TIME_GROUPINGS:
        rows.sort(key=lambda row: (row.key == UNKNOWN, row.key))
    else:
        rows.sort(key=lambda row: (-row.tokens.total, row.key))
    return rows


def total_parts(parts: Iterable[UsagePart]) -> UsageRow:
    """All parts as one row keyed ``total``."""
    group = _Group("total")
    for part in parts:
        group.add_part(part)
    return group.finish()


class _Groups(dict[str, _Group]):
    """Rows being summed by key, each made when its key first comes."""

    def __missing__(self, key: str) -> _Group:
        found = self[key] = _Group(key)
        return found


def aggregate_parts(parts: Iterable[UsagePart], by: GroupBy) -> list[UsageRow]:
    """``parts`` grouped ``by`` any of :data:`GROUPINGS` but ``tool`` and ``block``."""
    if by in ("tool", "block"):
        raise ValueError(f"{by} rows are not grouped by key: use aggregate() or blocks")
    groups: dict[str, _Group] = {}
    key_of = _part_key(by)
    for part in parts:
        key = key_of(part)
        found = groups.get(key)
        if found is None:
            found = groups[key] = _Group(key)
            if by == "session":
                found.row.title = part.title
                found.row.project = part.project
        found.add_part(part)
    return _sorted([found.finish() for found in groups.values()], by)


def total_row(items: Iterable[PricedResponse]) -> UsageRow:
    """All responses as one row keyed ``total``."""
    period = Period()
    return total_parts(part_of(item, period) for item in items)


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
    if by != "tool":
        return aggregate_parts((part_of(item, period) for item in items), by)
    groups = _Groups()
    for item in items:
        names = item.response.tool_names or [NO_TOOL]
        shares = item.response.tokens.split(len(names))
        for name, tokens in zip(names, shares, strict=True):
            groups[name].share(item, tokens, 1 / len(names))
        for name in dict.fromkeys(names):
            groups[name].count(item)
    for name, usage in (tools or {}).items():
        groups[name].row.tool = usage
    return _sorted([found.finish() for found in groups.values()], by)


class ToolPart(msgspec.Struct):
    """Responses summed before they are grouped by tool: some responses of one session that
    called the same ``tools`` (one name per call, in order; empty: none), priced by one table
    entry ``price``. ``unpriced`` of them had no price; ``cost`` is what the others cost.

    ``shares[p]`` is the sum, over the responses, of the ``p``-th share of their tokens split
    among their calls (:meth:`TokenCounts.split`). :func:`aggregate_tool_parts` gives from them
    the rows :func:`aggregate` gives by tool.
    """

    tools: tuple[str, ...]
    session_id: str
    price: str | None
    responses: int
    unpriced: int
    cost: float | None
    shares: list[TokenCounts]


def aggregate_tool_parts(
    parts: Iterable[ToolPart], tools: Mapping[str, ToolUsage] | None = None
) -> list[UsageRow]:
    """``parts`` grouped by tool, as :func:`aggregate` groups responses by tool (each tool's
    share of tokens and cost, the responses and sessions that called it), with ``tools`` (the
    call inventory) attached."""
    groups = _Groups()
    for part in parts:
        names = part.tools or (NO_TOOL,)
        for name, tokens in zip(names, part.shares, strict=True):
            row = groups[name].row
            row.tokens = row.tokens + tokens
            if part.cost is not None:
                row.cost = (row.cost or 0.0) + part.cost * (1 / len(names))
                if part.price and part.price not in row.prices:
                    row.prices.append(part.price)
        for name in dict.fromkeys(names):
            found = groups[name]
            found.row.responses += part.responses
            found.row.unpriced_responses += part.unpriced
            found.sessions.add(part.session_id)
    for name, usage in (tools or {}).items():
        groups[name].row.tool = usage
    return _sorted([found.finish() for found in groups.values()], "tool")


def unpriced_parts(parts: Iterable[UsagePart]) -> list[UnpricedModel]:
    """The models whose responses had no price, most tokens first."""
    found: dict[str, UnpricedModel] = {}
    for part in parts:
        if part.cost is not None:
            continue
        name = part.model or UNKNOWN
        model = found.get(name)
        if model is None:
            model = found[name] = UnpricedModel(model=name, reason=part.reason or "")
        model.responses += part.responses
        model.tokens = model.tokens + part.tokens
    return sorted(found.values(), key=lambda m: (-m.tokens.total, m.model))


def unpriced_models(items: Iterable[PricedResponse]) -> list[UnpricedModel]:
    """The models whose responses had no price, most tokens first."""
    period = Period()
    return unpriced_parts(part_of(item, period) for item in items if item.priced.cost is None)


class DayHours(msgspec.Struct, kw_only=True):
    """Responses of one local day (``2025-06-01``), per hour (24 counts)."""

    day: str
    hours: list[int]


def day_hours(
    items: Iterable[PricedResponse], period: Period | None = None, *, days: int = 31
) -> list[DayHours]:
    """Responses per local day and hour, for the last ``days`` days that had any (oldest
    first): when the work was done, day by day."""
    period = period or Period()
    grid: dict[str, list[int]] = {}
    for item in items:
        when = item.response.timestamp
        if when is not None:
            local = period.local(when)
            grid.setdefault(local.date().isoformat(), [0] * 24)[local.hour] += 1
    kept = sorted(grid)[-days:] if days > 0 else []
    return [DayHours(day=day, hours=grid[day]) for day in kept]


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
    "DayHours",
    "GroupBy",
    "PricedResponse",
    "ToolPart",
    "UnpricedModel",
    "UsagePart",
    "UsageRow",
    "activity",
    "aggregate",
    "aggregate_parts",
    "aggregate_tool_parts",
    "day_hours",
    "part_of",
    "price_responses",
    "total_parts",
    "total_row",
    "unpriced_models",
    "unpriced_parts",
]
