"""The contract between the page renderer and the per-tool views.

A :class:`ToolView` names a partial template and a ``prepare`` function that turns a
:class:`~cclens.model.session.ToolCall` into its typed prepared view
(:class:`~cclens.render.prepared.PreparedView`), which that template draws, and Markdown and
the terminal draw as its text parts. The views live in
:mod:`cclens.render.tool_views` (``TOOL_VIEWS`` by tool name, ``MCP_VIEW`` for ``mcp__*`` tools),
whose :func:`~cclens.render.tool_views.view_for` picks one with a single explicit fallback, the
``generic`` view (:mod:`cclens.render.generic`).

Every view template is included by ``tools/_frame.html`` with three variables:

* ``call``: the :class:`~cclens.model.session.ToolCall`;
* ``v``: the view ``prepare(call, h)`` returned (its pieces drawn with the ``draw`` filter);
* ``h``: the :class:`ViewHelpers` of the page being rendered.

The frame draws the header (name, summary, status badges, duration). After the view's template it
adds the subagent sessions the view did not draw itself (through :meth:`ViewHelpers.session_items`)
and, when the view drew no result, the result text as the model saw it. A view tells the frame it
drew the result by putting it inside an element with ``data-part="result"`` (the ``output`` and
``result`` macros of ``_macros.html`` do so). What the folded header says of the call comes
from the view's ``summarize`` (see :mod:`cclens.render.summary`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import msgspec
from markupsafe import Markup

from . import diff as diff_module
from . import highlight as highlight_module
from . import images as images_module
from . import jsonview as jsonview_module
from . import markdown as markdown_module
from .prepared import Code, Diff, Piece, PreparedView, Prose, Tree
from .unshown import unshown_lines

if TYPE_CHECKING:
    from jinja2 import Environment

    from ..model.session import Session, ToolCall
    from .frame import ResultPart
    from .parts import Part
    from .summary import ToolSummary

__all__ = ["ToolView", "ViewHelpers", "draw"]


class ToolView(msgspec.Struct, frozen=True):
    """How one tool is drawn: ``template`` (e.g. ``"tools/bash.html"``) fed by ``prepare``.

    ``summarize``: what the call's folded row says (a :class:`~cclens.render.summary.ToolSummary`
    from the typed input: the argument that matters, in monospace, and a note), cheap enough for
    every row of a page; the same summary is drawn by the terminal and Markdown (see
    :mod:`cclens.render.summary`). ``headline``: ``prepare`` words the call's one-line summary
    (``v.summary``) and is cheap, so a page runs it for the folded header too (used only when
    the view has no ``summarize``); other views' ``prepare`` runs only when the call is opened.
    """

    name: str
    template: str
    prepare: Callable[[ToolCall, ViewHelpers], PreparedView]
    headline: bool = False
    summarize: Callable[[ToolCall], ToolSummary] | None = None


def draw(environment: Environment, piece: Piece) -> Markup:
    """A :data:`~cclens.render.prepared.Piece` as HTML (the templates' ``draw`` filter):
    highlighted code, a diff table, markdown, a JSON tree."""
    if isinstance(piece, Code):
        return highlight_module.render_code(
            environment,
            piece.text,
            language=piece.language,
            filename=piece.filename,
            start_line=piece.start_line,
            fold_after=piece.fold_after,
        )
    if isinstance(piece, Diff):
        return diff_module.render_diff(
            environment, piece.hunks, old=piece.old, new=piece.new, filename=piece.filename
        )
    if isinstance(piece, Prose):
        return markdown_module.render_markdown(piece.text, environment)
    if isinstance(piece, Tree):
        return jsonview_module.render_json(environment, piece.value)
    raise TypeError(f"not a piece a view draws: {type(piece).__name__}")


#: Default size above which a text is cut (with a note) rather than drawn whole.
DEFAULT_TRUNCATE = 200_000


class ViewHelpers:
    """What a view template may call to draw untrusted content safely.

    One instance serves one page render: it remembers which subagent sessions were drawn, so the
    frame draws the rest and a session that (wrongly) contains itself is not drawn forever.
    """

    def __init__(
        self,
        environment: Environment,
        nested: Callable[[Session], Part | None] | None = None,
        *,
        max_depth: int = 8,
        images: images_module.ImageStore | None = None,
    ) -> None:
        self._environment = environment
        self._nested = nested
        self.max_depth = max_depth
        self._images = images
        self._drawn: set[int] = set()

    def markdown(self, text: str, *, breaks: bool = False) -> Markup:
        """``text`` as CommonMark/GFM with raw HTML off, safe links and highlighted code.

        ``breaks`` keeps single line breaks (for prompts people typed).
        """
        return markdown_module.render_markdown(text, self._environment, breaks=breaks)

    def highlight(
        self,
        code: str,
        *,
        language: str | None = None,
        filename: str | None = None,
        start_line: int = 1,
        fold_after: int | None = None,
    ) -> Markup:
        """``code`` highlighted, lines numbered from ``start_line``.

        The language comes from ``language``, else from ``filename``; text over
        the size limit is drawn as plain escaped lines; with neither, the text is drawn plain.
        ``fold_after``: the lines past this many wait in an inert ``<template>`` until shown
        (pair it with the ``p.code`` clamp of the same limit).
        """
        return highlight_module.render_code(
            self._environment,
            code,
            language=language,
            filename=filename,
            start_line=start_line,
            fold_after=fold_after,
        )

    def diff(
        self,
        hunks: Sequence[Mapping[str, Any]] | None,
        *,
        old: str | None = None,
        new: str | None = None,
        filename: str | None = None,
    ) -> Markup:
        """A unified diff from ``structuredPatch`` hunks, or computed from ``old`` and ``new``."""
        return diff_module.render_diff(
            self._environment, hunks, old=old, new=new, filename=filename
        )

    def image(self, data: str, media_type: str) -> Markup:
        """An ``<img>`` (a ``data:`` URI, or a link to the page's image store when it has one);
        a note instead for a type that is not a safe image."""
        return images_module.render_image(self._environment, data, media_type, store=self._images)

    def json(self, value: Any) -> Markup:
        """``value`` as a readable, escaped, collapsible JSON tree."""
        return jsonview_module.render_json(self._environment, value)

    def unshown(self, parts: list[ResultPart], body: str) -> str:
        """The lines of the result's text parts that ``body`` (a view's HTML) does not show
        (see :func:`cclens.render.unshown.unshown_lines`)."""
        return unshown_lines([part.value for part in parts if part.kind == "text"], body)

    def truncate(self, text: str, limit: int) -> tuple[str, bool]:
        """``text`` cut to at most ``limit`` characters (at a line end when one is near)."""
        if len(text) <= limit:
            return text, False
        cut = text.rfind("\n", max(0, limit - 2000), limit)
        return text[: cut if cut > 0 else limit], True

    def session_items(self, session: Session) -> Markup:
        """A nested (subagent) session's items, folded (a part of the page: drawn when opened).

        A session already being drawn (a cycle) or nested deeper than the limit gets a note.
        """
        self._drawn.add(id(session))
        template = self._environment.get_template("_nested.html")
        part = self._nested(session) if self._nested else None
        return Markup(template.render(session=session, part=part))

    def was_drawn(self, session: Session) -> bool:
        """Whether :meth:`session_items` already drew ``session`` on this page."""
        return id(session) in self._drawn

    def forget(self, session: Session) -> None:
        """Count ``session`` as not drawn (its drawing was thrown away)."""
        self._drawn.discard(id(session))
