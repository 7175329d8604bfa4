"""Map a Gemini CLI conversation onto the one session model cclens shows.

Each Gemini message becomes the records Claude Code would have written for it, so every view,
figure and export reads it the same way:

* a ``user`` message: a user record (a prompt, a slash command, or ``meta`` for the
  ``<session_context>`` and ``<hook_context>`` gemini-cli injects; tool responses it recorded as
  a user turn are ``tool_results``);
* a ``gemini`` message: one assistant record (``message.id`` is the message's id) whose blocks
  are its thoughts (thinking), its text and a ``tool_use`` per tool call, with its ``tokens`` as
  :class:`~cclens.model.Usage`; then one user record per finished tool call holding its
  ``tool_result`` (the ``functionResponse`` text) and, as ``toolUseResult``, the call's record;
* ``info``, ``warning`` and ``error`` messages: system records.

Every entry keeps the source position of its message (``.json``: its place in ``messages`` and
its bytes; ``.jsonl``: the line of its last version). Rewound messages form a branch; history a
``$set`` replaced stays on the main line, after a compaction boundary.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from ...model import UNSET, Decoded, Usage, to_builtins
from ...model.blocks import (
    ContentBlock,
    ImageBlock,
    MediaSource,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    UnknownBlock,
)
from ...model.entries import Entry
from ...model.gemini import (
    Content,
    ErrorMessage,
    GeminiMessage,
    InfoMessage,
    Part,
    SetLine,
    Tokens,
    ToolCallRecord,
    UnknownMessage,
    UserMessage,
    WarningMessage,
    content_parts,
    content_text,
)
from ...model.gemini.tools import (
    AGENT,
    Display,
    SubagentProgress,
    display_of,
    gemini_tool_spec,
)
from ...model.messages import Message, OutputTokensDetails
from ...model.records import AssistantRecord, SystemRecord, UserRecord
from ...model.session import (
    AssistantItem,
    Branch,
    Compaction,
    Item,
    MetaItem,
    Session,
    SystemItem,
    TitleSource,
    ToolCall,
    ToolStatus,
    UserItem,
    UserKind,
)
from ...model.tools import ToolSpec, parse_input, tool_spec
from ..claude._gc import paused
from ..claude.assemble import text_kind
from ..claude.titles import PromptPicker, choose_title
from .chat import ChatFile, ChatRecord, line_kinds, unknown_kinds
from .replay import MessageState, Replay, replay

#: What each finished status of a Gemini tool call is in cclens.
STATUSES: dict[str, ToolStatus] = {
    "success": "ok",
    "error": "error",
    "cancelled": "interrupted",
}
#: Statuses of a call that has not finished (the scheduler's states before one of the above).
UNFINISHED = frozenset({"validating", "scheduled", "awaiting_approval", "executing"})

#: Prefixes gemini-cli gives user turns it wrote itself (``isIgnoredUserContent``).
_INJECTED = ("<session_context>", "<hook_context>")
#: How the summary that replaces compressed history starts (``getCompressionPrompt``).
_SNAPSHOT = "<state_snapshot>"


@dataclass(eq=False)
class GeminiToolCall(ToolCall):
    """A Gemini tool call: typed by Gemini CLI's catalogue (:mod:`cclens.model.gemini.tools`),
    its status the one gemini-cli recorded, its result the recorded call itself."""

    agent: str = AGENT

    record: ToolCallRecord | None = None

    @cached_property
    def spec(self) -> ToolSpec:
        record = self.record
        delegated = bool(self.subagents) or (
            record is not None
            and (
                isinstance(record.agent_id, str)
                or isinstance(display_of(record.result_display), SubagentProgress)
            )
        )
        return gemini_tool_spec(self.name, delegated) or tool_spec(self.name, AGENT)

    @cached_property
    def parsed_input(self) -> Decoded[Any]:
        return parse_input(self.spec, self.block.input)

    @cached_property
    def parsed_result(self) -> Decoded[Any] | None:
        """The recorded call (a :class:`~cclens.model.gemini.ToolCallRecord`) once it has a
        result; ``None`` before."""
        if self.record is None or self.result_block is None:
            return None
        return Decoded(self.record, [])

    @property
    def display(self) -> Display | None:
        """What the terminal showed of the result (``resultDisplay``), typed."""
        return display_of(self.record.result_display) if self.record is not None else None

    @property
    def status(self) -> ToolStatus:
        status = self.record.status if self.record is not None else None
        if isinstance(status, str) and status in STATUSES:
            return STATUSES[status]
        if self.result_block is None:
            return "pending"
        return "error" if self.result_block.is_error is True else "ok"


def usage_of(tokens: Tokens) -> Usage:
    """Gemini's ``TokensSummary`` as Messages-API usage.

    ``input`` includes the cached input: what was not cached is ``input - cached``, plus the
    tool-use prompt (``tool``); ``cached`` is a cache read; thoughts are output (billed as
    output) and kept apart as thinking tokens. The usage's total equals Gemini's ``total``.
    """
    number = _number
    cached = number(tokens.cached)
    thoughts = number(tokens.thoughts)
    usage = Usage(
        input_tokens=max(number(tokens.input) - cached, 0) + number(tokens.tool),
        output_tokens=number(tokens.output) + thoughts,
        cache_read_input_tokens=cached,
        cache_creation_input_tokens=0,
    )
    if thoughts:
        usage.output_tokens_details = OutputTokensDetails(thinking_tokens=thoughts)
    return usage


def _number(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _media(part: Part) -> ContentBlock | None:
    data = part.inline_data
    if data is None or data is UNSET:
        return None
    mime = data.mime_type if isinstance(data.mime_type, str) else ""
    if mime.startswith("image/") and isinstance(data.data, str):
        return ImageBlock(source=MediaSource(type="base64", media_type=mime, data=data.data))
    return None


def result_text(result: Any) -> str:
    """What the model was shown as a tool's result: the ``output`` (or ``error``) of its
    ``functionResponse`` parts, and the text of any other part."""
    pieces: list[str] = []
    for part in content_parts(result):
        if isinstance(part, str):
            pieces.append(part)
            continue
        response = part.function_response
        if response is not None and response is not UNSET:
            pieces.append(response_text(response.response))
        elif isinstance(part.text, str):
            pieces.append(part.text)
    return "\n".join(piece for piece in pieces if piece)


def response_text(response: Any) -> str:
    """The text of a ``functionResponse.response``: its ``output``, else its ``error``, else
    the object as JSON."""
    if isinstance(response, dict):
        for key in ("output", "error", "llmContent"):
            value = response.get(key)
            if isinstance(value, str):
                return value
        if not response:
            return ""
    if isinstance(response, str):
        return response
    import json

    return json.dumps(response, ensure_ascii=False)


def _blocks(content: Content | Any, skip_calls: frozenset[str] = frozenset()) -> list[ContentBlock]:
    """Content parts as content blocks (``skip_calls``: ids of calls drawn from
    ``toolCalls``)."""
    blocks: list[ContentBlock] = []
    for part in content_parts(content):
        if isinstance(part, str):
            if part:
                blocks.append(TextBlock(text=part))
            continue
        if isinstance(part.text, str):
            if part.thought is True:
                blocks.append(ThinkingBlock(thinking=part.text))
            elif part.text:
                blocks.append(TextBlock(text=part.text))
            continue
        call = part.function_call
        if call is not None and call is not UNSET:
            if not (isinstance(call.id, str) and call.id in skip_calls):
                name = call.name if isinstance(call.name, str) else "(unnamed)"
                identifier = call.id if isinstance(call.id, str) else UNSET
                blocks.append(ToolUseBlock(name=name, input=_args(call.args), id=identifier))
            continue
        response = part.function_response
        if response is not None and response is not UNSET:
            blocks.append(
                ToolResultBlock(
                    tool_use_id=response.id if isinstance(response.id, str) else UNSET,
                    content=response_text(response.response),
                )
            )
            continue
        media = _media(part)
        blocks.append(media if media is not None else UnknownBlock(raw=to_builtins(part)))
    return blocks


def _args(args: Any) -> Any:
    return args if isinstance(args, dict) else ({} if args is UNSET or args is None else args)


def user_kind(message: UserMessage, rebuilt: bool = False) -> UserKind:
    """What a user message is: a prompt, a slash command, injected context (``meta``),
    tool responses gemini-cli recorded as a user turn (``tool_results``) or, in history a
    checkpoint rebuilt (``rebuilt``), the summary of compressed history."""
    parts = content_parts(message.content)
    if parts and all(
        isinstance(p, Part) and p.function_response not in (None, UNSET) for p in parts
    ):
        return "tool_results"
    text = content_text(message.content).lstrip()
    if rebuilt and _SNAPSHOT in text[:4000]:
        return "compact_summary"
    if text.startswith(_INJECTED):
        return "meta"
    if text.startswith("/") or text.startswith("?"):
        return "command"
    return text_kind(text, False)


class _Builder:
    def __init__(self, session_id: str, cwd: str | None) -> None:
        self.session_id = session_id
        self.cwd = cwd
        self.items: list[Item] = []
        self.entries: list[Entry] = []
        self.calls: dict[str, ToolCall] = {}

    def entry(self, record: Any, source: ChatRecord) -> Entry:
        entry = Entry(record, source.line, source.offset, source.length, source.notes)
        self.entries.append(entry)
        return entry

    def common(self, identifier: str, timestamp: Any) -> dict[str, Any]:
        fields: dict[str, Any] = {"uuid": identifier, "session_id": self.session_id}
        if isinstance(timestamp, str):
            fields["timestamp"] = timestamp
        if self.cwd:
            fields["cwd"] = self.cwd
        return fields

    def add(self, state: MessageState, ordinal: int) -> list[Item]:
        message = state.message
        source = state.record
        identifier = message.id if isinstance(message.id, str) else f"message-{ordinal}"
        if isinstance(message, GeminiMessage):
            return self.response(message, identifier, source)
        if isinstance(message, UserMessage):
            rebuilt = isinstance(source.value, SetLine)
            return [self.user(message, identifier, source, rebuilt)]
        if isinstance(message, UnknownMessage):
            record = SystemRecord(
                subtype=f"gemini:{message.kind}",
                content=content_text(_raw_content(message.raw)),
                **self.common(identifier, message.timestamp),
            )
            return [MetaItem([self.entry(record, source)])]
        level = "info"
        if isinstance(message, ErrorMessage):
            level = "error"
        elif isinstance(message, WarningMessage):
            level = "warning"
        assert isinstance(message, InfoMessage | ErrorMessage | WarningMessage)
        record = SystemRecord(
            subtype="error" if level == "error" else "informational",
            level=level,
            content=content_text(message.content),
            **self.common(identifier, message.timestamp),
        )
        return [SystemItem([self.entry(record, source)])]

    def user(
        self, message: UserMessage, identifier: str, source: ChatRecord, rebuilt: bool
    ) -> Item:
        content = message.content
        kind = user_kind(message, rebuilt)
        body: str | list[ContentBlock]
        body = content if isinstance(content, str) else _blocks(content)
        record = UserRecord(
            message=Message(role="user", content=body),
            is_meta=True if kind == "meta" else UNSET,
            is_compact_summary=True if kind == "compact_summary" else UNSET,
            **self.common(identifier, message.timestamp),
        )
        return UserItem([self.entry(record, source)], kind=kind)

    def response(self, message: GeminiMessage, identifier: str, source: ChatRecord) -> list[Item]:
        calls = message.tool_calls if isinstance(message.tool_calls, list) else []
        call_ids = frozenset(c.id for c in calls if isinstance(c.id, str))
        blocks: list[ContentBlock] = []
        for thought in message.thoughts if isinstance(message.thoughts, list) else []:
            subject = thought.subject if isinstance(thought.subject, str) else ""
            description = thought.description if isinstance(thought.description, str) else ""
            text = f"**{subject}**\n\n{description}" if subject else description
            if text.strip():
                blocks.append(ThinkingBlock(thinking=text))
        blocks.extend(_blocks(message.content, call_ids))
        uses: list[tuple[ToolUseBlock, ToolCallRecord]] = []
        for number, call in enumerate(calls, start=1):
            name = call.name if isinstance(call.name, str) else "(unnamed)"
            call_id = call.id if isinstance(call.id, str) else f"{identifier}-call-{number}"
            block = ToolUseBlock(name=name, input=_args(call.args), id=call_id)
            blocks.append(block)
            uses.append((block, call))
        tokens = message.tokens
        model = message.model if isinstance(message.model, str) else UNSET
        record = AssistantRecord(
            message=Message(
                id=identifier,
                role="assistant",
                type="message",
                model=model,
                content=blocks,
                usage=usage_of(tokens) if isinstance(tokens, Tokens) else UNSET,
            ),
            **self.common(identifier, message.timestamp),
        )
        entry = self.entry(record, source)
        item = AssistantItem([entry], blocks=blocks)
        items: list[Item] = [item]
        recorded = {id(block) for block, _ in uses}
        for content_block in blocks:
            if isinstance(content_block, ToolUseBlock) and id(content_block) not in recorded:
                # A call only the content holds (gemini-cli recorded no toolCalls entry).
                loose = GeminiToolCall(content_block, item, entry)
                self.calls.setdefault(loose.id, loose)
                item.tool_calls.append(loose)
        for block, call in uses:
            tool_call = GeminiToolCall(block, item, entry, record=call)
            self.calls.setdefault(tool_call.id, tool_call)
            item.tool_calls.append(tool_call)
            status = call.status if isinstance(call.status, str) else ""
            if status in UNFINISHED or (call.result in (UNSET, None) and status not in STATUSES):
                continue
            result = ToolResultBlock(
                tool_use_id=block.id,
                content=result_text(call.result),
                is_error=True if status in ("error", "cancelled") else UNSET,
            )
            raw = to_builtins(call)
            result_record = UserRecord(
                message=Message(role="user", content=[result]),
                tool_use_result=raw,
                source_tool_use_id=block.id,
                **self.common(f"{identifier}/{block.id}", call.timestamp),
            )
            result_entry = self.entry(result_record, source)
            tool_call.result_block = result
            tool_call.result_entry = result_entry
            tool_call.raw_result = raw
            items.append(UserItem([result_entry], kind="tool_results"))
        return items


def _raw_content(raw: Any) -> Any:
    return raw.get("content") if isinstance(raw, dict) else None


@dataclass(slots=True)
class Located:
    """Where a recording's session belongs: its project (shown) and working directory."""

    project: str
    cwd: str | None = None


def assemble_chat(chat: ChatFile, where: Located, mtime: float = 0.0) -> Session:
    """The session a Gemini CLI recording holds."""
    with paused():
        return _assemble(chat, where, mtime)


def _assemble(chat: ChatFile, where: Located, mtime: float) -> Session:
    state = replay(chat)
    metadata = state.metadata
    session_id = metadata.session_id or _id_from_name(chat.path)
    directories = metadata.directories
    cwd = where.cwd or _context_cwd(state) or (directories[0] if directories else None)
    builder = _Builder(session_id, cwd)
    branches: dict[str, Branch] = {}
    compactions: list[Compaction] = []
    checkpoints = {id(point.record): point for point in state.checkpoints}
    marked: set[int] = set()
    for ordinal, message in enumerate(state.messages, start=1):
        if not message.replaced:
            point = checkpoints.get(id(message.record))
            if (
                point is not None
                and id(point.record) not in marked
                and _after_replaced(state, message)
            ):
                marked.add(id(point.record))
                compactions.append(_compaction(builder, point))
        made = builder.add(message, ordinal)
        if message.rewound:
            fork = message.rewind_point or ""
            branch = branches.get(fork)
            if branch is None:
                branch = branches[fork] = Branch(_fork_of(state, message), [])
            for item in made:
                item.main = False
                item.branch = list(branches).index(fork)
            branch.items.extend(made)
        builder.items.extend(made)
    for compaction in compactions:
        start = builder.items.index(compaction.boundary)
        compaction.summary = next(
            (
                item
                for item in builder.items[start + 1 :]
                if isinstance(item, UserItem) and item.kind == "compact_summary"
            ),
            None,
        )
    title, source, first = _title(builder.items, metadata.summary)
    session = Session(
        path=chat.path,
        session_id=session_id,
        project=where.project,
        entries=builder.entries,
        diagnostics=list(chat.diagnostics),
        items=builder.items,
        tool_calls=builder.calls,
        branches=list(branches.values()),
        compactions=compactions,
        subagents=[],
        title=title,
        title_source=source,
        first_prompt=first,
        file_size=chat.end_offset,
        lines=chat.lines,
        mtime=mtime,
        agent=AGENT,
        line_kinds=line_kinds(chat),
        unknown_kinds=dict(Counter(unknown_kinds(chat))),
    )
    return session


_WORKSPACE = re.compile(
    r"(?:I'm currently working in the directory: (?P<old>[^\n]+))"
    r"|(?:\*\*Workspace Directories:\*\*\n\s*- (?P<new>[^\n]+))"
)


def context_directory(text: str) -> str | None:
    """The working directory the ``<session_context>`` gemini-cli injects names."""
    match = _WORKSPACE.search(text[:20000])
    if match is None:
        return None
    return (match.group("old") or match.group("new") or "").strip() or None


def _context_cwd(state: Replay) -> str | None:
    """The working directory named by the first ``<session_context>`` of the recording."""
    for message in state.messages[:5]:
        if isinstance(message.message, UserMessage):
            text = content_text(message.message.content)
            if text.lstrip().startswith(_INJECTED[0]) or "This is the Gemini CLI" in text[:200]:
                return context_directory(text)
    return None


def _after_replaced(state: Replay, message: MessageState) -> bool:
    """Whether replaced history comes before ``message`` (a compaction boundary goes there)."""
    for other in state.messages:
        if other is message:
            return False
        if other.replaced:
            return True
    return False


def _compaction(builder: _Builder, point: Any) -> Compaction:
    record = SystemRecord(
        subtype="compact_boundary",
        content=f"History replaced: {point.dropped} earlier messages left the context",
        **builder.common(f"checkpoint-line-{point.record.line}", None),
    )
    item = SystemItem([builder.entry(record, point.record)])
    builder.items.append(item)
    return Compaction(item, None, "checkpoint", None)


def _fork_of(state: Replay, message: MessageState) -> str | None:
    """The id of the live message before the first message a rewind dropped."""
    previous: str | None = None
    for other in state.messages:
        if other.rewound and other.rewind_point == message.rewind_point:
            return previous
        if not other.rewound:
            previous = other.id
    return previous


def _title(items: list[Item], summary: str | None) -> tuple[str, TitleSource, str]:
    """The session's title: gemini-cli's generated summary, else the first prompt."""
    picker = PromptPicker()
    for item in items:
        if isinstance(item, UserItem) and item.main and item.kind in ("prompt", "command"):
            picker.add(item.kind, item.text)
            if picker.done:
                break
    title, source = choose_title([], [summary] if summary else [], [], picker.title_text)
    return title, source, picker.preview


def _id_from_name(path: Path) -> str:
    """A session id from a file name (``session-<time>-<id8>.json``, a subagent's
    ``<id>.jsonl``), for a recording whose metadata lacks one."""
    stem = path.name.split(".", 1)[0]
    return stem.rsplit("-", 1)[-1] if stem.startswith("session-") else stem
