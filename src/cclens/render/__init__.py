"""Sessions turned into views: HTML pages (Jinja2 templates), per-tool views, safe markdown.

:func:`render_session_page` draws a whole HTML document, :func:`render_session_body` the
``<main>`` part the web app wraps in its own layout, :func:`render_index_page` the index of a
bulk export; :func:`static_files` gives the CSS and
JavaScript they use and :data:`CSP` the Content-Security-Policy they are served with. Tool views
follow the contract of :mod:`cclens.render.views`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_names

if TYPE_CHECKING:
    from .assets import CSP, static_files
    from .context import PageContext, page_context
    from .index_page import IndexEntry, render_index_page
    from .options import RenderOptions
    from .page import SessionRenderer, render_session_body, render_session_page
    from .tool_views import view_for
    from .views import ToolView, ViewHelpers

#: Where each name lives: a module is imported when one of its names is first used (the
#: options alone load no template, lexer or markdown parser).
_PLACES = {
    "CSP": ".assets",
    "static_files": ".assets",
    "PageContext": ".context",
    "page_context": ".context",
    "IndexEntry": ".index_page",
    "render_index_page": ".index_page",
    "RenderOptions": ".options",
    "SessionRenderer": ".page",
    "render_session_body": ".page",
    "render_session_page": ".page",
    "view_for": ".tool_views",
    "ToolView": ".views",
    "ViewHelpers": ".views",
}

__all__ = [
    "CSP",
    "IndexEntry",
    "PageContext",
    "RenderOptions",
    "SessionRenderer",
    "ToolView",
    "ViewHelpers",
    "page_context",
    "render_index_page",
    "render_session_body",
    "render_session_page",
    "static_files",
    "view_for",
]

__getattr__ = lazy_names(__name__, _PLACES)
