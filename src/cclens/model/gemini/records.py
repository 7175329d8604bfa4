"""Typed, lossless model of Gemini CLI chat recordings.

Gemini CLI records each chat under ``~/.gemini/tmp/<project>/chats/`` in one of two forms
(``packages/core/src/services/chatRecordingService.ts`` and ``chatRecordingTypes.ts``):

* up to gemini-cli 0.37 (April 2026) one JSON object, a :class:`Conversation`, rewritten in
  place as the session grows (``session-<time>-<id>.json``);
* since then JSON Lines (``.jsonl``): a metadata line (a :class:`Conversation` without
  ``messages``), then every message each time it is written (a message written again keeps its
  ``id``: the last version wins), ``{"$set": {...}}`` metadata updates (a ``$set`` holding
  ``messages`` replaces them all) and ``{"$rewindTo": id}`` markers (``/rewind`` dropped that
  message and every later one).

Messages are a tagged union on ``type`` (``user``, ``gemini``, ``info``, ``error``,
``warning``). A message's ``content`` is the Gemini API's ``PartListUnion``: a string, one
:class:`Part` or a list of parts and strings. As in :mod:`cclens.model.records`, unknown fields
are kept in ``extra`` and a message of an unknown type becomes :class:`UnknownMessage` holding
its JSON, so every value re-encodes (:func:`cclens.model.to_builtins`) to the JSON it came from.
"""

from collections.abc import Iterator
from typing import Any, TypeAlias, Union, cast

import msgspec

from .._base import EXTRA_KEY, RAW_KEY, UNKNOWN_TAG, UNSET, Int, Model, Opt
from .._convert import Decoded, Lenient
from .._depth import MAX_DEPTH, too_deep
from .._shape import known_tags


class InlineData(Model, rename="camel"):
    """Bytes sent inline (an image or a file the user attached), base64 in ``data``."""

    mime_type: Opt[str] = UNSET
    data: Opt[str] = UNSET
    display_name: Opt[str] = UNSET


class FileData(Model, rename="camel"):
    """A file referred to by URI."""

    mime_type: Opt[str] = UNSET
    file_uri: Opt[str] = UNSET
    display_name: Opt[str] = UNSET


class FunctionCall(Model, rename="camel"):
    """A tool call as the model wrote it (modern sessions keep it in ``content`` too)."""

    id: Opt[str] = UNSET
    name: Opt[str] = UNSET
    args: Any = UNSET
    partial_args: Any = UNSET
    will_continue: Opt[bool] = UNSET


class FunctionResponse(Model, rename="camel"):
    """A tool's answer as the model was shown it: ``response`` is ``{"output": ...}`` or
    ``{"error": ...}``."""

    id: Opt[str] = UNSET
    name: Opt[str] = UNSET
    response: Any = UNSET
    parts: Any = UNSET
    will_continue: Opt[bool] = UNSET
    scheduling: Opt[str] = UNSET


class ExecutableCode(Model):
    language: Opt[str] = UNSET
    code: Opt[str] = UNSET


class CodeExecutionResult(Model):
    outcome: Opt[str] = UNSET
    output: Opt[str] = UNSET


class Part(Model, rename="camel"):
    """One part of a Gemini API ``Content``: exactly one of its data fields is set."""

    text: Opt[str] = UNSET
    #: A part of the model's thinking (``text`` holds it).
    thought: Opt[bool] = UNSET
    thought_signature: Opt[str] = UNSET
    inline_data: Opt[InlineData] = UNSET
    file_data: Opt[FileData] = UNSET
    function_call: Opt[FunctionCall] = UNSET
    function_response: Opt[FunctionResponse] = UNSET
    executable_code: Opt[ExecutableCode] = UNSET
    code_execution_result: Opt[CodeExecutionResult] = UNSET
    video_metadata: Any = UNSET
    media_resolution: Any = UNSET
    part_metadata: Any = UNSET


#: The Gemini API's ``PartListUnion``: a string, a part, or a list of parts and strings.
Content: TypeAlias = Union[str, Part, list[Union[str, Part]]]  # noqa: UP007


def content_parts(content: Opt[Content]) -> list[str | Part]:
    """``content`` as a list of parts and strings (nothing when absent)."""
    if content is None or content is UNSET:
        return []
    if isinstance(content, str | Part):
        return [content]
    return list(content)


def content_text(content: Opt[Content]) -> str:
    """The text of ``content`` as gemini-cli shows it: its strings and text parts joined,
    thoughts left out."""
    pieces: list[str] = []
    for part in content_parts(content):
        if isinstance(part, str):
            pieces.append(part)
        elif isinstance(part.text, str) and part.thought is not True:
            pieces.append(part.text)
    return "".join(pieces)


class Tokens(Model):
    """``TokensSummary``: the API's usage metadata of one model response.

    ``input`` is ``promptTokenCount`` (cached input included), ``output``
    ``candidatesTokenCount``, ``cached`` ``cachedContentTokenCount``, ``thoughts``
    ``thoughtsTokenCount``, ``tool`` ``toolUsePromptTokenCount``, ``total``
    ``totalTokenCount`` (input + output + thoughts + tool).
    """

    input: Opt[Int] = UNSET
    output: Opt[Int] = UNSET
    cached: Opt[Int] = UNSET
    thoughts: Opt[Int] = UNSET
    tool: Opt[Int] = UNSET
    total: Opt[Int] = UNSET


class Thought(Model):
    """A thought summary: the bold ``subject`` and the ``description`` after it."""

    subject: Opt[str] = UNSET
    description: Opt[str] = UNSET
    timestamp: Opt[str] = UNSET


class ToolCallRecord(Model, rename="camel"):
    """A tool call and, once it ran, its result and status.

    ``status`` is ``success``, ``error`` or ``cancelled`` once done (the scheduler's
    ``validating``, ``scheduled``, ``awaiting_approval`` and ``executing`` while not);
    ``result`` is what the model was shown (``functionResponse`` parts), ``resultDisplay``
    what the terminal showed (a string, a file diff, a todo list, grep matches, ...).
    """

    id: Opt[str] = UNSET
    name: Opt[str] = UNSET
    args: Any = UNSET
    result: Opt[Content] = UNSET
    status: Opt[str] = UNSET
    timestamp: Opt[str] = UNSET
    #: The subagent's id, for a call that delegated to one.
    agent_id: Opt[str] = UNSET
    display_name: Opt[str] = UNSET
    description: Opt[str] = UNSET
    result_display: Any = UNSET
    render_output_as_markdown: Opt[bool] = UNSET


class MessageRecord(Model, rename="camel"):
    """Base of every message: its id, time and content."""

    id: Opt[str] = UNSET
    timestamp: Opt[str] = UNSET
    content: Opt[Content] = UNSET
    #: What the terminal showed instead of ``content`` (a slash command's expansion).
    display_content: Opt[Content] = UNSET

    @property
    def kind(self) -> str:
        """The message's ``type`` as written."""
        return str(self.__struct_config__.tag)


class UserMessage(MessageRecord, tag="user"):
    """A prompt, or (since 2026) tool responses gemini-cli recorded as a user turn."""


class GeminiMessage(MessageRecord, tag="gemini"):
    """A model response: text, thoughts, tool calls, token usage and the model's name."""

    tool_calls: Opt[list[ToolCallRecord]] = UNSET
    thoughts: Opt[list[Thought]] = UNSET
    tokens: Opt[Tokens] = UNSET
    model: Opt[str] = UNSET


class InfoMessage(MessageRecord, tag="info"):
    """A notice gemini-cli showed (a model switch, a cancelled request, binary content)."""


class ErrorMessage(MessageRecord, tag="error"):
    """An error gemini-cli showed (an API error, a quota message)."""


class WarningMessage(MessageRecord, tag="warning"):
    """A warning gemini-cli showed."""


class UnknownMessage(Model, tag=UNKNOWN_TAG):
    """A message of a type cclens does not know (or with no ``type``); ``raw`` is its JSON."""

    raw: Any = msgspec.field(default=None, name=RAW_KEY)

    @property
    def kind(self) -> str:
        if isinstance(self.raw, dict):
            kind = self.raw.get("type")
            return str(kind) if kind is not None else "(none)"
        return "(not an object)"

    @property
    def id(self) -> str | None:
        identifier = self.raw.get("id") if isinstance(self.raw, dict) else None
        return identifier if isinstance(identifier, str) else None

    @property
    def timestamp(self) -> str | None:
        time = self.raw.get("timestamp") if isinstance(self.raw, dict) else None
        return time if isinstance(time, str) else None


AnyMessage: TypeAlias = Union[  # noqa: UP007
    UserMessage,
    GeminiMessage,
    InfoMessage,
    ErrorMessage,
    WarningMessage,
    UnknownMessage,
]

#: The ``type`` of every message kind the model knows.
MESSAGE_TYPES: frozenset[str] = known_tags(AnyMessage)


class Conversation(Model, rename="camel"):
    """A whole ``.json`` recording; in the ``.jsonl`` form its first line (without
    ``messages``) and the body of every ``$set`` line (any subset of the fields)."""

    session_id: Opt[str] = UNSET
    project_hash: Opt[str] = UNSET
    start_time: Opt[str] = UNSET
    last_updated: Opt[str] = UNSET
    messages: Opt[list[AnyMessage]] = UNSET
    #: A one-line summary gemini-cli generated for the session list.
    summary: Opt[str] = UNSET
    #: Workspace directories (``/dir add``; a subagent's inherited ones).
    directories: Opt[list[str]] = UNSET
    #: ``main`` or ``subagent``.
    kind: Opt[str] = UNSET
    memory_scratchpad: Any = UNSET


class MetadataLine(Conversation):
    """The first line of a ``.jsonl`` recording (a whole legacy record on one line also
    holds ``messages``)."""


class SetLine(Model):
    """``{"$set": {...}}``: fields of the conversation updated."""

    set: Opt[Conversation] = msgspec.field(default=UNSET, name="$set")


class RewindLine(Model):
    """``{"$rewindTo": id}``: the message ``id`` and every later one were dropped."""

    rewind_to: Opt[str] = msgspec.field(default=UNSET, name="$rewindTo")


class UnknownLine(Model, tag=UNKNOWN_TAG):
    """A ``.jsonl`` line of none of the known shapes; ``raw`` is its JSON."""

    raw: Any = msgspec.field(default=None, name=RAW_KEY)

    @property
    def kind(self) -> str:
        if isinstance(self.raw, dict):
            keys = sorted(self.raw)[:3]
            return "{" + ",".join(keys) + "}" if keys else "{}"
        return "(not an object)"


AnyLine: TypeAlias = Union[MetadataLine, SetLine, RewindLine, AnyMessage, UnknownLine]  # noqa: UP007


def _unknown_line(raw: Any) -> UnknownLine:
    return UnknownLine(raw=raw)


_CONVERSATION: Lenient[Conversation | UnknownLine] = Lenient(Conversation, _unknown_line)
_METADATA: Lenient[MetadataLine | UnknownLine] = Lenient(MetadataLine, _unknown_line)
_SET: Lenient[SetLine | UnknownLine] = Lenient(SetLine, _unknown_line)
_REWIND: Lenient[RewindLine | UnknownLine] = Lenient(RewindLine, _unknown_line)
_MESSAGE: Lenient[AnyMessage] = Lenient(AnyMessage, lambda raw: UnknownMessage(raw=raw))


_FAST_CONVERSATION = msgspec.json.Decoder(Conversation)


def decode_conversation(data: bytes) -> Decoded[Conversation | UnknownLine]:
    """A whole ``.json`` recording. Raises ``msgspec.DecodeError`` when it is not JSON; a
    JSON value that is not an object decodes as :class:`UnknownLine`.

    A recording is one large value whose own structure is a few levels deep: only its values
    of no declared shape (:func:`free_values`) can nest without bound, so only they are
    walked for depth; a recording nesting past the budget there, anything the typed decoder
    refuses, or a text naming the model's reserved keys takes the lenient path (which keeps
    what is too deep as raw JSON).
    """
    if EXTRA_KEY.encode() not in data and UNKNOWN_TAG.encode() not in data:
        try:
            value = _FAST_CONVERSATION.decode(data)
        except (msgspec.ValidationError, RecursionError):
            pass
        else:
            containers = (v for v in free_values(value) if isinstance(v, dict | list))
            if not any(too_deep(free, _FREE_DEPTH) for free in containers):
                return Decoded(value, [])
    return _CONVERSATION.decode(data)


#: How deep a value of no declared shape may nest: the recording's own structure takes at most
#: this many levels above it (conversation, messages, a message, its tool calls, a call, its
#: result parts, a part, its function response, the response).
_FREE_DEPTH = MAX_DEPTH - 10


def free_values(conversation: Conversation) -> Iterator[Any]:
    """The values of no declared shape a typed recording holds (tool arguments and results,
    what the terminal showed, part metadata): the only places it can nest without bound, so
    the only ones whose depth is measured (a walk of their containers, not of the whole text)."""
    messages = conversation.messages if isinstance(conversation.messages, list) else []
    yield conversation.memory_scratchpad
    for message in messages:
        if isinstance(message, UnknownMessage):
            yield message.raw
            continue
        for content in (message.content, message.display_content):
            yield from _part_values(content)
        if isinstance(message, GeminiMessage) and isinstance(message.tool_calls, list):
            for call in message.tool_calls:
                yield call.args
                yield call.result_display
                yield from _part_values(call.result)


def _part_values(content: Any) -> Iterator[Any]:
    for part in content_parts(content):
        if isinstance(part, str):
            continue
        yield part.video_metadata
        yield part.media_resolution
        yield part.part_metadata
        call = part.function_call
        if isinstance(call, FunctionCall):
            yield call.args
            yield call.partial_args
        response = part.function_response
        if isinstance(response, FunctionResponse):
            yield response.response
            yield response.parts


def line_kind(raw: Any) -> str:
    """What a ``.jsonl`` line is, told as gemini-cli's loader tells it
    (``loadConversationRecord``): ``rewind``, ``message``, ``set``, ``metadata`` or
    ``unknown``, checked in that order."""
    if not isinstance(raw, dict):
        return "unknown"
    if isinstance(raw.get("$rewindTo"), str):
        return "rewind"
    if isinstance(raw.get("id"), str):
        return "message"
    set_value = raw.get("$set")
    if isinstance(set_value, dict | list):
        return "set"
    if isinstance(raw.get("sessionId"), str) and isinstance(raw.get("projectHash"), str):
        return "metadata"
    return "unknown"


def convert_line(raw: Any) -> Decoded[AnyLine]:
    """One ``.jsonl`` line from its decoded JSON value, losslessly (never raises)."""
    kind = line_kind(raw)
    decoded: Decoded[Any]  # each decoder's own union is part of AnyLine
    if kind == "message":
        decoded = _MESSAGE.convert(raw)
    elif kind == "set":
        decoded = _SET.convert(raw)
    elif kind == "rewind":
        decoded = _REWIND.convert(raw)
    elif kind == "metadata":
        decoded = _METADATA.convert(raw)
    else:
        decoded = Decoded(UnknownLine(raw=raw), [])
    return cast("Decoded[AnyLine]", decoded)


def decode_line(data: bytes) -> Decoded[AnyLine]:
    """One ``.jsonl`` line. Raises ``msgspec.DecodeError`` when it is not JSON."""
    return convert_line(msgspec.json.decode(data))
