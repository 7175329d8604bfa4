"""Views of GitHub Copilot CLI's tools, drawn by the templates of the Claude Code tools of their
kind: ``bash``/``powershell`` as Bash, ``view`` as Read, ``create`` as Write, ``edit`` as Edit
(a diff), ``glob`` and ``grep`` as Glob and Grep, ``web_fetch``/``web_search`` as WebFetch and
WebSearch, ``update_todo`` as TodoWrite, ``task`` as Agent, ``ask_user`` as AskUserQuestion.

A call's input is typed by :mod:`cclens.model.tools.copilot`; its result (``call.result``) is
the ``tool.execution_complete`` data: ``result.content`` is what the model read,
``result.detailedContent`` what the terminal showed.
"""

from __future__ import annotations

from collections.abc import Callable

from msgspec.structs import replace

from ...model.copilot import ToolCompleteData, ToolResult
from ...model.session import ToolCall
from ...model.tools import copilot
from ..prepared import Code, Diff, PreparedView
from ..views import ViewHelpers
from ._common import (
    Common,
    Fields,
    FieldsView,
    as_type,
    base,
    fields_base,
    first_line,
    link,
    list_of,
    said,
    text_of,
)
from .agents import AgentView, prepare_input_fields, prompt_folded
from .files import EditView, ReadView, WriteView, file_code
from .interaction import Choice, Question, QuestionsView
from .search import GlobView, GrepView, grep_lines, matcher
from .shell import ShellView
from .tasks import TodoView, todo_row, todo_view
from .web import WebFetchView, WebSearchView


def _outcome(call: ToolCall) -> ToolCompleteData | None:
    return as_type(call.result, ToolCompleteData)


def _content(call: ToolCall) -> str:
    """What the model read of the result (``result.content``), else the result text."""
    outcome = _outcome(call)
    result = as_type(outcome.result, ToolResult) if outcome else None
    return text_of(result.content) if result else call.result_text


def _ok(call: ToolCall, v: Common) -> bool:
    return v["error"] is None and call.status == "ok"


def prepare_shell(call: ToolCall, h: ViewHelpers) -> ShellView:
    """``bash``/``powershell``: the command, its output and exit code, and the shell session
    it ran in (a command left running there is read by ``read_bash``)."""
    v = base(call)
    request = as_type(call.input, copilot.ShellInput)
    command = text_of(request.command) if request else ""
    description = text_of(request.description) if request else ""
    badges: list[tuple[str, str]] = []
    stdout = ""
    code: int | None = None
    if _ok(call, v):
        stdout, code = copilot.shell_exit(_content(call))
    elif v["error"]:
        v["error"], code = copilot.shell_exit(v["error"])
    if code is not None:
        badges.append((f"exit code {code}", "error" if code else "ok"))
    task_id = ""
    if request is not None:
        if request.mode == "async":
            badges.append(("asynchronous", "info"))
            task_id = text_of(request.shell_id) or text_of(request.session_id)
        if request.detach is True:
            badges.append(("detached", "info"))
    v["r"] = _outcome(call) if _ok(call, v) else None
    return ShellView(
        **v,
        command=command,
        description=description,
        language="powershell" if call.name == "powershell" else "bash",
        badges=badges,
        task_id=task_id,
        stdout=stdout,
        said=said(call, v),
        summary=description or first_line(command),
    )


def prepare_shell_session(call: ToolCall, h: ViewHelpers) -> FieldsView:
    """``read_bash``, ``write_bash``, ``stop_bash``, ``list_bash`` (and ``powershell``'s): the
    session, what was typed, what it printed since and whether it ended."""
    v = fields_base(call)
    request = as_type(call.input, copilot.ShellSessionInput)
    shell = (text_of(request.shell_id) or text_of(request.session_id)) if request else ""
    asked = Fields()
    if request is not None:
        asked.add("Typed", request.input, "code").add("Waited (s)", request.delay)
    ok = _ok(call, v)
    output, code = copilot.shell_exit(_content(call)) if ok else ("", None)
    v["said"] = output
    v["r"] = _outcome(call) if ok and code is not None else None
    return FieldsView(
        **v,
        lead=f"Shell session {shell}" if shell else "",
        lead_code=False,
        asked=asked.rows,
        outcome=f"Exited with code {code}" if code is not None else "",
        badges=[(f"exit code {code}", "error" if code else "ok")] if code is not None else [],
        summary=shell,
    )


def _range(request: copilot.ViewInput | copilot.StrReplaceEditorInput | None) -> str:
    bounds = list_of(request.view_range if request else None)
    if len(bounds) == 2 and all(isinstance(b, int) for b in bounds):
        return f"Lines {bounds[0]}–{'end' if bounds[1] == -1 else bounds[1]}"
    return ""


def prepare_view(call: ToolCall, h: ViewHelpers) -> ReadView:
    """``view``: a file's lines, numbered as Copilot numbered them, or a directory's listing."""
    v = base(call)
    request = as_type(call.input, copilot.ViewInput) or as_type(
        call.input, copilot.StrReplaceEditorInput
    )
    path = text_of(request.path) if request else ""
    code: Code | None = None
    notes: list[str] = []
    if _ok(call, v):
        text = _content(call)
        numbered = copilot.numbered_lines(text)
        if numbered is not None:
            code = file_code(numbered[0], path, numbered[1])
        elif text.strip():
            notes = [text] if "\n" not in text.strip() else []
            code = None if notes else file_code(text, "")
    return ReadView(**v, path=path, range=_range(request), code=code, notes=notes, summary=path)


def prepare_create(call: ToolCall, h: ViewHelpers) -> WriteView:
    """``create``: the new file and its content."""
    v = base(call)
    request = as_type(call.input, copilot.CreateInput) or as_type(
        call.input, copilot.StrReplaceEditorInput
    )
    path = text_of(request.path) if request else ""
    content = text_of(request.file_text) if request else ""
    return WriteView(
        **v,
        path=path,
        kind="create",
        code=file_code(content, path),
        applied=call.status == "ok",
        badges=[("created", "ok")] if call.status == "ok" else [],
        summary=path,
    )


def prepare_edit(call: ToolCall, h: ViewHelpers) -> EditView:
    """``edit`` (``str_replace``, ``insert``): the replacement as a diff."""
    v = base(call)
    request = as_type(call.input, copilot.EditInput) or as_type(
        call.input, copilot.StrReplaceEditorInput
    )
    path = text_of(request.path) if request else ""
    old = text_of(request.old_str) if request else ""
    new = text_of(request.new_str) if request else ""
    badges: list[tuple[str, str]] = []
    if isinstance(request, copilot.StrReplaceEditorInput) and request.command == "insert":
        badges.append((f"inserted after line {request.insert_line}", "info"))
    return EditView(
        **v,
        path=path,
        diff=Diff(None, old=old, new=new, filename=path),
        applied=call.status == "ok",
        badges=badges,
        summary=path,
    )


#: How ``str_replace_editor`` draws each of its commands: (prepare, template).
_EDITOR: dict[str, tuple[Callable[[ToolCall, ViewHelpers], PreparedView], str]] = {
    "view": (prepare_view, "read"),
    "create": (prepare_create, "write"),
    "str_replace": (prepare_edit, "edit"),
    "insert": (prepare_edit, "edit"),
}


def prepare_str_replace_editor(call: ToolCall, h: ViewHelpers) -> PreparedView:
    """``str_replace_editor`` (Copilot CLI 0.0.3xx): drawn as ``view``, ``create`` or ``edit``
    by its ``command`` (``template``: which), its other commands as their arguments."""
    request = as_type(call.input, copilot.StrReplaceEditorInput)
    command = text_of(request.command) if request else ""
    prepare, template = _EDITOR.get(command, (prepare_arguments, "fields"))
    return replace(prepare(call, h), template=f"tools/{template}.html")


def prepare_glob(call: ToolCall, h: ViewHelpers) -> GlobView:
    """``glob``: the pattern and the files it matched."""
    v = base(call)
    request = as_type(call.input, copilot.GlobInput)
    text = _content(call) if _ok(call, v) else ""
    files = [line for line in text.split("\n") if line.strip() and not line.startswith("No files")]
    v["r"] = _outcome(call) if _ok(call, v) else None
    return GlobView(
        **v,
        pattern=text_of(request.pattern) if request else "",
        path=text_of(request.path) if request else "",
        files=files,
        count=len(files),
        summary=text_of(request.pattern) if request else "",
    )


def prepare_grep(call: ToolCall, h: ViewHelpers) -> GrepView:
    """``grep``: the search, then ripgrep's files, counts or matching lines with the matches
    marked."""
    v = base(call)
    request = as_type(call.input, copilot.GrepInput)
    pattern_text = text_of(request.pattern) if request else ""
    options = Fields()
    mode = ""
    if request is not None:
        paths = [p for p in list_of(request.paths) if isinstance(p, str)]
        options.add("In", text_of(request.path) or ", ".join(paths), "code")
        options.add("Only files", request.glob, "code").add("Type", request.type, "code")
        mode = text_of(request.output_mode)
        options.add("Mode", mode).add("Ignore case", request.ignore_case)
        options.add("Context", request.context).add("Before", request.before)
        options.add("After", request.after).add("At most", request.head_limit)
    text = _content(call) if _ok(call, v) else ""
    pattern = matcher(
        pattern_text, bool(request and request.ignore_case), bool(request and request.multiline)
    )
    lines = []
    files: list[str] = []
    counts: list[tuple[str, str]] = []
    rows = [line for line in text.split("\n") if line.strip()] if text else []
    if mode == "files_with_matches" or (not mode and rows and all(":" not in r for r in rows)):
        files = rows
    elif mode == "count":
        counts = [(r.rpartition(":")[0], r.rpartition(":")[2]) for r in rows]
    elif rows:
        lines = grep_lines(text.rstrip("\n"), pattern)
    v["r"] = _outcome(call) if _ok(call, v) else None
    return GrepView(
        **v,
        pattern=pattern_text,
        options=options.rows,
        counts=counts,
        lines=lines,
        files=files,
        empty=not rows,
        summary=pattern_text,
    )


def prepare_web_fetch(call: ToolCall, h: ViewHelpers) -> WebFetchView:
    """``web_fetch``: the URL and the page as Copilot gave it to the model (markdown)."""
    v = base(call)
    request = as_type(call.input, copilot.WebFetchInput)
    url = text_of(request.url) if request else ""
    answer = _content(call) if _ok(call, v) else ""
    v["r"] = _outcome(call) if answer else None
    got = Fields()
    if request is not None:
        got.add("At most", request.max_length).add("As fetched", request.raw)
    return WebFetchView(
        **v,
        url=url,
        href=link(url) if url else None,
        offset=request.start_index if request and request.start_index else None,
        got=got.rows,
        answer=answer,
        summary=url,
    )


def prepare_web_search(call: ToolCall, h: ViewHelpers) -> WebSearchView:
    """``web_search``: the query and the answer."""
    v = base(call)
    request = as_type(call.input, copilot.WebSearchInput)
    answer = _content(call) if _ok(call, v) else ""
    return WebSearchView(
        **v,
        query=text_of(request.query) if request else "",
        answers=[answer] if answer else [],
        answered=bool(answer),
        summary=text_of(request.query) if request else "",
    )


def prepare_update_todo(call: ToolCall, h: ViewHelpers) -> TodoView:
    """``update_todo``: the markdown checklist as a checklist."""
    v = base(call)
    request = as_type(call.input, copilot.UpdateTodoInput)
    items = copilot.checklist(text_of(request.todos) if request else "")
    rows = [todo_row(status, text) for status, text in items]
    v["r"] = _outcome(call) if _ok(call, v) else None
    return todo_view(v, rows, len(rows))


def prepare_task(call: ToolCall, h: ViewHelpers) -> AgentView:
    """``task``: the subagent, its prompt, its own conversation under the call and its answer."""
    v = base(call)
    request = as_type(call.input, copilot.TaskInput)
    prompt = text_of(request.prompt) if request else ""
    description = text_of(request.description) if request else ""
    asked = Fields()
    if request is not None:
        asked.add("Agent type", request.agent_type, "code").add("Name", request.name, "code")
        asked.add("Model", request.model, "code").add("Mode", request.mode)
    answer = _content(call) if _ok(call, v) else ""
    v["r"] = _outcome(call) if answer else None
    return AgentView(
        **v,
        description=description,
        prompt=prompt,
        prompt_folded=prompt_folded(prompt),
        asked=asked.rows,
        state="async" if request is not None and request.mode == "background" else "",
        task_id=text_of(request.name) if request else "",
        answer=answer,
        subagents=call.subagents,
        summary=description or first_line(prompt),
    )


def prepare_ask_user(call: ToolCall, h: ViewHelpers) -> QuestionsView:
    """``ask_user``: the question, its choices, and the user's answer."""
    v = base(call)
    request = as_type(call.input, copilot.AskUserInput)
    answer = _content(call) if _ok(call, v) else ""
    choices = [c for c in list_of(request.choices if request else None) if isinstance(c, str)]
    chosen = next((c for c in choices if c and c in answer), "")
    question = text_of(request.question) if request else ""
    options = [Choice(c, chosen=c == chosen) for c in choices]
    return QuestionsView(
        **v,
        questions=[Question(question, options, answered=bool(answer))],
        response=answer,
        answered=bool(answer),
        summary=question,
    )


def prepare_sql(call: ToolCall, h: ViewHelpers) -> FieldsView:
    """``sql``: the query on the session's own tables and its rows."""
    v = fields_base(call)
    request = as_type(call.input, copilot.SqlInput)
    asked = Fields()
    if request is not None:
        asked.add("Query", Code(text_of(request.query), language="sql"))
    return FieldsView(
        **v,
        lead=text_of(request.description) if request else "",
        lead_code=False,
        asked=asked.rows,
    )


def prepare_arguments(call: ToolCall, h: ViewHelpers) -> FieldsView:
    """A tool drawn as its arguments by name, and what it answered (``report_intent``,
    ``skill``, ``store_memory``, the agent tools...)."""
    v = prepare_input_fields(call, h)
    if v.said and _outcome(call) is not None:
        return replace(v, said=_content(call))
    return v


__all__ = [
    "prepare_arguments",
    "prepare_ask_user",
    "prepare_create",
    "prepare_edit",
    "prepare_glob",
    "prepare_grep",
    "prepare_shell",
    "prepare_shell_session",
    "prepare_sql",
    "prepare_str_replace_editor",
    "prepare_task",
    "prepare_update_todo",
    "prepare_view",
    "prepare_web_fetch",
    "prepare_web_search",
]
