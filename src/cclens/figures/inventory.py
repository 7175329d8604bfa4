"""The tool inventory: which tools were called, how often, how often they failed, how long
they took.

A tool call ends in one of five statuses (:data:`cclens.model.session.ToolStatus`): ``ok``,
``error`` (the tool reported an error), ``rejected`` (the user said no), ``interrupted`` (the
user stopped it) or ``pending`` (no result recorded). A call **failed** when it ended in
``error``, ``rejected`` or ``interrupted`` (:func:`is_failed`): that one definition is what
every "failed" and every ``errors`` count in cclens means.

Each call is counted once (see :mod:`cclens.figures.identity`): for the first session in
reading order that recorded it, with the status of the first copy that has a result (a call
left without one in a session, and answered in the session that resumed it, is not pending).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

import msgspec

from .identity import ReadingKey, call_key, session_reading_key

if TYPE_CHECKING:
    from ..model.session import Session, ToolCall, ToolStatus

#: The statuses of a failed call.
FAILED_STATUSES: frozenset[ToolStatus] = frozenset({"error", "rejected", "interrupted"})
#: Every status, in the order reports list them.
STATUSES: tuple[ToolStatus, ...] = ("ok", "error", "rejected", "interrupted", "pending")

Owner = TypeVar("Owner")
Copy = TypeVar("Copy")


def is_failed(status: ToolStatus) -> bool:
    """Whether a call with ``status`` failed: an error, a rejection or an interruption."""
    return status in FAILED_STATUSES


class ToolUsage(msgspec.Struct, kw_only=True):
    """Calls of one tool across sessions.

    ``errors`` counts the calls that failed (:func:`is_failed`: errors, rejections by the user
    and interruptions); ``rejected`` and ``interrupted`` are the part of them that were
    rejected or interrupted; ``unpaired`` calls have no result. Durations run from the
    ``tool_use`` record to its ``tool_result`` record; ``timed`` calls had both timestamps, and
    the median and 95th percentile are over those (seconds, ``None`` when none was timed).
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


class CallFact(msgspec.Struct, frozen=True):
    """One tool call, reduced to what its figures need.

    ``key`` identifies the call across files (:func:`cclens.figures.identity.call_key`);
    ``seconds`` runs from the call to its result.
    """

    key: str
    name: str
    status: ToolStatus
    started: datetime | None
    seconds: float | None

    @classmethod
    def of(cls, call: ToolCall, key: str) -> CallFact:
        """The fact of ``call``, known by ``key``."""
        duration = call.duration
        return cls(
            key=key,
            name=call.name,
            status=call.status,
            started=call.started,
            seconds=duration.total_seconds() if duration is not None else None,
        )


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


class CallMerger(Generic[Owner, Copy]):
    """Keeps each call once: the first owner met, and the first copy met that has a result.

    Feed it the copies in reading order; ``status`` tells a copy's status.
    """

    def __init__(self, status: Callable[[Copy], ToolStatus]) -> None:
        self._status = status
        self._found: list[tuple[Owner, Copy]] = []
        self._position: dict[str, int] = {}

    def add(self, owner: Owner, key: str, call: Copy) -> None:
        """One copy of the call ``key``, recorded by ``owner``."""
        position = self._position.get(key)
        if position is None:
            self._position[key] = len(self._found)
            self._found.append((owner, call))
            return
        kept_owner, kept = self._found[position]
        if self._status(kept) == "pending" and self._status(call) != "pending":
            self._found[position] = (kept_owner, call)

    def calls(self) -> list[tuple[Owner, Copy]]:
        """Every call once, with its owner, in the order first met."""
        return list(self._found)


def session_calls(session: Session) -> list[tuple[str, ToolCall]]:
    """Every call of ``session`` and its subagents with its key, once each (sidechains kept
    inside a session file are also a subagent session of it), the copy with a result kept."""
    merger: CallMerger[None, ToolCall] = CallMerger(lambda call: call.status)
    keys: list[str] = []
    for each in session.all_sessions():
        for call in each.tool_calls.values():
            key = call_key(call.block.id, each.path, call.entry.line, call.name)
            keys.append(key)
            merger.add(None, key, call)
    return list(zip(dict.fromkeys(keys), (call for _, call in merger.calls()), strict=True))


def merge_calls(
    sessions: Iterable[tuple[ReadingKey, Owner, Sequence[tuple[str, Copy]]]],
    status: Callable[[Copy], ToolStatus],
) -> list[tuple[Owner, str, Copy]]:
    """Every call once, from sessions given as (their reading key, their owner, their keyed
    calls from :func:`session_calls`): in reading order, each project counted on its own, the
    first owner met and the first copy with a result kept (``status`` tells a copy's)."""
    projects: dict[str, list[tuple[Owner, Sequence[tuple[str, Copy]]]]] = {}
    for reading, owner, calls in sorted(sessions, key=lambda each: each[0]):
        projects.setdefault(reading[0], []).append((owner, calls))
    found: list[tuple[Owner, str, Copy]] = []
    for project in projects.values():
        merger: CallMerger[tuple[Owner, str], Copy] = CallMerger(status)
        for owner, calls in project:
            for key, call in calls:
                merger.add((owner, key), key, call)
        found += [(owner, key, call) for (owner, key), call in merger.calls()]
    return found


def keyed_calls(sessions: Iterable[Session]) -> list[tuple[Session, str, ToolCall]]:
    """Every tool call of ``sessions`` once, with the top-level session that counts it and its
    key (see the module docstring); each project is counted on its own."""
    return merge_calls(
        ((session_reading_key(top), top, session_calls(top)) for top in sessions),
        lambda call: call.status,
    )


SessionFacts = tuple[ReadingKey, None, list[tuple[str, CallFact]]]


def session_facts(session: Session) -> SessionFacts:
    """What :func:`facts_of_sessions` needs of ``session``: a few bytes a call, so that a
    command reading many sessions need not keep them."""
    calls = [(key, CallFact.of(call, key)) for key, call in session_calls(session)]
    return session_reading_key(session), None, calls


def facts_of_sessions(sessions: Iterable[SessionFacts]) -> list[CallFact]:
    """:func:`call_facts` of sessions given by their :func:`session_facts`: the same calls."""
    return [fact for _, _, fact in merge_calls(sessions, lambda fact: fact.status)]


def owned_calls(sessions: Iterable[Session]) -> list[tuple[Session, ToolCall]]:
    """Every tool call of ``sessions`` once, with the top-level session that counts it."""
    return [(top, call) for top, _, call in keyed_calls(sessions)]


def unique_calls(sessions: Iterable[Session]) -> list[ToolCall]:
    """Every tool call in ``sessions`` and their subagents, once each.

    The same call can be met twice: sidechains kept inside a session file are both part of the
    file and a subagent session of it, and a resumed session copies earlier calls. The copy
    kept is the first in reading order that has a result (else the first).
    """
    return [call for _, _, call in keyed_calls(sessions)]


def call_facts(sessions: Iterable[Session]) -> list[CallFact]:
    """:func:`unique_calls` as :class:`CallFact` values."""
    return facts_of_sessions(session_facts(session) for session in sessions)


class CallFigures(Protocol):
    """What the tool figures read of a call: a :class:`CallFact`, or a row the index reads."""

    @property
    def name(self) -> str: ...
    @property
    def status(self) -> ToolStatus: ...
    @property
    def seconds(self) -> float | None: ...


def calls_usage(calls: Iterable[CallFigures]) -> dict[str, ToolUsage]:
    """Per tool name: calls, paired results, failures and durations of ``calls``."""
    from ..model.tools import McpToolSpec, any_tool_spec

    usage: dict[str, ToolUsage] = {}
    durations: dict[str, list[float]] = {}
    for call in calls:
        row = usage.get(call.name)
        if row is None:
            spec = any_tool_spec(call.name)
            row = ToolUsage(
                name=call.name,
                description=spec.description,
                server=spec.server if isinstance(spec, McpToolSpec) else None,
            )
            usage[call.name] = row
            durations[call.name] = []
        row.calls += 1
        status = call.status
        if status == "pending":
            row.unpaired += 1
            continue
        row.results += 1
        if is_failed(status):
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


def tool_usage(
    sessions: Iterable[Session], *, keep: Callable[[CallFact], bool] | None = None
) -> dict[str, ToolUsage]:
    """Per tool name: calls, paired results, failures (errors, rejections and interruptions),
    calls with no result, and durations. Subagent sessions are included; each call counts
    once (see :func:`unique_calls`). ``keep`` selects calls (for example by time)."""
    facts = call_facts(sessions)
    return calls_usage(fact for fact in facts if keep is None or keep(fact))


def inventory(sessions: Iterable[Session]) -> list[ToolUsage]:
    """The tool inventory, most-called first (then by name)."""
    return sorted(tool_usage(sessions).values(), key=lambda row: (-row.calls, row.name))


__all__ = [
    "FAILED_STATUSES",
    "STATUSES",
    "CallFact",
    "CallFigures",
    "CallMerger",
    "SessionFacts",
    "ToolUsage",
    "call_facts",
    "calls_usage",
    "facts_of_sessions",
    "inventory",
    "is_failed",
    "keyed_calls",
    "merge_calls",
    "owned_calls",
    "percentile",
    "session_calls",
    "session_facts",
    "tool_usage",
    "unique_calls",
]
