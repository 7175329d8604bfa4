"""What the permission engine knows about tools: renamed names, families, and their targets."""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from typing import Any, Literal, TypeAlias

#: Old tool names mapped to the current ones: a rule written for either name covers both.
TOOL_ALIASES: Mapping[str, str] = {
    "Task": "Agent",
    "KillShell": "TaskStop",
    "KillBash": "TaskStop",
    "exit_plan_mode": "ExitPlanMode",
}

#: Tools that run shell commands; their rules match the ``command`` input.
SHELL_TOOLS: frozenset[str] = frozenset({"Bash", "PowerShell"})
#: Tools that read files or directories; ``Read`` rules cover all of them.
READ_TOOLS: frozenset[str] = frozenset({"Read", "Glob", "Grep", "LS", "NotebookRead"})
#: Tools that change files; ``Edit`` rules cover all of them.
EDIT_TOOLS: frozenset[str] = frozenset({"Edit", "Write", "MultiEdit", "NotebookEdit"})

# Which rule tool names cover which call tool names. A rule names one tool; Claude Code applies
# `Edit` rules to every file-editing tool and `Read` rules (best effort) to every reading tool.
_RULE_COVERS: Mapping[str, frozenset[str]] = {
    "Read": READ_TOOLS,
    "Edit": EDIT_TOOLS,
}

#: Tools that never ask: they only touch Claude Code's own state or ask the user themselves.
NO_PERMISSION_TOOLS: frozenset[str] = frozenset(
    {
        "Agent",
        "AskUserQuestion",
        "BashOutput",
        "CronList",
        "EnterPlanMode",
        "ListMcpResourcesTool",
        "ReadMcpResourceDirTool",
        "ReadMcpResourceTool",
        "TaskCreate",
        "TaskGet",
        "TaskList",
        "TaskOutput",
        "TaskStop",
        "TaskUpdate",
        "TodoWrite",
        "ToolSearch",
    }
)

ToolKind: TypeAlias = Literal[
    "shell", "read", "edit", "web_fetch", "mcp", "agent", "skill", "other"
]


def canonical_tool_name(name: str) -> str:
    """Return the current name of a tool (``Task`` → ``Agent``, ``KillShell`` → ``TaskStop``)."""
    return TOOL_ALIASES.get(name, name)


def tool_kind(name: str) -> ToolKind:
    """Classify a (canonical) tool name by how its rules are matched."""
    if name in SHELL_TOOLS:
        return "shell"
    if name in READ_TOOLS:
        return "read"
    if name in EDIT_TOOLS:
        return "edit"
    if name == "WebFetch":
        return "web_fetch"
    if name.startswith("mcp__"):
        return "mcp"
    if name == "Agent":
        return "agent"
    if name == "Skill":
        return "skill"
    return "other"


def rule_covers_tool(rule_tool: str, call_tool: str) -> bool:
    """Whether a rule naming ``rule_tool`` applies to calls of ``call_tool`` (aliases resolved).

    MCP names are not handled here: see :func:`mcp_rule_covers`.
    """
    rule_tool = canonical_tool_name(rule_tool)
    call_tool = canonical_tool_name(call_tool)
    if rule_tool == call_tool:
        return True
    return call_tool in _RULE_COVERS.get(rule_tool, frozenset())


def split_mcp_name(name: str) -> tuple[str, str | None] | None:
    """Split ``mcp__server__tool`` into ``(server, tool)``; ``mcp__server`` has tool ``None``."""
    if not name.startswith("mcp__"):
        return None
    rest = name[len("mcp__") :]
    server, separator, tool = rest.partition("__")
    if not server:
        return None
    return server, (tool if separator else None)


def mcp_rule_covers(rule_tool: str, call_tool: str) -> bool:
    """Whether an MCP rule name covers an MCP tool call.

    ``mcp__server`` and ``mcp__server__*`` cover every tool of the server; ``mcp__server__tool``
    covers that tool only.
    """
    rule = split_mcp_name(rule_tool)
    call = split_mcp_name(call_tool)
    if rule is None or call is None or rule[0] != call[0]:
        return False
    rule_tool_part = rule[1]
    return rule_tool_part in (None, "*") or rule_tool_part == call[1]


def target_path(tool_name: str, tool_input: Mapping[str, Any], *, cwd: str) -> str | None:
    """The absolute, normalised path a file tool acts on, or ``None`` when it has none.

    Search tools without a ``path`` search the working directory, so that is their target.
    """
    name = canonical_tool_name(tool_name)
    raw: object
    if name in ("NotebookEdit", "NotebookRead"):
        raw = tool_input.get("notebook_path")
    elif name in ("Glob", "Grep"):
        raw = tool_input.get("path") or cwd
    elif name == "LS":
        raw = tool_input.get("path")
    else:
        raw = tool_input.get("file_path")
    if not isinstance(raw, str) or not raw:
        return None
    return absolute_path(raw, cwd=cwd)


def absolute_path(path: str, *, cwd: str, home: str | None = None) -> str:
    """Resolve ``path`` against ``cwd`` (and ``~`` against ``home``) without touching the disk,
    one separator between its parts."""
    if home is not None and (path == "~" or path.startswith("~/")):
        path = home + path[1:]
    found = posixpath.normpath(posixpath.join(cwd, path))
    # POSIX lets a path start with two separators (and normpath keeps them): on the systems
    # Claude Code runs on it is the root all the same, and a rule must name it with one.
    return "/" + found.lstrip("/") if found.startswith("//") else found


def is_within(path: str, directory: str) -> bool:
    """Whether normalised absolute ``path`` is ``directory`` or lies beneath it."""
    directory = directory.rstrip("/") or "/"
    if directory == "/":
        return path.startswith("/")
    return path == directory or path.startswith(directory + "/")
