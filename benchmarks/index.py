"""Index, search and serve a corpus of at least 1 GB; print medians and how they compare to aims.

Usage: ``python benchmarks/index.py [--size-gb 1.0] [--work DIR] [--corpus PATH]``

The corpus is built by replicating every session of the shared corpus (default
``../shared/corpus``) with fresh ids: each replica goes into its own project folder and every
uuid, ``msg_``/``req_``/``toolu_`` id inside is replaced, consistently across a session and its
subagent files, by a new one. ``--work DIR`` keeps the built corpus there and reuses it.

Printed: cold index throughput (MB/s, two worker processes) and the CPU time it took in the
main process and in the workers (with the load average: the machine may be busy with other
work, which slows the run down), a no-op re-index, the delay for an appended line to become
searchable (through ``Index.update``, and end to end through the web app's file watcher),
search latency p50/p95 over a set of queries, the server time of the largest session pages,
and the peak memory of the indexing process (children included).
Aims on 2 cores: >= 100 MB/s, < 0.5 s, search p95 < 50 ms, page < 200 ms, < 500 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from cclens.index import Index, SearchFilters
from cclens.readers.claude import discover

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
_IDS = re.compile(
    rb"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
    rb"|(?:msg|req|toolu)_[0-9A-Za-z]{8,}"
)
_NAMESPACE = uuid.UUID("6f1c1f3e-3c55-4b59-9a8e-2d6b1c3d9e10")
_MARKER = "corpus.json"

QUERIES: list[tuple[str, SearchFilters | None]] = [
    ("error", None),
    ("test", None),
    ("sidechain", None),
    ("worktree", None),
    ('"command not found"', None),
    ('"exit code"', None),
    ("compar*", None),
    ("refactor*", None),
    ("python pytest", None),
    ("git commit -amend", None),
    ("permission OR denied", None),
    ("timeline", SearchFilters(kinds=("assistant",))),
    ("install", SearchFilters(tool="Bash")),
    ("file", SearchFilters(errors_only=True)),
    ("component", SearchFilters(kinds=("tool_input",))),
    ("thinking", SearchFilters(kinds=("thinking",))),
    ("README", None),
    ("todo", SearchFilters(since=datetime(2025, 7, 1, tzinfo=UTC))),
    ("claude", SearchFilters(project="experiments")),
    ("quantum zeppelin", None),
]


def _fresh(replica: int) -> Callable[[re.Match[bytes]], bytes]:
    mapping: dict[bytes, bytes] = {}

    def replace(match: re.Match[bytes]) -> bytes:
        old = match.group(0)
        new = mapping.get(old)
        if new is None:
            made = uuid.uuid5(_NAMESPACE, f"{replica}:{old.decode()}")
            if old[3:4] == b"_" or old[4:5] == b"_" or old[5:6] == b"_":
                prefix = old.split(b"_", 1)[0]
                new = prefix + b"_" + made.hex[:24].encode()
            else:
                new = str(made).encode()
            mapping[old] = new
        return new

    return replace


def build_corpus(corpus: Path, target: Path, size: int) -> tuple[int, int]:
    """Replicate ``corpus`` into ``target/projects`` until it holds ``size`` bytes."""
    found = discover(corpus)
    groups: list[tuple[Path, list[Path]]] = []
    for session in found.sessions:
        files = [session.path, *(a.path for a in session.subagents), *session.journals]
        groups.append((session.path.parent, files))
    for orphan in found.orphans:
        groups.append((orphan.path.parent, [orphan.path]))
    one = sum(path.stat().st_size for _, files in groups for path in files)
    replicas = -(-size // one)
    written = count = 0
    for replica in range(replicas):
        for folder, files in groups:
            slug = "-".join(folder.relative_to(corpus).parts)
            destination = target / "projects" / f"-{slug}-r{replica:03d}"
            replace = _fresh(replica)
            for path in files:
                relative = path.relative_to(folder)
                name = _IDS.sub(replace, str(relative).encode()).decode()
                if name == str(relative) and relative.parent == Path("."):
                    name = f"{path.stem}-r{replica:03d}{path.suffix}"
                out = destination / name
                out.parent.mkdir(parents=True, exist_ok=True)
                data = _IDS.sub(replace, path.read_bytes())
                out.write_bytes(data)
                written += len(data)
                count += 1
    (target / _MARKER).write_text(json.dumps({"bytes": written, "files": count}))
    return written, count


def _median(values: list[float]) -> float:
    return statistics.median(values)


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def child_index(root: Path, db: Path) -> None:
    """Run the cold index in this (child) process and report as JSON on stdout."""
    started = time.perf_counter()
    with Index(db) as index:
        report = index.update([root], workers=2)
    seconds = time.perf_counter() - started
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    cpu = os.times()
    json.dump(
        {
            "seconds": seconds,
            "bytes": report.bytes_read,
            "files": report.files_read,
            "sessions": len(report.added),
            "maxrss_kb": own,
            "children_maxrss_kb": children,
            "cpu_main": cpu.user + cpu.system,
            "cpu_workers": cpu.children_user + cpu.children_system,
        },
        sys.stdout,
    )


def _append_line(path: Path, word: str) -> None:
    record = {
        "type": "user",
        "uuid": str(uuid.uuid4()),
        "parentUuid": None,
        "sessionId": path.stem,
        "timestamp": datetime.now(UTC).isoformat().replace("+00:00", "Z"),
        "message": {"role": "user", "content": f"benchmark marker {word}"},
    }
    with path.open("ab") as handle:
        handle.write(json.dumps(record).encode() + b"\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-gb", type=float, default=1.0)
    parser.add_argument("--work", type=Path, default=None, help="keep the corpus here (reused)")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--child-index", nargs=2, type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_index:
        child_index(*args.child_index)
        return

    work = args.work or Path(tempfile.mkdtemp(prefix="cclens-bench-"))
    root = work / "claude"
    wanted = int(args.size_gb * 1e9)
    marker = root / _MARKER
    if marker.exists() and json.loads(marker.read_text())["bytes"] >= wanted:
        built = json.loads(marker.read_text())
        print(f"corpus: reusing {root} ({built['bytes'] / 1e9:.2f} GB, {built['files']} files)")
    else:
        shutil.rmtree(root, ignore_errors=True)
        began = time.perf_counter()
        size, files = build_corpus(args.corpus, root, wanted)
        print(
            f"corpus: built {size / 1e9:.2f} GB in {files:,} files "
            f"in {time.perf_counter() - began:.1f} s at {root}"
        )
    db = work / "index.db"
    for stale in work.glob("index.db*"):
        stale.unlink()
    sys.stdout.flush()

    # Cold index, in a child process so its peak memory is its own. The machine's load average
    # says how much of its two cores the run could have (other work slows it down).
    load_before = os.getloadavg()[0]
    done = subprocess.run(
        [sys.executable, __file__, "--child-index", str(root), str(db)],
        check=True,
        capture_output=True,
        text=True,
    )
    cold = json.loads(done.stdout)
    throughput = cold["bytes"] / 1e6 / cold["seconds"]
    peak_mb = max(cold["maxrss_kb"], cold["children_maxrss_kb"]) / 1024
    print(
        f"cold index:        {cold['seconds']:8.1f} s  {throughput:8.1f} MB/s   "
        f"({cold['bytes'] / 1e9:.2f} GB, {cold['files']:,} files, {cold['sessions']:,} sessions; "
        f"aim >= 100 MB/s, ratio {throughput / 100:.2f})"
    )
    print(
        f"peak memory:       {peak_mb:8.0f} MB  (main {cold['maxrss_kb'] / 1024:.0f} MB, "
        f"largest worker {cold['children_maxrss_kb'] / 1024:.0f} MB; aim < 500 MB, "
        f"ratio {peak_mb / 500:.2f})"
    )
    print(
        f"cold index cpu:    {cold['cpu_main']:8.1f} s  main process, "
        f"{cold['cpu_workers']:.1f} s in the two workers  (load average "
        f"{load_before:.1f} before, {os.getloadavg()[0]:.1f} after)"
    )
    print(f"index file:        {db.stat().st_size / 1e6:8.0f} MB")

    with Index(db) as index:
        noop = []
        for _ in range(5):
            began = time.perf_counter()
            report = index.update([root])
            noop.append(time.perf_counter() - began)
            assert report.files_read == 0
        print(
            f"no-op re-index:    {_median(noop) * 1000:8.0f} ms  (median of 5; aim < 500 ms, "
            f"ratio {_median(noop) / 0.5:.2f})"
        )

        transcripts = [p for p in root.rglob("*.jsonl") if not p.name.startswith("agent-")]
        largest = max(transcripts, key=lambda p: p.stat().st_size)
        delays = []
        for attempt in range(5):
            word = f"zqxappend{attempt}"
            began = time.perf_counter()
            _append_line(largest, word)
            index.update([root])
            assert index.search(word), word
            delays.append(time.perf_counter() - began)
        print(
            f"append searchable: {_median(delays) * 1000:8.0f} ms  (median of 5, update() on a "
            f"{largest.stat().st_size / 1e6:.1f} MB session)"
        )

        # Grouped, with totals and facets, as every surface asks (benchmarks/search.py has more).
        timings: list[float] = []
        for _ in range(5):
            for text, filters in QUERIES:
                began = time.perf_counter()
                index.search_results(text, filters)
                timings.append(time.perf_counter() - began)
        p50, p95 = _percentile(timings, 0.5), _percentile(timings, 0.95)
        print(
            f"search latency:    p50 {p50 * 1000:6.1f} ms  p95 {p95 * 1000:6.1f} ms  "
            f"(max {max(timings) * 1000:.0f} ms; {len(QUERIES)} queries x 5, grouped with "
            f"totals and facets; aim p95 < 50 ms, ratio {p95 / 0.05:.2f})"
        )
        with index.connection() as connection:
            sizes = connection.execute(
                "SELECT s.key, sum(f.offset) FROM sessions s JOIN files f ON f.session = s.id "
                "GROUP BY s.id ORDER BY 2 DESC LIMIT 5"
            )
            biggest = [(str(key), int(size)) for key, size in sizes]
    sys.stdout.flush()
    measure_pages(db, root, biggest, largest)
    if args.work is None:
        shutil.rmtree(work, ignore_errors=True)
    sys.stdout.flush()


def measure_pages(db: Path, root: Path, biggest: list[tuple[str, int]], largest: Path) -> None:
    """Serve the index and time the largest pages and a line appended to a live session."""
    # Imported here: the indexing worker processes are started with "spawn", which imports this
    # script again in each of them, and the web stack is not what they should spend time on.
    import httpx

    from cclens.web import Settings, start

    settings = Settings(db_path=db, claude_dirs=[root], port=0)
    server = start(settings)
    try:
        assert server.app.state.cclens.indexer.ready.wait(120)
        with httpx.Client(base_url=server.url, timeout=60) as client:
            # The first request of a server compiles templates: not what a page costs.
            client.get(f"/sessions/{biggest[-1][0]}")
            pages = []
            for key, _ in biggest:
                began = time.perf_counter()
                response = client.get(f"/sessions/{key}")
                pages.append(time.perf_counter() - began)
                assert response.status_code == 200
            cached = []
            for _ in range(5):
                began = time.perf_counter()
                client.get(f"/sessions/{biggest[0][0]}")
                cached.append(time.perf_counter() - began)
            print(
                f"largest pages:     {pages[0] * 1000:8.0f} ms  (first view of the largest, "
                f"{biggest[0][1] / 1e6:.1f} MB with subagents; median first view of the 5 "
                f"largest {_median(pages) * 1000:.0f} ms; cached {_median(cached) * 1000:.0f} ms; "
                f"aim < 200 ms, ratio {pages[0] / 0.2:.2f})"
            )
            live = []
            for attempt in range(5):
                word = f"zqxlive{attempt}"
                began = time.perf_counter()
                _append_line(largest, word)
                while not client.get("/api/search", params={"q": word}).json()["total"]["hits"]:
                    if time.perf_counter() - began > 30:
                        raise AssertionError("the appended line never became searchable")
                    time.sleep(0.01)
                live.append(time.perf_counter() - began)
            print(
                f"append live:       {_median(live) * 1000:8.0f} ms  (median of 5: write, file "
                "watcher, update, searchable over HTTP)"
            )
    finally:
        server.stop()


if __name__ == "__main__":
    main()
