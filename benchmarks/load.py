"""Put ``cclens serve`` under load from many concurrent clients; print latencies and memory.

Usage::

    python benchmarks/load.py --claude-dir /work/bench-corpus-1g/claude --db /tmp/load-1g.db
    python benchmarks/load.py --size-mb 100 --work /tmp/bench-corpus-100m

The server is a separate ``cclens serve`` process (no file watching) on 127.0.0.1 over an index
of the corpus (built first with ``cclens index`` when ``--db`` does not exist yet). Once its
first update is done, ``--clients`` concurrent clients (one keep-alive connection each) send
``--requests`` requests in all, per round, drawn from a fixed mix: the home page, project
pages and their JSON, session pages and their JSON (a random sample of sessions), searches
(page and API; a few queries repeated, or with ``--distinct-searches`` each one new),
``/api/status``, and the largest session pages (reported apart: the aim leaves them out).
Every request counts as an error unless it answers 200. The run is bounded: at most
``--requests`` per round, ``--rounds`` rounds, and ``--time-limit`` seconds in all; only the
loopback address is ever contacted.

Printed per round: p50/p95/max per kind of request and over everything but the largest
pages, errors, requests per second; the server's resident memory (RSS) and the number of its
open descriptors on the index file before the load, at its peak and after each round; and the
machine's load average. Aims (issue 13): 0 errors, p95 < 1 s for everything but the largest
session pages, RSS growth < 100 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from index import DEFAULT_CORPUS, build_corpus

_MARKER = "corpus.json"
_SERVING = re.compile(r"at (http://127\.0\.0\.1:\d+/)")
#: Searches of the mix: words, a phrase, a prefix, an OR, a filter.
SEARCHES = ["error", "test", '"exit code"', "refactor*", "permission OR denied", "install"]
LARGEST_PAGES = 5
#: ``cclens`` run by this interpreter (so ``PYTHONPATH`` picks the source tree under test).
CCLENS = [sys.executable, "-c", "from cclens.cli import main; main(prog_name='cclens')"]


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def _index_descriptors(pid: int, db: Path) -> int:
    """Open descriptors of the server on the index file (one per SQLite connection)."""
    count = 0
    for name in os.listdir(f"/proc/{pid}/fd"):
        try:
            if os.readlink(f"/proc/{pid}/fd/{name}") == str(db):
                count += 1
        except OSError:
            continue
    return count


def _threads(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/task"))


@dataclass
class Sampler:
    """The server's peak memory, sampled every 100 ms while the load runs."""

    pid: int
    peak: float = 0.0
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def __enter__(self) -> Sampler:
        def sample() -> None:
            while not self._stop.wait(0.1):
                try:
                    self.peak = max(self.peak, _rss_mb(self.pid))
                except OSError:
                    return

        self._thread = threading.Thread(target=sample, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()


def _corpus(args: argparse.Namespace) -> Path:
    if args.claude_dir is not None:
        return Path(args.claude_dir)
    work = Path(args.work)
    if not (work / _MARKER).exists():
        print(f"building a {args.size_mb} MB corpus in {work} …", flush=True)
        build_corpus(Path(args.corpus), work, args.size_mb * 1_000_000)
    return work


def _start_server(root: Path, db: Path) -> tuple[subprocess.Popen[str], str]:
    command = [*CCLENS, "serve", "--no-watch", "--port", "0"]
    command += ["--host", "127.0.0.1", "--claude-dir", str(root), "--db", str(db)]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    line = process.stderr.readline()
    found = _SERVING.search(line)
    if found is None:
        process.kill()
        raise SystemExit(f"the server did not start: {line.strip()}")
    # Keep reading its stderr so the pipe never fills.
    threading.Thread(target=process.stderr.read, daemon=True).start()
    return process, found.group(1)


def _wait_ready(client: httpx.Client, limit: float) -> None:
    started = time.monotonic()
    while time.monotonic() - started < limit:
        status = client.get("/api/status").json()
        if status["updates"] >= 1 and not status["indexing"]:
            return
        time.sleep(0.2)
    raise SystemExit("the server's first update did not finish in time")


def _mix(
    client: httpx.Client, rng: random.Random, count: int, distinct: bool = False
) -> list[tuple[str, str]]:
    """``count`` requests ``(kind, path)`` in a random order, drawn from the index's contents.

    Searches repeat a few queries, as people repeat theirs (and page through them), which the
    server's cache of ranked matches serves; ``distinct`` makes each search new to the server
    (``QUERY OR zq<n>x``, a word no text holds: the same matches, ranked every time)."""
    projects = client.get("/api/projects").json()
    slugs = [p["id"] for p in projects]
    sessions: list[dict[str, object]] = []
    for slug in rng.sample(slugs, min(len(slugs), 60)):
        sessions += client.get(f"/api/projects/{quote(slug, safe='')}/sessions").json()["sessions"]
    sessions.sort(key=lambda s: int(str(s["messages"])) + int(str(s["tool_calls"])))
    largest = [str(s["id"]) for s in sessions[-LARGEST_PAGES:]]
    others = [str(s["id"]) for s in sessions[:-LARGEST_PAGES]]
    weighted: list[tuple[str, float]] = [
        ("home", 0.05),
        ("project page", 0.10),
        ("project api", 0.05),
        ("session page", 0.30),
        ("session api", 0.10),
        ("search page", 0.10),
        ("search api", 0.15),
        ("status api", 0.10),
        ("largest page", 0.05),
    ]
    kinds = rng.choices([k for k, _ in weighted], [w for _, w in weighted], k=count)
    chosen: list[tuple[str, str]] = []
    for kind in kinds:
        slug = quote(rng.choice(slugs), safe="")
        key = quote(rng.choice(others), safe="")
        query = rng.choice(SEARCHES)
        if distinct:
            query = f"{query} OR zq{rng.randrange(10**9)}x"
        query = quote(query, safe="")
        path = {
            "home": "/",
            "project page": f"/projects/{slug}",
            "project api": f"/api/projects/{slug}/sessions",
            "session page": f"/sessions/{key}",
            "session api": f"/api/sessions/{key}",
            "search page": f"/search?q={query}",
            "search api": f"/api/search?q={query}",
            "status api": "/api/status",
            "largest page": f"/sessions/{quote(rng.choice(largest), safe='')}",
        }[kind]
        chosen.append((kind, path))
    return chosen


@dataclass
class Outcome:
    times: dict[str, list[float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0
    sent: int = 0


async def _load(
    base: str, requests: list[tuple[str, str]], clients: int, deadline: float
) -> Outcome:
    outcome = Outcome()
    queue: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
    for request in requests:
        queue.put_nowait(request)

    async def client_loop() -> None:
        async with httpx.AsyncClient(base_url=base, timeout=120) as client:
            while time.monotonic() < deadline:
                try:
                    kind, path = queue.get_nowait()
                except asyncio.QueueEmpty:
                    return
                began = time.perf_counter()
                try:
                    response = await client.get(path)
                    await response.aread()
                except httpx.HTTPError as error:
                    outcome.errors.append(f"{path}: {type(error).__name__}: {error}")
                    continue
                finally:
                    outcome.sent += 1
                elapsed = time.perf_counter() - began
                if response.status_code != 200:
                    outcome.errors.append(f"{path}: HTTP {response.status_code}")
                outcome.times.setdefault(kind, []).append(elapsed)

    started = time.perf_counter()
    await asyncio.gather(*(client_loop() for _ in range(clients)))
    outcome.seconds = time.perf_counter() - started
    return outcome


def _line(name: str, values: list[float]) -> str:
    return (
        f"  {name:<22} {len(values):6d}  p50 {statistics.median(values) * 1000:8.0f} ms  "
        f"p95 {_percentile(values, 0.95) * 1000:8.0f} ms  max {max(values) * 1000:8.0f} ms"
    )


def _report(outcome: Outcome, pid: int, db: Path, before: float, peak: float) -> None:
    for kind in sorted(outcome.times):
        print(_line(kind, outcome.times[kind]))
    rest = [t for kind, ts in outcome.times.items() if kind != "largest page" for t in ts]
    if rest:
        print(_line("all but largest pages", rest))
        p95 = _percentile(rest, 0.95)
        print(f"  aim p95 < 1 s: {'met' if p95 < 1 else 'NOT met'} (ratio {p95 / 1.0:.2f})")
    after = _rss_mb(pid)
    print(
        f"  {outcome.sent} requests in {outcome.seconds:.1f} s "
        f"({outcome.sent / max(outcome.seconds, 1e-9):.1f}/s), {len(outcome.errors)} errors"
    )
    for error in outcome.errors[:5]:
        print(f"    {error}")
    print(
        f"  server RSS: before {before:.0f} MB, peak {peak:.0f} MB, after {after:.0f} MB "
        f"(growth {after - before:+.0f} MB; aim < 100 MB: "
        f"{'met' if after - before < 100 else 'NOT met'}); "
        f"descriptors on the index {_index_descriptors(pid, db)}, threads {_threads(pid)}"
    )
    print(f"  load average {' '.join(f'{v:.2f}' for v in os.getloadavg())}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--claude-dir", type=Path, help="a corpus (Claude config) folder")
    parser.add_argument("--size-mb", type=int, default=100, help="else build one this large")
    parser.add_argument("--work", type=Path, default=Path("/tmp/cclens-load-corpus"))
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--db", type=Path, help="the index (built when missing)")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--requests", type=int, default=2000, help="per round, in all")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--time-limit", type=float, default=900.0, help="seconds, in all")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument(
        "--distinct-searches",
        action="store_true",
        help="make every search new to the server (no ranked matches reused)",
    )
    args = parser.parse_args()
    if args.clients < 1 or args.clients > 200 or args.requests > 100_000:
        raise SystemExit("--clients must be 1-200 and --requests at most 100000")
    root = _corpus(args)
    db = Path(args.db or root / "load-index.db").absolute()
    if not db.exists():
        began = time.perf_counter()
        command = [*CCLENS, "index", "--json"]
        subprocess.run(
            [*command, "--claude-dir", str(root), "--db", str(db)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        print(f"indexed {root} into {db} in {time.perf_counter() - began:.0f} s")
    corpus_bytes = sum(p.stat().st_size for p in root.rglob("*.jsonl"))
    print(
        f"corpus {root} ({corpus_bytes / 1e6:.0f} MB), index {db} "
        f"({db.stat().st_size / 1e6:.0f} MB); {args.clients} clients, {args.requests} "
        f"requests per round, {args.rounds} rounds"
    )
    deadline = time.monotonic() + args.time_limit
    server, base = _start_server(root, db)
    try:
        with httpx.Client(base_url=base, timeout=120) as client:
            _wait_ready(client, 600)
            rng = random.Random(args.seed)
            warm = _mix(client, rng, 20)
            for _, path in warm:  # compile templates, open the index once: not the load
                client.get(path)
        start_rss = _rss_mb(server.pid)
        print(f"server pid {server.pid}: RSS after warm-up {start_rss:.0f} MB")
        for number in range(1, args.rounds + 1):
            if time.monotonic() >= deadline:
                print("time limit reached")
                break
            with httpx.Client(base_url=base, timeout=120) as client:
                requests = _mix(client, rng, args.requests, args.distinct_searches)
            before = _rss_mb(server.pid)
            with Sampler(server.pid) as sampler:
                outcome = asyncio.run(_load(base, requests, args.clients, deadline))
            print(f"round {number}:")
            _report(outcome, server.pid, db, before, max(sampler.peak, before))
        end_rss = _rss_mb(server.pid)
        growth = end_rss - start_rss
        print(
            f"server RSS over the whole run: {start_rss:.0f} -> {end_rss:.0f} MB ({growth:+.0f} MB)"
        )
        print(json.dumps({"rss_start_mb": round(start_rss), "rss_end_mb": round(end_rss)}))
    finally:
        server.terminate()
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    main()
