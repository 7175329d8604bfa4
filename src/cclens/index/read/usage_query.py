"""Read usage back from the index: each prompt, API response and tool call once, summed in SQL.

What counts was decided when the rows were written and settled (:mod:`.counted`: a row counts
when ``counts > 0``); here rows are only selected (a time range, some projects or sessions) and
summed, or read back one by one for what SQL cannot sum (another price table).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

from ...figures.aggregate import ToolPart
from ...figures.inventory import CallFact
from ...figures.tokens import TokenCounts
from ...figures.usage import Response
from ...model.session import ToolStatus
from ..costs import prices_recorded
from ..extract import CLAIM_CALL, CLAIM_PROMPT, CLAIM_RESPONSE


@dataclass(frozen=True, slots=True)
class UsageSelection:
    """Which rows: those timed in ``[start, end)`` (epoch seconds; ``None`` is open, and a row
    without a time is kept only when both are), of the projects ``projects`` (folder names;
    ``None`` for all) or of the sessions ``sessions`` (index keys)."""

    start: float | None = None
    end: float | None = None
    projects: tuple[str, ...] | None = None
    sessions: tuple[str, ...] | None = None
    #: Only the sessions of this agent (``None``: every agent's).
    agent: str | None = None

    def where(self, kind: int) -> tuple[str, list[Any]]:
        """The SQL condition (over ``u``, ``s`` and ``p``) selecting the counted rows of
        ``kind``, and its parameters."""
        clauses = ["u.kind = ?", "u.counts > 0"]
        values: list[Any] = [kind]
        if self.start is not None:
            clauses.append("u.time >= ?")
            values.append(self.start)
        if self.end is not None:
            clauses.append("u.time < ?")
            values.append(self.end)
        if self.projects is not None:
            clauses.append(f"p.slug IN ({', '.join('?' * len(self.projects))})")
            values.extend(self.projects)
        if self.sessions is not None:
            clauses.append(f"s.key IN ({', '.join('?' * len(self.sessions))})")
            values.extend(self.sessions)
        if self.agent is not None:
            clauses.append("s.agent = ?")
            values.append(self.agent)
        return " AND ".join(clauses), values


_FROM = "FROM counted u JOIN sessions s ON s.id = u.session JOIN projects p ON p.id = s.project"
#: The token columns, in :class:`TokenCounts` order (with the unsplit cache writes last).
_TOKENS = "input, output, cache_write_5m, cache_write_1h, cache_read, cache_write_unsplit"
_KINDS = [name.strip() for name in _TOKENS.split(",")]
_SUM_TOKENS = ", ".join(f"sum(u.{kind})" for kind in _KINDS)


def costs_current(connection: sqlite3.Connection) -> bool:
    """Whether the stored costs come from the bundled price table of this cclens."""
    return prices_recorded(connection)


#: Seconds in the time buckets responses are summed in: every time zone's offset is a whole
#: number of quarter hours, so a bucket falls whole in one local day and hour.
QUARTER_HOUR = 900


@dataclass(frozen=True, slots=True)
class BucketSum:
    """Selected responses summed per time bucket (``bucket`` is its first second since the
    epoch; ``None`` for responses without a time), session, model and price-table entry."""

    bucket: int | None
    session_id: str
    project: str
    title: str
    model: str | None
    price: str | None
    reason: str | None
    responses: int
    tokens: TokenCounts
    cost: float | None
    agent: str = "claude"


def bucket_sums(
    connection: sqlite3.Connection, selection: UsageSelection, *, seconds: int = QUARTER_HOUR
) -> list[BucketSum]:
    """The selected responses summed per ``seconds`` bucket, session, model and price, with
    the costs stored (the bundled table's)."""
    where, values = selection.where(CLAIM_RESPONSE)
    rows = connection.execute(
        f"SELECT CAST(u.time / {seconds} AS INTEGER) * {seconds} AS bucket, s.session_id, "
        f"p.slug, s.title, u.model, u.price, u.reason, count(*), {_SUM_TOKENS}, sum(u.cost), "
        f"s.agent {_FROM} WHERE {where} GROUP BY bucket, u.session, u.model, u.price, u.reason",
        values,
    )
    return [
        BucketSum(
            bucket=bucket,
            session_id=session_id,
            project=project,
            title=title,
            model=model,
            price=price,
            reason=reason,
            responses=count,
            tokens=TokenCounts.from_columns(rest[:6]),
            cost=rest[6],
            agent=rest[7],
        )
        for bucket, session_id, project, title, model, price, reason, count, *rest in rows
    ]


#: The analytics' order (:mod:`cclens.figures.identity`): project, then sessions in reading
#: order, then each session's rows as its files list them; a merged row (``counts`` 2) stands
#: where the session's own copy does. Sums of costs come out the same to the last bit.
_READING_ORDER = (
    "p.slug, (SELECT f.mtime_ns FROM files f WHERE f.session = s.id AND f.role = 'session'), "
    "s.session_id, s.path, CASE WHEN u.counts = 2 THEN (SELECT min(c.rowid) FROM counted c "
    "WHERE c.key = u.key AND c.session = u.session AND c.counts = 0) ELSE u.rowid END"
)


def counted_responses(connection: sqlite3.Connection, selection: UsageSelection) -> list[Response]:
    """The selected responses, each once, as the analytics' :class:`Response` (in reading
    order; a response's calls are known by their tools' names only)."""
    where, values = selection.where(CLAIM_RESPONSE)
    rows = connection.execute(
        f"SELECT s.session_id, p.slug, s.title, s.path, u.key, u.request, u.model, u.time, "
        f"u.agent, u.speed, u.inference_geo, u.tools, {_TOKENS}, s.agent "
        f"{_FROM} WHERE {where} ORDER BY {_READING_ORDER}",
        values,
    )
    paths: dict[str, Path] = {}
    found = []
    for session_id, project, title, path, key, request, model, moment, agent, *rest in rows:
        speed, geo, tools = rest[:3]
        found.append(
            Response(
                message_id=None if key.startswith(("request:", "uuid:", "line:")) else key,
                request_id=request,
                model=model,
                timestamp=datetime.fromtimestamp(moment, UTC) if moment is not None else None,
                session_id=session_id,
                project=project,
                session_title=title,
                agent_id=agent,
                tokens=TokenCounts.from_columns(rest[3:9]),
                speed=speed,
                inference_geo=geo,
                path=paths.setdefault(path, Path(path)),
                line=0,
                tool_calls=[("", name) for name in tools.split("\n")] if tools else [],
                session_path=paths[path],
                identity=key,
                session_agent=rest[9],
            )
        )
    return found


def tool_sums(connection: sqlite3.Connection, selection: UsageSelection) -> list[ToolPart]:
    """The selected responses as :func:`cclens.figures.aggregate.aggregate_tool_parts` takes
    them: those that called one tool or none summed in SQL per tools, session and price; each
    that called several on its own, its tokens split among its calls by
    :meth:`~cclens.figures.tokens.TokenCounts.split` (a few percent of responses)."""
    where, values = selection.where(CLAIM_RESPONSE)
    sums = ", ".join(f"sum(u.{kind})" for kind in _KINDS)
    single = connection.execute(
        f"SELECT u.tools, s.session_id, u.price, count(*), sum(u.cost IS NULL), sum(u.cost), "
        f"{sums} {_FROM} WHERE {where} AND (u.tools IS NULL OR instr(u.tools, char(10)) = 0) "
        "GROUP BY u.tools, s.session_id, u.price",
        values,
    )
    found = [
        ToolPart(
            tools=(tools,) if tools else (),
            session_id=session_id,
            price=price,
            responses=count,
            unpriced=unpriced,
            cost=cost,
            shares=[TokenCounts.from_columns(tokens)],
        )
        for tools, session_id, price, count, unpriced, cost, *tokens in single
    ]
    several = connection.execute(
        f"SELECT u.tools, s.session_id, u.price, u.cost, {', '.join('u.' + k for k in _KINDS)} "
        f"{_FROM} WHERE {where} AND instr(u.tools, char(10)) > 0",
        values,
    )
    for tools, session_id, price, cost, *tokens in several:
        names = tuple(tools.split("\n"))
        found.append(
            ToolPart(
                tools=names,
                session_id=session_id,
                price=price,
                responses=1,
                unpriced=int(cost is None),
                cost=cost,
                shares=TokenCounts.from_columns(tokens).split(len(names)),
            )
        )
    return found


class CallRow(NamedTuple):
    """What the tool figures read of a call (see :func:`cclens.figures.inventory.calls_usage`)."""

    name: str
    status: ToolStatus
    seconds: float | None


def call_rows(connection: sqlite3.Connection, selection: UsageSelection) -> list[CallRow]:
    """The selected tool calls, each once, as the tool figures read them."""
    where, values = selection.where(CLAIM_CALL)
    rows = connection.execute(f"SELECT u.name, u.status, u.seconds {_FROM} WHERE {where}", values)
    return list(map(CallRow._make, rows))


def counted_calls(connection: sqlite3.Connection, selection: UsageSelection) -> list[CallFact]:
    """The selected tool calls, each once (timed by when the call was made)."""
    where, values = selection.where(CLAIM_CALL)
    rows = connection.execute(
        f"SELECT u.key, u.name, u.status, u.time, u.seconds {_FROM} WHERE {where} "
        f"ORDER BY {_READING_ORDER}",
        values,
    )
    return [
        CallFact(
            key=key,
            name=name,
            status=status,
            started=datetime.fromtimestamp(started, UTC) if started is not None else None,
            seconds=seconds,
        )
        for key, name, status, started, seconds in rows
    ]


def call_statuses(connection: sqlite3.Connection, selection: UsageSelection) -> dict[str, int]:
    """How many selected tool calls ended in each status."""
    where, values = selection.where(CLAIM_CALL)
    rows = connection.execute(
        f"SELECT u.status, count(*) {_FROM} WHERE {where} GROUP BY u.status", values
    )
    return {str(status): int(count) for status, count in rows}


def prompt_count(connection: sqlite3.Connection, selection: UsageSelection) -> int:
    """How many selected prompts (each once)."""
    where, values = selection.where(CLAIM_PROMPT)
    return int(connection.execute(f"SELECT count(*) {_FROM} WHERE {where}", values).fetchone()[0])


def prompt_times(
    connection: sqlite3.Connection, selection: UsageSelection
) -> list[datetime | None]:
    """When each selected prompt (each once) was typed."""
    where, values = selection.where(CLAIM_PROMPT)
    return [
        datetime.fromtimestamp(moment, UTC) if moment is not None else None
        for (moment,) in connection.execute(f"SELECT u.time {_FROM} WHERE {where}", values)
    ]


def selected_sessions(
    connection: sqlite3.Connection, projects: Sequence[str] | None, agent: str | None = None
) -> tuple[int, int]:
    """How many sessions, and transcript files (sessions' and subagents'), the index holds for
    ``projects`` (all when ``None``) of ``agent`` (every agent's when ``None``)."""
    clauses: list[str] = ["1"]
    values: list[object] = []
    if projects is not None:
        clauses.append(f"p.slug IN ({', '.join('?' * len(projects))})")
        values.extend(projects)
    if agent is not None:
        clauses.append("s.agent = ?")
        values.append(agent)
    where = " AND ".join(clauses)
    row = connection.execute(
        "SELECT count(DISTINCT s.id), count(f.id) FROM sessions s "
        "JOIN projects p ON p.id = s.project "
        "LEFT JOIN files f ON f.session = s.id AND f.role IN ('session', 'subagent') "
        f"WHERE {where}",
        values,
    ).fetchone()
    return int(row[0]), int(row[1])


def project_slugs(connection: sqlite3.Connection) -> list[str]:
    """Every project folder the index knows."""
    return [row[0] for row in connection.execute("SELECT slug FROM projects ORDER BY slug")]


__all__ = [
    "QUARTER_HOUR",
    "BucketSum",
    "CallRow",
    "UsageSelection",
    "bucket_sums",
    "call_rows",
    "call_statuses",
    "costs_current",
    "counted_calls",
    "counted_responses",
    "project_slugs",
    "prompt_count",
    "prompt_times",
    "selected_sessions",
    "tool_sums",
]
