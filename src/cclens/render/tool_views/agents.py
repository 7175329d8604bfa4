"""Views of subagents and agent teams: Agent (Task), Workflow, Skill, SendMessage, TeamCreate,
TeamDelete, and the tools whose input has no declared shape (StructuredOutput, ListAgents, …)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...model.session import ToolCall
from ...model.tools import FreeformInput, agents
from ..views import ViewHelpers
from ._common import (
    Fields,
    as_type,
    base,
    fields_view,
    first_line,
    int_of,
    list_of,
    number_of,
    text_of,
    words,
)

#: A prompt longer than this many lines starts folded.
PROMPT_FOLD_LINES = 12

_AGENT_RESULTS = (
    agents.AgentCompletedResult,
    agents.AgentAsyncLaunchedResult,
    agents.AgentRemoteLaunchedResult,
    agents.LegacyAgentResult,
)


def _tool_stats(stats: agents.ToolStats | None) -> list[tuple[str, int]]:
    if stats is None:
        return []
    pairs = (
        ("read", stats.read_count),
        ("search", stats.search_count),
        ("bash", stats.bash_count),
        ("edit", stats.edit_file_count),
        ("other", stats.other_tool_count),
        ("lines added", stats.lines_added),
        ("lines removed", stats.lines_removed),
    )
    return [(label, number) for label, count in pairs if (number := int_of(count))]


def prepare_agent(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """Agent and Task: the prompt, the subagent's own conversation, what it cost, its answer."""
    v = base(call, *_AGENT_RESULTS)
    request = as_type(call.input, agents.AgentInput)
    result = v["r"]
    asked = Fields(h)
    prompt = description = ""
    if request is not None:
        prompt, description = text_of(request.prompt), text_of(request.description)
        asked.add("Agent type", request.subagent_type, "code").add("Model", request.model, "code")
        asked.add("Effort", request.effort).add("Name", request.name, "code")
        asked.add("Team", request.team_name, "code").add("Mode", request.mode)
        asked.add("Isolation", request.isolation).add("Resumes", request.resume, "code")
    prompt = prompt or text_of(getattr(result, "prompt", None))
    got = Fields(h)
    state = ""
    task_id = answer = ""
    duration: float | None = None
    tokens: int | None = None
    tool_uses: int | None = None
    stats: list[tuple[str, int]] = []
    if isinstance(result, agents.AgentCompletedResult | agents.LegacyAgentResult):
        state = "completed"
        answer = result.text
        duration = number_of(result.total_duration_ms)
        tokens, tool_uses = int_of(result.total_tokens), int_of(result.total_tool_use_count)
        got.add("Agent", result.agent_id, "code")
    if isinstance(result, agents.AgentCompletedResult):
        if request is None or result.agent_type != request.subagent_type:
            got.add("Agent type", result.agent_type, "code")
        got.add("Model", result.resolved_model, "code")
        if list_of(result.models_used) and result.models_used != [result.resolved_model]:
            got.add("Models used", result.models_used)
        got.add("Tools used", result.tools_used)
        got.add("Worktree", result.worktree_path, "code").add(
            "Branch", result.worktree_branch, "code"
        )
        stats = _tool_stats(as_type(result.tool_stats, agents.ToolStats))
    elif isinstance(result, agents.LegacyAgentResult):
        cost = number_of(result.total_cost_usd)
        got.add("Cost", f"${cost:.4f}" if cost is not None else None)
    elif isinstance(result, agents.AgentAsyncLaunchedResult):
        state, task_id = "async", text_of(result.agent_id)
        got.add("Model", result.resolved_model, "code").add(
            "Progress in", result.output_file, "code"
        )
    elif isinstance(result, agents.AgentRemoteLaunchedResult):
        state, task_id = "remote", text_of(result.task_id)
        got.url("Session", result.session_url).add("Progress in", result.output_file, "code")
    elif v["error"] is None:
        answer = call.result_text
    v.update(
        description=description,
        prompt=prompt,
        prompt_folded=prompt.count("\n") >= PROMPT_FOLD_LINES or len(prompt) > 2000,
        asked=asked.rows,
        state=state,
        task_id=task_id,
        duration=duration / 1000 if duration is not None else None,
        tokens=tokens,
        tool_uses=tool_uses,
        stats=stats,
        got=got.rows,
        answer=answer,
        subagents=call.subagents,
        summary=description or first_line(prompt),
    )
    return v


def prepare_workflow(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """Workflow: the script it runs, the run it started and its subagents."""
    v = base(call, agents.WorkflowResult)
    request = as_type(call.input, agents.WorkflowInput)
    result: agents.WorkflowResult | None = v["r"]
    asked = Fields(h)
    script = ""
    title = ""
    if request is not None:
        script = text_of(request.script)
        title = text_of(request.title) or text_of(request.name) or text_of(request.description)
        asked.add("Name", request.name, "code").add("Description", request.description)
        asked.add("Script", request.script_path, "code").add(
            "Resumes run", request.resume_from_run_id
        )
        asked.add("Arguments", request.args)
    got = Fields(h)
    if result is not None:
        got.add("Status", words(result.status)).add("Workflow", result.workflow_name, "code")
        got.add("Run", result.run_id, "code").add("Transcripts in", result.transcript_dir, "code")
        got.add("Script", result.script_path, "code").url("Session", result.session_url)
        got.add("Summary", result.summary)
    v.update(
        title=title,
        script=script,
        script_lines=script.count("\n") + 1 if script else 0,
        asked=asked.rows,
        got=got.rows,
        task_id=text_of(result.task_id) if result else "",
        warning=text_of(result.warning) if result else "",
        run_error=text_of(result.error) if result else "",
        said=call.result_text if result is None and v["error"] is None else "",
        subagents=call.subagents,
        summary=title or (text_of(result.workflow_name) if result else ""),
    )
    return v


def prepare_skill(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """Skill: the skill or slash command run, its arguments and how it went."""
    v = fields_view(call, agents.SkillResult)
    request = as_type(call.input, agents.SkillInput)
    result: agents.SkillResult | None = v["r"]
    skill = text_of(request.skill) if request else ""
    v.update(lead=skill, asked=Fields(h).add("Arguments", request.args if request else None).rows)
    if result is not None:
        got = Fields(h).add("Succeeded", result.success).add("Command", result.command_name, "code")
        got.add("Status", result.status).add("Allowed tools", result.allowed_tools)
        got.add("Model", result.model, "code").add("Agent", result.agent_id, "code")
        v.update(
            got=got.rows, result_body=h.markdown(text_of(result.result)) if result.result else None
        )
    v["summary"] = skill
    return v


def prepare_send_message(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """SendMessage: who the message went to, and the message as markdown."""
    v = fields_view(call, agents.SendMessageResult)
    request = as_type(call.input, agents.SendMessageInput)
    result: agents.SendMessageResult | None = v["r"]
    target = message = headline = ""
    if request is not None:
        target = text_of(request.to) or text_of(request.recipient)
        message = text_of(request.message) or text_of(request.content)
        headline = text_of(request.summary) or first_line(message, 80)
        asked = Fields(h).add("Kind", request.type).add("Summary", request.summary)
        asked.add("Request", request.request_id, "code").add("Approve", request.approve)
        v["asked"] = asked.rows
    if result is not None:
        routing = as_type(result.routing, agents.MessageRouting)
        got = Fields(h).add("Delivered", result.success)
        if routing is not None:
            got.add("From", routing.sender, "code").add("To", routing.target, "code")
        got.add("Request", result.request_id, "code")
        v.update(outcome=text_of(result.message), got=got.rows)
    v.update(
        lead=f"To {target}" if target else "",
        lead_code=False,
        body=h.markdown(message) if message else None,
        summary=f"to {target}: {headline}" if target else headline,
    )
    return v


def prepare_team_create(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """TeamCreate: the team, its lead and where its file lives."""
    v = fields_view(call, agents.TeamCreateResult)
    request = as_type(call.input, agents.TeamCreateInput)
    result: agents.TeamCreateResult | None = v["r"]
    name = text_of(request.team_name) if request else ""
    v.update(
        lead=name,
        asked=Fields(h)
        .add("Description", request.description if request else None)
        .add("Lead type", request.agent_type if request else None, "code")
        .rows,
    )
    if result is not None:
        got = Fields(h)
        if result.team_name != name:
            got.add("Team", result.team_name, "code")
        got.add("Lead", result.lead_agent_id, "code")
        v["got"] = got.add("Team file", result.team_file_path, "code").rows
    v["summary"] = name
    return v


def prepare_team_delete(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """TeamDelete: whether the team could be deleted, and why not."""
    v = fields_view(call, agents.TeamDeleteResult)
    result: agents.TeamDeleteResult | None = v["r"]
    if result is not None:
        got = Fields(h).add("Team", result.team_name, "code").add("Deleted", result.success)
        v.update(outcome=text_of(result.message), got=got.rows)
        v["summary"] = text_of(result.team_name)
        if result.success is False:
            v["badges"] = [("not deleted", "warn")]
    return v


def prepare_arguments(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """A tool whose input has no declared shape: each of its arguments by name."""
    v = fields_view(call)
    request = as_type(call.input, FreeformInput)
    asked = Fields(h)
    for key, value in (request.arguments if request else {}).items():
        asked.add(str(key), value)
    v["asked"] = asked.rows
    if not asked.rows:
        v["lead"], v["lead_code"] = "No arguments.", False
    return v


def prepare_input_fields(call: ToolCall, h: ViewHelpers) -> dict[str, Any]:
    """A tool drawn as its input's fields by name, as written (typed or not), and what it
    answered: the other agents' small tools (``activate_skill``, ``report_intent``...)."""
    v = fields_view(call)
    raw = call.block.input if isinstance(call.block.input, dict) else {}
    asked = Fields(h)
    for key, value in raw.items():
        asked.add(str(key), value)
    v["asked"] = asked.rows
    if not asked.rows:
        v["lead"], v["lead_code"] = "No arguments.", False
    return v


def prepare_structured_output(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """StructuredOutput: the final answer, field by field, in the caller's own schema."""
    v = dict(prepare_arguments(call, h))
    v["lead"], v["lead_code"] = "Final answer, in the requested schema", False
    return v
