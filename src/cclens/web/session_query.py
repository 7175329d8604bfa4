"""The sessions view's filters and sort, as query parameters (so a view is a URL to share).

``q`` (words in the title, first prompt, directory or id), ``project``, ``since`` and ``until``
(``YYYY-MM-DD``, local days of the machine serving the page, both included), ``model``,
``branch``, ``errors`` (``1``: only sessions with a failed tool call, ``0``: only those
without), ``archived`` (``1``: only archived sessions, ``0``: only those on disk), ``sort`` (a
key of :data:`cclens.index.SESSION_SORTS`, or of :data:`cclens.index.PROJECT_SORTS` for the
project list), ``order`` (``asc`` or ``desc``), ``limit`` (1–500) and ``offset``. The pages,
``/api/sessions`` and ``/api/projects`` read the same parameters.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from urllib.parse import urlencode

from starlette.datastructures import QueryParams

from ..figures.period import Period
from ..index import SessionFilters
from ..readers.agents import AGENTS
from .filters import FilterError, day_parameter

#: Sessions a page shows unless ``limit`` says otherwise.
PAGE_SIZE = 50
MAX_LIMIT = 500
#: The parameters that choose sessions (the rest choose their order and page).
FILTER_NAMES = (
    "q",
    "project",
    "agent",
    "since",
    "until",
    "model",
    "branch",
    "errors",
    "archived",
)
_YES = ("1", "true", "yes", "on")
_NO = ("0", "false", "no", "off")


#: A parameter that cannot be used; the message names it (the dashboard's filters raise it too).
QueryError = FilterError


def _choice(name: str, text: str) -> bool | None:
    if not text:
        return None
    if text.lower() in _YES:
        return True
    if text.lower() in _NO:
        return False
    raise QueryError(f"{name}: {text!r} is not 1 or 0")


def _number(name: str, text: str, default: int, low: int, high: int) -> int:
    if not text:
        return default
    try:
        value = int(text)
    except ValueError:
        raise QueryError(f"{name}: {text!r} is not a number") from None
    return min(max(value, low), high)


@dataclass(frozen=True, slots=True)
class SessionsQuery:
    """The parameters of a sessions or projects view, as given (to fill the form again and
    build links) and as read (:attr:`filters`)."""

    values: dict[str, str]
    filters: SessionFilters
    sort: str
    order: str | None
    limit: int
    offset: int

    def value(self, name: str) -> str:
        """A parameter as given (empty when absent)."""
        return self.values.get(name, "")

    @property
    def filtered(self) -> bool:
        """Whether any filter is set."""
        return any(self.values.get(name) for name in FILTER_NAMES)

    def url(self, path: str, **changes: str | int | None) -> str:
        """``path`` with these parameters and ``changes`` (``None`` or ``""`` drops one)."""
        merged: dict[str, str] = dict(self.values)
        for name, change in changes.items():
            if change is None or change == "":
                merged.pop(name, None)
            else:
                merged[name] = str(change)
        query = urlencode([(name, value) for name, value in merged.items() if value])
        return f"{path}?{query}" if query else path

    def filter_query(self) -> str:
        """The filters alone, as a query string (to carry them to another view)."""
        return urlencode([(n, self.values[n]) for n in FILTER_NAMES if self.values.get(n)])


def sessions_query(
    params: QueryParams,
    *,
    sorts: Collection[str],
    default_sort: str = "last_activity",
    limit: int = PAGE_SIZE,
) -> SessionsQuery:
    """Read the parameters (``sorts``: the sort keys the view knows; ``limit``: how many a
    page shows unless told); a bad value raises :class:`QueryError`."""
    names = (*FILTER_NAMES, "sort", "order", "limit", "offset")
    values = {name: params.get(name, "").strip() for name in names}
    values = {name: value for name, value in values.items() if value}
    since = day_parameter("since", values.get("since", ""))
    until = day_parameter("until", values.get("until", ""))
    period = Period(since=since, until=until)
    sort = values.get("sort") or default_sort
    if sort not in sorts:
        raise QueryError(f"sort: {sort!r} is not one of {', '.join(sorts)}")
    order = values.get("order") or None
    if order not in (None, "asc", "desc"):
        raise QueryError(f"order: {order!r} is not asc or desc")
    agent = values.get("agent") or None
    if agent is not None and agent not in AGENTS:
        raise QueryError(f"agent: {agent!r} is not one of {', '.join(AGENTS)}")
    filters = SessionFilters(
        text=values.get("q") or None,
        agent=agent,
        project=values.get("project") or None,
        since=period.start,
        until=period.end,
        model=values.get("model") or None,
        branch=values.get("branch") or None,
        errors=_choice("errors", values.get("errors", "")),
        archived=_choice("archived", values.get("archived", "")),
    )
    return SessionsQuery(
        values=values,
        filters=filters,
        sort=sort,
        order=order,
        limit=_number("limit", values.get("limit", ""), limit, 1, MAX_LIMIT),
        offset=_number("offset", values.get("offset", ""), 0, 0, 10**9),
    )


__all__ = [
    "FILTER_NAMES",
    "MAX_LIMIT",
    "PAGE_SIZE",
    "QueryError",
    "SessionsQuery",
    "sessions_query",
]
