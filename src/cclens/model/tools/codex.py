"""The tools Codex CLI gives its model: their inputs, and the structured result cclens reads for
each call from its output and from the events that end it.

A call's input is the JSON of a ``function_call``'s ``arguments`` (``shell``, ``shell_command``,
``exec_command``, ``write_stdin``, ``update_plan``, ``view_image``, the MCP resource tools...),
the raw text of a ``custom_tool_call`` (``apply_patch``: ``{"input": <patch>}``), the ``action``
of a ``local_shell_call`` or a ``web_search_call``. Its result is what the reader of
:mod:`cclens.readers.codex` put together (``toolUseResult`` in the session model): the exit
code, output and duration of a command (from the output text and ``exec_command_end``), the
changes of a patch (``patch_apply_end``), an MCP call's result (``mcp_tool_call_end``), a web
search's query and results (``web_search_end``), an image's path (``view_image_tool_call``).

Tool names come from ``codex-rs/core/src/tools`` of openai/codex; an MCP tool is named
``<server>__<tool>``.
"""

import shlex
from collections.abc import Callable
from typing import Any

from .._base import UNSET, Int, Model, Number, Opt
from ..codex.patch import parse_patch, patch_of_command
from ._spec import FilesTouched, ToolSpec
from .generic import FreeformInput, FreeformResult, UnknownToolInput, UnknownToolResult
from .mcp import freeform_mcp_spec

#: The agent these tools belong to (the key of :mod:`cclens.readers.agents`).
AGENT = "codex"


class ShellInput(Model):
    """``shell`` (and ``container.exec``): the command as an argument list (``["bash", "-lc",
    "..."]``), where it runs and for how long."""

    command: Any = UNSET
    workdir: Opt[str] = UNSET
    timeout_ms: Opt[Number] = UNSET
    timeout: Opt[Number] = UNSET
    with_escalated_permissions: Opt[bool] = UNSET
    sandbox_permissions: Any = UNSET
    justification: Opt[str] = UNSET
    prefix_rule: Any = UNSET
    command_type: Any = UNSET


class ShellCommandInput(Model):
    """``shell_command``: one command line run by the user's shell."""

    command: Any = UNSET
    workdir: Opt[str] = UNSET
    login: Opt[bool] = UNSET
    timeout_ms: Opt[Number] = UNSET
    with_escalated_permissions: Opt[bool] = UNSET
    sandbox_permissions: Any = UNSET
    justification: Opt[str] = UNSET
    prefix_rule: Any = UNSET


class ExecCommandInput(Model):
    """``exec_command``: a command in a session that may keep running (``write_stdin`` talks to
    it later)."""

    cmd: Any = UNSET
    workdir: Opt[str] = UNSET
    shell: Opt[str] = UNSET
    login: Opt[bool] = UNSET
    tty: Opt[bool] = UNSET
    yield_time_ms: Opt[Number] = UNSET
    max_output_tokens: Opt[Number] = UNSET
    sandbox_permissions: Any = UNSET
    justification: Opt[str] = UNSET
    prefix_rule: Any = UNSET


class WriteStdinInput(Model):
    """``write_stdin``: characters sent to a running ``exec_command`` session."""

    session_id: Any = UNSET
    chars: Opt[str] = UNSET
    yield_time_ms: Opt[Number] = UNSET
    max_output_tokens: Opt[Number] = UNSET


class LocalShellInput(Model):
    """A ``local_shell_call``'s ``action``: ``{"type": "exec", "command": [...]}``."""

    type: Opt[str] = UNSET
    command: Any = UNSET
    timeout_ms: Opt[Number] = UNSET
    working_directory: Opt[str] = UNSET
    env: Any = UNSET
    user: Opt[str] = UNSET


class ShellResult(Model):
    """How a command ended, as cclens read it from the call's output and its
    ``exec_command_end`` event (every field is optional: older files say less)."""

    exit_code: Opt[Int] = UNSET
    output: Opt[str] = UNSET
    stdout: Opt[str] = UNSET
    stderr: Opt[str] = UNSET
    duration_seconds: Opt[Number] = UNSET
    command: Any = UNSET
    cwd: Opt[str] = UNSET
    #: A command still running when the output was written (``exec_command``).
    session_id: Any = UNSET
    process_id: Any = UNSET
    total_output_lines: Opt[Int] = UNSET
    original_token_count: Opt[Int] = UNSET
    timed_out: Opt[bool] = UNSET
    sandbox_error: Opt[str] = UNSET
    parsed_cmd: Any = UNSET
    status: Opt[str] = UNSET


class ApplyPatchInput(Model):
    """``apply_patch``: the patch (``*** Begin Patch`` ... ``*** End Patch``)."""

    input: Opt[str] = UNSET
    patch: Opt[str] = UNSET


class FileChange(Model):
    """One file's change in a ``patch_apply_end`` event: ``type`` is ``add``, ``delete`` or
    ``update``."""

    type: Opt[str] = UNSET
    unified_diff: Opt[str] = UNSET
    content: Opt[str] = UNSET
    move_path: Opt[str] = UNSET


class ApplyPatchResult(Model):
    """How a patch was applied: ``success``, the changes by file, the tool's output."""

    success: Opt[bool] = UNSET
    changes: Opt[dict[str, FileChange]] = UNSET
    output: Opt[str] = UNSET
    stdout: Opt[str] = UNSET
    stderr: Opt[str] = UNSET
    exit_code: Opt[Int] = UNSET
    duration_seconds: Opt[Number] = UNSET
    status: Opt[str] = UNSET


class PlanStep(Model):
    """One step of a plan: ``status`` is ``pending``, ``in_progress`` or ``completed``."""

    step: Opt[str] = UNSET
    status: Opt[str] = UNSET


class UpdatePlanInput(Model):
    """``update_plan``: the whole plan, each time (and why it changed)."""

    plan: Opt[list[PlanStep]] = UNSET
    explanation: Opt[str] = UNSET


class UpdatePlanResult(Model):
    """What cclens adds to an ``update_plan`` call: the plan it replaced (the thread's previous
    ``update_plan``), so a page can say what changed."""

    old_plan: Opt[list[PlanStep]] = UNSET


class ViewImageInput(Model):
    """``view_image``: a local image the model looked at."""

    path: Opt[str] = UNSET


class ViewImageResult(Model):
    path: Opt[str] = UNSET


class WebSearchInput(Model):
    """A ``web_search_call``'s action (``search``: ``query``/``queries``; ``open_page``:
    ``url``; ``find_in_page``: ``url`` and ``pattern``), or a ``web_search`` function's
    arguments."""

    type: Opt[str] = UNSET
    query: Opt[str] = UNSET
    queries: Any = UNSET
    url: Opt[str] = UNSET
    pattern: Opt[str] = UNSET
    sources: Any = UNSET
    engine: Any = UNSET
    num_results: Any = UNSET
    max_results: Any = UNSET


class WebSearchResult(Model):
    """A web search's query and results (``web_search_end``), or what the function returned."""

    query: Opt[str] = UNSET
    action: Any = UNSET
    results: Any = UNSET
    status: Opt[str] = UNSET


class McpResourceInput(Model):
    """``list_mcp_resources``, ``list_mcp_resource_templates``, ``read_mcp_resource``."""

    server: Opt[str] = UNSET
    uri: Opt[str] = UNSET
    cursor: Opt[str] = UNSET


class McpCallResult(Model):
    """An MCP tool call's end (``mcp_tool_call_end``): the server and tool, the arguments, and
    ``result`` (``{"Ok": {content, isError, structuredContent}}`` or ``{"Err": message}``)."""

    server: Opt[str] = UNSET
    tool: Opt[str] = UNSET
    arguments: Any = UNSET
    result: Any = UNSET
    duration_seconds: Opt[Number] = UNSET


class ToolSearchInput(Model):
    query: Opt[str] = UNSET
    limit: Any = UNSET


class ToolSearchResult(Model):
    """The tools a search found (``tool_search_output``)."""

    tools: Any = UNSET


class ImageGenerationInput(Model):
    revised_prompt: Opt[str] = UNSET


class ImageGenerationResult(Model):
    status: Opt[str] = UNSET
    revised_prompt: Opt[str] = UNSET
    saved_path: Opt[str] = UNSET
    result: Opt[str] = UNSET


class AgentToolInput(FreeformInput):
    """The multi-agent tools (``spawn_agent``, ``send_input``, ``wait``, ``close_agent``,
    ``resume_agent``): their arguments, by name."""


class AgentToolResult(FreeformResult):
    """What a multi-agent operation's end event said (the thread it started or talked to)."""


_SHELL_FLAGS = ("-lc", "-c", "-l", "-Command", "-command", "/c", "-NoProfile")
_SHELLS = ("bash", "sh", "zsh", "fish", "pwsh", "powershell", "powershell.exe", "cmd", "cmd.exe")


def command_line(command: Any) -> str:
    """A command as one line of text: the script of ``bash -lc <script>`` (and the like), an
    argument list joined as a shell would read it, a string as it is."""
    if isinstance(command, str):
        return command
    if not isinstance(command, list) or not all(isinstance(a, str) for a in command):
        return ""
    shell = command[0].replace("\\", "/").rsplit("/", 1)[-1].lower() if command else ""
    if len(command) >= 3 and shell in _SHELLS and command[1] in _SHELL_FLAGS:
        return str(command[-1])
    return shlex.join(command)


def _patch_text(value: Any) -> str:
    if isinstance(value, ApplyPatchInput):
        return value.input if isinstance(value.input, str) else str(value.patch or "")
    return ""


def patch_summary(text: str) -> str:
    """A patch in one line: the files it touches (``a.py, b.py (+3 more)``)."""
    paths = [f"{p.path} → {p.move_to}" if p.move_to else p.path for p in parse_patch(text)]
    if len(paths) > 3:
        return ", ".join(paths[:3]) + f" (+{len(paths) - 3} more)"
    return ", ".join(paths)


def _shell_summary(value: Any) -> str:
    command = getattr(value, "cmd", UNSET) if isinstance(value, ExecCommandInput) else None
    if command is None:
        command = getattr(value, "command", UNSET)
    patch = patch_of_command(command)
    if patch is not None:
        return "apply_patch " + patch_summary(patch)
    return command_line(command)


def _stdin_summary(value: Any) -> str:
    if not isinstance(value, WriteStdinInput):
        return ""
    chars = value.chars if isinstance(value.chars, str) else ""
    target = f"session {value.session_id}" if value.session_id is not UNSET else ""
    return f"{target}: {chars!r}" if chars else f"read {target}".strip()


def _plan_summary(value: Any) -> str:
    if not isinstance(value, UpdatePlanInput) or not isinstance(value.plan, list):
        return ""
    steps = [step for step in value.plan if isinstance(step, PlanStep)]
    done = sum(1 for step in steps if step.status == "completed")
    active = next((step.step for step in steps if step.status == "in_progress"), None)
    counted = f"{done}/{len(steps)} done"
    return f"{counted}, now: {active}" if isinstance(active, str) and active else counted


def _search_summary(value: Any) -> str:
    if not isinstance(value, WebSearchInput):
        return ""
    for found in (value.query, value.url, value.pattern):
        if isinstance(found, str) and found:
            return found
    queries = value.queries
    if isinstance(queries, list):
        return " | ".join(q for q in queries if isinstance(q, str))
    return ""


def _first_text(value: Any) -> str:
    """The first string argument of a free-form input (an MCP tool's, a subagent tool's)."""
    arguments = value.arguments if isinstance(value, FreeformInput) else {}
    return next((v for v in arguments.values() if isinstance(v, str) and v.strip()), "")


def _field(name: str) -> Callable[[Any], str]:
    def summary(value: Any) -> str:
        found = getattr(value, name, None)
        return found if isinstance(found, str) else ""

    return summary


def _patch_files(value: Any, result: Any) -> FilesTouched:
    changes = getattr(result, "changes", None)
    if isinstance(changes, dict) and changes:
        return [("changed", path) for path in changes]
    text = _patch_text(value) or patch_of_command(getattr(value, "command", None)) or ""
    touched: FilesTouched = []
    for patch in parse_patch(text):
        touched.append(("changed", patch.path))
        if patch.move_to:
            touched.append(("changed", patch.move_to))
    return touched


def _shell_files(value: Any, result: Any) -> FilesTouched:
    if patch_of_command(getattr(value, "command", None)) is None:
        return []
    return _patch_files(value, result)


def _image_files(value: Any, result: Any) -> FilesTouched:
    path = getattr(value, "path", None)
    return [("read", path)] if isinstance(path, str) and path else []


_SUMMARIES: dict[str, Callable[[Any], str]] = {
    "shell": _shell_summary,
    "shell_command": _shell_summary,
    "exec_command": _shell_summary,
    "local_shell": _shell_summary,
    "write_stdin": _stdin_summary,
    "apply_patch": lambda value: patch_summary(_patch_text(value)),
    "update_plan": _plan_summary,
    "view_image": _field("path"),
    "web_search": _search_summary,
    "tool_search": _field("query"),
    "read_mcp_resource": _field("uri"),
    "list_mcp_resources": _field("server"),
    "list_mcp_resource_templates": _field("server"),
    "image_generation": _field("revised_prompt"),
}
_FILES: dict[str, Callable[[Any, Any], FilesTouched]] = {
    "shell": _shell_files,
    "local_shell": _shell_files,
    "apply_patch": _patch_files,
    "view_image": _image_files,
}


def _spec(
    name: str,
    input_type: Any,
    result_type: Any,
    description: str,
    family: str,
    *aliases: str,
    spawns: bool = False,
) -> ToolSpec:
    return ToolSpec(
        name=name,
        aliases=aliases,
        input_type=input_type,
        result_type=result_type,
        description=description,
        family=family,
        spawns_subagent=spawns,
        summary=_SUMMARIES.get(name, _first_text),
        files=_FILES.get(name),
    )


#: Every tool of Codex CLI cclens knows.
SPECS: tuple[ToolSpec, ...] = (
    _spec(
        "shell",
        ShellInput,
        ShellResult,
        "Run a command (an argument list) and return its output",
        "shell",
        "container.exec",
    ),
    _spec(
        "shell_command",
        ShellCommandInput,
        ShellResult,
        "Run a command line in the user's shell",
        "shell",
    ),
    _spec(
        "exec_command",
        ExecCommandInput,
        ShellResult,
        "Run a command in a session that may keep running",
        "shell",
    ),
    _spec(
        "write_stdin",
        WriteStdinInput,
        ShellResult,
        "Write to a running command and read its new output",
        "shell",
    ),
    _spec(
        "local_shell",
        LocalShellInput,
        ShellResult,
        "Run a command with the model's built-in local shell tool",
        "shell",
    ),
    _spec(
        "apply_patch",
        ApplyPatchInput,
        ApplyPatchResult,
        "Add, delete, move or edit files with a patch",
        "files",
    ),
    _spec(
        "update_plan",
        UpdatePlanInput,
        UpdatePlanResult,
        "Write the plan: steps and their status",
        "plans",
    ),
    _spec("view_image", ViewImageInput, ViewImageResult, "Look at a local image", "files"),
    _spec("web_search", WebSearchInput, WebSearchResult, "Search the web", "web"),
    _spec(
        "list_mcp_resources",
        McpResourceInput,
        None,
        "List the resources of the MCP servers",
        "mcp",
    ),
    _spec(
        "list_mcp_resource_templates",
        McpResourceInput,
        None,
        "List the resource templates of the MCP servers",
        "mcp",
    ),
    _spec("read_mcp_resource", McpResourceInput, None, "Read a resource of an MCP server", "mcp"),
    _spec("tool_search", ToolSearchInput, ToolSearchResult, "Find tools to load", "search"),
    _spec(
        "image_generation",
        ImageGenerationInput,
        ImageGenerationResult,
        "Generate an image",
        "other",
    ),
    _spec(
        "spawn_agent",
        AgentToolInput,
        AgentToolResult,
        "Start a subagent thread",
        "agents",
        spawns=True,
    ),
    _spec("send_input", AgentToolInput, AgentToolResult, "Send a message to a subagent", "agents"),
    _spec("wait", AgentToolInput, AgentToolResult, "Wait for subagents to finish", "agents"),
    _spec("close_agent", AgentToolInput, AgentToolResult, "Stop a subagent", "agents"),
    _spec("resume_agent", AgentToolInput, AgentToolResult, "Resume a subagent", "agents"),
)

_BY_NAME: dict[str, ToolSpec] = {name: spec for spec in SPECS for name in spec.names}


def mcp_name(name: str) -> tuple[str, str] | None:
    """``(server, tool)`` of an MCP tool's name as Codex gives it (``<server>__<tool>``, or
    ``mcp__<server>__<tool>``), else ``None``."""
    if name in _BY_NAME:
        return None
    rest = name.removeprefix("mcp__")
    server, separator, tool = rest.partition("__")
    if not separator or not server or not tool:
        return None
    return server, tool


def codex_tool_spec(name: str) -> ToolSpec | None:
    """The spec of Codex's tool ``name`` (an MCP tool's included), or ``None`` for a name
    cclens does not know."""
    spec = _BY_NAME.get(name)
    if spec is not None:
        return spec
    parts = mcp_name(name)
    if parts is None:
        return None
    server, tool = parts
    return freeform_mcp_spec(name, server, tool, McpCallResult, _first_text)


__all__ = [
    "AGENT",
    "SPECS",
    "AgentToolInput",
    "AgentToolResult",
    "ApplyPatchInput",
    "ApplyPatchResult",
    "ExecCommandInput",
    "FileChange",
    "ImageGenerationInput",
    "ImageGenerationResult",
    "LocalShellInput",
    "McpCallResult",
    "McpResourceInput",
    "PlanStep",
    "ShellCommandInput",
    "ShellInput",
    "ShellResult",
    "ToolSearchInput",
    "ToolSearchResult",
    "UnknownToolInput",
    "UnknownToolResult",
    "UpdatePlanInput",
    "UpdatePlanResult",
    "ViewImageInput",
    "ViewImageResult",
    "WebSearchInput",
    "WebSearchResult",
    "WriteStdinInput",
    "codex_tool_spec",
    "command_line",
    "mcp_name",
    "patch_summary",
]
