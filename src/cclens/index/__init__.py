"""The local index: one SQLite file (WAL, FTS5) that keeps every session, even deleted ones.

The only package with SQL. :class:`Index` is the way in::

    with Index(default_db_path()) as index:
        index.update(claude_dirs())
        for hit in index.search('"exit code" bash*'):
            print(hit.session_key, hit.anchor, hit.snippet)
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
    from .schema import LATEST as SCHEMA_VERSION
    from .search import SearchError, SearchFilters, SearchHit, quote_query
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
    "SCHEMA_VERSION": (".schema", "LATEST"),
    "SearchError": (".search", "SearchError"),
    "SearchFilters": (".search", "SearchFilters"),
    "SearchHit": (".search", "SearchHit"),
    "quote_query": (".search", "quote_query"),
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
    "DOCUMENT_KINDS",
    "ENVIRONMENT_VARIABLE",
    "EXTRACT_VERSION",
    "MATCH_END",
    "MATCH_START",
    "SCHEMA_VERSION",
    "DocumentKind",
    "Index",
    "IndexReadOnly",
    "IndexUnusable",
    "Progress",
    "ProjectSummary",
    "SearchError",
    "SearchFilters",
    "SearchHit",
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
