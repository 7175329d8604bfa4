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
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import Event, ReadableSpan
from opentelemetry.sdk.util.instrumentation import InstrumentationScope
from opentelemetry.trace import SpanContext, SpanKind, Status, StatusCode, TraceFlags

from .. import __version__
from ..analytics.usage import SYNTHETIC_MODEL
from ..dataset.agents import subagent_type
from ..dataset.responses import Ledger
from ..dataset.select import first_activity, last_activity
from ..dataset.turns import Turn, split_turns
from ..model.messages import Usage
from ..model.tools import mcp_parts
from ..model.tools.agents import AgentInput
from ..parse import AssistantItem, Item, Session, SystemItem, ToolCall, UserItem
from ..parse.session import parse_time
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
class TraceBuilder:
    """Builds the spans of sessions.

    ``content`` is ``None`` to send structure only (no prompt, response, tool input or result
    and no error text). ``ledger`` counts each API response once across the sessions built
    with this builder: a copy of a response (a resumed session repeats earlier ones) gets a
    chat span without token counts.
    """

    machine: str
    content: Content | None
    ledger: Ledger = field(default_factory=Ledger)
    _resource: Resource | None = None

    @property
    def resource(self) -> Resource:
        if self._resource is None:
            self._resource = resource(self.machine)
        return self._resource

    def session(self, session: Session) -> list[ReadableSpan]:
        """Every span of ``session`` and its subagents, parents before children."""
        trace = _Trace(self, session.session_id)
        times = _Times(first_activity(session), last_activity(session))
        attributes: Attributes = {
            sc.AGENT_NAME: sc.AGENT,
            sc.AGENT_ID: session.session_id,
            "cclens.session.id": session.session_id,
            "cclens.project": session.project,
        }
        if session.git_branch:
            attributes["cclens.git.branch"] = session.git_branch
        if session.versions:
            attributes["cclens.claude_code.version"] = session.versions[-1]
        if self.content is not None:
            if session.title:
                attributes["cclens.session.title"] = self.content.text(session.title)
            if session.cwd:
                attributes["cclens.session.cwd"] = self.content.text(session.cwd)
        trace.agent(session, None, None, times, f"{sc.INVOKE_AGENT} {sc.AGENT}", attributes)
        return trace.spans


class _Trace:
    """The spans of one session being built."""

    def __init__(self, builder: TraceBuilder, session_id: str) -> None:
        self.builder = builder
        self.content = builder.content
        self.session_id = session_id
        self.trace_id = trace_id(session_id)
        self.spans: list[ReadableSpan] = []

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
            sc.PROVIDER_NAME: sc.ANTHROPIC,
            sc.SYSTEM: sc.ANTHROPIC,
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
    ) -> None:
        """The span of a transcript (the session or a subagent) and its turns below it."""
        turns = split_turns(session)
        attributes = {sc.OPERATION_NAME: sc.INVOKE_AGENT, **attributes}
        attributes["cclens.session.turns"] = sum(1 for t in turns if t.prompt is not None)
        key = span_key("agent", "", agent_id) if agent_id else span_key("session", "")
        context = self._span(name, key, parent, times.within(times), attributes)
        for turn in turns:
            self.turn(session, turn, agent_id, context, times)

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
        if turn.prompt is not None:
            attributes["cclens.turn.kind"] = turn.prompt.kind
            if self.content is not None:
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
                self.chat(item, agent_id, context, span_times, inputs)
                inputs = []
                for call in item.tool_calls:
                    self.tool(session, call, agent_id, context, times)
            elif isinstance(item, UserItem):
                inputs.append(user_message(item))
            previous = _last_time(item) or previous

    def chat(
        self,
        item: AssistantItem,
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
        usage = item.usage
        if usage is not None and model != SYNTHETIC_MODEL:
            if self.builder.ledger.claim_response(item.message_id, item.request_id, item.uuid):
                attributes |= _usage_attributes(usage)
            else:
                attributes["cclens.usage.counted_in_another_session"] = True
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
        attributes: Attributes = {
            sc.OPERATION_NAME: sc.EXECUTE_TOOL,
            sc.TOOL_NAME: call.name,
            sc.TOOL_CALL_ID: call.id,
            sc.TOOL_TYPE: sc.TOOL_TYPE_EXTENSION if parts else sc.TOOL_TYPE_FUNCTION,
            "cclens.tool.status": call.status,
        }
        if call.spec.description:
            attributes[sc.TOOL_DESCRIPTION] = call.spec.description
        if parts:
            attributes["cclens.mcp.server"] = parts.server
        if self.content is not None:
            attributes[sc.TOOL_CALL_ARGUMENTS] = self.content.json(call.block.input)
            if call.result_block is not None:
                attributes[sc.TOOL_CALL_RESULT] = self.content.text(call.result_text)
        status = None
        if call.is_error:
            attributes[sc.ERROR_TYPE] = call.status
            if self.content is not None and call.result_text:
                detail = self.content.text(call.result_text)
            else:
                detail = _STATUS_TEXT.get(call.status, call.status)
            status = Status(StatusCode.ERROR, detail)
        times = _Times(call.started, call.finished)
        context = self._span(
            f"{sc.EXECUTE_TOOL} {call.name}",
            span_key("tool", call.id, agent_id),
            parent,
            times.within(outer),
            attributes,
            status=status,
        )
        for agent in call.subagents:
            self.subagent(session, agent, call, context, times)

    def subagent(
        self,
        session: Session,
        agent: Session,
        call: ToolCall,
        parent: SpanContext,
        outer: _Times,
    ) -> None:
        """The subagent ``agent`` that ``session`` spawned, below the call's span."""
        agent_id = agent.agent_id or "unknown"
        name = subagent_type(agent, call) or "subagent"
        attributes: Attributes = {
            sc.AGENT_NAME: name,
            sc.AGENT_ID: agent_id,
            "cclens.subagent.source": "inline" if agent.path == session.path else "file",
        }
        spawn = call.input if isinstance(call.input, AgentInput) else None
        if self.content is not None and spawn is not None and spawn.description:
            attributes["cclens.subagent.description"] = self.content.text(spawn.description)
        times = _Times(first_activity(agent), last_activity(agent))
        if times.start is None:
            times = outer
        self.agent(agent, agent_id, parent, times, f"{sc.INVOKE_AGENT} {name}", attributes)

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


def _usage_attributes(usage: Usage) -> Attributes:
    """Token counts; ``gen_ai.usage.input_tokens`` includes the cached tokens, as the
    conventions require for Anthropic (whose own ``input_tokens`` excludes them)."""
    cache_read = usage.cache_read_input_tokens or 0
    cache_creation = usage.cache_creation_input_tokens or 0
    return {
        sc.USAGE_INPUT_TOKENS: (usage.input_tokens or 0) + cache_read + cache_creation,
        sc.USAGE_OUTPUT_TOKENS: usage.output_tokens or 0,
        sc.USAGE_CACHE_READ: cache_read,
        sc.USAGE_CACHE_CREATION: cache_creation,
    }


__all__ = ["TraceBuilder", "resource"]
