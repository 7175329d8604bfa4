"""What each built-in tool's folded row says (see :mod:`cclens.render.summary`): one
``summarize_*`` per view, from the call's typed input only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from ...model import UNSET
from ...model.session import ToolCall
from ...model.tools import agents, files, interaction, mcp, misc, plans, search, shell, tasks, web
from ..summary import ToolSummary, one_line

__all__ = ["SUMMARIES", "Summarize"]

T = TypeVar("T")
Summarize = Callable[[ToolCall], ToolSummary]


def _typed(call: ToolCall, type_: type[T]) -> T | None:
    value = call.input
    return value if isinstance(value, type_) else None


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _number(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _where(path: str) -> str:
    return f"in {path}" if path else ""


def summarize_bash(call: ToolCall) -> ToolSummary:
    """Bash, PowerShell: the command's first line, its description beside it."""
    command = _typed(call, shell.BashInput)
    if command is None:
        return ToolSummary()
    return ToolSummary.of(command.command, _text(command.description))


def summarize_task_id(call: ToolCall) -> ToolSummary:
    """BashOutput, TaskOutput, AgentOutputTool, TaskStop, KillShell: the task it acts on."""
    value = call.input
    if isinstance(value, shell.BashOutputInput):
        return ToolSummary.of(_text(value.bash_id))
    if isinstance(value, shell.TaskOutputInput):
        return ToolSummary.of(_text(value.task_id))
    if isinstance(value, shell.KillShellInput):
        return ToolSummary.of(_text(value.shell_id))
    if isinstance(value, shell.TaskStopInput):
        return ToolSummary.of(_text(value.task_id) or _text(value.shell_id))
    if isinstance(value, agents.AgentOutputInput):
        return ToolSummary.of(_text(value.agent_id))
    return ToolSummary()


def summarize_monitor(call: ToolCall) -> ToolSummary:
    """Monitor: the command it watches."""
    found = _typed(call, shell.MonitorInput)
    if found is None:
        return ToolSummary()
    return ToolSummary.of(_text(found.command), _text(found.description))


def summarize_repl(call: ToolCall) -> ToolSummary:
    """REPL: the code's first line."""
    found = _typed(call, shell.ReplInput)
    if found is None:
        return ToolSummary()
    return ToolSummary.of(_text(found.code), _text(found.description))


def _lines(offset: int | None, limit: int | None) -> str:
    if offset is None and limit is None:
        return ""
    start = offset or 1
    if limit is None:
        return f"from line {start}"
    return f"lines {start}–{start + limit - 1}"


def summarize_read(call: ToolCall) -> ToolSummary:
    """Read: the file, and the lines or pages asked for."""
    found = _typed(call, files.ReadInput)
    if found is None:
        return ToolSummary()
    pages = _text(found.pages)
    note = f"pages {pages}" if pages else _lines(_number(found.offset), _number(found.limit))
    return ToolSummary.of(found.file_path, note)


def summarize_write(call: ToolCall) -> ToolSummary:
    """Write: the file, and how many lines it got."""
    found = _typed(call, files.WriteInput)
    if found is None:
        return ToolSummary()
    content = _text(found.content)
    lines = content.rstrip("\n").count("\n") + 1 if content else 0
    return ToolSummary.of(found.file_path, _plural(lines, "line") if content else "")


def summarize_edit(call: ToolCall) -> ToolSummary:
    """Edit: the file (and whether every occurrence was replaced)."""
    found = _typed(call, files.EditInput)
    if found is None:
        return ToolSummary()
    return ToolSummary.of(found.file_path, "every occurrence" if found.replace_all is True else "")


def summarize_multi_edit(call: ToolCall) -> ToolSummary:
    """MultiEdit: the file and how many edits."""
    found = _typed(call, files.MultiEditInput)
    if found is None:
        return ToolSummary()
    edits = found.edits if isinstance(found.edits, list) else []
    return ToolSummary.of(found.file_path, _plural(len(edits), "edit") if edits else "")


def summarize_notebook_edit(call: ToolCall) -> ToolSummary:
    """NotebookEdit: the notebook and the cell."""
    found = _typed(call, files.NotebookEditInput)
    if found is None:
        return ToolSummary()
    cell = _text(found.cell_id) or (
        str(found.cell_number) if _number(found.cell_number) is not None else ""
    )
    mode = _text(found.edit_mode)
    note = " ".join(part for part in (mode, f"cell {cell}" if cell else "") if part)
    return ToolSummary.of(found.notebook_path, note)


def summarize_ls(call: ToolCall) -> ToolSummary:
    """LS: the folder."""
    found = _typed(call, files.LsInput)
    return ToolSummary.of(_text(found.path) if found else "")


def summarize_glob(call: ToolCall) -> ToolSummary:
    """Glob: the pattern, and where it looked."""
    found = _typed(call, search.GlobInput)
    if found is None:
        return ToolSummary()
    return ToolSummary.of(found.pattern, _where(_text(found.path)))


def summarize_grep(call: ToolCall) -> ToolSummary:
    """Grep: the pattern, where it looked and which files."""
    found = _typed(call, search.GrepInput)
    if found is None:
        return ToolSummary()
    path = _text(found.path) or _text(found.file_path)
    only = _text(found.glob) or _text(found.include)
    kind = _text(found.type)
    note = " · ".join(part for part in (_where(path), only, f"type {kind}" if kind else "") if part)
    return ToolSummary.of(found.pattern, note)


def summarize_lsp(call: ToolCall) -> ToolSummary:
    """LSP: the file and what was asked of the language server."""
    found = _typed(call, search.LspInput)
    if found is None:
        return ToolSummary()
    return ToolSummary.of(_text(found.file_path), _text(found.operation))


def summarize_tool_search(call: ToolCall) -> ToolSummary:
    """ToolSearch: the query."""
    found = _typed(call, search.ToolSearchInput)
    return ToolSummary.of(_text(found.query) if found else "")


def summarize_web_fetch(call: ToolCall) -> ToolSummary:
    """WebFetch: the URL, and what was asked of the page."""
    found = _typed(call, web.WebFetchInput)
    if found is None:
        return ToolSummary()
    return ToolSummary.of(found.url, _text(found.prompt))


def summarize_web_search(call: ToolCall) -> ToolSummary:
    """WebSearch: the query, and the sites it was held to."""
    found = _typed(call, web.WebSearchInput)
    if found is None:
        return ToolSummary()
    domains = found.allowed_domains if isinstance(found.allowed_domains, list) else []
    return ToolSummary.of(found.query, ("on " + ", ".join(domains)) if domains else "")


def summarize_agent(call: ToolCall) -> ToolSummary:
    """Agent (Task): the subagent's type, and its task's description."""
    found = _typed(call, agents.AgentInput)
    if found is None:
        return ToolSummary()
    task = _text(found.description) or _text(found.prompt)
    return ToolSummary.of(_text(found.subagent_type) or _text(found.name), task)


def summarize_skill(call: ToolCall) -> ToolSummary:
    """Skill: the skill, and its arguments."""
    found = _typed(call, agents.SkillInput)
    if found is None:
        return ToolSummary()
    return ToolSummary.of(_text(found.skill), _text(found.args))


def summarize_send_message(call: ToolCall) -> ToolSummary:
    """SendMessage: to whom, and the message."""
    found = _typed(call, agents.SendMessageInput)
    if found is None:
        return ToolSummary()
    to = _text(found.to) or _text(found.recipient)
    return ToolSummary.of(to, _text(found.summary) or _text(found.message) or _text(found.content))


def summarize_workflow(call: ToolCall) -> ToolSummary:
    """Workflow: its name or description."""
    found = _typed(call, agents.WorkflowInput)
    if found is None:
        return ToolSummary()
    name = _text(found.name) or _text(found.script_path)
    return ToolSummary.of(name, _text(found.title) or _text(found.description))


def summarize_todo(call: ToolCall) -> ToolSummary:
    """TodoWrite: how many items, how many done, and the one in progress."""
    found = _typed(call, tasks.TodoWriteInput)
    items = found.todos if found is not None and isinstance(found.todos, list) else []
    if not items:
        return ToolSummary()
    done = sum(1 for item in items if getattr(item, "status", None) == "completed")
    doing = next(
        (_text(item.content) for item in items if getattr(item, "status", None) == "in_progress"),
        "",
    )
    counted = f"{_plural(len(items), 'item')}, {done} done"
    return ToolSummary.of(note=f"{counted}: {doing}" if doing else counted)


def summarize_task_create(call: ToolCall) -> ToolSummary:
    """TaskCreate: the task's subject."""
    found = _typed(call, tasks.TaskCreateInput)
    return ToolSummary.of(note=_text(found.subject) if found else "")


def summarize_task_update(call: ToolCall) -> ToolSummary:
    """TaskUpdate: the task, and its new status or subject."""
    found = _typed(call, tasks.TaskUpdateInput)
    if found is None:
        return ToolSummary()
    note = " · ".join(p for p in (_text(found.status), _text(found.subject)) if p)
    return ToolSummary.of(_text(found.task_id), note)


def summarize_task_get(call: ToolCall) -> ToolSummary:
    """TaskGet: the task."""
    found = _typed(call, tasks.TaskGetInput)
    return ToolSummary.of(_text(found.task_id) if found else "")


def summarize_exit_plan_mode(call: ToolCall) -> ToolSummary:
    """ExitPlanMode: the plan's first line."""
    found = _typed(call, plans.ExitPlanModeInput)
    plan = _text(found.plan) if found else ""
    return ToolSummary.of(note=plan.strip().splitlines()[0] if plan.strip() else "")


def summarize_ask_user_question(call: ToolCall) -> ToolSummary:
    """AskUserQuestion: the first question (and how many there were)."""
    found = _typed(call, interaction.AskUserQuestionInput)
    questions = found.questions if found is not None else None
    if not isinstance(questions, list) or not questions:
        return ToolSummary.of(note=_text(found.question) if found else "")
    first = _text(questions[0].question)
    more = f" (+{len(questions) - 1} more)" if len(questions) > 1 else ""
    return ToolSummary.of(note=first + more)


def summarize_mcp(call: ToolCall) -> ToolSummary:
    """An MCP tool (server and tool are the row's name): its first argument, by key."""
    found = _typed(call, mcp.McpInput)
    if found is None:
        return ToolSummary()
    for key, value in found.arguments.items():
        if value is None or value is UNSET or value == "" or value == [] or value == {}:
            continue
        shown = value if isinstance(value, str) else one_line(_json(value))
        return ToolSummary.of(shown, label=f"{key}:")
    return ToolSummary()


def summarize_mcp_resource(call: ToolCall) -> ToolSummary:
    """ListMcpResources, ReadMcpResource: the server and the resource."""
    value = call.input
    if isinstance(value, mcp.ReadMcpResourceInput):
        uri, server = _text(value.uri), _text(value.server)
        return ToolSummary.of(uri or server, f"on {server}" if uri and server else "")
    if isinstance(value, mcp.ListMcpResourcesInput):
        return ToolSummary.of(_text(value.server))
    return ToolSummary()


def summarize_worktree(call: ToolCall) -> ToolSummary:
    """EnterWorktree, ExitWorktree: the worktree's name or path, or the action."""
    value = call.input
    if isinstance(value, misc.EnterWorktreeInput):
        return ToolSummary.of(_text(value.path) or _text(value.name))
    if isinstance(value, misc.ExitWorktreeInput):
        return ToolSummary.of(note=_text(value.action))
    return ToolSummary()


def _json(value: Any) -> str:
    import json

    from ...model import to_builtins

    return json.dumps(to_builtins(value), ensure_ascii=False)


#: The summary of each view, by view name (:data:`cclens.render.tool_views.VIEWS`).
SUMMARIES: dict[str, Summarize] = {
    "bash": summarize_bash,
    "background-output": summarize_task_id,
    "task-stop": summarize_task_id,
    "monitor": summarize_monitor,
    "repl": summarize_repl,
    "read": summarize_read,
    "write": summarize_write,
    "edit": summarize_edit,
    "multi-edit": summarize_multi_edit,
    "notebook-edit": summarize_notebook_edit,
    "ls": summarize_ls,
    "glob": summarize_glob,
    "grep": summarize_grep,
    "lsp": summarize_lsp,
    "tool-search": summarize_tool_search,
    "web-fetch": summarize_web_fetch,
    "web-search": summarize_web_search,
    "agent": summarize_agent,
    "workflow": summarize_workflow,
    "skill": summarize_skill,
    "send-message": summarize_send_message,
    "todo": summarize_todo,
    "task-create": summarize_task_create,
    "task-update": summarize_task_update,
    "task-get": summarize_task_get,
    "exit-plan-mode": summarize_exit_plan_mode,
    "ask-user-question": summarize_ask_user_question,
    "list-mcp-resources": summarize_mcp_resource,
    "read-mcp-resource": summarize_mcp_resource,
    "read-mcp-resource-dir": summarize_mcp_resource,
    "enter-worktree": summarize_worktree,
    "exit-worktree": summarize_worktree,
}
