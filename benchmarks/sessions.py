"""Time the sessions view (every filter and every sort) on a corpus of >= 1 GB, ~10,000 sessions.

Usage: ``python benchmarks/sessions.py [--corpus DIR] [--db FILE] [--size-gb 1.0] [--repeat 7]``

``--corpus`` is a Claude folder (``DIR/projects/...``): by default ``/work/bench-corpus-1g/claude``
when it exists (what ``benchmarks/index.py --work /work/bench-corpus-1g`` built), else a corpus
built in a temporary folder the way ``benchmarks/index.py`` builds one (the shared corpus
replicated with fresh ids). The index goes to ``--db`` (by default a temporary file: nothing is
written next to the corpus) and is brought up to date first.

Printed, each a median (and the slowest) of ``--repeat`` runs, with the machine's load average:

* ``Index.sessions`` alone (the listing every surface calls), a page of 50, for the default
  order, each sort key both ways, each filter alone, every filter at once, the last page;
* the server time of the same through the web app: ``/api/sessions`` and the ``/sessions``
  page, ``/projects`` sorted each way and the home page, the app called in-process (routing,
  the Host check, the handler in its thread pool, the template or JSON);
* a few of them over a socket through uvicorn, against a static file as the baseline (what
  every request costs on the way in and out).

Aim: < 300 ms server time for the sessions view with every filter and sort (10,000 sessions):
the verdict is on the slowest median.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlencode

import httpx

from cclens.figures.period import Period, parse_date
from cclens.index import PROJECT_SORTS, SESSION_SORTS, Index, SessionFilters
from cclens.web import Settings, create_app, start

# The corpus builder of benchmarks/index.py (benchmarks/ is not a package).
sys.path.insert(0, str(Path(__file__).resolve().parent))
from index import DEFAULT_CORPUS, build_corpus

SHARED_CORPUS = Path("/work/bench-corpus-1g/claude")
_BASE = "http://127.0.0.1:8765"  # the Host the in-process app is asked as (it checks it)
AIM = 0.300


def _timed(action: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median and slowest of ``repeat`` runs of ``action``, in seconds."""
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        action()
        times.append(time.perf_counter() - began)
    return statistics.median(times), max(times)


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (5 min {five:.1f})"


def _cases(index: Index) -> list[tuple[str, dict[str, str]]]:
    """``(name, query parameters)`` of every case: each sort both ways, each filter, all."""
    sessions = index.sessions(limit=None).sessions
    middle = sessions[len(sessions) // 2]
    project = middle.project
    model = (index.models() or ["sonnet"])[0]
    branch = (index.branches() or ["main"])[0]
    day = (middle.last_activity or datetime.now(UTC)).date()
    cases: list[tuple[str, dict[str, str]]] = [("default (last activity)", {})]
    for key in SESSION_SORTS:
        for order in ("asc", "desc"):
            cases.append((f"sort {key} {order}", {"sort": key, "order": order}))
    filters = {
        "text (one word)": {"q": "refactor"},
        "text (two words)": {"q": "test error"},
        "project (folder name)": {"project": project},
        "project (part of a path)": {"project": "dain"},
        "dates (a month)": {"since": f"{day:%Y-%m}-01", "until": f"{day:%Y-%m}-28"},
        "model": {"model": model},
        "model (part of an id)": {"model": "opus"},
        "branch": {"branch": branch},
        "with failures": {"errors": "1"},
        "without failures": {"errors": "0"},
        "archived": {"archived": "1"},
        "on disk": {"archived": "0"},
    }
    cases.extend((f"filter {name}", params) for name, params in filters.items())
    everything = {
        "q": "the",
        "project": "r0",
        "since": "2024-01-01",
        "until": "2027-12-31",
        "model": "sonnet",
        "errors": "1",
        "archived": "0",
        "sort": "cost",
    }
    cases.append(("every filter at once, by cost", everything))
    cases.append(("last page", {"offset": str(max(len(sessions) - 50, 0))}))
    return cases


def _filters(params: dict[str, str]) -> tuple[SessionFilters, str, str | None, int]:
    """The library call a set of query parameters stands for (as the web app reads them)."""
    period = Period(
        since=parse_date(params["since"]) if "since" in params else None,
        until=parse_date(params["until"]) if "until" in params else None,
    )
    choice = {"1": True, "0": False}
    filters = SessionFilters(
        text=params.get("q"),
        project=params.get("project"),
        since=period.start,
        until=period.end,
        model=params.get("model"),
        branch=params.get("branch"),
        errors=choice.get(params.get("errors", "")),
        archived=choice.get(params.get("archived", "")),
    )
    return (
        filters,
        params.get("sort", "last_activity"),
        params.get("order"),
        int(params.get("offset", "0")),
    )


def _report(name: str, median: float, slowest: float, width: int = 42) -> str:
    mark = "" if slowest < AIM else "  (over the aim)"
    return f"  {name:<{width}} {median * 1000:7.1f} ms  (slowest {slowest * 1000:6.1f} ms){mark}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=None, help="a Claude folder")
    parser.add_argument("--db", type=Path, default=None, help="the index file (kept)")
    parser.add_argument("--size-gb", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()

    scratch = Path(tempfile.mkdtemp(prefix="cclens-sessions-bench-"))
    root = args.corpus or (SHARED_CORPUS if SHARED_CORPUS.is_dir() else None)
    if root is None:
        root = scratch / "claude"
        size, files = build_corpus(DEFAULT_CORPUS, root, int(args.size_gb * 1e9))
        print(f"corpus: built {size / 1e9:.2f} GB in {files:,} files at {root}")
    db = args.db or scratch / "index.db"
    began = time.perf_counter()
    with Index(db) as index:
        index.update([root], workers=2)
        totals = index.totals()
    print(
        f"corpus: {root} ({totals.stored_bytes / 1e9:.2f} GB stored), {totals.sessions:,} "
        f"sessions in {totals.projects:,} projects; index up to date in "
        f"{time.perf_counter() - began:.1f} s"
    )
    print(f"machine: {os.cpu_count()} cores, {_load()}")
    sys.stdout.flush()

    worst = 0.0
    with Index(db) as index:
        cases = _cases(index)
        print(f"\nIndex.sessions (the listing), a page of 50 — {_load()}")
        for name, params in cases:
            filters, sort, order, offset = _filters(params)

            def listing(f: SessionFilters = filters, s: str = sort, o: str | None = order,
                        skip: int = offset) -> object:  # fmt: skip
                return index.sessions(f, sort=s, order=o, limit=50, offset=skip)

            median, slowest = _timed(listing, args.repeat)
            print(_report(name, median, slowest))

    app = create_app(Settings(db_path=db, claude_dirs=[root], watch=False, index_on_start=False))
    medians: list[tuple[float, str]] = []
    slowest_seen = 0.0

    async def server_times() -> None:
        nonlocal slowest_seen
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url=_BASE, timeout=600) as client:
            pages = [
                (path, name, params)
                for path in ("/api/sessions", "/sessions")
                for name, params in cases
            ]
            pages += [("/projects", f"sort {key}", {"sort": key}) for key in PROJECT_SORTS]
            pages += [("/", "home page", {})]
            current = ""
            for path, name, params in pages:
                if path != current:
                    current = path
                    print(f"\n{path}, server time (the app called in-process) — {_load()}")
                url = f"{path}?{urlencode(params)}" if params else path
                times = []
                for _ in range(args.repeat + 1):  # the first request warms caches
                    began = time.perf_counter()
                    answer = await client.get(url)
                    times.append(time.perf_counter() - began)
                    assert answer.status_code == 200, (url, answer.text[:200])
                median, slowest = statistics.median(times[1:]), max(times[1:])
                medians.append((median, f"{path} {name}"))
                slowest_seen = max(slowest_seen, slowest)
                print(_report(name, median, slowest))

    asyncio.run(server_times())

    # Over a socket, through uvicorn: the same app, plus what every request costs on the way
    # (measured on a static file, the baseline of the ratio).
    server = start(
        Settings(db_path=db, claude_dirs=[root], port=0, watch=False, index_on_start=False)
    )
    try:
        assert server.app.state.cclens.indexer.ready.wait(600)
        with httpx.Client(base_url=server.url, timeout=600) as client:
            client.get("/static/app.css")
            baseline, _ = _timed(lambda: client.get("/static/app.css"), args.repeat)
            print(f"\nover a socket (uvicorn on 127.0.0.1) — {_load()}")
            print(_report("a static file (baseline)", baseline, baseline))
            for name, url in (
                ("/sessions, default", "/sessions"),
                ("/sessions, every filter at once", "/sessions?" + urlencode(cases[-2][1])),
                ("/api/sessions, last page", "/api/sessions?" + urlencode(cases[-1][1])),
                ("/projects", "/projects"),
            ):

                def fetch(u: str = url) -> object:
                    return client.get(u)

                median, slowest = _timed(fetch, args.repeat)
                ratio = f"  ratio to the baseline {median / baseline:.1f}"
                print(_report(name, median, slowest) + ratio)
    finally:
        server.stop()
    worst, which = max(medians)
    verdict = "met" if worst < AIM else "NOT met"
    print(
        f"\nslowest server time (median of {args.repeat}): {worst * 1000:.0f} ms, {which}; "
        f"aim {AIM * 1000:.0f} ms: {verdict} (ratio {worst / AIM:.2f}); slowest single "
        f"request {slowest_seen * 1000:.0f} ms — {_load()}"
    )
    shutil.rmtree(scratch, ignore_errors=True)  # the corpus it built, or the index it made


if __name__ == "__main__":
    main()
