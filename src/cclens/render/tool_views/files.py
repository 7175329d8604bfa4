"""Views of files and notebooks: Read, Write, Edit, MultiEdit, NotebookEdit and LS."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import msgspec

from ...model import to_builtins
from ...model.session import ToolCall
from ...model.tools import TextResult, files
from ..prepared import (
    Code,
    Diff,
    Field,
    Image,
    PreparedView,
    TextKind,
    TextPart,
    field_parts,
    piece_part,
    text_part,
)
from ..unshown import NUMBERED_LINE
from ..views import ViewHelpers
from ._common import Fields, as_type, base, int_of, list_of, size_of, text_of


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


#: File contents show this many lines; the others are drawn when the reader asks.
FOLD_LINES = 12


def file_code(text: str, filename: str, start: int = 1) -> Code:
    """A file's content, numbered from ``start``, folded past :data:`FOLD_LINES` lines."""
    return Code(text, filename=filename, start_line=start, fold_after=FOLD_LINES)


class NotebookCell(msgspec.Struct, frozen=True):
    """A notebook cell as read: its ``source`` (markdown or code), outputs and images."""

    type: str
    id: str
    language: str
    source: str
    count: Any
    outputs: Sequence[str]
    images: Sequence[Image]


class PdfPage(msgspec.Struct, frozen=True):
    """A PDF page read as an image (``data``), or the ``error`` that kept it from being read."""

    number: int
    data: str
    media_type: str
    error: str


class ReadView(PreparedView, frozen=True, kw_only=True):
    """A file read (``tools/read.html``): its ``path`` and the ``range`` of lines read, and
    its ``code`` (numbered from the line the read started at), ``image``, notebook ``cells``
    or PDF ``pages``."""

    path: str = ""
    asked: Sequence[Field] = ()
    got: Sequence[Field] = ()
    range: str = ""
    code: Code | None = None
    image: Image | None = None
    cells: Sequence[NotebookCell] = ()
    pages: Sequence[PdfPage] = ()

    notes_with_result: ClassVar[bool] = True

    def parts(self) -> list[TextPart]:
        parts = [*text_part("field", self.path, "File"), *text_part("field", self.range, "Read")]
        parts += field_parts(self.asked)
        if self.code is not None:
            parts.append(piece_part(self.code, result=True))
        if self.image is not None:
            parts.append(TextPart("result", self.image.note, result=True))
        for cell in self.cells:
            label = f"{cell.type} cell {cell.id}".strip()
            kind: TextKind = "markdown" if cell.type == "markdown" else "code"
            parts.append(TextPart(kind, cell.source, label, cell.language, result=True))
            parts += [TextPart("stdout", text, result=True) for text in cell.outputs]
            parts += [TextPart("result", image.note, result=True) for image in cell.images]
        for page in self.pages:
            said = page.error or f"(image: {page.media_type})"
            parts.append(
                TextPart(
                    "error" if page.error else "result", said, f"Page {page.number}", result=True
                )
            )
        return parts + field_parts(self.got, result=True)


def _read_text(result: files.ReadTextResult, path: str) -> tuple[str, list[str], Code, list[Field]]:
    """The range read, notes, content and artifact fields of a text file read."""
    file = as_type(result.file, files.TextFile)
    start = result.start_line
    content = result.content
    shown = int_of(file.num_lines) if file else None
    total = int_of(file.total_lines) if file else None
    code = file_code(content, path, start)
    shown = shown if shown is not None else code.lines
    range_ = ""
    if total is not None and (start > 1 or shown < total):
        last = start + shown - 1
        range_ = f"Lines {start}–{last} of {total}" if shown else f"No lines (of {total})"
    notes = []
    if file is not None and file.truncated_by_token_cap:
        notes.append("Cut short: the file is larger than the read's token limit.")
    artifact = as_type(result.artifact_read, files.ArtifactRef)
    got = Fields()
    if artifact is not None:
        got.add("Artifact", text_of(artifact.slug)).add("Version", artifact.ver)
    return range_, notes, code, got.rows


def _notebook_cells(result: files.ReadNotebookResult) -> list[NotebookCell]:
    file = as_type(result.file, files.NotebookFile)
    cells: list[NotebookCell] = []
    # Cells are the notebook's own JSON, which Claude Code passes on without a declared shape.
    for raw in list_of(file.cells if file else None):
        if not isinstance(raw, dict):
            continue
        source = raw.get("source", "")
        texts: list[str] = []
        images: list[Image] = []
        for output in list_of(raw.get("outputs")):
            if not isinstance(output, dict):
                continue
            if isinstance(output.get("text"), str):
                texts.append(output["text"])
            image = output.get("image")
            if isinstance(image, dict) and isinstance(image.get("image_data"), str):
                images.append(Image(image["image_data"], str(image.get("media_type", "image/png"))))
        cells.append(
            NotebookCell(
                type=str(raw.get("cellType") or raw.get("cell_type") or "code"),
                id=str(raw.get("cell_id") or raw.get("cellId") or raw.get("id") or ""),
                language=str(raw.get("language") or "python"),
                source="".join(source) if isinstance(source, list) else str(source),
                count=raw.get("execution_count"),
                outputs=texts,
                images=images,
            )
        )
    return cells


def prepare_read(call: ToolCall, h: ViewHelpers) -> ReadView:
    """Read: the file's lines numbered from where the read started, an image, PDF or notebook."""
    v = base(call, files.ReadResult)
    request = as_type(call.input, files.ReadInput)
    result = v["r"]
    path = request.file_path if request else ""
    path = path or (result.file_path if result is not None else None) or ""
    asked = Fields()
    if request is not None:
        asked.add("From line", request.offset).add("Lines", request.limit)
        asked.add("Pages", request.pages, "code").add("Large files allowed", request.allow_large)
    range_ = ""
    notes: list[str] = []
    code: Code | None = None
    image: Image | None = None
    got: list[Field] = []
    cells: list[NotebookCell] = []
    pages: list[PdfPage] = []
    if isinstance(result, files.ReadTextResult):
        range_, notes, code, got = _read_text(result, path)
    elif isinstance(result, files.ReadImageResult):
        file = as_type(result.file, files.ImageFile)
        if file is not None:
            image = Image(text_of(file.base64), text_of(file.type))
            size = as_type(file.dimensions, files.ImageDimensions)
            fields = Fields().add("Size", size_of(file.original_size))
            if size is not None and size.original_width:
                fields.add("Dimensions", f"{size.original_width}×{size.original_height}")
                if size.display_width and size.display_width != size.original_width:
                    shown = f"{size.display_width}×{size.display_height}"
                    fields.add("Shown to the model at", shown)
            got = fields.rows
    elif isinstance(result, files.ReadNotebookResult):
        cells = _notebook_cells(result)
    elif isinstance(result, files.ReadPdfResult):
        pdf = as_type(result.file, files.PdfFile)
        got = Fields().add("Size", size_of(pdf.original_size) if pdf else "").rows
        notes.append("The whole PDF was given to the model; it is not drawn here.")
    elif isinstance(result, files.ReadPartsResult):
        parts = as_type(result.file, files.PartsFile)
        first = int_of(result.first_page) or 1
        pages = [
            PdfPage(
                number=first + index,
                data=text_of(page.base64),
                media_type=text_of(page.media_type) or "image/png",
                error=text_of(page.error),
            )
            for index, page in enumerate(list_of(result.pages))
        ]
        if parts is not None:
            fields = Fields().add("Pages extracted", parts.count)
            fields.add("Size", size_of(parts.original_size))
            got = fields.add("Saved in", parts.output_dir, "code").rows
    elif isinstance(result, files.ReadUnchangedResult):
        notes.append("Unchanged since it was last read: no content was sent again.")
    elif result is None and v["error"] is None and call.result_text:
        numbered = numbered_text(call.result_text)
        if numbered is not None:
            code = file_code(numbered[0], path, numbered[1])
    return ReadView(
        **v,
        path=path,
        asked=asked.rows,
        got=got,
        notes=notes,
        range=range_,
        code=code,
        image=image,
        cells=cells,
        pages=pages,
        summary=path,
    )


def _diff_change(
    path: str, hunks: Any, original: str, old: str, new: str, replace_all: bool
) -> Diff:
    """The diff of one replacement: recorded hunks, else computed, in place in the whole file
    when the original is known (so line numbers are the file's), else from the two strings."""
    if hunks:
        return Diff(to_builtins(hunks), filename=path)
    if original and old and old in original:
        updated = original.replace(old, new) if replace_all else original.replace(old, new, 1)
        return Diff(None, old=original, new=updated, filename=path)
    return Diff(None, old=old, new=new, filename=path)


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


class EditView(PreparedView, frozen=True, kw_only=True):
    """A replacement in a file (``tools/edit.html``): its ``diff``, ``applied`` or only
    proposed, and the ``instruction`` that came with it (Gemini CLI)."""

    path: str = ""
    diff: Diff
    applied: bool = False
    instruction: str = ""

    def parts(self) -> list[TextPart]:
        said = text_part("field", self.instruction, "Instruction")
        return [*said, piece_part(self.diff, self.path, result=self.applied)]


def prepare_edit(call: ToolCall, h: ViewHelpers) -> EditView:
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
    return EditView(
        **v,
        path=path,
        diff=_diff_change(path, patch, original, old, new, replace_all),
        applied=result is not None or call.status == "ok",
        badges=badges + _change_badges(result),
        summary=path,
    )


class MultiEditView(PreparedView, frozen=True, kw_only=True):
    """Replacements in one file (``tools/multi_edit.html``): one diff of the file, or one
    ``(label, diff)`` per replacement; ``count``: how many."""

    path: str = ""
    diffs: Sequence[tuple[str, Diff]] = ()
    count: int = 0
    applied: bool = False

    def parts(self) -> list[TextPart]:
        return [
            piece_part(diff, label or self.path, result=self.applied) for label, diff in self.diffs
        ]


def prepare_multi_edit(call: ToolCall, h: ViewHelpers) -> MultiEditView:
    """MultiEdit: the replacements as one diff of the file, or one diff per replacement."""
    v = base(call, files.MultiEditResult)
    request = as_type(call.input, files.MultiEditInput)
    result: files.MultiEditResult | None = v["r"]
    path = (request.file_path if request else "") or (text_of(result.file_path) if result else "")
    edits = [
        e for e in list_of(request.edits if request else None) if isinstance(e, files.EditOperation)
    ]
    diffs: list[tuple[str, Diff]] = []
    original = text_of(result.original_file_contents) if result else ""
    if result is not None and result.structured_patch:
        diffs.append(("", Diff(to_builtins(result.structured_patch), filename=path)))
    elif original and edits:
        updated = original
        for edit in edits:
            old, new = text_of(edit.old_string), text_of(edit.new_string)
            updated = (
                updated.replace(old, new) if edit.replace_all else updated.replace(old, new, 1)
            )
        diffs.append(("", Diff(None, old=original, new=updated, filename=path)))
    else:
        for number, edit in enumerate(edits, 1):
            label = f"Edit {number}" if len(edits) > 1 else ""
            label += " (every occurrence)" if edit.replace_all else ""
            diffs.append(
                (label, Diff(None, old=text_of(edit.old_string), new=text_of(edit.new_string)))
            )
    return MultiEditView(
        **v,
        path=path,
        diffs=diffs,
        count=len(edits),
        applied=result is not None or call.status == "ok",
        badges=_change_badges(result),
        summary=f"{path} ({len(edits)} edits)" if len(edits) > 1 else path,
    )


class WriteView(PreparedView, frozen=True, kw_only=True):
    """A file written (``tools/write.html``): ``kind`` ``create`` or ``update``, its content
    (``code``) or, for an overwritten file whose old content is known, the ``diff``."""

    path: str = ""
    kind: str = ""
    diff: Diff | None = None
    code: Code | None = None
    applied: bool = False

    def parts(self) -> list[TextPart]:
        shown = self.diff or self.code
        return [piece_part(shown, self.path, result=self.applied)] if shown else []


def prepare_write(call: ToolCall, h: ViewHelpers) -> WriteView:
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
            diff = Diff(to_builtins(result.structured_patch), filename=path)
        elif isinstance(result.original_file, str):
            diff = Diff(None, old=result.original_file, new=content, filename=path)
    badges = {"create": [("created", "ok")], "update": [("updated", "info")]}.get(kind, [])
    return WriteView(
        **v,
        path=path,
        kind=kind,
        diff=diff,
        code=None if diff is not None else file_code(content, path),
        applied=result is not None or call.status == "ok",
        badges=badges + _change_badges(result),
        summary=path,
    )


class NotebookEditView(PreparedView, frozen=True, kw_only=True):
    """A notebook cell changed (``tools/notebook_edit.html``): how (``mode``), which cell
    (``where``), its ``source`` as a diff or as code, and the ``cell_error`` reported."""

    path: str = ""
    mode: str = "replace"
    where: Sequence[Field] = ()
    source: Diff | Code | None = None
    cell_error: str = ""

    def parts(self) -> list[TextPart]:
        parts = [TextPart("field", self.path, "Notebook"), TextPart("field", self.mode, "Edit")]
        parts += field_parts(self.where)
        if self.source is not None:
            parts.append(piece_part(self.source, result=self.r is not None))
        return parts + text_part("error", self.cell_error, "Error", result=True)


def prepare_notebook_edit(call: ToolCall, h: ViewHelpers) -> NotebookEditView:
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
    source: Diff | Code | None = None
    if old and mode != "insert":
        source = Diff(None, old=old, new=new if mode != "delete" else "")
    elif new and mode != "delete":
        source = Code(new, language=language)
    where = Fields().add("Cell", cell, "code").add("Cell number", number)
    where.add("Cell type", cell_type).add("Language", text_of(result.language) if result else "")
    return NotebookEditView(
        **v,
        path=path,
        mode=mode or "replace",
        where=where.rows,
        source=source,
        cell_error=text_of(result.error) if result else "",
        summary=path,
    )


class ListingView(PreparedView, frozen=True, kw_only=True):
    r"""A directory listed (``tools/ls.html``): its ``path``, the patterns it ``ignore``\ d and
    the ``tree`` listed."""

    path: str = ""
    ignore: Sequence[str] = ()
    tree: str = ""

    def parts(self) -> list[TextPart]:
        parts = [*text_part("field", self.path, "Directory")]
        parts += text_part("field", ", ".join(self.ignore), "Ignoring")
        return parts + text_part("result", self.tree, result=True)


def prepare_ls(call: ToolCall, h: ViewHelpers) -> ListingView:
    """LS: the directory tree it listed."""
    v = base(call)
    request = as_type(call.input, files.LsInput)
    result = call.result
    path = text_of(request.path) if request else ""
    tree = ""
    if v["error"] is None:
        tree = result.text if isinstance(result, TextResult) else call.result_text
    return ListingView(
        **v,
        path=path,
        ignore=list_of(request.ignore) if request else [],
        tree=tree,
        summary=path,
    )
