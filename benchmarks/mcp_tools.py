"""Time the tools of ``cclens mcp`` over stdio against a warm index of a >= 1 GB corpus.

Usage: ``python benchmarks/mcp_tools.py [--db FILE] [--runs N]``

``--db`` is an index of the 1 GB corpus (``benchmarks/statusline.py --work DIR`` builds and
keeps one in ``DIR/index.db``; default ``/work/bench-live/index.db``); it is only read. The
server is started as Claude Code starts it (``cclens mcp``, a new process speaking MCP on
stdio, here with ``--no-update``), and every call goes through the MCP SDK's own client, so
the times include the JSON-RPC round trip and the redaction of the answer.

Printed, with the load average beside them: the p50 and p95 of ``search`` over the queries of
``benchmarks/index.py`` (each run ``--runs`` times, each ranked afresh; then asked again, which
the server answers from the matches it kept), and of one call of each other tool on the
largest session of the index. Aim: search p95 < 100 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from cclens.index import Index

QUERIES: list[dict[str, Any]] = [
    {"query": "error"},
    {"query": "test"},
    {"query": "sidechain"},
    {"query": "worktree"},
    {"query": '"command not found"'},
    {"query": '"exit code"'},
    {"query": "compar*"},
    {"query": "refactor*"},
    {"query": "python pytest"},
    {"query": "permission OR denied"},
    {"query": "timeline", "kinds": ["assistant"]},
    {"query": "install", "tool": "Bash"},
    {"query": "file", "errors_only": True},
    {"query": "README"},
    {"query": "todo", "since": "2025-07-01"},
    {"query": "claude", "project": "experiments"},
    {"query": "quantum zeppelin"},
    {"query": "the"},  # the broadest: matches most texts
]


def _figures(label: str, times: list[float], aim: str = "") -> None:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    print(
        f"{label:28s} p50 {statistics.median(times) * 1000:7.1f} ms   "
        f"p95 {p95 * 1000:7.1f} ms   (n={len(times)}; load {os.getloadavg()[0]:.2f})"
        + (f"  {aim}" if aim else "")
    )


async def _timed(session: ClientSession, name: str, arguments: dict[str, Any]) -> float:
    started = time.perf_counter()
    result = await session.call_tool(name, arguments)
    elapsed = time.perf_counter() - started
    if result.is_error:
        raise SystemExit(f"{name}({arguments}) failed: {result.content}")
    return elapsed


async def run(db: Path, runs: int, largest: str) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-c", "from cclens.cli import main; main()", "mcp", "--db", str(db), "--no-update"],
        env=dict(os.environ),
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        started = time.perf_counter()
        await session.initialize()
        print(f"server start to initialize: {(time.perf_counter() - started) * 1000:8.0f} ms")
        for query in QUERIES:
            await _timed(session, "search", query)  # warm the page cache
        # Each timed search is new to the server (``OR`` a word no text holds: the same
        # matches), so that it ranks them; asked again, the server reuses what it ranked.
        search = [
            await _timed(session, "search", {**q, "query": f"{q['query']} OR zq{run}x"})
            for run in range(runs)
            for q in QUERIES
        ]
        _figures("search", search, "aim p95 < 100 ms")
        again = [await _timed(session, "search", q) for _ in range(runs) for q in QUERIES]
        _figures("search asked again", again)
        hits = await session.call_tool("search", {"query": "error", "limit": 1})
        hit = json.loads(hits.content[0].text)["groups"][0]["shown"][0]  # type: ignore[union-attr]
        others: list[tuple[str, dict[str, Any]]] = [
            ("list_sessions", {}),
            ("list_sessions", {"sort": "cost", "limit": 50}),
            ("get_session", {"session": largest}),
            ("get_messages", {"session": largest, "limit": 50}),
            ("get_messages", {"session": hit["session"], "around": hit["anchor"]}),
            ("get_tool_calls", {"session": largest, "limit": 50}),
            ("get_session_files", {"session": largest}),
            ("usage_summary", {"by": "day"}),
            ("usage_summary", {"by": "block"}),
        ]
        for name, arguments in others:
            times = [await _timed(session, name, arguments) for _ in range(max(3, runs // 2))]
            shown = ",".join(f"{k}={v}" for k, v in arguments.items() if k != "session")
            _figures(f"{name}({shown})"[:28], times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, default=Path("/work/bench-live/index.db"))
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with Index(args.db) as index, index.connection() as connection:
        row = connection.execute(
            "SELECT s.key, sum(f.size) FROM sessions s JOIN files f ON f.session = s.id "
            "GROUP BY s.id ORDER BY 2 DESC LIMIT 1"
        ).fetchone()
    print(f"largest session: {row[0]} ({row[1] / 1e6:.1f} MB)")
    anyio.run(run, args.db, args.runs, row[0])


if __name__ == "__main__":
    main()
