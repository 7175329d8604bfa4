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
