"""The ``data`` of progress records.

What a hook, shell command, subagent or MCP call reported while it was running.
"""

from typing import Any, TypeAlias, Union

import msgspec

from ._base import RAW_KEY, UNKNOWN_TAG, UNSET, Int, Model, Number, Opt


class ProgressData(Model, rename="camel"):
    """Base of every progress kind."""


class HookProgress(ProgressData, tag="hook_progress"):
    hook_event: Opt[str] = UNSET
    hook_name: Opt[str] = UNSET
    command: Opt[str] = UNSET
    status_message: Opt[str] = UNSET


class BashProgress(ProgressData, tag="bash_progress"):
    output: Opt[str] = UNSET
    full_output: Opt[str] = UNSET
    elapsed_time_seconds: Opt[Number] = UNSET
    total_lines: Opt[Int] = UNSET
    total_bytes: Opt[Int] = UNSET
    timeout_ms: Opt[Int] = UNSET
    task_id: Opt[str] = UNSET


class PowerShellProgress(BashProgress, tag="powershell_progress"):
    pass


class AgentProgress(ProgressData, tag="agent_progress"):
    """A subagent's message, mirrored into the parent transcript while the subagent runs."""

    message: Any = UNSET
    normalized_messages: Any = UNSET
    prompt: Opt[str] = UNSET
    agent_id: Opt[str] = UNSET
    resume: Opt[str] = UNSET


class McpProgress(ProgressData, tag="mcp_progress"):
    status: Opt[str] = UNSET
    server_name: Opt[str] = UNSET
    tool_name: Opt[str] = UNSET
    elapsed_time_ms: Opt[Number] = UNSET
    progress: Opt[Number] = UNSET
    total: Opt[Number] = UNSET
    progress_message: Opt[str] = UNSET


class QueryUpdate(ProgressData, tag="query_update"):
    query: Opt[str] = UNSET


class SearchResultsReceived(ProgressData, tag="search_results_received"):
    result_count: Opt[Int] = UNSET
    query: Opt[str] = UNSET


class WaitingForTask(ProgressData, tag="waiting_for_task"):
    task_description: Opt[str] = UNSET
    task_type: Opt[str] = UNSET


class SkillProgress(ProgressData, tag="skill_progress"):
    message: Any = UNSET
    skill: Opt[str] = UNSET


class UnknownProgress(ProgressData, tag=UNKNOWN_TAG):
    """A progress kind cclens does not know; ``raw`` is its JSON."""

    raw: Any = msgspec.field(default=None, name=RAW_KEY)


AnyProgress: TypeAlias = Union[  # noqa: UP007
    HookProgress,
    BashProgress,
    PowerShellProgress,
    AgentProgress,
    McpProgress,
    QueryUpdate,
    SearchResultsReceived,
    WaitingForTask,
    SkillProgress,
    UnknownProgress,
]
