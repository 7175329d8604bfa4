"""Typed, lossless model of GitHub Copilot CLI session event logs.

Copilot CLI writes each session to ``~/.copilot/session-state/<session id>/events.jsonl`` (an
older layout: ``session-state/<session id>.jsonl``): one event a line, ``{"type", "data",
"id", "parentId", "timestamp"}`` (``agentId`` on a subagent's events, ``ephemeral`` on events
not meant to be kept). The event kinds and their ``data`` are those of the ``SessionEvent``
union that ``@github/copilot-sdk`` (MIT) generates from the CLI's schema
(``dist/generated/session-events.d.ts``, SDK 1.0.14 for CLI 1.0.102): :data:`EVENT_TYPES`.

An event keeps its ``data`` as written (so it re-encodes to the same JSON); the ``data`` of the
kinds cclens reads is typed by :func:`event_data`. An event of a kind not in
:data:`EVENT_TYPES` is kept whole and reported by ``check``.
"""

from typing import Any

from .._base import UNSET, Int, Model, Opt
from .._convert import Decoded, Lenient


class Event(Model, rename="camel"):
    """One line of ``events.jsonl``."""

    type: Opt[str] = UNSET
    data: Any = UNSET
    id: Opt[str] = UNSET
    parent_id: Opt[str] = UNSET
    timestamp: Opt[str] = UNSET
    ephemeral: Opt[bool] = UNSET
    agent_id: Opt[str] = UNSET

    @property
    def kind(self) -> str:
        return self.type if isinstance(self.type, str) else "(none)"

    @property
    def known(self) -> bool:
        return self.kind in EVENT_TYPES


class NotAnEvent(Model):
    """A line that is JSON but not an object; ``raw`` is its value."""

    raw: Any = None


class WorkingDirectoryContext(Model, rename="camel"):
    cwd: Opt[str] = UNSET
    git_root: Opt[str] = UNSET
    branch: Opt[str] = UNSET
    repository: Opt[str] = UNSET
    head_commit: Opt[str] = UNSET
    base_commit: Opt[str] = UNSET
    host_type: Opt[str] = UNSET
    repository_host: Opt[str] = UNSET
    pending_git_context: Opt[bool] = UNSET


class StartData(Model, rename="camel"):
    """``session.start`` (and, with ``resumeTime``/``eventCount``, ``session.resume``)."""

    session_id: Opt[str] = UNSET
    version: Any = UNSET
    producer: Opt[str] = UNSET
    copilot_version: Opt[str] = UNSET
    start_time: Opt[str] = UNSET
    resume_time: Opt[str] = UNSET
    event_count: Opt[Int] = UNSET
    selected_model: Opt[str] = UNSET
    reasoning_effort: Any = UNSET
    context: Opt[WorkingDirectoryContext] = UNSET


class UserMessageData(Model, rename="camel"):
    content: Opt[str] = UNSET
    transformed_content: Opt[str] = UNSET
    attachments: Any = UNSET
    source: Opt[str] = UNSET
    agent_mode: Opt[str] = UNSET
    interaction_id: Opt[str] = UNSET
    message_id: Opt[str] = UNSET
    turn_id: Opt[str] = UNSET


class ToolRequest(Model, rename="camel"):
    tool_call_id: Opt[str] = UNSET
    name: Opt[str] = UNSET
    arguments: Any = UNSET
    type: Opt[str] = UNSET
    intention_summary: Opt[str] = UNSET
    tool_title: Opt[str] = UNSET
    mcp_server_name: Opt[str] = UNSET
    mcp_tool_name: Opt[str] = UNSET


class AssistantMessageData(Model, rename="camel"):
    message_id: Opt[str] = UNSET
    content: Opt[str] = UNSET
    tool_requests: Opt[list[ToolRequest]] = UNSET
    reasoning_text: Opt[str] = UNSET
    reasoning_opaque: Opt[str] = UNSET
    encrypted_content: Opt[str] = UNSET
    model: Opt[str] = UNSET
    output_tokens: Opt[Int] = UNSET
    parent_tool_call_id: Opt[str] = UNSET
    interaction_id: Opt[str] = UNSET
    turn_id: Opt[str] = UNSET
    request_id: Opt[str] = UNSET


class ReasoningData(Model, rename="camel"):
    reasoning_id: Opt[str] = UNSET
    content: Opt[str] = UNSET


class ToolStartData(Model, rename="camel"):
    tool_call_id: Opt[str] = UNSET
    tool_name: Opt[str] = UNSET
    arguments: Any = UNSET
    mcp_server_name: Opt[str] = UNSET
    mcp_tool_name: Opt[str] = UNSET
    parent_tool_call_id: Opt[str] = UNSET
    model: Opt[str] = UNSET
    turn_id: Opt[str] = UNSET


class ToolResult(Model, rename="camel"):
    content: Opt[str] = UNSET
    detailed_content: Opt[str] = UNSET
    contents: Any = UNSET
    structured_content: Any = UNSET


class ToolError(Model, rename="camel"):
    message: Opt[str] = UNSET
    code: Opt[str] = UNSET


class ToolCompleteData(Model, rename="camel"):
    tool_call_id: Opt[str] = UNSET
    success: Opt[bool] = UNSET
    result: Opt[ToolResult] = UNSET
    error: Opt[ToolError] = UNSET
    model: Opt[str] = UNSET
    parent_tool_call_id: Opt[str] = UNSET
    is_user_requested: Opt[bool] = UNSET
    tool_telemetry: Any = UNSET
    turn_id: Opt[str] = UNSET


class NoticeData(Model, rename="camel"):
    """``session.info``, ``session.warning`` and ``session.error``."""

    message: Opt[str] = UNSET
    info_type: Opt[str] = UNSET
    warning_type: Opt[str] = UNSET
    error_type: Opt[str] = UNSET
    status_code: Opt[Int] = UNSET


class ModelChangeData(Model, rename="camel"):
    new_model: Opt[str] = UNSET
    previous_model: Opt[str] = UNSET
    cause: Opt[str] = UNSET
    source: Opt[str] = UNSET


class CompactionData(Model, rename="camel"):
    """``session.compaction_complete``."""

    success: Opt[bool] = UNSET
    trigger: Opt[str] = UNSET
    pre_compaction_tokens: Opt[Int] = UNSET
    post_compaction_tokens: Opt[Int] = UNSET
    summary_content: Opt[str] = UNSET
    messages_removed: Opt[Int] = UNSET


class ModelMetricUsage(Model, rename="camel"):
    input_tokens: Opt[Int] = UNSET
    output_tokens: Opt[Int] = UNSET
    cache_read_tokens: Opt[Int] = UNSET
    cache_write_tokens: Opt[Int] = UNSET
    reasoning_tokens: Opt[Int] = UNSET


class ModelMetric(Model, rename="camel"):
    requests: Any = UNSET
    usage: Opt[ModelMetricUsage] = UNSET


class ShutdownData(Model, rename="camel"):
    """``session.shutdown``: the run's usage per model (the only token counts Copilot CLI
    keeps: per-response usage is an ephemeral event)."""

    shutdown_type: Opt[str] = UNSET
    model_metrics: Opt[dict[str, ModelMetric]] = UNSET
    current_model: Opt[str] = UNSET
    session_start_time: Any = UNSET
    total_api_duration_ms: Any = UNSET
    code_changes: Any = UNSET


class AssistantUsageData(Model, rename="camel"):
    """``assistant.usage``: one model call's tokens, as the API counted them (``inputTokens``
    is the prompt, cached part included; ``outputTokens`` the completion, reasoning included).
    Copilot CLI emits it as an ephemeral event, not written to the log; read when present."""

    model: Opt[str] = UNSET
    input_tokens: Opt[Int] = UNSET
    output_tokens: Opt[Int] = UNSET
    cache_read_tokens: Opt[Int] = UNSET
    cache_write_tokens: Opt[Int] = UNSET
    reasoning_tokens: Opt[Int] = UNSET
    cost: Any = UNSET
    duration: Any = UNSET
    initiator: Opt[str] = UNSET
    api_call_id: Opt[str] = UNSET
    provider_call_id: Opt[str] = UNSET
    parent_tool_call_id: Opt[str] = UNSET


#: The ``data`` type of each kind cclens reads.
DATA_TYPES: dict[str, type[Model]] = {
    "session.start": StartData,
    "session.resume": StartData,
    "user.message": UserMessageData,
    "assistant.message": AssistantMessageData,
    "assistant.reasoning": ReasoningData,
    "tool.execution_start": ToolStartData,
    "tool.execution_complete": ToolCompleteData,
    "session.info": NoticeData,
    "session.warning": NoticeData,
    "session.error": NoticeData,
    "session.model_change": ModelChangeData,
    "session.compaction_complete": CompactionData,
    "session.shutdown": ShutdownData,
    "assistant.usage": AssistantUsageData,
}

_DECODERS: dict[str, Lenient[Any]] = {
    kind: Lenient(data_type, lambda raw: None) for kind, data_type in DATA_TYPES.items()
}
_EVENT: Lenient[Event | NotAnEvent] = Lenient(Event, lambda raw: NotAnEvent(raw=raw))


def decode_event(data: bytes) -> Decoded[Event | NotAnEvent]:
    """One line of ``events.jsonl``. Raises ``msgspec.DecodeError`` when it is not JSON."""
    return _EVENT.decode(data)


def event_data(event: Event) -> Any:
    """The event's ``data`` typed for the kinds in :data:`DATA_TYPES` (``None`` when it does
    not have their shape), else ``None``."""
    decoder = _DECODERS.get(event.kind)
    if decoder is None or not isinstance(event.data, dict):
        return None
    return decoder.convert(event.data).value


#: Every event kind Copilot CLI 1.0.102 declares (``SessionEvent`` in ``@github/copilot-sdk``).
EVENT_TYPES: frozenset[str] = frozenset(
    {
        "abort",
        "assistant.fusion_phase_activity",
        "assistant.fusion_phase_completed",
        "assistant.fusion_phase_failed",
        "assistant.fusion_phase_started",
        "assistant.idle",
        "assistant.intent",
        "assistant.message",
        "assistant.message_delta",
        "assistant.message_start",
        "assistant.reasoning",
        "assistant.reasoning_delta",
        "assistant.server_tool_progress",
        "assistant.streaming_delta",
        "assistant.tool_call_delta",
        "assistant.turn_end",
        "assistant.turn_start",
        "assistant.usage",
        "auto_mode_switch.completed",
        "auto_mode_switch.requested",
        "capabilities.changed",
        "command.completed",
        "command.execute",
        "command.queued",
        "commands.changed",
        "elicitation.completed",
        "elicitation.requested",
        "exit_plan_mode.completed",
        "exit_plan_mode.requested",
        "external_tool.completed",
        "external_tool.requested",
        "factory.run_settled",
        "factory.run_started",
        "factory.run_updated",
        "hook.end",
        "hook.progress",
        "hook.start",
        "mcp.headers_refresh_completed",
        "mcp.headers_refresh_required",
        "mcp.oauth_completed",
        "mcp.oauth_required",
        "mcp.prompts.list_changed",
        "mcp.resources.list_changed",
        "mcp.tools.list_changed",
        "mcp_app.tool_call_complete",
        "model.call_failure",
        "model.call_finished",
        "pending_messages.modified",
        "permission.assentDetected",
        "permission.carriedForward",
        "permission.completed",
        "permission.contextualAuthorization",
        "permission.messageAuthorization",
        "permission.messageAuthorizationDegraded",
        "permission.messageAuthorizationRead",
        "permission.requested",
        "sampling.completed",
        "sampling.requested",
        "session.auto_mode_resolved",
        "session.auto_tier_recommendation",
        "session.auto_tier_switch_failed",
        "session.autopilot_objective_changed",
        "session.background_tasks_changed",
        "session.binary_asset",
        "session.canvas.closed",
        "session.canvas.opened",
        "session.canvas.recorded",
        "session.canvas.registry_changed",
        "session.canvas.removed",
        "session.canvas.unavailable",
        "session.compaction_complete",
        "session.compaction_start",
        "session.completion_receipt",
        "session.context_changed",
        "session.context_cleared",
        "session.custom_agents_updated",
        "session.custom_notification",
        "session.error",
        "session.extensions.attachments_pushed",
        "session.extensions_loaded",
        "session.fusion_completed",
        "session.fusion_resolved",
        "session.fusion_route_failed",
        "session.fusion_route_started",
        "session.handoff",
        "session.idle",
        "session.info",
        "session.managed_settings_enforced",
        "session.managed_settings_resolved",
        "session.mcp_server_needs_reconnect",
        "session.mcp_server_removed",
        "session.mcp_server_status_changed",
        "session.mcp_servers_loaded",
        "session.mode_changed",
        "session.mode_notice_delivered",
        "session.model_change",
        "session.permissions_changed",
        "session.plan_changed",
        "session.remote_steerable_changed",
        "session.resume",
        "session.schedule_cancelled",
        "session.schedule_created",
        "session.schedule_rearmed",
        "session.session_limits_changed",
        "session.shutdown",
        "session.skills_loaded",
        "session.snapshot_rewind",
        "session.start",
        "session.task_complete",
        "session.title_changed",
        "session.todos_changed",
        "session.tools_updated",
        "session.truncation",
        "session.usage_checkpoint",
        "session.usage_info",
        "session.warning",
        "session.workspace_file_changed",
        "session_limits_exhausted.completed",
        "session_limits_exhausted.requested",
        "skill.invoked",
        "subagent.completed",
        "subagent.configured",
        "subagent.deselected",
        "subagent.failed",
        "subagent.selected",
        "subagent.started",
        "system.message",
        "system.notification",
        "tool.execution_complete",
        "tool.execution_partial_result",
        "tool.execution_progress",
        "tool.execution_start",
        "tool.user_requested",
        "tool_search.activated",
        "ui.ephemeral_query",
        "user.message",
        "user_input.completed",
        "user_input.requested",
    }
)
