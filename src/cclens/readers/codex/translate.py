"""Codex rollout lines as the records of the session model.

The session model (:mod:`cclens.model.session`) is assembled from user, assistant and system
records, tool_use blocks paired with tool_result blocks by id. This module writes those records
for the lines of one rollout file, each :class:`~cclens.model.entries.Entry` keeping the line's
number and byte offset (so a search hit or a link lands on the line that holds it):

* a prompt (an ``event_msg`` ``user_message``, with the ``response_item`` that carries the same
  text; in mid-2025 files the user ``message`` itself) is a user record; the context Codex
  injects (``<environment_context>``, ``AGENTS.md``, developer instructions) is a meta user
  record;
* one model **response** is the reasoning, messages and tool calls between two boundaries (a
  tool output, a prompt, a turn's start or end), with the usage of its ``token_count`` event:
  ``last_token_usage``, counted once (Codex repeats a count when nothing new was used: an
  unchanged ``total_token_usage`` is a repeat). Input tokens include the cached input: the
  cached part is counted as cache reads, the rest as input; output tokens include reasoning
  (kept apart in ``output_tokens_details.thinking_tokens``);
* each call (``function_call``, ``custom_tool_call``, ``local_shell_call``, ``web_search_call``...)
  is a tool_use block with Codex's own tool name; its output is a tool_result block with a
  structured result read from the output and the events that end the call
  (``exec_command_end``, ``patch_apply_end``, ``mcp_tool_call_end``...). A call still open when
  its turn was aborted ends ``interrupted``;
* compactions, errors, review mode, aborted turns and turn durations are system records; a
  thread name (``thread_name_updated``) is the session's custom title.

Copies: a forked thread (and a thread resumed into a new file, in 2025) starts with the history
of the thread it came from, after that thread's ``session_meta``. Its prompts, responses and
calls keep the identity they have in the original file (a prompt: its text; a response: its
token counts; a call: its id), so cclens counts each once, for the file that recorded it first.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from ...model import UNSET
from ...model.blocks import (
    ContentBlock,
    ImageBlock,
    MediaSource,
    RedactedThinkingBlock,
    ResultContentBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from ...model.codex import (
    BareHeader,
    CodexLine,
    CompactedLine,
    ContextCompactedEvent,
    CustomToolCallItem,
    CustomToolCallOutputItem,
    EnteredReviewModeEvent,
    ErrorEvent,
    EventMsgLine,
    ExecCommandEndEvent,
    ExitedReviewModeEvent,
    FunctionCallItem,
    FunctionCallOutputItem,
    InputImage,
    Item,
    LocalShellCallItem,
    McpToolCallEndEvent,
    MessageItem,
    PatchApplyEndEvent,
    ReasoningItem,
    ResponseItemLine,
    SessionMetaLine,
    StreamErrorEvent,
    TaskCompleteEvent,
    TaskStartedEvent,
    ThreadNameUpdatedEvent,
    TokenCountEvent,
    TokenUsage,
    ToolSearchCallItem,
    ToolSearchOutputItem,
    TurnAbortedEvent,
    TurnContextLine,
    UnknownEvent,
    UnknownItem,
    UnknownLine,
    UserMessageEvent,
    ViewImageToolCallEvent,
    WebSearchCallItem,
    WebSearchEndEvent,
    is_known,
    line_kind,
)
from ...model.codex.events import (
    CollabAgentSpawnEndEvent,
    Duration,
    ImageGenerationEndEvent,
    WarningEvent,
)
from ...model.codex.items import ImageGenerationCallItem
from ...model.codex.lines import SessionMeta
from ...model.entries import Entry
from ...model.messages import Message, OutputTokensDetails, Usage
from ...model.records import (
    AssistantRecord,
    ChainRecord,
    CustomTitleRecord,
    SystemRecord,
    UserRecord,
)
from .outputs import data_image, output_text, read_output

#: How the context Codex injects as user messages begins (in files without ``user_message``
#: events, the only way to tell it from a prompt).
CONTEXT_STARTS = (
    "<environment_context>",
    "<user_instructions>",
    "<permissions instructions>",
    "<model_switch>",
    "<INSTRUCTIONS>",
    "<collaboration_mode>",
    "<user_shell_command>",
    "<turn_aborted>",
    "<subagent_notification>",
    "# AGENTS.md instructions",
)
#: What a tool result reads when its turn was aborted before the call ended (Claude Code's
#: words, which the session model knows).
INTERRUPTED = "[Request interrupted by user for tool use]"
_INTERRUPT_PROMPT = "[Request interrupted by user]"


@dataclass(slots=True)
class Thread:
    """What a rollout file says about its thread, beside its conversation."""

    thread_id: str | None = None
    started: str | None = None
    cwd: str | None = None
    cli_version: str | None = None
    originator: str | None = None
    #: ``cli``, ``vscode``, ``exec``, ``mcp``, ``subagent`` (a thread spawned by another),
    #: ``review`` (a review thread).
    source: str | None = None
    parent_thread_id: str | None = None
    forked_from_id: str | None = None
    agent_nickname: str | None = None
    agent_role: str | None = None
    git_branch: str | None = None
    model_provider: str | None = None
    #: The threads this one started, by the id of the call that started each.
    spawned: dict[str, str] = field(default_factory=dict)
    #: Lines read, by kind (``response_item:function_call``), and those cclens does not know.
    kinds: Counter[str] = field(default_factory=Counter)
    unknown: Counter[str] = field(default_factory=Counter)


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _digest(*parts: object) -> str:
    text = "\x1f".join(str(part) for part in parts)
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def _source(meta: SessionMeta) -> tuple[str | None, str | None]:
    """``(source kind, parent thread id)`` of a thread's ``session_meta``."""
    source = meta.source
    if isinstance(source, str):
        return source, _text(meta.parent_thread_id)
    if isinstance(source, dict):
        subagent = source.get("subagent")
        if subagent == "review" or (isinstance(subagent, dict) and "review" in subagent):
            return "review", _text(meta.parent_thread_id)
        if isinstance(subagent, dict):
            spawn = subagent.get("thread_spawn")
            if isinstance(spawn, dict):
                return "subagent", _text(spawn.get("parent_thread_id")) or _text(
                    meta.parent_thread_id
                )
            return "subagent", _text(meta.parent_thread_id)
        if subagent is not None:
            return "subagent", _text(meta.parent_thread_id)
    return None, _text(meta.parent_thread_id)


def _parse_arguments(arguments: Any) -> Any:
    """A function call's arguments: the JSON text decoded when it is an object."""
    if isinstance(arguments, str):
        try:
            value = msgspec.json.decode(arguments)
        except msgspec.DecodeError:
            return {"arguments": arguments}
        return value if isinstance(value, dict) else {"arguments": arguments}
    if isinstance(arguments, dict):
        return arguments
    return {} if arguments is UNSET or arguments is None else {"arguments": arguments}


def _seconds(duration: Any) -> float | None:
    if isinstance(duration, Duration):
        return duration.seconds
    return None


@dataclass(slots=True)
class _Call:
    """A tool call met in the file, and what is known of its end."""

    call_id: str
    name: str
    entry: Entry
    result: UserRecord | None = None
    #: Fields an end event gave before the output came.
    ended: dict[str, Any] = field(default_factory=dict)
    outcome: str | None = None


@dataclass(slots=True)
class _Response:
    """A model response being put together: its records (one per line) and its usage."""

    messages: list[Message] = field(default_factory=list)
    first_line: int = 0
    usage: Usage | None = None
    identity: str | None = None
    #: Where its ``token_count`` was: ``(line, offset, length, timestamp)``.
    counted_at: tuple[int, int, int, str | None] | None = None


class _Translator:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.thread = Thread()
        self.entries: list[Entry] = []
        self.governing: str = path.stem
        self.previous_uuid: str | None = None
        self.model: str | None = None
        self.cwd: str | None = None
        self.timestamp: str | None = None
        self.response: _Response | None = None
        self.last_total: tuple[int, ...] | None = None
        self.calls: dict[str, _Call] = {}
        self.open_calls: list[_Call] = []
        self.prompts: Counter[str] = Counter()
        #: User messages from response items waiting for the ``user_message`` event that says
        #: they are prompts.
        self.candidates: list[UserRecord] = []
        self.has_events = False
        self.compacted = False
        self.line = 0
        self.offset = 0
        self.length = 0
        self.emitted_on_line = 0
        self.notes: tuple[str, ...] = ()
        #: The last plan ``update_plan`` wrote (each call's result keeps the one it replaced).
        self.plan: Any = None
        #: Lines of known kinds counted so far: ``[kind, count]`` by line and payload class.
        self._kinds: dict[tuple[type, type | None], list[Any]] = {}

    # -- records ---------------------------------------------------------------------------

    def _uuid(self) -> str:
        own = self.thread.thread_id or self.path.stem
        suffix = f"-{self.emitted_on_line}" if self.emitted_on_line else ""
        return f"{own}-{self.line}{suffix}"

    def _chain(self, record: ChainRecord, uuid: str | None = None) -> None:
        record.uuid = uuid or self._uuid()
        if self.previous_uuid is not None:
            record.parent_uuid = self.previous_uuid
        self.previous_uuid = record.uuid
        if self.timestamp is not None:
            record.timestamp = self.timestamp
        own = self.thread.thread_id
        if own:
            record.session_id = own
        if self.cwd:
            record.cwd = self.cwd
        if self.thread.cli_version:
            record.version = self.thread.cli_version
        if self.thread.git_branch:
            record.git_branch = self.thread.git_branch
        self._emit(record)

    def _emit(self, record: Any) -> None:
        notes = self.notes if self.emitted_on_line == 0 else ()
        self.entries.append(Entry(record, self.line, self.offset, self.length, notes))
        self.emitted_on_line += 1

    def _system(self, subtype: str, content: str, level: str = "info", **fields: Any) -> None:
        self._close_response()
        self._chain(SystemRecord(subtype=subtype, content=content, level=level, **fields))

    # -- responses ---------------------------------------------------------------------------

    def _assistant(self, blocks: list[ContentBlock]) -> None:
        response = self.response
        if response is None:
            response = self.response = _Response(first_line=self.line)
        message = Message(role="assistant", type="message", content=blocks)
        if self.model:
            message.model = self.model
        if response.usage is not None:
            message.usage = response.usage
        if response.identity is not None:
            message.id = response.identity
        response.messages.append(message)
        self._chain(AssistantRecord(message=message))

    def _set_usage(self, usage: Usage, identity: str) -> None:
        response = self.response
        if response is None or response.usage is not None:
            self._close_response()
            response = self.response = _Response(first_line=self.line)
        response.usage, response.identity = usage, identity
        response.counted_at = (self.line, self.offset, self.length, self.timestamp)
        for message in response.messages:
            message.usage, message.id = usage, identity

    def _close_response(self) -> None:
        response = self.response
        if response is None:
            return
        self.response = None
        if not response.messages and response.counted_at is not None:
            # A response that left no item in the file (its usage alone): its record is the
            # count's line, so that its tokens are counted.
            here = (self.line, self.offset, self.length, self.timestamp, self.emitted_on_line)
            self.line, self.offset, self.length, self.timestamp = response.counted_at
            self.emitted_on_line = 1
            self.response = response
            self._assistant([])
            self.response = None
            self.line, self.offset, self.length, self.timestamp, self.emitted_on_line = here
            return
        if response.identity is None:
            identity = f"{self.governing}-line-{response.first_line}"
            for message in response.messages:
                message.id = identity

    def _token_count(self, event: TokenCountEvent) -> None:
        info = event.info
        if info is None or info is UNSET:
            return
        total = info.total_token_usage
        last = info.last_token_usage
        if not isinstance(last, TokenUsage):
            return
        key = _usage_key(total) if isinstance(total, TokenUsage) else None
        if key is not None and key == self.last_total:
            return  # the same count written again: nothing new was used
        if key is not None:
            self.last_total = key
        usage = _usage(last)
        identity = f"{self.governing}-resp-{_digest(key, _usage_key(last))}"
        self._set_usage(usage, identity)

    # -- prompts -----------------------------------------------------------------------------

    def _user_record(self, text: str, images: Sequence[ContentBlock], is_meta: bool) -> UserRecord:
        blocks: list[ContentBlock] = [TextBlock(text=text)] if text else []
        blocks.extend(images)
        record = UserRecord(message=Message(role="user", content=blocks))
        if is_meta:
            record.is_meta = True
        return record

    def _prompt_uuid(self, text: str) -> str:
        digest = _digest(text)
        self.prompts[digest] += 1
        return f"{self.governing}-prompt-{digest}-{self.prompts[digest]}"

    def _user_message(self, item: MessageItem) -> None:
        self._close_response()
        text = item.text
        images = _image_blocks(item)
        context = text.lstrip().startswith(CONTEXT_STARTS)
        if self.has_events:
            record = self._user_record(text, images, True)
            self._chain(record)
            if not context:
                self.candidates.append(record)
            return
        if context:
            self._chain(self._user_record(text, images, True))
        else:
            self._chain(self._user_record(text, images, False), self._prompt_uuid(text))

    def _user_event(self, event: UserMessageEvent) -> None:
        self._close_response()
        text = event.message if isinstance(event.message, str) else ""
        plain = event.kind_ in (UNSET, None, "plain")
        for position in range(len(self.candidates) - 1, -1, -1):
            candidate = self.candidates[position]
            if _record_text(candidate) == text:
                del self.candidates[position]
                if plain:
                    candidate.is_meta = UNSET
                    candidate.uuid = self._prompt_uuid(text)
                return
        if not text:
            return
        images = [
            block
            for url in (event.images if isinstance(event.images, list) else [])
            if (block := _image_block(url)) is not None
        ]
        record = self._user_record(text, images, not plain)
        self._chain(record, self._prompt_uuid(text) if plain else None)

    # -- tool calls --------------------------------------------------------------------------

    def _call(self, call_id: str | None, name: str, tool_input: Any) -> _Call:
        identity = call_id or f"{self.governing}-call-{self.line}"
        block = ToolUseBlock(name=name, input=tool_input, id=identity)
        self._assistant([block])
        call = _Call(identity, name, self.entries[-1])
        if name == "update_plan" and isinstance(tool_input, dict):
            if self.plan is not None:
                call.ended["old_plan"] = self.plan
            self.plan = tool_input.get("plan")
        self.calls.setdefault(identity, call)
        self.open_calls.append(call)
        return call

    def _result(
        self,
        call: _Call,
        text: str,
        images: list[tuple[str, str]],
        fields: dict[str, Any],
        outcome: str,
        *,
        within_response: bool = False,
    ) -> None:
        """The result record of ``call``. A tool's output ends the response that called it;
        a result the API produced within the response (a web search) does not."""
        if not within_response:
            self._close_response()
        content: str | list[ResultContentBlock]
        if images:
            content = [TextBlock(text=text)] if text else []
            content.extend(
                ImageBlock(source=MediaSource(type="base64", media_type=media, data=data))
                for media, data in images
            )
        else:
            content = text
        result = {**fields, **call.ended}
        if outcome == "interrupted":
            result["interrupted"] = True
        block = ToolResultBlock(tool_use_id=call.call_id, content=content)
        if outcome in ("error", "rejected"):
            block.is_error = True
        record = UserRecord(
            message=Message(role="user", content=[block]), source_tool_use_id=call.call_id
        )
        if result:
            record.tool_use_result = result
        if outcome == "rejected":
            record.tool_denial_kind = "user-rejected"
        call.result, call.outcome = record, outcome
        if call in self.open_calls:
            self.open_calls.remove(call)
        self._chain(record)
        self._apply_end(call)

    def _output(self, call_id: str | None, output: Any) -> None:
        found = self.calls.get(call_id or "")
        if found is None:
            # An output whose call this file does not hold (cut off before it): a call of
            # unknown name, so that its output is still shown.
            self._close_response()
            found = self._call(call_id, "(unknown call)", {})
        call = found
        text, images = output_text(output)
        read = read_output(text)
        shown = text
        if call.name == "apply_patch" and read.fields.get("output") is not None:
            shown = read.text
        self._result(call, shown, images, read.fields, read.outcome)

    def _apply_end(self, call: _Call) -> None:
        """Put what an end event said into the call's result (and its status)."""
        record = call.result
        if record is None or not call.ended:
            return
        result = record.tool_use_result
        if not isinstance(result, dict):
            result = record.tool_use_result = {}
        result.update(call.ended)
        failed = call.ended.get("_failed")
        result.pop("_failed", None)
        if failed and call.outcome == "ok":
            call.outcome = "error"
            message = record.message
            if message and isinstance(message.content, list):
                for block in message.content:
                    if isinstance(block, ToolResultBlock):
                        block.is_error = True

    def _end(self, call_id: Any, fields: dict[str, Any]) -> None:
        if not isinstance(call_id, str):
            return
        call = self.calls.get(call_id)
        if call is None:
            return
        call.ended.update(fields)
        if call.result is not None:
            self._apply_end(call)

    def _abort_open_calls(self) -> None:
        for call in list(self.open_calls):
            self._result(call, INTERRUPTED, [], {}, "interrupted")

    # -- lines -------------------------------------------------------------------------------

    def line_of(
        self, number: int, offset: int, length: int, line: CodexLine, notes: tuple[str, ...]
    ) -> None:
        self.line, self.offset, self.length = number, offset, length
        self.emitted_on_line = 0
        self.notes = notes
        cls = type(line)
        if cls is EventMsgLine or cls is ResponseItemLine:  # most lines: the quick way
            payload = line.payload  # type: ignore[union-attr]
            found = self._kinds.get((cls, type(payload)))
            if found is None:
                self._count(line)
            else:
                found[1] += 1
            timestamp = line.timestamp  # type: ignore[union-attr]
            if isinstance(timestamp, str) and timestamp:
                self.timestamp = timestamp
            if cls is EventMsgLine:
                self._event(payload)
            else:
                self._item(payload)
            return
        self._count(line)
        timestamp = getattr(line, "timestamp", UNSET)
        if isinstance(timestamp, str) and timestamp and not isinstance(line, BareHeader):
            self.timestamp = timestamp
        if isinstance(line, SessionMetaLine):
            if isinstance(line.payload, SessionMeta):
                self._meta(line.payload)
        elif isinstance(line, BareHeader):
            self._header(line)
        elif isinstance(line, TurnContextLine):
            context = line.payload
            if context is not UNSET and context is not None:
                self.model = _text(context.model) or self.model
                self.cwd = _text(context.cwd) or self.cwd
        elif isinstance(line, Item):
            self._item(line)
        elif isinstance(line, CompactedLine):
            self._compacted(line)

    def _count(self, line: CodexLine) -> None:
        """Count the line's kind (see :func:`cclens.model.codex.line_kind`): by the classes of
        the line and its payload, read as a kind once per class, but for kinds cclens does not
        know, which are named by what they hold."""
        cls = type(line)
        key: tuple[type, type | None]
        if isinstance(line, ResponseItemLine | EventMsgLine):
            key = (cls, type(line.payload))
        else:
            key = (cls, None)
        found = self._kinds.get(key)
        if found is None:
            if key[0] in _UNKNOWN or key[1] in _UNKNOWN:
                kind = line_kind(line)
                self.thread.kinds[kind] += 1
                if not is_known(line):
                    self.thread.unknown[kind] += 1
                return
            kind = line_kind(line)
            self.thread.kinds.setdefault(kind, 0)  # in the order kinds are first met
            found = self._kinds[key] = [kind, 0]
        found[1] += 1

    def _meta(self, meta: SessionMeta) -> None:
        thread = self.thread
        found = meta.thread_id
        if thread.thread_id is None:
            thread.thread_id = found
            thread.started = _text(meta.timestamp)
            thread.cwd = _text(meta.cwd)
            thread.cli_version = _text(meta.cli_version)
            thread.originator = _text(meta.originator)
            thread.source, thread.parent_thread_id = _source(meta)
            thread.forked_from_id = _text(meta.forked_from_id)
            thread.agent_nickname = _text(meta.agent_nickname)
            thread.agent_role = _text(meta.agent_role)
            thread.model_provider = _text(meta.model_provider)
            git = meta.git
            if git is not UNSET and git is not None:
                thread.git_branch = _text(git.branch)
            self.cwd = thread.cwd
            self.model = _text(meta.model) or self.model
            if found:
                self.governing = found
        elif found and found != thread.thread_id:
            # The history of the thread this one was forked (or resumed) from follows.
            self._close_response()
            self.governing = found
            self._chain(
                SystemRecord(
                    subtype="codex_forked_history",
                    content=f"History of thread {found}, carried over into this one",
                    level="info",
                )
            )

    def _header(self, header: BareHeader) -> None:
        thread = self.thread
        if thread.thread_id is None:
            thread.thread_id = _text(header.id)
            thread.started = _text(header.timestamp)
            if header.git is not UNSET and header.git is not None:
                thread.git_branch = _text(header.git.branch)
            if thread.thread_id:
                self.governing = thread.thread_id
        if self.timestamp is None:
            self.timestamp = _text(header.timestamp)

    def _item(self, item: Any) -> None:
        cls = type(item)
        handle = _ITEM_HANDLERS.get(cls)
        if handle is None:
            handle = _ITEM_HANDLERS[cls] = _handler(cls, _ITEM_HANDLERS)
        handle(self, item)

    def _message_item(self, item: MessageItem) -> None:
        role = item.role
        if role == "assistant":
            text = item.text
            if text:
                self._assistant([TextBlock(text=text)])
        elif role == "user":
            self._user_message(item)
        else:  # developer, system: instructions
            self._close_response()
            self._chain(self._user_record(item.text, [], True))

    def _function_call(self, item: FunctionCallItem) -> None:
        name = _text(item.name) or "(unnamed)"
        arguments = _parse_arguments(item.arguments)
        if name == "apply_patch" and isinstance(item.arguments, str) and "input" not in (arguments):
            arguments = {"input": item.arguments}
        self._call(_text(item.call_id), name, arguments)

    def _custom_tool_call(self, item: CustomToolCallItem) -> None:
        raw = item.input
        self._call(
            _text(item.call_id),
            _text(item.name) or "(unnamed)",
            {"input": raw} if isinstance(raw, str) else _parse_arguments(raw),
        )

    def _local_shell_call(self, item: LocalShellCallItem) -> None:
        action = item.action if isinstance(item.action, dict) else {}
        self._call(_text(item.call_id) or _text(item.id), "local_shell", action)

    def _tool_search_call(self, item: ToolSearchCallItem) -> None:
        self._call(
            _text(item.call_id) or _text(item.id),
            "tool_search",
            _parse_arguments(item.arguments),
        )

    def _image_generation_call(self, item: ImageGenerationCallItem) -> None:
        call = self._call(
            _text(item.id),
            "image_generation",
            {"revised_prompt": item.revised_prompt} if isinstance(item.revised_prompt, str) else {},
        )
        images = [("image/png", item.result)] if isinstance(item.result, str) else []
        status = _text(item.status)
        fields = {"status": status} if status else {}
        outcome = "error" if status == "failed" else "ok"
        self._result(call, "", images, fields, outcome, within_response=True)

    def _call_output(self, item: FunctionCallOutputItem | CustomToolCallOutputItem) -> None:
        self._output(_text(item.call_id), item.output)

    def _tool_search_output(self, item: ToolSearchOutputItem) -> None:
        searched = self.calls.get(_text(item.call_id) or "")
        if searched is not None:
            tools = item.tools if isinstance(item.tools, list) else []
            names = [t.get("name") for t in tools if isinstance(t, dict)]
            text = "\n".join(str(n) for n in names if n)
            self._result(searched, text, [], {"tools": item.tools}, "ok")

    def _bookkeeping(self, found: Any) -> None:
        """Ghost snapshots, compaction items, configuration updates, events the session model
        has no place for: nothing to write."""

    def _reasoning(self, item: ReasoningItem) -> None:
        summary = item.summary_text
        content = item.content_text
        text = "\n\n".join(part for part in (summary, content) if part)
        blocks: list[ContentBlock] = [ThinkingBlock(thinking=text)] if text else []
        encrypted = item.encrypted_content
        if isinstance(encrypted, str) and encrypted:
            # The reasoning itself, encrypted by the API: noted (with its size), not readable.
            blocks.append(RedactedThinkingBlock(data=encrypted))
        if blocks:
            self._assistant(blocks)

    def _web_search(self, item: WebSearchCallItem) -> None:
        action = item.action if isinstance(item.action, dict) else {}
        call = self._call(_text(item.call_id) or _text(item.id), "web_search", action)
        status = _text(item.status)
        query = action.get("query")
        text = f"Searched the web for {query}" if isinstance(query, str) and query else ""
        if not text and isinstance(action.get("url"), str):
            text = f"Opened {action['url']}"
        fields: dict[str, Any] = {"query": query} if isinstance(query, str) else {}
        if status:
            fields["status"] = status
        if status in ("completed", "failed") or status is None:
            outcome = "error" if status == "failed" else "ok"
            self._result(call, text, [], fields, outcome, within_response=True)

    def _event(self, event: Any) -> None:
        cls = type(event)
        handle = _EVENT_HANDLERS.get(cls)
        if handle is None:
            handle = _EVENT_HANDLERS[cls] = _handler(cls, _EVENT_HANDLERS)
        handle(self, event)

    def _turn_aborted(self, event: TurnAbortedEvent) -> None:
        self._close_response()
        self._abort_open_calls()
        reason = _text(event.reason) or "interrupted"
        if reason == "interrupted":
            self._chain(self._user_record(_INTERRUPT_PROMPT, [], False))
        else:
            self._chain(SystemRecord(subtype="turn_aborted", content=f"Turn ended: {reason}"))

    def _task_started(self, event: TaskStartedEvent) -> None:
        self._close_response()

    def _task_complete(self, event: TaskCompleteEvent) -> None:
        self._close_response()
        duration = event.duration_ms
        if isinstance(duration, int | float) and not isinstance(duration, bool):
            self._chain(SystemRecord(subtype="turn_duration", duration_ms=duration))

    def _thread_name(self, event: ThreadNameUpdatedEvent) -> None:
        name = _text(event.thread_name)
        if name:
            self._emit(CustomTitleRecord(custom_title=name, session_id=self.governing))

    def _context_compacted(self, event: ContextCompactedEvent) -> None:
        if not self.compacted:
            self._system("compact_boundary", "Conversation compacted")
        self.compacted = False

    def _error(self, event: ErrorEvent | StreamErrorEvent) -> None:
        message = _text(event.message) or "error"
        self._system("api_error", message, "error", error={"message": message})

    def _warning(self, event: WarningEvent) -> None:
        self._system("warning", _text(event.message) or "", "warning")

    def _entered_review(self, event: EnteredReviewModeEvent) -> None:
        hint = _text(event.user_facing_hint) or _text(event.prompt) or ""
        self._system("codex_review", f"Review started: {hint}".strip(": "), "info")

    def _exited_review(self, event: ExitedReviewModeEvent) -> None:
        self._system("codex_review", _review_text(event.review_output), "info")

    def _exec_end(self, event: ExecCommandEndEvent) -> None:
        fields: dict[str, Any] = {}
        for name in ("exit_code", "stdout", "stderr", "cwd", "command", "parsed_cmd"):
            found = getattr(event, name)
            if found is not UNSET and found is not None and found != "":
                fields[name] = found
        seconds = _seconds(event.duration)
        if seconds is not None:
            fields["duration_seconds"] = seconds
        code = event.exit_code
        if isinstance(code, int) and code != 0:
            fields["_failed"] = True
        self._end(event.call_id, fields)

    def _patch_end(self, event: PatchApplyEndEvent) -> None:
        fields: dict[str, Any] = (
            {"success": event.success} if isinstance(event.success, bool) else {}
        )
        if event.changes is not UNSET and event.changes is not None:
            fields["changes"] = event.changes
        for name in ("stdout", "stderr"):
            found = getattr(event, name)
            if isinstance(found, str) and found:
                fields[name] = found
        if event.success is False:
            fields["_failed"] = True
        self._end(event.call_id, fields)

    def _web_search_end(self, event: WebSearchEndEvent) -> None:
        fields = {
            key: value
            for key in ("query", "action", "results")
            if (value := getattr(event, key)) is not UNSET and value is not None
        }
        self._end(event.call_id, fields)

    def _view_image(self, event: ViewImageToolCallEvent) -> None:
        if isinstance(event.path, str):
            self._end(event.call_id, {"path": event.path})

    def _image_generation_end(self, event: ImageGenerationEndEvent) -> None:
        path = _text(event.saved_path)
        if path:
            self._end(event.call_id, {"saved_path": path})

    def _spawn_end(self, event: CollabAgentSpawnEndEvent) -> None:
        thread_id = _text(event.new_thread_id)
        call_id = _text(event.call_id)
        if thread_id and call_id:
            self.thread.spawned[thread_id] = call_id
            self._end(call_id, {"new_thread_id": thread_id})

    def _mcp_end(self, event: McpToolCallEndEvent) -> None:
        fields: dict[str, Any] = {}
        invocation = event.invocation
        if invocation is not UNSET and invocation is not None:
            for name in ("server", "tool", "arguments"):
                found = getattr(invocation, name)
                if found is not UNSET and found is not None:
                    fields[name] = found
        if event.result is not UNSET:
            fields["result"] = event.result
            result = event.result
            if isinstance(result, dict) and (
                "Err" in result
                or (isinstance(result.get("Ok"), dict) and result["Ok"].get("isError") is True)
            ):
                fields["_failed"] = True
        seconds = _seconds(event.duration)
        if seconds is not None:
            fields["duration_seconds"] = seconds
        self._end(event.call_id, fields)

    def _compacted(self, line: CompactedLine) -> None:
        payload = line.payload
        summary = _text(payload.message) if payload is not UNSET and payload is not None else None
        self._system("compact_boundary", "Conversation compacted")
        self.compacted = True
        if summary:
            record = self._user_record(summary, [], False)
            record.is_compact_summary = True
            self._chain(record)

    def finish(self) -> None:
        self._close_response()
        for kind, count in self._kinds.values():
            self.thread.kinds[kind] += count
        # A call still open at the end of the file may still be running: it stays pending.


#: What the translator does with a line's payload, by its class: an item's, an event's (a
#: class not listed is handled as the first of its bases that is, else ignored).
_Handler = Callable[[_Translator, Any], None]
_ITEM_HANDLERS: dict[type, _Handler] = {
    MessageItem: _Translator._message_item,
    ReasoningItem: _Translator._reasoning,
    FunctionCallItem: _Translator._function_call,
    CustomToolCallItem: _Translator._custom_tool_call,
    LocalShellCallItem: _Translator._local_shell_call,
    WebSearchCallItem: _Translator._web_search,
    ToolSearchCallItem: _Translator._tool_search_call,
    ImageGenerationCallItem: _Translator._image_generation_call,
    FunctionCallOutputItem: _Translator._call_output,
    CustomToolCallOutputItem: _Translator._call_output,
    ToolSearchOutputItem: _Translator._tool_search_output,
}
_EVENT_HANDLERS: dict[type, _Handler] = {
    TokenCountEvent: _Translator._token_count,
    UserMessageEvent: _Translator._user_event,
    TurnAbortedEvent: _Translator._turn_aborted,
    TaskStartedEvent: _Translator._task_started,
    TaskCompleteEvent: _Translator._task_complete,
    ThreadNameUpdatedEvent: _Translator._thread_name,
    ContextCompactedEvent: _Translator._context_compacted,
    ErrorEvent: _Translator._error,
    StreamErrorEvent: _Translator._error,
    WarningEvent: _Translator._warning,
    EnteredReviewModeEvent: _Translator._entered_review,
    ExitedReviewModeEvent: _Translator._exited_review,
    ExecCommandEndEvent: _Translator._exec_end,
    PatchApplyEndEvent: _Translator._patch_end,
    McpToolCallEndEvent: _Translator._mcp_end,
    WebSearchEndEvent: _Translator._web_search_end,
    ViewImageToolCallEvent: _Translator._view_image,
    ImageGenerationEndEvent: _Translator._image_generation_end,
    CollabAgentSpawnEndEvent: _Translator._spawn_end,
}


def _handler(cls: type, handlers: dict[type, _Handler]) -> _Handler:
    """The handler of a class the table does not list: its nearest listed base's, else none."""
    for base in cls.__mro__[1:]:
        found = handlers.get(base)
        if found is not None:
            return found
    return _Translator._bookkeeping


#: The kinds cclens does not know (see :func:`is_known`).
_UNKNOWN = frozenset({UnknownLine, UnknownItem, UnknownEvent})


def _usage_key(usage: TokenUsage) -> tuple[int, ...]:
    return tuple(
        value if isinstance(value, int) else 0
        for value in (
            usage.input_tokens,
            usage.cached_input_tokens,
            usage.cache_write_input_tokens,
            usage.output_tokens,
            usage.reasoning_output_tokens,
            usage.total_tokens,
        )
    )


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _usage(last: TokenUsage) -> Usage:
    """A response's usage in the session model's terms: cache reads apart from the input."""
    cached = _count(last.cached_input_tokens)
    written = _count(last.cache_write_input_tokens)
    usage = Usage(
        input_tokens=max(_count(last.input_tokens) - cached - written, 0),
        output_tokens=_count(last.output_tokens),
        cache_read_input_tokens=cached,
        cache_creation_input_tokens=written,
    )
    reasoning = _count(last.reasoning_output_tokens)
    if reasoning:
        usage.output_tokens_details = OutputTokensDetails(thinking_tokens=reasoning)
    return usage


def _image_block(url: Any) -> ImageBlock | None:
    found = data_image(url)
    if found is None:
        return None
    media, data = found
    return ImageBlock(source=MediaSource(type="base64", media_type=media, data=data))


def _image_blocks(item: MessageItem) -> list[ContentBlock]:
    parts = item.content if isinstance(item.content, list) else []
    blocks: list[ContentBlock] = []
    for part in parts:
        if isinstance(part, InputImage) and (block := _image_block(part.image_url)) is not None:
            blocks.append(block)
    return blocks


def _record_text(record: UserRecord) -> str:
    message = record.message
    if not message or not isinstance(message.content, list):
        return ""
    return "\n\n".join(b.text for b in message.content if isinstance(b, TextBlock))


def _review_text(output: Any) -> str:
    if isinstance(output, dict):
        explanation = output.get("overall_explanation") or output.get("explanation")
        findings = output.get("findings")
        parts = ["Review finished"]
        if isinstance(findings, list):
            parts.append(f"{len(findings)} finding{'s' if len(findings) != 1 else ''}")
        text = " · ".join(parts)
        if isinstance(explanation, str) and explanation:
            text += f"\n\n{explanation}"
        return text
    return "Review finished"


def translate(
    path: Path, lines: Iterable[tuple[int, int, int, CodexLine, tuple[str, ...]]]
) -> tuple[list[Entry], Thread]:
    """The session model's records for the lines of the rollout file ``path``: ``(line
    number, byte offset, length, decoded line, decoding notes)`` in file order."""
    items = list(lines)
    translator = _Translator(path)
    translator.has_events = any(
        isinstance(line, EventMsgLine) and isinstance(line.payload, UserMessageEvent)
        for _, _, _, line, _ in items
    )
    for number, offset, length, line, notes in items:
        translator.line_of(number, offset, length, line, notes)
    translator.finish()
    return translator.entries, translator.thread


__all__ = ["CONTEXT_STARTS", "INTERRUPTED", "Thread", "translate"]
