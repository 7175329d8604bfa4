"""The plan limits panel of ``/stats`` and ``GET /api/limits``: each agent's usage windows
(the use now, the reset, the pace) and their history, which ``static/limits.js`` plots with
the resets (:mod:`cclens.reports.limits`)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from starlette.requests import Request
from starlette.responses import Response

from ..index import Index
from ..reports.limits import LimitsReport, limits_report, report_json
from .api import JSONResponse
from .filters import FilterError
from .state import app_state

#: How far back the panel plots by default (the use now is from each window's latest sample,
#: however old).
PLOTTED_DAYS = 14


def limits_panel(
    index: Index, now: datetime | None = None, days: int = PLOTTED_DAYS
) -> LimitsReport:
    """The panel's figures: every window with samples, and its history of the last ``days``
    (at least its latest sample)."""
    now = now or datetime.now(UTC)
    return limits_report(index, now, since=now - timedelta(days=days))


def limits_api(request: Request) -> Response:
    """``GET /api/limits``: what ``cclens limits --json`` prints (see docs/web.md), with the
    history of the last ``?days=N`` (default 14)."""
    text = request.query_params.get("days", "")
    try:
        days = int(text) if text else PLOTTED_DAYS
        if not 1 <= days <= 3650:
            raise ValueError
    except ValueError:
        problem = FilterError(f"days: {text!r} is not a number of days from 1 to 3650")
        return JSONResponse({"error": str(problem)}, status_code=400)
    return JSONResponse(report_json(limits_panel(app_state(request).index, days=days)))


__all__ = ["PLOTTED_DAYS", "limits_api", "limits_panel"]
