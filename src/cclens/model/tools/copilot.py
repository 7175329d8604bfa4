"""The tools GitHub Copilot CLI gives its model, and what their results say.

A call's input is the ``arguments`` of its ``toolRequests`` entry (an object, or a JSON string
in some versions); its result is the ``tool.execution_complete`` event's data
(:class:`~cclens.model.copilot.ToolCompleteData`: ``success``, ``result.content`` as the model
saw it, ``result.detailedContent`` as the terminal showed it, ``error``).

A call's typed result is that data (:class:`~cclens.model.copilot.ToolCompleteData`).

Tool names and parameters are those of Copilot CLI 1.0.40 (``@github/copilot``, the zod schemas
of its bundled ``app.js``): ``bash`` and ``powershell`` with their ``read_``, ``write_``,
``stop_`` and ``list_`` companions, ``view``, ``create``, ``edit`` (``str_replace_editor`` in
0.0.3xx, one tool with a ``command``), ``glob``, ``grep`` (``rg``), ``web_fetch``,
``web_search``, ``report_intent``, ``update_todo``, ``task`` and the agent tools, ``skill``,
``ask_user``, ``sql``, ``store_memory``. An MCP tool is named ``<server>-<tool>``; its start
event names the server and the tool apart (``mcpServerName``, ``mcpToolName``).
"""

import functools
import re

from .._base import UNSET, Int, Model, Number, Opt
from ..copilot.events import ToolCompleteData
from ._spec import ToolSpec, named_spec
from .generic import FreeformInput
from .mcp import freeform_mcp_spec

#: The agent these tools belong to (the key of :mod:`cclens.readers.agents`).
AGENT = "copilot"


class ShellInput(Model, rename={"shell_id": "shellId", "session_id": "sessionId"}):
    """``bash`` and ``powershell``: a command in a shell session (``mode`` ``sync`` waits up to
    ``initial_wait`` seconds, ``async`` returns at once; ``detach`` outlives the session)."""

    command: Opt[str] = UNSET
    description: Opt[str] = UNSET
    shell_id: Opt[str] = UNSET
    mode: Opt[str] = UNSET
    detach: Opt[bool] = UNSET
    initial_wait: Opt[Number] = UNSET
    #: Before 1.0: the session's id and a timeout.
    session_id: Opt[str] = UNSET
    timeout: Opt[Number] = UNSET


class ShellSessionInput(Model, rename={"shell_id": "shellId", "session_id": "sessionId"}):
    """``read_bash``, ``write_bash``, ``stop_bash`` (and ``powershell``'s): a shell session
    read, written to (``input``) or stopped."""

    shell_id: Opt[str] = UNSET
    session_id: Opt[str] = UNSET
    input: Opt[str] = UNSET
    delay: Opt[Number] = UNSET


class ViewInput(Model, rename={"force_read_large_files": "forceReadLargeFiles"}):
    """``view``: a file (its lines numbered, ``view_range`` ``[first, last]``, ``-1`` for the
    end) or a directory (two levels listed)."""

    path: Opt[str] = UNSET
    view_range: Opt[list[Int]] = UNSET
    force_read_large_files: Opt[bool] = UNSET


class CreateInput(Model):
    """``create``: a new file and its content."""

    path: Opt[str] = UNSET
    file_text: Opt[str] = UNSET


class EditInput(Model):
    """``edit``: ``old_str`` replaced by ``new_str`` (which must match once) in a file."""

    path: Opt[str] = UNSET
    old_str: Opt[str] = UNSET
    new_str: Opt[str] = UNSET


class StrReplaceEditorInput(Model):
    """``str_replace_editor`` (Copilot CLI 0.0.3xx): ``command`` is ``view``, ``create``,
    ``str_replace``, ``insert`` or ``undo_edit``."""

    command: Opt[str] = UNSET
    path: Opt[str] = UNSET
    file_text: Opt[str] = UNSET
    old_str: Opt[str] = UNSET
    new_str: Opt[str] = UNSET
    insert_line: Opt[Int] = UNSET
    view_range: Opt[list[Int]] = UNSET


class GlobInput(Model):
    pattern: Opt[str] = UNSET
    path: Opt[str] = UNSET


class GrepInput(
    Model,
    rename={
        "ignore_case": "-i",
        "after": "-A",
        "before": "-B",
        "context": "-C",
        "line_numbers": "-n",
    },
):
    """``grep`` (ripgrep): ``output_mode`` is ``content``, ``files_with_matches`` or
    ``count``."""

    pattern: Opt[str] = UNSET
    path: Opt[str] = UNSET
    paths: Opt[list[str]] = UNSET
    output_mode: Opt[str] = UNSET
    glob: Opt[str] = UNSET
    type: Opt[str] = UNSET
    ignore_case: Opt[bool] = UNSET
    after: Opt[Int] = UNSET
    before: Opt[Int] = UNSET
    context: Opt[Int] = UNSET
    line_numbers: Opt[bool] = UNSET
    head_limit: Opt[Int] = UNSET
    multiline: Opt[bool] = UNSET


class WebFetchInput(Model):
    """``web_fetch``: a page as markdown (``raw``: as fetched), from ``start_index``, at most
    ``max_length`` characters."""

    url: Opt[str] = UNSET
    max_length: Opt[Int] = UNSET
    start_index: Opt[Int] = UNSET
    raw: Opt[bool] = UNSET


class WebSearchInput(Model):
    query: Opt[str] = UNSET


class ReportIntentInput(Model):
    """``report_intent``: what the agent is doing now, shown in the status line."""

    intent: Opt[str] = UNSET


class UpdateTodoInput(Model):
    """``update_todo``: the todo list as a markdown checklist (``- [x] done``)."""

    todos: Opt[str] = UNSET


class TaskInput(Model):
    """``task``: a subagent (``agent_type``: ``explore``, ``task``, ``general-purpose``, a
    custom agent) given a ``prompt``; ``mode`` ``background`` returns at once."""

    description: Opt[str] = UNSET
    prompt: Opt[str] = UNSET
    agent_type: Opt[str] = UNSET
    name: Opt[str] = UNSET
    model: Opt[str] = UNSET
    mode: Opt[str] = UNSET


class AgentInput(Model):
    """``read_agent``, ``write_agent``, ``stop_agent``, ``list_agents``: a background
    subagent read, written to, stopped or listed."""

    agent_id: Opt[str] = UNSET
    message: Opt[str] = UNSET
    wait: Opt[bool] = UNSET
    timeout: Opt[Number] = UNSET
    since_turn: Opt[Int] = UNSET
    include_completed: Opt[bool] = UNSET


class SkillInput(Model):
    skill: Opt[str] = UNSET


class AskUserInput(Model):
    """``ask_user``: one question, with ``choices`` and whether a free answer is allowed."""

    question: Opt[str] = UNSET
    choices: Opt[list[str]] = UNSET
    allow_freeform: Opt[bool] = UNSET


class SqlInput(Model):
    """``sql``: a query on the session's own SQLite tables (``todos``, ``todo_deps``...)."""

    description: Opt[str] = UNSET
    query: Opt[str] = UNSET


class StoreMemoryInput(Model):
    """``store_memory``: a fact about the repository remembered for later sessions."""

    subject: Opt[str] = UNSET
    fact: Opt[str] = UNSET
    citations: Opt[str] = UNSET
    reason: Opt[str] = UNSET
    category: Opt[str] = UNSET


_spec = functools.partial(named_spec, result_type=ToolCompleteData)


#: Every built-in tool of Copilot CLI cclens knows.
SPECS: tuple[ToolSpec, ...] = (
    _spec(
        "bash",
        ShellInput,
        "Run a command in a shell session",
        "shell",
        "powershell",
        summary=("description", "command"),
    ),
    _spec(
        "read_bash",
        ShellSessionInput,
        "Read what a shell session printed",
        "shell",
        "read_powershell",
        summary=("shell_id", "session_id"),
    ),
    _spec(
        "write_bash",
        ShellSessionInput,
        "Type into a shell session",
        "shell",
        "write_powershell",
        summary=("input", "shell_id", "session_id"),
    ),
    _spec(
        "stop_bash",
        ShellSessionInput,
        "Stop a shell session",
        "shell",
        "stop_powershell",
        summary=("shell_id", "session_id"),
    ),
    _spec("list_bash", FreeformInput, "List the shell sessions", "shell", "list_powershell"),
    _spec("view", ViewInput, "Read a file or list a directory", "files", summary=("path",)),
    _spec("create", CreateInput, "Create a file", "files", summary=("path",)),
    _spec("edit", EditInput, "Replace text in a file", "files", summary=("path",)),
    _spec(
        "str_replace_editor",
        StrReplaceEditorInput,
        "View, create or edit a file",
        "files",
        summary=("path",),
    ),
    _spec("glob", GlobInput, "Find files by glob pattern", "search", summary=("pattern",)),
    _spec(
        "grep", GrepInput, "Search file contents with ripgrep", "search", "rg", summary=("pattern",)
    ),
    _spec("web_fetch", WebFetchInput, "Fetch a web page", "web", summary=("url",)),
    _spec("web_search", WebSearchInput, "Search the web", "web", summary=("query",)),
    _spec(
        "report_intent",
        ReportIntentInput,
        "Say what the agent is doing",
        "other",
        summary=("intent",),
    ),
    _spec("update_todo", UpdateTodoInput, "Write the todo list", "tasks"),
    _spec(
        "task",
        TaskInput,
        "Run a subagent",
        "agents",
        spawns=True,
        summary=("description", "prompt"),
    ),
    _spec(
        "read_agent",
        AgentInput,
        "Read a background subagent's progress",
        "agents",
        summary=("agent_id",),
    ),
    _spec(
        "write_agent",
        AgentInput,
        "Send a message to a background subagent",
        "agents",
        summary=("message", "agent_id"),
    ),
    _spec("stop_agent", AgentInput, "Stop a background subagent", "agents", summary=("agent_id",)),
    _spec("list_agents", AgentInput, "List the background subagents", "agents"),
    _spec("skill", SkillInput, "Load a skill", "agents", summary=("skill",)),
    _spec(
        "ask_user", AskUserInput, "Ask the user a question", "interaction", summary=("question",)
    ),
    _spec(
        "sql",
        SqlInput,
        "Query the session's own tables",
        "other",
        summary=("description", "query"),
    ),
    _spec(
        "store_memory",
        StoreMemoryInput,
        "Remember a fact about the repository",
        "other",
        summary=("fact", "subject"),
    ),
    _spec(
        "fetch_copilot_cli_documentation",
        FreeformInput,
        "Read Copilot CLI's own documentation",
        "other",
    ),
)

_BY_NAME: dict[str, ToolSpec] = {name: spec for spec in SPECS for name in spec.names}


def copilot_tool_spec(name: str) -> ToolSpec | None:
    """The spec of Copilot CLI's tool ``name``: a built-in tool, else an MCP tool when the name
    reads ``<server>-<tool>`` (Copilot joins them with a hyphen; no built-in name holds one);
    ``None`` for a name cclens does not know."""
    spec = _BY_NAME.get(name)
    if spec is not None:
        return spec
    server, separator, tool = name.rpartition("-")
    if not separator or not server or not tool:
        return None
    return freeform_mcp_spec(name, server, tool, ToolCompleteData)


# What the results say -----------------------------------------------------------------------

_EXIT = re.compile(
    r"\n?<(?:command with id: (?P<shell>[^>]*?) )?exited with exit code (?P<code>-?\d+)>\s*\Z"
)
_NUMBERED = re.compile(r"^(\d+)\. (.*)$")
_TODO = re.compile(r"^\s*[-*] \[(?P<mark>[ xX~-])\] (?P<text>.*)$")


def shell_exit(text: str) -> tuple[str, int | None]:
    """A shell result's output and the exit code it ends with (``<exited with exit code N>``;
    ``None`` while the command still runs)."""
    match = _EXIT.search(text)
    if match is None:
        return text, None
    return text[: match.start()], int(match.group("code"))


def numbered_lines(text: str) -> tuple[str, int] | None:
    """The content and first line number of a ``view`` of a file (``12. line``), ``None`` for
    any other text (a directory's listing, a message)."""
    content: list[str] = []
    first: int | None = None
    for line in text.split("\n"):
        match = _NUMBERED.match(line)
        if match is None:
            if line == "" and first is not None:
                content.append("")
                continue
            return None
        if first is None:
            first = int(match.group(1))
        content.append(match.group(2))
    while content and content[-1] == "":
        content.pop()
    return ("\n".join(content), first) if first is not None else None


def checklist(markdown: str) -> list[tuple[str, str]]:
    """The items of ``update_todo``'s markdown checklist: ``(status, text)``, status
    ``completed`` (``[x]``), ``in_progress`` (``[~]`` or ``[-]``) or ``pending``."""
    items: list[tuple[str, str]] = []
    for line in markdown.split("\n"):
        match = _TODO.match(line)
        if match is None:
            continue
        mark = match.group("mark")
        status = "completed" if mark in "xX" else "in_progress" if mark in "~-" else "pending"
        items.append((status, match.group("text").strip()))
    return items


__all__ = [
    "AGENT",
    "SPECS",
    "AgentInput",
    "AskUserInput",
    "CreateInput",
    "EditInput",
    "GlobInput",
    "GrepInput",
    "ReportIntentInput",
    "ShellInput",
    "ShellSessionInput",
    "SkillInput",
    "SqlInput",
    "StoreMemoryInput",
    "StrReplaceEditorInput",
    "TaskInput",
    "UpdateTodoInput",
    "ViewInput",
    "WebFetchInput",
    "WebSearchInput",
    "checklist",
    "copilot_tool_spec",
    "numbered_lines",
    "shell_exit",
]
