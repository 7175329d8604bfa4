"""Views of Codex CLI's tools, drawn by the same templates as Claude Code's where the tools are
alike: commands (``shell``, ``shell_command``, ``exec_command``, ``write_stdin``,
``local_shell``) as the Bash view, ``apply_patch`` as diffs like Edit's, ``update_plan`` as the
todo list, ``web_search`` as WebSearch, MCP calls as MCP calls, ``view_image`` as fields.

The typed inputs and results are :mod:`cclens.model.tools.codex`' (the result is what the Codex
reader gathered from the call's output and the events that ended it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from ...model import UNSET
from ...model.blocks import ImageBlock, MediaSource, TextBlock
from ...model.codex.patch import FilePatch, hunks_of_diff, parse_patch, patch_of_command
from ...model.session import ToolCall
from ...model.tools import codex
from ...model.tools.generic import FreeformInput
from ..prepared import Diff, PreparedView, TextPart, piece_part, text_part
from ..views import ViewHelpers
from ._common import (
    Fields,
    FieldsView,
    as_type,
    base,
    fields_base,
    int_of,
    link,
    list_of,
    millis,
    said,
    text_of,
)
from .mcp import McpPart, McpView, content_parts, mcp_arguments
from .shell import ShellView
from .tasks import TodoRow, TodoView, status_icon, status_label, todo_row, todo_view
from .web import SearchLink, WebSearchView

__all__ = [
    "prepare_mcp",
    "prepare_patch",
    "prepare_plan",
    "prepare_shell",
    "prepare_view_image",
    "prepare_web_search",
]

_LANGUAGES = {"pwsh": "powershell", "powershell": "powershell", "powershell.exe": "powershell"}


def _summary(call: ToolCall) -> str:
    worded = call.spec.summary
    return worded(call.input) if worded is not None else ""


def _command(request: Any) -> Any:
    if isinstance(request, codex.ExecCommandInput):
        return request.cmd
    return getattr(request, "command", None)


def _shell_language(command: Any, request: Any) -> str:
    shell = text_of(getattr(request, "shell", None))
    if not shell and isinstance(command, list) and command and isinstance(command[0], str):
        shell = command[0]
    return _LANGUAGES.get(shell.replace("\\", "/").rsplit("/", 1)[-1].lower(), "bash")


def _shell_badges(result: codex.ShellResult | None) -> list[tuple[str, str]]:
    badges: list[tuple[str, str]] = []
    if result is None:
        return badges
    code = int_of(result.exit_code)
    if code is not None:
        badges.append((f"exit code {code}", "error" if code else "ok"))
    if result.timed_out is True:
        badges.append(("timed out", "warn"))
    if result.sandbox_error:
        badges.append(("refused by the sandbox", "warn"))
    if code is None and (result.session_id is not None or result.process_id is not None):
        running = result.session_id if result.session_id is not None else result.process_id
        if running is not UNSET:
            badges.append((f"still running (session {running})", "info"))
    return badges


def prepare_shell(call: ToolCall, h: ViewHelpers) -> ShellView | PatchView:
    """A command: what ran, where, how it ended (exit code, time out), what it printed."""
    request = call.input
    command = _command(request)
    patch = patch_of_command(command)
    if patch is not None:  # apply_patch run through the shell tool (older Codex)
        return _patch_view(call, h, patch)
    v = base(call, codex.ShellResult)
    result: codex.ShellResult | None = v["r"]
    text = codex.command_line(command)
    notes: list[str] = []
    if isinstance(request, codex.WriteStdinInput):
        chars = text_of(request.chars)
        text = chars or "(read the command's new output)"
        notes.append(f"Sent to the running command of session {request.session_id}")
    workdir = text_of(getattr(request, "workdir", None)) or text_of(
        getattr(request, "working_directory", None)
    )
    if workdir:
        notes.append(f"In {workdir}")
    justification = text_of(getattr(request, "justification", None))
    if justification:
        notes.append(f"Asked for more permissions: {justification}")
    if result is not None and result.sandbox_error:
        notes.append(text_of(result.sandbox_error))
    timeout = millis(getattr(request, "timeout_ms", None))
    stdout = (text_of(result.output) or text_of(result.stdout)) if result else ""
    stderr = text_of(result.stderr) if result and not text_of(result.output) else ""
    return ShellView(
        **v,
        command=text,
        timeout=timeout,
        language=_shell_language(command, request),
        badges=_shell_badges(result),
        stdout=stdout,
        stderr=stderr,
        notes=notes,
        said=said(call, v),
        summary=codex.command_line(command).strip().split("\n", 1)[0],
    )


def _lines(text: str, mark: str) -> list[str]:
    body = text[:-1] if text.endswith("\n") else text
    return [mark + line for line in body.split("\n")] if text else []


def _recorded(changes: dict[str, codex.FileChange]) -> list[FilePatch]:
    """The files of a ``patch_apply_end`` event, with the diffs it recorded."""
    files: list[FilePatch] = []
    for path, change in changes.items():
        if not isinstance(change, codex.FileChange):
            continue
        kind = text_of(change.type) or "update"
        patch = FilePatch(kind, path, text_of(change.move_path))
        if kind == "update":
            patch.hunks = hunks_of_diff(text_of(change.unified_diff))
        else:
            lines = _lines(text_of(change.content), "+" if kind == "add" else "-")
            patch.hunks = [{"oldStart": 1, "newStart": 1, "lines": lines}] if lines else []
        files.append(patch)
    return files


_KIND_BADGES = {"add": ("added", "ok"), "delete": ("deleted", "warn"), "update": ("", "")}


class PatchFile(msgspec.Struct, frozen=True):
    """A file a patch changed: its ``path``, a ``badge`` (added, deleted, moved) and its
    ``diff`` (none for a file added or deleted empty)."""

    path: str
    badge: tuple[str, str] | None
    diff: Diff | None


class PatchView(PreparedView, frozen=True, kw_only=True):
    """A patch (``tools/codex_patch.html``): each file it changed, as a diff, ``applied`` or
    only proposed; ``patch``: its text when no file could be read from it."""

    files: Sequence[PatchFile] = ()
    count: int = 0
    applied: bool = False
    patch: str = ""

    def parts(self) -> list[TextPart]:
        parts = []
        for file in self.files:
            label = f"{file.path} ({file.badge[0]})" if file.badge else file.path
            if file.diff is not None:
                parts.append(piece_part(file.diff, label, result=self.applied))
            else:
                parts.append(TextPart("field", label, "File", result=self.applied))
        return parts + text_part("code", self.patch, language="diff")


def _patch_view(call: ToolCall, h: ViewHelpers, text: str) -> PatchView:
    v = base(call, codex.ApplyPatchResult, codex.ShellResult)
    result = v["r"]
    changes = getattr(result, "changes", None)
    files = _recorded(changes) if isinstance(changes, dict) and changes else parse_patch(text)
    drawn: list[PatchFile] = []
    for patch in files:
        label, kind = _KIND_BADGES.get(patch.kind, (patch.kind, "muted"))
        if patch.move_to:
            label, kind = f"moved to {patch.move_to}", "info"
        diff = Diff(patch.hunks, filename=patch.path) if patch.hunks else None
        drawn.append(PatchFile(patch.path, (label, kind) if label else None, diff))
    badges: list[tuple[str, str]] = []
    if getattr(result, "success", None) is False:
        badges.append(("not applied", "error"))
    return PatchView(
        **v,
        files=drawn,
        count=len(drawn),
        applied=call.status == "ok",
        badges=badges,
        patch=text if not drawn else "",
        summary=codex.patch_summary(text) if text else "",
    )


def prepare_patch(call: ToolCall, h: ViewHelpers) -> PatchView:
    """``apply_patch``: each file it added, deleted, moved or changed, as a diff (numbered when
    the ``patch_apply_end`` event recorded the diff, else from the patch's own hunks)."""
    request = as_type(call.input, codex.ApplyPatchInput)
    text = ""
    if request is not None:
        text = text_of(request.input) or text_of(request.patch)
    return _patch_view(call, h, text)


def prepare_plan(call: ToolCall, h: ViewHelpers) -> TodoView:
    """``update_plan``: the plan as a checklist, each step saying how it changed since the
    thread's previous plan."""
    v = base(call, codex.UpdatePlanResult)
    request = as_type(call.input, codex.UpdatePlanInput)
    result: codex.UpdatePlanResult | None = v["r"]
    steps = [s for s in list_of(request.plan if request else None) if isinstance(s, codex.PlanStep)]
    before_raw = result.old_plan if result is not None else None
    before = {
        text_of(s.step): text_of(s.status)
        for s in list_of(before_raw)
        if isinstance(s, codex.PlanStep)
    }
    rows: list[TodoRow] = []
    for step in steps:
        status = text_of(step.status) or "pending"
        content = text_of(step.step)
        change, change_kind = "", ""
        if isinstance(before_raw, list):
            prior = before.pop(content, None)
            if prior is None:
                change, change_kind = "new", "info"
            elif prior != status:
                change = "started" if status == "in_progress" else status_label(status)
                change_kind = "ok" if status == "completed" else "info"
        rows.append(todo_row(status, content, change, change_kind))
    for content, status in before.items() if isinstance(before_raw, list) else ():
        icon = status_icon(status)
        rows.append(TodoRow("removed", icon, "removed", content, "", "", "removed", "muted"))
    explanation = text_of(request.explanation) if request else ""
    return todo_view(v, rows, len(steps), explanation)


def prepare_web_search(call: ToolCall, h: ViewHelpers) -> WebSearchView:
    """A web search: the query (or the page opened, the text looked for in it) and the results
    the events recorded."""
    v = base(call, codex.WebSearchResult)
    request = as_type(call.input, codex.WebSearchInput)
    result: codex.WebSearchResult | None = v["r"]
    action = text_of(request.type) if request else ""
    query = _summary(call)
    asked = Fields()
    if request is not None:
        if action and action != "search":
            asked.add("Action", action.replace("_", " "))
        if request.url:
            asked.url("Page", request.url)
        asked.add("Looked for", request.pattern, "code")
        queries = list_of(request.queries)
        if len(queries) > 1:
            asked.add("Queries", [q for q in queries if isinstance(q, str)])
    links: list[SearchLink] = []
    for hit in list_of(result.results if result else None):
        if not isinstance(hit, dict):
            continue
        url = text_of(hit.get("url"))
        title = text_of(hit.get("title")) or url
        links.append(SearchLink(link(url, title), title, url, text_of(hit.get("snippet"))))
    got = Fields()
    if result is not None and result.status and result.status != "completed":
        got.add("Status", result.status)
    return WebSearchView(
        **v,
        query=query,
        asked=asked.rows,
        got=got.rows,
        links=links,
        answered=bool(links or got.rows),
        summary=query,
    )


def _mcp_blocks(content: Any) -> list[Any]:
    blocks: list[Any] = []
    for item in list_of(content):
        if not isinstance(item, dict):
            continue
        kind = item.get("type")
        if kind == "text":
            blocks.append(TextBlock(text=text_of(item.get("text"))))
        elif kind == "image" and isinstance(item.get("data"), str):
            media = text_of(item.get("mimeType")) or text_of(item.get("mime_type")) or "image/png"
            blocks.append(
                ImageBlock(source=MediaSource(type="base64", media_type=media, data=item["data"]))
            )
        else:
            blocks.append(item)
    return blocks


def prepare_mcp(call: ToolCall, h: ViewHelpers) -> McpView:
    """An MCP tool: server and tool, its arguments, and its content (text, images) or error."""
    v = base(call, codex.McpCallResult)
    result: codex.McpCallResult | None = v["r"]
    names = codex.mcp_name(call.name)
    server = text_of(result.server) if result else ""
    tool = text_of(result.tool) if result else ""
    if names is not None:
        server, tool = server or names[0], tool or names[1]
    request = as_type(call.input, FreeformInput)
    parts: list[McpPart] = []
    fields = Fields()
    outcome = result.result if result is not None else None
    if isinstance(outcome, dict):
        ok = outcome.get("Ok")
        if isinstance(ok, dict):
            parts = content_parts(_mcp_blocks(ok.get("content")))
            structured = ok.get("structuredContent")
            if structured is not None:
                fields.add("Structured content", structured)
        elif "Err" in outcome and v["error"] is None:
            v["error"] = text_of(outcome.get("Err")) or str(outcome.get("Err"))
    elif v["error"] is None and call.result_text:
        parts = content_parts([TextBlock(text=call.result_text)])
    return McpView(
        **v,
        server=server,
        tool=tool or call.name,
        arguments=mcp_arguments(request),
        content=parts,
        fields=fields.rows,
        answered=bool(parts or fields.rows),
        summary=_summary(call),
    )


def prepare_view_image(call: ToolCall, h: ViewHelpers) -> FieldsView:
    """``view_image``: the image file the model looked at (the image, when the output kept it,
    is drawn under it)."""
    v = fields_base(call, codex.ViewImageResult)
    request = as_type(call.input, codex.ViewImageInput)
    path = text_of(request.path) if request else ""
    v["said"] = call.result_text if v["error"] is None else ""
    return FieldsView(**v, lead=path, summary=path)
