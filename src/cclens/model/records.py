"""Top-level transcript records: one JSON object per line of a Claude Code ``.jsonl`` file.

Records whose ``type`` is ``user``, ``assistant``, ``system``, ``progress`` or ``attachment``
carry ``uuid``/``parentUuid`` and form the conversation tree; the others are metadata about the
session (titles, modes, snapshots, queue operations, links). A record of a type not known yet
becomes :class:`UnknownRecord` with its raw JSON.
"""

from typing import Any, TypeAlias, Union

import msgspec

from ._base import RAW_KEY, UNKNOWN_TAG, UNSET, CamelModel, Int, Model, Number, Opt
from ._shape import known_tags
from .attachments import AnyAttachment
from .messages import Message
from .progress import AnyProgress


class Record(CamelModel):
    """Base of every record type."""

    session_id: Opt[str] = UNSET
    timestamp: Opt[str] = UNSET

    @property
    def kind(self) -> str:
        """The record's ``type`` as written."""
        return str(self.__struct_config__.tag)


class ChainRecord(Record):
    """A record that is part of the conversation tree."""

    uuid: Opt[str] = UNSET
    parent_uuid: Opt[str] = UNSET
    logical_parent_uuid: Opt[str] = UNSET
    is_sidechain: Opt[bool] = UNSET
    user_type: Opt[str] = UNSET
    entrypoint: Opt[str] = UNSET
    cwd: Opt[str] = UNSET
    version: Opt[str] = UNSET
    git_branch: Opt[str] = UNSET
    slug: Opt[str] = UNSET
    agent_id: Opt[str] = UNSET
    team_name: Opt[str] = UNSET
    agent_name: Opt[str] = UNSET
    is_meta: Opt[bool] = UNSET
    session_kind: Opt[str] = UNSET
    request_id: Opt[str] = UNSET
    #: A second, snake_case session id that some Claude Code builds also write.
    snake_session_id: Opt[str] = msgspec.field(default=UNSET, name="session_id")


class ThinkingMetadata(Model):
    kind: Opt[str] = UNSET
    level: Opt[str] = UNSET
    disabled: Opt[bool] = UNSET
    triggers: Opt[list[Any]] = UNSET
    max_thinking_tokens: Opt[Int] = msgspec.field(default=UNSET, name="maxThinkingTokens")


class Origin(Model):
    kind: Opt[str] = UNSET


class UserRecord(ChainRecord, tag="user"):
    """A user turn: a prompt, a slash command, or the results of tool calls."""

    message: Opt[Message] = UNSET
    #: Structured result of the tool call answered here; its shape depends on the tool.
    tool_use_result: Any = UNSET
    source_tool_assistant_uuid: Opt[str] = msgspec.field(
        default=UNSET, name="sourceToolAssistantUUID"
    )
    source_tool_use_id: Opt[str] = msgspec.field(default=UNSET, name="sourceToolUseID")
    prompt_id: Opt[str] = UNSET
    permission_mode: Opt[str] = UNSET
    thinking_metadata: Opt[ThinkingMetadata] = UNSET
    todos: Opt[list[Any]] = UNSET
    origin: Opt[Origin] = UNSET
    prompt_source: Opt[str] = UNSET
    image_paste_ids: Opt[list[Any]] = UNSET
    project: Opt[str] = UNSET
    tool_denial_kind: Opt[str] = UNSET
    is_compact_summary: Opt[bool] = UNSET
    is_visible_in_transcript_only: Opt[bool] = UNSET
    interrupted_message_id: Opt[str] = UNSET
    interrupted_by_shutdown: Opt[bool] = UNSET
    tool_ends_turn: Opt[bool] = UNSET
    mcp_meta: Any = UNSET
    classifier_meta_lines: Opt[list[Any]] = UNSET
    turn_companion: Opt[bool] = UNSET


class AssistantRecord(ChainRecord, tag="assistant"):
    """One record of a model response; a streamed response spans several records."""

    message: Opt[Message] = UNSET
    effort: Opt[str] = UNSET
    error: Any = UNSET
    error_details: Any = UNSET
    is_api_error_message: Opt[bool] = UNSET
    api_error_status: Opt[Int] = UNSET
    is_aborted_mid_stream: Opt[bool] = UNSET
    supersedes_uuids: Opt[list[str]] = UNSET
    attribution_plugin: Opt[str] = UNSET
    attribution_skill: Opt[str] = UNSET
    attribution_agent: Opt[str] = UNSET
    attribution_mcp_server: Opt[str] = UNSET
    attribution_mcp_tool: Opt[str] = UNSET


class HookInfo(Model, rename="camel"):
    command: Opt[str] = UNSET
    duration_ms: Opt[Int] = UNSET


class CompactMetadata(Model, rename="camel"):
    trigger: Opt[str] = UNSET
    pre_tokens: Opt[Int] = UNSET
    post_tokens: Opt[Int] = UNSET
    duration_ms: Opt[Int] = UNSET
    pre_compact_discovered_tools: Opt[list[Any]] = UNSET
    user_context: Opt[str] = UNSET
    messages_summarized: Opt[Int] = UNSET


class SystemRecord(ChainRecord, tag="system"):
    """A system event. ``subtype`` tells which; see :data:`SYSTEM_SUBTYPES`."""

    subtype: Opt[str] = UNSET
    content: Any = UNSET
    level: Opt[str] = UNSET
    tool_use_id: Opt[str] = msgspec.field(default=UNSET, name="toolUseID")
    # stop_hook_summary
    hook_count: Opt[Int] = UNSET
    hook_infos: Opt[list[HookInfo]] = UNSET
    hook_errors: Opt[list[Any]] = UNSET
    hook_additional_context: Opt[list[Any]] = UNSET
    prevented_continuation: Opt[bool] = UNSET
    stop_reason: Opt[str] = UNSET
    has_output: Opt[bool] = UNSET
    # api_error, error
    error: Any = UNSET
    cause: Any = UNSET
    max_retries: Opt[Int] = UNSET
    retry_attempt: Opt[Int] = UNSET
    retry_in_ms: Opt[Number] = UNSET
    # turn_duration, session_start
    duration_ms: Opt[Number] = UNSET
    message_count: Opt[Int] = UNSET
    pending_background_agent_count: Opt[Int] = UNSET
    # compact_boundary, microcompact_boundary
    compact_metadata: Opt[CompactMetadata] = UNSET
    microcompact_metadata: Any = UNSET
    # api_refusal, model_refusal_fallback
    api_refusal_category: Opt[str] = UNSET
    api_refusal_explanation: Opt[str] = UNSET
    refused_user_message_uuid: Opt[str] = UNSET
    retracted_message_uuids: Opt[list[str]] = UNSET
    source: Opt[str] = UNSET
    direction: Opt[str] = UNSET
    trigger: Opt[str] = UNSET
    original_model: Opt[str] = UNSET
    fallback_model: Opt[str] = UNSET
    scope: Opt[str] = UNSET
    # local_command, informational
    tag: Opt[str] = UNSET
    prevent_continuation: Opt[bool] = UNSET


#: System subtypes Claude Code writes (``None`` for old untyped system messages).
SYSTEM_SUBTYPES: frozenset[str] = frozenset(
    {
        "compact_boundary",
        "microcompact_boundary",
        "api_error",
        "api_refusal",
        "error",
        "turn_duration",
        "stop_hook_summary",
        "local_command",
        "away_summary",
        "informational",
        "session_start",
        "model_refusal_fallback",
        "model_refusal_no_fallback",
        "scheduled_task_fire",
        "bridge_status",
        "permission_retry",
        "memory_saved",
    }
)


class ProgressRecord(ChainRecord, tag="progress"):
    """Progress of a running hook, shell command, subagent or MCP tool call."""

    data: Opt[AnyProgress] = UNSET
    tool_use_id: Opt[str] = msgspec.field(default=UNSET, name="toolUseID")
    parent_tool_use_id: Opt[str] = msgspec.field(default=UNSET, name="parentToolUseID")


class AttachmentRecord(ChainRecord, tag="attachment"):
    """Context Claude Code attached to the conversation (hook output, files, reminders)."""

    attachment: Opt[AnyAttachment] = UNSET


class SummaryRecord(Record, tag="summary"):
    """A title Claude Code generated for the conversation ending at ``leafUuid``."""

    summary: Opt[str] = UNSET
    leaf_uuid: Opt[str] = UNSET


class TrackedFileBackup(Model, rename="camel"):
    backup_file_name: Opt[str] = UNSET
    version: Opt[Int] = UNSET
    backup_time: Opt[str] = UNSET


class Snapshot(Model, rename="camel"):
    message_id: Opt[str] = UNSET
    tracked_file_backups: Opt[dict[str, TrackedFileBackup]] = UNSET
    timestamp: Opt[str] = UNSET


class FileHistorySnapshotRecord(Record, tag="file-history-snapshot"):
    """The files Claude Code backed up before a message changed them (for rewinds)."""

    message_id: Opt[str] = UNSET
    snapshot: Opt[Snapshot] = UNSET
    is_snapshot_update: Opt[bool] = UNSET


class QueueOperationRecord(Record, tag="queue-operation"):
    """A prompt typed while Claude was busy was queued (``enqueue``) or taken (``dequeue``)."""

    operation: Opt[str] = UNSET
    content: Any = UNSET


class LastPromptRecord(Record, tag="last-prompt"):
    last_prompt: Opt[str] = UNSET
    leaf_uuid: Opt[str] = UNSET


class AiTitleRecord(Record, tag="ai-title"):
    ai_title: Opt[str] = UNSET


class CustomTitleRecord(Record, tag="custom-title"):
    """A title the user gave the session (``/rename``)."""

    custom_title: Opt[str] = UNSET


class TagRecord(Record, tag="tag"):
    """A tag the user set on the session (an empty tag clears it)."""

    tag: Opt[str] = UNSET


class PermissionModeRecord(Record, tag="permission-mode"):
    permission_mode: Opt[str] = UNSET


class ModeRecord(Record, tag="mode"):
    mode: Opt[str] = UNSET


class AgentNameRecord(Record, tag="agent-name"):
    agent_name: Opt[str] = UNSET


class PrLinkRecord(Record, tag="pr-link"):
    pr_number: Opt[Int] = UNSET
    pr_url: Opt[str] = UNSET
    pr_repository: Opt[str] = UNSET


class FrameLinkRecord(Record, tag="frame-link"):
    path: Opt[str] = UNSET
    frame_url: Opt[str] = UNSET
    title: Opt[str] = UNSET


class WorktreeSession(Model, rename="camel"):
    original_cwd: Opt[str] = UNSET
    pre_enter_original_cwd: Opt[str] = UNSET
    worktree_path: Opt[str] = UNSET
    worktree_name: Opt[str] = UNSET
    worktree_branch: Opt[str] = UNSET
    original_branch: Opt[str] = UNSET
    original_head_commit: Opt[str] = UNSET
    session_id: Opt[str] = UNSET
    tmux_session_name: Opt[str] = UNSET
    hook_based: Opt[bool] = UNSET


class WorktreeStateRecord(Record, tag="worktree-state"):
    worktree_session: Opt[WorktreeSession] = UNSET


class RelocatedRecord(Record, tag="relocated"):
    """The session moved to another working directory (for example into a worktree)."""

    relocated_cwd: Opt[str] = UNSET


class BridgeSessionRecord(Record, tag="bridge-session"):
    """The session was bridged to a remote (claude.ai) session."""

    bridge_session_id: Opt[str] = UNSET
    last_sequence_num: Opt[Int] = UNSET
    owner_account_uuid: Opt[str] = UNSET
    owner_organization_uuid: Opt[str] = UNSET


class AtisLatchRecord(Record, tag="atis-latch"):
    atis: Any = UNSET


class WorkflowStartedRecord(Record, tag="started"):
    """A workflow journal entry: an agent of a workflow run started (``journal.jsonl``)."""

    key: Opt[str] = UNSET
    agent_id: Opt[str] = UNSET


class WorkflowResultRecord(Record, tag="result"):
    """A workflow journal entry: an agent of a workflow run returned ``result``."""

    key: Opt[str] = UNSET
    agent_id: Opt[str] = UNSET
    result: Any = UNSET


class UnknownRecord(Model, tag=UNKNOWN_TAG):
    """A record of a type cclens does not know (or with no ``type``); ``raw`` is its JSON."""

    raw: Any = msgspec.field(default=None, name=RAW_KEY)

    @property
    def kind(self) -> str:
        """The record's own ``type`` value, or ``"(none)"``."""
        if isinstance(self.raw, dict):
            kind = self.raw.get("type")
            return str(kind) if kind is not None else "(none)"
        return "(not an object)"


AnyRecord: TypeAlias = Union[  # noqa: UP007
    UserRecord,
    AssistantRecord,
    SystemRecord,
    ProgressRecord,
    AttachmentRecord,
    SummaryRecord,
    FileHistorySnapshotRecord,
    QueueOperationRecord,
    LastPromptRecord,
    AiTitleRecord,
    CustomTitleRecord,
    TagRecord,
    PermissionModeRecord,
    ModeRecord,
    AgentNameRecord,
    PrLinkRecord,
    FrameLinkRecord,
    WorktreeStateRecord,
    RelocatedRecord,
    BridgeSessionRecord,
    AtisLatchRecord,
    WorkflowStartedRecord,
    WorkflowResultRecord,
    UnknownRecord,
]

#: The records that carry ``uuid``/``parentUuid`` and form the conversation tree.
CHAIN_TYPES: tuple[type[ChainRecord], ...] = (
    UserRecord,
    AssistantRecord,
    SystemRecord,
    ProgressRecord,
    AttachmentRecord,
)

#: The ``type`` value of every record kind the model knows.
RECORD_TYPES: frozenset[str] = known_tags(AnyRecord)


def record_kind(record: AnyRecord) -> str:
    """The ``type`` of a record as written (an unknown record reports its own)."""
    return record.kind
