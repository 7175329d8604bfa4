"""Session pages: the whole document, the ``<main>`` part, and the nested drawing of subagents."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from markupsafe import Markup

from ..parse.session import Session, ToolCall
from .assets import CSP, page_css, page_js
from .context import PageContext, page_context
from .environment import template_environment
from .frame import tool_frame
from .options import DEFAULT_OPTIONS, RenderOptions
from .views import ToolView, ViewHelpers, generic_view, prepare_generic, view_for

__all__ = ["SessionRenderer", "render_session_body", "render_session_page"]


class SessionRenderer:
    """Draws one session page; holds what one render needs (helpers, drawn subagents).

    ``views`` picks each call's view (:func:`~cclens.render.views.view_for` by default).
    ``view_failures`` lists the calls whose own view raised: they are drawn by the generic view
    instead, so one broken view never loses a session; tests assert the list stays empty.
    """

    def __init__(
        self,
        options: RenderOptions = DEFAULT_OPTIONS,
        *,
        views: Callable[[ToolCall], ToolView] = view_for,
    ) -> None:
        self.options = options
        self.views = views
        self.environment = template_environment()
        self.helpers = ViewHelpers(self.environment, self._nested_items)
        self.view_failures: list[str] = []

    def _frame(
        self, call: ToolCall, view: ToolView, prepared: Mapping[str, Any], error: str = ""
    ) -> Markup:
        template = self.environment.get_template("tools/_frame.html")
        frame = tool_frame(call, prepared, error)
        return Markup(template.render(call=call, view=view, v=prepared, h=self.helpers, f=frame))

    def tool(self, call: ToolCall) -> Markup:
        """``call`` drawn by its view inside the tool frame."""
        view = self.views(call)
        if view is generic_view:
            return self._frame(call, view, prepare_generic(call, self.helpers))
        try:
            return self._frame(call, view, view.prepare(call, self.helpers))
        # A view's bug must not lose the session: the call is drawn generically instead.
        except Exception as error:
            for agent in call.subagents:
                self.helpers.forget(agent)
            message = f"{type(error).__name__}: {error}"
            self.view_failures.append(f"{call.name} {call.id} (view {view.name}): {message}")
            return self._frame(call, generic_view, prepare_generic(call, self.helpers), message)

    def context(self, session: Session, *, top: bool = True) -> PageContext:
        """The page context of ``session`` with these options (``top``: the page's own
        session, whose header shows ``options.figures`` when given)."""
        figures = self.options.figures if top else None
        return page_context(session, show_branches=self.options.show_branches, figures=figures)

    def _nested_items(self, session: Session) -> Markup:
        page = self.context(session, top=False)
        template = self.environment.get_template("_nested_items.html")
        return Markup(template.render(page=page, r=self, h=self.helpers))

    def body(self, session: Session) -> Markup:
        """The ``<main>`` element of ``session``'s page."""
        page = self.context(session)
        return self._body(page)

    def _body(self, page: PageContext) -> Markup:
        template = self.environment.get_template("body.html")
        return Markup(template.render(page=page, r=self, h=self.helpers, options=self.options))

    def page(self, session: Session) -> str:
        """The whole HTML document of ``session``."""
        page = self.context(session)
        body = self._body(page)
        standalone = self.options.standalone
        template = self.environment.get_template("page.html")
        return template.render(
            page=page,
            body=body,
            options=self.options,
            csp=CSP,
            css=Markup(page_css()) if standalone else None,
            js=Markup(page_js()) if standalone else None,
        )


def render_session_page(session: Session, options: RenderOptions = DEFAULT_OPTIONS) -> str:
    """``session`` as a whole HTML document (one self-contained file when ``standalone``)."""
    return SessionRenderer(options).page(session)


def render_session_body(session: Session, options: RenderOptions = DEFAULT_OPTIONS) -> str:
    """The ``<main>`` part of ``session``'s page, for a layout of the caller's own."""
    return str(SessionRenderer(options).body(session))
