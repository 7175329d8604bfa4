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
from collections.abc import Mapping
from typing import Any

from ...model import UNSET
from ...model.gemini import outputs
from ...model.gemini.records import Part, ToolCallRecord, content_parts
from ...model.session import ToolCall
from ...model.tools import FreeformInput, gemini
from ..views import ViewHelpers
from ._common import Fields, as_type, base, fields_view, first_line, link, list_of, text_of
from .agents import PROMPT_FOLD_LINES, prepare_input_fields
from .files import _code
from .search import GrepLine, marked, matcher
from .tasks import status_icon

_URL = re.compile(r"https?://[^\s<>\"'`)\]]+")
_TODO_LABELS = {"in_progress": "in progress", "completed": "done"}


def _display(call: ToolCall) -> Any:
    """What the terminal showed of the call's result (``resultDisplay``), typed."""
    record = call.result
    return gemini.display_of(record.result_display) if isinstance(record, ToolCallRecord) else None


def _images(call: ToolCall) -> list[tuple[str, str]]:
    """The images a call's recorded result holds (``inlineData`` parts: an image read)."""
    record = call.result
    found: list[tuple[str, str]] = []
    for part in content_parts(getattr(record, "result", None)):
        if isinstance(part, Part) and part.inline_data not in (None, UNSET):
            data = part.inline_data
            mime = text_of(getattr(data, "mime_type", None))
            if mime.startswith("image/") and text_of(getattr(data, "data", None)):
                found.append((text_of(data.data), mime))
    return found


def prepare_shell(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
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
    v.update(
        command=command,
        description=description,
        timeout="",
        language="bash",
        badges=badges,
        task_id="",
        stdout=stdout,
        stderr=stderr,
        image=None,
        notes=notes,
        interpretation="",
        r=parsed if parsed is not None else (True if stdout else None),
        summary=description or first_line(command),
    )
    return v


def prepare_read_file(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """``read_file``: the lines read, numbered from where the read started, or the image."""
    v = base(call)
    request = as_type(call.input, gemini.ReadFileInput)
    path = request.path if request else ""
    asked = Fields(h)
    start = 1
    if request is not None:
        first = request.start_line if isinstance(request.start_line, int) else None
        offset = request.offset if isinstance(request.offset, int) else None
        start = first or ((offset + 1) if offset is not None else 1)
        asked.add("To line", request.end_line).add("Lines", request.limit)
    v.update(
        path=path,
        asked=asked.rows,
        got=[],
        notes=[],
        range="",
        code=None,
        cells=[],
        pages=[],
        summary=path,
    )
    images = _images(call)
    if images:
        v["image"] = (images[0][0], images[0][1])
    elif v["error"] is None and call.result_block is not None and call.status == "ok":
        text = outputs.file_text(call.result_text)
        if text.total is not None:
            start = text.start
            v["range"] = f"Lines {text.start}–{text.end} of {text.total}"
        v["code"] = _code(h, text.content, path, start)
    return v


def prepare_read_many_files(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
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
    v.update(
        pattern=", ".join(patterns),
        path=text_of(display.target_dir) if display else "",
        files=files,
        count=len(files),
        total=None,
        took="",
        notes=notes,
        r=display,
        summary=", ".join(patterns),
    )
    return v


def _file_diff(call: ToolCall) -> gemini.FileDiff | None:
    return as_type(_display(call), gemini.FileDiff)


def prepare_write_file(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
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
        diff = h.diff(None, old=original, new=content, filename=path)
    badges = [("created", "ok")] if created else ([("overwritten", "info")] if diff else [])
    if request is not None and request.modified_by_user is True:
        badges.append(("modified by the user before it was applied", "warn"))
    v.update(
        path=path,
        kind="create" if created else "update",
        diff=diff,
        code=None if diff is not None else _code(h, content, path),
        applied=call.status == "ok",
        badges=badges,
        summary=path,
    )
    return v


def prepare_replace(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
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
        diff = h.diff(None, old=original, new=updated, filename=path)
    else:
        diff = h.diff(None, old=old, new=new, filename=path)
    instruction = text_of(request.instruction) if request else ""
    v.update(
        path=path,
        diff=diff,
        applied=call.status == "ok",
        badges=badges,
        instruction=instruction,
        summary=path,
    )
    return v


def prepare_glob(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """``glob``: the pattern and the files it matched, newest first."""
    v = base(call)
    request = as_type(call.input, gemini.GlobInput)
    pattern = text_of(request.pattern) if request else ""
    files = outputs.found_files(call.result_text) if v["error"] is None else None
    v.update(
        pattern=pattern,
        path=(text_of(request.dir_path) or text_of(request.path)) if request else "",
        files=files or [],
        count=len(files or []),
        total=None,
        took="",
        notes=[] if files is not None or v["error"] else [first_line(call.result_text)],
        r=files,
        summary=pattern,
    )
    return v


def prepare_grep(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """``grep_search`` (``search_file_content``): the search, then the matching lines by
    file with the pattern's matches marked."""
    v = base(call)
    request = as_type(call.input, gemini.GrepInput)
    pattern_text = text_of(request.pattern) if request else ""
    options = Fields(h)
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
    got = Fields(h)
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
    v.update(
        pattern=pattern_text,
        options=options.rows,
        got=got.rows,
        notes=[],
        counts=[],
        lines=lines,
        files=[],
        empty=not lines,
        r=display if display is not None else (rows or None),
        summary=pattern_text,
    )
    return v


def prepare_list_directory(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
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
    v.update(
        path=path,
        ignore=[p for p in list_of(request.ignore if request else None) if isinstance(p, str)],
        tree=tree,
        summary=path,
    )
    return v


def prepare_web_fetch(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
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
    v.update(
        url=url,
        href=link(url) if url else None,
        prompt=prompt,
        offset=None,
        status="",
        status_kind="muted",
        got=[],
        answer=answer,
        r=True if answer else None,
        summary=url or first_line(prompt),
    )
    return v


def prepare_web_search(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """``google_web_search``: the query, the grounded answer and its numbered sources."""
    v = base(call)
    request = as_type(call.input, gemini.WebSearchInput)
    query = text_of(request.query) if request else ""
    links: list[dict[str, Any]] = []
    notes: list[str] = []
    answered = v["error"] is None and call.status == "ok" and bool(call.result_text)
    if answered:
        found = outputs.search_answer(call.result_text)
        notes = [found.answer] if found.answer.strip() else []
        links = [
            {
                "link": link(url, f"[{number}] {title}") if url else None,
                "title": f"[{number}] {title}",
                "url": url,
                "snippet": "",
                "age": "",
            }
            for number, title, url in found.sources
        ]
    v.update(
        query=query,
        asked=[],
        got=[],
        links=links,
        notes=notes,
        answered=answered,
        summary=query,
    )
    return v


def prepare_save_memory(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """``save_memory``: the fact remembered, and where."""
    v = fields_view(call)
    request = as_type(call.input, gemini.SaveMemoryInput)
    fact = text_of(request.fact) if request else ""
    asked = Fields(h)
    if request is not None:
        asked.add("Scope", request.scope).add("Edited by the user", request.modified_by_user)
    saved = outputs.memory_saved(call.result_text)
    outcome = first_line(v["said"], 400)
    if saved is not None:
        outcome = saved[1] or ("Saved." if saved[0] else "Not saved.")
        if not saved[0] and v["error"] is None:
            v["error"] = outcome
    v.update(
        lead=fact,
        lead_code=False,
        asked=asked.rows,
        outcome=outcome,
        said="",
        r=True if call.status == "ok" and call.result_block is not None else None,
        summary=fact,
    )
    return v


def prepare_ask_user(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """``ask_user``: each question with its options, the user's answers chosen."""
    v = base(call)
    request = as_type(call.input, gemini.AskUserInput)
    given = outputs.answers(call.result_text) if call.status == "ok" else None
    rows: list[dict[str, Any]] = []
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
            {
                "header": text_of(question.header),
                "text": text_of(question.question),
                "multi": multi,
                "options": [
                    {
                        "label": label,
                        "description": text_of(options[i].description) if i < len(options) else "",
                        "preview": "",
                        "chosen": label in chosen,
                    }
                    for i, label in enumerate(labels)
                ],
                "own": answer if answer and not chosen else "",
                "answered": bool(answer),
                "notes": "",
            }
        )
    first = rows[0]["text"] if rows else ""
    v.update(
        questions=rows,
        legacy="",
        response="" if given is not None or v["error"] else call.result_text,
        answered=call.result_block is not None and v["error"] is None,
        summary=first_line(first) + (f" (+{len(rows) - 1})" if len(rows) > 1 else ""),
    )
    return v


def prepare_write_todos(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
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
        rows.append(
            {
                "status": status,
                "icon": status_icon(status),
                "label": _TODO_LABELS.get(status, status.replace("_", " ")),
                "content": text_of(item.description),
                "active": "",
                "priority": "",
                "change": status if status in ("cancelled", "blocked") else "",
                "change_kind": "muted",
            }
        )
    done = sum(1 for row in rows if row["status"] == "completed")
    current = next((row for row in rows if row["status"] == "in_progress"), None)
    v.update(
        todos=rows,
        done=done,
        total=len(rows),
        current=current["content"] if current else "",
        changed=0,
        r=display if display is not None else (True if call.status == "ok" else None),
        summary=f"{done}/{len(rows)} done" + (f" · {current['content']}" if current else ""),
    )
    return v


def prepare_subagent(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
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
    asked = Fields(h).add("Agent", name, "code")
    for key, value in arguments.items():
        asked.add(str(key), value)
    got = Fields(h)
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
    v.update(
        description="",
        prompt=prompt,
        prompt_folded=prompt.count("\n") >= PROMPT_FOLD_LINES or len(prompt) > 2000,
        asked=asked.rows,
        state="",
        task_id="",
        duration=None,
        tokens=None,
        tool_uses=None,
        stats=[],
        got=got.rows,
        answer=answer,
        subagents=call.subagents,
        r=True if answer or got.rows else None,
        summary=f"{name}: {first_line(prompt)}" if prompt else name,
    )
    return v


def prepare_arguments(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """A tool drawn as its arguments by name, and what it answered (``activate_skill``,
    ``enter_plan_mode``, the tracker's tools...)."""
    v = prepare_input_fields(call, h)
    raw = call.block.input if isinstance(call.block.input, dict) else {}
    first = next((value for value in raw.values() if isinstance(value, str) and value), "")
    v["summary"] = first_line(first)
    return v


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
