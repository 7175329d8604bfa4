"""A session as OpenTelemetry spans, following the GenAI semantic conventions.

Shape of a trace (one per session)::

    invoke_agent claude-code            the session
    ├── turn 1                          a prompt and what followed it
    │   ├── chat claude-sonnet-4-5      a model response (CLIENT)
    │   ├── execute_tool Bash           a tool call
    │   ├── execute_tool Task
    │   │   └── invoke_agent Explore    the subagent it spawned, with its own turns
    │   └── chat claude-sonnet-4-5
    └── turn 2 …

Spans are built as finished :class:`~opentelemetry.sdk.trace.ReadableSpan` values with ids
derived from the session (:mod:`cclens.otel.ids`) and times from the records, not through a
live ``Tracer``: a tracer stamps spans with the current time and draws random ids.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import Event, ReadableSpan
from opentelemetry.sdk.util.instrumentation import InstrumentationScope
from opentelemetry.trace import SpanContext, SpanKind, Status, StatusCode, TraceFlags

from .. import __version__
from ..dataset.agents import subagent_type
from ..dataset.responses import Ledger
from ..dataset.select import first_activity, last_activity
from ..dataset.turns import Turn, split_turns
from ..figures.figures import session_prompts
from ..figures.identity import call_key, prompt_key
from ..figures.inventory import session_calls
from ..figures.pricing import PriceTable, load_price_table
from ..figures.usage import Response, collect_responses
from ..model.session import ToolStatus, parse_time
from ..model.tools import mcp_parts
from ..model.tools.agents import AgentInput
from ..readers import agents
from ..readers.claude import AssistantItem, Item, Session, SystemItem, ToolCall, UserItem
from . import conventions as sc
from .content import Content, Message, output_message, user_message
from .ids import span_id, span_key, trace_id

Attributes = dict[str, Any]

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_SAMPLED = TraceFlags(TraceFlags.SAMPLED)
_SCOPE = InstrumentationScope("cclens", __version__)
#: What a failed tool call's status says when content is not sent.
_STATUS_TEXT = {
    "error": "the tool returned an error",
    "rejected": "the user rejected the tool call",
    "interrupted": "the user interrupted the tool call",
}


def _nanoseconds(moment: datetime) -> int:
    return (moment - _EPOCH) // timedelta(microseconds=1) * 1000


def resource(machine: str) -> Resource:
    """The resource every span carries: ``service.name = claude-code`` and the machine.

    ``service.instance.id`` is derived from the machine's name (the SDK would draw a random
    one), so two exports from one machine describe the same instance.
    """
    instance = uuid.uuid5(uuid.NAMESPACE_DNS, f"{machine}.cclens")
    return Resource.create(
        {
            "service.name": sc.SERVICE_NAME,
            "service.instance.id": str(instance),
            sc.MACHINE: machine,
        }
    )


@dataclass(slots=True)
class _Times:
    start: datetime | None
    end: datetime | None

    def or_else(self, other: _Times) -> _Times:
        """These times, the missing ones taken from ``other``."""
        return _Times(self.start or other.start, self.end or other.end)

    def within(self, parent: _Times) -> tuple[int, int]:
        """Start and end in nanoseconds; missing times fall back to the parent's."""
        start = self.start or parent.start or self.end or parent.end or _EPOCH
        end = self.end or start
        return _nanoseconds(start), max(_nanoseconds(end), _nanoseconds(start))


@dataclass(slots=True)
class _Counted:
    """What one session counts (see :mod:`cclens.figures.figures`), decided as its spans are
    built: by ``(file, line)`` of their record, the responses it counts; by key, each call's
    status and whether the session counts it; the keys of the prompts it counts."""

    responses: dict[tuple[Path, int], tuple[Response, bool]] = field(default_factory=dict)
    calls: dict[str, tuple[ToolStatus, bool]] = field(default_factory=dict)
    prompts: set[str] = field(default_factory=set)


@dataclass(slots=True)
class _Held:
    """A session's spans held back until its project is done: a call it counts has no result
    yet, and a later session of the project may hold the result."""

    session: Session
    spans: list[ReadableSpan]
    #: Position in ``spans`` of each pending call's span, by key.
    pending: dict[str, int]


@dataclass(slots=True)
class TraceBuilder:
    """Builds the spans of sessions.

    ``content`` is ``None`` to send structure only (no prompt, response, tool input or result
    and no error text). Each API response, tool call and prompt is counted once in its project,
    as every cclens figure is (:mod:`cclens.figures.figures`), across the sessions built with
    this builder, given in reading order: a copy (a resumed session repeats earlier records) is
    marked ``cclens.*.counted_in_another_session`` and a copied response carries no token
    counts. ``prices`` price each counted response (the bundled table by default).
    """

    machine: str
    content: Content | None
    prices: PriceTable | None = None
    ledger: Ledger = field(default_factory=Ledger)
    _project: str | None = None
    _resource: Resource | None = None

    @property
    def resource(self) -> Resource:
        if self._resource is None:
            self._resource = resource(self.machine)
        return self._resource

    @property
    def price_table(self) -> PriceTable:
        """The prices of counted responses (the bundled table unless ``prices`` was given)."""
        if self.prices is None:
            self.prices = load_price_table()
        return self.prices

    def _count(self, session: Session) -> _Counted:
        if session.project != self._project:  # each project is counted on its own
            self.ledger, self._project = Ledger(), session.project
        ledger = self.ledger
        counted = _Counted()
        for response in collect_responses([session]):
            claimed = ledger.claim_response(
                response.message_id, response.request_id, response.identity
            )
            counted.responses[(response.path, response.line)] = (response, claimed)
        for key, call in session_calls(session):
            counted.calls[key] = (call.status, ledger.claim_tool_call(key))
        counted.prompts = {key for key, _ in session_prompts(session) if ledger.claim_prompt(key)}
        return counted

    def session(self, session: Session) -> list[ReadableSpan]:
        """Every span of ``session`` and its subagents, parents before children."""
        return self._build(session).spans

    def _build(self, session: Session) -> _Trace:
        trace = _Trace(self, session.session_id, self._count(session), session.agent)
        times = _Times(first_activity(session), last_activity(session))
        name = sc.agent_name(session.agent)
        attributes: Attributes = {
            sc.AGENT_NAME: name,
            sc.AGENT_ID: session.session_id,
            "cclens.agent": session.agent,
            "cclens.session.id": session.session_id,
            "cclens.project": session.project,
        }
        if session.orphan:
            attributes["cclens.session.orphan"] = True
            if session.parent_session_id:
                attributes["cclens.session.parent_id"] = session.parent_session_id
        if session.git_branch:
            attributes["cclens.git.branch"] = session.git_branch
        if session.versions:
            attributes["cclens.agent.version"] = session.versions[-1]
            if session.agent == "claude":
                attributes["cclens.claude_code.version"] = session.versions[-1]
        if self.content is not None:
            if session.title:
                attributes["cclens.session.title"] = self.content.text(session.title)
            if session.cwd:
                attributes["cclens.session.cwd"] = self.content.text(session.cwd)
        root = trace.agent(session, None, None, times, f"{sc.INVOKE_AGENT} {name}", attributes)
        trace.unclaimed(session, root, times)
        trace.separate(root, times)
        return trace

    def traces(self, sessions: Iterable[Session]) -> Iterator[tuple[Session, list[ReadableSpan]]]:
        """The spans of each session (given in reading order, as
        :func:`cclens.readers.claude.discover` lists them), each session when its spans are final.

        A session that counts a call without a result is held back until its project is done:
        a later session of the project that holds the call's result gives it its status.
        """
        held: list[_Held] = []
        waiting: dict[str, tuple[_Held, int]] = {}
        project: str | None = None
        for session in sessions:
            if session.project != project:
                yield from ((h.session, h.spans) for h in held)
                held, waiting, project = [], {}, session.project
            trace = self._build(session)
            for key, call in trace.results.items():
                found = waiting.pop(key, None)
                if found is not None:
                    owner, position = found
                    owner.spans[position] = _with_status(owner.spans[position], call, self.content)
            if trace.pending:
                keep = _Held(session, trace.spans, trace.pending)
                held.append(keep)
                waiting.update({key: (keep, index) for key, index in trace.pending.items()})
            else:
                yield session, trace.spans
        yield from ((h.session, h.spans) for h in held)


class _Trace:
    """The spans of one session being built."""

    def __init__(
        self, builder: TraceBuilder, session_id: str, counted: _Counted, agent: str = "claude"
    ) -> None:
        self.builder = builder
        self.provider = agents.provider(agent)
        self.content = builder.content
        self.session_id = session_id
        self.trace_id = trace_id(session_id)
        self.counted = counted
        self.spans: list[ReadableSpan] = []
        #: Calls the session counts that have no result: their span's position, by key.
        self.pending: dict[str, int] = {}
        #: Copies with a result of calls another session counts, by key.
        self.results: dict[str, ToolCall] = {}

    def _context(self, key: str) -> SpanContext:
        return SpanContext(self.trace_id, span_id(self.session_id, key), False, _SAMPLED)

    def _span(
        self,
        name: str,
        key: str,
        parent: SpanContext | None,
        times: tuple[int, int],
        attributes: Attributes,
        *,
        kind: SpanKind = SpanKind.INTERNAL,
        status: Status | None = None,
        events: Sequence[Event] = (),
    ) -> SpanContext:
        context = self._context(key)
        common: Attributes = {
            sc.PROVIDER_NAME: self.provider,
            sc.SYSTEM: self.provider,
            sc.CONVERSATION_ID: self.session_id,
        }
        self.spans.append(
            ReadableSpan(
                name=name,
                context=context,
                parent=parent,
                resource=self.builder.resource,
                attributes=common | attributes,
                events=events,
                kind=kind,
                status=status or Status(StatusCode.UNSET),
                start_time=times[0],
                end_time=times[1],
                instrumentation_scope=_SCOPE,
            )
        )
        return context

    def agent(
        self,
        session: Session,
        agent_id: str | None,
        parent: SpanContext | None,
        times: _Times,
        name: str,
        attributes: Attributes,
    ) -> SpanContext:
        """The span of a transcript (the session or a subagent) and its turns below it."""
        turns = split_turns(session)
        attributes = {sc.OPERATION_NAME: sc.INVOKE_AGENT, **attributes}
        attributes["cclens.session.turns"] = sum(1 for t in turns if t.prompt is not None)
        key = span_key("agent", "", agent_id) if agent_id else span_key("session", "")
        context = self._span(name, key, parent, times.within(times), attributes)
        for turn in turns:
            self.turn(session, turn, agent_id, context, times)
        return context

    def turn(
        self,
        session: Session,
        turn: Turn,
        agent_id: str | None,
        parent: SpanContext,
        outer: _Times,
    ) -> None:
        times = _Times(turn.started, turn.ended)
        anchor = turn.prompt.anchor if turn.prompt else f"0-{turn.items[0].anchor}"
        attributes: Attributes = {
            "cclens.turn.index": turn.index,
            "cclens.turn.main": turn.main,
            "cclens.turn.responses": len(turn.responses),
            "cclens.turn.tool_calls": len(turn.tool_calls),
        }
        counts = False
        if turn.prompt is not None:
            attributes["cclens.turn.kind"] = turn.prompt.kind
            prompt = turn.prompt
            key = prompt_key(prompt.uuid, session.path, prompt.first.line)
            counts = agent_id is None and key in self.counted.prompts
            self.counted.prompts.discard(key)  # a record written twice is one prompt
            if agent_id is None and not counts:
                attributes["cclens.turn.counted_in_another_session"] = True
        attributes["cclens.turn.counts_prompt"] = counts
        if turn.prompt is not None and self.content is not None:
            message = user_message(turn.prompt)
            attributes[sc.INPUT_MESSAGES] = self.content.json([message])
        start = times.within(outer)[0]
        events = [e for item in turn.items if (e := self._event(item, start)) is not None]
        context = self._span(
            f"turn {turn.index}",
            span_key("turn", anchor, agent_id),
            parent,
            times.within(outer),
            attributes,
            events=events,
        )
        inputs: list[Message] = []
        previous = turn.started
        for item in turn.items:
            if isinstance(item, AssistantItem):
                span_times = _Times(previous, _last_time(item)).within(times.or_else(outer))
                self.chat(item, session.path, agent_id, context, span_times, inputs)
                inputs = []
                for call in item.tool_calls:
                    self.tool(session, call, agent_id, context, times)
            elif isinstance(item, UserItem):
                inputs.append(user_message(item))
            previous = _last_time(item) or previous

    def chat(
        self,
        item: AssistantItem,
        path: Path,
        agent_id: str | None,
        parent: SpanContext,
        times: tuple[int, int],
        inputs: list[Message],
    ) -> None:
        model = item.model or "unknown"
        attributes: Attributes = {
            sc.OPERATION_NAME: sc.CHAT,
            sc.REQUEST_MODEL: model,
            sc.RESPONSE_MODEL: model,
            "cclens.message.uuid": item.uuid or item.anchor,
        }
        if item.message_id:
            attributes[sc.RESPONSE_ID] = item.message_id
        if item.request_id:
            attributes["cclens.request.id"] = item.request_id
        if item.stop_reason:
            attributes[sc.RESPONSE_FINISH_REASONS] = [item.stop_reason]
        # The response this message holds (a message merged from several responses, which
        # only fixtures' placeholder ids make, carries the first; the others get spans of their
        # own, see `separate`).
        for entry in item.entries:
            found = self.counted.responses.pop((path, entry.line), None)
            if found is None:
                continue
            response, claimed = found
            if claimed:
                attributes |= self._usage_attributes(response)
            else:
                attributes["cclens.usage.counted_in_another_session"] = True
            break
        if self.content is not None:
            if inputs:
                attributes[sc.INPUT_MESSAGES] = self.content.json(inputs)
            attributes[sc.OUTPUT_MESSAGES] = self.content.json([output_message(item)])
        status = None
        if item.is_api_error:
            attributes[sc.ERROR_TYPE] = "api_error"
            detail = self.content.text(item.text) if self.content is not None else "API error"
            status = Status(StatusCode.ERROR, detail or "API error")
        self._span(
            f"{sc.CHAT} {model}",
            span_key("chat", item.anchor, agent_id),
            parent,
            times,
            attributes,
            kind=SpanKind.CLIENT,
            status=status,
        )

    def tool(
        self,
        session: Session,
        call: ToolCall,
        agent_id: str | None,
        parent: SpanContext,
        outer: _Times,
    ) -> None:
        parts = mcp_parts(call.name)
        key = call_key(call.block.id, session.path, call.entry.line, call.name)
        status, counts = self.counted.calls.get(key, (call.status, False))
        attributes: Attributes = {
            sc.OPERATION_NAME: sc.EXECUTE_TOOL,
            sc.TOOL_NAME: call.name,
            sc.TOOL_CALL_ID: call.id,
            sc.TOOL_TYPE: sc.TOOL_TYPE_EXTENSION if parts else sc.TOOL_TYPE_FUNCTION,
            "cclens.tool.status": status if counts else call.status,
        }
        if not counts:
            attributes["cclens.tool.counted_in_another_session"] = True
            if call.status != "pending":
                self.results[key] = call
        elif status == "pending":
            self.pending[key] = len(self.spans)
        if call.spec.description:
            attributes[sc.TOOL_DESCRIPTION] = call.spec.description
        if parts:
            attributes["cclens.mcp.server"] = parts.server
        if self.content is not None:
            attributes[sc.TOOL_CALL_ARGUMENTS] = self.content.json(call.block.input)
            if call.result_block is not None:
                attributes[sc.TOOL_CALL_RESULT] = self.content.text(call.result_text)
        span_status = _call_status(call, attributes, self.content)
        times = _Times(call.started, call.finished)
        context = self._span(
            f"{sc.EXECUTE_TOOL} {call.name}",
            span_key("tool", call.id, agent_id),
            parent,
            times.within(outer),
            attributes,
            status=span_status,
        )
        for agent in call.subagents:
            self.subagent(session, agent, call, context, times)

    def unclaimed(self, session: Session, parent: SpanContext, outer: _Times) -> None:
        """The subagents of ``session`` that no call claimed, below the session's span."""
        claimed = {id(a) for call in session.tool_calls.values() for a in call.subagents}
        for agent in session.subagents:
            if id(agent) not in claimed:
                self.subagent(session, agent, None, parent, outer)

    def subagent(
        self,
        session: Session,
        agent: Session,
        call: ToolCall | None,
        parent: SpanContext,
        outer: _Times,
    ) -> None:
        """The subagent ``agent`` that ``session`` spawned, below the call's span (below the
        session's when no call claimed it)."""
        agent_id = agent.agent_id or "unknown"
        name = subagent_type(agent, call) or "subagent"
        attributes: Attributes = {
            sc.AGENT_NAME: name,
            sc.AGENT_ID: agent_id,
            "cclens.subagent.source": "inline" if agent.path == session.path else "file",
        }
        if call is None:
            attributes["cclens.subagent.unclaimed"] = True
        spawn = call.input if call is not None and isinstance(call.input, AgentInput) else None
        if self.content is not None and spawn is not None and spawn.description:
            attributes["cclens.subagent.description"] = self.content.text(spawn.description)
        times = _Times(first_activity(agent), last_activity(agent))
        if times.start is None:
            times = outer
        self.agent(agent, agent_id, parent, times, f"{sc.INVOKE_AGENT} {name}", attributes)

    def _usage_attributes(self, response: Response) -> Attributes:
        """Token counts and cost of a response the session counts.

        ``gen_ai.usage.input_tokens`` includes the cached tokens, as the conventions require
        for Anthropic (whose own ``input_tokens`` excludes them); the cache writes' lifetimes
        and the cost (``cclens.usage.cost_usd``, absent for a model without a price) are
        cclens's own.
        """
        tokens = response.tokens
        attributes: Attributes = {
            sc.USAGE_INPUT_TOKENS: tokens.input + tokens.cache_read + tokens.cache_write,
            sc.USAGE_OUTPUT_TOKENS: tokens.output,
            sc.USAGE_CACHE_READ: tokens.cache_read,
            sc.USAGE_CACHE_CREATION: tokens.cache_write,
            "cclens.usage.cache_creation_5m.input_tokens": tokens.cache_write_5m,
            "cclens.usage.cache_creation_1h.input_tokens": tokens.cache_write_1h,
        }
        if tokens.cache_write_unsplit:
            attributes["cclens.usage.cache_creation_unsplit.input_tokens"] = (
                tokens.cache_write_unsplit
            )
        priced = response.priced(self.builder.price_table)
        if priced.cost is not None:
            attributes["cclens.usage.cost_usd"] = priced.cost
        return attributes

    def separate(self, parent: SpanContext, outer: _Times) -> None:
        """A ``chat`` span for each response of the session that no message span carries: a
        subagent's response mirrored in the parent's transcript (``agent_progress`` records)
        when the subagent's own file is not there, or a subagent no call claimed."""
        for (path, line), (response, claimed) in self.counted.responses.items():
            model = response.model or "unknown"
            attributes: Attributes = {
                sc.OPERATION_NAME: sc.CHAT,
                sc.REQUEST_MODEL: model,
                sc.RESPONSE_MODEL: model,
                "cclens.response.separate": True,
            }
            if response.message_id:
                attributes[sc.RESPONSE_ID] = response.message_id
            if response.request_id:
                attributes["cclens.request.id"] = response.request_id
            if response.agent_id:
                attributes[sc.AGENT_ID] = response.agent_id
            if claimed:
                attributes |= self._usage_attributes(response)
            else:
                attributes["cclens.usage.counted_in_another_session"] = True
            times = _Times(response.timestamp, response.timestamp).within(outer)
            self._span(
                f"{sc.CHAT} {model}",
                span_key("chat", f"{path.name}:{line}", response.agent_id),
                parent,
                times,
                attributes,
                kind=SpanKind.CLIENT,
            )
        self.counted.responses.clear()

    def _event(self, item: Item, fallback: int) -> Event | None:
        """A span event for what happened in a turn besides messages: API errors, compactions
        and interruptions. ``fallback`` is the time of an event whose record has none (the SDK
        would stamp the current time)."""
        moment = item.timestamp
        when = _nanoseconds(moment) if moment is not None else fallback
        if isinstance(item, SystemItem) and item.subtype in ("api_error", "compact_boundary"):
            record = item.record
            attributes: Attributes = {"cclens.system.subtype": item.subtype}
            if item.subtype == "compact_boundary":
                metadata = record.compact_metadata or None
                trigger = (metadata.trigger if metadata else None) or record.trigger or None
                if trigger:
                    attributes["cclens.compaction.trigger"] = trigger
                if metadata and metadata.pre_tokens:
                    attributes["cclens.compaction.pre_tokens"] = metadata.pre_tokens
                return Event("cclens.compaction", attributes, when)
            error = record.error if isinstance(record.error, dict) else {}
            if isinstance(record.retry_attempt, int):
                attributes["cclens.retry.attempt"] = record.retry_attempt
            if isinstance(error.get("status"), int):
                attributes["cclens.error.status"] = error["status"]
            text = record.content or error.get("formatted") or error.get("message")
            if self.content is not None and isinstance(text, str) and text:
                attributes["cclens.event.text"] = self.content.text(text)
            return Event("cclens.api_error", attributes, when)
        if isinstance(item, UserItem) and item.kind == "interrupt":
            return Event("cclens.interrupt", {}, when)
        return None


def _last_time(item: Item) -> datetime | None:
    """The time of the item's last record (a streamed response spans several)."""
    times = [parse_time(getattr(entry.record, "timestamp", None)) for entry in item.entries]
    known = [moment for moment in times if moment is not None]
    return max(known) if known else None


def _call_status(call: ToolCall, attributes: Attributes, content: Content | None) -> Status | None:
    """The span status of a call that failed (setting ``error.type`` in ``attributes``)."""
    if not call.is_error:
        return None
    attributes[sc.ERROR_TYPE] = call.status
    if content is not None and call.result_text:
        detail = content.text(call.result_text)
    else:
        detail = _STATUS_TEXT.get(call.status, call.status)
    return Status(StatusCode.ERROR, detail)


def _with_status(span: ReadableSpan, call: ToolCall, content: Content | None) -> ReadableSpan:
    """``span`` of a call counted without a result, given the result another copy holds."""
    attributes: Attributes = dict(span.attributes or {})
    attributes["cclens.tool.status"] = call.status
    attributes["cclens.tool.status_from_copy"] = True
    if content is not None and call.result_block is not None:
        attributes[sc.TOOL_CALL_RESULT] = content.text(call.result_text)
    status = _call_status(call, attributes, content)
    return ReadableSpan(
        name=span.name,
        context=span.context,
        parent=span.parent,
        resource=span.resource,
        attributes=attributes,
        events=span.events,
        kind=span.kind,
        status=status or span.status,
        start_time=span.start_time,
        end_time=span.end_time,
        instrumentation_scope=span.instrumentation_scope,
    )


__all__ = ["TraceBuilder", "resource"]
