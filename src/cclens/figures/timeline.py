"""A session over time: its turns, its tool calls and the size of its context, turn by turn.

This is the data behind the per-session timeline of the web dashboard (a strip of turns and
tool calls along a time axis, and a line of the context size). It follows the session's main
line: abandoned branches and sidechains are left out, and subagents appear only as the call
that spawned them (with how many subagent transcripts it has).

A *turn* starts at each prompt or slash command the user typed (see
:func:`cclens.figures.figures.is_prompt`: a background task's notification is not one) and
runs until the next one;
anything recorded before the first prompt (a resumed or subagent session) forms a turn with an
empty prompt. The *context size* of a response is the prompt the model read: input tokens plus
cache reads plus cache writes (the output is not part of it).

Every value is a plain dataclass of strings, numbers and aware datetimes, so
``msgspec.json.encode(timeline)`` gives the JSON a chart needs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from ..model.session import AssistantItem, Item, Session, ToolStatus, UserItem
from .figures import is_prompt
from .tokens import TokenCounts
from .usage import SYNTHETIC_MODEL

_PROMPT_LENGTH = 120


@dataclass(slots=True)
class TimelineTurn:
    """One turn: the user's prompt and everything up to the next one.

    ``index`` counts turns from 0; ``anchor`` is the prompt item's anchor (for a link to it),
    ``prompt`` the prompt's first line, shortened. ``ended`` is the last timestamp in the turn.
    """

    index: int
    anchor: str | None
    prompt: str
    started: datetime | None
    ended: datetime | None = None
    responses: int = 0
    tool_calls: int = 0

    @property
    def seconds(self) -> float | None:
        """How long the turn ran, when both ends are known."""
        if self.started is None or self.ended is None:
            return None
        return (self.ended - self.started).total_seconds()


@dataclass(slots=True)
class TimelineCall:
    """One tool call: when it ran, how it ended, and in which turn.

    ``duration_seconds`` runs from the ``tool_use`` record to its ``tool_result`` record;
    ``subagents`` counts the subagent transcripts attached to it.
    """

    id: str
    name: str
    turn: int
    anchor: str
    status: ToolStatus
    started: datetime | None
    finished: datetime | None
    duration_seconds: float | None
    subagents: int


@dataclass(slots=True)
class ContextPoint:
    """One model response on the main line and the size of the prompt it read."""

    turn: int
    anchor: str
    timestamp: datetime | None
    message_id: str | None
    model: str | None
    input: int
    cache_read: int
    cache_write: int
    output: int
    #: ``input + cache_read + cache_write``: the context the model saw.
    context: int


@dataclass(slots=True)
class CompactionMark:
    """A compaction boundary: the context was summarised here."""

    timestamp: datetime | None
    anchor: str
    trigger: str | None
    pre_tokens: int | None


@dataclass(slots=True)
class Timeline:
    """A session's turns, tool calls, context sizes and compactions, in time order."""

    session_id: str
    started: datetime | None
    ended: datetime | None
    turns: list[TimelineTurn] = field(default_factory=list)
    calls: list[TimelineCall] = field(default_factory=list)
    context: list[ContextPoint] = field(default_factory=list)
    compactions: list[CompactionMark] = field(default_factory=list)

    @property
    def peak_context(self) -> int:
        """The largest context of any response (0 when there is none)."""
        return max((point.context for point in self.context), default=0)


def _prompt_line(item: UserItem) -> str:
    text = " ".join(item.text.split())
    if len(text) > _PROMPT_LENGTH:
        text = text[: _PROMPT_LENGTH - 1].rstrip() + "…"
    return text


def _latest(*times: datetime | None) -> datetime | None:
    known = [t for t in times if t is not None]
    return max(known) if known else None


def _context_point(item: AssistantItem, turn: int) -> ContextPoint | None:
    usage = item.usage
    if usage is None or item.model == SYNTHETIC_MODEL:
        return None
    tokens = TokenCounts.of(usage)
    return ContextPoint(
        turn=turn,
        anchor=item.anchor,
        timestamp=item.timestamp,
        message_id=item.message_id,
        model=item.model,
        input=tokens.input,
        cache_read=tokens.cache_read,
        cache_write=tokens.cache_write,
        output=tokens.output,
        context=tokens.context,
    )


def session_timeline(session: Session) -> Timeline:
    """The timeline of ``session``'s main line (see the module docstring)."""
    timeline = Timeline(session.session_id, session.started, session.ended)
    turns = timeline.turns

    def current(item: Item) -> TimelineTurn:
        if not turns:
            turns.append(TimelineTurn(0, None, "", item.timestamp))
        return turns[-1]

    for item in session.main_line:
        if isinstance(item, UserItem) and is_prompt(item):
            turns.append(TimelineTurn(len(turns), item.anchor, _prompt_line(item), item.timestamp))
            continue
        if not isinstance(item, AssistantItem):
            if turns:  # events before the first prompt (titles, hooks) start no turn
                turns[-1].ended = _latest(turns[-1].ended, item.timestamp)
            continue
        turn = current(item)
        turn.ended = _latest(turn.ended, item.timestamp)
        point = _context_point(item, turn.index)
        if point is not None:
            turn.responses += 1
            timeline.context.append(point)
        for call in item.tool_calls:
            turn.tool_calls += 1
            turn.ended = _latest(turn.ended, call.finished)
            duration = call.duration
            timeline.calls.append(
                TimelineCall(
                    id=call.id,
                    name=call.name,
                    turn=turn.index,
                    anchor=item.anchor,
                    status=call.status,
                    started=call.started,
                    finished=call.finished,
                    duration_seconds=duration.total_seconds() if duration is not None else None,
                    subagents=len(call.subagents),
                )
            )
    for turn in turns:
        turn.ended = _latest(turn.ended, turn.started)
    timeline.compactions = [
        CompactionMark(
            timestamp=compaction.boundary.timestamp,
            anchor=compaction.boundary.anchor,
            trigger=compaction.trigger,
            pre_tokens=compaction.pre_tokens,
        )
        for compaction in session.compactions
    ]
    return timeline


__all__ = [
    "CompactionMark",
    "ContextPoint",
    "Timeline",
    "TimelineCall",
    "TimelineTurn",
    "session_timeline",
]
