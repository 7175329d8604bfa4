"""HTML pages: one session; and live session fragments (lists: :mod:`.lists`, search:
:mod:`.search`).

Each page is drawn by one template from a small documented context; no HTML is built here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgspec
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from ..index import ProjectSummary, SessionSummary
from ..reports.limits import WindowUse, session_use
from .api import JSONResponse, asked_session
from .session_view import changed_items, page_state, parse_state, top_level
from .state import AppState, app_state


def page(state: AppState, template: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    """Draw ``template`` with ``context`` (plus what every page shows)."""
    body = state.environment.get_template(template).render(
        demo=state.settings.demo, status=state.indexer.status, **context
    )
    return HTMLResponse(body, status_code=status_code)


def not_found(state: AppState, what: str) -> HTMLResponse:
    """The 404 page."""
    return page(state, "not_found.html", 404, what=what)


@dataclass(frozen=True, slots=True)
class SessionContext:
    """``session.html``: the session's summary, its drawn body, and what live updates need."""

    summary: SessionSummary
    project: ProjectSummary | None
    body: Markup
    #: JSON: the last line shown of each file (sent back to ask for what is new).
    state: str
    #: The anchor of the last item shown (new items go after its element).
    last_anchor: str
    #: Which view drew the body ("render" or "built-in"), and the renderer's files to link.
    renderer: str
    #: Why the built-in view is shown instead of the renderer's, when it is.
    problem: str | None
    stylesheets: list[str]
    scripts: list[str]
    #: The JSON the renderer's script reads (where folded elements are, where to ask for
    #: parts), placed in a data script element; ``None`` for the built-in view.
    data: Markup | None = None
    #: How much of each plan window the session's time took (``_session_limits.html``).
    limits: list[WindowUse] = field(default_factory=list)
    #: The sessions nearest in meaning (summary, cosine), when the index has vectors.
    related: list[tuple[SessionSummary, float]] = field(default_factory=list)
    #: Whether messages offer "More like this" (the index can search by meaning).
    semantic: bool = False


def session(request: Request) -> Response:
    """``/sessions/{key}``: one session, drawn by the renderer (see :class:`SessionContext`)."""
    state = app_state(request)
    key = request.path_params["key"]
    summary = state.index.session(key)
    rendered = state.rendered(key, summary.revision) if summary else None
    if summary is None or rendered is None:
        return not_found(state, f"session {key}")
    shown = rendered.session
    items = top_level(shown)
    context = SessionContext(
        summary=summary,
        project=state.index.project(summary.project),
        body=Markup(rendered.body or ""),  # drawn by the renderer's autoescaped templates
        state=msgspec.json.encode(page_state(shown)).decode(),
        last_anchor=items[-1].anchor if items else "",
        renderer=state.renderer.name,
        problem=rendered.problem,
        stylesheets=sorted(name for name in state.render_assets if name.endswith(".css")),
        scripts=sorted(
            name for name in state.render_assets if name.endswith(".js") and name != THEME_SCRIPT
        ),
        # JSON escaped for a script element by the renderer (no "<" in it).
        data=Markup(rendered.drawn.data) if rendered.drawn and rendered.drawn.data else None,
        limits=session_use(
            state.index, summary.started, summary.ended, summary.session_id, summary.agent
        ),
        related=state.index.related_sessions(key),
        semantic="semantic" in state.index.search_modes(),
    )
    return page(state, "session.html", view=context)


#: The renderer's script that applies the remembered theme: loaded first, not deferred.
THEME_SCRIPT = "theme.js"


def session_part(request: Request) -> Response:
    """``/sessions/{key}/parts/{part}``: one folded part of the session page (an HTML
    fragment drawn by the renderer's templates), for the page to put where it goes."""
    html = app_state(request).part(request.path_params["key"], request.path_params["part"])
    if html is None:
        return Response("no such part\n", status_code=404, media_type="text/plain")
    return HTMLResponse(html)


def session_texts(request: Request) -> Response:
    """``/sessions/{key}/text``: every text of the session's page in page order, with the
    element that shows it (``[[id, kind, text], ...]``): what the page's find searches."""
    found = app_state(request).texts(request.path_params["key"])
    if found is None:
        return JSONResponse({"error": "no such session"}, status_code=404)
    return Response(found, media_type="application/json")


def session_image(request: Request) -> Response:
    """``/sessions/{key}/images/{digest}``: an image the session page links to (its name is
    the digest of its bytes, so the browser may keep it)."""
    found = app_state(request).image(request.path_params["key"], request.path_params["digest"])
    if found is None:
        return Response("no such image\n", status_code=404, media_type="text/plain")
    data, media_type = found
    headers = {"Cache-Control": "private, max-age=31536000, immutable"}
    return Response(data, media_type=media_type, headers=headers)


def session_updates(request: Request) -> Response:
    """What changed in a session since a page drew it: JSON with an HTML fragment.

    ``{"state": ..., "archived": bool, "anchors": [...], "html": "..."}``: the page replaces
    the elements with these ids, or appends them, and keeps ``state`` for next time.
    """
    asked = asked_session(request)
    if isinstance(asked, Response):
        return asked
    _, summary, rendered = asked
    since = parse_state(request.query_params.get("since", ""))
    items = changed_items(rendered.session, since) if since else []
    html = app_state(request).fragment(rendered, items) if items else ""
    return JSONResponse(
        {
            "state": page_state(rendered.session),
            "archived": summary.archived,
            "revision": summary.revision,
            "anchors": [item.anchor for item in items],
            "html": html,
        }
    )
