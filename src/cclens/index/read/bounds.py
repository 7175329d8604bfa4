"""How long a filter, a query or a session key may be.

A filter of 50,000 characters made SQLite refuse its ``LIKE`` pattern ("pattern too
complex") and every surface answer with a traceback; a query of 21 KB was repeated in every
link of its answer. Every text a person gives to narrow a list or a search is checked here,
where the filters are made (:class:`~cclens.index.read.session_list.SessionFilters`,
:class:`~cclens.index.read.search.SearchFilters`, the query, a session key): past
:data:`MAX_FILTER_LENGTH` characters it is :class:`FilterTooLong`, which the command line
shows as one line (exit 2), the web app as ``422`` and the MCP server as a tool error.
"""

from __future__ import annotations

#: Characters a filter, a search query or a session key may have: far more than any name,
#: path or pasted error line, far less than SQLite's limit on a ``LIKE`` pattern (50,000
#: bytes); a search page that repeats its query in each of its ~70 facet links stays small.
MAX_FILTER_LENGTH = 4_000


class FilterTooLong(ValueError):
    """A filter, a search query or a session key longer than :data:`MAX_FILTER_LENGTH`."""


def check_length(name: str, value: str | None) -> None:
    """Raise :class:`FilterTooLong` naming ``name`` when ``value`` is too long to be one."""
    if value is not None and len(value) > MAX_FILTER_LENGTH:
        raise FilterTooLong(
            f"{name} is too long ({len(value):,} characters; at most {MAX_FILTER_LENGTH:,}); "
            "give a shorter one"
        )


__all__ = ["MAX_FILTER_LENGTH", "FilterTooLong", "check_length"]
