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
    from .database import Index
    from .extract import DOCUMENT_KINDS, EXTRACT_VERSION, MATCH_END, MATCH_START, DocumentKind
    from .read.queries import ProjectSummary, SessionSummary, Totals
    from .read.query import (
        MAX_PHRASE_WORDS,
        MAX_TERMS,
        ParsedQuery,
        QueryError,
        SearchError,
        parse_query,
        quote_query,
    )
    from .read.search import (
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
    from .read.search_result import FACETS, FacetValue, SearchHit, SearchResult, SessionGroup
    from .read.session_list import (
        PROJECT_SORTS,
        SESSION_SORTS,
        ListError,
        SessionFilters,
        SessionPage,
    )
    from .storage.connection import IndexReadOnly, IndexUnusable, move_aside
    from .storage.location import (
        ENVIRONMENT_VARIABLE,
        WriteRefused,
        default_db_path,
        protected_dirs,
        refuse_inside,
    )
    from .storage.schema import LATEST as SCHEMA_VERSION
    from .storage.versions import SessionVersion
    from .write.ingest import Progress, UpdateReport

#: Where each public name lives: the package loads a module only when one of its names is
#: first used (a short-lived command, such as the status line, imports little).
_PLACES: dict[str, tuple[str, str]] = {
    "IndexReadOnly": (".storage.connection", "IndexReadOnly"),
    "IndexUnusable": (".storage.connection", "IndexUnusable"),
    "move_aside": (".storage.connection", "move_aside"),
    "Index": (".database", "Index"),
    "DOCUMENT_KINDS": (".extract", "DOCUMENT_KINDS"),
    "EXTRACT_VERSION": (".extract", "EXTRACT_VERSION"),
    "MATCH_END": (".extract", "MATCH_END"),
    "MATCH_START": (".extract", "MATCH_START"),
    "DocumentKind": (".extract", "DocumentKind"),
    "Progress": (".write.ingest", "Progress"),
    "UpdateReport": (".write.ingest", "UpdateReport"),
    "ENVIRONMENT_VARIABLE": (".storage.location", "ENVIRONMENT_VARIABLE"),
    "WriteRefused": (".storage.location", "WriteRefused"),
    "default_db_path": (".storage.location", "default_db_path"),
    "protected_dirs": (".storage.location", "protected_dirs"),
    "refuse_inside": (".storage.location", "refuse_inside"),
    "ProjectSummary": (".read.queries", "ProjectSummary"),
    "SessionSummary": (".read.queries", "SessionSummary"),
    "Totals": (".read.queries", "Totals"),
    "MAX_PHRASE_WORDS": (".read.query", "MAX_PHRASE_WORDS"),
    "MAX_TERMS": (".read.query", "MAX_TERMS"),
    "ParsedQuery": (".read.query", "ParsedQuery"),
    "QueryError": (".read.query", "QueryError"),
    "SearchError": (".read.query", "SearchError"),
    "parse_query": (".read.query", "parse_query"),
    "quote_query": (".read.query", "quote_query"),
    "SCHEMA_VERSION": (".storage.schema", "LATEST"),
    "DEFAULT_SECONDS": (".read.search", "DEFAULT_SECONDS"),
    "MAX_SHOWN": (".read.search", "MAX_SHOWN"),
    "ORIGINS": (".read.search", "ORIGINS"),
    "Budget": (".read.search", "Budget"),
    "Origin": (".read.search", "Origin"),
    "ProjectChoice": (".read.search", "ProjectChoice"),
    "QueryTooBroad": (".read.search", "QueryTooBroad"),
    "SearchCancelled": (".read.search", "SearchCancelled"),
    "SearchFilters": (".read.search", "SearchFilters"),
    "FACETS": (".read.search_result", "FACETS"),
    "FacetValue": (".read.search_result", "FacetValue"),
    "SearchHit": (".read.search_result", "SearchHit"),
    "SearchResult": (".read.search_result", "SearchResult"),
    "SessionGroup": (".read.search_result", "SessionGroup"),
    "PROJECT_SORTS": (".read.session_list", "PROJECT_SORTS"),
    "SESSION_SORTS": (".read.session_list", "SESSION_SORTS"),
    "ListError": (".read.session_list", "ListError"),
    "SessionFilters": (".read.session_list", "SessionFilters"),
    "SessionPage": (".read.session_list", "SessionPage"),
    "SessionVersion": (".storage.versions", "SessionVersion"),
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
