"""Sessions written out: one self-contained HTML file, GitHub-flavoured Markdown, JSON.

Every writer takes ``transform``: a function applied to every string of the session before it is
written (the hook secret redaction plugs into). :func:`resolve_session` finds a session by path,
id or id prefix. :func:`export_sessions` writes many sessions as HTML, with an index page, in
worker processes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_names

if TYPE_CHECKING:
    from .bulk import BulkExport, ExportedSession, export_sessions
    from .html_file import export_html
    from .json_document import FORMAT, VERSION, export_json, json_pieces, session_document
    from .markdown_file import export_markdown
    from .resolve import AmbiguousSession, SessionNotFound, resolve_session
    from .transform import Transform, transform_session, transform_value

#: The export formats, by the name ``cclens export -f`` takes.
FORMATS = ("html", "md", "json")

#: Where each name lives: a module is imported when one of its names is first used, so that
#: ``cclens export --help`` and a Markdown export load no HTML renderer.
_PLACES = {
    "BulkExport": ".bulk",
    "ExportedSession": ".bulk",
    "export_sessions": ".bulk",
    "export_html": ".html_file",
    "FORMAT": ".json_document",
    "VERSION": ".json_document",
    "export_json": ".json_document",
    "json_pieces": ".json_document",
    "session_document": ".json_document",
    "export_markdown": ".markdown_file",
    "AmbiguousSession": ".resolve",
    "SessionNotFound": ".resolve",
    "resolve_session": ".resolve",
    "Transform": ".transform",
    "transform_session": ".transform",
    "transform_value": ".transform",
}

__all__ = [
    "FORMAT",
    "FORMATS",
    "VERSION",
    "AmbiguousSession",
    "BulkExport",
    "ExportedSession",
    "SessionNotFound",
    "Transform",
    "export_html",
    "export_json",
    "export_markdown",
    "export_sessions",
    "json_pieces",
    "resolve_session",
    "session_document",
    "transform_session",
    "transform_value",
]

__getattr__ = lazy_names(__name__, _PLACES)
