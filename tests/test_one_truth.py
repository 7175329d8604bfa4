"""One truth: every figure of the shared corpus is the same through every surface.

The figures (sessions, prompts, responses, tool calls per tool and status, failures, tokens by
kind, cost) are read back from what each surface hands a user — ``cclens check --json``,
``stats --json``, ``tools --json``, the JSON API of a real server, the data attributes of its
HTML pages, the Parquet dataset read with DuckDB, and the spans a real OTLP/HTTP receiver got —
and compared with the definitions (:mod:`cclens.figures.figures`), and so with each other.
The index's own answers too: ``stats`` from the index (every grouping, 5-hour blocks
included), ``/api/blocks``, the status line and the MCP tools' usage and session figures.
Per session too, wherever a surface has sessions: the index's lists and pages, the dataset,
``cclens show`` in the terminal, the Markdown, HTML and JSON exports and the index page of
``export --all``.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import quote

import duckdb
import httpx
import pytest
from click.testing import CliRunner

from cclens.cli.main import main
from cclens.figures.figures import Figures, figures_by_session, tally, total_figures
from cclens.figures.inventory import call_facts, calls_usage
from cclens.index import Index
from cclens.mcp.tools import Tools
from cclens.readers.claude import Session, discover, load
from cclens.reports.live import status_figures
from cclens.web.server import RunningServer, start
from cclens.web.settings import Settings

from .otlp import attributes, otlp_receiver

pytestmark = pytest.mark.slow

KINDS = ("input", "output", "cache_write_5m", "cache_write_1h", "cache_read")
STATUS_COUNTS = ("calls", "failed", "rejected", "interrupted", "pending")


@dataclass
class Seen:
    """The figures one surface gives (``None``: the surface does not show that one)."""

    sessions: int | None = None
    prompts: int | None = None
    responses: int | None = None
    #: Per tool: calls, failed, rejected, interrupted, pending.
    tools: dict[str, dict[str, int]] | None = None
    #: Calls by status over every tool.
    statuses: dict[str, int] | None = None
    tokens: dict[str, int] | None = None
    cost: float | None = None
    #: Per session (by transcript path): prompts, responses, calls, failed and tokens.
    by_session: dict[str, dict[str, int]] = field(default_factory=dict)


def _session_figures(figures: Figures) -> dict[str, int]:
    tokens = figures.tokens
    return {
        "prompts": figures.prompts,
        "responses": figures.responses,
        "calls": figures.tool_calls.calls,
        "failed": figures.tool_calls.failed,
        **{kind: getattr(tokens, kind) for kind in KINDS},
    }


def _tool_row(
    calls: int, failed: int, rejected: int, interrupted: int, pending: int
) -> dict[str, int]:
    return dict(zip(STATUS_COUNTS, (calls, failed, rejected, interrupted, pending), strict=True))


def _tool_rows(rows: Any) -> dict[str, dict[str, int]]:
    """The status counts of each tool called, from a ``by tool`` report's rows."""
    return {
        row["key"]: _tool_row(
            row["tool"]["calls"],
            row["tool"]["errors"],
            row["tool"]["rejected"],
            row["tool"]["interrupted"],
            row["tool"]["unpaired"],
        )
        for row in rows
        if row["tool"] is not None and row["tool"]["calls"]
    }


# The definitions -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sessions(corpus: Path) -> list[Session]:
    return [load(file) for file in discover(corpus).sessions]


@pytest.fixture(scope="module")
def truth(sessions: list[Session]) -> Seen:
    counted = tally(sessions)
    total = total_figures(counted)
    tools = {
        name: _tool_row(row.calls, row.errors, row.rejected, row.interrupted, row.unpaired)
        for name, row in calls_usage(call_facts(sessions)).items()
    }
    assert total.cost is not None
    return Seen(
        sessions=total.sessions,
        prompts=total.prompts,
        responses=total.responses,
        tools=tools,
        statuses=total.tool_calls.as_dict(),
        tokens={kind: getattr(total.tokens, kind) for kind in KINDS},
        cost=total.cost,
        by_session={
            str(path): _session_figures(figures)
            for path, figures in figures_by_session(counted).items()
        },
    )


def test_the_corpus_has_what_the_figures_are_about(truth: Seen) -> None:
    # Orphan subagent transcripts, resumed copies and every status are in there: the
    # comparisons below are not about empty sets.
    assert truth.sessions == 109
    assert truth.statuses is not None and all(truth.statuses[s] > 0 for s in truth.statuses)
    assert truth.tokens is not None and truth.tokens["cache_write_1h"] > 0
    assert truth.prompts and truth.responses and truth.cost


def assert_same(seen: Seen, truth: Seen, surface: str) -> None:
    """Every figure ``seen`` shows equals the definition's."""
    for name in ("sessions", "prompts", "responses", "tools", "statuses", "tokens"):
        value = getattr(seen, name)
        if value is not None:
            assert value == getattr(truth, name), f"{surface}: {name}"
    if seen.cost is not None:
        assert seen.cost == pytest.approx(truth.cost, rel=1e-9), f"{surface}: cost"
    for path, figures in seen.by_session.items():
        assert figures == {k: truth.by_session[path][k] for k in figures}, f"{surface}: {path}"


def _statuses(tools: Mapping[str, Mapping[str, int]], ok: int) -> dict[str, int]:
    total = Counter[str]()
    for row in tools.values():
        total.update(row)
    error = total["failed"] - total["rejected"] - total["interrupted"]
    return {
        "calls": total["calls"],
        "ok": ok,
        "error": error,
        "rejected": total["rejected"],
        "interrupted": total["interrupted"],
        "pending": total["pending"],
        "failed": total["failed"],
    }


# The commands ----------------------------------------------------------------------------


def _json(*args: str) -> Any:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_check(corpus: Path, truth: Seen) -> None:
    report = _json("check", "--json", str(corpus))
    tools = {
        name: _tool_row(t["calls"], t["errors"], t["rejected"], t["interrupted"], t["unpaired"])
        for name, t in report["tools"].items()
    }
    assert report["subagents"]["orphans"] == 5
    assert_same(Seen(sessions=report["sessions"], tools=tools), truth, "check --json")


def test_stats(corpus: Path, truth: Seen) -> None:
    report = _json("stats", "--json", "--claude-dir", str(corpus))
    by_tool = _json("stats", "--json", "--by", "tool", "--claude-dir", str(corpus))
    assert report["total"]["responses"] == report["responses"]
    assert_same(_stats_seen(report, by_tool), truth, "stats --json")


def test_tools(corpus: Path, truth: Seen) -> None:
    rows = _json("tools", "--json", str(corpus))
    tools = {
        r["name"]: _tool_row(
            r["calls"], r["errors"], r["rejected"], r["interrupted"], r["unpaired"]
        )
        for r in rows
    }
    assert_same(Seen(tools=tools), truth, "tools --json")


# The web app: its JSON API and the data attributes of its pages --------------------------


@pytest.fixture(scope="module")
def server(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    db = tmp_path_factory.mktemp("truth") / "index.db"
    running = start(Settings(db_path=db, claude_dirs=[corpus], port=0, watch=False))
    try:
        assert running.app.state.cclens.indexer.ready.wait(120)
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def client(server: RunningServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=120) as opened:
        yield opened


def _api_tokens(tokens: Mapping[str, int]) -> dict[str, int]:
    return {kind: tokens[kind] for kind in KINDS}


def test_the_json_api(client: httpx.Client, truth: Seen) -> None:
    stats = client.get("/api/stats").json()
    tools = _tool_rows(stats["tools"])
    seen = Seen(
        sessions=stats["sessions"],
        prompts=stats["prompts"],
        responses=stats["responses"],
        tools=tools,
        statuses=stats["tool_calls"],
        tokens={kind: stats["total"]["tokens"][kind] for kind in KINDS},
        cost=stats["total"]["cost"],
    )
    assert_same(seen, truth, "/api/stats")

    projects = client.get("/api/projects").json()
    by_session: dict[str, dict[str, int]] = {}
    for project in projects:
        listed = client.get(f"/api/projects/{quote(project['id'], safe='')}/sessions").json()
        for session in listed["sessions"]:
            by_session[session["path"]] = {
                "prompts": session["prompts"],
                "responses": session["responses"],
                "calls": session["tool_calls"],
                "failed": session["errors"],
                **_api_tokens(session["tokens"]),
            }
        assert {
            "sessions": project["sessions"],
            "prompts": project["prompts"],
            "responses": project["responses"],
            "calls": project["tool_calls"],
            "failed": project["failed_tool_calls"],
            **_api_tokens(project["tokens"]),
        } == {
            "sessions": len(listed["sessions"]),
            **{
                name: sum(by_session[s["path"]][name] for s in listed["sessions"])
                for name in ("prompts", "responses", "calls", "failed", *KINDS)
            },
        }, project["id"]
    assert sorted(by_session) == sorted(truth.by_session)
    totals = {
        name: sum(figures[name] for figures in by_session.values())
        for name in ("prompts", "responses", "calls", "failed", *KINDS)
    }
    seen = Seen(
        sessions=len(by_session),
        prompts=totals["prompts"],
        responses=totals["responses"],
        tokens={kind: totals[kind] for kind in KINDS},
        by_session=by_session,
    )
    assert totals["calls"] == sum(row["calls"] for row in (truth.tools or {}).values())
    assert_same(seen, truth, "/api/projects")


# The index: stats, 5-hour blocks, the status line and the MCP tools ---------------------


@pytest.fixture(scope="module")
def index_db(server: RunningServer) -> Path:
    """The index the server built from the corpus."""
    path = server.app.state.cclens.index.path
    assert isinstance(path, Path)
    return path


def _stats_seen(report: Mapping[str, Any], by_tool: Mapping[str, Any]) -> Seen:
    tools = _tool_rows(by_tool["rows"])
    total = report["total"]
    return Seen(
        sessions=report["sessions_read"],
        prompts=report["prompts"],
        responses=report["responses"],
        tools=tools,
        statuses=report["tool_calls"],
        tokens={kind: total["tokens"][kind] for kind in KINDS},
        cost=total["cost"],
    )


def _summed(rows: list[Mapping[str, Any]]) -> Seen:
    """Rows of a grouping added up (each response is in exactly one row)."""
    return Seen(
        responses=sum(row["responses"] for row in rows),
        tokens={kind: sum(row["tokens"][kind] for row in rows) for kind in KINDS},
        cost=sum(row["cost"] or 0.0 for row in rows),
    )


def test_stats_from_the_index(index_db: Path, truth: Seen) -> None:
    def stats(*args: str) -> Any:
        report = _json("stats", "--json", "--no-update", "--db", str(index_db), *args)
        assert report["source"] == "index"
        return report

    report = stats()
    assert_same(_stats_seen(report, stats("--by", "tool")), truth, "stats --json (index)")
    for by in ("session", "model", "day"):
        assert_same(_summed(stats("--by", by)["rows"]), truth, f"stats --by {by} (index)")
    # Blocks hold every response that has a time: the days' but the "unknown" one.
    blocks = [row for row in stats("--by", "block")["rows"] if not row["block"]["gap"]]
    timed = [row for row in stats("--by", "day")["rows"] if row["key"] != "unknown"]
    assert len(timed) < len(stats("--by", "day")["rows"])  # the corpus has untimed responses
    found, expected = _summed(blocks), _summed(timed)
    assert (found.responses, found.tokens) == (expected.responses, expected.tokens)
    assert found.cost == pytest.approx(expected.cost, rel=1e-9)
    # A row per session that counts a response.
    counting = [path for path, figures in truth.by_session.items() if figures["responses"]]
    assert len(stats("--by", "session")["rows"]) == len(counting)


def test_the_block_panel(client: httpx.Client, index_db: Path) -> None:
    # /api/blocks as it stood a minute after the corpus's last response: its active block is
    # the last block `stats --by block` gives, to the token.
    blocks = _json("stats", "--json", "--by", "block", "--no-update", "--db", str(index_db))
    last = blocks["rows"][-1]
    moment = datetime.fromisoformat(last["block"]["last"]) + timedelta(minutes=1)
    panel = client.get("/api/blocks", params={"at": moment.isoformat()}).json()
    active = panel["active"]
    assert active["key"] == last["key"] and active["block"]["active"]
    assert active["tokens"] == last["tokens"] and active["responses"] == last["responses"]
    assert active["cost"] == pytest.approx(last["cost"], rel=1e-9)
    bad = client.get("/api/blocks", params={"at": "soon"})
    assert bad.status_code == 400 and bad.json()["error"].startswith("at:")


def test_the_status_line(index_db: Path, truth: Seen) -> None:
    # Each session's status line gives the figures the session counts.
    with Index(index_db) as index:
        listed = list(index.sessions())
    assert len(listed) == truth.sessions
    for summary in listed:
        figures = status_figures(index_db, Path(summary.path))
        expected = truth.by_session[summary.path]
        assert figures.session_responses == expected["responses"], summary.path
        assert figures.session_tokens == sum(expected[kind] for kind in KINDS), summary.path
        assert figures.session_cost == (
            pytest.approx(summary.cost, rel=1e-9) if summary.cost is not None else None
        )


def test_the_mcp_tools(index_db: Path, truth: Seen) -> None:
    with Index(index_db) as index:
        tools = Tools(index)
        by_tool = tools.usage(by="tool", limit=100)
        usage = tools.usage(by="model")
        assert usage["prompts"] == truth.prompts
        total = usage["total"]
        seen = Seen(
            prompts=usage["prompts"],
            responses=usage["responses"],
            statuses=usage["tool_calls"],
            tokens={kind: total["tokens"][kind] for kind in KINDS},
            cost=total["cost"],
            # The MCP answer leaves out what is empty: a row of no tool has no "tool".
            tools=_tool_rows([row for row in by_tool["rows"] if "tool" in row]),
        )
        assert_same(seen, truth, "MCP usage_summary")
        by_session: dict[str, dict[str, int]] = {}
        for summary in index.sessions():
            overview = tools.session_overview(summary.key)
            by_session[overview["path"]] = {
                "prompts": overview["prompts"],
                "responses": overview["responses"],
                "calls": overview["tool_calls"],
                "failed": overview["errors"],
                **_api_tokens(overview["tokens"]),
            }
        assert sorted(by_session) == sorted(truth.by_session)
        assert_same(Seen(by_session=by_session), truth, "MCP get_session")


class _Attributes(HTMLParser):
    """The ``data-*`` attributes of the elements a test looks for."""

    def __init__(self, wanted: str) -> None:
        super().__init__()
        self.wanted = wanted
        self.found: list[dict[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if self.wanted in values or f"{tag}.{values.get('class', '')}" == self.wanted:
            self.found.append(values)


def _elements(html: str, wanted: str) -> list[dict[str, str]]:
    parser = _Attributes(wanted)
    parser.feed(html)
    return parser.found


def _data_figures(values: Mapping[str, str]) -> dict[str, int]:
    return {
        "prompts": int(values["data-prompts"]),
        "responses": int(values["data-responses"]),
        "calls": int(values["data-tool-calls"]),
        "failed": int(values["data-failed"]),
        **{kind: int(values["data-tokens-" + kind.replace("_", "-")]) for kind in KINDS},
    }


def test_the_pages(client: httpx.Client, truth: Seen) -> None:
    # The project list (the home page leads with the sessions).
    home = client.get("/projects").text
    rows = _elements(home, "data-project")
    assert rows
    sums = Counter[str]()
    for row in rows:
        sums.update(_data_figures(row))
        sums["sessions"] += int(row["data-sessions"])
    (listing,) = _elements(home, "table.listing projects-table")
    assert int(listing["data-sessions"]) == sums["sessions"]
    assert_same(
        Seen(
            sessions=sums["sessions"],
            prompts=sums["prompts"],
            responses=sums["responses"],
            tokens={kind: sums[kind] for kind in KINDS},
        ),
        truth,
        "/projects (data attributes)",
    )

    dashboard = client.get("/stats").text
    (cards,) = _elements(dashboard, "section.cards")
    # Some responses of the corpus have no price: the dashboard says its dollars are partial.
    unpriced = client.get("/api/stats").json()["total"]["unpriced_responses"]
    (partial,) = _elements(dashboard, "data-unpriced")
    assert unpriced > 0 and int(partial["data-unpriced"]) == unpriced
    assert "Dollar totals are partial" in dashboard
    tools = {
        row["data-tool"]: _tool_row(
            int(row["data-calls"]),
            int(row["data-failed"]),
            int(row["data-rejected"]),
            int(row["data-interrupted"]),
            int(row["data-pending"]),
        )
        for row in _elements(dashboard, "data-tool")
        if "data-calls" in row and int(row["data-calls"])
    }
    figures = _data_figures(cards)
    assert_same(
        Seen(
            sessions=int(cards["data-sessions"]),
            prompts=figures["prompts"],
            responses=figures["responses"],
            tools=tools,
            tokens={kind: figures[kind] for kind in KINDS},
            cost=float(cards["data-cost"]),
        ),
        truth,
        "/stats (data attributes)",
    )
    assert figures["calls"] == (truth.statuses or {})["calls"]
    assert figures["failed"] == (truth.statuses or {})["failed"]

    # Each project's page lists its sessions with their figures; each session's page has them
    # on its header.
    listed: dict[str, dict[str, int]] = {}
    headers: dict[str, dict[str, int]] = {}
    for project in client.get("/api/projects").json():
        page = client.get(f"/projects/{quote(project['id'], safe='')}").text
        for row in _elements(page, "data-session"):
            listed[row["data-session"]] = _data_figures(row)
        for session in client.get(f"/api/projects/{quote(project['id'], safe='')}/sessions").json()[
            "sessions"
        ]:
            html = client.get(session["url"]).text
            (header,) = _elements(html, "header.session-head")
            headers[session["path"]] = _data_figures(header)
            assert listed[session["id"]] == headers[session["path"]], session["id"]
            assert ("data-orphan" in header) == session["orphan"], session["id"]
    assert len(headers) == len(listed) == truth.sessions
    assert_same(Seen(by_session=headers), truth, "session pages (data attributes)")

    # The permissions pages audit every call once, as `/` and stats count them, project by
    # project.
    permissions = client.get("/api/permissions").json()
    audited = {project["project"]: project["calls"] for project in permissions["projects"]}
    listed_calls = {
        project["id"]: project["tool_calls"]
        for project in client.get("/api/projects").json()
        if project["tool_calls"]
    }
    assert audited == listed_calls
    assert sum(audited.values()) == (truth.statuses or {})["calls"]


# One session at a time: the terminal, the exports and the export's index page ------------

_ACTIVITY = re.compile(
    r"([\d,]+) prompts?, ([\d,]+) responses?, ([\d,]+) tool calls? \(([\d,]+) failed\)"
)


def _activity(text: str) -> dict[str, int]:
    """The counts of a header's Activity line (the terminal and Markdown draw it)."""
    found = _ACTIVITY.search(" ".join(line.strip("│ ") for line in text.splitlines()))
    assert found is not None, text[:1500]
    prompts, responses, calls, failed = (int(group.replace(",", "")) for group in found.groups())
    return {"prompts": prompts, "responses": responses, "calls": calls, "failed": failed}


def _output(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def test_show_and_the_exports(index_db: Path, truth: Seen) -> None:
    index = ("--db", str(index_db), "--no-update")
    terminal: dict[str, dict[str, int]] = {}
    markdown: dict[str, dict[str, int]] = {}
    pages: dict[str, dict[str, int]] = {}
    documents: dict[str, dict[str, int]] = {}
    for path in truth.by_session:
        terminal[path] = _activity(_output("show", path, "--no-pager", *index))
        markdown[path] = _activity(_output("export", path, "-f", "md", "-o", "-", *index))
        (header,) = _elements(_output("export", path, "-o", "-", *index), "header.session-head")
        pages[path] = _data_figures(header)
        figures = json.loads(_output("export", path, "-f", "json", "-o", "-", *index))["counts"]
        documents[path] = {
            "prompts": figures["figures"]["prompts"],
            "responses": figures["figures"]["responses"],
            "calls": figures["figures"]["tool_calls"]["calls"],
            "failed": figures["figures"]["tool_calls"]["failed"],
            **{kind: figures["figures"]["tokens"][kind] for kind in KINDS},
        }
    assert_same(Seen(by_session=terminal), truth, "cclens show")
    assert_same(Seen(by_session=markdown), truth, "export -f md")
    assert_same(Seen(by_session=pages), truth, "export (HTML data attributes)")
    assert_same(Seen(by_session=documents), truth, "export -f json")


def test_the_export_index(corpus: Path, index_db: Path, tmp_path: Path, truth: Seen) -> None:
    out = tmp_path / "site"
    _output("export", "--all", str(corpus), "-o", str(out), "--db", str(index_db), "--no-update")
    rows = _elements((out / "index.html").read_text(encoding="utf-8"), "data-path")
    by_session = {
        row["data-path"]: {
            "prompts": int(row["data-prompts"]),
            "responses": int(row["data-responses"]),
            "calls": int(row["data-tool-calls"]),
            "failed": int(row["data-failed"]),
        }
        for row in rows
    }
    assert sorted(by_session) == sorted(truth.by_session)
    assert_same(Seen(by_session=by_session), truth, "export --all (index page)")
    with Index(index_db) as index:
        titles = {summary.path: summary.title for summary in index.sessions()}
    assert {row["data-path"]: row["data-title"] for row in rows} == titles


# The dataset, read with DuckDB -----------------------------------------------------------


def test_the_dataset(corpus: Path, tmp_path: Path, truth: Seen) -> None:
    root = tmp_path / "dataset"
    report = _json("dataset", str(root), "--claude-dir", str(corpus), "--no-redact", "--json")
    assert report["sessions"] == truth.sessions

    def scan(table: str) -> str:
        return f"read_parquet('{root}/{table}/**/*.parquet', hive_partitioning=true)"

    def rows(sql: str) -> list[tuple[Any, ...]]:
        return duckdb.connect().execute(sql).fetchall()

    def one(sql: str) -> tuple[Any, ...]:
        (found,) = rows(sql)
        return found

    sessions, prompts, orphans = one(
        f"select count(*), sum(prompts), count(*) filter (where orphan) from {scan('sessions')}"
    )
    responses, cost, *tokens = one(
        f"select count(*), sum(cost_usd), sum(input_tokens), sum(output_tokens), "
        f"sum(cache_write_5m_tokens), sum(cache_write_1h_tokens), "
        f"sum(cache_read_input_tokens) from {scan('usage')}"
    )
    tools = {
        name: _tool_row(calls, failed, rejected, interrupted, pending)
        for name, calls, failed, rejected, interrupted, pending in rows(
            f"select name, count(*), count(*) filter (where is_error), "
            f"count(*) filter (where status = 'rejected'), "
            f"count(*) filter (where status = 'interrupted'), "
            f"count(*) filter (where status = 'pending') from {scan('tool_calls')} group by 1"
        )
    }
    (ok,) = one(f"select count(*) filter (where status = 'ok') from {scan('tool_calls')}")
    by_session = {
        path: {
            "prompts": p,
            "responses": r,
            "calls": c,
            "failed": f,
            "input": i,
            "output": o,
            "cache_read": cr,
        }
        for path, p, r, c, f, i, o, cr in rows(
            f"select path, prompts, responses, tool_calls, tool_errors, input_tokens, "
            f"output_tokens, cache_read_input_tokens from {scan('sessions')}"
        )
    }
    assert orphans == 5
    assert_same(
        Seen(
            sessions=sessions,
            prompts=prompts,
            responses=responses,
            tools=tools,
            statuses=_statuses(tools, ok),
            tokens=dict(zip(KINDS, (int(t) for t in tokens), strict=True)),
            cost=cost,
            by_session=by_session,
        ),
        truth,
        "dataset (DuckDB)",
    )


# The traces, as an OTLP/HTTP receiver got them -------------------------------------------


def test_the_traces(corpus: Path, truth: Seen) -> None:
    with otlp_receiver() as receiver:
        report = _json(
            "otel",
            "--endpoint",
            receiver.url,
            "--claude-dir",
            str(corpus),
            "--no-content",
            "--json",
        )
    assert report["failed"] == [] and report["sessions"] == truth.sessions
    spans = [(span, attributes(span.attributes)) for span in receiver.spans()]
    sessions = sum(1 for span, _ in spans if not span.parent_span_id)
    prompts = sum(1 for _, found in spans if found.get("cclens.turn.counts_prompt"))
    tokens = Counter[str]()
    cost = 0.0
    responses = 0
    tools: dict[str, Counter[str]] = {}
    ok = 0
    for _, found in spans:
        operation = found.get("gen_ai.operation.name")
        if operation == "chat" and "gen_ai.usage.output_tokens" in found:
            responses += 1
            read = found["gen_ai.usage.cache_read.input_tokens"]
            written = found["gen_ai.usage.cache_creation.input_tokens"]
            tokens["input"] += found["gen_ai.usage.input_tokens"] - read - written
            tokens["output"] += found["gen_ai.usage.output_tokens"]
            tokens["cache_write_5m"] += found["cclens.usage.cache_creation_5m.input_tokens"]
            tokens["cache_write_1h"] += found["cclens.usage.cache_creation_1h.input_tokens"]
            tokens["cache_read"] += read
            cost += found.get("cclens.usage.cost_usd", 0.0)
        elif operation == "execute_tool" and not found.get(
            "cclens.tool.counted_in_another_session"
        ):
            status = found["cclens.tool.status"]
            row = tools.setdefault(found["gen_ai.tool.name"], Counter())
            row["calls"] += 1
            row["failed"] += status in ("error", "rejected", "interrupted")
            row[status] += 1
            ok += status == "ok"
    tool_rows = {
        name: _tool_row(r["calls"], r["failed"], r["rejected"], r["interrupted"], r["pending"])
        for name, r in tools.items()
    }
    assert_same(
        Seen(
            sessions=sessions,
            prompts=prompts,
            responses=responses,
            tools=tool_rows,
            statuses=_statuses(tool_rows, ok),
            tokens={kind: tokens[kind] for kind in KINDS},
            cost=cost,
        ),
        truth,
        "OTLP spans",
    )
