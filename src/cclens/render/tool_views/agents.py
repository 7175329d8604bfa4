"""Views of subagents and agent teams: Agent (Task), Workflow, Skill, SendMessage, TeamCreate,
TeamDelete, and the tools whose input has no declared shape (StructuredOutput, ListAgents, …)."""

from __future__ import annotations

from collections.abc import Sequence

from msgspec.structs import replace

from ...formats import compact, duration, plural
from ...model.session import Session, ToolCall
from ...model.tools import FreeformInput, agents
from ..prepared import Field, PreparedView, Prose, TextPart, field_parts, text_part
from ..views import ViewHelpers
from ._common import (
    Fields,
    FieldsView,
    as_type,
    base,
    fields_base,
    first_line,
    int_of,
    list_of,
    number_of,
    said,
    text_of,
    typed_fields,
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


class AgentView(PreparedView, frozen=True, kw_only=True):
    """A subagent's call (``tools/agent.html``): its ``prompt`` (``prompt_folded`` when
    long), its ``state`` (``completed``, ``async``, ``remote``) and ``task_id``, what it
    took (``duration`` in seconds, ``tokens``, ``tool_uses``, ``stats``), its own
    conversations (``subagents``, drawn under the call) and its ``answer`` (markdown)."""

    description: str = ""
    prompt: str = ""
    prompt_folded: bool = False
    asked: Sequence[Field] = ()
    state: str = ""
    task_id: str = ""
    duration: float | None = None
    tokens: int | None = None
    tool_uses: int | None = None
    stats: Sequence[tuple[str, int]] = ()
    got: Sequence[Field] = ()
    answer: str = ""
    subagents: Sequence[Session] = ()

    def parts(self) -> list[TextPart]:
        parts = [*field_parts(self.asked), *text_part("markdown", self.prompt, "Prompt")]
        if self.state in ("async", "remote"):
            where = "in the background" if self.state == "async" else "in a remote session"
            task = f" as task {self.task_id}" if self.task_id else ""
            parts.append(TextPart("note", f"Launched {where}{task}."))
        took = [
            duration(self.duration) if self.duration is not None else "",
            f"{compact(self.tokens)} tokens" if self.tokens is not None else "",
            plural(self.tool_uses, "tool call") if self.tool_uses is not None else "",
            *(f"{count} {label}" for label, count in self.stats),
        ]
        parts += text_part("note", " · ".join(part for part in took if part))
        if self.r is not None or self.answer:
            parts += text_part("markdown", self.answer, "Answer", result=True)
            parts += field_parts(self.got, result=True)
        return parts


def prepare_agent(call: ToolCall, h: ViewHelpers) -> AgentView:
    """Agent and Task: the prompt, the subagent's own conversation, what it cost, its answer."""
    v = base(call, *_AGENT_RESULTS)
    request = as_type(call.input, agents.AgentInput)
    result = v["r"]
    asked = Fields()
    prompt = description = ""
    if request is not None:
        prompt, description = text_of(request.prompt), text_of(request.description)
        asked.add("Agent type", request.subagent_type, "code").add("Model", request.model, "code")
        asked.add("Effort", request.effort).add("Name", request.name, "code")
        asked.add("Team", request.team_name, "code").add("Mode", request.mode)
        asked.add("Isolation", request.isolation).add("Resumes", request.resume, "code")
    prompt = prompt or text_of(getattr(result, "prompt", None))
    got = Fields()
    state = ""
    task_id = answer = ""
    took: float | None = None
    tokens: int | None = None
    tool_uses: int | None = None
    stats: list[tuple[str, int]] = []
    if isinstance(result, agents.AgentCompletedResult | agents.LegacyAgentResult):
        state = "completed"
        answer = result.text
        took = number_of(result.total_duration_ms)
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
    return AgentView(
        **v,
        description=description,
        prompt=prompt,
        prompt_folded=prompt_folded(prompt),
        asked=asked.rows,
        state=state,
        task_id=task_id,
        duration=took / 1000 if took is not None else None,
        tokens=tokens,
        tool_uses=tool_uses,
        stats=stats,
        got=got.rows,
        answer=answer,
        subagents=call.subagents,
        summary=description or first_line(prompt),
    )


def prompt_folded(prompt: str) -> bool:
    """Whether a subagent's prompt is long enough to start folded."""
    return prompt.count("\n") >= PROMPT_FOLD_LINES or len(prompt) > 2000


class WorkflowView(PreparedView, frozen=True, kw_only=True):
    """A workflow run (``tools/workflow.html``): its ``title`` and ``script``, the run it
    started (``task_id``, ``got``), its ``warning`` and ``run_error``, its ``subagents``."""

    title: str = ""
    script: str = ""
    script_lines: int = 0
    asked: Sequence[Field] = ()
    got: Sequence[Field] = ()
    task_id: str = ""
    warning: str = ""
    run_error: str = ""
    said: str = ""
    subagents: Sequence[Session] = ()

    def parts(self) -> list[TextPart]:
        parts = [*text_part("note", self.title)]
        parts += text_part("command", self.script, language="javascript")
        parts += field_parts(self.asked)
        if self.r is not None or self.said:
            task = f"Running as background task {self.task_id}" if self.task_id else ""
            parts += text_part("note", task, result=True)
            parts += field_parts(self.got, result=True)
            parts += text_part("stderr", self.warning, result=True)
            parts += text_part("error", self.run_error, result=True)
            parts += text_part("result", self.said, result=True)
        return parts


def prepare_workflow(call: ToolCall, h: ViewHelpers) -> WorkflowView:
    """Workflow: the script it runs, the run it started and its subagents."""
    v = base(call, agents.WorkflowResult)
    request = as_type(call.input, agents.WorkflowInput)
    result: agents.WorkflowResult | None = v["r"]
    asked = Fields()
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
    got = Fields()
    if result is not None:
        got.add("Status", words(result.status)).add("Workflow", result.workflow_name, "code")
        got.add("Run", result.run_id, "code").add("Transcripts in", result.transcript_dir, "code")
        got.add("Script", result.script_path, "code").url("Session", result.session_url)
        got.add("Summary", result.summary)
    return WorkflowView(
        **v,
        title=title,
        script=script,
        script_lines=script.count("\n") + 1 if script else 0,
        asked=asked.rows,
        got=got.rows,
        task_id=text_of(result.task_id) if result else "",
        warning=text_of(result.warning) if result else "",
        run_error=text_of(result.error) if result else "",
        said=said(call, v),
        subagents=call.subagents,
        summary=title or (text_of(result.workflow_name) if result else ""),
    )


def prepare_skill(call: ToolCall, h: ViewHelpers) -> FieldsView:
    """Skill: the skill or slash command run, its arguments and how it went."""
    v, request, result = typed_fields(call, agents.SkillInput, agents.SkillResult)
    skill = text_of(request.skill) if request else ""
    got = Fields()
    if result is not None:
        got.add("Succeeded", result.success).add("Command", result.command_name, "code")
        got.add("Status", result.status).add("Allowed tools", result.allowed_tools)
        got.add("Model", result.model, "code").add("Agent", result.agent_id, "code")
    return FieldsView(
        **v,
        lead=skill,
        asked=Fields().add("Arguments", request.args if request else None).rows,
        got=got.rows,
        result_body=Prose(text_of(result.result)) if result and result.result else None,
        summary=skill,
    )


def prepare_send_message(call: ToolCall, h: ViewHelpers) -> FieldsView:
    """SendMessage: who the message went to, and the message as markdown."""
    v, request, result = typed_fields(call, agents.SendMessageInput, agents.SendMessageResult)
    target = message = headline = ""
    asked = Fields()
    if request is not None:
        target = text_of(request.to) or text_of(request.recipient)
        message = text_of(request.message) or text_of(request.content)
        headline = text_of(request.summary) or first_line(message, 80)
        asked.add("Kind", request.type).add("Summary", request.summary)
        asked.add("Request", request.request_id, "code").add("Approve", request.approve)
    got = Fields()
    if result is not None:
        routing = as_type(result.routing, agents.MessageRouting)
        got.add("Delivered", result.success)
        if routing is not None:
            got.add("From", routing.sender, "code").add("To", routing.target, "code")
        got.add("Request", result.request_id, "code")
    return FieldsView(
        **v,
        lead=f"To {target}" if target else "",
        lead_code=False,
        asked=asked.rows,
        body=Prose(message) if message else None,
        outcome=text_of(result.message) if result else "",
        got=got.rows,
        summary=f"to {target}: {headline}" if target else headline,
    )


def prepare_team_create(call: ToolCall, h: ViewHelpers) -> FieldsView:
    """TeamCreate: the team, its lead and where its file lives."""
    v, request, result = typed_fields(call, agents.TeamCreateInput, agents.TeamCreateResult)
    name = text_of(request.team_name) if request else ""
    got = Fields()
    if result is not None:
        if result.team_name != name:
            got.add("Team", result.team_name, "code")
        got.add("Lead", result.lead_agent_id, "code")
        got.add("Team file", result.team_file_path, "code")
    return FieldsView(
        **v,
        lead=name,
        asked=Fields()
        .add("Description", request.description if request else None)
        .add("Lead type", request.agent_type if request else None, "code")
        .rows,
        got=got.rows,
        summary=name,
    )


def prepare_team_delete(call: ToolCall, h: ViewHelpers) -> FieldsView:
    """TeamDelete: whether the team could be deleted, and why not."""
    v = fields_base(call, agents.TeamDeleteResult)
    result: agents.TeamDeleteResult | None = v["r"]
    if result is None:
        return FieldsView(**v)
    return FieldsView(
        **v,
        outcome=text_of(result.message),
        got=Fields().add("Team", result.team_name, "code").add("Deleted", result.success).rows,
        summary=text_of(result.team_name),
        badges=[("not deleted", "warn")] if result.success is False else [],
    )


def _arguments_view(call: ToolCall, arguments: object) -> FieldsView:
    asked = Fields()
    for key, value in (arguments if isinstance(arguments, dict) else {}).items():
        asked.add(str(key), value)
    if asked.rows:
        return FieldsView(**fields_base(call), asked=asked.rows)
    return FieldsView(**fields_base(call), lead="No arguments.", lead_code=False)


def prepare_arguments(call: ToolCall, h: ViewHelpers) -> FieldsView:
    """A tool whose input has no declared shape: each of its arguments by name."""
    request = as_type(call.input, FreeformInput)
    return _arguments_view(call, request.arguments if request else {})


def prepare_input_fields(call: ToolCall, h: ViewHelpers) -> FieldsView:
    """A tool drawn as its input's fields by name, as written (typed or not), and what it
    answered: the other agents' small tools (``activate_skill``, ``report_intent``...)."""
    return _arguments_view(call, call.block.input)


def prepare_structured_output(call: ToolCall, h: ViewHelpers) -> FieldsView:
    """StructuredOutput: the final answer, field by field, in the caller's own schema."""
    v = prepare_arguments(call, h)
    return replace(v, lead="Final answer, in the requested schema", lead_code=False)
