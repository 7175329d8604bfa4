"""The dashboard: ``/api/stats`` gives the figures ``cclens stats`` gives, and follows the index.

A real uvicorn server over a copy of the corpus, driven with httpx; the expected figures come
from :func:`cclens.reports.stats.usage_stats` (what ``cclens stats --json`` prints) over the
same folder.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import msgspec
import pytest

from cclens.figures.aggregate import PricedResponse, price_responses
from cclens.figures.inventory import calls_usage
from cclens.figures.inventory import tool_usage as analytics_tool_usage
from cclens.figures.period import Period
from cclens.figures.pricing import load_price_table
from cclens.figures.timeline import session_timeline
from cclens.figures.usage import Response, collect_responses
from cclens.index import Index
from cclens.index.read.usage_query import UsageSelection
from cclens.readers.claude import Session, discover, load_session
from cclens.render.parts import element_ids
from cclens.reports.stats import load_period, summarize, usage_stats
from cclens.web import RunningServer
from cclens.web.security import parse_policy

from .test_index import WITH_SUBAGENTS
from .test_index_layout import make_claude_dir
from .test_usage import (
    RESUMED,
    SESSION,
    assistant,
    project_dir,
    prompt,
    tool_result,
    tool_use,
    usage,
    write,
)
from .test_web import running

DEEP_MANIFEST = "-iansherr__claude-code-log-test-test_data-real_projects--src-deep-manifest"
#: A project with responses on nine days.
SAMPLE = (
    "-iansherr__claude-code-log-test-test_data-real_projects--Users-dain-workspace-"
    "claude-code-log-sample"
)


@pytest.fixture(scope="module")
def claude_dir(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_claude_dir(corpus, tmp_path_factory.mktemp("claude"))


@pytest.fixture(scope="module")
def server(claude_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running([claude_dir], tmp_path_factory.mktemp("db") / "index.db", watch=False) as started:
        yield started


@pytest.fixture(scope="module")
def client(server: RunningServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=60) as opened:
        yield opened


def plain(value: object) -> Any:
    """``value`` as the JSON the API would send."""
    return json.loads(msgspec.json.encode(value))


def reading_sessions(claude_dir: Path) -> list[Session]:
    """Every session under ``claude_dir``, oldest first (the order the dashboard reads them)."""
    loaded = load_period(discover(claude_dir), Period(), None).sessions
    return sorted(loaded, key=lambda s: (s.started is None, s.started or datetime.min, str(s.path)))


@pytest.mark.slow
@pytest.mark.parametrize("by", ["day", "week", "month"])
def test_the_figures_are_cclens_stats_figures(
    client: httpx.Client, claude_dir: Path, by: str
) -> None:
    figures = client.get("/api/stats", params={"by": by}).json()
    expected = usage_stats([claude_dir], by=by)  # type: ignore[arg-type]
    assert figures["responses"] == expected.responses > 900
    assert figures["sessions"] == expected.sessions_read
    assert figures["total"] == plain(expected.total)
    assert figures["over_time"] == plain(expected.rows)
    assert figures["activity"] == expected.activity
    assert figures["unpriced"] == plain(expected.unpriced)
    assert figures["timezone"] == expected.timezone
    assert figures["prices"] == plain(expected.prices)
    assert figures["days"] == plain(usage_stats([claude_dir], by="day").rows)
    assert figures["models"] == plain(usage_stats([claude_dir], by="model").rows)
    assert figures["filters"] == {
        "project": None,
        "since": None,
        "until": None,
        "by": by,
        "agent": None,
    }


@pytest.mark.slow
def test_the_tool_figures_are_the_analytics_figures(client: httpx.Client, claude_dir: Path) -> None:
    figures = client.get("/api/stats").json()
    expected = summarize(reading_sessions(claude_dir), by="tool")
    assert figures["tools"] == plain(expected.rows)
    bash = next(row for row in figures["tools"] if row["key"] == "Bash")
    assert bash["tool"]["calls"] > 100 and bash["tool"]["errors"] > 0
    # The calls are the calls cclens stats counts (the copy of a call met twice can differ).
    cli = {row.key: row for row in usage_stats([claude_dir], by="tool").rows}
    assert {row["key"]: row["tool"]["calls"] for row in figures["tools"] if row["tool"]} == {
        key: row.tool.calls for key, row in cli.items() if row.tool
    }


def test_project_and_dates_filter_as_cclens_stats(client: httpx.Client, claude_dir: Path) -> None:
    whole = client.get("/api/stats", params={"project": SAMPLE}).json()
    days = [row["key"] for row in whole["over_time"]]
    assert len(days) >= 4 and whole["projects"] == [SAMPLE]
    since, until = days[1], days[-2]
    params = {"project": SAMPLE, "since": since, "until": until, "by": "week"}
    figures = client.get("/api/stats", params=params).json()
    expected = usage_stats(
        [claude_dir],
        by="week",
        project=SAMPLE,
        period=Period(since=date.fromisoformat(since), until=date.fromisoformat(until)),
    )
    assert figures["total"] == plain(expected.total)
    assert figures["over_time"] == plain(expected.rows)
    assert figures["activity"] == expected.activity
    assert 0 < figures["responses"] == expected.responses < whole["responses"]
    assert figures["filters"] == {
        "project": SAMPLE,
        "since": since,
        "until": until,
        "by": "week",
        "agent": None,
    }


def test_a_project_is_found_as_search_finds_it(client: httpx.Client) -> None:
    by_part = client.get("/api/stats", params={"project": "deep-manifest"}).json()
    assert by_part["projects"] == [DEEP_MANIFEST]
    by_path = client.get("/api/stats", params={"project": "/src/deep-manifest"}).json()
    assert by_path["projects"] == [DEEP_MANIFEST]
    everything = client.get("/api/stats").json()
    assert len(everything["projects"]) > 20
    nothing = client.get("/api/stats", params={"project": "no-such-project-anywhere"}).json()
    assert nothing["projects"] == [] and nothing["responses"] == 0
    assert nothing["total"]["tokens"]["total"] == 0


@pytest.mark.parametrize(
    ("params", "named"),
    [({"since": "June"}, "since"), ({"until": "2025-13-01"}, "until"), ({"by": "year"}, "by")],
)
def test_bad_filters_are_refused_by_name(
    client: httpx.Client, params: dict[str, str], named: str
) -> None:
    response = client.get("/api/stats", params=params)
    assert response.status_code == 400
    assert response.json()["error"].startswith(named + ":")
    page = client.get("/stats", params=params)
    assert page.status_code == 400 and 'class="problem"' in page.text


def test_the_dashboard_page(client: httpx.Client, claude_dir: Path) -> None:
    page = client.get("/stats", params={"project": DEEP_MANIFEST, "by": "month"})
    assert page.status_code == 200
    html = page.text
    assert 'href="/stats"' in client.get("/").text  # linked from the navigation
    assert f'<option value="{DEEP_MANIFEST}" selected>' in html
    assert '<option value="month" selected>' in html
    assert f'data-api="/api/stats?project={quote(DEEP_MANIFEST)}&amp;by=month"' in html
    for chart in ("usage", "sessions", "tools", "activity"):
        assert f'data-chart="{chart}"' in html
    expected = usage_stats([claude_dir], by="model", project=DEEP_MANIFEST)
    for row in expected.rows:
        assert f'<tr data-model="{row.key}">' in html
    assert '<script src="/static/vendor/uPlot.iife.min.js" defer>' in html
    assert "<script>" not in html and " style=" not in html


def test_the_search_form_and_the_dashboard_share_their_filters(client: httpx.Client) -> None:
    params = {"project": DEEP_MANIFEST, "since": "2025-06-01", "until": "2025-12-31"}
    for path in ("/search", "/stats"):
        html = client.get(path, params={**params, "q": "manifest"}).text
        assert f'<option value="{DEEP_MANIFEST}" selected>' in html, path
        assert '<input type="date" name="since" value="2025-06-01">' in html, path
        assert '<input type="date" name="until" value="2025-12-31">' in html, path
    typed = client.get("/stats", params={"project": "deep-manifest"}).text
    assert '<option value="deep-manifest" selected>deep-manifest</option>' in typed


def test_the_chart_library_is_served_offline_under_the_policy(client: httpx.Client) -> None:
    script = client.get("/static/vendor/uPlot.iife.min.js")
    assert script.status_code == 200
    assert script.headers["content-type"].startswith("text/javascript")
    assert script.text.startswith("/*! https://github.com/leeoniya/uPlot (v1.6.32) */")
    assert client.get("/static/vendor/uPlot.min.css").headers["content-type"].startswith("text/css")
    assert "MIT License" in client.get("/static/vendor/uPlot.LICENSE.txt").text
    assert client.get("/static/vendor/..%2fapp.js").status_code == 404
    assert client.get("/static/vendor/nothing.js").status_code == 404
    policy = parse_policy(client.get("/stats").headers["content-security-policy"])
    assert "'unsafe-eval'" not in policy["script-src"]
    assert "'unsafe-inline'" not in policy["script-src"]
    assert "'unsafe-inline'" not in policy["style-src"]
    for path in ("/stats", f"/sessions/{WITH_SUBAGENTS}", "/permissions"):
        html = client.get(path).text
        remote = re.search(r"""<(script|link|img)\b[^>]*(src|href)=["']?(https?:)?//""", html)
        assert remote is None, path  # every script, stylesheet and image from the server


def test_the_session_timeline(client: httpx.Client, claude_dir: Path) -> None:
    answer = client.get(f"/api/sessions/{WITH_SUBAGENTS}/timeline").json()
    path = next(claude_dir.rglob(f"{WITH_SUBAGENTS}.jsonl"))
    expected = session_timeline(load_session(path))
    assert answer["timeline"] == plain(expected)
    assert answer["peak_context"] == expected.peak_context > 0
    assert answer["timeline"]["calls"] and answer["timeline"]["turns"]
    page = client.get(f"/sessions/{WITH_SUBAGENTS}").text
    assert f'data-timeline="/api/sessions/{WITH_SUBAGENTS}/timeline"' in page
    # Each call in the strip has its target: drawn, or in a folded part the page's map knows.
    anchors = [f"tool-{call.id}" for call in expected.calls]
    assert set(anchors) <= element_ids(page)
    missing = client.get("/api/sessions/no-such-session/timeline")
    assert missing.status_code == 404 and missing.json() == {"error": "no session no-such-session"}


def _key(item: PricedResponse, *, owner: bool = True) -> tuple[object, ...]:
    """What a priced response says; ``owner``: with the session (and agent) it counts for."""
    response = item.response
    found: tuple[object, ...] = (
        item.priced.cost,
        item.priced.price,
        response.message_id,
        response.request_id,
        response.model,
        response.timestamp.timestamp() if response.timestamp else None,
        response.tokens,
        tuple(response.tool_names),
    )
    return (*found, response.session_id, response.agent_id) if owner else found


def assert_merged_like_the_analytics(
    root: Path, sessions: list[Session], db: Path, *, owner: bool = True
) -> list[Response]:
    """The index's responses and calls, each counted once, are what the analytics count over
    the same transcripts (``owner``: the sessions they count for too; a subagent file whose
    session is gone is a session of its own in the index, named otherwise)."""
    table = load_price_table()
    with Index(db) as index:
        index.update([root])
        stored = index.usage_responses(UsageSelection())
        calls = index.usage_calls(UsageSelection())
    merged = price_responses(stored, table)
    expected = price_responses(collect_responses(sessions), table)
    found = sorted((_key(item, owner=owner) for item in merged), key=repr)
    assert found == sorted((_key(item, owner=owner) for item in expected), key=repr)
    ordered = reading_sessions_of(sessions)
    assert plain(calls_usage(calls)) == plain(analytics_tool_usage(ordered))
    return [item.response for item in merged]


def reading_sessions_of(sessions: list[Session]) -> list[Session]:
    return sorted(
        sessions, key=lambda s: (s.started is None, s.started or datetime.min, str(s.path))
    )


@pytest.mark.slow
def test_the_index_counts_as_the_analytics_count_on_the_corpus(
    corpus: Path, tmp_path: Path
) -> None:
    sessions = load_period(discover(corpus), Period(), None).sessions
    per_session = sum(len(collect_responses([session])) for session in sessions)
    merged = assert_merged_like_the_analytics(corpus, sessions, tmp_path / "index.db", owner=False)
    assert per_session > len(merged)  # some responses were recorded by two sessions


def test_a_resumed_copy_with_a_later_snapshot_counts_once(tmp_path: Path) -> None:
    folder = project_dir(tmp_path)
    original = [
        prompt("u0", "first", time="2025-06-01T09:00:00.000Z"),
        assistant(
            "a1",
            "msg_1",
            usage(input=5, output=7),
            parent="u0",
            time="2025-06-01T09:00:05.000Z",
            content=[tool_use("toolu_1", "Bash", {"command": "ls"})],
        ),
    ]
    resumed = [
        {**original[0], "sessionId": RESUMED},
        # The copy holds the final snapshot of the same response, and the call's result.
        {
            **assistant(
                "a1",
                "msg_1",
                usage(input=5, output=70),
                parent="u0",
                session=RESUMED,
                time="2025-06-01T09:00:06.000Z",
                content=[tool_use("toolu_1", "Bash", {"command": "ls"})],
            )
        },
        tool_result(
            "r1", "toolu_1", "file", parent="a1", session=RESUMED, time="2025-06-01T09:00:09.000Z"
        ),
        assistant("x1", None, usage(output=3), request_id=None, session=RESUMED, parent="r1"),
        assistant("x1", None, usage(output=4), request_id=None, session=RESUMED, parent="r1"),
    ]
    sessions = [
        load_session(write(folder / f"{SESSION}.jsonl", original)),
        load_session(write(folder / f"{RESUMED}.jsonl", resumed)),
    ]
    merged = assert_merged_like_the_analytics(tmp_path, sessions, tmp_path / "index.db")
    first = next(r for r in merged if r.message_id == "msg_1")
    assert first.session_id == SESSION and first.tokens.output == 70
    assert [r.tokens.output for r in merged if r.message_id is None] == [4]


def _assistant_line(path: Path, message_id: str, output: int) -> bytes:
    last = json.loads(path.read_bytes().splitlines()[-1])
    record = assistant(
        f"{message_id}-uuid",
        message_id,
        usage(input=1, output=output),
        request_id=f"req_{message_id}",
        parent=last.get("uuid"),
        session=last.get("sessionId", SESSION),
        time="2025-06-03T12:00:00.000Z",
    )
    return json.dumps(record).encode() + b"\n"


@pytest.mark.slow
def test_the_figures_follow_the_index(corpus: Path, tmp_path: Path) -> None:
    root = make_claude_dir(corpus, tmp_path / "claude")
    path = next(root.rglob(f"{WITH_SUBAGENTS}.jsonl"))
    with (
        running([root], tmp_path / "index.db") as started,
        httpx.Client(base_url=started.url, timeout=60) as client,
    ):
        before = client.get("/api/stats").json()
        assert client.get("/api/stats").json() == before  # answered from the cache
        with path.open("ab") as handle:
            handle.write(_assistant_line(path, "msg_dashboard_live", 4321))
        deadline = time.monotonic() + 20
        after = before
        while after["responses"] == before["responses"] and time.monotonic() < deadline:
            time.sleep(0.1)
            after = client.get("/api/stats").json()
    assert after["responses"] == before["responses"] + 1
    assert after["total"]["tokens"]["output"] == before["total"]["tokens"]["output"] + 4321
    assert after["generation"] > before["generation"]


def test_untrusted_names_are_escaped_on_the_dashboard(tmp_path: Path) -> None:
    hostile = "<script>alert(1)</script><img src=x onerror=alert(2)>"
    folder = project_dir(tmp_path / "claude")
    write(
        folder / f"{SESSION}.jsonl",
        [
            prompt("u0", "go", time="2025-06-01T09:00:00.000Z"),
            assistant(
                "a1",
                "msg_1",
                usage(input=5, output=7),
                parent="u0",
                model=hostile,
                time="2025-06-01T09:00:05.000Z",
                content=[tool_use("toolu_1", hostile, {"command": hostile})],
            ),
        ],
    )
    with (
        running([tmp_path / "claude"], tmp_path / "i.db", watch=False) as started,
        httpx.Client(base_url=started.url) as client,
    ):
        figures = client.get("/api/stats").json()
        page = client.get("/stats").text
    assert [row["key"] for row in figures["models"]] == [hostile]
    assert hostile in [row["key"] for row in figures["tools"]]
    assert "<script>alert" not in page and "<img src=x" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_an_empty_index_has_an_empty_dashboard(tmp_path: Path) -> None:
    with (
        running([], tmp_path / "i.db", watch=False) as started,
        httpx.Client(base_url=started.url) as client,
    ):
        figures = client.get("/api/stats").json()
        page = client.get("/stats")
    assert figures["responses"] == figures["sessions"] == 0 and figures["projects"] == []
    assert figures["over_time"] == figures["tools"] == figures["models"] == []
    assert figures["activity"] == [[0] * 24 for _ in range(7)]
    assert page.status_code == 200 and "No API responses" in page.text
    assert 'data-chart="usage"' not in page.text
