"""The index as one object: open it once, then update, list, load, search and restore."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager, suppress
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from .read import queries, session_list
from .storage.connection import (
    READ_ONLY_HINT,
    IndexReadOnly,
    IndexUnusable,
    about_the_file,
    connect,
    is_damaged,
    problem,
)
from .storage.locking import Holder, UpdateLockError
from .storage.pool import POOL_SIZE, ChangeCounter, ConnectionPool

if TYPE_CHECKING:
    # Each method imports what it uses: search (and numpy with it) on the first search, the
    # write path on the first update, the usage queries on the first figures; opening the
    # index (as the hook and the status line do) loads none of them.
    import numpy as np
    import numpy.typing as npt

    from ..figures.aggregate import ToolPart
    from ..figures.counts import SessionCounts
    from ..figures.inventory import CallFact
    from ..figures.usage import Response
    from ..readers.claude import Session
    from .read.queries import ProjectSummary, SessionSummary, Totals
    from .read.search import Budget, MatchCache, ProjectChoice, SearchFilters, Semantic
    from .read.search_facts import DocumentFacts
    from .read.search_result import SearchHit, SearchResult
    from .read.semantic import VectorStore
    from .read.session_list import SessionFilters, SessionPage
    from .read.usage_query import BucketSum, CallRow, UsageSelection
    from .storage.versions import SessionVersion
    from .write.ingest import Progress, UpdateReport

Result = TypeVar("Result")


class Index:
    """A cclens index file.

    Opening it checks the file and migrates an older schema (see :func:`connect`). Reads go
    through a bounded pool of connections (``pool_size``, shared by every thread: the web
    app's request threads read while its indexing thread writes on a connection of its own).
    """

    def __init__(self, path: Path | str, *, pool_size: int = POOL_SIZE) -> None:
        self.path = Path(path)
        self._update_lock = threading.Lock()
        #: What searches learnt about documents, kept for the next ones (see DocumentFacts).
        self._facts: DocumentFacts | None = None
        self._facts_lock = threading.Lock()
        self._matches: MatchCache | None = None
        self._vectors: VectorStore | None = None
        #: On a medium cclens cannot write (a read-only file, folder or file system), the index
        #: is read as it is: :meth:`update` raises :class:`IndexReadOnly`.
        self.read_only = False
        # Held until closed: a rebuild never moves the file from under this process.
        self._holder = Holder(self.path)
        # The writer first: it creates or migrates the file, and fails now, with a clear
        # message, on a damaged or foreign one.
        self._writer: sqlite3.Connection | None = None
        try:
            self._writer = connect(self.path)
        except IndexReadOnly:
            self.read_only = True
        except BaseException:
            self._holder.release()
            raise
        self._pool = ConnectionPool(lambda: connect(self.path, writer=False), pool_size)
        self._changes = ChangeCounter(lambda: connect(self.path, writer=False))
        self._memo: dict[str, tuple[int, Any]] = {}
        if self.read_only:
            with self.connection():
                pass  # check now that it can at least be read

    @contextmanager
    def connection(self) -> Iterator[sqlite3.Connection]:
        """A read connection from the pool, for this thread until the block ends.

        SQLite's failures about the file or its disk inside the block become
        :class:`IndexUnusable`, whose one-line message says what failed and what to do (damage,
        a read-only or full disk…); other errors (a statement interrupted on purpose) go up as
        they are.
        """
        with self._pool.lease() as leased:
            try:
                yield leased
            except sqlite3.DatabaseError as error:
                if not about_the_file(error):
                    raise
                raise problem(self.path, error) from error

    @property
    def open_connections(self) -> int:
        """Connections open now: the pool's, the writer's, and the one watching for changes."""
        return self._pool.opened + (self._writer is not None) + self._changes.opened

    def _writing(self) -> sqlite3.Connection:
        if self.read_only:
            raise IndexReadOnly(self.path, "the index is read-only", READ_ONLY_HINT)
        if self._writer is None:
            self._writer = connect(self.path)
        return self._writer

    def _remembered(self, name: str, compute: Callable[[sqlite3.Connection], Result]) -> Result:
        """``compute``'s result, worked out again only after the index changed (by any
        connection, of any process): the lists and totals that add up the whole index are
        asked for by most pages, and cost tens of milliseconds on a large index."""
        generation = self._changes.current()
        found = self._memo.get(name)
        if found is not None and found[0] == generation:
            return cast(Result, found[1])
        with self.connection() as connection:
            value = compute(connection)
        self._memo[name] = (generation, value)
        return value

    def close(self) -> None:
        """Close every connection (one leased at this moment closes when it is given back)."""
        self._pool.close()
        self._changes.close()
        with self._update_lock:
            if self._writer is not None:
                self._writer.close()
                self._writer = None
        self._holder.release()

    def __enter__(self) -> Index:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def update(
        self,
        roots: list[Path],
        *,
        workers: int = 2,
        progress: Progress | None = None,
        pool_threshold: int | None = None,
        changed: Collection[Path | str] | None = None,
        waiting: Callable[[float], None] | None = None,
        embed: bool = True,
    ) -> UpdateReport:
        """Read what changed under ``roots`` (one update at a time per index file, across
        processes: ``waiting(seconds)`` is called while another one runs).

        See :func:`cclens.index.write.ingest.update_index`. A large update starts worker processes
        with ``multiprocessing``'s "spawn" method, so a script calling this must guard its
        entry point with ``if __name__ == "__main__":``.
        """
        from .write.ingest import POOL_THRESHOLD, update_index

        with self._update_lock:
            try:
                return update_index(
                    self._writing(),
                    self.path,
                    roots,
                    workers=workers,
                    progress=progress,
                    pool_threshold=POOL_THRESHOLD if pool_threshold is None else pool_threshold,
                    changed=changed,
                    waiting=waiting,
                    embed=embed,
                )
            except sqlite3.DatabaseError as error:
                if not about_the_file(error):
                    raise
                raise problem(self.path, error) from error
            except UpdateLockError as error:
                raise IndexReadOnly(self.path, str(error), READ_ONLY_HINT) from error

    def check(self, *, every: float | None = None) -> bool:
        """Check the whole file for damage with SQLite's ``PRAGMA quick_check`` (a few seconds
        per GB); raise :class:`IndexUnusable` (advising ``--rebuild``) when it is damaged.

        ``every``: only when the last check is older than this many seconds (a new index
        counts as checked when it is first seen). Returns whether the check ran.
        """
        now = time.time()
        with self.connection() as connection:
            row = connection.execute("SELECT value FROM meta WHERE key = 'checked'").fetchone()
        last = float(row[0]) if row is not None else None
        if every is not None and (last is None or now - last < every):
            if last is None and not self.read_only:
                self._record_check(now)
            return False
        if is_damaged(self.path):
            raise IndexUnusable(self.path, "the index file is damaged (PRAGMA quick_check)")
        if not self.read_only:
            self._record_check(now)
        return True

    def _record_check(self, moment: float) -> None:
        with self._update_lock:
            try:
                self._writing().execute(
                    "INSERT OR REPLACE INTO meta(key, value) VALUES ('checked', ?)", (moment,)
                )
            except sqlite3.DatabaseError as error:
                raise problem(self.path, error) from error

    def projects(
        self,
        filters: SessionFilters | None = None,
        *,
        sort: str = "last_activity",
        order: str | None = None,
        limit: int | None = None,
        offset: int = 0,
    ) -> list[ProjectSummary]:
        """Every project with a session ``filters`` keep (all by default), its figures added
        up over those sessions, the most recently active first unless ``sort`` (a key of
        :data:`~cclens.index.read.session_list.PROJECT_SORTS`) and ``order`` (``asc`` or
        ``desc``) say otherwise; ``limit`` of them (``None``: all) from ``offset``. Raises
        :class:`~cclens.index.ListError` for an unknown key. The whole list, unfiltered, is
        worked out again only after the index changed."""
        if filters is None and (sort, order, limit, offset) == ("last_activity", None, None, 0):
            return list(self._remembered("projects", session_list.list_projects))
        with self.connection() as connection:
            return session_list.list_projects(
                connection, filters, sort=sort, order=order, limit=limit, offset=offset
            )

    def count_projects(self, filters: SessionFilters | None = None) -> int:
        """How many projects have a session ``filters`` keep."""
        with self.connection() as connection:
            return session_list.count_projects(connection, filters)

    def project(self, slug: str) -> ProjectSummary | None:
        """One project by its folder name."""
        with self.connection() as connection:
            return queries.get_project(connection, slug)

    def sessions(
        self,
        filters: SessionFilters | None = None,
        *,
        sort: str = "last_activity",
        order: str | None = None,
        limit: int | None = None,
        offset: int = 0,
    ) -> SessionPage:
        """The sessions of every project that ``filters`` keep, a page at a time.

        ``sort`` is a key of :data:`~cclens.index.read.session_list.SESSION_SORTS`
        (``last_activity`` by default, the most recent first), ``order`` ``asc`` or ``desc``
        (``None``: the key's natural order, largest or latest first for figures and times,
        A to Z for text), ``limit`` how many to return (``None``: all) from ``offset``. The
        page says how many sessions match in all (``total``) and iterates over its sessions.
        Raises :class:`~cclens.index.ListError` for an unknown key or order. This is the one
        listing of sessions: the web pages, the JSON API and ``cclens sessions`` call it.
        """
        with self.connection() as connection:
            return session_list.list_sessions(
                connection, filters, sort=sort, order=order, limit=limit, offset=offset
            )

    def branches(self) -> list[str]:
        """Every git branch a session was last on, most used first (worked out again only
        after the index changed)."""
        return list(self._remembered("branches", session_list.branches))

    def agents(self) -> list[str]:
        """Every agent with a session in the index, most sessions first (worked out again only
        after the index changed)."""
        return list(self._remembered("agents", session_list.agents_indexed))

    def models(self) -> list[str]:
        """Every model a session used, most used first (worked out again only after the index
        changed)."""
        return list(self._remembered("models", session_list.models))

    def session(self, key: str) -> SessionSummary | None:
        """One session's summary by its key."""
        with self.connection() as connection:
            return queries.get_session(connection, key)

    def counts(self, key: str) -> SessionCounts | None:
        """What the session ``key`` counts, its subagents' part of it and what it carries over
        from other sessions: its header's figures on every surface (see
        :mod:`cclens.figures.counts`); ``None`` when the index has no such session."""
        from .read.session_counts import session_counts

        with self.connection() as connection:
            return session_counts(connection, key)

    def find(self, text: str) -> list[SessionSummary]:
        """Sessions named by a key, session id, transcript path or id prefix."""
        with self.connection() as connection:
            return queries.find_sessions(connection, text)

    def load(self, key: str) -> Session | None:
        """The whole session, assembled from the stored bytes (archived sessions too).

        Its title is the index's, which also sees summaries written in other files of the
        project (see :mod:`cclens.index.write.titles`).
        """
        from .storage.stored import build_stored, read_stored

        with self.connection() as connection:
            row = queries.session_row(connection, key)
            stored = read_stored(connection, row) if row is not None else None
            titled = connection.execute(
                "SELECT title, title_source FROM sessions WHERE id = ?", (row,)
            ).fetchone()
        # Assembled after the connection went back to the pool: that is the slow part.
        session = build_stored(stored) if stored is not None else None
        if session is not None and titled is not None:
            session.title, session.title_source = titled[0], titled[1]
        return session

    def file_lines(self, key: str) -> dict[str, int]:
        """For each stored file of a session, the line number stored up to."""
        with self.connection() as connection:
            return queries.file_lines(connection, key)

    @property
    def _search_facts(self) -> DocumentFacts:
        with self._facts_lock:
            if self._facts is None:
                from .read.search_facts import DocumentFacts

                self._facts = DocumentFacts()
            return self._facts

    @property
    def _search_cache(self) -> MatchCache:
        with self._facts_lock:
            if self._matches is None:
                from .read.search import MatchCache

                self._matches = MatchCache(self._changes.current)
            return self._matches

    @property
    def _semantic(self) -> Semantic:
        with self._facts_lock:
            if self._vectors is None:
                from .read.semantic import VectorStore
                from .summary_model import available

                self._vectors = VectorStore(summaries=available)
            store = self._vectors
        from .read.search import Semantic

        return Semantic(store, _embed_query, _embed_summary_query)

    def search_modes(self) -> tuple[str, ...]:
        """The search modes this index can run now: ``lexical`` always, ``semantic`` and
        ``hybrid`` when the model is installed and the index has vectors (the first mode is
        the default)."""
        from .embedding import available

        if not available():
            return ("lexical",)
        with self.connection() as connection:
            if self._semantic.store.current(connection) is None:
                return ("lexical",)
        return ("hybrid", "lexical", "semantic")

    def related_sessions(self, key: str, limit: int = 5) -> list[tuple[SessionSummary, float]]:
        """The sessions nearest in meaning to session ``key`` (by the cosine of their
        centroids), with that cosine; empty without vectors."""
        from .embedding import available
        from .read.semantic import related_sessions

        if not available():
            return []
        with self.connection() as connection:
            loaded = self._semantic.store.current(connection)
            row = connection.execute("SELECT id FROM sessions WHERE key = ?", (key,)).fetchone()
            if loaded is None or row is None:
                return []
            found = related_sessions(loaded, int(row[0]), limit)
            keys = (
                dict(
                    connection.execute(
                        f"SELECT id, key FROM sessions WHERE id IN ({', '.join('?' * len(found))})",
                        [item.session for item in found],
                    ).fetchall()
                )
                if found
                else {}
            )
        related = []
        for item in found:
            summary = self.session(keys[item.session]) if item.session in keys else None
            if summary is not None:
                related.append((summary, item.similarity))
        return related

    def warm_semantic(self) -> None:
        """Load the model and the vectors now (the web app does it at start, so that its first
        search by meaning is as fast as the next ones)."""
        if "semantic" not in self.search_modes():
            return
        from .embedding import load

        load()
        with self.connection() as connection:
            loaded = self._semantic.store.current(connection)
        if loaded is not None and loaded.summaries is not None:
            from .summary_model import SummaryModelUnavailable
            from .summary_model import load as load_summary_model

            with suppress(SummaryModelUnavailable):  # searches go on without the summaries
                load_summary_model()

    def forget_ranked_searches(self) -> None:
        """Forget the ranked matches kept from recent searches, so that the next ones rank
        every match again (what a benchmark of ranking needs)."""
        self._search_cache.clear()

    def search(
        self,
        text: str,
        filters: SearchFilters | None = None,
        *,
        limit: int = 50,
        offset: int = 0,
        budget: Budget | None = None,
    ) -> list[SearchHit]:
        """The best hits for ``text``, not grouped (see :func:`cclens.index.read.search.search`)."""
        from .read.search import search

        with self.connection() as connection:
            return search(
                connection,
                text,
                filters,
                limit=limit,
                offset=offset,
                budget=budget,
                facts=self._search_facts,
            )

    def search_results(
        self,
        text: str,
        filters: SearchFilters | None = None,
        *,
        offset: int = 0,
        limit: int = 10,
        per_session: int = 3,
        budget: Budget | None = None,
        mode: str | None = None,
        like: tuple[str, str] | None = None,
    ) -> SearchResult:
        """Hits grouped by session, with totals and facets (see
        :func:`cclens.index.read.search.search_results`). ``mode``: ``lexical``, ``semantic``
        or ``hybrid`` (default: hybrid when the index has vectors and the model is installed,
        else lexical); ``like``: ``(session key, message anchor)`` to find the texts nearest
        that message in meaning instead."""
        from .read.search import search_results

        with self.connection() as connection:
            return search_results(
                connection,
                text,
                filters,
                offset=offset,
                limit=limit,
                per_session=per_session,
                budget=budget,
                facts=self._search_facts,
                cache=self._search_cache,
                mode=mode,
                semantic=self._semantic,
                like=like,
            )

    def project_choices(self) -> list[ProjectChoice]:
        """The projects a search can be narrowed to, by name."""
        from .read.search import project_choices

        with self.connection() as connection:
            return project_choices(connection)

    def learn_search_facts(self) -> None:
        """Read what search groups and counts by for every document now (see
        :class:`~cclens.index.read.search_facts.DocumentFacts`): the web app does it once at start,
        so that its first searches are as fast as the next ones."""
        with self.connection() as connection:
            self._search_facts.learn_all(connection)

    def restore(
        self, key: str, out_dir: Path, *, overwrite: bool = False, version: int | None = None
    ) -> list[Path]:
        """Write a session's files back under ``out_dir``, byte for byte; the paths written.

        ``version``: one of :meth:`versions` (the newest when ``None``).
        """
        from .storage.stored import restore_files

        with self.connection() as connection:
            row = queries.session_row(connection, key)
            if row is None:
                raise KeyError(key)
            return restore_files(connection, row, out_dir, overwrite=overwrite, version=version)

    def versions(self, key: str) -> list[SessionVersion]:
        """The versions of a session the index kept, the oldest first and the newest last.

        A session has one version until one of its files changes other than by growing (see
        :mod:`cclens.index.storage.versions`).
        """
        from .storage.versions import list_versions

        with self.connection() as connection:
            row = queries.session_row(connection, key)
            if row is None:
                raise KeyError(key)
            return list_versions(connection, row)

    def usage_sums(
        self, selection: UsageSelection, *, seconds: int | None = None
    ) -> list[BucketSum]:
        """Selected responses summed per time bucket, session, model and price (see
        :mod:`.usage_query`; ``seconds``: the bucket, a quarter of an hour unless given)."""
        from .read import usage_query

        with self.connection() as connection:
            return usage_query.bucket_sums(
                connection, selection, seconds=seconds or usage_query.QUARTER_HOUR
            )

    def usage_responses(self, selection: UsageSelection) -> list[Response]:
        """Every selected API response once, as the analytics count it."""
        from .read import usage_query

        with self.connection() as connection:
            return usage_query.counted_responses(connection, selection)

    def usage_tools(self, selection: UsageSelection) -> list[ToolPart]:
        """Selected responses summed per tools called, session and price, their tokens split
        among their calls (see :func:`.usage_query.tool_sums`)."""
        from .read import usage_query

        with self.connection() as connection:
            return usage_query.tool_sums(connection, selection)

    def usage_call_rows(self, selection: UsageSelection) -> list[CallRow]:
        """Every selected tool call once, as the tool figures read it."""
        from .read import usage_query

        with self.connection() as connection:
            return usage_query.call_rows(connection, selection)

    def usage_calls(self, selection: UsageSelection) -> list[CallFact]:
        """Every selected tool call once (timed by when it was made)."""
        from .read import usage_query

        with self.connection() as connection:
            return usage_query.counted_calls(connection, selection)

    def usage_prompts(self, selection: UsageSelection) -> list[datetime | None]:
        """When each selected prompt was typed (each once)."""
        from .read import usage_query

        with self.connection() as connection:
            return usage_query.prompt_times(connection, selection)

    def usage_counts(self, selection: UsageSelection) -> tuple[int, dict[str, int]]:
        """The selected prompts, and tool calls by status, each once."""
        from .read import usage_query

        with self.connection() as connection:
            return (
                usage_query.prompt_count(connection, selection),
                usage_query.call_statuses(connection, selection),
            )

    def usage_costs_current(self) -> bool:
        """Whether the stored costs come from this cclens's bundled price table."""
        from .read import usage_query

        with self.connection() as connection:
            return usage_query.costs_current(connection)

    def usage_projects(self) -> list[str]:
        """Every project folder the index knows."""
        from .read import usage_query

        with self.connection() as connection:
            return usage_query.project_slugs(connection)

    def usage_sessions(
        self, projects: Sequence[str] | None = None, agent: str | None = None
    ) -> tuple[int, int]:
        """Sessions and transcript files held for ``projects`` (all when ``None``) of
        ``agent`` (every agent's when ``None``)."""
        from .read import usage_query

        with self.connection() as connection:
            return usage_query.selected_sessions(connection, projects, agent)

    def totals(self) -> Totals:
        """How much the index holds."""
        return self._remembered("totals", queries.totals)


def _embed_query(text: str) -> npt.NDArray[np.float32]:
    from .embedding import load

    return load().embed_one(text)


def _embed_summary_query(text: str) -> npt.NDArray[np.float32] | None:
    """The query's vector by the summary model (``None`` when it cannot be loaded: the
    search goes on with the static model alone)."""
    from .summary_model import SummaryModelUnavailable, load

    try:
        return load().embed_one(text)
    except SummaryModelUnavailable:
        return None
