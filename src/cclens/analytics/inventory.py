"""The tool inventory: which tools were called, how often, how often they failed, how long
they took."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

import msgspec

from ..model.tools import mcp_parts, tool_spec
from ..parse.session import Session, ToolCall, ToolStatus


class ToolUsage(msgspec.Struct, kw_only=True):
    """Calls of one tool across sessions.

    ``errors`` counts every call that did not succeed, rejections by the user and interruptions
    included. Durations run from the ``tool_use`` record to its ``tool_result`` record;
    ``timed`` calls had both timestamps, and the median and 95th percentile are over those
    (seconds, ``None`` when none was timed).
    """

    name: str
    calls: int = 0
    results: int = 0
    errors: int = 0
    rejected: int = 0
    interrupted: int = 0
    unpaired: int = 0
    description: str = ""
    server: str | None = None
    timed: int = 0
    median_seconds: float | None = None
    p95_seconds: float | None = None


def percentile(values: Sequence[float], fraction: float) -> float | None:
    """The ``fraction`` quantile of ``values`` by linear interpolation between closest ranks
    (numpy's default), or ``None`` for no values."""
    if not values:
        return None
    ordered = sorted(values)
    position = (len(ordered) - 1) * fraction
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def unique_calls(sessions: Iterable[Session]) -> list[ToolCall]:
    """Every tool call in ``sessions`` and their subagents, once each.

    The same call can be met twice: sidechains kept inside a session file are both part of the
    file and a subagent session of it, and a resumed session copies earlier calls. A call is
    identified by its ``tool_use`` id (a call without one, by its file and line).
    """
    seen: set[str] = set()
    calls: list[ToolCall] = []
    for top in sessions:
        for session in top.all_sessions():
            for call in session.tool_calls.values():
                key = call.block.id or f"{session.path}:{call.entry.line}:{call.name}"
                if key not in seen:
                    seen.add(key)
                    calls.append(call)
    return calls


@dataclass(frozen=True, slots=True)
class CallFact:
    """One tool call, reduced to what the tool figures need.

    ``key`` identifies the call across sessions: its ``tool_use`` id, or its file, line and
    name when it has none. ``seconds`` runs from the call to its result.
    """

    key: str
    name: str
    status: ToolStatus
    started: datetime | None
    seconds: float | None


def call_key(block_id: str | None, path: object, line: int, name: str) -> str:
    """The key of a call across sessions (see :class:`CallFact`)."""
    return block_id or f"{path}:{line}:{name}"


def call_fact(call: ToolCall, path: object = "") -> CallFact:
    """The facts of one assembled call, read in the file at ``path``."""
    duration = call.duration
    return CallFact(
        key=call_key(call.block.id or None, path, call.entry.line, call.name),
        name=call.name,
        status=call.status,
        started=call.started,
        seconds=duration.total_seconds() if duration is not None else None,
    )


def facts_usage(calls: Iterable[CallFact]) -> dict[str, ToolUsage]:
    """Per tool name: calls, paired results, failures and durations of ``calls``."""
    usage: dict[str, ToolUsage] = {}
    durations: dict[str, list[float]] = {}
    for call in calls:
        row = usage.get(call.name)
        if row is None:
            parts = mcp_parts(call.name)
            row = ToolUsage(
                name=call.name,
                description=tool_spec(call.name).description,
                server=parts[0] if parts else None,
            )
            usage[call.name] = row
            durations[call.name] = []
        row.calls += 1
        status = call.status
        if status == "pending":
            row.unpaired += 1
            continue
        row.results += 1
        if status != "ok":
            row.errors += 1
        if status == "rejected":
            row.rejected += 1
        elif status == "interrupted":
            row.interrupted += 1
        # A result stamped before its call is clock skew, not a duration.
        if call.seconds is not None and call.seconds >= 0:
            durations[call.name].append(call.seconds)
    for name, row in usage.items():
        timed = durations[name]
        row.timed = len(timed)
        row.median_seconds = percentile(timed, 0.5)
        row.p95_seconds = percentile(timed, 0.95)
    return usage


def calls_usage(calls: Iterable[ToolCall]) -> dict[str, ToolUsage]:
    """Per tool name: calls, paired results, failures and durations of ``calls``."""
    return facts_usage(call_fact(call) for call in calls)


def tool_usage(
    sessions: Iterable[Session], *, keep: Callable[[ToolCall], bool] | None = None
) -> dict[str, ToolUsage]:
    """Per tool name: calls, paired results, errors (including rejections and interruptions),
    calls with no result in their file, and durations. Subagent sessions are included; each
    call counts once (see :func:`unique_calls`). ``keep`` selects calls (for example by time)."""
    calls = unique_calls(sessions)
    return calls_usage(call for call in calls if keep is None or keep(call))


def inventory(sessions: Iterable[Session]) -> list[ToolUsage]:
    """The tool inventory, most-called first (then by name)."""
    return sorted(tool_usage(sessions).values(), key=lambda row: (-row.calls, row.name))
