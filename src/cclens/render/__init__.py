"""Sessions turned into views: HTML pages (Jinja2 templates), per-tool views, safe markdown.

:func:`render_session_page` draws a whole HTML document, :func:`render_session_body` the
``<main>`` part the web app wraps in its own layout, :func:`render_index_page` the index of a
bulk export; :func:`static_files` gives the CSS and
JavaScript they use and :data:`CSP` the Content-Security-Policy they are served with. Tool views
follow the contract of :mod:`cclens.render.views`.
"""

from .assets import CSP, static_files
from .context import PageContext, page_context
from .index_page import IndexEntry, render_index_page
from .options import RenderOptions
from .page import SessionRenderer, render_session_body, render_session_page
from .tool_views import view_for
from .views import ToolView, ViewHelpers

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
