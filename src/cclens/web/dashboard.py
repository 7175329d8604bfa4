"""``/stats``: the usage dashboard, and ``/api/stats``: the figures its charts are drawn from."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import Response

from ..index import ProjectSummary
from ..reports.limits import LimitsReport
from .activity_views import Calendar, HourGrid, calendar, hour_grid
from .api import JSONResponse
from .dashboard_figures import DashboardFigures
from .filters import TIME_GROUPINGS, FilterError, TimeGrouping, UsageFilters, usage_filters
from .limits_panel import limits_panel
from .live_block import LiveBlocks, live_blocks
from .pages import page
from .state import app_state


@dataclass(frozen=True, slots=True)
class FilterForm:
    """The values the shared filter form shows (``_filters.html``), as they were given."""

    projects: list[ProjectSummary]
    project: str
    since: str
    until: str
    agents: list[str]
    agent: str


def filter_form(request: Request, projects: list[ProjectSummary], agents: list[str]) -> FilterForm:
    """The form's values from the request's ``project``, ``since``, ``until`` and ``agent``
    (``agents``: those the index holds)."""
    params = request.query_params
    return FilterForm(
        projects,
        params.get("project", ""),
        params.get("since", ""),
        params.get("until", ""),
        agents,
        params.get("agent", ""),
    )


@dataclass(frozen=True, slots=True)
class DashboardContext:
    """``stats.html``: the filters, the figures (``None`` while they are being added up), and
    where the page's script fetches them (``api``)."""

    form: FilterForm
    by: TimeGrouping
    groupings: tuple[TimeGrouping, ...]
    figures: DashboardFigures | None
    error: str
    api: str
    #: Sessions in the index (said while the figures are being added up).
    sessions: int
    #: The live 5-hour block panel (``None`` when it could not be worked out).
    blocks: LiveBlocks | None = None
    #: The plan limits panel (``_limits.html``).
    limits: LimitsReport | None = None
    #: Days by weeks, and days by hours (``None`` without figures or responses).
    calendar: Calendar | None = None
    hours: HourGrid | None = None


def stats_page(request: Request) -> Response:
    """``/stats``: charts and tables of tokens, cost, tools and activity."""
    state = app_state(request)
    form = filter_form(request, state.index.projects(), state.index.agents())
    figures: DashboardFigures | None = None
    error = ""
    filters = UsageFilters()
    try:
        filters = usage_filters(request.query_params)
    except FilterError as problem:
        error = str(problem)
    else:
        figures = state.stats.cached(filters) or state.stats_worker.within(
            state.settings.page_wait_seconds, lambda: state.stats.figures(filters)
        )
    by = filters.by if not error else "day"
    context = DashboardContext(
        form=form,
        by=by,
        groupings=TIME_GROUPINGS,
        figures=figures,
        error=error,
        api="/api/stats?" + urlencode(filters.query()),
        sessions=state.index.totals().sessions,
        blocks=live_blocks(state.index),
        limits=limits_panel(state.index),
        calendar=calendar(figures.days) if figures is not None else None,
        hours=hour_grid(figures.day_hours) if figures is not None else None,
    )
    return page(state, "stats.html", 400 if error else 200, dashboard=context)


def stats_api(request: Request) -> Response:
    """``GET /api/stats``: the dashboard's figures (see docs/web.md)."""
    state = app_state(request)
    try:
        filters = usage_filters(request.query_params)
    except FilterError as problem:
        return JSONResponse({"error": str(problem)}, status_code=400)
    return JSONResponse(state.stats.figures(filters))


__all__ = [
    "DashboardContext",
    "FilterForm",
    "filter_form",
    "stats_api",
    "stats_page",
]
