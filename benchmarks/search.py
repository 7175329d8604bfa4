"""Search on the 1 GB corpus: latency of grouped results with totals and facets, and bounded cost.

Usage: ``python benchmarks/search.py [--work DIR] [--db FILE] [--rounds 5]``

``--work DIR`` is the folder ``benchmarks/index.py --work DIR`` keeps its corpus in (its
``claude`` folder is indexed; default ``/work/bench-corpus-1g``). The index goes to ``--db``
(default: ``search-index.db`` in a temporary folder, built first; an existing file is brought
up to date and reused).

Printed, with the machine's load average (the machine may be busy with other work):

* per query of a realistic set (broad and narrow words, phrases, prefixes, OR, exclusions,
  filters): the texts it matches, the floor (FTS5 ranking every match, rows fetched, nothing
  else), and the median of ``Index.search_results`` (ranked, grouped by session, totals, facets,
  snippets of the page shown), as a long-running server has it;
* p50/p95 over the set: in a server (what searches learnt about documents kept; every match
  ranked each time, the server's kept matches forgotten before each run), the first time in a
  process (as ``cclens search`` runs), and over HTTP (``/api/search``, ``/search``: ranked
  afresh, and asked again, when the server reuses the ranked matches it kept);
* the queries issue 13 names (``a OR a OR ...`` with 50, 200 and 2,000 terms), 2,000 different
  terms, and the worst queries the limits allow: the time to answer or refuse.

Aims: search p95 < 50 ms; a 2,000-term query answers or refuses in < 1 s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

from cclens.index import (
    MAX_TERMS,
    Budget,
    Index,
    QueryError,
    QueryTooBroad,
    SearchFilters,
    parse_query,
)
from cclens.index.read.search import search_results
from cclens.index.read.search_facts import DocumentFacts

DEFAULT_WORK = Path("/work/bench-corpus-1g")

#: A realistic set: what people type into a search of their sessions.
QUERIES: list[tuple[str, SearchFilters | None]] = [
    ("error", None),
    ("test", None),
    ("sidechain", None),
    ("worktree", None),
    ("README", None),
    ("timeout", None),
    ("permission denied", None),
    ("migration", None),
    ('"command not found"', None),
    ('"exit code"', None),
    ('"no such file or directory"', None),
    ('"git commit"', None),
    ("compar*", None),
    ("refactor*", None),
    ("python pytest", None),
    ("git commit -amend", None),
    ("permission OR denied", None),
    ("docker compose", None),
    ("typescript interface", None),
    ("quantum zeppelin", None),
    ("timeline", SearchFilters(kinds=("assistant",))),
    ("install", SearchFilters(tool="Bash")),
    ("file", SearchFilters(errors_only=True)),
    ("component", SearchFilters(kinds=("tool_input",))),
    ("thinking", SearchFilters(kinds=("thinking",))),
    ("todo", SearchFilters(since=datetime(2025, 7, 1, tzinfo=UTC))),
    ("claude", SearchFilters(project="experiments")),
    ("test", SearchFilters(kinds=("prompt",))),
    ("error", SearchFilters(tool="Bash", errors_only=True)),
    ("agent", SearchFilters(origin="subagent")),
]

#: Common words: the worst the term limit lets through.
_COMMON = [
    "the",
    "a",
    "to",
    "of",
    "and",
    "in",
    "is",
    "for",
    "it",
    "this",
    "that",
    "with",
    "on",
    "be",
    "as",
    "file",
    "error",
    "test",
    "i",
    "you",
    "are",
    "not",
    "from",
    "by",
    "at",
    "or",
    "an",
    "if",
    "do",
    "no",
    "so",
    "up",
    "we",
]


_LETTERS = "abcdefghijklmnopqrstuvwxyz0123"


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def _label(text: str, filters: SearchFilters | None) -> str:
    if filters is None:
        return text
    parts = [f"{name}={value}" for name, value in vars_of(filters).items() if value]
    return f"{text} [{', '.join(parts)}]"


def vars_of(filters: SearchFilters) -> dict[str, object]:
    """The filters set, for a label."""
    return {
        "project": filters.project,
        "since": filters.since.date().isoformat() if filters.since else None,
        "tool": filters.tool,
        "kind": ",".join(filters.kinds),
        "errors": filters.errors_only,
        "origin": filters.origin,
    }


Clock = Callable[[], float]


@dataclass
class Timings:
    """Wall-clock times and processor times of the same runs."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    def run(
        self, call: Callable[[], object], clock: Callable[[], float] = time.thread_time
    ) -> None:
        """Time ``call`` on the clock and on ``clock`` (this thread's processor time)."""
        began, used = time.perf_counter(), clock()
        call()
        self.wall.append(time.perf_counter() - began)
        self.cpu.append(clock() - used)

    def extend(self, other: Timings) -> None:
        self.wall.extend(other.wall)
        self.cpu.extend(other.cpu)

    def summary(self, aim: float) -> str:
        """p50/p95/max on the clock and in processor time, and the ratio of each p95 to ``aim``."""
        found = []
        for name, values in (("wall", self.wall), ("cpu", self.cpu)):
            p50, p95 = _percentile(values, 0.5), _percentile(values, 0.95)
            found.append(
                f"{name} p50 {p50 * 1000:6.1f} p95 {p95 * 1000:6.1f} max {max(values) * 1000:6.1f}"
                f" ms (ratio {p95 / aim:.2f})"
            )
        return "; ".join(found)


def _floor(index: Index, text: str) -> float:
    """FTS5 ranking every match of ``text``, rows fetched: what any exact ranking costs
    (median processor time of three runs)."""
    statement = (
        "SELECT rowid, bm25(documents_text) FROM documents_text WHERE documents_text MATCH ?"
    )
    query = parse_query(text).fts
    timings = Timings()
    with index.connection() as connection:
        for _ in range(3):
            timings.run(lambda: connection.execute(statement, (query,)).fetchall())
    return statistics.median(timings.cpu)


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (5 min {five:.1f})"


def measure_queries(index: Index, rounds: int) -> Timings:
    """Per query: matches, floor, the server's median; every run's timings."""
    print(
        f"{'query':44s} {'texts':>7s} {'sessions':>8s} {'floor cpu':>9s} {'search cpu':>10s} "
        f"{'wall':>8s}"
    )
    everything = Timings()
    for text, filters in QUERIES:
        result = index.search_results(text, filters)  # what the server has learnt before
        timings = Timings()
        for _ in range(rounds):
            index.forget_ranked_searches()  # every match ranked each time
            timings.run(partial(index.search_results, text, filters))
        everything.extend(timings)
        print(
            f"{_label(text, filters)[:44]:44s} {result.total_hits:7,d} "
            f"{result.total_sessions:8,d} {_floor(index, text) * 1000:7.1f}ms "
            f"{statistics.median(timings.cpu) * 1000:8.1f}ms "
            f"{statistics.median(timings.wall) * 1000:6.1f}ms"
        )
    return everything


def measure_first(index: Index) -> Timings:
    """Each query once with nothing learnt about documents (as one ``cclens search``)."""
    timings = Timings()
    with index.connection() as connection:
        for text, filters in QUERIES:
            timings.run(
                partial(
                    search_results,
                    connection,
                    text,
                    filters,
                    facts=DocumentFacts(),
                    budget=Budget(60),
                )
            )
    return timings


def measure_bounds(index: Index) -> None:
    """The queries of issue 13 and the worst the limits allow: answered or refused, and when
    (in a server, which has read what it needs about every document)."""
    cases = [
        ("a OR a OR ... (50 terms)", " OR ".join(["a"] * 50)),
        ("a OR a OR ... (200 terms)", " OR ".join(["a"] * 200)),
        ("a OR a OR ... (2,000 terms)", " OR ".join(["a"] * 2000)),
        ("2,000 different terms", " OR ".join(f"w{number}" for number in range(2000))),
        (f"{MAX_TERMS} common words OR'ed", " OR ".join(_COMMON[:MAX_TERMS])),
        (f"{MAX_TERMS} one-letter prefixes OR'ed", " OR ".join(f"{c}*" for c in _LETTERS)),
        (f"{MAX_TERMS} common words AND'ed", " ".join(_COMMON[:MAX_TERMS])),
    ]
    index.learn_search_facts()
    timings = Timings()
    for label, text in cases:
        outcome = ""

        def run(text: str = text) -> None:
            nonlocal outcome
            try:
                found = index.search_results(text, budget=Budget())
                outcome = f"answered: {found.total_hits:,} texts"
            except (QueryError, QueryTooBroad) as error:
                outcome = f"refused: {str(error)[:60]}"

        index.forget_ranked_searches()  # "a OR a" is "a": each case ranks afresh
        timings.run(run)
        print(
            f"  {label:30s} cpu {timings.cpu[-1] * 1000:6.0f} ms  wall "
            f"{timings.wall[-1] * 1000:6.0f} ms  {outcome}"
        )
    print(
        f"  worst: cpu {max(timings.cpu) * 1000:.0f} ms, wall {max(timings.wall) * 1000:.0f} ms "
        f"(aim < 1,000 ms, ratio {max(timings.cpu):.2f} in processor time)"
    )


def measure_http(db: Path, root: Path, rounds: int) -> None:
    """``/api/search`` and ``/search`` over a real server on 127.0.0.1 (in this process: the
    processor time is the server's and the client's)."""
    import httpx

    from cclens.web import Settings, start

    server = start(Settings(db_path=db, claude_dirs=[root], port=0, watch=False))
    try:
        assert server.app.state.cclens.indexer.ready.wait(600)
        with httpx.Client(base_url=server.url, timeout=60) as client:
            index = server.app.state.cclens.index
            for path in ("/api/search", "/search"):
                timings, repeated = Timings(), Timings()
                for round_number in range(rounds + 1):
                    for text, filters in QUERIES:
                        params = _params(text, filters)
                        if not round_number:  # the first round warms the server up
                            client.get(path, params=params)
                            continue

                        def get(path: str = path, params: dict[str, str] = params) -> None:
                            response = client.get(path, params=params)
                            assert response.status_code == 200, (path, response.text[:200])

                        index.forget_ranked_searches()  # ranked afresh
                        timings.run(get, time.process_time)
                        repeated.run(get, time.process_time)  # the same again: kept matches
                print(f"  {path:12s} {timings.summary(0.05)}")
                print(f"  {path:12s} {repeated.summary(0.05)}  (asked again: matches kept)")
    finally:
        server.stop()


def _params(text: str, filters: SearchFilters | None) -> dict[str, str]:
    params = {"q": text}
    if filters is None:
        return params
    if filters.project:
        params["project"] = filters.project
    if filters.since:
        params["since"] = filters.since.date().isoformat()
    if filters.tool:
        params["tool"] = filters.tool
    if filters.kinds:
        params["kind"] = filters.kinds[0]
    if filters.errors_only:
        params["errors"] = "1"
    if filters.origin:
        params["origin"] = filters.origin
    return params


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, default=DEFAULT_WORK)
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    root = args.work / "claude"
    if not root.is_dir():
        sys.exit(
            f"no corpus at {root}: build it with python benchmarks/index.py --work {args.work}"
        )
    db = args.db or Path(tempfile.mkdtemp(prefix="cclens-search-")) / "search-index.db"
    print(f"corpus {root}, index {db}; {_load()}")
    with Index(db) as index:
        began = time.perf_counter()
        report = index.update([root])
        with index.connection() as connection:
            documents = connection.execute("SELECT count(*) FROM documents").fetchone()[0]
        print(
            f"index brought up to date in {time.perf_counter() - began:.1f} s "
            f"({report.files_read:,} files read); {documents:,} documents; {_load()}"
        )
        sys.stdout.flush()
        print(
            f"\nper query (median of {args.rounds}, in a server; processor time and time on the "
            "clock; floor: FTS5 ranking every match, nothing else):"
        )
        server = measure_queries(index, args.rounds)
        first = measure_first(index)
        print(f"\nover the {len(QUERIES)} queries (aim p95 < 50 ms); {_load()}")
        print(f"  {'server':20s} {server.summary(0.05)}")
        print(f"  {'first in a process':20s} {first.summary(0.05)}")
        print(f"\nbounded cost (answer or refuse; budget {Budget().seconds:g} s); {_load()}")
        measure_bounds(index)
    print(f"\nover HTTP ({args.rounds} rounds of the set after one to warm up); {_load()}")
    sys.stdout.flush()
    measure_http(db, root, args.rounds)
    print(f"\n{_load()}")


if __name__ == "__main__":
    main()
