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
from pathlib import Path
from typing import Any

from ...model import UNSET, Usage, to_builtins
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
from ...model.messages import Message, OutputTokensDetails
from ...model.records import AiTitleRecord, SystemRecord, UserRecord
from ...model.session import (
    Session,
    ToolStatus,
    UserKind,
)
from ...model.tools.gemini import (
    AGENT,
)
from ..claude._gc import paused
from ..claude.assemble import assemble_entries, text_kind
from ..records import response_record
from ..slash import command_text
from .chat import ChatFile, ChatRecord, line_kinds, unknown_kinds
from .discover import Located
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


class _Writer:
    """Writes a conversation's messages as the session model's records, each an
    :class:`~cclens.model.entries.Entry` at its message's place in the file, chained by
    ``uuid``/``parentUuid`` (a rewound message hangs off the message before it was written)."""

    def __init__(self, session_id: str, cwd: str | None, raw_results: bool = True) -> None:
        self.session_id = session_id
        self.cwd = cwd
        #: Whether a tool result's record keeps the whole call as its structured result (pages
        #: draw it), or only whether it was interrupted (all the index reads of it).
        self.raw_results = raw_results
        self.entries: list[Entry] = []
        #: The ``uuid`` the next record of the live conversation follows.
        self.tip: str | None = None

    def entry(self, record: Any, source: ChatRecord) -> Entry:
        entry = Entry(record, source.line, source.offset, source.length, source.notes)
        self.entries.append(entry)
        return entry

    def common(self, identifier: str, timestamp: Any) -> dict[str, Any]:
        fields: dict[str, Any] = {"uuid": identifier, "session_id": self.session_id}
        if self.tip is not None:
            fields["parent_uuid"] = self.tip
        if isinstance(timestamp, str):
            fields["timestamp"] = timestamp
        if self.cwd:
            fields["cwd"] = self.cwd
        self.tip = identifier
        return fields

    def add(self, state: MessageState, ordinal: int) -> None:
        message = state.message
        source = state.record
        identifier = message.id if isinstance(message.id, str) else f"message-{ordinal}"
        if isinstance(message, GeminiMessage):
            self.response(message, identifier, source)
        elif isinstance(message, UserMessage):
            self.user(message, identifier, source, isinstance(source.value, SetLine))
        elif isinstance(message, UnknownMessage):
            record = SystemRecord(
                subtype="unknown_message",
                level="warning",
                content=content_text(_raw_content(message.raw)),
                **self.common(identifier, message.timestamp),
            )
            self.entry(record, source)
        else:
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
            self.entry(record, source)

    def user(
        self, message: UserMessage, identifier: str, source: ChatRecord, rebuilt: bool
    ) -> None:
        content = message.content
        kind = user_kind(message, rebuilt)
        body: str | list[ContentBlock]
        if kind == "command":
            body = command_text(content_text(content))
        else:
            body = content if isinstance(content, str) else _blocks(content)
        record = UserRecord(
            message=Message(role="user", content=body),
            is_meta=True if kind == "meta" else UNSET,
            is_compact_summary=True if kind == "compact_summary" else UNSET,
            **self.common(identifier, message.timestamp),
        )
        self.entry(record, source)

    def response(self, message: GeminiMessage, identifier: str, source: ChatRecord) -> None:
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
        usage = usage_of(tokens) if isinstance(tokens, Tokens) else UNSET
        record = response_record(
            identifier, model, blocks, usage, **self.common(identifier, message.timestamp)
        )
        self.entry(record, source)
        for block, call in uses:
            status = call.status if isinstance(call.status, str) else ""
            if status in UNFINISHED or (call.result in (UNSET, None) and status not in STATUSES):
                continue
            failed = status in ("error", "cancelled")
            result = ToolResultBlock(
                tool_use_id=block.id,
                content=result_text(call.result),
                is_error=True if failed else UNSET,
            )
            raw = to_builtins(call) if self.raw_results else {}
            if status == "cancelled" and isinstance(raw, dict):
                # The mark every surface reads as "interrupted" (gemini-cli's cancelled).
                raw["interrupted"] = True
            result_record = UserRecord(
                message=Message(role="user", content=[result]),
                tool_use_result=raw,
                source_tool_use_id=block.id,
                **self.common(f"{identifier}/{block.id}", call.timestamp),
            )
            self.entry(result_record, source)


def _raw_content(raw: Any) -> Any:
    return raw.get("content") if isinstance(raw, dict) else None


def assemble_chat(chat: ChatFile, where: Located, mtime: float = 0.0) -> Session:
    """The session a Gemini CLI recording holds."""
    with paused():
        return _assemble(chat, where, mtime)


def chat_records(
    chat: ChatFile, where: Located, *, raw_results: bool = True
) -> tuple[list[Entry], str]:
    """The records of a recording (the session model's, one or more per message, at the
    message's place in the file), and the recording's session id. ``raw_results=False``: a
    tool result's structured result says only whether the call was interrupted (what the
    index reads of it), rather than holding the whole call."""
    state = replay(chat)
    metadata = state.metadata
    session_id = metadata.session_id or _id_from_name(chat.path)
    directories = metadata.directories
    cwd = where.cwd or _context_cwd(state) or (directories[0] if directories else None)
    writer = _Writer(session_id, cwd, raw_results)
    checkpoints = {id(point.record): point for point in state.checkpoints}
    marked: set[int] = set()
    live_tip: str | None = None
    previous: MessageState | None = None
    for ordinal, message in enumerate(state.messages, start=1):
        if message.rewound:
            # A rewound message hangs off the conversation as it stood when it was written; so
            # does the next one written after a rewind, on the line that goes on.
            if (
                previous is None
                or not previous.rewound
                or (previous.rewind_point != message.rewind_point)
            ):
                writer.tip = live_tip
        else:
            writer.tip = live_tip
            point = checkpoints.get(id(message.record))
            if (
                point is not None
                and id(point.record) not in marked
                and _after_replaced(state, message)
            ):
                marked.add(id(point.record))
                _compaction(writer, point)
        writer.add(message, ordinal)
        if not message.rewound:
            live_tip = writer.tip
        previous = message
    if metadata.summary:
        # gemini-cli's generated one-line summary: the session's title, as an AI title is.
        title = AiTitleRecord(ai_title=metadata.summary, session_id=session_id)
        where_set = metadata.summary_record
        if where_set is not None:
            writer.entry(title, where_set)
        else:  # a .json recording: its whole object (line 0)
            writer.entries.append(Entry(title, 0, 0, chat.size))
    return writer.entries, session_id


def _assemble(chat: ChatFile, where: Located, mtime: float) -> Session:
    entries, session_id = chat_records(chat, where)
    session = assemble_entries(
        chat.path,
        entries,
        list(chat.diagnostics),
        session_id=session_id,
        project=where.project,
        file_size=chat.end_offset,
        lines=chat.lines,
        agent=AGENT,
    )
    session.mtime = mtime
    session.line_kinds = line_kinds(chat)
    session.unknown_kinds = dict(Counter(unknown_kinds(chat)))
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


def _compaction(writer: _Writer, point: Any) -> None:
    """The boundary where history a checkpoint replaced ends (its summary, when gemini-cli
    wrote one, follows as the rebuilt history's first message)."""
    record = SystemRecord(
        subtype="compact_boundary",
        content=f"History replaced: {point.dropped} earlier messages left the context",
        **writer.common(f"checkpoint-line-{point.record.line}", None),
    )
    writer.entry(record, point.record)


def _id_from_name(path: Path) -> str:
    """A session id from a file name (``session-<time>-<id8>.json``, a subagent's
    ``<id>.jsonl``), for a recording whose metadata lacks one."""
    stem = path.name.split(".", 1)[0]
    return stem.rsplit("-", 1)[-1] if stem.startswith("session-") else stem
