"""``/api/sessions/{id}/timeline``: a session over time, for the timeline on its page."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from ..figures.timeline import session_timeline
from .api import JSONResponse, asked_session


def timeline(request: Request) -> Response:
    """``GET /api/sessions/{id}/timeline``: turns, tool calls, context sizes and compactions of
    the session's main line (see :mod:`cclens.figures.timeline`), and the session's figures
    (subagents included) as its header gives them."""
    asked = asked_session(request)
    if isinstance(asked, Response):
        return asked
    key, summary, loaded = asked
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
