"""The figures cclens reports about sessions, each defined here once.

Every surface (the commands, the JSON API, the pages, the Parquet dataset, the traces) shows
these figures computed by these functions, or (the index, which must not assemble every session
again) by code tested to give the same numbers:

* a **session** is a session transcript with its subagent transcripts, or an orphan subagent
  transcript whose session file is gone (a session of its own, marked as a subagent without
  its parent);
* a **prompt** is something the person typed: a user message that is a prompt or a slash
  command (:func:`is_prompt`), in the session's own transcript (a subagent's prompts are
  written by the model, an orphan subagent's too), abandoned branches included (an edited
  prompt was typed too);
* a **response** is one API response (:mod:`cclens.figures.usage`);
* a **tool call** is one ``tool_use`` with its status; a call **failed** when it ended in an
  error, a rejection or an interruption (:mod:`cclens.figures.inventory`);
* **tokens** are a response's usage by kind (:class:`~cclens.figures.tokens.TokenCounts`)
  and **cost** its price (:mod:`cclens.figures.pricing`).

Responses, calls and prompts are each counted once in their project, for the first session in
reading order that recorded them (:mod:`cclens.figures.identity`); a session's figures are
what it counts, so the figures of sessions add up to those of their project, and the figures of
projects to the totals.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime
from pathlib import Path

import msgspec

from ..model.session import Item, Session, ToolCall, ToolStatus, UserItem
from .aggregate import PricedResponse, price_responses
from .identity import by_project, prompt_key
from .inventory import STATUSES, is_failed, owned_calls
from .pricing import PriceTable, load_price_table
from .tokens import TokenCounts
from .usage import collect_responses

#: User messages that start a turn: something the person typed (a prompt or a slash command).
TURN_STARTS: frozenset[str] = frozenset({"prompt", "command"})
#: Prompts Claude Code writes itself: a background subagent reporting back belongs to the turn
#: that started it.
_INJECTED = ("<task-notification>",)


def is_injected(text: str) -> bool:
    """Whether a prompt's ``text`` is one Claude Code wrote itself (a task notification)."""
    return text.lstrip().startswith(_INJECTED)


def is_prompt(item: Item) -> bool:
    """Whether ``item`` is a prompt or a slash command the person typed."""
    return isinstance(item, UserItem) and item.kind in TURN_STARTS and not is_injected(item.text)


def inline_entry_ids(session: Session) -> set[int]:
    """Identities of the entries that belong to inline subagents of ``session`` (Claude Code
    1.x kept subagents' records inside the session file, marked ``isSidechain``; the parser
    gives them to subagent sessions of their own)."""
    return {
        id(entry)
        for agent in session.subagents
        if agent.path == session.path and agent is not session
        for entry in agent.entries
    }


def own_items(session: Session) -> list[Item]:
    """The items of ``session``'s own transcript in file order, without the records of its
    inline subagents."""
    inline = inline_entry_ids(session)
    if not inline:
        return list(session.items)
    return [item for item in session.items if id(item.first) not in inline]


def session_prompts(session: Session) -> Iterator[tuple[str, UserItem]]:
    """The prompts of ``session`` with their keys (see :func:`is_prompt`).

    A subagent's transcript has none, an orphan's included (a session of its own whose parent
    is gone): its first message is the prompt the model wrote for it ("Warmup", the task, the
    compaction instruction), not one a person typed.
    """
    if session.is_subagent:
        return
    for item in own_items(session):
        if is_prompt(item):
            assert isinstance(item, UserItem)
            yield prompt_key(item.uuid, session.path, item.first.line), item


class CallCounts(msgspec.Struct, kw_only=True):
    """Tool calls by status; ``failed`` is ``error`` + ``rejected`` + ``interrupted``."""

    calls: int = 0
    ok: int = 0
    error: int = 0
    rejected: int = 0
    interrupted: int = 0
    pending: int = 0
    failed: int = 0

    def add(self, status: ToolStatus, count: int = 1) -> None:
        """Count ``count`` calls that ended in ``status``."""
        self.calls += count
        setattr(self, status, getattr(self, status) + count)
        if is_failed(status):
            self.failed += count

    @classmethod
    def of(cls, statuses: Iterable[ToolStatus]) -> CallCounts:
        """The counts of calls with these statuses."""
        counts = cls()
        for status in statuses:
            counts.add(status)
        return counts

    def as_dict(self) -> dict[str, int]:
        """``calls``, each status and ``failed``."""
        return {
            "calls": self.calls,
            **{s: getattr(self, s) for s in STATUSES},
            "failed": self.failed,
        }


class Figures(msgspec.Struct, kw_only=True):
    """The figures of some sessions (see the module docstring).

    ``cost`` covers the priced responses (``None`` when none had a price);
    ``unpriced_responses`` counts the others.
    """

    sessions: int = 0
    prompts: int = 0
    responses: int = 0
    tool_calls: CallCounts = msgspec.field(default_factory=CallCounts)
    tokens: TokenCounts = msgspec.field(default_factory=TokenCounts)
    cost: float | None = None
    unpriced_responses: int = 0

    def add_response(self, item: PricedResponse) -> None:
        """Count one priced response."""
        self.count_response(item.response.tokens, item.priced.cost)

    def count_response(self, tokens: TokenCounts, cost: float | None) -> None:
        """Count one response that used ``tokens`` and cost ``cost`` (``None``: unpriced)."""
        self.responses += 1
        self.tokens = self.tokens + tokens
        if cost is None:
            self.unpriced_responses += 1
        else:
            self.cost = (self.cost or 0.0) + cost


class Tally(msgspec.Struct):
    """Every prompt, response and tool call of some sessions once, with the session that
    counts it (``Response.session_path`` for a response)."""

    sessions: list[Session]
    prompts: list[tuple[Session, UserItem]]
    responses: list[PricedResponse]
    calls: list[tuple[Session, ToolCall]]


def owned_prompts(sessions: Iterable[Session]) -> list[tuple[Session, UserItem]]:
    """Every prompt of ``sessions`` once, with the session that counts it."""
    found: list[tuple[Session, UserItem]] = []
    for project in by_project(sessions):
        seen: set[str] = set()
        for session in project:
            for key, item in session_prompts(session):
                if key not in seen:
                    seen.add(key)
                    found.append((session, item))
    return found


def tally(sessions: Sequence[Session], prices: PriceTable | None = None) -> Tally:
    """Count ``sessions`` once (see the module docstring), pricing responses with ``prices``
    (the bundled table by default)."""
    table = prices or load_price_table()
    return Tally(
        sessions=list(sessions),
        prompts=owned_prompts(sessions),
        responses=price_responses(collect_responses(sessions), table),
        calls=owned_calls(sessions),
    )


def _in(when: datetime | None, keep: Callable[[datetime | None], bool] | None) -> bool:
    return keep is None or keep(when)


def total_figures(counted: Tally, keep: Callable[[datetime | None], bool] | None = None) -> Figures:
    """The figures of everything in ``counted``; ``keep`` selects prompts, responses and calls
    by their time (a prompt's or response's timestamp, a call's start)."""
    figures = Figures(sessions=len(counted.sessions))
    figures.prompts = sum(1 for _, item in counted.prompts if _in(item.timestamp, keep))
    for priced in counted.responses:
        if _in(priced.response.timestamp, keep):
            figures.add_response(priced)
    for _, call in counted.calls:
        if _in(call.started, keep):
            figures.tool_calls.add(call.status)
    return figures


def figures_by_session(counted: Tally) -> dict[Path, Figures]:
    """The figures of each session of ``counted``, by the session's path."""
    found = {session.path: Figures(sessions=1) for session in counted.sessions}
    for session, _ in counted.prompts:
        found[session.path].prompts += 1
    for priced in counted.responses:
        found[priced.response.session_path].add_response(priced)
    for session, call in counted.calls:
        found[session.path].tool_calls.add(call.status)
    return found


def session_figures(session: Session, prices: PriceTable | None = None) -> Figures:
    """The figures of one session read on its own (with nothing to share them with)."""
    return total_figures(tally([session], prices))


__all__ = [
    "TURN_STARTS",
    "CallCounts",
    "Figures",
    "Tally",
    "figures_by_session",
    "inline_entry_ids",
    "is_injected",
    "is_prompt",
    "own_items",
    "owned_prompts",
    "session_figures",
    "session_prompts",
    "tally",
    "total_figures",
]
