"""The ``attachment`` of attachment records: context Claude Code added to a turn.

Hooks' output, files and memories it read in, reminders, listings of skills, agents and deferred
tools, mode changes. Kinds not known yet decode as :class:`UnknownAttachment`.
"""

from typing import Any, TypeAlias, Union

import msgspec

from ._base import RAW_KEY, UNKNOWN_TAG, UNSET, Int, Model, Number, Opt


class Attachment(Model, rename="camel"):
    """Base of every attachment kind."""


class _Hook(Attachment):
    hook_name: Opt[str] = UNSET
    hook_event: Opt[str] = UNSET
    tool_use_id: Opt[str] = msgspec.field(default=UNSET, name="toolUseID")
    command: Opt[str] = UNSET
    content: Any = UNSET
    stdout: Opt[str] = UNSET
    stderr: Opt[str] = UNSET
    exit_code: Opt[Int] = UNSET
    duration_ms: Opt[Int] = UNSET


class HookSuccess(_Hook, tag="hook_success"):
    pass


class HookNonBlockingError(_Hook, tag="hook_non_blocking_error"):
    pass


class HookBlockingError(_Hook, tag="hook_blocking_error"):
    blocking_error: Any = UNSET


class HookAdditionalContext(_Hook, tag="hook_additional_context"):
    pass


class HookCancelled(_Hook, tag="hook_cancelled"):
    pass


class HookErrorDuringExecution(_Hook, tag="hook_error_during_execution"):
    pass


class HookStoppedContinuation(_Hook, tag="hook_stopped_continuation"):
    message: Opt[str] = UNSET


class HookSystemMessage(_Hook, tag="hook_system_message"):
    pass


class HookPermissionDecision(_Hook, tag="hook_permission_decision"):
    decision: Opt[str] = UNSET


class AsyncHookResponse(_Hook, tag="async_hook_response"):
    response: Any = UNSET


class AgentListingDelta(Attachment, tag="agent_listing_delta"):
    is_initial: Opt[bool] = UNSET
    added_types: Opt[list[Any]] = UNSET
    removed_types: Opt[list[Any]] = UNSET
    added_lines: Opt[list[Any]] = UNSET
    show_concurrency_note: Opt[bool] = UNSET


class CommandPermissions(Attachment, tag="command_permissions"):
    allowed_tools: Opt[list[Any]] = UNSET
    model: Opt[str] = UNSET


class DeferredToolsDelta(Attachment, tag="deferred_tools_delta"):
    added_names: Opt[list[Any]] = UNSET
    removed_names: Opt[list[Any]] = UNSET
    readded_names: Opt[list[Any]] = UNSET
    added_lines: Opt[list[Any]] = UNSET
    pending_mcp_servers: Opt[list[Any]] = UNSET
    needs_auth_mcp_servers: Opt[list[Any]] = UNSET


class McpInstructionsDelta(Attachment, tag="mcp_instructions_delta"):
    added_names: Opt[list[Any]] = UNSET
    removed_names: Opt[list[Any]] = UNSET
    added_blocks: Opt[list[Any]] = UNSET


class SkillListing(Attachment, tag="skill_listing"):
    is_initial: Opt[bool] = UNSET
    names: Opt[list[Any]] = UNSET
    skill_count: Opt[Int] = UNSET
    content: Opt[str] = UNSET


class _FileLike(Attachment):
    filename: Opt[str] = UNSET
    display_path: Opt[str] = UNSET
    path: Opt[str] = UNSET
    content: Any = UNSET
    snippet: Opt[str] = UNSET
    truncated: Opt[bool] = UNSET


class EditedTextFile(_FileLike, tag="edited_text_file"):
    pass


class FileAttachment(_FileLike, tag="file"):
    pass


class CompactFileReference(_FileLike, tag="compact_file_reference"):
    pass


class PdfReference(_FileLike, tag="pdf_reference"):
    page_count: Opt[Int] = UNSET
    file_size: Opt[Int] = UNSET


class AlreadyReadFile(_FileLike, tag="already_read_file"):
    pass


class NestedMemory(_FileLike, tag="nested_memory"):
    pass


class Memory(_FileLike, tag="memory"):
    memories: Any = UNSET


class OpenedFileInIde(_FileLike, tag="opened_file_in_ide"):
    pass


class SelectedLinesInIde(_FileLike, tag="selected_lines_in_ide"):
    ide_name: Opt[str] = UNSET
    line_start: Opt[Int] = UNSET
    line_end: Opt[Int] = UNSET


class Directory(_FileLike, tag="directory"):
    pass


class PlanFileReference(_FileLike, tag="plan_file_reference"):
    plan_file_path: Opt[str] = UNSET
    plan_content: Opt[str] = UNSET


class Diagnostics(Attachment, tag="diagnostics"):
    files: Any = UNSET
    is_new: Opt[bool] = UNSET


class McpResource(Attachment, tag="mcp_resource"):
    server: Opt[str] = UNSET
    uri: Opt[str] = UNSET
    name: Opt[str] = UNSET
    content: Any = UNSET


class QueuedCommand(Attachment, tag="queued_command"):
    prompt: Any = UNSET
    command_mode: Opt[str] = UNSET
    timestamp: Opt[str] = UNSET
    is_meta: Opt[bool] = UNSET
    origin: Any = UNSET
    source_uuid: Opt[str] = msgspec.field(default=UNSET, name="source_uuid")
    image_paste_ids: Opt[list[Any]] = UNSET


class _ItemList(Attachment):
    content: Any = UNSET
    item_count: Opt[Int] = UNSET


class TaskReminder(_ItemList, tag="task_reminder"):
    pass


class TodoReminder(_ItemList, tag="todo_reminder"):
    pass


class DateChange(Attachment, tag="date_change"):
    new_date: Opt[str] = UNSET


class ReadTruncationNotice(Attachment, tag="read_truncation_notice"):
    banner: Opt[str] = UNSET
    tool_use_id: Opt[str] = msgspec.field(default=UNSET, name="toolUseID")


class InvokedSkills(Attachment, tag="invoked_skills"):
    skills: Opt[list[Any]] = UNSET


class DynamicSkill(Attachment, tag="dynamic_skill"):
    skill_dir: Opt[str] = UNSET
    skill_names: Opt[list[Any]] = UNSET
    display_path: Opt[str] = UNSET


class AutoMode(Attachment, tag="auto_mode"):
    auto_mode_consent_flow: Opt[bool] = UNSET
    bash_first: Opt[bool] = UNSET
    bypass: Opt[bool] = UNSET
    steer_only: Opt[bool] = UNSET


class PlanMode(Attachment, tag="plan_mode"):
    reminder_type: Opt[str] = UNSET
    is_sub_agent: Opt[bool] = UNSET
    plan_file_path: Opt[str] = UNSET
    plan_exists: Opt[bool] = UNSET


class PlanModeExit(Attachment, tag="plan_mode_exit"):
    plan_file_path: Opt[str] = UNSET
    plan_exists: Opt[bool] = UNSET


class PlanModeReentry(Attachment, tag="plan_mode_reentry"):
    plan_file_path: Opt[str] = UNSET


class TaskStatus(Attachment, tag="task_status"):
    task_id: Opt[str] = UNSET
    task_type: Opt[str] = UNSET
    description: Opt[str] = UNSET
    status: Opt[str] = UNSET
    delta_summary: Opt[str] = UNSET
    output_file_path: Opt[str] = UNSET


class UltraEffortEnter(Attachment, tag="ultra_effort_enter"):
    reminder_type: Opt[str] = UNSET


class UltraEffortExit(Attachment, tag="ultra_effort_exit"):
    pass


class BudgetUsd(Attachment, tag="budget_usd"):
    used: Opt[Number] = UNSET
    total: Opt[Number] = UNSET
    remaining: Opt[Number] = UNSET


class _Reminder(Attachment):
    text: Opt[str] = UNSET
    content: Any = UNSET
    model: Opt[str] = UNSET


class TotalTokensReminder(_Reminder, tag="total_tokens_reminder"):
    pass


class BatchingReminderSent(_Reminder, tag="batching_reminder_sent"):
    pass


class SilentTurnReminder(_Reminder, tag="silent_turn_reminder"):
    pass


class CriticalSystemReminder(_Reminder, tag="critical_system_reminder"):
    pass


class CompactReminder(_Reminder, tag="compact_reminder"):
    pass


class OutputStyle(Attachment, tag="output_style"):
    style: Opt[str] = UNSET


class TokenUsage(Attachment, tag="token_usage"):
    used: Opt[Int] = UNSET
    total: Opt[Int] = UNSET
    remaining: Opt[Int] = UNSET


class TeammateMailbox(Attachment, tag="teammate_mailbox"):
    messages: Any = UNSET


class UnknownAttachment(Attachment, tag=UNKNOWN_TAG):
    """An attachment kind cclens does not know; ``raw`` is its JSON."""

    raw: Any = msgspec.field(default=None, name=RAW_KEY)


AnyAttachment: TypeAlias = Union[  # noqa: UP007
    HookSuccess,
    HookNonBlockingError,
    HookBlockingError,
    HookAdditionalContext,
    HookCancelled,
    HookErrorDuringExecution,
    HookStoppedContinuation,
    HookSystemMessage,
    HookPermissionDecision,
    AsyncHookResponse,
    AgentListingDelta,
    CommandPermissions,
    DeferredToolsDelta,
    McpInstructionsDelta,
    SkillListing,
    EditedTextFile,
    FileAttachment,
    CompactFileReference,
    PdfReference,
    AlreadyReadFile,
    NestedMemory,
    Memory,
    OpenedFileInIde,
    SelectedLinesInIde,
    Directory,
    PlanFileReference,
    Diagnostics,
    McpResource,
    QueuedCommand,
    TaskReminder,
    TodoReminder,
    DateChange,
    ReadTruncationNotice,
    InvokedSkills,
    DynamicSkill,
    AutoMode,
    PlanMode,
    PlanModeExit,
    PlanModeReentry,
    TaskStatus,
    UltraEffortEnter,
    UltraEffortExit,
    BudgetUsd,
    TotalTokensReminder,
    BatchingReminderSent,
    SilentTurnReminder,
    CriticalSystemReminder,
    CompactReminder,
    OutputStyle,
    TokenUsage,
    TeammateMailbox,
    UnknownAttachment,
]
