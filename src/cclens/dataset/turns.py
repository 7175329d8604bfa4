"""A session cut into turns: a prompt and everything that follows it until the next prompt.

Also says which items a session owns: a Claude Code 1.x file keeps its subagents' records
inline (``isSidechain``), and :mod:`cclens.readers.claude` gives those records to subagent sessions
as
well, so they are counted with the subagent and skipped in the parent.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from ..figures.figures import TURN_STARTS, inline_entry_ids, own_items
from ..figures.figures import is_prompt as starts_turn
from ..model.session import parse_time
from ..readers.claude import AssistantItem, Item, Session, ToolCall, UserItem


@dataclass(eq=False)
class Turn:
    """One turn of a session.

    Turns are numbered from 1 in file order. Turn 0, with ``prompt`` ``None``, holds what comes
    before the first prompt when that includes a model response (a file that starts
    mid-conversation).
    """

    index: int
    prompt: UserItem | None
    items: list[Item] = field(default_factory=list)

    @property
    def responses(self) -> list[AssistantItem]:
        return [item for item in self.items if isinstance(item, AssistantItem)]

    @property
    def tool_calls(self) -> list[ToolCall]:
        return [call for response in self.responses for call in response.tool_calls]

    @property
    def started(self) -> datetime | None:
        times = [t for item in self.items if (t := item.timestamp) is not None]
        return min(times) if times else None

    @property
    def ended(self) -> datetime | None:
        """The last record of the turn, tool results and subagents included."""
        times = [t for item in self.items for t in _item_times(item)]
        for call in self.tool_calls:
            if call.finished is not None:
                times.append(call.finished)
            times.extend(t for agent in call.subagents for t in _session_times(agent))
        return max(times) if times else None

    @property
    def main(self) -> bool:
        """Whether the turn is on the conversation's current line."""
        return self.prompt.main if self.prompt is not None else any(i.main for i in self.items)


def _item_times(item: Item) -> list[datetime]:
    found = (parse_time(getattr(entry.record, "timestamp", None)) for entry in item.entries)
    return [t for t in found if t is not None]


def _session_times(session: Session) -> list[datetime]:
    return [t for s in session.all_sessions() for t in (s.started, s.ended) if t is not None]


def split_turns(session: Session) -> list[Turn]:
    """The turns of ``session`` in file order (abandoned branches included, each item once).

    A turn starts at each prompt or slash command; tool results, command output, interruptions,
    compaction summaries and background task notifications stay in the turn they belong to.
    Items before the first prompt form turn 0 when they include a model response; otherwise
    (hooks, titles, snapshots) they belong to no turn.
    """
    preamble = Turn(0, None)
    turns: list[Turn] = []
    for item in own_items(session):
        if isinstance(item, UserItem) and starts_turn(item):
            turns.append(Turn(len(turns) + 1, item, [item]))
        elif turns:
            turns[-1].items.append(item)
        else:
            preamble.items.append(item)
    return [preamble, *turns] if preamble.responses else turns


def turn_index(session: Session) -> dict[int, int]:
    """For each item of ``session`` (by identity), the index of its turn."""
    return {id(item): turn.index for turn in split_turns(session) for item in turn.items}


__all__ = [
    "TURN_STARTS",
    "Turn",
    "inline_entry_ids",
    "own_items",
    "split_turns",
    "starts_turn",
    "turn_index",
]
