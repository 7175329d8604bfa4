"""Views of files and notebooks: Read, Write, Edit, MultiEdit, NotebookEdit and LS."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from ...model import to_builtins
from ...model.session import ToolCall
from ...model.tools import TextResult, files
from ..unshown import NUMBERED_LINE
from ..views import ViewHelpers
from ._common import Fields, as_type, base, int_of, list_of, size_of, text_of

#: Code longer than this many lines is clamped, with an expander.
CLAMP_LINES = 40


def numbered_text(text: str) -> tuple[str, int] | None:
    """The content and first line number of a ``cat -n`` style text (``     1→line``).

    That is how Read results read when the transcript kept no ``toolUseResult``; whatever
    follows the numbered lines (a ``<system-reminder>``) is not part of the file.
    """
    content: list[str] = []
    start: int | None = None
    for line in text.split("\n"):
        match = NUMBERED_LINE.match(line)
        if match is None:
            break
        if start is None:
            start = int(match.group(1))
        content.append(match.group(2))
    return ("\n".join(content), start) if start is not None else None


def _line_count(text: str) -> int:
    return text.count("\n") + (0 if text.endswith("\n") else 1) if text else 0


#: File contents show this many lines; the others are drawn when the reader asks.
FOLD_LINES = 12


def _code(h: ViewHelpers, text: str, filename: str, start: int = 1) -> dict[str, Any]:
    return {
        "html": h.highlight(text, filename=filename, start_line=start, fold_after=FOLD_LINES),
        "lines": _line_count(text),
    }


def _read_text(v: dict[str, Any], h: ViewHelpers, result: files.ReadTextResult, path: str) -> None:
    file = as_type(result.file, files.TextFile)
    start = result.start_line
    content = result.content
    shown = int_of(file.num_lines) if file else None
    total = int_of(file.total_lines) if file else None
    shown = shown if shown is not None else _line_count(content)
    if total is not None and (start > 1 or shown < total):
        last = start + shown - 1
        v["range"] = f"Lines {start}–{last} of {total}" if shown else f"No lines (of {total})"
    if file is not None and file.truncated_by_token_cap:
        v["notes"].append("Cut short: the file is larger than the read's token limit.")
    v["code"] = _code(h, content, path, start)
    artifact = as_type(result.artifact_read, files.ArtifactRef)
    if artifact is not None:
        v["got"] = (
            Fields(h).add("Artifact", text_of(artifact.slug)).add("Version", artifact.ver).rows
        )


def _notebook_cells(result: files.ReadNotebookResult) -> list[dict[str, Any]]:
    file = as_type(result.file, files.NotebookFile)
    cells: list[dict[str, Any]] = []
    # Cells are the notebook's own JSON, which Claude Code passes on without a declared shape.
    for raw in list_of(file.cells if file else None):
        if not isinstance(raw, dict):
            continue
        source = raw.get("source", "")
        texts: list[str] = []
        images: list[tuple[str, str]] = []
        for output in list_of(raw.get("outputs")):
            if not isinstance(output, dict):
                continue
            if isinstance(output.get("text"), str):
                texts.append(output["text"])
            image = output.get("image")
            if isinstance(image, dict) and isinstance(image.get("image_data"), str):
                images.append((image["image_data"], str(image.get("media_type", "image/png"))))
        cells.append(
            {
                "type": str(raw.get("cellType") or raw.get("cell_type") or "code"),
                "id": str(raw.get("cell_id") or raw.get("cellId") or raw.get("id") or ""),
                "language": str(raw.get("language") or "python"),
                "source": "".join(source) if isinstance(source, list) else str(source),
                "count": raw.get("execution_count"),
                "outputs": texts,
                "images": images,
            }
        )
    return cells


def prepare_read(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """Read: the file's lines numbered from where the read started, an image, PDF or notebook."""
    v = base(call, files.ReadResult)
    request = as_type(call.input, files.ReadInput)
    result = v["r"]
    path = request.file_path if request else ""
    path = path or (result.file_path if result is not None else None) or ""
    asked = Fields(h)
    if request is not None:
        asked.add("From line", request.offset).add("Lines", request.limit)
        asked.add("Pages", request.pages, "code").add("Large files allowed", request.allow_large)
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
    if isinstance(result, files.ReadTextResult):
        _read_text(v, h, result, path)
    elif isinstance(result, files.ReadImageResult):
        image = as_type(result.file, files.ImageFile)
        if image is not None:
            v["image"] = (text_of(image.base64), text_of(image.type))
            size = as_type(image.dimensions, files.ImageDimensions)
            got = Fields(h).add("Size", size_of(image.original_size))
            if size is not None and size.original_width:
                got.add("Dimensions", f"{size.original_width}×{size.original_height}")
                if size.display_width and size.display_width != size.original_width:
                    got.add("Shown to the model at", f"{size.display_width}×{size.display_height}")
            v["got"] = got.rows
    elif isinstance(result, files.ReadNotebookResult):
        v["cells"] = _notebook_cells(result)
    elif isinstance(result, files.ReadPdfResult):
        pdf = as_type(result.file, files.PdfFile)
        v["got"] = Fields(h).add("Size", size_of(pdf.original_size) if pdf else "").rows
        v["notes"].append("The whole PDF was given to the model; it is not drawn here.")
    elif isinstance(result, files.ReadPartsResult):
        parts = as_type(result.file, files.PartsFile)
        first = int_of(result.first_page) or 1
        v["pages"] = [
            {
                "number": first + index,
                "data": text_of(page.base64),
                "media_type": text_of(page.media_type) or "image/png",
                "error": text_of(page.error),
            }
            for index, page in enumerate(list_of(result.pages))
        ]
        if parts is not None:
            got = (
                Fields(h)
                .add("Pages extracted", parts.count)
                .add("Size", size_of(parts.original_size))
            )
            v["got"] = got.add("Saved in", parts.output_dir, "code").rows
    elif isinstance(result, files.ReadUnchangedResult):
        v["notes"].append("Unchanged since it was last read: no content was sent again.")
    elif result is None and v["error"] is None and call.result_text:
        numbered = numbered_text(call.result_text)
        if numbered is not None:
            v["code"] = _code(h, numbered[0], path, numbered[1])
    return v


def _diff_change(
    h: ViewHelpers, path: str, hunks: Any, original: str, old: str, new: str, replace_all: bool
) -> Markup:
    """The diff of one replacement: recorded hunks, else computed, in place in the whole file
    when the original is known (so line numbers are the file's), else from the two strings."""
    if hunks:
        return h.diff(to_builtins(hunks), filename=path)
    if original and old and old in original:
        updated = original.replace(old, new) if replace_all else original.replace(old, new, 1)
        return h.diff(None, old=original, new=updated, filename=path)
    return h.diff(None, old=old, new=new, filename=path)


def _change_badges(result: Any) -> list[tuple[str, str]]:
    badges: list[tuple[str, str]] = []
    if getattr(result, "user_modified", None) is True:
        badges.append(("modified by the user before it was applied", "warn"))
    if getattr(result, "staged", None) is True:
        badges.append(("staged", "muted"))
    git = as_type(getattr(result, "git_diff", None), files.GitDiff)
    if git is not None and (git.additions or git.deletions):
        badges.append((f"git +{git.additions or 0} −{git.deletions or 0}", "muted"))
    return badges


def prepare_edit(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """Edit: the replacement as a diff, with the file's own line numbers when they are known."""
    v = base(call, files.EditResult)
    edit = as_type(call.input, files.EditInput)
    result: files.EditResult | None = v["r"]
    path = (edit.file_path if edit else "") or (text_of(result.file_path) if result else "")
    old = text_of(result.old_string) if result else ""
    new = text_of(result.new_string) if result else ""
    if edit is not None and not (old or new):
        old, new = text_of(edit.old_string), text_of(edit.new_string)
    replace_all = bool((edit and edit.replace_all) or (result and result.replace_all))
    badges = [("every occurrence", "info")] if replace_all else []
    original = text_of(result.original_file) if result else ""
    patch = result.structured_patch if result else None
    v.update(
        path=path,
        diff=_diff_change(h, path, patch, original, old, new, replace_all),
        applied=result is not None or call.status == "ok",
        badges=badges + _change_badges(result),
        summary=path,
    )
    return v


def prepare_multi_edit(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """MultiEdit: the replacements as one diff of the file, or one diff per replacement."""
    v = base(call, files.MultiEditResult)
    request = as_type(call.input, files.MultiEditInput)
    result: files.MultiEditResult | None = v["r"]
    path = (request.file_path if request else "") or (text_of(result.file_path) if result else "")
    edits = [
        e for e in list_of(request.edits if request else None) if isinstance(e, files.EditOperation)
    ]
    diffs: list[tuple[str, Markup]] = []
    original = text_of(result.original_file_contents) if result else ""
    if result is not None and result.structured_patch:
        diffs.append(("", h.diff(to_builtins(result.structured_patch), filename=path)))
    elif original and edits:
        updated = original
        for edit in edits:
            old, new = text_of(edit.old_string), text_of(edit.new_string)
            updated = (
                updated.replace(old, new) if edit.replace_all else updated.replace(old, new, 1)
            )
        diffs.append(("", h.diff(None, old=original, new=updated, filename=path)))
    else:
        for number, edit in enumerate(edits, 1):
            label = f"Edit {number}" if len(edits) > 1 else ""
            label += " (every occurrence)" if edit.replace_all else ""
            diffs.append(
                (label, h.diff(None, old=text_of(edit.old_string), new=text_of(edit.new_string)))
            )
    v.update(
        path=path,
        diffs=diffs,
        count=len(edits),
        applied=result is not None or call.status == "ok",
        badges=_change_badges(result),
        summary=f"{path} ({len(edits)} edits)" if len(edits) > 1 else path,
    )
    return v


def prepare_write(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """Write: a new file's content, or the diff of an overwritten one."""
    v = base(call, files.WriteResult)
    request = as_type(call.input, files.WriteInput)
    result: files.WriteResult | None = v["r"]
    path = (request.file_path if request else "") or (text_of(result.file_path) if result else "")
    content = (text_of(result.content) if result else "") or (
        text_of(request.content) if request else ""
    )
    kind = text_of(result.type) if result else ""
    if not kind and call.status == "ok":
        # Without a toolUseResult, the text the model saw still says which it was.
        text = call.result_text
        kind = "create" if "created successfully" in text else "update" if "updated" in text else ""
    diff = None
    if kind == "update" and result is not None:
        if result.structured_patch:
            diff = h.diff(to_builtins(result.structured_patch), filename=path)
        elif isinstance(result.original_file, str):
            diff = h.diff(None, old=result.original_file, new=content, filename=path)
    badges = {"create": [("created", "ok")], "update": [("updated", "info")]}.get(kind, [])
    v.update(
        path=path,
        kind=kind,
        diff=diff,
        code=None if diff is not None else _code(h, content, path),
        applied=result is not None or call.status == "ok",
        badges=badges + _change_badges(result),
        summary=path,
    )
    return v


def prepare_notebook_edit(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """NotebookEdit: which cell changed and how, its source as a diff or as code."""
    v = base(call, files.NotebookEditResult)
    request = as_type(call.input, files.NotebookEditInput)
    result: files.NotebookEditResult | None = v["r"]
    path = (request.notebook_path if request else "") or (
        text_of(result.notebook_path) if result else ""
    )
    mode = (text_of(request.edit_mode) if request else "") or (
        text_of(result.edit_mode) if result else ""
    )
    cell_type = (text_of(result.cell_type) if result else "") or (
        text_of(request.cell_type) if request else ""
    )
    cell = (text_of(request.cell_id) if request else "") or (
        text_of(result.cell_id) if result else ""
    )
    number = (int_of(request.cell_number) if request else None) or (
        int_of(result.cell_number) if result else None
    )
    new = (text_of(request.new_source) if request else "") or (
        text_of(result.new_source) if result else ""
    )
    old = text_of(result.old_source) if result else ""
    language = (text_of(result.language) if result else "") or (
        "markdown" if cell_type == "markdown" else "python"
    )
    source = None
    if old and mode != "insert":
        source = h.diff(None, old=old, new=new if mode != "delete" else "")
    elif new and mode != "delete":
        source = h.highlight(new, language=language)
    where = Fields(h).add("Cell", cell, "code").add("Cell number", number)
    where.add("Cell type", cell_type).add("Language", text_of(result.language) if result else "")
    v.update(
        path=path,
        mode=mode or "replace",
        where=where.rows,
        source=source,
        cell_error=text_of(result.error) if result else "",
        summary=path,
    )
    return v


def prepare_ls(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """LS: the directory tree it listed."""
    v = base(call)
    request = as_type(call.input, files.LsInput)
    result = call.result
    path = text_of(request.path) if request else ""
    tree = ""
    if v["error"] is None:
        tree = result.text if isinstance(result, TextResult) else call.result_text
    v.update(
        path=path,
        ignore=list_of(request.ignore) if request else [],
        tree=tree,
        summary=path,
    )
    return v
