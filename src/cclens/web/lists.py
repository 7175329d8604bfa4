"""The sessions view and the project list: pages and JSON, over one listing function.

``/`` (the home page) and ``/sessions`` show every session of every project, the most recent
first; ``/projects/{id}`` the same view narrowed to one project; ``/projects`` the projects,
their figures added up over the sessions the same filters keep. ``/api/sessions`` and
``/api/projects`` answer the same parameters (:mod:`cclens.web.session_query`) in JSON. All of
them call :meth:`cclens.index.Index.sessions` or :meth:`cclens.index.Index.projects`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from starlette.requests import Request
from starlette.responses import Response

from ..index import (
    PROJECT_SORTS,
    SESSION_SORTS,
    ListError,
    ProjectSummary,
    SessionFilters,
    SessionPage,
    Totals,
)
from ..index.watch import Status
from ..readers.agents import homes
from ..readers.resume import fork_points
from .api import JSONResponse, asked_session
from .pages import not_found, page
from .session_query import QueryError, SessionsQuery, sessions_query
from .state import AppState, app_state


@dataclass(frozen=True, slots=True)
class Column:
    """A column heading: its label, and the link that sorts by it (``None``: not sortable)."""

    label: str
    key: str | None = None
    numeric: bool = False
    #: The link that sorts by this column (or reverses the order when it already does).
    url: str = ""
    #: ``ascending``/``descending`` when the list is sorted by this column (for aria-sort).
    sorted: str | None = None


#: The sessions table: (label, sort key, numeric).
SESSION_COLUMNS: tuple[tuple[str, str, bool], ...] = (
    ("Session", "title", False),
    ("Project", "project", False),
    ("Agent", "agent", False),
    ("Last activity", "last_activity", False),
    ("Duration", "duration", True),
    ("Prompts", "prompts", True),
    ("Tool calls", "tool_calls", True),
    ("Failed", "failures", True),
    ("Tokens", "tokens", True),
    ("Cost", "cost", True),
    ("Models", "models", False),
    ("Branch", "branch", False),
    ("Version", "version", False),
    ("Archived", "archived", False),
)

#: Projects a page of the project list shows unless ``limit`` says otherwise.
PROJECT_PAGE = 200

#: The projects table, as :data:`SESSION_COLUMNS`.
PROJECT_COLUMNS: tuple[tuple[str, str, bool], ...] = (
    ("Project", "project", False),
    ("Sessions", "sessions", True),
    ("Last activity", "last_activity", False),
    ("Prompts", "prompts", True),
    ("Tool calls", "tool_calls", True),
    ("Failed", "failures", True),
    ("Tokens", "tokens", True),
    ("Cost", "cost", True),
)


#: What the sort menus call each key (every key of the index's sorts, in menu order).
SESSION_SORT_LABELS: tuple[tuple[str, str], ...] = (
    ("last_activity", "Last activity"),
    ("started", "Start"),
    ("title", "Title"),
    ("project", "Project"),
    ("duration", "Duration"),
    ("prompts", "Prompts"),
    ("tool_calls", "Tool calls"),
    ("failures", "Failed tool calls"),
    ("tokens", "Tokens"),
    ("cost", "Cost"),
    ("models", "Models"),
    ("branch", "Git branch"),
    ("version", "Agent version"),
    ("archived", "Archived"),
    ("agent", "Agent"),
)
PROJECT_SORT_LABELS: tuple[tuple[str, str], ...] = (
    ("last_activity", "Last activity"),
    ("first_activity", "First activity"),
    ("project", "Project"),
    ("sessions", "Sessions"),
    ("archived", "Archived sessions"),
    ("prompts", "Prompts"),
    ("tool_calls", "Tool calls"),
    ("failures", "Failed tool calls"),
    ("tokens", "Tokens"),
    ("cost", "Cost"),
)


def _columns(
    query: SessionsQuery,
    path: str,
    specs: tuple[tuple[str, str, bool], ...],
    direction: str,
) -> list[Column]:
    columns = []
    for label, key, numeric in specs:
        current = key == query.sort
        if current:
            flipped = "asc" if direction == "desc" else "desc"
            url = query.url(path, sort=key, order=flipped, offset=None)
        else:
            url = query.url(path, sort=key, order=None, offset=None)
        state = ("ascending" if direction == "asc" else "descending") if current else None
        columns.append(Column(label, key, numeric, url, state))
    return columns


#: Projects and branches the filter form suggests (the most recently active, the most used).
SUGGESTED = 300


@dataclass(frozen=True, slots=True)
class FilterChoices:
    """What the filter form offers: the projects most recently active and the branches most
    used (as suggestions: any other can be typed), every model seen, and how much the index
    holds."""

    projects: list[ProjectSummary]
    models: list[str]
    branches: list[str]
    totals: Totals
    #: The agents with a session in the index, most sessions first.
    agents: list[str] = field(default_factory=list)


def _choices(state: AppState) -> FilterChoices:
    """The choices (the index works each list out again only after it changed)."""
    index = state.index
    return FilterChoices(
        index.projects()[:SUGGESTED],
        index.models(),
        index.branches()[:SUGGESTED],
        index.totals(),
        index.agents(),
    )


@dataclass(frozen=True, slots=True)
class SessionsContext:
    """``sessions.html``: the sessions view (the home page, ``/sessions``, a project's page).

    ``page`` is what :meth:`~cclens.index.Index.sessions` returned (``None`` after a bad
    parameter, which ``error`` names); ``project`` is set on a project's page; ``previous``
    and ``next`` link the neighbouring pages. With an empty index (``totals.sessions == 0``)
    the home page explains where sessions come from (``roots``, ``default_roots``).
    """

    path: str
    query: SessionsQuery | None
    page: SessionPage | None
    columns: list[Column]
    choices: FilterChoices
    totals: Totals
    status: Status
    error: str = ""
    project: ProjectSummary | None = None
    home: bool = False
    previous: str | None = None
    next: str | None = None
    roots: list[str] = field(default_factory=list)
    default_roots: list[str] = field(default_factory=list)
    sorts: tuple[tuple[str, str], ...] = SESSION_SORT_LABELS


def _empty_query() -> SessionsQuery:
    return SessionsQuery({}, SessionFilters(), "last_activity", None, 0, 0)


def _sessions_view(
    request: Request, path: str, *, project: ProjectSummary | None = None, home: bool = False
) -> Response:
    state = app_state(request)
    error = ""
    listed: SessionPage | None = None
    columns: list[Column] = []
    query: SessionsQuery | None = None
    try:
        query = sessions_query(request.query_params, sorts=SESSION_SORTS)
        filters = query.filters
        if project is not None:
            filters = replace(filters, project=project.slug)
        listed = state.index.sessions(
            filters, sort=query.sort, order=query.order, limit=query.limit, offset=query.offset
        )
        columns = _columns(query, path, SESSION_COLUMNS, listed.order)
    except (QueryError, ListError) as problem:
        error = str(problem)
    previous = following = None
    if query is not None and listed is not None:
        if listed.offset > 0:
            previous = query.url(path, offset=max(listed.offset - query.limit, 0) or None)
        if listed.more:
            following = query.url(path, offset=listed.offset + len(listed))
    choices = _choices(state)
    context = SessionsContext(
        path=path,
        query=query or _empty_query(),
        page=listed,
        columns=columns,
        choices=choices,
        totals=choices.totals,
        status=state.indexer.status,
        error=error,
        project=project,
        home=home,
        previous=previous,
        next=following,
        roots=[str(root) for root in state.settings.claude_dirs],
        default_roots=[str(root) for root in homes()],
    )
    return page(state, "sessions.html", 400 if error else 200, view=context)


def home(request: Request) -> Response:
    """``/``: the sessions view, the most recent first (see :class:`SessionsContext`)."""
    return _sessions_view(request, "/", home=True)


def sessions(request: Request) -> Response:
    """``/sessions``: the sessions view."""
    return _sessions_view(request, "/sessions")


def project(request: Request) -> Response:
    """``/projects/{slug}``: the sessions view of one project."""
    state = app_state(request)
    slug = request.path_params["slug"]
    summary = state.index.project(slug)
    if summary is None:
        return not_found(state, f"project {slug}")
    return _sessions_view(request, request.url.path, project=summary)


@dataclass(frozen=True, slots=True)
class ProjectsContext:
    """``projects.html``: the projects with a session the filters keep, added up over those
    sessions, a page at a time (``total`` in all; ``previous`` and ``next`` link the
    neighbouring pages)."""

    query: SessionsQuery
    projects: list[ProjectSummary]
    total: int
    columns: list[Column]
    choices: FilterChoices
    totals: Totals
    error: str = ""
    sorts: tuple[tuple[str, str], ...] = PROJECT_SORT_LABELS
    previous: str | None = None
    next: str | None = None


def projects(request: Request) -> Response:
    """``/projects``: every project (see :class:`ProjectsContext`)."""
    state = app_state(request)
    error = ""
    found: list[ProjectSummary] = []
    columns: list[Column] = []
    query = _empty_query()
    total = 0
    previous = following = None
    try:
        query = sessions_query(request.query_params, sorts=PROJECT_SORTS, limit=PROJECT_PAGE)
        found = state.index.projects(
            query.filters, sort=query.sort, order=query.order, limit=query.limit,
            offset=query.offset,
        )  # fmt: skip
        total = state.index.count_projects(query.filters)
        direction = query.order or PROJECT_SORTS[query.sort][1]
        columns = _columns(query, "/projects", PROJECT_COLUMNS, direction)
        if query.offset > 0:
            previous = query.url("/projects", offset=max(query.offset - query.limit, 0) or None)
        if query.offset + len(found) < total:
            following = query.url("/projects", offset=query.offset + len(found))
    except (QueryError, ListError) as problem:
        error = str(problem)
    choices = _choices(state)
    context = ProjectsContext(
        query, found, total, columns, choices, choices.totals, error,
        previous=previous, next=following,
    )  # fmt: skip
    return page(state, "projects.html", 400 if error else 200, view=context)


def _bad(problem: Exception) -> JSONResponse:
    return JSONResponse({"error": str(problem)}, status_code=400)


def api_sessions(request: Request) -> Response:
    """``GET /api/sessions``: a page of the sessions view (``SessionPage.as_json``)."""
    try:
        query = sessions_query(request.query_params, sorts=SESSION_SORTS)
        listed = app_state(request).index.sessions(
            query.filters,
            sort=query.sort,
            order=query.order,
            limit=query.limit,
            offset=query.offset,
        )
    except (QueryError, ListError) as problem:
        return _bad(problem)
    return JSONResponse(listed.as_json())


def api_projects(request: Request) -> Response:
    """``GET /api/projects``: the projects the filters keep, as a list (all of them unless
    ``limit`` is given)."""
    try:
        query = sessions_query(request.query_params, sorts=PROJECT_SORTS)
        found = app_state(request).index.projects(query.filters, sort=query.sort, order=query.order)
    except (QueryError, ListError) as problem:
        return _bad(problem)
    return JSONResponse([summary.as_json() for summary in found])


def api_project_sessions(request: Request) -> Response:
    """``GET /api/projects/{id}/sessions``: a project and all its sessions, latest first."""
    index = app_state(request).index
    slug = request.path_params["slug"]
    summary = index.project(slug)
    if summary is None:
        return JSONResponse({"error": f"no project {slug}"}, status_code=404)
    listed = index.sessions(SessionFilters(project=slug))
    return JSONResponse({"project": summary.as_json(), "sessions": [s.as_json() for s in listed]})


def api_resume(request: Request) -> Response:
    """``GET /api/sessions/{id}/resume``: the command that resumes the session, and for each
    message (by its anchor) the command that forks the session there."""
    asked = asked_session(request)
    if isinstance(asked, Response):
        return asked
    _, summary, loaded = asked
    resume = summary.resume
    messages = {
        anchor: {"at": uuid, "command": resume.at_message(uuid).shell}
        for anchor, uuid in fork_points(loaded.session).items()
    }
    return JSONResponse({"session": summary.key, "resume": resume.as_json(), "fork": messages})


__all__ = [
    "PROJECT_COLUMNS",
    "PROJECT_SORT_LABELS",
    "SESSION_COLUMNS",
    "SESSION_SORT_LABELS",
    "Column",
    "FilterChoices",
    "ProjectsContext",
    "SessionsContext",
    "api_project_sessions",
    "api_projects",
    "api_resume",
    "api_sessions",
    "home",
    "project",
    "projects",
    "sessions",
]
