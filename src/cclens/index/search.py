"""Full-text search over what was said and done, ranked, with highlighted snippets.

Any text a person types becomes a safe FTS5 query (:func:`quote_query`): words are matched
as words, ``"two words"`` as a phrase, ``word*`` as a prefix, ``-word`` excludes, and ``OR``
between two terms means either. Nothing a person types can raise an FTS5 syntax error.
"""

from __future__ import annotations

import sqlite3
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from .extract import DOCUMENT_KINDS, MATCH_END, MATCH_START

_SNIPPET_TOKENS = 24
#: How many of the newest matches a search ranks (see :func:`search`).
CANDIDATES = 5000
_ELLIPSIS = "…"


def _has_token(text: str) -> bool:
    """Whether FTS5's unicode61 tokenizer finds a token in ``text`` (letters, digits, Co)."""
    return any(character.isalnum() or unicodedata.category(character) == "Co" for character in text)


def _quote(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


@dataclass(slots=True)
class _Term:
    text: str
    phrase: bool = False
    prefix: bool = False
    negated: bool = False

    def query(self) -> str:
        quoted = _quote(self.text)
        return quoted + "*" if self.prefix and not self.phrase else quoted


def _terms(text: str) -> list[_Term | str]:
    """Split user text into terms and ``OR`` markers, the way :func:`quote_query` reads it."""
    found: list[_Term | str] = []
    position = 0
    negate_next = False
    length = len(text)
    while position < length:
        character = text[position]
        if character.isspace():
            position += 1
            continue
        negated = negate_next
        negate_next = False
        if character == "-" and position + 1 < length and not text[position + 1].isspace():
            negated = True
            position += 1
            character = text[position]
        if character == '"':
            end = text.find('"', position + 1)
            end = length if end < 0 else end
            found.append(_Term(text[position + 1 : end], phrase=True, negated=negated))
            position = end + 1
            continue
        end = position
        while end < length and not text[end].isspace() and text[end] != '"':
            end += 1
        word = text[position:end]
        position = end
        if word == "OR" and not negated:
            found.append("OR")
        elif word == "NOT" and not negated:
            negate_next = True
        elif word != "AND" or negated:
            prefix = word.endswith("*")
            found.append(_Term(word.rstrip("*"), prefix=prefix, negated=negated))
    return found


def quote_query(text: str) -> str:
    """A valid FTS5 query for what a person typed, or ``""`` when there is nothing to find.

    Every word is quoted, so FTS5 operators and punctuation in the text are matched literally.
    Terms without a letter or digit are dropped; a query of exclusions only is empty.
    """
    positives: list[str] = []
    negatives: list[str] = []
    pending_or = False
    # SQLite reads a query as a C string: a NUL would cut it short, mid-quote.
    for term in _terms(text.replace("\x00", " ")):
        if isinstance(term, str):
            pending_or = bool(positives)
            continue
        if not _has_token(term.text):
            continue
        if term.negated:
            negatives.append(term.query())
            continue
        if pending_or and positives:
            positives[-1] = f"{positives[-1]} OR {term.query()}"
        else:
            positives.append(term.query())
        pending_or = False
    if not positives:
        return ""
    query = " AND ".join(f"({group})" if " OR " in group else group for group in positives)
    if negatives:
        query = f"({query})" + "".join(f" NOT {negative}" for negative in negatives)
    return query


@dataclass(frozen=True, slots=True)
class SearchFilters:
    """What to narrow a search to. Dates compare with each message's own timestamp."""

    #: A project's folder name or working directory (or a part of either).
    project: str | None = None
    since: datetime | None = None
    #: Exclusive upper bound.
    until: datetime | None = None
    tool: str | None = None
    #: Kinds of content (see :data:`~cclens.index.extract.DOCUMENT_KINDS`); empty: all.
    kinds: tuple[str, ...] = ()
    errors_only: bool = False


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One matching text: the session and message it is in, and a snippet around the match."""

    session_key: str
    session_title: str
    project: str
    anchor: str
    kind: str
    tool: str | None
    error: bool
    time: datetime | None
    in_subagent: bool
    archived: bool
    #: The snippet, with matches between :data:`MATCH_START` and :data:`MATCH_END`.
    marked_snippet: str
    rank: float

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
        """The snippet as plain text."""
        return self.marked_snippet.replace(MATCH_START, "").replace(MATCH_END, "")

    @property
    def url(self) -> str:
        """Where ``cclens serve`` shows the hit: the session page, at the message."""
        return f"/sessions/{quote(self.session_key, safe='')}#{quote(self.anchor, safe='')}"

    def as_json(self) -> dict[str, Any]:
        """The hit as plain JSON: the snippet as text, its matches as ``[start, end)`` offsets
        (what ``cclens search --json`` prints and ``/api/search`` answers)."""
        matches: list[list[int]] = []
        position = 0
        for text, is_match in self.snippet_parts():
            if is_match:
                matches.append([position, position + len(text)])
            position += len(text)
        return {
            "session": self.session_key,
            "title": self.session_title,
            "project": self.project,
            "anchor": self.anchor,
            "url": self.url,
            "kind": self.kind,
            "tool": self.tool,
            "error": self.error,
            "time": self.time.isoformat() if self.time else None,
            "in_subagent": self.in_subagent,
            "archived": self.archived,
            "snippet": self.snippet,
            "matches": matches,
            "rank": self.rank,
        }


class SearchError(ValueError):
    """A filter that cannot be applied (an unknown kind of content)."""


def _epoch(moment: datetime) -> float:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


def _project_ids(connection: sqlite3.Connection, project: str) -> list[int]:
    exact = connection.execute(
        "SELECT id FROM projects WHERE slug = ? OR cwd = ?", (project, project)
    ).fetchall()
    if exact:
        return [int(row[0]) for row in exact]
    pattern = "%" + project.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    rows = connection.execute(
        "SELECT id FROM projects WHERE slug LIKE ? ESCAPE '\\' OR cwd LIKE ? ESCAPE '\\'",
        (pattern, pattern),
    ).fetchall()
    return [int(row[0]) for row in rows]


def _filters(
    connection: sqlite3.Connection, filters: SearchFilters
) -> tuple[list[str], list[object]] | None:
    """SQL conditions on ``documents d`` for ``filters``; ``None`` when nothing can match."""
    unknown = [kind for kind in filters.kinds if kind not in DOCUMENT_KINDS]
    if unknown:
        raise SearchError(
            f"unknown kind of content {unknown[0]!r} (one of: {', '.join(DOCUMENT_KINDS)})"
        )
    where: list[str] = []
    parameters: list[object] = []
    if filters.project:
        ids = _project_ids(connection, filters.project)
        if not ids:
            return None
        where.append(f"d.project IN ({', '.join('?' * len(ids))})")
        parameters.extend(ids)
    if filters.since is not None:
        where.append("d.time >= ?")
        parameters.append(_epoch(filters.since))
    if filters.until is not None:
        where.append("d.time < ?")
        parameters.append(_epoch(filters.until))
    if filters.tool:
        where.append("d.tool = ? COLLATE NOCASE")
        parameters.append(filters.tool)
    if filters.kinds:
        where.append(f"d.kind IN ({', '.join('?' * len(filters.kinds))})")
        parameters.extend(filters.kinds)
    if filters.errors_only:
        where.append("d.error = 1")
    return where, parameters


def _ranked(
    connection: sqlite3.Connection, query: str, where: list[str], parameters: list[object]
) -> list[tuple[int, float]]:
    """The newest :data:`CANDIDATES` matches, best first, one per message part.

    FTS5 scores every match of ``ORDER BY rank``; walking the matches newest first and
    stopping at a bound keeps a query for a word found everywhere as fast as a rare one.
    """
    conditions = " AND ".join(["documents_text MATCH ?", *where])
    rows = connection.execute(
        "SELECT documents_text.rowid, bm25(documents_text), d.session, d.anchor, d.kind, d.tool "
        "FROM documents_text JOIN documents d ON d.id = documents_text.rowid "
        f"WHERE {conditions} ORDER BY documents_text.rowid DESC LIMIT ?",
        [query, *parameters, CANDIDATES],
    ).fetchall()
    rows.sort(key=lambda row: (row[1], -row[0]))
    best: list[tuple[int, float]] = []
    seen: set[tuple[object, ...]] = set()
    for rowid, score, *place in rows:
        key = tuple(place)  # the parts of one long text are one hit
        if key not in seen:
            seen.add(key)
            best.append((rowid, score))
    return best


def search(
    connection: sqlite3.Connection,
    text: str,
    filters: SearchFilters | None = None,
    *,
    limit: int = 50,
    offset: int = 0,
) -> list[SearchHit]:
    """The best matches for what a person typed, best first (ranked by BM25).

    Ranking considers the :data:`CANDIDATES` most recent matching texts, so that a word found
    in every session answers as fast as a rare one; below that many matches it is exact.
    """
    query = quote_query(text)
    if not query:
        return []
    conditions = _filters(connection, filters or SearchFilters())
    if conditions is None:
        return []
    ranked = _ranked(connection, query, *conditions)[offset : offset + limit]
    if not ranked:
        return []
    scores = dict(ranked)
    rows = connection.execute(
        "SELECT documents_text.rowid, s.key, s.title, p.slug, d.anchor, d.kind, d.tool, "
        "d.error, d.time, f.role = 'subagent', s.archived IS NOT NULL, "
        f"snippet(documents_text, 0, ?, ?, ?, {_SNIPPET_TOKENS}) "
        "FROM documents_text "
        "JOIN documents d ON d.id = documents_text.rowid "
        "JOIN sessions s ON s.id = d.session "
        "JOIN projects p ON p.id = d.project "
        "JOIN files f ON f.id = d.file "
        f"WHERE documents_text MATCH ? AND documents_text.rowid IN "
        f"({', '.join('?' * len(scores))})",
        [MATCH_START, MATCH_END, _ELLIPSIS, query, *scores],
    ).fetchall()
    hits = {
        row[0]: SearchHit(
            session_key=row[1],
            session_title=row[2],
            project=row[3],
            anchor=row[4],
            kind=row[5],
            tool=row[6],
            error=bool(row[7]),
            time=datetime.fromtimestamp(row[8], UTC) if row[8] is not None else None,
            in_subagent=bool(row[9]),
            archived=bool(row[10]),
            marked_snippet=row[11],
            rank=scores[row[0]],
        )
        for row in rows
    }
    return [hits[rowid] for rowid, _ in ranked if rowid in hits]
