"""What a Codex ``event_msg`` holds: the events Codex persists beside the response items.

An ``event_msg`` line's ``payload`` is one of these, tagged by its ``type``. Codex writes the
user's prompts (``user_message``), the answers and reasoning summaries again as events, the
token counts of each response (``token_count``), turn boundaries (``task_started``,
``task_complete``, ``turn_aborted``), compactions, review mode and, since late 2025, the ends of
tool runs (``exec_command_end``, ``patch_apply_end``, ``mcp_tool_call_end``,
``web_search_end``, ``view_image_tool_call``) and of subagent operations (``collab_*``). An
event of a kind not known yet decodes as :class:`UnknownEvent` with its raw JSON.

Source: ``codex-rs/protocol/src/protocol.rs`` (``EventMsg``) and the rollout recorder's policy
(``codex-rs/rollout/src/policy.rs``: which events are written) of openai/codex.
"""

from typing import Any, TypeAlias, Union

import msgspec

from .._base import UNKNOWN_TAG, UNSET, Int, Model, Number, Opt
from .items import Unknown


class TokenUsage(Model):
    """Tokens of one response or of the whole thread so far. ``input_tokens`` includes the
    cached input (``cached_input_tokens``); ``output_tokens`` includes the reasoning
    (``reasoning_output_tokens``)."""

    input_tokens: Opt[Int] = UNSET
    cached_input_tokens: Opt[Int] = UNSET
    cache_write_input_tokens: Opt[Int] = UNSET
    output_tokens: Opt[Int] = UNSET
    reasoning_output_tokens: Opt[Int] = UNSET
    total_tokens: Opt[Int] = UNSET


class TokenUsageInfo(Model):
    """The thread's running total and the last response's tokens."""

    total_token_usage: Opt[TokenUsage] = UNSET
    last_token_usage: Opt[TokenUsage] = UNSET
    model_context_window: Opt[Int] = UNSET


class Duration(Model):
    """A Rust ``Duration`` as serde writes it."""

    secs: Opt[Int] = UNSET
    nanos: Opt[Int] = UNSET

    @property
    def seconds(self) -> float | None:
        if not isinstance(self.secs, int):
            return None
        return self.secs + (self.nanos if isinstance(self.nanos, int) else 0) / 1e9


class McpInvocation(Model):
    server: Opt[str] = UNSET
    tool: Opt[str] = UNSET
    arguments: Any = UNSET


class Event(Model):
    """Base of every event."""

    @property
    def kind(self) -> str:
        """The event's ``type`` as written."""
        return str(self.__struct_config__.tag)


class UserMessageEvent(Event, tag="user_message"):
    """What the person typed (``kind``: ``plain``, in 2025 files), with the images attached."""

    message: Opt[str] = UNSET
    kind_: Opt[str] = msgspec.field(default=UNSET, name="kind")
    images: Any = UNSET
    local_images: Any = UNSET
    text_elements: Any = UNSET
    audio: Any = UNSET
    local_audio: Any = UNSET
    client_id: Any = UNSET


class AgentMessageEvent(Event, tag="agent_message"):
    message: Opt[str] = UNSET
    phase: Opt[str] = UNSET
    memory_citation: Any = UNSET


class AgentReasoningEvent(Event, tag="agent_reasoning"):
    text: Opt[str] = UNSET


class AgentReasoningRawContentEvent(Event, tag="agent_reasoning_raw_content"):
    text: Opt[str] = UNSET


class TokenCountEvent(Event, tag="token_count"):
    """The tokens of the response that just ended (``info.last_token_usage``) and of the
    thread so far (``info.total_token_usage``); ``info`` is ``null`` before the first response.
    Codex writes the same counts again when nothing new was used (a repeat of the total)."""

    info: Opt[TokenUsageInfo] = UNSET
    rate_limits: Any = UNSET


class TaskStartedEvent(Event, tag="task_started"):
    turn_id: Opt[str] = UNSET
    started_at: Any = UNSET
    model_context_window: Opt[Int] = UNSET
    collaboration_mode_kind: Opt[str] = UNSET


class TaskCompleteEvent(Event, tag="task_complete"):
    turn_id: Opt[str] = UNSET
    last_agent_message: Opt[str] = UNSET
    started_at: Any = UNSET
    completed_at: Any = UNSET
    duration_ms: Opt[Number] = UNSET
    time_to_first_token_ms: Opt[Number] = UNSET
    error: Any = UNSET


class TurnAbortedEvent(Event, tag="turn_aborted"):
    """A turn stopped before its end: ``reason`` is ``interrupted`` (the person pressed Esc),
    ``replaced`` or ``review_ended``."""

    reason: Opt[str] = UNSET
    turn_id: Opt[str] = UNSET
    started_at: Any = UNSET
    completed_at: Any = UNSET
    duration_ms: Opt[Number] = UNSET


class ContextCompactedEvent(Event, tag="context_compacted"):
    """The history was compacted (the summary is in the ``compacted`` line)."""


class EnteredReviewModeEvent(Event, tag="entered_review_mode"):
    target: Any = UNSET
    user_facing_hint: Opt[str] = UNSET
    prompt: Opt[str] = UNSET
    item_id: Opt[str] = UNSET
    turn_id: Opt[str] = UNSET


class ExitedReviewModeEvent(Event, tag="exited_review_mode"):
    review_output: Any = UNSET
    item_id: Opt[str] = UNSET
    turn_id: Opt[str] = UNSET


class UndoCompletedEvent(Event, tag="undo_completed"):
    success: Opt[bool] = UNSET
    message: Opt[str] = UNSET


class ThreadNameUpdatedEvent(Event, tag="thread_name_updated"):
    """The person named the thread (``/rename``)."""

    thread_id: Opt[str] = UNSET
    thread_name: Opt[str] = UNSET


class ThreadRolledBackEvent(Event, tag="thread_rolled_back"):
    num_turns: Opt[Int] = UNSET
    rollback_start_index: Opt[Int] = UNSET


class ErrorEvent(Event, tag="error"):
    message: Opt[str] = UNSET
    codex_error_info: Any = UNSET
    error: Any = UNSET


class WarningEvent(Event, tag="warning"):
    message: Opt[str] = UNSET


class StreamErrorEvent(Event, tag="stream_error"):
    message: Opt[str] = UNSET
    codex_error_info: Any = UNSET
    additional_details: Any = UNSET


class ExecCommandEndEvent(Event, tag="exec_command_end"):
    """A command finished: its exit code, output and duration."""

    call_id: Opt[str] = UNSET
    turn_id: Opt[str] = UNSET
    process_id: Any = UNSET
    command: Any = UNSET
    cwd: Opt[str] = UNSET
    parsed_cmd: Any = UNSET
    source: Opt[str] = UNSET
    stdout: Opt[str] = UNSET
    stderr: Opt[str] = UNSET
    aggregated_output: Opt[str] = UNSET
    exit_code: Opt[Int] = UNSET
    duration: Opt[Duration] = UNSET
    formatted_output: Opt[str] = UNSET
    status: Opt[str] = UNSET
    interaction_input: Any = UNSET


class PatchApplyEndEvent(Event, tag="patch_apply_end"):
    """A patch was applied (``success``), with the changes by file."""

    call_id: Opt[str] = UNSET
    turn_id: Opt[str] = UNSET
    stdout: Opt[str] = UNSET
    stderr: Opt[str] = UNSET
    success: Opt[bool] = UNSET
    changes: Any = UNSET
    status: Opt[str] = UNSET


class McpToolCallEndEvent(Event, tag="mcp_tool_call_end"):
    """An MCP tool call finished: ``result`` is ``{"Ok": CallToolResult}`` or
    ``{"Err": message}``."""

    call_id: Opt[str] = UNSET
    invocation: Opt[McpInvocation] = UNSET
    duration: Opt[Duration] = UNSET
    result: Any = UNSET
    turn_id: Opt[str] = UNSET
    app_name: Any = UNSET
    action_name: Any = UNSET
    connector_id: Any = UNSET
    link_id: Any = UNSET
    plugin_id: Any = UNSET
    read_only_hint: Any = UNSET


class WebSearchEndEvent(Event, tag="web_search_end"):
    call_id: Opt[str] = UNSET
    query: Opt[str] = UNSET
    action: Any = UNSET
    results: Any = UNSET


class ViewImageToolCallEvent(Event, tag="view_image_tool_call"):
    call_id: Opt[str] = UNSET
    path: Opt[str] = UNSET


class ImageGenerationEndEvent(Event, tag="image_generation_end"):
    call_id: Opt[str] = UNSET
    status: Opt[str] = UNSET
    revised_prompt: Opt[str] = UNSET
    result: Opt[str] = UNSET
    saved_path: Opt[str] = UNSET


class ItemCompletedEvent(Event, tag="item_completed"):
    thread_id: Opt[str] = UNSET
    turn_id: Opt[str] = UNSET
    item: Any = UNSET
    started_at_ms: Opt[Number] = UNSET
    completed_at_ms: Opt[Number] = UNSET


class InjectedMessageEvent(Event, tag="injected_message"):
    message: Any = UNSET
    kind_: Any = msgspec.field(default=UNSET, name="kind")


class GuardianAssessmentEvent(Event, tag="guardian_assessment"):
    id: Opt[str] = UNSET
    turn_id: Opt[str] = UNSET
    status: Opt[str] = UNSET
    risk_level: Any = UNSET
    rationale: Any = UNSET
    action: Any = UNSET
    decision_source: Any = UNSET
    target_item_id: Any = UNSET
    user_authorization: Any = UNSET


class _Collab(Event):
    """Base of the events of a multi-agent thread's operations."""

    call_id: Opt[str] = UNSET
    sender_thread_id: Opt[str] = UNSET
    receiver_thread_id: Opt[str] = UNSET
    receiver_agent_nickname: Opt[str] = UNSET
    receiver_agent_role: Opt[str] = UNSET
    prompt: Opt[str] = UNSET
    status: Any = UNSET
    model: Opt[str] = UNSET
    reasoning_effort: Any = UNSET


class CollabAgentSpawnEndEvent(_Collab, tag="collab_agent_spawn_end"):
    """A subagent thread was started."""

    new_thread_id: Opt[str] = UNSET
    new_agent_nickname: Opt[str] = UNSET
    new_agent_role: Opt[str] = UNSET


class CollabAgentInteractionEndEvent(_Collab, tag="collab_agent_interaction_end"):
    pass


class CollabWaitingEndEvent(_Collab, tag="collab_waiting_end"):
    statuses: Any = UNSET
    agent_statuses: Any = UNSET


class CollabCloseEndEvent(_Collab, tag="collab_close_end"):
    pass


class CollabResumeEndEvent(_Collab, tag="collab_resume_end"):
    pass


class DynamicToolCallRequestEvent(Event, tag="dynamic_tool_call_request"):
    call_id: Opt[str] = msgspec.field(default=UNSET, name="callId")
    turn_id: Opt[str] = msgspec.field(default=UNSET, name="turnId")
    tool: Opt[str] = UNSET
    namespace: Any = UNSET
    arguments: Any = UNSET


class DynamicToolCallResponseEvent(Event, tag="dynamic_tool_call_response"):
    call_id: Opt[str] = UNSET
    turn_id: Opt[str] = UNSET
    tool: Opt[str] = UNSET
    namespace: Any = UNSET
    arguments: Any = UNSET
    content_items: Any = UNSET
    success: Opt[bool] = UNSET
    error: Any = UNSET
    duration: Any = UNSET


class ThreadSettingsAppliedEvent(Event, tag="thread_settings_applied"):
    thread_settings: Any = UNSET


class UnknownEvent(Unknown, tag=UNKNOWN_TAG):
    """An event of a kind cclens does not know; ``raw`` is its JSON."""


EventMsg: TypeAlias = Union[  # noqa: UP007
    UserMessageEvent,
    AgentMessageEvent,
    AgentReasoningEvent,
    AgentReasoningRawContentEvent,
    TokenCountEvent,
    TaskStartedEvent,
    TaskCompleteEvent,
    TurnAbortedEvent,
    ContextCompactedEvent,
    EnteredReviewModeEvent,
    ExitedReviewModeEvent,
    UndoCompletedEvent,
    ThreadNameUpdatedEvent,
    ThreadRolledBackEvent,
    ErrorEvent,
    WarningEvent,
    StreamErrorEvent,
    ExecCommandEndEvent,
    PatchApplyEndEvent,
    McpToolCallEndEvent,
    WebSearchEndEvent,
    ViewImageToolCallEvent,
    ImageGenerationEndEvent,
    ItemCompletedEvent,
    InjectedMessageEvent,
    GuardianAssessmentEvent,
    CollabAgentSpawnEndEvent,
    CollabAgentInteractionEndEvent,
    CollabWaitingEndEvent,
    CollabCloseEndEvent,
    CollabResumeEndEvent,
    DynamicToolCallRequestEvent,
    DynamicToolCallResponseEvent,
    ThreadSettingsAppliedEvent,
    UnknownEvent,
]

#: The events that end a tool run, with the call they belong to (``call_id``).
TOOL_END_EVENTS: tuple[type[Event], ...] = (
    ExecCommandEndEvent,
    PatchApplyEndEvent,
    McpToolCallEndEvent,
    WebSearchEndEvent,
    ViewImageToolCallEvent,
    ImageGenerationEndEvent,
    DynamicToolCallResponseEvent,
    CollabAgentSpawnEndEvent,
    CollabAgentInteractionEndEvent,
    CollabWaitingEndEvent,
    CollabCloseEndEvent,
    CollabResumeEndEvent,
)
