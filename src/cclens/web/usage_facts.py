"""What the dashboard keeps of each session: its API responses and tool calls, and nothing else.

The dashboard adds up every session of the index. Holding every assembled session in memory
would take gigabytes on a large index, and assembling them all again after each change would
take seconds, so each session is reduced once (per revision) to :class:`SessionFacts`: the
responses :func:`cclens.analytics.usage.collect_responses` finds in it, each priced once, and a
few fields of each tool call. The figures are then worked out from these facts with the same
rules the analytics apply to whole sessions:

* a response recorded by several sessions (a resumed session copies earlier records) counts
  once, for the first session in reading order that recorded it, with its last, largest usage
  (:func:`merge_responses` applies ``collect_responses``'s matcher to the per-session
  responses, and prices again the few it combines);
* a tool call met twice counts once (:func:`merge_calls`, with the merger of
  :func:`cclens.analytics.inventory.unique_calls`), and
  :func:`cclens.analytics.inventory.calls_usage` counts calls, failures and durations.

``tests/test_web_stats.py`` checks that the result equals :func:`cclens.analytics.stats.summarize`
over the whole sessions.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from ..analytics.aggregate import PricedResponse, price_responses
from ..analytics.figures import session_prompts
from ..analytics.identity import (
    ReadingKey,
    ResponseMatcher,
    session_reading_key,
)
from ..analytics.inventory import CallFact, CallMerger, ToolUsage, calls_usage, session_calls
from ..analytics.pricing import PriceTable
from ..analytics.usage import Response, collect_responses
from ..parse import Session

#: How a response without a ``message.id`` is recognised in another session.
ResponseKey = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SessionFacts:
    """One session (with its subagents) as the dashboard keeps it.

    ``priced`` are ``collect_responses([session])`` with their cost, never changed afterwards
    (a merge copies a response before combining it); ``keys`` gives, for each response without
    a ``message.id``, the key another copy of it would have (``None`` for the others).
    """

    key: str
    revision: int
    project: str
    path: str
    started: datetime | None
    priced: tuple[PricedResponse, ...]
    keys: tuple[ResponseKey | None, ...]
    calls: tuple[CallFact, ...]
    #: The keys and times of the session's prompts.
    prompts: tuple[tuple[str, datetime | None], ...] = ()
    #: Where the session comes in reading order (:mod:`cclens.analytics.identity`).
    reading_key: ReadingKey = ("", 0.0, "", "")


def _keys(responses: Sequence[Response]) -> tuple[ResponseKey | None, ...]:
    """How a copy of each response without a ``message.id`` is recognised in another session."""
    return tuple(None if r.message_id is not None else (r.identity,) for r in responses)


def session_facts(session: Session, *, key: str, revision: int, table: PriceTable) -> SessionFacts:
    """What the dashboard keeps of ``session`` (the index's ``key`` at ``revision``), its
    responses priced with ``table``."""
    responses = collect_responses([session])
    return SessionFacts(
        key=key,
        revision=revision,
        project=session.project,
        path=str(session.path),
        started=session.started,
        priced=tuple(price_responses(responses, table)),
        keys=_keys(responses),
        calls=tuple(CallFact.of(call, call_key) for call_key, call in session_calls(session)),
        prompts=tuple((key, item.timestamp) for key, item in session_prompts(session)),
        reading_key=session_reading_key(session),
    )


def reading_order(facts: Iterable[SessionFacts]) -> list[SessionFacts]:
    """Sessions in reading order (:func:`cclens.analytics.identity.reading_order`)."""
    return sorted(facts, key=lambda fact: fact.reading_key)


def _size(response: Response) -> tuple[int, int]:
    # The analytics compare the recorded usage's own total; the counts' total differs from it
    # only when a usage's split of cache writes disagrees with its sum.
    return (response.tokens.output, response.tokens.total)


def _combine(first: Response, later: Response) -> Response:
    """``first`` with another session's copy of the same response folded in."""
    combined = dataclasses.replace(first, tool_calls=list(first.tool_calls))
    if _size(later) >= _size(first):  # the last, largest usage is the final count
        combined.tokens = later.tokens
        combined.speed = later.speed
        combined.inference_geo = later.inference_geo
        combined.path, combined.line = later.path, later.line
    combined.agent_id = first.agent_id or later.agent_id
    combined.model = first.model or later.model
    combined.request_id = first.request_id or later.request_id
    if later.timestamp is not None and (
        combined.timestamp is None or later.timestamp < combined.timestamp
    ):
        combined.timestamp = later.timestamp
    known = {tool_id for tool_id, _ in combined.tool_calls}
    combined.tool_calls.extend(call for call in later.tool_calls if call[0] not in known)
    return combined


class _Merger:
    """Finds the response a later copy belongs to, with ``collect_responses``'s matcher."""

    def __init__(self, table: PriceTable) -> None:
        self.table = table
        self.merged: list[PricedResponse] = []
        self.matcher: ResponseMatcher[int] = ResponseMatcher()

    def add(self, item: PricedResponse, key: ResponseKey | None) -> None:
        response = item.response
        fallback = key[0] if key is not None else ""
        match = self.matcher.find(response.message_id, response.request_id, fallback)
        if match is not None:
            combined = _combine(self.merged[match.value].response, response)
            self.merged[match.value] = price_responses([combined], self.table)[0]
            match.request_id = combined.request_id
            return
        self.merged.append(item)
        self.matcher.add(response.message_id, response.request_id, fallback, len(self.merged) - 1)


def _projects(facts: Iterable[SessionFacts]) -> list[list[SessionFacts]]:
    """``facts`` (in reading order) project by project: each is counted on its own."""
    groups: dict[str, list[SessionFacts]] = {}
    for fact in facts:
        groups.setdefault(fact.project, []).append(fact)
    return list(groups.values())


def merge_responses(facts: Iterable[SessionFacts], table: PriceTable) -> list[PricedResponse]:
    """Every response of the sessions once, priced with ``table`` (the table their facts were
    priced with), as ``collect_responses`` over all of them gives them.

    ``facts`` must be in :func:`reading_order`: a response copied into a later session of its
    project stays with the session that recorded it first.
    """
    merged: list[PricedResponse] = []
    for project in _projects(facts):
        merger = _Merger(table)
        for fact in project:
            for item, key in zip(fact.priced, fact.keys, strict=True):
                merger.add(item, key)
        merged += merger.merged
    return merged


def merge_calls(facts: Iterable[SessionFacts]) -> list[CallFact]:
    """Every tool call of the sessions once, as :func:`cclens.analytics.inventory.unique_calls`
    keeps them (``facts`` in :func:`reading_order`): the first copy that has a result."""
    found: list[CallFact] = []
    for project in _projects(facts):
        merger: CallMerger[None, CallFact] = CallMerger(lambda call: call.status)
        for fact in project:
            for call in fact.calls:
                merger.add(None, call.key, call)
        found += [call for _, call in merger.calls()]
    return found


def merge_prompts(facts: Iterable[SessionFacts]) -> list[datetime | None]:
    """The time of every prompt of the sessions, each counted once in its project."""
    times: list[datetime | None] = []
    for project in _projects(facts):
        seen: set[str] = set()
        for fact in project:
            for key, when in fact.prompts:
                if key not in seen:
                    seen.add(key)
                    times.append(when)
    return times


def tool_usage(
    calls: Iterable[CallFact], keep: Callable[[CallFact], bool] | None = None
) -> dict[str, ToolUsage]:
    """Per tool: calls, results, failures and durations
    (:func:`cclens.analytics.inventory.calls_usage`) of the calls ``keep`` selects."""
    return calls_usage(call for call in calls if keep is None or keep(call))


__all__ = [
    "CallFact",
    "ResponseKey",
    "SessionFacts",
    "merge_calls",
    "merge_prompts",
    "merge_responses",
    "reading_order",
    "session_facts",
    "tool_usage",
]
