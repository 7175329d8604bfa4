"""GitHub Copilot CLI: typed, lossless events of its session logs (:mod:`.events`) and its
tools' inputs (:mod:`.tools`).
"""

from .events import (
    DATA_TYPES,
    EVENT_TYPES,
    AssistantMessageData,
    CompactionData,
    Event,
    ModelChangeData,
    NotAnEvent,
    NoticeData,
    ReasoningData,
    ShutdownData,
    StartData,
    ToolCompleteData,
    ToolError,
    ToolRequest,
    ToolResult,
    ToolStartData,
    UserMessageData,
    decode_event,
    event_data,
)

__all__ = [
    "DATA_TYPES",
    "EVENT_TYPES",
    "AssistantMessageData",
    "CompactionData",
    "Event",
    "ModelChangeData",
    "NotAnEvent",
    "NoticeData",
    "ReasoningData",
    "ShutdownData",
    "StartData",
    "ToolCompleteData",
    "ToolError",
    "ToolRequest",
    "ToolResult",
    "ToolStartData",
    "UserMessageData",
    "decode_event",
    "event_data",
]
