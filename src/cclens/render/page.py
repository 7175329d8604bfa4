"""Session pages: the whole document, the ``<main>`` part, its folded parts, nested subagents.

With ``options.lazy`` (the default) the page draws what a reader sees before opening anything,
and every folded thing is a part (:mod:`cclens.render.parts`) drawn when asked: by the web app
when the page fetches it, or all at once, compressed, into an exported file.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from markupsafe import Markup

from ..model.session import Session, ToolCall
from .assets import CSP, page_css, page_js, theme_js
from .context import BranchView, ItemView, PageContext, page_context
from .environment import template_environment
from .find_index import FindEntry, find_entries, texts_by_part
from .frame import tool_frame
from .generic import generic_view, prepare_generic
from .images import ImageStore
from .lexers import set_up
from .options import DEFAULT_OPTIONS, RenderOptions
from .page_map import PageMap, agent_part, chunk_part, page_map, tool_part
from .part_workers import OrderMatters, draw_in_workers
from .parts import DATA_ELEMENT_ID, Part, PartStore, compress_json, pack_parts, page_data_json
from .prepared import PreparedView
from .tool_views import tool_summary, view_for
from .views import ToolView, ViewHelpers

__all__ = ["SessionRenderer", "render_session_body", "render_session_page"]


class SessionRenderer:
    """Draws one session page; holds what one render needs (helpers, parts, drawn subagents).

    ``views`` picks each call's view (:func:`~cclens.render.tool_views.view_for` by default).
    ``view_failures`` lists the calls whose own view raised: they are drawn by the generic view
    instead, so one broken view never loses a session; tests assert the list stays empty.
    ``parts`` holds the folded parts registered so far (see :meth:`part`).
    """

    def __init__(
        self,
        options: RenderOptions = DEFAULT_OPTIONS,
        *,
        views: Callable[[ToolCall], ToolView] = view_for,
    ) -> None:
        self.options = options
        self.lazy = options.lazy
        self.views = views
        self.environment = template_environment()
        #: The images the pages link instead of inlining (``options.images_url``, a page that is
        #: not standalone), else None.
        url = options.images_url
        self.images = ImageStore(url) if url and not options.standalone else None
        self.helpers = ViewHelpers(self.environment, self._nested, images=self.images)
        self.view_failures: list[str] = []
        self.parts = PartStore()
        # Page contexts by session: the page, its parts and its map share them.
        self._contexts: dict[tuple[int, bool], PageContext] = {}
        # The subagent sessions being drawn, outermost first (by part id, or object id when
        # drawn in place): a part drawn later is drawn in the nesting it was registered in.
        self._scope: tuple[str, ...] = ()

    # Parts -----------------------------------------------------------------------------------

    def part(self, part_id: str, template: str, **variables: Any) -> Part:
        """``template`` drawn with ``variables``: now when not lazy, else registered as a part.

        Templates draw ``part.html`` when it is there, else an empty ``data-lazy`` element.
        """
        scope = self._scope

        def draw() -> Markup:
            outer = self._scope
            self._scope = scope
            try:
                return Markup(
                    self.environment.get_template(template).render(
                        r=self, h=self.helpers, options=self.options, **variables
                    )
                )
            finally:
                self._scope = outer

        if not self.lazy:
            return Part(part_id, draw())
        self.parts.add(part_id, draw, scope)
        return Part(part_id)

    def scoped(self, name: str) -> str:
        """``name`` made unique to the subagent session being drawn (``line-N`` anchors repeat)."""
        return f"{'.'.join(self._scope)}.{name}" if self._scope else name

    def draw_part(self, part_id: str) -> str:
        """The HTML of a registered part (the web app's answer when a page opens one)."""
        return self.parts.draw(part_id)

    # Tool calls ------------------------------------------------------------------------------

    def _prepared(self, call: ToolCall, view: ToolView) -> tuple[ToolView, PreparedView, str]:
        if view is generic_view:
            return view, prepare_generic(call, self.helpers), ""
        try:
            return view, view.prepare(call, self.helpers), ""
        # A view's bug must not lose the session: the call is drawn generically instead.
        except Exception as error:
            for agent in call.subagents:
                self.helpers.forget(agent)
            message = f"{type(error).__name__}: {error}"
            self.view_failures.append(f"{call.name} {call.id} (view {view.name}): {message}")
            return generic_view, prepare_generic(call, self.helpers), message

    def _body(self, call: ToolCall, view: ToolView) -> tuple[Markup, ToolView]:
        """The body of ``call``'s frame, and the view that drew it (generic when its own
        failed)."""
        view, prepared, error = self._prepared(call, view)
        template = self.environment.get_template("tools/_body.html")
        frame = tool_frame(call, prepared, error)
        try:
            html = template.render(call=call, view=view, v=prepared, h=self.helpers, f=frame)
            return Markup(html), view
        except Exception as failure:  # a template's bug: the generic view draws the call
            if view is generic_view:
                raise
            for agent in call.subagents:
                self.helpers.forget(agent)
            message = f"{type(failure).__name__}: {failure}"
            self.view_failures.append(f"{call.name} {call.id} (view {view.name}): {message}")
            prepared = prepare_generic(call, self.helpers)
            frame = tool_frame(call, prepared, message)
            html = template.render(
                call=call, view=generic_view, v=prepared, h=self.helpers, f=frame
            )
            return Markup(html), generic_view

    def tool(self, call: ToolCall) -> Markup:
        """``call`` drawn by its view inside the tool frame (its body a part when lazy)."""
        view = self.views(call)
        scope = self._scope
        if self.lazy:
            # The header needs only the call, unless the view words its own summary (cheaply).
            prepared: PreparedView | None = None
            if view.headline:
                view, prepared, _ = self._prepared(call, view)

            def draw() -> Markup:
                outer = self._scope
                self._scope = scope
                try:
                    return self._body(call, view)[0]
                finally:
                    self._scope = outer

            self.parts.add(tool_part(call), draw, scope)
            body = Part(tool_part(call))
        else:
            html, drawn_by = self._body(call, view)
            body = Part(tool_part(call), html)
            prepared = self._prepared(call, view)[1] if view.headline and drawn_by is view else None
            view = drawn_by
        frame = tool_frame(call, prepared, summary=tool_summary(call))
        template = self.environment.get_template("tools/_frame.html")
        return Markup(template.render(call=call, view=view, f=frame, body=body))

    # Sessions --------------------------------------------------------------------------------

    def context(self, session: Session, *, top: bool = True) -> PageContext:
        """The page context of ``session`` with these options, made once per session (``top``:
        the page's own session, whose header shows ``options.counts`` when given)."""
        key = (id(session), top)
        found = self._contexts.get(key)
        if found is None or found.session is not session:
            counts = self.options.counts if top else None
            found = page_context(session, show_branches=self.options.show_branches, counts=counts)
            self._contexts[key] = found
        return found

    def _nested(self, session: Session) -> Part | None:
        """The items of a subagent session as a part; ``None`` when it is already being drawn
        (it contains itself) or nested too deep."""
        key = agent_part(session)
        if key in self._scope or len(self._scope) >= self.helpers.max_depth:
            return None
        inner = (*self._scope, key)
        outer = self._scope
        self._scope = inner
        try:
            return self.part(key, "_nested_items.html", page=self.context(session, top=False))
        finally:
            self._scope = outer

    def branch(self, branch: BranchView) -> Part:
        """The items of an abandoned branch, as a part."""
        return self.part(self.scoped(f"b.{branch.index}"), "_branch_items.html", branch=branch)

    def chunks(self, items: list[ItemView]) -> list[tuple[Part, int]]:
        """The main line in chunks of ``options.chunk_items``: the first drawn, then parts.

        Each with how many items it holds (the page sizes a chunk not drawn yet by it).
        """
        size = max(1, self.options.chunk_items) if self.lazy else max(1, len(items))
        chunks = []
        for number, start in enumerate(range(0, len(items), size)):
            part_items = items[start : start + size]
            if number == 0:
                template = self.environment.get_template("_items.html")
                html = Markup(template.render(items=part_items, r=self, h=self.helpers))
                chunks.append((Part(chunk_part(0), html), len(part_items)))
            else:
                chunks.append(
                    (
                        self.part(chunk_part(number), "_items.html", items=part_items),
                        len(part_items),
                    )
                )
        return chunks

    def page_map(self, session: Session) -> PageMap:
        """Where each item and tool call of ``session`` is drawn (see :mod:`.page_map`)."""
        return page_map(session, self.options, lambda s: self.context(s, top=s is session))

    def texts(self, session: Session) -> list[FindEntry]:
        """Every text of ``session``'s page in page order, with the element that shows it
        (what the page's find searches: :mod:`cclens.render.find_index`)."""
        return find_entries(session, lambda s: self.context(s, top=s is session))

    def body(self, session: Session) -> Markup:
        """The ``<main>`` element of ``session``'s page (folded parts registered, not drawn)."""
        page = self.context(session)
        return self._main(page)

    def _main(self, page: PageContext) -> Markup:
        template = self.environment.get_template("body.html")
        return Markup(template.render(page=page, r=self, h=self.helpers, options=self.options))

    def data(
        self,
        session: Session,
        *,
        parts: bool,
        source: str | None = None,
        found: PageMap | None = None,
        texts: str | None = None,
    ) -> str:
        """The JSON a page carries: where each element is drawn (``map``, compressed) and
        either every part, drawn and compressed (``parts``: an exported file), or the URL the
        page asks for a part under (``source``: the web app); and the text index its find
        searches (:meth:`texts`): compressed in the page (``text``), or the URL the page asks
        for it at (``texts``: the web app)."""
        found = found or self.page_map(session)
        data: dict[str, Any] = {"map": compress_json(found.as_json())}
        if parts:
            workers = self.options.workers
            size = sum(agent.file_size for agent in session.all_sessions())
            drawn = draw_in_workers(
                self.parts,
                workers,
                self.view_failures,
                size=size,
                prepare=lambda: self._set_up(session),
            )
            if drawn is None:
                drawn = self.parts.draw_all()
            data["parts"] = pack_parts(drawn, threads=workers)
            # The calls' texts are read from their parts, which the page carries.
            rows = {
                f"tool-{call.id}": tool_summary(call).line()
                for agent in session.all_sessions()
                for call in agent.tool_calls.values()
            }
            data["text"] = compress_json(texts_by_part(self.texts(session), drawn, rows))
        elif texts is None:
            data["text"] = compress_json(self.texts(session))
        if texts is not None:
            data["texts"] = texts
        if source is not None:
            data["source"] = source
        return page_data_json(data)

    def page(self, session: Session) -> str:
        """The whole HTML document of ``session``.

        A standalone (exported) page carries every part; a linked one asks the server for them
        (the web app), unless ``options.embed_parts`` (a bulk export's pages).
        """
        page = self.context(session)
        body = self._main(page)
        standalone = self.options.standalone
        embed = standalone if self.options.embed_parts is None else self.options.embed_parts
        try:
            data = (
                self.data(session, parts=embed)
                if self.lazy
                else page_data_json({"text": compress_json(self.texts(session))})
            )
        except OrderMatters:  # drawn apart, some part could come out otherwise: draw in one
            alone = SessionRenderer(replace(self.options, workers=1), views=self.views)
            html = alone.page(session)
            self.view_failures = alone.view_failures
            return html
        template = self.environment.get_template("page.html")
        return template.render(
            page=page,
            body=body,
            data=Markup(data) if data is not None else None,
            data_id=DATA_ELEMENT_ID,
            options=self.options,
            csp=CSP,
            theme_js=Markup(theme_js()),
            css=Markup(page_css()) if standalone else None,
            js=Markup(page_js()) if standalone else None,
        )

    def _set_up(self, session: Session) -> None:
        """What drawing ``session``'s parts sets up on first use, done once before drawing
        workers fork (each would do it again): the lexers (:func:`_set_up_lexers`), and the
        views of its calls with their templates (modules imported, templates loaded)."""
        _set_up_lexers(session)
        self.environment.get_template("tools/_body.html")
        seen: set[int] = set()
        for agent in session.all_sessions():
            for call in agent.tool_calls.values():
                view = self.views(call)
                if id(view) in seen:
                    continue
                seen.add(id(view))
                resolve = getattr(view.prepare, "resolve", None)
                if resolve is not None:
                    resolve()
                self.environment.get_template(view.template)


def _set_up_lexers(session: Session) -> None:
    """The lexers ``session``'s calls will most likely draw with, found before drawing workers
    fork (each would find them again: imports and token tables, 50-80 ms of CPU for a session
    of several languages): those of the files the calls name and the shell's."""
    files: set[str] = set()
    shell = False
    for agent in session.all_sessions():
        for call in agent.tool_calls.values():
            shell = shell or call.name == "Bash"
            arguments = call.block.input
            if isinstance(arguments, dict):
                files.update(
                    value.replace("\\", "/").rsplit("/", 1)[-1]
                    for key, value in arguments.items()
                    if key.endswith("path") and isinstance(value, str)
                )
    set_up(sorted(files), ["bash"] if shell else [])


def render_session_page(session: Session, options: RenderOptions = DEFAULT_OPTIONS) -> str:
    """``session`` as a whole HTML document (one self-contained file when ``standalone``)."""
    return SessionRenderer(options).page(session)


def render_session_body(session: Session, options: RenderOptions = DEFAULT_OPTIONS) -> str:
    """The ``<main>`` part of ``session``'s page, for a layout of the caller's own."""
    return str(SessionRenderer(options).body(session))
