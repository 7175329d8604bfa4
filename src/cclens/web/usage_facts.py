"""What the dashboard keeps of each session: its API responses and tool calls, and nothing else.

The dashboard adds up every session of the index. Holding every assembled session in memory
would take gigabytes on a large index, and assembling them all again after each change would
take seconds, so each session is reduced once (per revision) to :class:`SessionFacts`: the
responses :func:`cclens.analytics.usage.collect_responses` finds in it, each priced once, and a
few fields of each tool call. The figures are then worked out from these facts with the same
rules the analytics apply to whole sessions:

* a response recorded by several sessions (a resumed session copies earlier records) counts
  once, for the session that recorded it first, with its last, largest usage
  (:func:`merge_responses` applies ``collect_responses``'s matching to the per-session
  responses, and prices again the few it combines);
* a tool call met twice counts once (:func:`merge_calls`, as
  :func:`cclens.analytics.inventory.unique_calls`), and :func:`tool_usage` counts calls,
  failures and durations as :func:`cclens.analytics.inventory.calls_usage` does.

``tests/test_web_stats.py`` checks that the result equals :func:`cclens.analytics.stats.summarize`
over the whole sessions.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from ..analytics.aggregate import PricedResponse, price_responses
from ..analytics.inventory import CallFact, ToolUsage, call_fact, facts_usage
from ..analytics.pricing import PriceTable
from ..analytics.usage import Response, collect_responses
from ..model.progress import AgentProgress
from ..model.records import AssistantRecord, ProgressRecord
from ..parse import Entry, Session

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


def _real_id(text: object) -> str | None:
    """An id, or ``None`` for a missing one or a fixture's ``[placeholder]`` (as the analytics)."""
    if not isinstance(text, str) or not text or text.startswith("["):
        return None
    return text


def _record_ids(entry: Entry) -> tuple[str | None, str | None]:
    """``(requestId, uuid)`` of the assistant record an entry holds or mirrors."""
    record = entry.record
    if isinstance(record, AssistantRecord):
        return _real_id(record.request_id), _real_id(record.uuid)
    if isinstance(record, ProgressRecord) and isinstance(record.data, AgentProgress):
        mirrored = record.data.message
        if isinstance(mirrored, dict):
            return _real_id(mirrored.get("requestId")), _real_id(mirrored.get("uuid"))
    return None, None


def _keys(session: Session, responses: Sequence[Response]) -> tuple[ResponseKey | None, ...]:
    if all(response.message_id is not None for response in responses):
        return tuple(None for _ in responses)
    entries = {
        (each.path, entry.line): entry for each in session.all_sessions() for entry in each.entries
    }
    keys: list[ResponseKey | None] = []
    for response in responses:
        if response.message_id is not None:
            keys.append(None)
            continue
        found = entries.get((response.path, response.line))
        request_id, uuid = _record_ids(found) if found is not None else (None, None)
        request_id = response.request_id or request_id
        if request_id is not None:
            keys.append(("request", request_id))
        elif uuid is not None:
            keys.append(("uuid", uuid))
        else:
            keys.append(("line", str(response.path), str(response.line)))
    return tuple(keys)


def _calls(session: Session) -> tuple[CallFact, ...]:
    seen: set[str] = set()
    calls: list[CallFact] = []
    for each in session.all_sessions():
        for call in each.tool_calls.values():
            fact = call_fact(call, each.path)
            if fact.key in seen:
                continue  # sidechains kept in the session file are also a subagent session
            seen.add(fact.key)
            calls.append(fact)
    return tuple(calls)


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
        keys=_keys(session, responses),
        calls=_calls(session),
    )


def reading_order(facts: Iterable[SessionFacts]) -> list[SessionFacts]:
    """Sessions in the order ``collect_responses`` reads them: oldest first, then by path."""
    return sorted(facts, key=lambda f: (f.started is None, f.started or datetime.min, f.path))


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
    """Finds the response a later copy belongs to, by ``collect_responses``'s rules."""

    def __init__(self, table: PriceTable) -> None:
        self.table = table
        self.merged: list[PricedResponse] = []
        self.by_message: dict[str, list[int]] = {}
        self.by_key: dict[ResponseKey, int] = {}

    def _find(self, response: Response, key: ResponseKey | None) -> int | None:
        if response.message_id is None:
            return self.by_key.get(key) if key is not None else None
        candidates = self.by_message.get(response.message_id, [])
        for position in candidates:
            if self.merged[position].response.request_id == response.request_id:
                return position
        if response.request_id is None and candidates:
            return candidates[0]
        for position in candidates:
            if self.merged[position].response.request_id is None:
                return position  # an earlier copy without requestId: the same response
        return None

    def add(self, item: PricedResponse, key: ResponseKey | None) -> None:
        response = item.response
        position = self._find(response, key)
        if position is not None:
            combined = _combine(self.merged[position].response, response)
            self.merged[position] = price_responses([combined], self.table)[0]
            return
        self.merged.append(item)
        if response.message_id is not None:
            self.by_message.setdefault(response.message_id, []).append(len(self.merged) - 1)
        elif key is not None:
            self.by_key[key] = len(self.merged) - 1


def merge_responses(facts: Iterable[SessionFacts], table: PriceTable) -> list[PricedResponse]:
    """Every response of the sessions once, priced with ``table`` (the table their facts were
    priced with), as ``collect_responses`` over all of them gives them.

    ``facts`` must be in :func:`reading_order`: a response copied into a later session stays
    with the session that recorded it first.
    """
    merger = _Merger(table)
    for fact in facts:
        for item, key in zip(fact.priced, fact.keys, strict=True):
            merger.add(item, key)
    return merger.merged


def merge_calls(facts: Iterable[SessionFacts]) -> list[CallFact]:
    """Every tool call of the sessions once: the first copy met, in the order of ``facts``.

    In :func:`reading_order`, a call copied into a resumed session is the original's (which may
    have no result where the copy has one); ``cclens stats`` keeps the copy met first in the
    order it found the files.
    """
    seen: set[str] = set()
    calls: list[CallFact] = []
    for fact in facts:
        for call in fact.calls:
            if call.key not in seen:
                seen.add(call.key)
                calls.append(call)
    return calls


def tool_usage(
    calls: Iterable[CallFact], keep: Callable[[CallFact], bool] | None = None
) -> dict[str, ToolUsage]:
    """Per tool: calls, results, failures and durations (as
    :func:`cclens.analytics.inventory.facts_usage`) of the calls ``keep`` selects."""
    return facts_usage(call for call in calls if keep is None or keep(call))


__all__ = [
    "CallFact",
    "ResponseKey",
    "SessionFacts",
    "merge_calls",
    "merge_responses",
    "reading_order",
    "session_facts",
    "tool_usage",
]
