"""Typed, lossless model of Codex CLI's rollout files (``~/.codex/sessions``).

:func:`decode_line` decodes one line into a :data:`CodexLine` (a wrapped line of
:mod:`.lines`, a bare item of :mod:`.items` in mid-2025 files, their header or a state
marker), keeping every field it does not declare and every kind it does not know, so that
:func:`cclens.model.to_builtins` gives back the JSON of the line. :func:`line_kind` names a
line's kind the way ``cclens check`` counts them (``response_item:function_call``).
"""

import msgspec

from .._convert import Decoded, Lenient
from .events import (
    TOOL_END_EVENTS,
    AgentMessageEvent,
    AgentReasoningEvent,
    ContextCompactedEvent,
    EnteredReviewModeEvent,
    ErrorEvent,
    Event,
    EventMsg,
    ExecCommandEndEvent,
    ExitedReviewModeEvent,
    McpToolCallEndEvent,
    PatchApplyEndEvent,
    StreamErrorEvent,
    TaskCompleteEvent,
    TaskStartedEvent,
    ThreadNameUpdatedEvent,
    TokenCountEvent,
    TokenUsage,
    TokenUsageInfo,
    TurnAbortedEvent,
    UnknownEvent,
    UserMessageEvent,
    ViewImageToolCallEvent,
    WebSearchEndEvent,
)
from .items import (
    CALL_ITEMS,
    OUTPUT_ITEMS,
    CustomToolCallItem,
    CustomToolCallOutputItem,
    FunctionCallItem,
    FunctionCallOutputItem,
    InputImage,
    InputText,
    Item,
    LocalShellCallItem,
    MessageItem,
    OutputText,
    ReasoningItem,
    ResponseItem,
    ToolSearchCallItem,
    ToolSearchOutputItem,
    UnknownContent,
    UnknownItem,
    UnknownReasoningContent,
    UnknownSummary,
    WebSearchCallItem,
)
from .lines import (
    AnyLine,
    BareHeader,
    CodexLine,
    Compacted,
    CompactedLine,
    EventMsgLine,
    GitInfo,
    ResponseItemLine,
    SessionMeta,
    SessionMetaLine,
    StateMarker,
    TurnContext,
    TurnContextLine,
    UnknownLine,
)

_LINES: Lenient[AnyLine] = Lenient(AnyLine, lambda raw: UnknownLine(raw=raw))
_HEADER: Lenient[CodexLine] = Lenient(BareHeader, lambda raw: UnknownLine(raw=raw))
_STATE: Lenient[CodexLine] = Lenient(StateMarker, lambda raw: UnknownLine(raw=raw))
_HEADER_KEYS = frozenset({"id", "timestamp", "instructions", "git"})


def decode_line(data: bytes | str) -> Decoded[CodexLine]:
    """Decode one line of a rollout file, losslessly.

    Raises ``msgspec.DecodeError`` when the line is not JSON. A JSON value that is not an
    object, or an object of no kind cclens knows, decodes as :class:`UnknownLine`.
    """
    decoded: Decoded[CodexLine] = _LINES.decode(data)  # type: ignore[assignment]
    line = decoded.value
    if isinstance(line, UnknownLine) and isinstance(line.raw, dict) and "type" not in line.raw:
        raw = line.raw
        if "record_type" in raw:
            return _STATE.convert(raw)
        if "id" in raw and raw.keys() <= _HEADER_KEYS:
            return _HEADER.convert(raw)
    return decoded


def line_kind(line: CodexLine) -> str:
    """The kind of a line as ``cclens check`` counts it: the line's ``type``, followed for a
    ``response_item`` or an ``event_msg`` by its payload's (``event_msg:token_count``); a bare
    item is named as a wrapped one would be (``response_item:message``)."""
    if isinstance(line, ResponseItemLine | EventMsgLine):
        return f"{line.kind}:{line.payload.kind}"
    if isinstance(line, Item | UnknownItem):
        return f"response_item:{line.kind}"
    return line.kind


def is_known(line: CodexLine) -> bool:
    """Whether cclens knows the line's kind (and its payload's)."""
    if isinstance(line, UnknownLine):
        return False
    if isinstance(line, ResponseItemLine):
        return not isinstance(line.payload, UnknownItem)
    if isinstance(line, EventMsgLine):
        return not isinstance(line.payload, UnknownEvent)
    return True


def encode_line(line: CodexLine) -> bytes:
    """The JSON of a decoded line (equal, as a JSON value, to the line it was decoded from)."""
    from .._encode import to_builtins

    return msgspec.json.encode(to_builtins(line))


__all__ = [
    "CALL_ITEMS",
    "OUTPUT_ITEMS",
    "TOOL_END_EVENTS",
    "AgentMessageEvent",
    "AgentReasoningEvent",
    "AnyLine",
    "BareHeader",
    "CodexLine",
    "Compacted",
    "CompactedLine",
    "ContextCompactedEvent",
    "CustomToolCallItem",
    "CustomToolCallOutputItem",
    "EnteredReviewModeEvent",
    "ErrorEvent",
    "Event",
    "EventMsg",
    "EventMsgLine",
    "ExecCommandEndEvent",
    "ExitedReviewModeEvent",
    "FunctionCallItem",
    "FunctionCallOutputItem",
    "GitInfo",
    "InputImage",
    "InputText",
    "Item",
    "LocalShellCallItem",
    "McpToolCallEndEvent",
    "MessageItem",
    "OutputText",
    "PatchApplyEndEvent",
    "ReasoningItem",
    "ResponseItem",
    "ResponseItemLine",
    "SessionMeta",
    "SessionMetaLine",
    "StateMarker",
    "StreamErrorEvent",
    "TaskCompleteEvent",
    "TaskStartedEvent",
    "ThreadNameUpdatedEvent",
    "TokenCountEvent",
    "TokenUsage",
    "TokenUsageInfo",
    "ToolSearchCallItem",
    "ToolSearchOutputItem",
    "TurnAbortedEvent",
    "TurnContext",
    "TurnContextLine",
    "UnknownContent",
    "UnknownEvent",
    "UnknownItem",
    "UnknownLine",
    "UnknownReasoningContent",
    "UnknownSummary",
    "UserMessageEvent",
    "ViewImageToolCallEvent",
    "WebSearchCallItem",
    "WebSearchEndEvent",
    "decode_line",
    "encode_line",
    "is_known",
    "line_kind",
]
