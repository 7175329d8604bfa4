"""The local index: one SQLite file (WAL, FTS5) that keeps every session, even deleted ones.

The only package with SQL. :class:`Index` is the way in::

    with Index(default_db_path()) as index:
        index.update(claude_dirs())
        for hit in index.search('"exit code" bash*'):
            print(hit.session_key, hit.anchor, hit.snippet)
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
from .schema import LATEST as SCHEMA_VERSION
from .search import SearchError, SearchFilters, SearchHit, quote_query
from .session_list import (
    PROJECT_SORTS,
    SESSION_SORTS,
    ListError,
    SessionFilters,
    SessionPage,
)
from .versions import SessionVersion

__all__ = [
    "DOCUMENT_KINDS",
    "ENVIRONMENT_VARIABLE",
    "EXTRACT_VERSION",
    "MATCH_END",
    "MATCH_START",
    "PROJECT_SORTS",
    "SCHEMA_VERSION",
    "SESSION_SORTS",
    "DocumentKind",
    "Index",
    "IndexReadOnly",
    "IndexUnusable",
    "ListError",
    "Progress",
    "ProjectSummary",
    "SearchError",
    "SearchFilters",
    "SearchHit",
    "SessionFilters",
    "SessionPage",
    "SessionSummary",
    "SessionVersion",
    "Totals",
    "UpdateReport",
    "WriteRefused",
    "default_db_path",
    "move_aside",
    "protected_dirs",
    "quote_query",
    "refuse_inside",
]
