"""The tools Gemini CLI gives its model: their inputs, and what a finished call recorded.

A call's input is its ``args``; its result is the recorded call itself
(:class:`~cclens.model.gemini.ToolCallRecord`: ``status``, ``result``, the
``functionResponse`` parts the model was shown, and ``resultDisplay``, what the terminal
showed; a cancelled call's carries ``interrupted: true``, cclens's mark, in ``extra``).
:func:`display_of` types ``resultDisplay``: a string, a :class:`FileDiff` (``write_file``,
``replace``), a :class:`TodoList` (``write_todos``), a :class:`GrepDisplay` (``grep_search``), a
:class:`ListDisplay` (``list_directory``), a :class:`ReadManyDisplay` (``read_many_files``), a
:class:`SubagentProgress` (a subagent's call) or an ANSI screen (a list of lines).

Tool names and parameters come from ``packages/core/src/tools`` of google-gemini/gemini-cli
(``definitions/base-declarations.ts``, ``tool-names.ts`` and each tool's ``*Params``), from 0.1
(mid 2025) to 0.56 (August 2026): the old parameter names are kept beside the new ones
(``read_file``'s ``absolute_path``/``offset``/``limit`` before ``file_path``/``start_line``/
``end_line``, ``path`` and ``directory`` before ``dir_path``, ``read_many_files``' ``paths``
before ``include``), and ``search_file_content`` is ``grep_search``'s old name. An MCP tool is
named ``mcp_<server>_<tool>`` (gemini-cli 0.30 and later; before, the tool's own name).
"""

import functools
import re
from typing import Any, TypeAlias, Union

import msgspec

from .._base import UNSET, Int, Model, Number, Opt
from .._convert import Lenient
from ..gemini.records import ToolCallRecord
from ._spec import ToolSpec, named_spec
from .generic import FreeformInput, UnknownToolResult
from .mcp import freeform_mcp_spec

#: The agent these tools belong to (the key of :mod:`cclens.readers.agents`).
AGENT = "gemini"


class FileFiltering(Model):
    """``file_filtering_options``: whether ``.gitignore`` and ``.geminiignore`` are honoured."""

    respect_git_ignore: Opt[bool] = UNSET
    respect_gemini_ignore: Opt[bool] = UNSET


class ShellInput(Model):
    """``run_shell_command``: a command run by ``bash -c`` (``powershell`` on Windows)."""

    command: Opt[str] = UNSET
    description: Opt[str] = UNSET
    #: Where it ran (``directory`` before gemini-cli 0.12).
    dir_path: Opt[str] = UNSET
    directory: Opt[str] = UNSET
    is_background: Opt[bool] = UNSET
    delay_ms: Opt[Number] = UNSET
    additional_permissions: Any = UNSET


class ReadBackgroundOutputInput(Model):
    """``read_background_output``: the latest output of a background command."""

    pid: Opt[Int] = UNSET
    lines: Opt[Int] = UNSET
    delay_ms: Opt[Number] = UNSET


class ReadFileInput(Model):
    """``read_file``: one file, whole or a range of lines."""

    file_path: Opt[str] = UNSET
    absolute_path: Opt[str] = UNSET
    start_line: Opt[Int] = UNSET
    end_line: Opt[Int] = UNSET
    #: The first line (0-based) and how many (before 0.30).
    offset: Opt[Int] = UNSET
    limit: Opt[Int] = UNSET

    @property
    def path(self) -> str:
        for value in (self.file_path, self.absolute_path):
            if isinstance(value, str) and value:
                return value
        return ""


class ReadManyFilesInput(Model, rename={"use_default_excludes": "useDefaultExcludes"}):
    """``read_many_files``: every file the globs match, concatenated."""

    include: Opt[list[str]] = UNSET
    paths: Opt[list[str]] = UNSET
    exclude: Opt[list[str]] = UNSET
    recursive: Opt[bool] = UNSET
    use_default_excludes: Opt[bool] = UNSET
    respect_git_ignore: Opt[bool] = UNSET
    file_filtering_options: Opt[FileFiltering] = UNSET


class WriteFileInput(Model):
    """``write_file``: a file's whole new content."""

    file_path: Opt[str] = UNSET
    content: Opt[str] = UNSET
    modified_by_user: Opt[bool] = UNSET
    ai_proposed_content: Opt[str] = UNSET


class ReplaceInput(Model):
    """``replace`` (shown as Edit): ``old_string`` replaced by ``new_string`` in a file."""

    file_path: Opt[str] = UNSET
    old_string: Opt[str] = UNSET
    new_string: Opt[str] = UNSET
    instruction: Opt[str] = UNSET
    allow_multiple: Opt[bool] = UNSET
    expected_replacements: Opt[Int] = UNSET
    modified_by_user: Opt[bool] = UNSET
    ai_proposed_content: Opt[str] = UNSET


class GlobInput(Model):
    """``glob`` (shown as FindFiles)."""

    pattern: Opt[str] = UNSET
    dir_path: Opt[str] = UNSET
    path: Opt[str] = UNSET
    case_sensitive: Opt[bool] = UNSET
    respect_git_ignore: Opt[bool] = UNSET
    respect_gemini_ignore: Opt[bool] = UNSET


class GrepInput(Model):
    """``grep_search`` and ``search_file_content`` (shown as SearchText); the ripgrep options
    too."""

    pattern: Opt[str] = UNSET
    dir_path: Opt[str] = UNSET
    path: Opt[str] = UNSET
    include: Opt[str] = UNSET
    include_pattern: Opt[str] = UNSET
    exclude_pattern: Opt[str] = UNSET
    names_only: Opt[bool] = UNSET
    case_sensitive: Opt[bool] = UNSET
    fixed_strings: Opt[bool] = UNSET
    context: Opt[Int] = UNSET
    after: Opt[Int] = UNSET
    before: Opt[Int] = UNSET
    no_ignore: Opt[bool] = UNSET
    max_matches_per_file: Opt[Int] = UNSET
    total_max_matches: Opt[Int] = UNSET


class ListDirectoryInput(Model):
    """``list_directory`` (shown as ReadFolder)."""

    dir_path: Opt[str] = UNSET
    path: Opt[str] = UNSET
    ignore: Opt[list[str]] = UNSET
    respect_git_ignore: Opt[bool] = UNSET
    file_filtering_options: Opt[FileFiltering] = UNSET


class WebFetchInput(Model):
    """``web_fetch``: a prompt naming the URLs (and what to do with them), or one ``url``."""

    prompt: Opt[str] = UNSET
    url: Opt[str] = UNSET


class WebSearchInput(Model):
    """``google_web_search``."""

    query: Opt[str] = UNSET


class SaveMemoryInput(Model):
    """``save_memory``: a fact added to ``GEMINI.md`` (removed in gemini-cli 0.50)."""

    fact: Opt[str] = UNSET
    scope: Opt[str] = UNSET
    modified_by_user: Opt[bool] = UNSET
    modified_content: Opt[str] = UNSET


class QuestionOption(Model):
    label: Opt[str] = UNSET
    description: Opt[str] = UNSET


class Question(Model, rename={"multi_select": "multiSelect"}):
    """One question of ``ask_user``: ``type`` is ``choice``, ``text`` or ``yesno``."""

    question: Opt[str] = UNSET
    header: Opt[str] = UNSET
    type: Opt[str] = UNSET
    options: Opt[list[QuestionOption]] = UNSET
    multi_select: Opt[bool] = UNSET
    placeholder: Opt[str] = UNSET


class AskUserInput(Model):
    """``ask_user``: questions put to the user; the answers are the result
    (``{"answers": {"0": ...}}``, by question index)."""

    questions: Opt[list[Question]] = UNSET


class Todo(Model):
    description: Opt[str] = UNSET
    #: ``pending``, ``in_progress``, ``completed``, ``cancelled`` or ``blocked``.
    status: Opt[str] = UNSET


class WriteTodosInput(Model):
    """``write_todos``: the whole todo list, as it now stands."""

    todos: Opt[list[Todo]] = UNSET


class EnterPlanModeInput(Model):
    reason: Opt[str] = UNSET


class ExitPlanModeInput(Model):
    plan_filename: Opt[str] = UNSET
    plan_path: Opt[str] = UNSET


class ActivateSkillInput(Model):
    name: Opt[str] = UNSET


class InternalDocsInput(Model):
    path: Opt[str] = UNSET


class UpdateTopicInput(Model):
    title: Opt[str] = UNSET
    summary: Opt[str] = UNSET
    strategic_intent: Opt[str] = UNSET


class McpResourceInput(Model, rename={"server_name": "serverName"}):
    """``list_mcp_resources`` (``serverName``) and ``read_mcp_resource`` (``uri``)."""

    server_name: Opt[str] = UNSET
    uri: Opt[str] = UNSET


class SubagentInput(FreeformInput):
    """A call that delegates to a subagent: ``invoke_agent`` (``agent_name``, ``prompt``),
    ``delegate_to_agent``, or a subagent called by its own name (``codebase_investigator``
    with ``objective``, ``cli_help`` with ``question``, ``generalist`` with ``request``...);
    the arguments are the subagent's own."""


class TrackerInput(FreeformInput):
    """The task tracker's tools (``tracker_create_task``, ``tracker_update_task``...)."""


#: The argument that says what a subagent was asked, by the names subagents give it.
SUBAGENT_PROMPT_KEYS = ("prompt", "objective", "request", "question", "query", "task")


# ----------------------------------------------------------------------------------------
# What the terminal showed (``resultDisplay``)


class DiffStat(Model):
    model_added_lines: Opt[Int] = UNSET
    model_removed_lines: Opt[Int] = UNSET
    model_added_chars: Opt[Int] = UNSET
    model_removed_chars: Opt[Int] = UNSET
    user_added_lines: Opt[Int] = UNSET
    user_removed_lines: Opt[Int] = UNSET
    user_added_chars: Opt[Int] = UNSET
    user_removed_chars: Opt[Int] = UNSET


class FileDiff(Model, rename="camel"):
    """A file changed by ``write_file`` or ``replace``: the unified diff and both contents."""

    file_diff: Opt[str] = UNSET
    file_name: Opt[str] = UNSET
    file_path: Opt[str] = UNSET
    original_content: Opt[str] = UNSET
    new_content: Opt[str] = UNSET
    diff_stat: Opt[DiffStat] = UNSET
    is_new_file: Opt[bool] = UNSET


class TodoList(Model):
    todos: Opt[list[Todo]] = UNSET


class GrepMatch(Model, rename="camel"):
    file_path: Opt[str] = UNSET
    absolute_path: Opt[str] = UNSET
    line_number: Opt[Int] = UNSET
    line: Opt[str] = UNSET
    is_context: Opt[bool] = UNSET


class GrepDisplay(Model):
    summary: Opt[str] = UNSET
    matches: Opt[list[GrepMatch]] = UNSET
    payload: Opt[str] = UNSET


class ListDisplay(Model):
    summary: Opt[str] = UNSET
    files: Opt[list[str]] = UNSET
    payload: Opt[str] = UNSET


class SkippedFile(Model):
    path: Opt[str] = UNSET
    reason: Opt[str] = UNSET


class ReadManyDisplay(Model, rename={"target_dir": "targetDir"}):
    summary: Opt[str] = UNSET
    files: Opt[list[str]] = UNSET
    skipped: Opt[list[SkippedFile]] = UNSET
    include: Opt[list[str]] = UNSET
    excludes: Opt[list[str]] = UNSET
    target_dir: Opt[str] = UNSET
    payload: Opt[str] = UNSET


class SubagentActivity(Model, rename="camel"):
    id: Opt[str] = UNSET
    type: Opt[str] = UNSET
    content: Opt[str] = UNSET
    display_name: Opt[str] = UNSET
    description: Opt[str] = UNSET
    args: Opt[str] = UNSET
    status: Opt[str] = UNSET


class SubagentProgress(Model, rename="camel"):
    """What a subagent's call showed while and after it ran."""

    is_subagent_progress: Opt[bool] = UNSET
    agent_name: Opt[str] = UNSET
    recent_activity: Opt[list[SubagentActivity]] = UNSET
    state: Opt[str] = UNSET
    result: Opt[str] = UNSET
    terminate_reason: Opt[str] = UNSET


class AnsiScreen(Model):
    """A terminal screen (``AnsiOutput``: lines of styled tokens) a command left."""

    lines: list[Any] = msgspec.field(default_factory=list)

    @property
    def text(self) -> str:
        rows: list[str] = []
        for line in self.lines:
            tokens = line if isinstance(line, list) else []
            rows.append(
                "".join(
                    token.get("text", "")
                    for token in tokens
                    if isinstance(token, dict) and isinstance(token.get("text"), str)
                )
            )
        return "\n".join(rows).rstrip("\n")


Display: TypeAlias = Union[  # noqa: UP007
    str,
    FileDiff,
    TodoList,
    GrepDisplay,
    ListDisplay,
    ReadManyDisplay,
    SubagentProgress,
    AnsiScreen,
    UnknownToolResult,
]


def _lenient(type_: type[Model]) -> Lenient[Any]:
    return Lenient(type_, lambda raw: UnknownToolResult(raw=raw))


_FILE_DIFF = _lenient(FileDiff)
_TODOS = _lenient(TodoList)
_GREP = _lenient(GrepDisplay)
_LIST = _lenient(ListDisplay)
_READ_MANY = _lenient(ReadManyDisplay)
_SUBAGENT = _lenient(SubagentProgress)


def display_of(raw: Any) -> Display | None:
    """``resultDisplay`` typed by its shape, told apart as gemini-cli tells it (``isFileDiff``,
    ``isTodoList``, ``isGrepResult``, ``isReadManyFilesResult``, ``isListResult``,
    ``isSubagentProgress``); ``None`` when absent or null."""
    if raw is None or raw is UNSET:
        return None
    if isinstance(raw, str):
        return raw
    if isinstance(raw, list):
        return AnsiScreen(lines=raw)
    if not isinstance(raw, dict):
        return UnknownToolResult(raw=raw)
    decoder: Lenient[Any] | None = None
    if "fileDiff" in raw:
        decoder = _FILE_DIFF
    elif raw.get("isSubagentProgress") is True:
        decoder = _SUBAGENT
    elif isinstance(raw.get("todos"), list):
        decoder = _TODOS
    elif isinstance(raw.get("matches"), list):
        decoder = _GREP
    elif isinstance(raw.get("files"), list):
        decoder = _READ_MANY if "include" in raw else _LIST
    if decoder is None:
        return UnknownToolResult(raw=raw)
    value: Display = decoder.convert(raw).value
    return value


# ----------------------------------------------------------------------------------------
# The catalogue


_spec = functools.partial(named_spec, result_type=ToolCallRecord)


#: Every built-in tool of Gemini CLI cclens knows (``ALL_BUILTIN_TOOL_NAMES`` and the tools
#: removed since), by its name and the names it had.
SPECS: tuple[ToolSpec, ...] = (
    _spec(
        "run_shell_command",
        ShellInput,
        "Run a shell command",
        "shell",
        summary=("description", "command"),
    ),
    _spec(
        "read_background_output",
        ReadBackgroundOutputInput,
        "Read what a background command printed",
        "shell",
    ),
    _spec(
        "list_background_processes",
        FreeformInput,
        "List the commands running in the background",
        "shell",
    ),
    _spec(
        "read_file", ReadFileInput, "Read a file", "files", summary=("file_path", "absolute_path")
    ),
    _spec("read_many_files", ReadManyFilesInput, "Read every file some globs match", "files"),
    _spec(
        "write_file",
        WriteFileInput,
        "Write a file's whole content",
        "files",
        summary=("file_path",),
    ),
    _spec("replace", ReplaceInput, "Replace text in a file", "files", summary=("file_path",)),
    _spec(
        "list_directory",
        ListDirectoryInput,
        "List a directory",
        "files",
        summary=("dir_path", "path"),
    ),
    _spec("glob", GlobInput, "Find files by glob pattern", "search", summary=("pattern",)),
    _spec(
        "grep_search",
        GrepInput,
        "Search file contents",
        "search",
        "search_file_content",
        summary=("pattern",),
    ),
    _spec(
        "web_fetch",
        WebFetchInput,
        "Fetch web pages and answer a prompt about them",
        "web",
        summary=("url", "prompt"),
    ),
    _spec(
        "google_web_search", WebSearchInput, "Search the web with Google", "web", summary=("query",)
    ),
    _spec(
        "save_memory", SaveMemoryInput, "Remember a fact in GEMINI.md", "other", summary=("fact",)
    ),
    _spec("write_todos", WriteTodosInput, "Write the todo list", "tasks"),
    _spec("ask_user", AskUserInput, "Ask the user questions", "interaction"),
    _spec("enter_plan_mode", EnterPlanModeInput, "Enter plan mode", "plans", summary=("reason",)),
    _spec(
        "exit_plan_mode",
        ExitPlanModeInput,
        "Leave plan mode with a plan",
        "plans",
        summary=("plan_filename", "plan_path"),
    ),
    _spec("activate_skill", ActivateSkillInput, "Load a skill", "agents", summary=("name",)),
    _spec(
        "get_internal_docs",
        InternalDocsInput,
        "Read Gemini CLI's own documentation",
        "other",
        summary=("path",),
    ),
    _spec(
        "update_topic",
        UpdateTopicInput,
        "Say what the session is working on",
        "other",
        summary=("title", "summary"),
    ),
    _spec("complete_task", FreeformInput, "Finish a subagent's task with its result", "agents"),
    _spec(
        "list_mcp_resources",
        McpResourceInput,
        "List the resources of MCP servers",
        "mcp",
        summary=("server_name",),
    ),
    _spec(
        "read_mcp_resource",
        McpResourceInput,
        "Read a resource of an MCP server",
        "mcp",
        summary=("uri",),
    ),
    _spec(
        "tracker_create_task",
        TrackerInput,
        "Create a task in the tracker",
        "tasks",
        summary=("title", "id"),
    ),
    _spec(
        "tracker_update_task",
        TrackerInput,
        "Update a task in the tracker",
        "tasks",
        summary=("title", "id"),
    ),
    _spec(
        "tracker_get_task",
        TrackerInput,
        "Show a task of the tracker",
        "tasks",
        summary=("title", "id"),
    ),
    _spec("tracker_list_tasks", TrackerInput, "List the tracker's tasks", "tasks"),
    _spec(
        "tracker_add_dependency",
        TrackerInput,
        "Make a task depend on another",
        "tasks",
        summary=("taskId",),
    ),
    _spec("tracker_visualize", TrackerInput, "Draw the tracker's tasks", "tasks"),
    _spec(
        "invoke_agent",
        SubagentInput,
        "Run a subagent",
        "agents",
        "delegate_to_agent",
        # The subagents gemini-cli ships, each once a tool of its own name.
        "codebase_investigator",
        "cli_help",
        "generalist",
        "browser_agent",
        spawns=True,
    ),
)

_BY_NAME: dict[str, ToolSpec] = {name: spec for spec in SPECS for name in spec.names}
_MCP = re.compile(r"^mcp_([^_]+)_(.+)$")


def gemini_tool_spec(name: str) -> ToolSpec | None:
    """The spec of Gemini CLI's tool ``name``: a built-in tool (the subagents gemini-cli ships
    are aliases of ``invoke_agent``; one a user defined is a tool of its own name, unknown
    here), or an MCP tool (``mcp_<server>_<tool>``); ``None`` for a name cclens does not
    know."""
    spec = _BY_NAME.get(name)
    if spec is not None:
        return spec
    match = _MCP.match(name)
    if match is None:
        return None
    server, tool = match.groups()
    return freeform_mcp_spec(name, server, tool, ToolCallRecord)


__all__ = [
    "AGENT",
    "SPECS",
    "SUBAGENT_PROMPT_KEYS",
    "ActivateSkillInput",
    "AnsiScreen",
    "AskUserInput",
    "DiffStat",
    "Display",
    "EnterPlanModeInput",
    "ExitPlanModeInput",
    "FileDiff",
    "FileFiltering",
    "GlobInput",
    "GrepDisplay",
    "GrepInput",
    "GrepMatch",
    "InternalDocsInput",
    "ListDirectoryInput",
    "ListDisplay",
    "McpResourceInput",
    "Question",
    "QuestionOption",
    "ReadBackgroundOutputInput",
    "ReadFileInput",
    "ReadManyDisplay",
    "ReadManyFilesInput",
    "ReplaceInput",
    "SaveMemoryInput",
    "ShellInput",
    "SkippedFile",
    "SubagentActivity",
    "SubagentInput",
    "SubagentProgress",
    "Todo",
    "TodoList",
    "TrackerInput",
    "UpdateTopicInput",
    "WebFetchInput",
    "WebSearchInput",
    "WriteFileInput",
    "WriteTodosInput",
    "display_of",
    "gemini_tool_spec",
]
