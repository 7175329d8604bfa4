"""Views of Gemini CLI's tools, drawn by the same templates as Claude Code's tools of the same
kind: ``run_shell_command`` as Bash, ``read_file`` as Read, ``write_file`` as Write,
``replace`` as Edit (a diff), ``glob`` and ``read_many_files`` as Glob, ``grep_search`` as Grep,
``list_directory`` as LS, ``web_fetch`` and ``google_web_search`` as WebFetch and WebSearch,
``write_todos`` as TodoWrite, ``ask_user`` as AskUserQuestion, a subagent's call as Agent.

A call's input is typed by :mod:`cclens.model.tools.gemini`; its result is the recorded call
(``call.result``, with ``resultDisplay`` typed by ``call.display``) and the text the model was
shown (``call.result_text``), read back into its parts by :mod:`cclens.model.gemini.outputs`.
"""

from __future__ import annotations

import re
from typing import Any

from msgspec.structs import replace

from ...model import UNSET
from ...model.gemini import outputs
from ...model.gemini.records import Part, ToolCallRecord, content_parts
from ...model.session import ToolCall
from ...model.tools import FreeformInput, gemini
from ..prepared import Diff, Image
from ..views import ViewHelpers
from ._common import (
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
from .files import EditView, ListingView, ReadView, WriteView, file_code
from .interaction import Choice, Question, QuestionsView
from .search import GlobView, GrepLine, GrepView, marked, matcher
from .shell import ShellView
from .tasks import TodoView, todo_row, todo_view
from .web import SearchLink, WebFetchView, WebSearchView

_URL = re.compile(r"https?://[^\s<>\"'`)\]]+")


def _display(call: ToolCall) -> Any:
    """What the terminal showed of the call's result (``resultDisplay``), typed."""
    record = call.result
    return gemini.display_of(record.result_display) if isinstance(record, ToolCallRecord) else None


def _images(call: ToolCall) -> list[Image]:
    """The images a call's recorded result holds (``inlineData`` parts: an image read)."""
    record = call.result
    found: list[Image] = []
    for part in content_parts(getattr(record, "result", None)):
        if isinstance(part, Part) and part.inline_data not in (None, UNSET):
            data = part.inline_data
            mime = text_of(getattr(data, "mime_type", None))
            if mime.startswith("image/") and text_of(getattr(data, "data", None)):
                found.append(Image(text_of(data.data), mime))
    return found


def prepare_shell(call: ToolCall, h: ViewHelpers) -> ShellView:
    """``run_shell_command``: the command, what it printed and how it ended (exit code,
    signal, background processes), from the result text gemini-cli gave the model."""
    v = base(call)
    request = as_type(call.input, gemini.ShellInput)
    command = text_of(request.command) if request else ""
    description = text_of(request.description) if request else ""
    parsed = outputs.shell_output(call.result_text) if call.result_block is not None else None
    badges: list[tuple[str, str]] = []
    notes: list[str] = []
    stdout = stderr = ""
    if request is not None:
        where = text_of(request.dir_path) or text_of(request.directory)
        if where:
            notes.append(f"In {where}")
        if request.is_background is True:
            badges.append(("in the background", "info"))
    if parsed is not None:
        stdout, stderr = parsed.output, parsed.stderr
        if parsed.exit_code is not None:
            badges.append((f"exit code {parsed.exit_code}", "error" if parsed.exit_code else "ok"))
        if parsed.signal:
            badges.append((f"signal {parsed.signal}", "warn"))
        if parsed.error:
            stderr = "\n".join(part for part in (stderr, parsed.error) if part)
        if parsed.background_pids:
            notes.append(f"Left running in the background: {parsed.background_pids}")
    elif v["error"] is None and call.result_block is not None:
        display = _display(call)
        stdout = display if isinstance(display, str) and display else call.result_text
        if isinstance(display, gemini.AnsiScreen):
            stdout = display.text
    v["r"] = parsed if parsed is not None else (True if stdout else None)
    return ShellView(
        **v,
        command=command,
        description=description,
        badges=badges,
        stdout=stdout,
        stderr=stderr,
        notes=notes,
        said=said(call, v),
        summary=description or first_line(command),
    )


def prepare_read_file(call: ToolCall, h: ViewHelpers) -> ReadView:
    """``read_file``: the lines read, numbered from where the read started, or the image."""
    v = base(call)
    request = as_type(call.input, gemini.ReadFileInput)
    path = request.path if request else ""
    asked = Fields()
    start = 1
    if request is not None:
        first = request.start_line if isinstance(request.start_line, int) else None
        offset = request.offset if isinstance(request.offset, int) else None
        start = first or ((offset + 1) if offset is not None else 1)
        asked.add("To line", request.end_line).add("Lines", request.limit)
    images = _images(call)
    range_ = ""
    code = None
    ok = v["error"] is None and call.result_block is not None and call.status == "ok"
    if ok and not images:
        text = outputs.file_text(call.result_text)
        if text.total is not None:
            start = text.start
            range_ = f"Lines {text.start}–{text.end} of {text.total}"
        code = file_code(text.content, path, start)
    return ReadView(
        **v,
        path=path,
        asked=asked.rows,
        range=range_,
        code=code,
        image=images[0] if images else None,
        summary=path,
    )


def prepare_read_many_files(call: ToolCall, h: ViewHelpers) -> GlobView:
    """``read_many_files``: the globs, the files read and those skipped (the content the model
    read is under the result)."""
    v = base(call)
    request = as_type(call.input, gemini.ReadManyFilesInput)
    display = as_type(_display(call), gemini.ReadManyDisplay)
    include = list_of(request.include if request else None) or list_of(
        request.paths if request else None
    )
    patterns = [p for p in include if isinstance(p, str)]
    files = [f for f in list_of(display.files if display else None) if isinstance(f, str)]
    notes: list[str] = []
    excluded = [e for e in list_of(request.exclude if request else None) if isinstance(e, str)]
    if excluded:
        notes.append("Excluding " + ", ".join(excluded))
    for skipped in list_of(display.skipped if display else None):
        if isinstance(skipped, gemini.SkippedFile):
            notes.append(f"Skipped {text_of(skipped.path)}: {text_of(skipped.reason)}")
    v["r"] = display
    return GlobView(
        **v,
        pattern=", ".join(patterns),
        path=text_of(display.target_dir) if display else "",
        files=files,
        count=len(files),
        notes=notes,
        summary=", ".join(patterns),
    )


def _file_diff(call: ToolCall) -> gemini.FileDiff | None:
    return as_type(_display(call), gemini.FileDiff)


def prepare_write_file(call: ToolCall, h: ViewHelpers) -> WriteView:
    """``write_file``: a new file's content, or the diff of the file it overwrote."""
    v = base(call)
    request = as_type(call.input, gemini.WriteFileInput)
    change = _file_diff(call)
    path = (text_of(request.file_path) if request else "") or (
        text_of(change.file_path) if change else ""
    )
    content = (text_of(change.new_content) if change else "") or (
        text_of(request.content) if request else ""
    )
    created = change.is_new_file is True if change else "created" in call.result_text[:80]
    original = text_of(change.original_content) if change else ""
    diff = None
    if not created and original:
        diff = Diff(None, old=original, new=content, filename=path)
    badges = [("created", "ok")] if created else ([("overwritten", "info")] if diff else [])
    if request is not None and request.modified_by_user is True:
        badges.append(("modified by the user before it was applied", "warn"))
    return WriteView(
        **v,
        path=path,
        kind="create" if created else "update",
        diff=diff,
        code=None if diff is not None else file_code(content, path),
        applied=call.status == "ok",
        badges=badges,
        summary=path,
    )


def prepare_replace(call: ToolCall, h: ViewHelpers) -> EditView:
    """``replace``: the replacement as a diff, in the whole file when gemini-cli recorded it
    (so lines carry the file's numbers), else between the two strings."""
    v = base(call)
    request = as_type(call.input, gemini.ReplaceInput)
    change = _file_diff(call)
    path = (text_of(request.file_path) if request else "") or (
        text_of(change.file_path) if change else ""
    )
    badges: list[tuple[str, str]] = []
    old = new = ""
    if request is not None:
        old, new = text_of(request.old_string), text_of(request.new_string)
        if request.allow_multiple is True:
            badges.append(("every occurrence", "info"))
        if isinstance(request.expected_replacements, int) and request.expected_replacements > 1:
            badges.append((f"{request.expected_replacements} occurrences", "info"))
        if request.modified_by_user is True:
            badges.append(("modified by the user before it was applied", "warn"))
    original = text_of(change.original_content) if change else ""
    updated = text_of(change.new_content) if change else ""
    if change is not None and (original or updated):
        diff = Diff(None, old=original, new=updated, filename=path)
    else:
        diff = Diff(None, old=old, new=new, filename=path)
    instruction = text_of(request.instruction) if request else ""
    return EditView(
        **v,
        path=path,
        diff=diff,
        applied=call.status == "ok",
        badges=badges,
        instruction=instruction,
        summary=path,
    )


def prepare_glob(call: ToolCall, h: ViewHelpers) -> GlobView:
    """``glob``: the pattern and the files it matched, newest first."""
    v = base(call)
    request = as_type(call.input, gemini.GlobInput)
    pattern = text_of(request.pattern) if request else ""
    files = outputs.found_files(call.result_text) if v["error"] is None else None
    notes = [] if files is not None or v["error"] else [first_line(call.result_text)]
    v["r"] = files
    return GlobView(
        **v,
        pattern=pattern,
        path=(text_of(request.dir_path) or text_of(request.path)) if request else "",
        files=files or [],
        count=len(files or []),
        notes=notes,
        summary=pattern,
    )


def prepare_grep(call: ToolCall, h: ViewHelpers) -> GrepView:
    """``grep_search`` (``search_file_content``): the search, then the matching lines by
    file with the pattern's matches marked."""
    v = base(call)
    request = as_type(call.input, gemini.GrepInput)
    pattern_text = text_of(request.pattern) if request else ""
    options = Fields()
    ignore_case = False
    if request is not None:
        options.add("In", text_of(request.dir_path) or text_of(request.path), "code")
        options.add("Only files", text_of(request.include_pattern) or text_of(request.include))
        options.add("Not files", request.exclude_pattern, "code")
        options.add("Fixed strings", request.fixed_strings).add(
            "Case sensitive", request.case_sensitive
        )
        options.add("Context", request.context).add("Before", request.before)
        options.add("After", request.after).add("Names only", request.names_only)
        options.add("At most per file", request.max_matches_per_file)
        options.add("At most", request.total_max_matches)
        ignore_case = request.case_sensitive is not True
    fixed = bool(request and request.fixed_strings is True)
    pattern = matcher(re.escape(pattern_text) if fixed else pattern_text, ignore_case, False)
    lines: list[GrepLine] = []
    got = Fields()
    display = as_type(_display(call), gemini.GrepDisplay)
    rows: list[tuple[str, int, str, bool]] = []
    heading = ""
    if display is not None and list_of(display.matches):
        heading = text_of(display.summary)
        for match in list_of(display.matches):
            if isinstance(match, gemini.GrepMatch):
                rows.append(
                    (
                        text_of(match.file_path),
                        match.line_number if isinstance(match.line_number, int) else 0,
                        text_of(match.line),
                        match.is_context is True,
                    )
                )
    elif v["error"] is None:
        parsed = outputs.grep_text(call.result_text)
        if parsed is not None:
            heading, rows = parsed.heading, parsed.lines
    last = ""
    for file, number, text, context in rows:
        lines.append(
            GrepLine(
                parts=marked(text, None if context else pattern),
                number=str(number) if number else "",
                file=file,
                context=context,
                new_file=file != last,
            )
        )
        last = file
    got.add("Found", heading)
    v["r"] = display if display is not None else (rows or None)
    return GrepView(
        **v,
        pattern=pattern_text,
        options=options.rows,
        got=got.rows,
        lines=lines,
        empty=not lines,
        summary=pattern_text,
    )


def prepare_list_directory(call: ToolCall, h: ViewHelpers) -> ListingView:
    """``list_directory``: the directory and its entries (folders first)."""
    v = base(call)
    request = as_type(call.input, gemini.ListDirectoryInput)
    path = (text_of(request.dir_path) or text_of(request.path)) if request else ""
    tree = ""
    if v["error"] is None and call.result_block is not None:
        listing = outputs.directory_listing(call.result_text)
        if listing is not None:
            path = path or listing[0]
            tree = "\n".join(
                entry.removeprefix("[DIR] ") + "/" if entry.startswith("[DIR] ") else entry
                for entry in listing[1]
            )
        else:
            tree = call.result_text
    return ListingView(
        **v,
        path=path,
        ignore=[p for p in list_of(request.ignore if request else None) if isinstance(p, str)],
        tree=tree,
        summary=path,
    )


def prepare_web_fetch(call: ToolCall, h: ViewHelpers) -> WebFetchView:
    """``web_fetch``: the URL (its own argument, else the first the prompt names), the prompt
    and the answer as markdown."""
    v = base(call)
    request = as_type(call.input, gemini.WebFetchInput)
    prompt = text_of(request.prompt) if request else ""
    url = text_of(request.url) if request else ""
    if not url:
        found = _URL.search(prompt)
        url = found.group(0) if found else ""
    answer = call.result_text if v["error"] is None and call.status == "ok" else ""
    v["r"] = True if answer else None
    return WebFetchView(
        **v,
        url=url,
        href=link(url) if url else None,
        prompt=prompt,
        answer=answer,
        summary=url or first_line(prompt),
    )


def prepare_web_search(call: ToolCall, h: ViewHelpers) -> WebSearchView:
    """``google_web_search``: the query, the grounded answer and its numbered sources."""
    v = base(call)
    request = as_type(call.input, gemini.WebSearchInput)
    query = text_of(request.query) if request else ""
    links: list[SearchLink] = []
    notes: list[str] = []
    answered = v["error"] is None and call.status == "ok" and bool(call.result_text)
    if answered:
        found = outputs.search_answer(call.result_text)
        notes = [found.answer] if found.answer.strip() else []
        links = [
            SearchLink(
                link(url, f"[{number}] {title}") if url else None, f"[{number}] {title}", url
            )
            for number, title, url in found.sources
        ]
    return WebSearchView(
        **v, query=query, links=links, answers=notes, answered=answered, summary=query
    )


def prepare_save_memory(call: ToolCall, h: ViewHelpers) -> FieldsView:
    """``save_memory``: the fact remembered, and where."""
    v = fields_base(call)
    request = as_type(call.input, gemini.SaveMemoryInput)
    fact = text_of(request.fact) if request else ""
    asked = Fields()
    if request is not None:
        asked.add("Scope", request.scope).add("Edited by the user", request.modified_by_user)
    saved = outputs.memory_saved(call.result_text)
    outcome = first_line(v["said"], 400)
    if saved is not None:
        outcome = saved[1] or ("Saved." if saved[0] else "Not saved.")
        if not saved[0] and v["error"] is None:
            v["error"] = outcome
    v["said"] = ""
    v["r"] = True if call.status == "ok" and call.result_block is not None else None
    return FieldsView(
        **v, lead=fact, lead_code=False, asked=asked.rows, outcome=outcome, summary=fact
    )


def prepare_ask_user(call: ToolCall, h: ViewHelpers) -> QuestionsView:
    """``ask_user``: each question with its options, the user's answers chosen."""
    v = base(call)
    request = as_type(call.input, gemini.AskUserInput)
    given = outputs.answers(call.result_text) if call.status == "ok" else None
    rows: list[Question] = []
    for index, question in enumerate(list_of(request.questions if request else None)):
        if not isinstance(question, gemini.Question):
            continue
        answer = (given or {}).get(str(index), "")
        options = [o for o in list_of(question.options) if isinstance(o, gemini.QuestionOption)]
        labels = [text_of(o.label) for o in options]
        multi = question.multi_select is True
        picked = {part.strip() for part in answer.split(",")} if multi else {answer}
        chosen = {label for label in labels if label in picked}
        if question.type == "yesno" and not options:
            labels, chosen = ["Yes", "No"], {answer} & {"Yes", "No"}
        rows.append(
            Question(
                header=text_of(question.header),
                text=text_of(question.question),
                multi=multi,
                options=[
                    Choice(
                        label,
                        text_of(options[i].description) if i < len(options) else "",
                        chosen=label in chosen,
                    )
                    for i, label in enumerate(labels)
                ],
                own=answer if answer and not chosen else "",
                answered=bool(answer),
            )
        )
    first = rows[0].text if rows else ""
    return QuestionsView(
        **v,
        questions=rows,
        response="" if given is not None or v["error"] else call.result_text,
        answered=call.result_block is not None and v["error"] is None,
        summary=first_line(first) + (f" (+{len(rows) - 1})" if len(rows) > 1 else ""),
    )


def prepare_write_todos(call: ToolCall, h: ViewHelpers) -> TodoView:
    """``write_todos``: the list as it now stands, as a checklist."""
    v = base(call)
    request = as_type(call.input, gemini.WriteTodosInput)
    display = as_type(_display(call), gemini.TodoList)
    items = list_of(display.todos if display else None) or list_of(
        request.todos if request else None
    )
    rows = []
    for item in items:
        if not isinstance(item, gemini.Todo):
            continue
        status = text_of(item.status) or "pending"
        change = status if status in ("cancelled", "blocked") else ""
        rows.append(todo_row(status, text_of(item.description), change, "muted"))
    v["r"] = display if display is not None else (True if call.status == "ok" else None)
    return todo_view(v, rows, len(rows))


def prepare_subagent(call: ToolCall, h: ViewHelpers) -> AgentView:
    """A subagent's call (``invoke_agent``, ``codebase_investigator``...): what it was asked,
    its own conversation nested under the call, why it stopped and its answer."""
    v = base(call)
    request = as_type(call.input, FreeformInput)
    arguments = dict(request.arguments) if request else {}
    name = text_of(arguments.pop("agent_name", None)) or call.name
    prompt = ""
    for key in gemini.SUBAGENT_PROMPT_KEYS:
        if isinstance(arguments.get(key), str):
            prompt = arguments.pop(key)
            break
    asked = Fields().add("Agent", name, "code")
    for key, value in arguments.items():
        asked.add(str(key), value)
    got = Fields()
    answer = ""
    display = as_type(_display(call), gemini.SubagentProgress)
    if v["error"] is None and call.result_block is not None:
        finished = outputs.subagent_result(call.result_text)
        if finished is not None:
            got.add("Stopped", finished.reason)
            answer = finished.answer
        else:
            answer = call.result_text
    if display is not None:
        got.add("State", display.state).add("Stopped", display.terminate_reason)
    v["r"] = True if answer or got.rows else None
    return AgentView(
        **v,
        prompt=prompt,
        prompt_folded=prompt_folded(prompt),
        asked=asked.rows,
        got=got.rows,
        answer=answer,
        subagents=call.subagents,
        summary=f"{name}: {first_line(prompt)}" if prompt else name,
    )


def prepare_arguments(call: ToolCall, h: ViewHelpers) -> FieldsView:
    """A tool drawn as its arguments by name, and what it answered (``activate_skill``,
    ``enter_plan_mode``, the tracker's tools...)."""
    raw = call.block.input if isinstance(call.block.input, dict) else {}
    first = next((value for value in raw.values() if isinstance(value, str) and value), "")
    return replace(prepare_input_fields(call, h), summary=first_line(first))


__all__ = [
    "prepare_arguments",
    "prepare_ask_user",
    "prepare_glob",
    "prepare_grep",
    "prepare_list_directory",
    "prepare_read_file",
    "prepare_read_many_files",
    "prepare_replace",
    "prepare_save_memory",
    "prepare_shell",
    "prepare_subagent",
    "prepare_web_fetch",
    "prepare_web_search",
    "prepare_write_file",
    "prepare_write_todos",
]
