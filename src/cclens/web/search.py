"""``/search`` and ``/api/search``: one search, read from the query string, run off the event
loop, and stopped when the client goes away.

Both answer from one :class:`~cclens.index.SearchResult` (the page draws it, the API sends its
``as_json()``). A parameter that cannot be used gives ``400`` naming it; a query too broad to
rank within the budget gives ``422``.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import TypeVar
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import Response

from ..figures.period import DateError, parse_moment
from ..index import (
    DOCUMENT_KINDS,
    MAX_SHOWN,
    ORIGINS,
    SEMANTIC_LANGUAGES,
    Budget,
    IndexUnusable,
    Origin,
    ProjectChoice,
    QueryTooBroad,
    SearchCancelled,
    SearchError,
    SearchFilters,
    SearchResult,
)
from ..index import SEARCH_MODES as MODES
from ..readers.agents import AGENTS
from .api import JSONResponse
from .pages import page
from .state import AppState, app_state

#: How often a running search looks whether its client is still there, in seconds.
_WATCH_SECONDS = 0.05
#: Sessions per page, and hits per session.
PAGE_SESSIONS = 10
PER_SESSION = 3
#: Hits shown for a search narrowed to one session.
ONE_SESSION = MAX_SHOWN

Result = TypeVar("Result")


class ParameterError(ValueError):
    """A query parameter that cannot be used; the message names it."""


def _moment(name: str, text: str, *, end: bool) -> datetime | None:
    """A search bound, as ``cclens search`` reads it (UTC unless the text says otherwise)."""
    if not text:
        return None
    try:
        return parse_moment(text, end=end, zone=UTC)
    except DateError as error:
        raise ParameterError(f"{name}: {error}") from None


def _number(params: dict[str, str], name: str, default: int, low: int, high: int) -> int:
    text = params.get(name, "").strip()
    if not text:
        return default
    try:
        return min(max(int(text), low), high)
    except ValueError:
        raise ParameterError(f"{name}: {text!r} is not a number") from None


@dataclass(frozen=True, slots=True)
class SearchRequest:
    """A search as the page or the API receives it (query string parameters).

    ``q``, ``project``, ``since`` and ``until`` (``YYYY-MM-DD`` or an ISO time; a bare ``until``
    includes that day), ``tool``, ``kind`` (repeatable), ``errors=1``, ``origin`` (``main`` or
    ``subagent``), ``agent`` (``claude``, ``codex``...), ``session`` (a session's id),
    ``offset`` and ``limit`` (sessions), ``per_session`` (hits shown per session), ``mode``
    (``lexical``, ``semantic`` or ``hybrid``; default: hybrid when the index has vectors),
    ``like`` and ``anchor`` (more like this: the texts nearest in meaning to the message
    ``anchor`` of session ``like``).
    """

    query: str = ""
    filters: SearchFilters = field(default_factory=SearchFilters)
    offset: int = 0
    limit: int = PAGE_SESSIONS
    per_session: int = PER_SESSION
    mode: str | None = None
    #: More like this: (session key, message anchor).
    like: tuple[str, str] | None = None
    #: The parameters as given, to fill the form and build links.
    params: tuple[tuple[str, str], ...] = ()
    #: Why the parameters cannot be used (then nothing is searched).
    problem: str = ""

    def value(self, name: str) -> str:
        """The parameter ``name`` as given (its first value), or ``""``."""
        return next((value for key, value in self.params if key == name), "")

    def link(self, **changes: str | None) -> str:
        """``/search`` with these parameters, ``changes`` applied (``None`` or ``""`` drops one;
        ``offset`` goes unless changed)."""
        kept = [
            (key, value)
            for key, value in self.params
            if key not in changes and key != "offset" and value
        ]
        kept.extend((key, value) for key, value in changes.items() if value)
        return "/search?" + urlencode(kept)


def read_search(request: Request) -> SearchRequest:
    """Read a search from the query string; a bad value is named in ``problem``."""
    params = tuple(request.query_params.multi_items())
    single = dict(reversed(params))  # the first value of each
    try:
        kinds = tuple(value for key, value in params if key == "kind" and value)
        unknown = [kind for kind in kinds if kind not in DOCUMENT_KINDS]
        if unknown:
            raise ParameterError(f"kind: {unknown[0]!r} is not one of {', '.join(DOCUMENT_KINDS)}")
        origin_text = single.get("origin", "")
        origin: Origin | None = next((o for o in ORIGINS if o == origin_text), None)
        if origin_text and origin is None:
            raise ParameterError(f"origin: {origin_text!r} is not one of {', '.join(ORIGINS)}")
        session = single.get("session") or None
        agent = single.get("agent") or None
        if agent is not None and agent not in AGENTS:
            raise ParameterError(f"agent: {agent!r} is not one of {', '.join(AGENTS)}")
        filters = SearchFilters(
            project=single.get("project") or None,
            since=_moment("since", single.get("since", "").strip(), end=False),
            until=_moment("until", single.get("until", "").strip(), end=True),
            tool=single.get("tool") or None,
            kinds=kinds,
            errors_only=single.get("errors") in ("1", "on", "true", "yes"),
            session=session,
            origin=origin,
            agent=agent,
        )
        # One session is one group: all its hits (up to MAX_SHOWN) are shown.
        limit = 1 if session else _number(single, "limit", PAGE_SESSIONS, 1, 100)
        per_session = _number(
            single, "per_session", ONE_SESSION if session else PER_SESSION, 1, MAX_SHOWN // limit
        )
        mode = single.get("mode") or None
        if mode is not None and mode not in MODES:
            raise ParameterError(f"mode: {mode!r} is not one of {', '.join(MODES)}")
        like = None
        if single.get("like"):
            if not single.get("anchor"):
                raise ParameterError("like: give the message too (anchor=…)")
            like = (single["like"], single["anchor"])
        return SearchRequest(
            query=single.get("q", ""),
            mode=mode,
            like=like,
            filters=filters,
            offset=_number(single, "offset", 0, 0, 1_000_000),
            limit=limit,
            per_session=per_session,
            params=params,
        )
    except ParameterError as error:
        return SearchRequest(query=single.get("q", ""), params=params, problem=str(error))


def learn_when_indexed(state: AppState) -> threading.Thread:
    """Start a thread that, once the first update is done, reads what search groups and counts
    by for every document, and the model and vectors of search by meaning (so the first
    searches are as fast as the next ones)."""

    def learn() -> None:
        while not state.indexer.ready.wait(0.5):
            if state.stopping.is_set():
                return
        # The server stopped and closed the index meanwhile, or the file cannot be read (pages
        # say so): searches then read what they need as they go.
        with suppress(sqlite3.Error, IndexUnusable):
            state.index.learn_search_facts()
            state.index.warm_semantic()

    thread = threading.Thread(target=learn, name="cclens-search-facts", daemon=True)
    thread.start()
    return thread


async def cancel_on_disconnect(
    request: Request, run: Callable[[threading.Event], Result], stopping: threading.Event
) -> Result:
    """``run(cancelled)`` in a worker thread; ``cancelled`` is set when the client disconnects
    (or the server stops), which stops the search within a few milliseconds."""
    cancelled = threading.Event()
    task = asyncio.ensure_future(asyncio.to_thread(run, cancelled))
    try:
        while True:
            done, _ = await asyncio.wait({task}, timeout=_WATCH_SECONDS)
            if done:
                return task.result()
            if stopping.is_set() or await request.is_disconnected():
                cancelled.set()
    finally:
        cancelled.set()  # the handler itself was cancelled: the search stops too


@dataclass(frozen=True, slots=True)
class Outcome:
    """A search run for a request: its result, or why there is none and the status to send."""

    wanted: SearchRequest
    result: SearchResult | None = None
    error: str = ""
    status: int = 200


async def run_search(request: Request, *, blank: bool = False) -> Outcome | None:
    """Read and run the request's search (``None`` when the client went away meanwhile).

    A blank query is searched (finding nothing) only with ``blank``; otherwise the outcome has
    no result.
    """
    state = app_state(request)
    wanted = read_search(request)
    if wanted.problem:
        return Outcome(wanted, error=wanted.problem, status=400)
    if not blank and not wanted.query.strip() and wanted.like is None:
        return Outcome(wanted)

    def run(cancelled: threading.Event) -> SearchResult:
        return state.index.search_results(
            wanted.query,
            wanted.filters,
            offset=wanted.offset,
            limit=wanted.limit,
            per_session=wanted.per_session,
            budget=Budget(state.settings.search_seconds, cancelled),
            mode=wanted.mode,
            like=wanted.like,
        )

    state.searches += 1
    try:
        result = await cancel_on_disconnect(request, run, state.stopping)
    except SearchCancelled:
        state.searches_cancelled += 1
        return None
    except QueryTooBroad as error:
        return Outcome(wanted, error=str(error), status=422)
    except SearchError as error:
        return Outcome(wanted, error=str(error), status=400)
    finally:
        state.searches -= 1
    return Outcome(wanted, result)


async def search_api(request: Request) -> Response:
    """``GET /api/search``: the result as JSON (see docs/web.md), or ``{"error": ...}``."""
    outcome = await run_search(request, blank=True)
    if outcome is None:
        return Response(status_code=499)
    if outcome.error or outcome.result is None:
        return JSONResponse({"error": outcome.error}, status_code=outcome.status)
    return JSONResponse(outcome.result.as_json())


@dataclass(frozen=True, slots=True)
class FacetLink:
    """A facet value as the page shows it: a link that narrows the search, or clears it."""

    label: str
    hits: int
    href: str
    active: bool = False


@dataclass(frozen=True, slots=True)
class SearchContext:
    """``search.html``: the form's values and choices, the result (or why there is none), the
    facets as links, and links to the pages around."""

    request: SearchRequest
    result: SearchResult | None
    error: str
    projects: list[ProjectChoice]
    kinds: tuple[str, ...]
    facets: list[tuple[str, list[FacetLink]]]
    previous: str
    next: str
    #: The modes the index can search in now (the first is the default; one: no choice).
    modes: tuple[str, ...] = ("lexical",)
    #: The languages search by meaning serves (said beside the toggle).
    languages: str = SEMANTIC_LANGUAGES
    #: The agents the index holds (the form offers them when there are several).
    agents: list[str] = field(default_factory=list)


_FACET_TITLES = {
    "project": "Project",
    "agent": "Agent",
    "kind": "Kind of text",
    "tool": "Tool",
    "error": "Errors",
    "origin": "Where",
    "month": "Month",
}
_ORIGIN_LABELS = {"main": "main conversation", "subagent": "subagents"}


def _month_bounds(month: str) -> tuple[str, str]:
    year, number = (int(part) for part in month.split("-"))
    first = date(year, number, 1)
    following = date(year + number // 12, number % 12 + 1, 1)
    return first.isoformat(), (following - timedelta(days=1)).isoformat()


def facet_links(wanted: SearchRequest, result: SearchResult) -> list[tuple[str, list[FacetLink]]]:
    """Each facet of ``result`` as links: a value narrows the search to it; the value already
    chosen links back to the search without it."""
    sections: list[tuple[str, list[FacetLink]]] = []
    chosen_kinds = set(wanted.filters.kinds)
    for name, values in result.facets.items():
        links: list[FacetLink] = []
        for value in values:
            label = value.label.replace("_", " ") if name == "kind" else value.label
            if name == "project":
                active = wanted.value("project") == value.value
                href = wanted.link(project=None if active else value.value)
            elif name == "agent":
                active = wanted.filters.agent == value.value
                href = wanted.link(agent=None if active else value.value)
            elif name == "kind":
                active = value.value in chosen_kinds
                href = wanted.link(kind=None if active else value.value)
            elif name == "tool":
                active = (wanted.filters.tool or "").casefold() == value.value.casefold()
                href = wanted.link(tool=None if active else value.value)
            elif name == "error":
                active = wanted.filters.errors_only
                href = wanted.link(errors=None if active else "1")
                label = "errors only"
            elif name == "origin":
                active = wanted.filters.origin == value.value
                href = wanted.link(origin=None if active else value.value)
                label = _ORIGIN_LABELS.get(value.value, value.value)
            else:
                since, until = _month_bounds(value.value)
                active = (wanted.value("since"), wanted.value("until")) == (since, until)
                href = (
                    wanted.link(since=None, until=None)
                    if active
                    else wanted.link(since=since, until=until)
                )
            links.append(FacetLink(label, value.hits, href, active))
        if links:
            sections.append((_FACET_TITLES.get(name, name), links))
    return sections


async def search_page(request: Request) -> Response:
    """``/search``: the form, the facets and the sessions found (see :class:`SearchContext`)."""
    state = app_state(request)
    outcome = await run_search(request)
    if outcome is None:
        return Response(status_code=499)
    wanted, result = outcome.wanted, outcome.result
    previous = following = ""
    if result is not None:
        if result.offset > 0:
            back = max(result.offset - result.limit, 0)
            previous = wanted.link(offset=str(back) if back else None)
        if result.more:
            following = wanted.link(offset=str(result.offset + result.limit))
    context = SearchContext(
        request=wanted,
        result=result,
        error=outcome.error,
        projects=state.index.project_choices(),
        kinds=DOCUMENT_KINDS,
        facets=facet_links(wanted, result) if result is not None else [],
        previous=previous,
        next=following,
        modes=state.index.search_modes(),
        agents=state.index.agents(),
    )
    return page(state, "search.html", outcome.status, search=context)


__all__ = [
    "FacetLink",
    "Outcome",
    "ParameterError",
    "SearchContext",
    "SearchRequest",
    "cancel_on_disconnect",
    "facet_links",
    "learn_when_indexed",
    "read_search",
    "run_search",
    "search_api",
    "search_page",
]
