"""The single-file HTML export: the session page with its CSS, script and images inside."""

from __future__ import annotations

from ..parse.session import Session
from ..render import RenderOptions, render_session_page
from ..render.options import DEFAULT_OPTIONS
from .transform import JsonTransform, Transform, transform_session

__all__ = ["export_html"]


def export_html(
    session: Session,
    *,
    transform: Transform | None = None,
    json_transform: JsonTransform | None = None,
    options: RenderOptions = DEFAULT_OPTIONS,
) -> str:
    """``session`` as one self-contained HTML document that works offline from ``file://``.

    ``options.standalone`` is forced on: an exported file cannot link to a server's files.
    """
    session = transform_session(session, transform, json_transform=json_transform)
    if not options.standalone:
        options = RenderOptions(
            standalone=True,
            theme=options.theme,
            show_branches=options.show_branches,
            title_suffix=options.title_suffix,
        )
    return render_session_page(session, options)
