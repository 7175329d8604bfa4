"""Time the dashboard, the session timeline and the permissions pages on a corpus of >= 1 GB.

Usage: ``python benchmarks/dashboard.py [--size-gb 1.0] [--work DIR]``

The corpus is the one ``benchmarks/index.py`` builds (the shared corpus replicated with fresh
ids); ``--work DIR`` reuses the corpus and index ``benchmarks/index.py --work DIR`` left there,
and keeps what this script builds. A server is started over the index (no watching), then:
the first ``/api/stats`` (every session loaded once and reduced to its responses and tool
calls), the same again (cached), the ``/stats`` page, a new filter on the same sessions, one
project, ``/api/stats`` after a line is appended to a transcript and indexed (only that
session is loaded again), the permission audit of every project and of one, and the timeline
of the largest session. Medians of 5 where a measure repeats; peak memory of the process.
Aims on 2 cores: a page answered from the cache < 200 ms, the figures after an update < 2 s.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

import httpx

from cclens.index import Index
from cclens.web import Settings, start

# The corpus builder of benchmarks/index.py (benchmarks/ is not a package).
sys.path.insert(0, str(Path(__file__).resolve().parent))
from index import DEFAULT_CORPUS, build_corpus

_MARKER = "corpus.json"


def _timed(client: httpx.Client, path: str) -> tuple[float, httpx.Response]:
    began = time.perf_counter()
    response = client.get(path)
    seconds = time.perf_counter() - began
    assert response.status_code == 200, (path, response.status_code, response.text[:200])
    return seconds, response


def _median(client: httpx.Client, path: str, times: int = 5) -> float:
    return statistics.median(_timed(client, path)[0] for _ in range(times))


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:8.0f} ms"


def _assistant_line(session_id: str, parent: str | None) -> bytes:
    record = {
        "type": "assistant",
        "uuid": f"bench-{time.time_ns()}",
        "parentUuid": parent,
        "sessionId": session_id,
        "timestamp": datetime.now(UTC).isoformat().replace("+00:00", "Z"),
        "requestId": f"req_bench{time.time_ns()}",
        "message": {
            "id": f"msg_bench{time.time_ns()}",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5-20250929",
            "content": [{"type": "text", "text": "benchmark"}],
            "usage": {"input_tokens": 3, "output_tokens": 5},
        },
    }
    return json.dumps(record).encode() + b"\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-gb", type=float, default=1.0)
    parser.add_argument("--work", type=Path, default=None, help="reuse and keep the corpus here")
    args = parser.parse_args()

    work = args.work or Path(tempfile.mkdtemp(prefix="cclens-dashboard-bench-"))
    root = work / "claude"
    marker = root / _MARKER
    if not (marker.exists() and json.loads(marker.read_text())["bytes"] >= args.size_gb * 1e9):
        shutil.rmtree(root, ignore_errors=True)
        size, files = build_corpus(DEFAULT_CORPUS, root, int(args.size_gb * 1e9))
        print(f"corpus: built {size / 1e9:.2f} GB in {files:,} files at {root}")
    built = json.loads(marker.read_text())
    db = work / "index.db"
    began = time.perf_counter()
    with Index(db) as index:
        index.update([root], workers=2)
        sessions = index.totals().sessions
    print(
        f"corpus: {built['bytes'] / 1e9:.2f} GB, {built['files']:,} files, {sessions:,} sessions "
        f"(index brought up to date in {time.perf_counter() - began:.1f} s)"
    )
    sys.stdout.flush()

    server = start(Settings(db_path=db, claude_dirs=[root], port=0, watch=False))
    try:
        assert server.app.state.cclens.indexer.ready.wait(600)
        with httpx.Client(base_url=server.url, timeout=600) as client:
            cold, figures = _timed(client, "/api/stats")
            data = figures.json()
            print(
                f"stats, first:      {_ms(cold)}  (every session loaded and reduced once; "
                f"{data['responses']:,} responses, {data['sessions']:,} sessions)"
            )
            cached = _median(client, "/api/stats")
            print(f"stats, cached:     {_ms(cached)}  (aim < 200 ms, ratio {cached / 0.2:.2f})")
            page = _median(client, "/stats")
            print(f"/stats page:       {_ms(page)}  (aim < 200 ms, ratio {page / 0.2:.2f})")
            new_filter, _ = _timed(client, "/api/stats?by=week&since=2025-07-01")
            print(f"stats, new filter: {_ms(new_filter)}  (same sessions, grouped again)")
            project = data["projects"][len(data["projects"]) // 2]
            one, _ = _timed(client, f"/api/stats?project={quote(project)}")
            print(f"stats, 1 project:  {_ms(one)}  (first time for this selection)")

            transcripts = sorted(
                (p for p in root.rglob("*.jsonl") if not p.name.startswith("agent-")),
                key=lambda p: p.stat().st_size,
            )
            largest = transcripts[-1]
            last = json.loads(largest.read_bytes().splitlines()[-1])
            with largest.open("ab") as handle:
                handle.write(_assistant_line(last.get("sessionId", largest.stem), last.get("uuid")))
            server.app.state.cclens.indexer.update()
            updated, figures = _timed(client, "/api/stats")
            assert figures.json()["responses"] == data["responses"] + 1
            print(
                f"stats, 1 session changed: {_ms(updated)}  (one session loaded again, the "
                f"rest merged again; aim < 2 s, ratio {updated / 2:.2f})"
            )

            audit, rows = _timed(client, "/api/permissions")
            print(
                f"permissions, first:   {_ms(audit)}  ({len(rows.json()['projects']):,} "
                "projects audited)"
            )
            print(f"permissions, cached:  {_ms(_median(client, '/permissions'))}")
            slug = rows.json()["projects"][0]["project"]
            project_page = f"/projects/{quote(slug)}/permissions"
            print(f"project permissions:  {_ms(_median(client, project_page))}  (cached)")

            key = server.app.state.cclens.index.find(str(largest))[0].key
            first_timeline, _ = _timed(client, f"/api/sessions/{quote(key)}/timeline")
            print(
                f"timeline, largest session: {_ms(first_timeline)} first, "
                f"{_ms(_median(client, f'/api/sessions/{quote(key)}/timeline'))} again "
                f"({largest.stat().st_size / 1e6:.1f} MB)"
            )
    finally:
        server.stop()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory:       {peak:8.0f} MB  (this process: server, caches and client)")
    if args.work is None:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
