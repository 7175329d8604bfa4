"""The lines of a Codex rollout file (``~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl``).

Two forms exist:

* since September 2025 (Codex CLI 0.3x), every line is ``{timestamp, type, payload}`` with
  ``type`` one of ``session_meta`` (the thread: id, directory, version, git, where it came
  from), ``response_item`` (:mod:`.items`), ``event_msg`` (:mod:`.events`), ``turn_context``
  (the model and settings of a turn), ``compacted`` (a compaction's summary), and in newer
  versions ``world_state`` and ``inter_agent_communication``;
* in mid-2025 files, a bare header ``{id, timestamp, instructions, git}`` comes first, then the
  response items bare (``{"type": "message", ...}``) and ``{"record_type": "state"}`` markers.

A resumed thread appends to its own file; a forked one (a subagent spawned with the parent's
history) starts with its own ``session_meta`` and then copies the parent's lines, starting with
the parent's ``session_meta``. Anything else decodes as :class:`UnknownLine` with its raw JSON.

Source: ``codex-rs/protocol/src/protocol.rs`` (``RolloutLine``, ``RolloutItem``,
``SessionMeta``, ``TurnContextItem``, ``CompactedItem``) of openai/codex.
"""

from typing import Any, TypeAlias, Union

from .._base import UNKNOWN_TAG, UNSET, Int, Model, Opt
from .events import EventMsg
from .items import KnownItem, ResponseItem, Unknown


class GitInfo(Model):
    commit_hash: Opt[str] = UNSET
    branch: Opt[str] = UNSET
    repository_url: Opt[str] = UNSET


class SessionMeta(Model):
    """A thread's identity: ``id`` (``session_id`` in the newest files), where it ran, which
    Codex wrote it, and ``source``: ``cli``, ``vscode``, ``exec``, ``mcp``, or an object for a
    subagent thread (``{"subagent": {"thread_spawn": {"parent_thread_id": ...}}}`` or
    ``{"subagent": "review"}``)."""

    id: Opt[str] = UNSET
    session_id: Opt[str] = UNSET
    forked_from_id: Opt[str] = UNSET
    parent_thread_id: Opt[str] = UNSET
    timestamp: Opt[str] = UNSET
    cwd: Opt[str] = UNSET
    originator: Opt[str] = UNSET
    cli_version: Opt[str] = UNSET
    instructions: Any = UNSET
    source: Any = UNSET
    thread_source: Any = UNSET
    agent_nickname: Opt[str] = UNSET
    agent_role: Opt[str] = UNSET
    agent_path: Any = UNSET
    model_provider: Opt[str] = UNSET
    model: Opt[str] = UNSET
    base_instructions: Any = UNSET
    dynamic_tools: Any = UNSET
    memory_mode: Any = UNSET
    history_mode: Any = UNSET
    context_window: Any = UNSET
    multi_agent_version: Any = UNSET
    git: Opt[GitInfo] = UNSET

    @property
    def thread_id(self) -> str | None:
        """The thread's id, by either name."""
        for found in (self.session_id, self.id):
            if isinstance(found, str) and found:
                return found
        return None


class TurnContext(Model):
    """The settings of one turn: the model, its reasoning effort, the directory, the policies."""

    turn_id: Opt[str] = UNSET
    cwd: Opt[str] = UNSET
    workspace_roots: Any = UNSET
    current_date: Opt[str] = UNSET
    timezone: Opt[str] = UNSET
    approval_policy: Any = UNSET
    approvals_reviewer: Any = UNSET
    sandbox_policy: Any = UNSET
    file_system_sandbox_policy: Any = UNSET
    permission_profile: Any = UNSET
    active_permission_profile: Any = UNSET
    multi_agent_mode: Any = UNSET
    multi_agent_version: Any = UNSET
    model: Opt[str] = UNSET
    effort: Any = UNSET
    summary: Any = UNSET
    personality: Any = UNSET
    collaboration_mode: Any = UNSET
    realtime_active: Opt[bool] = UNSET
    truncation_policy: Any = UNSET
    user_instructions: Opt[str] = UNSET
    developer_instructions: Opt[str] = UNSET
    base_instructions: Any = UNSET
    final_output_json_schema: Any = UNSET
    comp_hash: Opt[str] = UNSET


class Compacted(Model):
    """A compaction: ``message`` is the summary that replaced the history (``replacement_history``
    the items kept, in newer files)."""

    message: Opt[str] = UNSET
    replacement_history: Any = UNSET
    window_id: Opt[str] = UNSET
    window_number: Opt[Int] = UNSET
    first_window_id: Opt[str] = UNSET
    previous_window_id: Opt[str] = UNSET


class Line(Model, kw_only=True):
    """Base of the wrapped lines: when the line was written (and, in the newest files, its
    place in the thread)."""

    timestamp: Opt[str] = UNSET
    ordinal: Opt[Int] = UNSET

    @property
    def kind(self) -> str:
        return str(self.__struct_config__.tag)


class SessionMetaLine(Line, tag="session_meta"):
    payload: Opt[SessionMeta] = UNSET


class ResponseItemLine(Line, tag="response_item"):
    payload: ResponseItem


class EventMsgLine(Line, tag="event_msg"):
    payload: EventMsg


class TurnContextLine(Line, tag="turn_context"):
    payload: Opt[TurnContext] = UNSET


class CompactedLine(Line, tag="compacted"):
    payload: Opt[Compacted] = UNSET


class WorldStateLine(Line, tag="world_state"):
    """What the model is told of its environment (``AGENTS.md``, skills), newer files."""

    payload: Any = UNSET


class InterAgentCommunicationLine(Line, tag="inter_agent_communication"):
    payload: Any = UNSET


class InterAgentCommunicationMetadataLine(Line, tag="inter_agent_communication_metadata"):
    payload: Any = UNSET


class UnknownLine(Unknown, tag=UNKNOWN_TAG):
    """A line cclens does not know (or the header and state markers of mid-2025 files before
    :func:`cclens.model.codex.decode_line` tells them apart); ``raw`` is its JSON."""


class BareHeader(Model):
    """The first line of a mid-2025 rollout file: the thread's id, when it began, the
    instructions and git state."""

    id: Opt[str] = UNSET
    timestamp: Opt[str] = UNSET
    instructions: Any = UNSET
    git: Opt[GitInfo] = UNSET

    @property
    def kind(self) -> str:
        return "header"


class StateMarker(Model):
    """``{"record_type": "state"}``: a mid-2025 file's marker that the thread's state was saved."""

    record_type: str

    @property
    def kind(self) -> str:
        return f"record_type:{self.record_type}"


#: A line as decoded: a wrapped line, a bare item (mid-2025), or one of the two untagged lines.
AnyLine: TypeAlias = Union[  # noqa: UP007
    SessionMetaLine,
    ResponseItemLine,
    EventMsgLine,
    TurnContextLine,
    CompactedLine,
    WorldStateLine,
    InterAgentCommunicationLine,
    InterAgentCommunicationMetadataLine,
    KnownItem,
    UnknownLine,
]

#: What :func:`cclens.model.codex.decode_line` returns.
CodexLine: TypeAlias = Union[AnyLine, BareHeader, StateMarker]  # noqa: UP007
