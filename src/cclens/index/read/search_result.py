"""What a search finds, as every surface shows it: hits, sessions, totals and facets.

``cclens search`` (text and ``--json``), ``/api/search`` and the ``/search`` page all draw one
:class:`SearchResult`; :meth:`SearchResult.as_json` is the one JSON form of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from urllib.parse import quote, urlencode

from ..extract import MATCH_END, MATCH_START

#: Kinds of text drawn in a monospace font wherever they are shown.
CODE_KINDS = frozenset({"tool_input", "tool_output"})
#: The facets of a result, in the order they are shown.
FACETS = ("project", "agent", "kind", "tool", "error", "origin", "month")


def looks_like_code(text: str) -> bool:
    """Whether a snippet of prose is code: a fence, or an indented line."""
    return "```" in text or any(line.startswith(("    ", "\t")) for line in text.splitlines())


#: What a link repeats of the query to highlight (``hl``): each term's first characters, and
#: terms while they fit in the total. The answer to any query stays small: a 21 KB query used
#: to be repeated in every hit's link (14 MB for one search).
HIGHLIGHT_TERM_CHARACTERS = 64
HIGHLIGHT_CHARACTERS = 512


def highlight_terms(terms: tuple[str, ...]) -> tuple[str, ...]:
    """The terms a link asks to highlight: the first :data:`HIGHLIGHT_TERM_CHARACTERS` of
    each (the page highlights what starts with them), as many as fit in
    :data:`HIGHLIGHT_CHARACTERS`."""
    kept: list[str] = []
    total = 0
    for term in terms:
        cut = term[:HIGHLIGHT_TERM_CHARACTERS]
        total += len(cut)
        if total > HIGHLIGHT_CHARACTERS:
            break
        kept.append(cut)
    return tuple(kept)


def session_url(key: str) -> str:
    """The session page of ``key`` in ``cclens serve``."""
    return f"/sessions/{quote(key, safe='')}"


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One matching text: the session and the element it is shown in, and a snippet."""

    session_key: str
    session_title: str
    #: The project's folder name (its id) and how it is shown (its working directory).
    project: str
    project_path: str
    #: The item the text belongs to, and the finest element that holds it on the session page
    #: (the item, or ``tool-<id>`` for a tool call's input and output).
    anchor: str
    target: str
    kind: str
    tool: str | None
    error: bool
    time: datetime | None
    in_subagent: bool
    archived: bool
    #: The snippet, with matches between :data:`MATCH_START` and :data:`MATCH_END`.
    marked_snippet: str
    rank: float
    #: What to highlight on the session page (the query's words, phrases and prefixes).
    terms: tuple[str, ...] = ()

    def snippet_parts(self) -> list[tuple[str, bool]]:
        """The snippet as ``(text, is_match)`` pieces, for a caller to highlight safely."""
        parts: list[tuple[str, bool]] = []
        rest = self.marked_snippet
        while rest:
            before, found, after = rest.partition(MATCH_START)
            if before:
                parts.append((before, False))
            if not found:
                break
            match, _, rest = after.partition(MATCH_END)
            if match:
                parts.append((match, True))
        return parts

    @property
    def snippet(self) -> str:
        """The snippet as plain text, whitespace kept."""
        return self.marked_snippet.replace(MATCH_START, "").replace(MATCH_END, "")

    @property
    def monospace(self) -> bool:
        """Whether the snippet is code or a tool's input or output (drawn in a fixed font)."""
        return self.kind in CODE_KINDS or looks_like_code(self.snippet)

    @property
    def url(self) -> str:
        """Where ``cclens serve`` shows the hit: the session page, opened at the element that
        holds it, with the part that matched (``part``) and the terms to highlight (``hl``)."""
        terms = highlight_terms(self.terms)
        query = urlencode([*(("hl", term) for term in terms), ("part", self.kind)])
        return f"{session_url(self.session_key)}?{query}#{quote(self.target, safe='')}"

    def as_json(self) -> dict[str, Any]:
        """The hit as plain JSON: the snippet as text, its matches as ``[start, end)`` offsets."""
        matches: list[list[int]] = []
        position = 0
        for text, is_match in self.snippet_parts():
            if is_match:
                matches.append([position, position + len(text)])
            position += len(text)
        return {
            "session": self.session_key,
            "title": self.session_title,
            "project": self.project_path,
            "project_id": self.project,
            "anchor": self.anchor,
            "target": self.target,
            "url": self.url,
            "kind": self.kind,
            "tool": self.tool,
            "error": self.error,
            "time": self.time.isoformat() if self.time else None,
            "in_subagent": self.in_subagent,
            "archived": self.archived,
            "snippet": self.snippet,
            "matches": matches,
            "monospace": self.monospace,
            "rank": self.rank,
        }


@dataclass(frozen=True, slots=True)
class SessionGroup:
    """The hits of one session: how many, and the best of them."""

    session_key: str
    title: str
    project: str
    project_path: str
    archived: bool
    #: How many hits the session has (``shown`` are the best of them).
    count: int
    #: The rank of its best hit (lower is better).
    rank: float
    shown: list[SearchHit] = field(default_factory=list)
    #: The agent that wrote the session (``claude``, ``codex``…).
    agent: str = "claude"

    @property
    def url(self) -> str:
        """The session page."""
        return session_url(self.session_key)

    def as_json(self) -> dict[str, Any]:
        """The group as plain JSON."""
        return {
            "session": self.session_key,
            "agent": self.agent,
            "title": self.title,
            "project": self.project_path,
            "project_id": self.project,
            "archived": self.archived,
            "hits": self.count,
            "rank": self.rank,
            "url": self.url,
            "shown": [hit.as_json() for hit in self.shown],
        }


@dataclass(frozen=True, slots=True)
class FacetValue:
    """One value of a facet (a project, a kind of text, a tool, a month…) and its hits."""

    #: What the filter takes (a project's id, ``tool_output``, ``Bash``, ``2025-07``…).
    value: str
    #: How it is shown (a project's path; the value itself otherwise).
    label: str
    hits: int

    def as_json(self) -> dict[str, Any]:
        """The value as plain JSON."""
        return {"value": self.value, "label": self.label, "hits": self.hits}


@dataclass(frozen=True, slots=True)
class SearchResult:
    """Everything a search found, grouped by session (the best hit first) with facets."""

    query: str
    #: The words, phrases and prefixes searched, to highlight.
    terms: tuple[str, ...]
    #: How many hits (texts: a prompt, an answer, a thinking block, a tool's input or output)
    #: and how many sessions hold them, over everything found (not only the page).
    total_hits: int
    total_sessions: int
    #: The page of sessions shown, from ``offset``, at most ``limit``.
    groups: list[SessionGroup]
    offset: int
    limit: int
    per_session: int
    #: For each of :data:`FACETS`, how many hits each value has, most first (months: newest
    #: first); at most a few values each.
    facets: dict[str, list[FacetValue]]
    #: How long the search took.
    seconds: float = 0.0
    #: How the texts were found: ``lexical`` (words, ranked by BM25), ``semantic`` (meaning,
    #: by vector similarity) or ``hybrid`` (both, fused by reciprocal rank).
    mode: str = "lexical"

    @property
    def hits(self) -> list[SearchHit]:
        """The hits shown, session by session."""
        return [hit for group in self.groups for hit in group.shown]

    @property
    def more(self) -> bool:
        """Whether sessions follow this page."""
        return self.offset + len(self.groups) < self.total_sessions

    def as_json(self) -> dict[str, Any]:
        """The result as plain JSON (what ``cclens search --json`` prints and ``/api/search``
        answers; documented in docs/web.md)."""
        return {
            "query": self.query,
            "terms": list(self.terms),
            "total": {"hits": self.total_hits, "sessions": self.total_sessions},
            "offset": self.offset,
            "limit": self.limit,
            "per_session": self.per_session,
            "groups": [group.as_json() for group in self.groups],
            "facets": {
                name: [value.as_json() for value in values] for name, values in self.facets.items()
            },
            "seconds": round(self.seconds, 4),
            "mode": self.mode,
        }


def empty_result(
    query: str, offset: int, limit: int, per_session: int, mode: str = "lexical"
) -> SearchResult:
    """A result with nothing found."""
    return SearchResult(
        query, (), 0, 0, [], offset, limit, per_session, {name: [] for name in FACETS}, mode=mode
    )


__all__ = [
    "CODE_KINDS",
    "FACETS",
    "FacetValue",
    "SearchHit",
    "SearchResult",
    "SessionGroup",
    "empty_result",
    "looks_like_code",
    "session_url",
]
