"""``/api/sessions/{id}/timeline``: a session over time, for the timeline on its page."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from ..figures.timeline import session_timeline
from .api import JSONResponse
from .state import app_state


def timeline(request: Request) -> Response:
    """``GET /api/sessions/{id}/timeline``: turns, tool calls, context sizes and compactions of
    the session's main line (see :mod:`cclens.figures.timeline`), and the session's figures
    (subagents included) as its header gives them."""
    state = app_state(request)
    key = request.path_params["key"]
    summary = state.index.session(key)
    loaded = state.loaded(key, summary.revision) if summary else None
    if summary is None or loaded is None:
        return JSONResponse({"error": f"no session {key}"}, status_code=404)
    found = session_timeline(loaded.session)
    return JSONResponse(
        {
            "session": key,
            "revision": summary.revision,
            "peak_context": found.peak_context,
            "figures": {
                "prompts": summary.prompts,
                "responses": summary.responses,
                "tool_calls": summary.tool_calls,
                "failed": summary.errors,
            },
            "timeline": found,
        }
    )


__all__ = ["timeline"]
