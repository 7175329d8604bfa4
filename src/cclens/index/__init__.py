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

from typing import TYPE_CHECKING

from .._lazy import lazy_names

if TYPE_CHECKING:
    from .database import Index
    from .embedding import INSTALL_HINT as SEMANTIC_INSTALL_HINT
    from .embedding import LANGUAGES as SEMANTIC_LANGUAGES
    from .extract import EXTRACT_VERSION, MATCH_END, MATCH_START
    from .names import DEFAULT_SECONDS, DOCUMENT_KINDS, MAX_SHOWN, ORIGINS, DocumentKind, Origin
    from .read.bounds import MAX_FILTER_LENGTH, FilterTooLong
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
        Budget,
        ProjectChoice,
        QueryTooBroad,
        SearchCancelled,
        SearchFilters,
    )
    from .read.search_result import FACETS, FacetValue, SearchHit, SearchResult, SessionGroup
    from .read.semantic import MODES as SEARCH_MODES
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
_PLACES: dict[str, str] = {
    "IndexReadOnly": ".storage.connection",
    "IndexUnusable": ".storage.connection",
    "move_aside": ".storage.connection",
    "Index": ".database",
    "DOCUMENT_KINDS": ".names",
    "EXTRACT_VERSION": ".extract",
    "MATCH_END": ".extract",
    "MATCH_START": ".extract",
    "DocumentKind": ".names",
    "Progress": ".write.ingest",
    "UpdateReport": ".write.ingest",
    "ENVIRONMENT_VARIABLE": ".storage.location",
    "WriteRefused": ".storage.location",
    "default_db_path": ".storage.location",
    "protected_dirs": ".storage.location",
    "refuse_inside": ".storage.location",
    "MAX_FILTER_LENGTH": ".read.bounds",
    "FilterTooLong": ".read.bounds",
    "ProjectSummary": ".read.queries",
    "SessionSummary": ".read.queries",
    "Totals": ".read.queries",
    "MAX_PHRASE_WORDS": ".read.query",
    "MAX_TERMS": ".read.query",
    "ParsedQuery": ".read.query",
    "QueryError": ".read.query",
    "SearchError": ".read.query",
    "parse_query": ".read.query",
    "quote_query": ".read.query",
    "SCHEMA_VERSION": ".storage.schema:LATEST",
    "DEFAULT_SECONDS": ".names",
    "SEARCH_MODES": ".read.semantic:MODES",
    "SEMANTIC_LANGUAGES": ".embedding:LANGUAGES",
    "SEMANTIC_INSTALL_HINT": ".embedding:INSTALL_HINT",
    "MAX_SHOWN": ".names",
    "ORIGINS": ".names",
    "Budget": ".read.search",
    "Origin": ".names",
    "ProjectChoice": ".read.search",
    "QueryTooBroad": ".read.search",
    "SearchCancelled": ".read.search",
    "SearchFilters": ".read.search",
    "FACETS": ".read.search_result",
    "FacetValue": ".read.search_result",
    "SearchHit": ".read.search_result",
    "SearchResult": ".read.search_result",
    "SessionGroup": ".read.search_result",
    "PROJECT_SORTS": ".read.session_list",
    "SESSION_SORTS": ".read.session_list",
    "ListError": ".read.session_list",
    "SessionFilters": ".read.session_list",
    "SessionPage": ".read.session_list",
    "SessionVersion": ".storage.versions",
}


__getattr__ = lazy_names(__name__, _PLACES)

__all__ = [
    "DEFAULT_SECONDS",
    "DOCUMENT_KINDS",
    "ENVIRONMENT_VARIABLE",
    "EXTRACT_VERSION",
    "FACETS",
    "MATCH_END",
    "MATCH_START",
    "MAX_FILTER_LENGTH",
    "MAX_PHRASE_WORDS",
    "MAX_SHOWN",
    "MAX_TERMS",
    "ORIGINS",
    "PROJECT_SORTS",
    "SCHEMA_VERSION",
    "SEARCH_MODES",
    "SEMANTIC_INSTALL_HINT",
    "SEMANTIC_LANGUAGES",
    "SESSION_SORTS",
    "Budget",
    "DocumentKind",
    "FacetValue",
    "FilterTooLong",
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
