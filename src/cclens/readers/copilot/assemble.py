"""Read a Copilot CLI ``events.jsonl`` and map its events onto the one session model.

``user.message`` is a prompt; ``assistant.message`` a response (its ``reasoningText`` as
thinking, its ``toolRequests`` as tool calls); ``tool.execution_complete`` the result of a call
(``success`` false is an error); ``session.info``/``warning``/``error`` and
``session.model_change`` system notices; ``session.compaction_complete`` a compaction boundary
with its summary. Token usage: Copilot CLI keeps per-response usage only in an ephemeral event
that is not written, so responses carry none; ``session.shutdown`` totals per model are kept in
the records (see :func:`shutdown_usage`). Every other kind is kept as a meta item; a kind not
declared by the CLI's schema is reported by :func:`unknown_kinds`.
"""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path
from typing import Any, TypeAlias

import msgspec

from ...files import open_regular
from ...model import UNSET, Usage
from ...model.blocks import ContentBlock, TextBlock, ThinkingBlock, ToolResultBlock, ToolUseBlock
from ...model.copilot import (
    AssistantMessageData,
    AssistantUsageData,
    CompactionData,
    Event,
    ModelChangeData,
    ModelMetric,
    ModelMetricUsage,
    NotAnEvent,
    NoticeData,
    ReasoningData,
    ShutdownData,
    StartData,
    ToolCompleteData,
    ToolError,
    ToolStartData,
    UserMessageData,
    decode_event,
    event_data,
)
from ...model.entries import Entry, LineEntry
from ...model.messages import Message
from ...model.records import CompactMetadata, SystemRecord, UserRecord
from ...model.session import (
    Session,
)
from ...model.tools.copilot import AGENT
from ..claude.assemble import assemble_entries
from ..lines import LinesRead, decoder, read_lines
from ..records import response_record
from ..slash import command_text
from .usage import usage_of

#: One line of a log (its event) and where it came from.
EventLine: TypeAlias = LineEntry[Event]


def _make(
    value: Event | NotAnEvent,
    number: int,
    offset: int,
    length: int,
    notes: tuple[str, ...],
    problems: tuple[str, ...],
    excerpt: str,
) -> EventLine:
    assert isinstance(value, Event)
    return EventLine(value, number, offset, length, notes, problems, excerpt)


_decode_line = decoder(decode_event, NotAnEvent, _make)

#: What reading a log gives: its events (``entries``), diagnostics, lines and where it ends.
EventFile = LinesRead[EventLine]


def read_events(
    path: Path, data: bytes | None = None, start_offset: int = 0, start_line: int = 0
) -> EventFile:
    """Every event of a log (of ``data``, its bytes from ``start_offset``, when given); a bad
    line is a diagnostic naming its line. Raises ``OSError`` only when it cannot be read."""
    if data is None:
        with open_regular(path) as handle:
            if start_offset:
                handle.seek(start_offset)
            return read_lines(path, handle, start_offset, start_line, _decode_line)
    return read_lines(path, io.BytesIO(data), start_offset, start_line, _decode_line)


def unknown_kinds(events: EventFile) -> list[str]:
    """The kinds of the events the CLI's schema does not declare (for ``check``)."""
    return [line.record.kind for line in events.entries if not line.record.known]


def shutdown_usage(events: EventFile) -> dict[str, dict[str, int]]:
    """Tokens per model from the last ``session.shutdown`` of each run (input, output, cache
    reads and writes, reasoning), summed over runs."""
    totals: dict[str, dict[str, int]] = {}
    for line in events.entries:
        if line.record.kind != "session.shutdown":
            continue
        data = event_data(line.record)
        if not isinstance(data, ShutdownData) or not isinstance(data.model_metrics, dict):
            continue
        for model, metric in data.model_metrics.items():
            usage = metric.usage
            if usage is None or usage is UNSET:
                continue
            row = totals.setdefault(model, {})
            for name in (
                "input_tokens",
                "output_tokens",
                "cache_read_tokens",
                "cache_write_tokens",
                "reasoning_tokens",
            ):
                value = getattr(usage, name)
                if isinstance(value, int):
                    row[name] = row.get(name, 0) + value
    return totals


#: The error codes of a call the user or the permission rules refused.
_REFUSALS = frozenset({"rejected", "denied"})


class _Writer:
    """Writes a log's events as the session model's records, each an
    :class:`~cclens.model.entries.Entry` at its event's line, chained by ``uuid``/``parentUuid``
    in the order they were written."""

    def __init__(self, events: EventFile) -> None:
        self.events = events
        self.entries: list[Entry] = []
        #: The calls a response asked for so far (a tool start without one makes its own).
        self.calls: set[str] = set()
        self.session_id: str | None = None
        self.cwd: str | None = None
        self.branch: str | None = None
        self.version: str | None = None
        self.model: str | None = None
        self.tip: str | None = None
        #: Whether this run's model calls carry their own usage (``assistant.usage``).
        self.metered = False
        #: Each subagent's records, by the id of the call that ran it.
        self.side: dict[str, list[Entry]] = {}
        self.side_tips: dict[str, str | None] = {}

    def common(self, line: EventLine, suffix: str = "") -> dict[str, Any]:
        event = line.record
        identifier = (event.id or f"line-{line.line}") + suffix
        fields: dict[str, Any] = {"uuid": identifier}
        if self.tip is not None:
            fields["parent_uuid"] = self.tip
        self.tip = identifier
        if isinstance(event.timestamp, str):
            fields["timestamp"] = event.timestamp
        if self.session_id:
            fields["session_id"] = self.session_id
        if self.cwd:
            fields["cwd"] = self.cwd
        if self.branch:
            fields["git_branch"] = self.branch
        if self.version:
            fields["version"] = self.version
        return fields

    def entry(self, record: Any, line: EventLine) -> Entry:
        entry = Entry(record, line.line, line.offset, line.length, line.notes)
        self.entries.append(entry)
        return entry

    def system(self, line: EventLine, subtype: str, text: str, level: str = "info") -> None:
        record = SystemRecord(subtype=subtype, level=level, content=text, **self.common(line))
        self.entry(record, line)

    def meta(self, line: EventLine) -> None:
        """An event shown with the details only (``copilot:<kind>``: bookkeeping)."""
        self.system(line, f"copilot:{line.record.kind}", "")

    def add(self, line: EventLine) -> None:
        data = event_data(line.record)
        parent = getattr(data, "parent_tool_call_id", None)
        if not isinstance(parent, str) or not parent:
            self.write(line, data)
            return
        # A subagent's event (its ``task`` call's id as parent): written in that subagent's
        # own records, assembled apart and hung under the call.
        entries, tip = self.entries, self.tip
        self.entries, self.tip = (
            self.side.setdefault(parent, []),
            self.side_tips.get(parent),
        )
        try:
            self.write(line, data)
        finally:
            self.side_tips[parent] = self.tip
            self.entries, self.tip = entries, tip

    def write(self, line: EventLine, data: Any) -> None:
        event = line.record
        kind = event.kind
        if isinstance(data, StartData):
            self.metered = False
            self.session_id = self.session_id or _text(data.session_id)
            context = data.context
            if context is not None and context is not UNSET:
                self.cwd = _text(context.cwd) or self.cwd
                self.branch = _text(context.branch) or self.branch
            self.version = _text(data.copilot_version) or self.version
            self.model = _text(data.selected_model) or self.model
            self.meta(line)
        elif isinstance(data, UserMessageData):
            text = _text(data.content) or ""
            body = command_text(text) if text.lstrip().startswith("/") else text
            record = UserRecord(message=Message(role="user", content=body), **self.common(line))
            self.entry(record, line)
        elif isinstance(data, AssistantMessageData):
            self.response(line, data)
        elif isinstance(data, ReasoningData):
            blocks: list[ContentBlock] = [ThinkingBlock(thinking=_text(data.content) or "")]
            self.assistant(line, _text(data.reasoning_id) or event.id or "", blocks, None)
        elif isinstance(data, ToolStartData):
            call_id = _text(data.tool_call_id)
            if call_id and call_id not in self.calls:
                block = ToolUseBlock(
                    name=_text(data.tool_name) or "(unnamed)",
                    input=_args(data.arguments),
                    id=call_id,
                )
                self.assistant(line, f"start-{call_id}", [block], _text(data.model))
            else:
                self.meta(line)
        elif isinstance(data, ToolCompleteData):
            self.result(line, data)
        elif isinstance(data, NoticeData):
            level = kind.rsplit(".", 1)[-1]
            self.system(
                line,
                "error" if level == "error" else "informational",
                _text(data.message) or "",
                level,
            )
        elif isinstance(data, ModelChangeData):
            self.model = _text(data.new_model) or self.model
            self.system(line, "informational", f"Model changed to {self.model}")
        elif isinstance(data, CompactionData):
            self.compaction(line, data)
        elif isinstance(data, AssistantUsageData):
            self.call_usage(line, data)
        elif isinstance(data, ShutdownData):
            self.run_usage(line, data)
        else:
            self.meta(line)

    def response(self, line: EventLine, data: AssistantMessageData) -> None:
        blocks: list[ContentBlock] = []
        if _text(data.reasoning_text):
            blocks.append(ThinkingBlock(thinking=data.reasoning_text or ""))
        if _text(data.content):
            blocks.append(TextBlock(text=data.content or ""))
        for request in data.tool_requests if isinstance(data.tool_requests, list) else []:
            blocks.append(
                ToolUseBlock(
                    name=_text(request.name) or "(unnamed)",
                    input=_args(request.arguments),
                    id=_text(request.tool_call_id) or UNSET,
                )
            )
        identifier = _text(data.message_id) or line.record.id or f"line-{line.line}"
        self.assistant(line, identifier, blocks, _text(data.model))

    def assistant(
        self, line: EventLine, identifier: str, blocks: list[ContentBlock], model: str | None
    ) -> None:
        record = response_record(
            identifier, model or self.model or UNSET, blocks, **self.common(line)
        )
        self.entry(record, line)
        self.calls.update(b.id for b in blocks if isinstance(b, ToolUseBlock) and b.id)

    def result(self, line: EventLine, data: ToolCompleteData) -> None:
        call_id = _text(data.tool_call_id) or ""
        result = data.result
        text = ""
        if result is not None and result is not UNSET:
            text = _text(result.content) or ""
        error = data.error
        if not text and error is not None and error is not UNSET:
            text = _text(error.message) or ""
        code = error.code if isinstance(error, ToolError) else None
        block = ToolResultBlock(
            tool_use_id=call_id or UNSET,
            content=text,
            is_error=True if data.success is False else UNSET,
        )
        record = UserRecord(
            message=Message(role="user", content=[block]),
            tool_use_result=line.record.data,
            source_tool_use_id=call_id or UNSET,
            tool_denial_kind="user-rejected" if code in _REFUSALS else UNSET,
            **self.common(line),
        )
        self.entry(record, line)

    def usage_record(self, line: EventLine, suffix: str, model: str, usage: Usage) -> Entry:
        """A record carrying ``usage`` (of ``model``), counted as one response by its id."""
        identifier = f"{line.record.id or f'line-{line.line}'}{suffix}"
        record = response_record(identifier, model, [], usage, **self.common(line, suffix))
        return self.entry(record, line)

    def call_usage(self, line: EventLine, data: AssistantUsageData) -> None:
        """One model call's usage (an ``assistant.usage`` event, when the log has them)."""
        self.metered = True
        usage = usage_of(
            data.input_tokens,
            data.output_tokens,
            data.cache_read_tokens,
            data.cache_write_tokens,
            data.reasoning_tokens,
        )
        model = _text(data.model) or self.model or "unknown"
        self.usage_record(line, "", model, usage)

    def run_usage(self, line: EventLine, data: ShutdownData) -> None:
        """The end of a run: its tokens per model, shown, and counted (one usage record per
        model) unless its model calls carried their own."""
        metrics = data.model_metrics if isinstance(data.model_metrics, dict) else {}
        said: list[str] = []
        counted: list[tuple[str, Usage]] = []
        for model, metric in metrics.items():
            tokens = metric.usage if isinstance(metric, ModelMetric) else None
            if not isinstance(tokens, ModelMetricUsage):
                continue
            usage = usage_of(
                tokens.input_tokens,
                tokens.output_tokens,
                tokens.cache_read_tokens,
                tokens.cache_write_tokens,
                tokens.reasoning_tokens,
            )
            requests = metric.requests if isinstance(metric.requests, dict) else {}
            count = requests.get("count")
            calls = f", {count} requests" if isinstance(count, int) else ""
            said.append(
                f"{model}: {_number(tokens.input_tokens):,} input "
                f"({_number(tokens.cache_read_tokens):,} cached), "
                f"{_number(tokens.output_tokens):,} output{calls}"
            )
            counted.append((model, usage))
        text = (
            "Tokens of this run, per model, as Copilot CLI records them "
            "(counted as one response per model): " + ("; ".join(said) if said else "none recorded")
        )
        if self.metered:
            text += " (each model call counted on its own)"
        record = SystemRecord(
            subtype="informational", level="info", content=text, **self.common(line)
        )
        self.entry(record, line)
        if not self.metered:
            for model, usage in counted:
                self.usage_record(line, f"/{model}", model, usage)
        self.metered = False

    def compaction(self, line: EventLine, data: CompactionData) -> None:
        before = data.pre_compaction_tokens if isinstance(data.pre_compaction_tokens, int) else None
        after = (
            data.post_compaction_tokens if isinstance(data.post_compaction_tokens, int) else None
        )
        boundary = SystemRecord(
            subtype="compact_boundary",
            content="Conversation compacted",
            compact_metadata=CompactMetadata(
                trigger=_text(data.trigger) or UNSET,
                pre_tokens=before if before is not None else UNSET,
                post_tokens=after if after is not None else UNSET,
            ),
            **self.common(line),
        )
        self.entry(boundary, line)
        if _text(data.summary_content):
            record = UserRecord(
                message=Message(role="user", content=data.summary_content or ""),
                is_compact_summary=True,
                **self.common(line, "/summary"),
            )
            self.entry(record, line)


def _number(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _args(arguments: Any) -> Any:
    if isinstance(arguments, str):
        try:
            decoded = msgspec.json.decode(arguments)
        except msgspec.DecodeError:
            return {"arguments": arguments}
        return decoded if isinstance(decoded, dict) else {"arguments": arguments}
    return arguments if isinstance(arguments, dict) else {}


def assemble_events(events: EventFile, project: str, mtime: float = 0.0) -> Session:
    """The session an ``events.jsonl`` holds."""
    writer = _Writer(events)
    for line in events.entries:
        writer.add(line)
    path = events.path
    fallback = path.parent.name if path.name == "events.jsonl" else path.stem
    session = assemble_entries(
        path,
        writer.entries,
        list(events.diagnostics),
        session_id=writer.session_id or fallback,
        project=project,
        file_size=events.end_offset,
        lines=events.lines,
        agent=AGENT,
    )
    session.mtime = mtime
    session.line_kinds = dict(Counter(line.record.kind for line in events.entries))
    session.unknown_kinds = dict(Counter(unknown_kinds(events)))
    for call_id, entries in writer.side.items():
        agent = assemble_entries(
            path, entries, [], session_id=session.session_id, project=project, agent=AGENT
        )
        agent.agent_id = f"task-{call_id}"
        agent.mtime = mtime
        call = session.tool_calls.get(call_id)
        if call is not None:
            agent.parent_tool_use_id = call_id
            call.subagents.append(agent)
        session.subagents.append(agent)
    return session
