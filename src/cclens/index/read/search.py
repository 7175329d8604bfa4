"""Full-text search over what was said and done: every match ranked, grouped by session.

A query (:mod:`cclens.index.read.query`) is run against the FTS5 table of documents; every match is
ranked by BM25 (lower is better) and the pieces of one long text count as one hit, its best
piece standing for it. Hits are grouped by session, the sessions ordered by their best hit,
and counted by project, kind of text, tool, errors, subagents and month (the facets). Snippets
are cut only for the hits shown.

The work one search may do is bounded: a query holds a bounded number of terms, and SQLite's
progress handler stops the statements of a search once it has used its budget of processor
time (:class:`Budget`, :class:`QueryTooBroad`) or when the caller cancels it (the web app,
when the client goes away).
"""

from __future__ import annotations

import re
import sqlite3
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import chain
from typing import Any

import numpy as np
import numpy.typing as npt

from ...readers.agents import label as agent_label
from ...scripts import unspaced_characters
from ..names import DEFAULT_SECONDS, DOCUMENT_KINDS, MAX_SHOWN, ORIGINS, Origin
from ..words import shown_text
from .bounds import check_length
from .queries import project_name
from .query import ParsedQuery, SearchError, parse_query
from .search_facts import NO_MONTH, DocumentFacts, Gathered, Ints, month_label
from .search_result import (
    FACETS,
    FacetValue,
    SearchHit,
    SearchResult,
    SessionGroup,
    empty_result,
)
from .semantic import MODES, Mode, VectorStore, fuse, message_vector, rank
from .snippet import Matcher, snippet

#: SQLite virtual machine steps between two looks at the clock (each look takes the GIL back
#: from the thread ranking: at 1,000 the looks alone were a tenth of a busy server's time).
_STEPS = 20_000
#: Values listed per facet.
FACET_VALUES = 20


class QueryTooBroad(SearchError):
    """Ranking a query's matches takes longer than the budget allows."""


class SearchCancelled(Exception):
    """The caller cancelled the search (the client went away)."""


@dataclass(frozen=True, slots=True)
class Budget:
    """How much processor time a search may use, and an event that cancels it when set."""

    seconds: float = DEFAULT_SECONDS
    cancelled: threading.Event | None = None


class Watch:
    """The clock and the cancel event of one search (see :func:`bounded`).

    The clock is the processor time of the thread running the search: the work it does, which
    other work on a busy machine does not stretch (a search there takes longer, not more).
    """

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.deadline = time.thread_time() + budget.seconds
        self._paused = False

    def stopped(self) -> bool:
        """Whether the search must stop now."""
        cancelled = self.budget.cancelled
        if cancelled is not None and cancelled.is_set():
            return True
        return not self._paused and time.thread_time() > self.deadline

    @contextmanager
    def off_the_clock(self) -> Iterator[None]:
        """Work that does not count against the budget (reading what a process has not yet
        learnt about documents: a cost of the first searches, not of the query); cancelling
        still stops it."""
        began = time.thread_time()
        self._paused = True
        try:
            yield
        finally:
            self._paused = False
            self.deadline += time.thread_time() - began

    def check(self) -> None:
        """Raise :class:`SearchCancelled` or :class:`QueryTooBroad` when the search must stop."""
        if self.stopped():
            raise self.reason()

    def reason(self) -> Exception:
        """Why the search stopped."""
        cancelled = self.budget.cancelled
        if cancelled is not None and cancelled.is_set():
            return SearchCancelled("the search was cancelled")
        return QueryTooBroad(
            f"query too broad: ranking everything it matches takes more than "
            f"{self.budget.seconds:g} s; add a word, a phrase or a filter"
        )


@contextmanager
def bounded(connection: sqlite3.Connection, budget: Budget) -> Iterator[Watch]:
    """Stop the statements run inside when ``budget`` runs out or is cancelled.

    Raises :class:`QueryTooBroad` or :class:`SearchCancelled` in place of SQLite's
    "interrupted"; work done in Python between statements calls :meth:`Watch.check`.
    """
    watch = Watch(budget)
    connection.set_progress_handler(lambda: int(watch.stopped()), _STEPS)
    try:
        yield watch
    except sqlite3.OperationalError as error:
        if "interrupt" not in str(error):
            raise
        raise watch.reason() from None
    finally:
        connection.set_progress_handler(None, 0)


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
    #: One session, by its key.
    session: str | None = None
    #: Only the main conversations, or only subagents' (``None``: both).
    origin: Origin | None = None
    #: Only sessions of this agent (``claude``, ``codex``...).
    agent: str | None = None

    def __post_init__(self) -> None:
        for name in ("project", "tool", "session"):
            check_length(name, getattr(self, name))


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


def check_filters(filters: SearchFilters) -> None:
    """Raise :class:`SearchError` for a filter that names something that cannot exist."""
    unknown = [kind for kind in filters.kinds if kind not in DOCUMENT_KINDS]
    if unknown:
        raise SearchError(
            f"unknown kind of content {unknown[0]!r} (one of: {', '.join(DOCUMENT_KINDS)})"
        )
    if filters.origin is not None and filters.origin not in ORIGINS:
        raise SearchError(f"unknown origin {filters.origin!r} (one of: {', '.join(ORIGINS)})")


def _conditions(
    connection: sqlite3.Connection, filters: SearchFilters
) -> tuple[list[str], list[object]] | None:
    """SQL conditions on ``documents d`` for ``filters``; ``None`` when nothing can match."""
    check_filters(filters)
    where: list[str] = []
    parameters: list[object] = []
    if filters.project:
        ids = _project_ids(connection, filters.project)
        if not ids:
            return None
        where.append(f"d.project IN ({', '.join('?' * len(ids))})")
        parameters.extend(ids)
    if filters.session:
        row = connection.execute("SELECT id FROM sessions WHERE key = ?", (filters.session,))
        found = row.fetchone()
        if found is None:
            return None
        where.append("d.session = ?")
        parameters.append(found[0])
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
    if filters.origin is not None:
        where.append("d.subagent = ?")
        parameters.append(int(filters.origin == "subagent"))
    if filters.agent:
        where.append("d.session IN (SELECT id FROM sessions WHERE agent = ?)")
        parameters.append(filters.agent)
    return where, parameters


@dataclass(frozen=True, slots=True)
class _Matches:
    """Every text a query matches, best first, once each (arrays of the same length)."""

    #: The document that stands for the text (its best piece).
    rowid: Ints
    score: npt.NDArray[np.float64]
    facts: Gathered

    def __len__(self) -> int:
        return len(self.rowid)


class MatchCache:
    """The ranked matches of recent queries, kept while the index does not change.

    Ranking every match is most of what a search costs (tens of milliseconds for a broad query
    on a large index); the next page of the same query, the same search asked again, or the
    same query from several clients reuses it. Entries are stamped with the index's change
    count read before the search began, so a result ranked from an index that changed meanwhile
    is never served as current. Bounded by the matches kept in all (each costs about 50 bytes:
    the default keeps at most ~15 MB).
    """

    def __init__(self, generation: Callable[[], int], rows: int = 300_000) -> None:
        self._generation = generation
        self._rows = rows
        self._lock = threading.Lock()
        self._entries: OrderedDict[tuple[str, SearchFilters], tuple[int, _Matches]] = OrderedDict()
        self._kept = 0

    def stamp(self) -> int:
        """The index's change count now (read before a search begins)."""
        return self._generation()

    def clear(self) -> None:
        """Forget every kept result (the next searches rank afresh)."""
        with self._lock:
            self._entries.clear()
            self._kept = 0

    def get(self, key: tuple[str, SearchFilters], stamp: int) -> _Matches | None:
        """The matches kept for ``key`` if the index is as it was at ``stamp``."""
        with self._lock:
            found = self._entries.get(key)
            if found is None or found[0] != stamp:
                return None
            self._entries.move_to_end(key)
            return found[1]

    def put(self, key: tuple[str, SearchFilters], stamp: int, matches: _Matches) -> None:
        """Keep ``matches`` (ranked from the index as it was at ``stamp`` or later)."""
        if len(matches) > self._rows:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._kept -= len(old[1])
            self._entries[key] = (stamp, matches)
            self._kept += len(matches)
            while self._kept > self._rows:
                _, (_, dropped) = self._entries.popitem(last=False)
                self._kept -= len(dropped)


def _ranked(
    connection: sqlite3.Connection,
    watch: Watch,
    facts: DocumentFacts,
    parsed: ParsedQuery,
    where: list[str],
    parameters: list[object],
) -> _Matches:
    """Every text matching, best first, once each (the best of its pieces stands for it).

    Equal ranks keep the newest document first. Without filters only the full-text table is
    read; filters join the documents, so that only the documents they keep are ranked.
    """
    if where:
        statement = (
            "SELECT documents_text.rowid, bm25(documents_text) "
            "FROM documents_text JOIN documents d ON d.id = documents_text.rowid "
            f"WHERE documents_text MATCH ? AND {' AND '.join(where)}"
        )
    else:
        statement = (
            "SELECT rowid, bm25(documents_text) FROM documents_text WHERE documents_text MATCH ?"
        )
    rows = connection.execute(statement, [parsed.fts, *parameters]).fetchall()
    flat = np.fromiter(chain.from_iterable(rows), dtype=np.float64, count=2 * len(rows))
    rowid = flat[0::2].astype(np.int64)
    score = flat[1::2]
    order = np.lexsort((-rowid, score))
    rowid, score = rowid[order], score[order]
    with watch.off_the_clock():
        gathered = facts.gather(connection, rowid)
    _, first = np.unique(gathered.part, return_index=True)
    keep = np.sort(first)
    return _Matches(rowid[keep], score[keep], gathered.take(keep))


def _top(values: npt.NDArray[Any]) -> list[tuple[int, int]]:
    """``(value, count)`` of the :data:`FACET_VALUES` most frequent values, most first."""
    found, counts = np.unique(values, return_counts=True)
    order = np.argsort(-counts, kind="stable")[:FACET_VALUES]
    return [(int(found[i]), int(counts[i])) for i in order]


def _facets(
    connection: sqlite3.Connection, facts: DocumentFacts, matches: _Matches
) -> dict[str, list[FacetValue]]:
    gathered = matches.facts
    projects = _top(gathered.project)
    labels: dict[int, tuple[str, str]] = {}
    if projects:
        ids = [project for project, _ in projects]
        for project_id, slug, cwd in connection.execute(
            f"SELECT id, slug, cwd FROM projects WHERE id IN ({', '.join('?' * len(ids))})", ids
        ):
            labels[project_id] = (slug, project_name(slug, cwd))
    kinds = np.bincount(gathered.kind, minlength=len(DOCUMENT_KINDS))
    tools = _top(gathered.tool[gathered.tool > 0])
    errors = int(gathered.error.sum())
    subagents = int(gathered.subagent.sum())
    agents = _top(gathered.agent)
    dated = gathered.month[gathered.month != NO_MONTH]
    months, month_counts = np.unique(dated, return_counts=True)
    found = {
        "project": [
            FacetValue(labels[project][0], labels[project][1], hits)
            for project, hits in projects
            if project in labels
        ],
        "agent": [
            FacetValue(facts.agents[code], agent_label(facts.agents[code]), hits)
            for code, hits in agents
        ],
        "kind": [
            FacetValue(DOCUMENT_KINDS[code], DOCUMENT_KINDS[code], int(kinds[code]))
            for code in np.argsort(-kinds, kind="stable")
            if kinds[code]
        ],
        "tool": [
            FacetValue(str(facts.tools[code]), str(facts.tools[code]), hits) for code, hits in tools
        ],
        "error": [FacetValue("1", "errors", errors)] if errors else [],
        "origin": [
            FacetValue(origin, origin, hits)
            for origin, hits in (("main", len(matches) - subagents), ("subagent", subagents))
            if hits
        ],
        "month": [
            FacetValue(month_label(month), month_label(month), int(hits))
            for month, hits in list(zip(months, month_counts, strict=True))[::-1][:FACET_VALUES]
        ],
    }
    assert set(found) == set(FACETS)
    return found


def _page(matches: _Matches, sessions: Ints, per_session: int) -> dict[int, list[int]]:
    """The positions in ``matches`` of the best ``per_session`` hits of each of ``sessions``."""
    shown: dict[int, list[int]] = {int(session): [] for session in sessions}
    if not shown:
        return shown
    wanted = np.isin(matches.facts.session, sessions)
    counts = Counter(matches.facts.session[wanted].tolist())
    waiting = len(shown)
    for position, session in zip(
        np.nonzero(wanted)[0].tolist(), matches.facts.session[wanted].tolist(), strict=True
    ):
        bucket = shown[session]
        if len(bucket) >= per_session:
            continue
        bucket.append(position)
        if len(bucket) == min(per_session, counts[session]):
            waiting -= 1
            if not waiting:
                break
    return shown


@dataclass(frozen=True, slots=True)
class _SessionInfo:
    key: str
    title: str
    project: str
    project_path: str
    archived: bool
    agent: str


def _sessions(connection: sqlite3.Connection, ids: Sequence[int]) -> dict[int, _SessionInfo]:
    if not ids:
        return {}
    rows = connection.execute(
        "SELECT s.id, s.key, s.title, s.archived IS NOT NULL, p.slug, p.cwd, s.agent "
        "FROM sessions s JOIN projects p ON p.id = s.project "
        f"WHERE s.id IN ({', '.join('?' * len(ids))})",
        list(ids),
    )
    return {
        row[0]: _SessionInfo(
            row[1], row[2], row[4], project_name(row[4], row[5]), bool(row[3]), row[6]
        )
        for row in rows
    }


def _hits(
    connection: sqlite3.Connection,
    watch: Watch,
    facts: DocumentFacts,
    parsed: ParsedQuery,
    matches: _Matches,
    positions: Sequence[int],
    sessions: dict[int, _SessionInfo],
) -> dict[int, SearchHit]:
    """The hits at ``positions`` of ``matches``, by position, with their snippets (cut now,
    for these only)."""
    if not positions:
        return {}
    ids = [int(matches.rowid[position]) for position in positions]
    marks = ", ".join("?" * len(ids))
    texts = dict(
        connection.execute(
            f"SELECT rowid, text FROM documents_text WHERE rowid IN ({marks})", ids
        ).fetchall()
    )
    details = {
        row[0]: row[1:]
        for row in connection.execute(
            f"SELECT id, anchor, target, time FROM documents WHERE id IN ({marks})", ids
        )
    }
    matchers = [Matcher.of(term) for term in parsed.positive]
    gathered = matches.facts
    hits: dict[int, SearchHit] = {}
    for position, rowid in zip(positions, ids, strict=True):
        watch.check()
        info = sessions.get(int(gathered.session[position]))
        if info is None or rowid not in details:
            continue  # gone since it was ranked (only outside a read transaction)
        anchor, target, moment = details[rowid]
        tool = facts.tools[int(gathered.tool[position])]
        hits[position] = SearchHit(
            session_key=info.key,
            session_title=info.title,
            project=info.project,
            project_path=info.project_path,
            anchor=anchor,
            target=target,
            kind=DOCUMENT_KINDS[int(gathered.kind[position])],
            tool=tool,
            error=bool(gathered.error[position]),
            time=datetime.fromtimestamp(moment, UTC) if moment is not None else None,
            in_subagent=bool(gathered.subagent[position]),
            archived=info.archived,
            marked_snippet=snippet(shown_text(texts.get(rowid, "")), matchers),
            rank=float(matches.score[position]),
            terms=parsed.highlights,
        )
    return hits


def _matches(
    connection: sqlite3.Connection,
    watch: Watch,
    facts: DocumentFacts,
    parsed: ParsedQuery,
    filters: SearchFilters,
) -> _Matches:
    conditions = _conditions(connection, filters)
    if conditions is None:
        conditions = (["0"], [])
    return _ranked(connection, watch, facts, parsed, *conditions)


def _deduplicated(
    connection: sqlite3.Connection,
    watch: Watch,
    facts: DocumentFacts,
    rowid: Ints,
    score: npt.NDArray[np.float64],
) -> _Matches:
    """Matches from documents best first (``score``: lower is better), the pieces of one text
    counted once (its best piece)."""
    with watch.off_the_clock():
        gathered = facts.gather(connection, rowid)
    _, first = np.unique(gathered.part, return_index=True)
    keep = np.sort(first)
    return _Matches(rowid[keep], score[keep], gathered.take(keep))


@dataclass(frozen=True, slots=True)
class Semantic:
    """What a search by meaning needs: the index's vectors and a way to embed a query (and one
    with the summary model, for the sessions' summary vectors when the index has them)."""

    store: VectorStore
    embed: Callable[[str], npt.NDArray[np.float32]]
    embed_summary: Callable[[str], npt.NDArray[np.float32] | None] | None = None


def resolve_mode(
    connection: sqlite3.Connection, mode: str | None, semantic: Semantic | None
) -> Mode:
    """The mode a search runs in: ``mode`` when given (checked), else hybrid when the index has
    vectors and the model is installed, else lexical. Raises
    :class:`~cclens.index.read.query.SearchError` for a mode that cannot run, saying why."""
    from ..embedding import INSTALL_HINT, available

    if mode is not None and mode not in MODES:
        raise SearchError(f"mode: {mode!r} is not one of {', '.join(MODES)}")
    if mode == "lexical":
        return "lexical"
    if semantic is None or not available():
        if mode is None:
            return "lexical"
        raise SearchError(
            f"{mode} search needs the semantic search model, which is not installed: {INSTALL_HINT}"
        )
    if semantic.store.current(connection) is None:
        if mode is None:
            return "lexical"
        raise SearchError(
            f"{mode} search needs vectors, and the index has none yet: run `cclens index` "
            "(with the semantic search model installed)"
        )
    return mode or "hybrid"


def _by_meaning(
    connection: sqlite3.Connection,
    watch: Watch,
    facts: DocumentFacts,
    semantic: Semantic,
    query: npt.NDArray[np.float32],
    filters: SearchFilters,
    exclude: Ints | None,
    summary_query: npt.NDArray[np.float32] | None = None,
) -> tuple[Ints, npt.NDArray[np.float64]]:
    """Documents by similarity to ``query``, best first, and their scores (higher is better)."""
    loaded = semantic.store.current(connection)
    if loaded is None:
        return np.zeros(0, np.int64), np.zeros(0, np.float64)
    conditions = _conditions(connection, filters)
    if conditions is None:
        return np.zeros(0, np.int64), np.zeros(0, np.float64)
    where, parameters = conditions
    allowed = None
    if where:
        kept = np.fromiter(
            (
                row[0]
                for row in connection.execute(
                    f"SELECT d.id FROM documents d WHERE {' AND '.join(where)}", parameters
                )
            ),
            dtype=np.int64,
        )
        allowed = partial_isin(kept)
    watch.check()
    ranked = rank(loaded, query, allowed=allowed, exclude=exclude, summary_query=summary_query)
    return ranked.document, ranked.score


def partial_isin(kept: Ints) -> Callable[[Ints], npt.NDArray[np.bool_]]:
    """A test of which documents are among ``kept``."""
    return lambda documents: np.isin(documents, kept)


def _matches_in_mode(
    connection: sqlite3.Connection,
    watch: Watch,
    facts: DocumentFacts,
    parsed: ParsedQuery,
    filters: SearchFilters,
    mode: Mode,
    semantic: Semantic | None,
    text: str,
    like: tuple[str, str] | None,
) -> _Matches:
    """Every match of a search in ``mode``: lexical (every text the words match, by BM25),
    semantic (the texts nearest in meaning) or hybrid (both, fused by reciprocal rank)."""
    if mode == "lexical" or semantic is None:
        return _matches(connection, watch, facts, parsed, filters)
    exclude = None
    summary_query = None
    if like is not None:
        loaded = semantic.store.current(connection)
        found = None if loaded is None else message_vector(connection, loaded, *like)
        if found is None:
            raise SearchError(
                f"message {like[1]!r} of session {like[0]!r} has no vector: it is not in the "
                "index, or has no text that gets one (run `cclens index`)"
            )
        query, exclude = found
    else:
        loaded = semantic.store.current(connection)
        with watch.off_the_clock():
            query = semantic.embed(text)
            if loaded is not None and loaded.summaries is not None and semantic.embed_summary:
                summary_query = semantic.embed_summary(text)
    if mode == "semantic" or not parsed.fts:
        documents, similarity = _by_meaning(
            connection, watch, facts, semantic, query, filters, exclude, summary_query
        )
        return _deduplicated(connection, watch, facts, documents, -similarity)
    lexical = _matches(connection, watch, facts, parsed, filters)
    loaded = semantic.store.current(connection)
    if loaded is None:
        return lexical
    if not len(lexical):
        if not _plain_words(text):
            # Phrases, prefixes, exclusions, OR, and scripts the model does not serve ask for
            # exactly what they say: nothing is what they find.
            return lexical
        # The words find nothing (other words than the texts'): the texts nearest in meaning.
        documents, similarity = _by_meaning(
            connection, watch, facts, semantic, query, filters, None, summary_query
        )
        return _deduplicated(connection, watch, facts, documents, -similarity)
    # The word matches are what is found (totals and facets are the words'), ranked by words
    # and meaning together.
    by_meaning = rank(
        loaded,
        query,
        within=np.sort(lexical.rowid),
        limit=len(lexical),
        summary_query=summary_query,
    )
    fused = fuse(lexical.rowid, by_meaning.document)
    return _deduplicated(connection, watch, facts, fused.document, -fused.score)


_OPERATORS = re.compile(r'["*]|(?:^|\s)-\S|\b(?:OR|NOT|AND)\b')


def _plain_words(text: str) -> bool:
    """Whether a query is plain words, in scripts the model serves: what a person who does not
    remember the words would type, so that finding nothing by them falls back on meaning."""
    return not _OPERATORS.search(text) and not unspaced_characters(text)


@contextmanager
def _snapshot(connection: sqlite3.Connection) -> Iterator[None]:
    """One read transaction, so that every statement of a search sees the same index."""
    began = not connection.in_transaction
    if began:
        connection.execute("BEGIN")
    try:
        yield
    finally:
        if began and connection.in_transaction:
            connection.execute("COMMIT")


@dataclass(frozen=True, slots=True)
class ProjectChoice:
    """A project a search can be narrowed to: its id and how it is shown."""

    slug: str
    name: str


def project_choices(connection: sqlite3.Connection) -> list[ProjectChoice]:
    """Every project with a session, by the name shown (what a search form offers; cheaper
    than the project list's totals)."""
    rows = connection.execute(
        "SELECT slug, cwd FROM projects WHERE id IN (SELECT project FROM sessions)"
    ).fetchall()
    choices = [ProjectChoice(slug, project_name(slug, cwd)) for slug, cwd in rows]
    return sorted(choices, key=lambda choice: (choice.name.casefold(), choice.slug))


def search_results(
    connection: sqlite3.Connection,
    text: str,
    filters: SearchFilters | None = None,
    *,
    offset: int = 0,
    limit: int = 10,
    per_session: int = 3,
    budget: Budget | None = None,
    facts: DocumentFacts | None = None,
    cache: MatchCache | None = None,
    mode: str | None = None,
    semantic: Semantic | None = None,
    like: tuple[str, str] | None = None,
) -> SearchResult:
    """What ``text`` finds: the sessions from ``offset`` (at most ``limit``), each with its best
    ``per_session`` hits, the totals and the facets, over every match.

    ``facts`` keeps what is known of documents between searches (one per index file; a new
    one reads only what this search meets); ``cache`` keeps ranked matches of recent queries
    (one per index file). Raises :class:`~cclens.index.read.query.SearchError`
    for a query or filter that cannot be run (:class:`~cclens.index.read.query.QueryError` beyond
    the limits of a query, :class:`QueryTooBroad` past the budget) and
    :class:`SearchCancelled` when cancelled.
    """
    began = time.perf_counter()
    if limit * per_session > MAX_SHOWN:
        raise SearchError(
            f"at most {MAX_SHOWN:,} hits are shown at once ({limit} sessions × {per_session} "
            "hits asked); show fewer sessions or fewer hits per session"
        )
    parsed = parse_query(text)
    filters = filters or SearchFilters()
    check_filters(filters)
    resolved = resolve_mode(connection, "semantic" if like else mode, semantic)
    if not parsed.fts and (resolved == "lexical" or (not like and not text.strip())):
        return empty_result(text, offset, limit, per_session, resolved)
    facts = facts or DocumentFacts()
    key = (f"{resolved}\0{parsed.fts}\0{text if resolved != 'lexical' else ''}\0{like}", filters)
    stamp = cache.stamp() if cache is not None else 0
    with _snapshot(connection), bounded(connection, budget or Budget()) as watch:
        matches = cache.get(key, stamp) if cache is not None else None
        if matches is None:
            matches = _matches_in_mode(
                connection, watch, facts, parsed, filters, resolved, semantic, text, like
            )
            watch.check()
            if cache is not None:
                cache.put(key, stamp, matches)
        sessions, first, counts = np.unique(
            matches.facts.session, return_index=True, return_counts=True
        )
        order = np.argsort(first, kind="stable")
        page = sessions[order][offset : offset + limit]
        page_counts = counts[order][offset : offset + limit]
        shown = _page(matches, page, per_session)
        info = _sessions(connection, [int(session) for session in page])
        positions = [position for session in page.tolist() for position in shown[session]]
        hits = _hits(connection, watch, facts, parsed, matches, positions, info)
        facets = _facets(connection, facts, matches)
    groups: list[SessionGroup] = []
    for session, count in zip(page.tolist(), page_counts.tolist(), strict=True):
        details = info.get(session)
        if details is None:
            continue
        groups.append(
            SessionGroup(
                session_key=details.key,
                title=details.title,
                project=details.project,
                project_path=details.project_path,
                archived=details.archived,
                agent=details.agent,
                count=count,
                rank=float(matches.score[shown[session][0]]),
                shown=[hits[position] for position in shown[session] if position in hits],
            )
        )
    return SearchResult(
        query=text,
        terms=parsed.highlights,
        total_hits=len(matches),
        total_sessions=len(sessions),
        groups=groups,
        offset=offset,
        limit=limit,
        per_session=per_session,
        facets=facets,
        seconds=time.perf_counter() - began,
        mode=resolved,
    )


def search(
    connection: sqlite3.Connection,
    text: str,
    filters: SearchFilters | None = None,
    *,
    limit: int = 50,
    offset: int = 0,
    budget: Budget | None = None,
    facts: DocumentFacts | None = None,
) -> list[SearchHit]:
    """The best hits for ``text``, best first, not grouped (ranked over every match, as
    :func:`search_results`)."""
    if limit > MAX_SHOWN:
        raise SearchError(f"at most {MAX_SHOWN:,} hits are shown at once; ask for fewer")
    parsed = parse_query(text)
    filters = filters or SearchFilters()
    check_filters(filters)
    if not parsed.fts:
        return []
    facts = facts or DocumentFacts()
    with _snapshot(connection), bounded(connection, budget or Budget()) as watch:
        matches = _matches(connection, watch, facts, parsed, filters)
        positions = list(range(offset, min(offset + limit, len(matches))))
        chosen = {int(matches.facts.session[position]) for position in positions}
        info = _sessions(connection, sorted(chosen))
        found = _hits(connection, watch, facts, parsed, matches, positions, info)
        return [found[position] for position in positions if position in found]


__all__ = [
    "DEFAULT_SECONDS",
    "MAX_SHOWN",
    "ORIGINS",
    "Budget",
    "Origin",
    "ProjectChoice",
    "QueryTooBroad",
    "SearchCancelled",
    "SearchFilters",
    "Semantic",
    "Watch",
    "bounded",
    "check_filters",
    "project_choices",
    "resolve_mode",
    "search",
    "search_results",
]
