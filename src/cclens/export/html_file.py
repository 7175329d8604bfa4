"""The single-file HTML export: the session page with its CSS, script and images inside."""

from __future__ import annotations

from dataclasses import replace

from ..model.session import Session
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
    shared_assets: str | None = None,
) -> str:
    """``session`` as one self-contained HTML document that works offline from ``file://``.

    ``options.standalone`` is forced on: an exported file cannot link to a server's files.
    Every folded part is in the file. ``shared_assets``: a relative folder holding the pages'
    CSS and JavaScript (``cclens.css``, ``cclens.js``; a bulk export's pages share one copy),
    linked instead of inlined.
    """
    session = transform_session(session, transform, json_transform=json_transform)
    if shared_assets is not None:
        options = replace(options, standalone=False, static_url=shared_assets, embed_parts=True)
    elif not options.standalone:
        options = replace(options, standalone=True, static_url=DEFAULT_OPTIONS.static_url)
    return render_session_page(session, options)
