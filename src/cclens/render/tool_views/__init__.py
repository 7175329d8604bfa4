"""A dedicated view for every tool Claude Code has, drawn from its typed input and result.

:data:`TOOL_VIEWS` maps every built-in tool name, current and old (``Task``, ``KillShell``,
``KillBash``, ``exit_plan_mode``, ``ListMcpResources``, …), to a
:class:`~cclens.render.views.ToolView`; :data:`MCP_VIEW` draws every ``mcp__<server>__<tool>``
call. Each view's ``prepare`` (in the module of its family, like :mod:`cclens.model.tools`)
turns a :class:`~cclens.model.session.ToolCall` into the variables of its template under
``templates/tools/``, which the frame (``tools/_frame.html``) wraps with the call's header.

Every ``prepare`` returns a typed :class:`~cclens.render.prepared.PreparedView` of its
family (a command, a file read, a diff, a search, a checklist, fields...), drawn by the page's
template and, as its :meth:`~cclens.render.prepared.PreparedView.text_parts`, by Markdown and
the terminal (:func:`prepared_view`). Strings stay untrusted text: templates escape them,
links are :class:`Link` values limited to ``http``/``https`` and in-page anchors, and markup
comes only from the templates' ``draw`` filter and the view helpers. What each view's folded
row says is its ``summarize`` (:mod:`.summaries`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..._lazy import deferred
from ...model.session import ToolCall
from ...model.tools import McpToolSpec, UnknownToolInput
from ...model.tools.mcp import mcp_parts
from ..environment import template_environment
from ..generic import generic_view, prepare_generic
from ..prepared import Field, Link, PreparedView
from ..summary import ToolSummary, fallback_summary
from ..views import ToolView, ViewHelpers
from .summaries import SUMMARIES, summarize_mcp

if TYPE_CHECKING:
    from ._common import Prepare

__all__ = [
    "AGENT_MCP_VIEWS",
    "AGENT_VIEWS",
    "CODEX_VIEWS",
    "COPILOT_VIEWS",
    "GEMINI_VIEWS",
    "MCP_VIEW",
    "TOOL_VIEWS",
    "VIEWS",
    "Field",
    "Link",
    "prepared_view",
    "tool_summary",
    "view_for",
]


def _prepare(name: str) -> Prepare:
    """A view's ``prepare``, named ``family.function``: its module (``shell``, ``files``, …,
    with its prepared views' classes) is imported when a call of one of its tools is first
    drawn, so that a page imports the views of the tools its session called and no other."""
    family, _, function = name.partition(".")
    prepare: Prepare = deferred(f".{family}", function, __name__)
    return prepare


def _view(name: str, template: str, prepare: str, *tools: str) -> tuple[ToolView, tuple[str, ...]]:
    view = ToolView(
        name, f"tools/{template}.html", _prepare(prepare), name in _HEADLINES, SUMMARIES.get(name)
    )
    return view, tools


#: Views whose (cheap) ``prepare`` words the header's summary: run for folded calls too. Every
#: other view's row says what :mod:`.summaries` gives (see :mod:`cclens.render.summary`).
_HEADLINES = frozenset(
    {
        "team-create",
        "team-delete",
        "artifact",
        "projects",
        # Gemini CLI's and Copilot CLI's tools whose argument that matters has a name the
        # fallback summary does not know.
        "gemini-read-many-files",
        "gemini-ask-user",
        "gemini-todos",
        "gemini-subagent",
        "copilot-todos",
    }
)


#: Every view, with the tool names it draws.
VIEWS: tuple[tuple[ToolView, tuple[str, ...]], ...] = (
    # Shell and background tasks
    _view("bash", "bash", "shell.prepare_bash", "Bash", "PowerShell"),
    _view(
        "background-output",
        "background_output",
        "shell.prepare_background_output",
        "BashOutput",
        "TaskOutput",
        "AgentOutputTool",
    ),
    _view("task-stop", "task_stop", "shell.prepare_task_stop", "TaskStop", "KillShell", "KillBash"),
    _view("monitor", "monitor", "shell.prepare_monitor", "Monitor"),
    _view("repl", "repl", "shell.prepare_repl", "REPL"),
    # Files
    _view("read", "read", "files.prepare_read", "Read"),
    _view("write", "write", "files.prepare_write", "Write"),
    _view("edit", "edit", "files.prepare_edit", "Edit"),
    _view("multi-edit", "multi_edit", "files.prepare_multi_edit", "MultiEdit"),
    _view("notebook-edit", "notebook_edit", "files.prepare_notebook_edit", "NotebookEdit"),
    _view("ls", "ls", "files.prepare_ls", "LS"),
    # Search
    _view("glob", "glob", "search.prepare_glob", "Glob"),
    _view("grep", "grep", "search.prepare_grep", "Grep"),
    _view("lsp", "lsp", "search.prepare_lsp", "LSP"),
    _view("tool-search", "tool_search", "search.prepare_tool_search", "ToolSearch"),
    # Web
    _view("web-fetch", "web_fetch", "web.prepare_web_fetch", "WebFetch"),
    _view("web-search", "web_search", "web.prepare_web_search", "WebSearch"),
    # Agents and teams
    _view("agent", "agent", "agents.prepare_agent", "Agent", "Task"),
    _view("workflow", "workflow", "agents.prepare_workflow", "Workflow"),
    _view("skill", "fields", "agents.prepare_skill", "Skill"),
    _view("send-message", "fields", "agents.prepare_send_message", "SendMessage"),
    _view("team-create", "fields", "agents.prepare_team_create", "TeamCreate"),
    _view("team-delete", "fields", "agents.prepare_team_delete", "TeamDelete"),
    _view("structured-output", "fields", "agents.prepare_structured_output", "StructuredOutput"),
    _view("list-agents", "fields", "agents.prepare_arguments", "ListAgents"),
    _view("subagent-handback", "fields", "agents.prepare_arguments", "SubagentHandback"),
    # Task list
    _view("todo", "todo", "tasks.prepare_todo_write", "TodoWrite"),
    _view("task-create", "task", "tasks.prepare_task_create", "TaskCreate"),
    _view("task-update", "task", "tasks.prepare_task_update", "TaskUpdate"),
    _view("task-get", "task", "tasks.prepare_task_get", "TaskGet"),
    _view("task-list", "task_list", "tasks.prepare_task_list", "TaskList"),
    # Plans and the user
    _view("enter-plan-mode", "fields", "interaction.prepare_enter_plan_mode", "EnterPlanMode"),
    _view(
        "exit-plan-mode",
        "exit_plan_mode",
        "interaction.prepare_exit_plan_mode",
        "ExitPlanMode",
        "exit_plan_mode",
    ),
    _view("set-goal", "fields", "interaction.prepare_set_goal", "SetGoal"),
    _view(
        "ask-user-question",
        "ask_user_question",
        "interaction.prepare_ask_user_question",
        "AskUserQuestion",
    ),
    _view(
        "push-notification", "fields", "interaction.prepare_push_notification", "PushNotification"
    ),
    _view(
        "read-notifications",
        "fields",
        "interaction.prepare_read_notifications",
        "ReadNotifications",
    ),
    _view("send-feedback", "fields", "interaction.prepare_send_feedback", "SendFeedback"),
    _view(
        "onboarding-role-picker",
        "fields",
        "interaction.prepare_onboarding_role",
        "ShowOnboardingRolePicker",
    ),
    _view("offer-chrome-setup", "fields", "interaction.prepare_chrome_setup", "OfferChromeSetup"),
    _view("send-user-message", "fields", "agents.prepare_arguments", "SendUserMessage"),
    _view("send-user-file", "fields", "agents.prepare_arguments", "SendUserFile"),
    _view("share-onboarding-guide", "fields", "agents.prepare_arguments", "ShareOnboardingGuide"),
    _view("end-conversation", "fields", "agents.prepare_arguments", "EndConversation"),
    # MCP built-ins
    _view(
        "list-mcp-resources",
        "mcp_resources",
        "mcp.prepare_list_mcp_resources",
        "ListMcpResourcesTool",
        "ListMcpResources",
    ),
    _view(
        "read-mcp-resource",
        "mcp_resource",
        "mcp.prepare_read_mcp_resource",
        "ReadMcpResourceTool",
        "ReadMcpResource",
    ),
    _view(
        "read-mcp-resource-dir",
        "mcp_resources",
        "mcp.prepare_read_mcp_resource_dir",
        "ReadMcpResourceDirTool",
    ),
    _view("refresh-mcp-tools", "fields", "mcp.prepare_refresh_mcp_tools", "RefreshMcpTools"),
    _view("wait-for-mcp-servers", "fields", "agents.prepare_arguments", "WaitForMcpServers"),
    # Scheduling
    _view("cron-create", "fields", "schedule.prepare_cron_create", "CronCreate"),
    _view("cron-delete", "fields", "schedule.prepare_cron_delete", "CronDelete"),
    _view("cron-list", "cron_list", "schedule.prepare_cron_list", "CronList"),
    _view("schedule-wakeup", "fields", "schedule.prepare_schedule_wakeup", "ScheduleWakeup"),
    _view("remote-trigger", "fields", "schedule.prepare_remote_trigger", "RemoteTrigger"),
    # Everything else
    _view("enter-worktree", "fields", "other.prepare_enter_worktree", "EnterWorktree"),
    _view("exit-worktree", "fields", "other.prepare_exit_worktree", "ExitWorktree"),
    _view("config", "fields", "other.prepare_config", "Config"),
    _view("artifact", "fields", "other.prepare_artifact", "Artifact"),
    _view("projects", "fields", "other.prepare_projects", "Projects"),
    _view("claude-design", "fields", "other.prepare_claude_design", "ClaudeDesign"),
    _view("report-findings", "findings", "other.prepare_report_findings", "ReportFindings"),
    _view("propose-skills", "skill_proposals", "other.prepare_propose_skills", "propose_skills"),
)


def _by_name(views: Iterable[tuple[ToolView, tuple[str, ...]]]) -> dict[str, ToolView]:
    index: dict[str, ToolView] = {}
    for view, tools in views:
        for tool in tools:
            if tool in index:
                raise ValueError(f"tool {tool!r} has two views")
            index[tool] = view
    return index


#: The view of every built-in tool, by every name the tool has had.
TOOL_VIEWS: dict[str, ToolView] = _by_name(VIEWS)

#: The view of every MCP tool (``mcp__<server>__<tool>``).
MCP_VIEW = ToolView("mcp", "tools/mcp.html", _prepare("mcp.prepare_mcp"), summarize=summarize_mcp)

#: Gemini CLI's tools (:mod:`cclens.model.tools.gemini`), each drawn by the template of the
#: Claude Code tool of its kind. An alias (``search_file_content``) and a subagent called by
#: its own name find their view through the canonical name of the call's spec.
GEMINI_VIEWS: tuple[tuple[ToolView, tuple[str, ...]], ...] = (
    _view("gemini-shell", "bash", "gemini.prepare_shell", "run_shell_command"),
    _view("gemini-read-file", "read", "gemini.prepare_read_file", "read_file"),
    _view("gemini-read-many-files", "glob", "gemini.prepare_read_many_files", "read_many_files"),
    _view("gemini-write-file", "write", "gemini.prepare_write_file", "write_file"),
    _view("gemini-replace", "edit", "gemini.prepare_replace", "replace"),
    _view("gemini-list-directory", "ls", "gemini.prepare_list_directory", "list_directory"),
    _view("gemini-glob", "glob", "gemini.prepare_glob", "glob"),
    _view("gemini-grep", "grep", "gemini.prepare_grep", "grep_search"),
    _view("gemini-web-fetch", "web_fetch", "gemini.prepare_web_fetch", "web_fetch"),
    _view("gemini-web-search", "web_search", "gemini.prepare_web_search", "google_web_search"),
    _view("gemini-save-memory", "fields", "gemini.prepare_save_memory", "save_memory"),
    _view("gemini-ask-user", "ask_user_question", "gemini.prepare_ask_user", "ask_user"),
    _view("gemini-todos", "todo", "gemini.prepare_write_todos", "write_todos"),
    _view("gemini-subagent", "agent", "gemini.prepare_subagent", "invoke_agent"),
    _view(
        "gemini-arguments",
        "fields",
        "gemini.prepare_arguments",
        "read_background_output",
        "list_background_processes",
        "enter_plan_mode",
        "exit_plan_mode",
        "activate_skill",
        "get_internal_docs",
        "update_topic",
        "complete_task",
        "list_mcp_resources",
        "read_mcp_resource",
        "tracker_create_task",
        "tracker_update_task",
        "tracker_get_task",
        "tracker_list_tasks",
        "tracker_add_dependency",
        "tracker_visualize",
    ),
)

#: GitHub Copilot CLI's tools (:mod:`cclens.model.tools.copilot`), likewise; an MCP tool's call
#: is drawn by ``MCP_VIEW`` (its spec names the server).
COPILOT_VIEWS: tuple[tuple[ToolView, tuple[str, ...]], ...] = (
    _view("copilot-shell", "bash", "copilot.prepare_shell", "bash", "powershell"),
    _view(
        "copilot-shell-session",
        "fields",
        "copilot.prepare_shell_session",
        "read_bash",
        "write_bash",
        "stop_bash",
        "read_powershell",
        "write_powershell",
        "stop_powershell",
    ),
    _view("copilot-view", "read", "copilot.prepare_view", "view"),
    _view("copilot-create", "write", "copilot.prepare_create", "create"),
    _view("copilot-edit", "edit", "copilot.prepare_edit", "edit"),
    _view(
        "copilot-str-replace-editor",
        "str_replace_editor",
        "copilot.prepare_str_replace_editor",
        "str_replace_editor",
    ),
    _view("copilot-glob", "glob", "copilot.prepare_glob", "glob"),
    _view("copilot-grep", "grep", "copilot.prepare_grep", "grep", "rg"),
    _view("copilot-web-fetch", "web_fetch", "copilot.prepare_web_fetch", "web_fetch"),
    _view("copilot-web-search", "web_search", "copilot.prepare_web_search", "web_search"),
    _view("copilot-todos", "todo", "copilot.prepare_update_todo", "update_todo"),
    _view("copilot-task", "agent", "copilot.prepare_task", "task"),
    _view("copilot-ask-user", "ask_user_question", "copilot.prepare_ask_user", "ask_user"),
    _view("copilot-sql", "fields", "copilot.prepare_sql", "sql"),
    _view(
        "copilot-arguments",
        "fields",
        "copilot.prepare_arguments",
        "list_bash",
        "list_powershell",
        "report_intent",
        "read_agent",
        "write_agent",
        "stop_agent",
        "list_agents",
        "skill",
        "store_memory",
        "fetch_copilot_cli_documentation",
    ),
)

#: Codex CLI's tools (:mod:`cclens.model.tools.codex`), drawn by templates of their own or
#: Claude Code's where the tools are alike (:mod:`.codex`).
CODEX_VIEWS: tuple[tuple[ToolView, tuple[str, ...]], ...] = (
    _view(
        "codex-shell",
        "codex_shell",
        "codex.prepare_shell",
        "shell",
        "container.exec",
        "shell_command",
        "exec_command",
        "write_stdin",
        "local_shell",
    ),
    _view("codex-patch", "codex_patch", "codex.prepare_patch", "apply_patch"),
    _view("codex-plan", "codex_plan", "codex.prepare_plan", "update_plan"),
    _view("codex-web-search", "web_search", "codex.prepare_web_search", "web_search"),
    _view("codex-view-image", "fields", "codex.prepare_view_image", "view_image"),
)

#: The views of each agent other than Claude Code, by the agent's name (``ToolCall.agent``)
#: and tool name: agents give one name to different tools (Gemini CLI's ``glob`` and
#: ``web_fetch`` are not Copilot CLI's), so each agent's names are looked up apart.
AGENT_VIEWS: dict[str, dict[str, ToolView]] = {
    "codex": _by_name(CODEX_VIEWS),
    "gemini": _by_name(GEMINI_VIEWS),
    "copilot": _by_name(COPILOT_VIEWS),
}

#: The view of each other agent's MCP tools, by agent (``MCP_VIEW`` for an agent not named).
AGENT_MCP_VIEWS: dict[str, ToolView] = {
    "codex": ToolView("codex-mcp", "tools/mcp.html", _prepare("codex.prepare_mcp"))
}


def view_for(call: ToolCall) -> ToolView:
    """The view that draws ``call``.

    By exact tool name, then by the canonical name of an alias (``Task`` → ``Agent``), then
    ``MCP_VIEW`` for ``mcp__*`` tools, else the generic view. Another agent's tools are looked
    up among its own views (``AGENT_VIEWS[agent]``, its MCP tools' view
    ``AGENT_MCP_VIEWS[agent]`` when it has one). A call whose input fits none of the tool's
    types is drawn generically, so its raw JSON is shown rather than a half-empty view.
    """
    if isinstance(call.input, UnknownToolInput):
        return generic_view
    if call.agent == "claude":
        views, mcp_view = TOOL_VIEWS, MCP_VIEW
    else:
        views = AGENT_VIEWS.get(call.agent, {})
        mcp_view = AGENT_MCP_VIEWS.get(call.agent, MCP_VIEW)
    view = views.get(call.name)
    if view is None:
        spec = call.spec
        view = views.get(spec.name)
        if view is None and isinstance(spec, McpToolSpec):
            view = mcp_view
    if view is None and mcp_parts(call.name) is not None:
        view = mcp_view
    return view or generic_view


def tool_summary(call: ToolCall) -> ToolSummary:
    """What ``call``'s folded row says: its view's ``summarize`` (see
    :mod:`cclens.render.summary`), else :func:`~cclens.render.summary.fallback_summary`. A
    summary that raises is replaced by the fallback: one bug never loses a row."""
    summarize = view_for(call).summarize
    if summarize is not None:
        try:
            found = summarize(call)
        except Exception:
            found = ToolSummary()
        if found:
            return found
    return fallback_summary(call)


def prepared_view(call: ToolCall) -> PreparedView:
    """``call``'s view prepared for a text output (Markdown, the terminal): by its view, or by
    the generic view when that one raises (as a page does; the page counts the failure)."""
    helpers = ViewHelpers(template_environment())
    try:
        return view_for(call).prepare(call, helpers)
    except Exception:
        return prepare_generic(call, helpers)
