"""The typed view a tool's ``prepare`` returns, drawn alike as HTML, Markdown and terminal text.

A view's ``prepare(call, h)`` (see :mod:`cclens.render.views`) works out, once, what a call
shows, as a :class:`PreparedView`: the fields every view has (the typed input ``i``, the typed
result ``r``, the ``error`` a failed or refused call reported, ``rejected``, ``badges``,
``notes``, the header ``summary`` of a headline view) and, in the subclass of its family
(a command, a file read, a diff, a search...), its own. Every output draws the same object:

* the page's template (``tools/<view>.html``) reads its attributes (``v.command``);
* Markdown (``cclens export -f md``) and the terminal (``cclens show``) draw its
  :meth:`~PreparedView.text_parts`: a short list of :class:`TextPart` (a command, a file's
  content, a diff, an output stream, a named field, a checklist item...), each saying what it is.

What only a page draws richly is kept as data, not markup: :class:`Code` (highlighted),
:class:`Diff` (a diff table), :class:`Prose` (markdown) and :class:`Tree` (a JSON tree) are
drawn by the templates' ``draw`` filter, and written as text by :func:`piece_text`, so a text
output never pays for HTML. Strings stay untrusted text: templates escape them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Literal

import msgspec
from msgspec.structs import replace

from ..model import format_json, to_builtins
from .diff import MAX_DIFF_CHARS, build_hunks, unified_text
from .lexers import lexer_for

if TYPE_CHECKING:
    from .summary import ToolSummary

__all__ = [
    "Code",
    "Diff",
    "Field",
    "FieldKind",
    "Image",
    "Link",
    "Piece",
    "PreparedView",
    "Prose",
    "TextKind",
    "TextPart",
    "Tree",
    "below_summary",
    "field_parts",
    "piece_part",
    "piece_text",
    "text_part",
]


class _Drawn:
    """What the templates' ``draw`` filter draws: put in a page as it is, it raises (rather
    than being written as its ``repr``)."""

    __slots__ = ()

    def __html__(self) -> str:
        raise TypeError(f"a {type(self).__name__} is drawn with the draw filter")


class Code(msgspec.Struct, _Drawn, frozen=True):
    """Text drawn highlighted, lines numbered from ``start_line``: a file's content, a script.

    The language is ``language``, else guessed from ``filename``; ``fold_after``: the lines
    past this many wait in an inert ``<template>`` until shown.
    """

    text: str
    language: str | None = None
    filename: str | None = None
    start_line: int = 1
    fold_after: int | None = None

    @property
    def lines(self) -> int:
        """How many lines the text has (a final newline ends the last one)."""
        text = self.text
        return text.count("\n") + (0 if text.endswith("\n") else 1) if text else 0

    @property
    def fence(self) -> str:
        """The language's short name, for a fenced block (``python``), or ``""``."""
        if self.language:
            return self.language
        lexer = lexer_for(filename=self.filename) if self.filename else None
        return lexer.aliases[0] if lexer is not None and lexer.aliases else ""


class Diff(msgspec.Struct, _Drawn, frozen=True):
    """A diff: ``structuredPatch`` hunks, else computed between ``old`` and ``new``."""

    hunks: Any = None
    old: str | None = None
    new: str | None = None
    filename: str | None = None

    @property
    def text(self) -> str:
        """The diff in unified form (``@@ -3 +3 @@``, then ``+``, ``-`` and context lines)."""
        old, new = self.old or "", self.new or ""
        if not self.hunks and len(old) + len(new) > MAX_DIFF_CHARS:
            return f"(too large to compare: {len(old)} and {len(new)} characters)"
        return unified_text(build_hunks(to_builtins(self.hunks), old=self.old, new=self.new))


class Prose(msgspec.Struct, _Drawn, frozen=True):
    """Markdown written by a person or a model (a prompt, a plan, an answer)."""

    text: str


class Tree(msgspec.Struct, _Drawn, frozen=True):
    """A JSON value, drawn as a collapsible tree (model values are converted with
    :func:`~cclens.model.to_builtins`)."""

    value: Any


#: What a page draws richly and text writes plainly.
Piece = Code | Diff | Prose | Tree


class Image(msgspec.Struct, frozen=True):
    """An image in base64 (drawn by the page's ``h.image``, which refuses unsafe types)."""

    data: str
    media_type: str

    @property
    def note(self) -> str:
        """What text outputs write instead of the image."""
        return f"(image: {self.media_type})" if self.media_type else "(image)"


class Link(msgspec.Struct, frozen=True):
    """A link to an ``http``/``https`` URL or an in-page ``#anchor``, never another scheme."""

    href: str
    text: str


FieldKind = Literal["text", "code", "pre", "html", "link"]


class Field(msgspec.Struct, frozen=True):
    """One named value of a call, ready to lay out.

    ``kind`` says how: ``text`` inline, ``code`` inline code, ``pre`` a block of text, ``html``
    a :data:`Piece` (a JSON tree, highlighted code, markdown), ``link`` a :class:`Link`.
    """

    label: str
    kind: FieldKind
    value: Any


#: ``command``: what ran (``language``: bash, powershell, javascript, sql…); ``code``: a file's
#: or a cell's content, a script, a patch, JSON; ``diff``: a unified diff; ``stdout``,
#: ``stderr``, ``error``, ``result``: output text; ``markdown``: prose (a prompt, a plan, an
#: answer); ``field``: one named value; ``item``: one entry of a checklist (``label``: its
#: status: ``pending``, ``in_progress``, ``completed``, ``removed``…); ``note``: a short line.
TextKind = Literal[
    "command",
    "code",
    "diff",
    "stdout",
    "stderr",
    "error",
    "result",
    "markdown",
    "field",
    "item",
    "note",
]


class TextPart(msgspec.Struct, frozen=True):
    """One thing a view shows, as text: ``kind`` (:data:`TextKind`), the ``text``, a
    ``label`` (a stream's or a field's name, a file's path), the ``language`` of code, and
    whether it stands for the call's ``result`` (then an output does not repeat the result as
    the model saw it, as the page does not)."""

    kind: TextKind
    text: str
    label: str = ""
    language: str = ""
    result: bool = False


def piece_text(piece: Piece) -> str:
    """A piece as plain text: code and prose as written, a diff unified, a tree as JSON."""
    if isinstance(piece, Tree):
        return format_json(to_builtins(piece.value)).decode()
    return piece.text


def piece_part(piece: Piece, label: str = "", *, result: bool = False) -> TextPart:
    """A piece as a :class:`TextPart` of its kind."""
    if isinstance(piece, Code):
        return TextPart("code", piece.text, label, piece.fence, result)
    if isinstance(piece, Diff):
        return TextPart("diff", piece.text, label, "diff", result)
    if isinstance(piece, Prose):
        return TextPart("markdown", piece.text, label, result=result)
    return TextPart("code", piece_text(piece), label, "json", result)


def field_parts(rows: Iterable[Field], *, result: bool = False) -> list[TextPart]:
    """Field rows as ``field`` parts (a piece-valued one as a part of the piece's kind)."""
    parts: list[TextPart] = []
    for row in rows:
        if row.kind == "html":
            parts.append(piece_part(row.value, row.label, result=result))
        else:
            value = str(row.value)
            if isinstance(row.value, Link):  # a web address as it is, a call by its name
                value = row.value.text if row.value.href.startswith("#") else row.value.href
            parts.append(TextPart("field", value, row.label, result=result))
    return parts


def below_summary(
    parts: Iterable[TextPart], summary: ToolSummary, kinds: Sequence[TextKind] = ("field",)
) -> list[TextPart]:
    """The parts a text output writes under a call's summary line: a one-line part of
    ``kinds`` the summary shows whole is left out, and so is a label it names (a file's path)."""
    argument = summary.argument
    kept = []
    for part in parts:
        if part.kind in kinds and " ".join(part.text.split()) == argument:
            continue
        kept.append(replace(part, label="") if part.label and part.label == argument else part)
    return kept


def text_part(
    kind: TextKind, text: str, label: str = "", language: str = "", *, result: bool = False
) -> list[TextPart]:
    """A one-part list of ``text`` as a part of ``kind``, or ``[]`` when ``text`` is empty."""
    return [TextPart(kind, text, label, language, result)] if text else []


class PreparedView(msgspec.Struct, frozen=True, kw_only=True):
    """What every prepared view has; each family's subclass adds its own fields.

    ``i``: the typed input; ``r``: the typed result when it has the tool's shape, else
    ``None``; ``error``: what a failed or refused call reported (``None`` when it did not
    fail); ``rejected``: the user refused the call; ``summary``: the folded row's words of a
    ``headline`` view (see :class:`~cclens.render.views.ToolView`); ``badges``: ``(text,
    kind)`` pairs (kinds: error, warn, ok, info, muted); ``notes``: short lines said of the
    call; ``template``: the template that draws it when not the view's own (Copilot's
    ``str_replace_editor`` is drawn by its command's).
    """

    i: Any
    r: Any = None
    error: str | None = None
    rejected: bool = False
    summary: str = ""
    badges: Sequence[tuple[str, str]] = ()
    notes: Sequence[str] = ()
    template: str = ""

    #: How an error is named in text (the page's words).
    error_label: ClassVar[str] = "Error"
    #: Whether the page draws the notes with the result (a file read's notes).
    notes_with_result: ClassVar[bool] = False

    def parts(self) -> list[TextPart]:
        """What this family of views shows, in order (the error and notes come after)."""
        return []

    def text_parts(self) -> list[TextPart]:
        """Everything the view shows, as text: its own parts, its notes, then its error."""
        parts = self.parts()
        with_result = self.notes_with_result
        parts += [TextPart("note", note, result=with_result) for note in self.notes if note]
        if self.error:
            label = "Refused" if self.rejected else self.error_label
            parts.append(TextPart("error", self.error, label, result=True))
        return parts
