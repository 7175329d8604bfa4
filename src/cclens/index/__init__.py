"""The local index: one SQLite file (WAL, FTS5) that keeps every session, even deleted ones.

The only package with SQL. :class:`Index` is the way in::

    with Index(default_db_path()) as index:
        index.update(claude_dirs())
        found = index.search_results('"exit code" bash*')
        for group in found.groups:
            print(group.session_key, group.count, [hit.url for hit in group.shown])
        for session in index.sessions(SessionFilters(model="opus"), sort="cost", limit=10):
            print(session.key, session.title, session.cost)
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .connection import IndexReadOnly, IndexUnusable, move_aside
    from .database import Index
    from .extract import DOCUMENT_KINDS, EXTRACT_VERSION, MATCH_END, MATCH_START, DocumentKind
    from .ingest import Progress, UpdateReport
    from .location import (
        ENVIRONMENT_VARIABLE,
        WriteRefused,
        default_db_path,
        protected_dirs,
        refuse_inside,
    )
    from .queries import ProjectSummary, SessionSummary, Totals
    from .query import (
        MAX_PHRASE_WORDS,
        MAX_TERMS,
        ParsedQuery,
        QueryError,
        SearchError,
        parse_query,
        quote_query,
    )
    from .schema import LATEST as SCHEMA_VERSION
    from .search import (
        DEFAULT_SECONDS,
        MAX_SHOWN,
        ORIGINS,
        Budget,
        Origin,
        ProjectChoice,
        QueryTooBroad,
        SearchCancelled,
        SearchFilters,
    )
    from .search_result import FACETS, FacetValue, SearchHit, SearchResult, SessionGroup
    from .session_list import (
        PROJECT_SORTS,
        SESSION_SORTS,
        ListError,
        SessionFilters,
        SessionPage,
    )
    from .versions import SessionVersion

#: Where each public name lives: the package loads a module only when one of its names is
#: first used (a short-lived command, such as the status line, imports little).
_PLACES: dict[str, tuple[str, str]] = {
    "IndexReadOnly": (".connection", "IndexReadOnly"),
    "IndexUnusable": (".connection", "IndexUnusable"),
    "move_aside": (".connection", "move_aside"),
    "Index": (".database", "Index"),
    "DOCUMENT_KINDS": (".extract", "DOCUMENT_KINDS"),
    "EXTRACT_VERSION": (".extract", "EXTRACT_VERSION"),
    "MATCH_END": (".extract", "MATCH_END"),
    "MATCH_START": (".extract", "MATCH_START"),
    "DocumentKind": (".extract", "DocumentKind"),
    "Progress": (".ingest", "Progress"),
    "UpdateReport": (".ingest", "UpdateReport"),
    "ENVIRONMENT_VARIABLE": (".location", "ENVIRONMENT_VARIABLE"),
    "WriteRefused": (".location", "WriteRefused"),
    "default_db_path": (".location", "default_db_path"),
    "protected_dirs": (".location", "protected_dirs"),
    "refuse_inside": (".location", "refuse_inside"),
    "ProjectSummary": (".queries", "ProjectSummary"),
    "SessionSummary": (".queries", "SessionSummary"),
    "Totals": (".queries", "Totals"),
    "MAX_PHRASE_WORDS": (".query", "MAX_PHRASE_WORDS"),
    "MAX_TERMS": (".query", "MAX_TERMS"),
    "ParsedQuery": (".query", "ParsedQuery"),
    "QueryError": (".query", "QueryError"),
    "SearchError": (".query", "SearchError"),
    "parse_query": (".query", "parse_query"),
    "quote_query": (".query", "quote_query"),
    "SCHEMA_VERSION": (".schema", "LATEST"),
    "DEFAULT_SECONDS": (".search", "DEFAULT_SECONDS"),
    "MAX_SHOWN": (".search", "MAX_SHOWN"),
    "ORIGINS": (".search", "ORIGINS"),
    "Budget": (".search", "Budget"),
    "Origin": (".search", "Origin"),
    "ProjectChoice": (".search", "ProjectChoice"),
    "QueryTooBroad": (".search", "QueryTooBroad"),
    "SearchCancelled": (".search", "SearchCancelled"),
    "SearchFilters": (".search", "SearchFilters"),
    "FACETS": (".search_result", "FACETS"),
    "FacetValue": (".search_result", "FacetValue"),
    "SearchHit": (".search_result", "SearchHit"),
    "SearchResult": (".search_result", "SearchResult"),
    "SessionGroup": (".search_result", "SessionGroup"),
    "PROJECT_SORTS": (".session_list", "PROJECT_SORTS"),
    "SESSION_SORTS": (".session_list", "SESSION_SORTS"),
    "ListError": (".session_list", "ListError"),
    "SessionFilters": (".session_list", "SessionFilters"),
    "SessionPage": (".session_list", "SessionPage"),
    "SessionVersion": (".versions", "SessionVersion"),
}


def __getattr__(name: str) -> Any:
    place = _PLACES.get(name)
    if place is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(place[0], __name__), place[1])
    globals()[name] = value
    return value


__all__ = [
    "DEFAULT_SECONDS",
    "DOCUMENT_KINDS",
    "ENVIRONMENT_VARIABLE",
    "EXTRACT_VERSION",
    "FACETS",
    "MATCH_END",
    "MATCH_START",
    "MAX_PHRASE_WORDS",
    "MAX_SHOWN",
    "MAX_TERMS",
    "ORIGINS",
    "PROJECT_SORTS",
    "SCHEMA_VERSION",
    "SESSION_SORTS",
    "Budget",
    "DocumentKind",
    "FacetValue",
    "Index",
    "IndexReadOnly",
    "IndexUnusable",
    "ListError",
    "Origin",
    "ParsedQuery",
    "Progress",
    "ProjectChoice",
    "ProjectSummary",
    "QueryError",
    "QueryTooBroad",
    "SearchCancelled",
    "SearchError",
    "SearchFilters",
    "SearchHit",
    "SearchResult",
    "SessionFilters",
    "SessionGroup",
    "SessionPage",
    "SessionSummary",
    "SessionVersion",
    "Totals",
    "UpdateReport",
    "WriteRefused",
    "default_db_path",
    "move_aside",
    "parse_query",
    "protected_dirs",
    "quote_query",
    "refuse_inside",
]
