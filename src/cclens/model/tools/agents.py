"""Subagents and agent teams: Agent (Task), AgentOutputTool, Workflow, Skill, SendMessage,
TeamCreate, TeamDelete, StructuredOutput, ListAgents and SubagentHandback."""

from typing import Any, TypeAlias, Union

import msgspec

from .._base import UNSET, CamelModel, Int, Model, Number, Opt
from ..blocks import ResultContentBlock, TextBlock
from ..messages import Usage
from ._spec import ToolSpec
from .generic import FreeformInput

# Agent / Task ----------------------------------------------------------------------------------


class AgentInput(Model):
    """Input of ``Agent`` (called ``Task`` up to Claude Code 2.1.4x): a prompt for a subagent."""

    description: Opt[str] = UNSET
    prompt: Opt[str] = UNSET
    subagent_type: Opt[str] = UNSET
    model: Opt[str] = UNSET
    effort: Opt[str] = UNSET
    run_in_background: Opt[bool] = UNSET
    name: Opt[str] = UNSET
    team_name: Opt[str] = UNSET
    mode: Opt[str] = UNSET
    isolation: Opt[str] = UNSET
    resume: Opt[str] = UNSET


class ToolStats(CamelModel):
    """What a subagent did with its tools."""

    read_count: Opt[Int] = UNSET
    search_count: Opt[Int] = UNSET
    bash_count: Opt[Int] = UNSET
    edit_file_count: Opt[Int] = UNSET
    lines_added: Opt[Int] = UNSET
    lines_removed: Opt[Int] = UNSET
    other_tool_count: Opt[Int] = UNSET


def _joined_text(content: Opt[list[ResultContentBlock]]) -> str:
    blocks = content if isinstance(content, list) else []
    return "\n".join(block.text for block in blocks if isinstance(block, TextBlock))


class AgentCompletedResult(CamelModel, tag_field="status", tag="completed"):
    """A subagent that ran to the end: its final answer and what it cost."""

    agent_id: Opt[str] = UNSET
    agent_type: Opt[str] = UNSET
    content: Opt[list[ResultContentBlock]] = UNSET
    resolved_model: Opt[str] = UNSET
    models_used: Opt[list[str]] = UNSET
    total_tool_use_count: Opt[Int] = UNSET
    total_duration_ms: Opt[Number] = UNSET
    total_tokens: Opt[Int] = UNSET
    usage: Opt[Usage] = UNSET
    tools_used: Opt[list[str]] = UNSET
    tool_stats: Opt[ToolStats] = UNSET
    prompt: Opt[str] = UNSET
    worktree_path: Opt[str] = UNSET
    worktree_branch: Opt[str] = UNSET

    @property
    def text(self) -> str:
        """The subagent's final answer."""
        return _joined_text(self.content)


class AgentAsyncLaunchedResult(CamelModel, tag_field="status", tag="async_launched"):
    """A subagent started in the background; its progress goes to ``output_file``."""

    is_async: Opt[bool] = UNSET
    agent_id: Opt[str] = UNSET
    description: Opt[str] = UNSET
    resolved_model: Opt[str] = UNSET
    models_used: Opt[list[str]] = UNSET
    prompt: Opt[str] = UNSET
    output_file: Opt[str] = UNSET
    can_read_output_file: Opt[bool] = UNSET


class AgentRemoteLaunchedResult(CamelModel, tag_field="status", tag="remote_launched"):
    """A subagent started in a cloud session."""

    task_id: Opt[str] = UNSET
    session_url: Opt[str] = UNSET
    description: Opt[str] = UNSET
    prompt: Opt[str] = UNSET
    output_file: Opt[str] = UNSET


class LegacyAgentResult(CamelModel):
    """A ``Task`` result of Claude Code 1.0.x, which records no ``status`` (nor ``agentId``)."""

    content: Opt[list[ResultContentBlock]] = UNSET
    total_duration_ms: Opt[Number] = UNSET
    total_tokens: Opt[Int] = UNSET
    total_tool_use_count: Opt[Int] = UNSET
    usage: Opt[Usage] = UNSET
    agent_id: Opt[str] = UNSET
    prompt: Opt[str] = UNSET
    result: Opt[str] = UNSET
    total_cost_usd: Opt[Number] = msgspec.field(default=UNSET, name="total_cost_usd")
    duration_ms: Opt[Number] = msgspec.field(default=UNSET, name="duration_ms")

    @property
    def text(self) -> str:
        """The subagent's final answer."""
        return _joined_text(self.content) or (self.result if isinstance(self.result, str) else "")


AgentResult: TypeAlias = Union[  # noqa: UP007
    AgentCompletedResult,
    AgentAsyncLaunchedResult,
    AgentRemoteLaunchedResult,
    LegacyAgentResult,
]


class AgentOutputInput(CamelModel):
    """Input of the removed ``AgentOutputTool``: which background agent to read."""

    agent_id: Opt[str] = UNSET
    block: Opt[bool] = UNSET
    wait_up_to: Opt[Number] = msgspec.field(default=UNSET, name="wait_up_to")


class AgentSnapshot(Model):
    """A background agent as ``AgentOutputTool`` reports it."""

    status: Opt[str] = UNSET
    description: Opt[str] = UNSET
    prompt: Opt[str] = UNSET
    output: Opt[str] = UNSET
    result: Opt[str] = UNSET
    error: Opt[str] = UNSET


class AgentOutputResult(Model):
    """Result of the removed ``AgentOutputTool``."""

    retrieval_status: Opt[str] = UNSET
    agents: Opt[dict[str, AgentSnapshot]] = UNSET


# Workflow, Skill -------------------------------------------------------------------------------


class WorkflowInput(CamelModel):
    """Input of ``Workflow``: a script (or a named or saved one) that orchestrates agents."""

    script: Opt[str] = UNSET
    name: Opt[str] = UNSET
    description: Opt[str] = UNSET
    title: Opt[str] = UNSET
    args: Any = UNSET
    script_path: Opt[str] = UNSET
    resume_from_run_id: Opt[str] = UNSET


class WorkflowResult(CamelModel):
    """Result of ``Workflow``: the background task running the workflow."""

    status: Opt[str] = UNSET
    task_id: Opt[str] = UNSET
    task_type: Opt[str] = UNSET
    workflow_name: Opt[str] = UNSET
    run_id: Opt[str] = UNSET
    summary: Opt[str] = UNSET
    transcript_dir: Opt[str] = UNSET
    script_path: Opt[str] = UNSET
    session_url: Opt[str] = UNSET
    warning: Opt[str] = UNSET
    error: Opt[str] = UNSET
    is_async: Opt[bool] = UNSET


class SkillInput(Model):
    """Input of ``Skill``: the skill (or slash command) to run, and its arguments."""

    skill: Opt[str] = UNSET
    args: Opt[str] = UNSET


class SkillResult(CamelModel):
    """Result of ``Skill``; the skill's instructions follow as a separate user message."""

    success: Opt[bool] = UNSET
    command_name: Opt[str] = UNSET
    allowed_tools: Opt[list[str]] = UNSET
    model: Opt[str] = UNSET
    status: Opt[str] = UNSET
    agent_id: Opt[str] = UNSET
    result: Opt[str] = UNSET


# Agent teams -----------------------------------------------------------------------------------


class SendMessageInput(Model):
    """Input of ``SendMessage``: a message to a teammate (``to``) or, earlier, ``recipient``."""

    to: Opt[str] = UNSET
    message: Opt[str] = UNSET
    summary: Opt[str] = UNSET
    type: Opt[str] = UNSET
    recipient: Opt[str] = UNSET
    content: Opt[str] = UNSET
    request_id: Opt[str] = UNSET
    approve: Opt[bool] = UNSET


class MessageRouting(CamelModel):
    """Who sent a team message to whom."""

    sender: Opt[str] = UNSET
    sender_color: Opt[str] = UNSET
    target: Opt[str] = UNSET
    target_color: Opt[str] = UNSET
    summary: Opt[str] = UNSET
    content: Opt[str] = UNSET


class SendMessageResult(Model):
    """Result of ``SendMessage``."""

    success: Opt[bool] = UNSET
    message: Opt[str] = UNSET
    routing: Opt[MessageRouting] = UNSET
    request_id: Opt[str] = UNSET
    target: Opt[str] = UNSET


class TeamCreateInput(Model):
    """Input of ``TeamCreate``."""

    team_name: Opt[str] = UNSET
    description: Opt[str] = UNSET
    agent_type: Opt[str] = UNSET


class TeamCreateResult(Model):
    """Result of ``TeamCreate``."""

    team_name: Opt[str] = UNSET
    team_file_path: Opt[str] = UNSET
    lead_agent_id: Opt[str] = UNSET


class TeamDeleteInput(Model):
    """Input of ``TeamDelete`` (no fields)."""


class TeamDeleteResult(Model):
    """Result of ``TeamDelete``."""

    success: Opt[bool] = UNSET
    message: Opt[str] = UNSET
    team_name: Opt[str] = UNSET


class StructuredOutputInput(FreeformInput):
    """Input of ``StructuredOutput``: the final answer, in the caller's own JSON schema."""


class ListAgentsInput(FreeformInput):
    """Input of ``ListAgents`` (no declared schema)."""


class SubagentHandbackInput(FreeformInput):
    """Input of ``SubagentHandback`` (no declared schema)."""


SPECS: tuple[ToolSpec, ...] = (
    ToolSpec(
        name="Agent",
        aliases=("Task",),
        input_type=AgentInput,
        result_type=AgentResult,
        description="Run a subagent on a task, in the foreground or in the background",
        family="agent",
        spawns_subagent=True,
    ),
    ToolSpec(
        name="AgentOutputTool",
        aliases=(),
        input_type=AgentOutputInput,
        result_type=AgentOutputResult,
        description="Read the output of a background agent",
        family="agent",
        removed=True,
    ),
    ToolSpec(
        name="Workflow",
        aliases=(),
        input_type=WorkflowInput,
        result_type=WorkflowResult,
        description="Run a workflow script that orchestrates several subagents",
        family="agent",
        spawns_subagent=True,
    ),
    ToolSpec(
        name="Skill",
        aliases=(),
        input_type=SkillInput,
        result_type=SkillResult,
        description="Run a skill or custom slash command",
        family="agent",
    ),
    ToolSpec(
        name="SendMessage",
        aliases=(),
        input_type=SendMessageInput,
        result_type=SendMessageResult,
        description="Send a message to another agent of the team",
        family="agent",
    ),
    ToolSpec(
        name="TeamCreate",
        aliases=(),
        input_type=TeamCreateInput,
        result_type=TeamCreateResult,
        description="Create an agent team and its shared task list",
        family="agent",
    ),
    ToolSpec(
        name="TeamDelete",
        aliases=(),
        input_type=TeamDeleteInput,
        result_type=TeamDeleteResult,
        description="Delete the current agent team",
        family="agent",
    ),
    ToolSpec(
        name="StructuredOutput",
        aliases=(),
        input_type=StructuredOutputInput,
        result_type=None,
        description="Return the final answer as JSON in a requested schema",
        family="agent",
    ),
    ToolSpec(
        name="ListAgents",
        aliases=(),
        input_type=ListAgentsInput,
        result_type=None,
        description="List the agents running in this session",
        family="agent",
    ),
    ToolSpec(
        name="SubagentHandback",
        aliases=(),
        input_type=SubagentHandbackInput,
        result_type=None,
        description="Hand control back from a subagent to its parent",
        family="agent",
    ),
)
