"""Codex CLI's sessions in the index and on every surface above it: stored byte for byte and
restored, read again from the appended bytes only, the same figures from the index as from the
files, the agent as a filter, facet, grouping and argument (CLI, web, MCP), and followed live by
the web app."""

from __future__ import annotations

import hashlib
import json
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from cclens.cli import main
from cclens.demo import demo_dir
from cclens.index import Index, SearchFilters, SessionFilters
from cclens.mcp.tools import Tools
from cclens.reports.stats import index_stats, usage_stats

from .test_codex import A, make_codex_home
from .test_web import _next_event, running


def _home(target: Path) -> Path:
    return make_codex_home(target)


@pytest.fixture(scope="module")
def homes(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("agents")
    claude = root / "claude"
    shutil.copytree(demo_dir(), claude)
    return claude, _home(root / "codex")


@pytest.fixture(scope="module")
def index(homes: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Index:
    opened = Index(tmp_path_factory.mktemp("db") / "index.db")
    report = opened.update(list(homes), workers=1)
    assert not report.errors
    return opened


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.mark.slow
def test_both_agents_are_indexed_and_codex_files_restore_byte_for_byte(
    index: Index, homes: tuple[Path, Path], tmp_path: Path
) -> None:
    assert set(index.agents()) == {"claude", "codex"}
    codex = index.sessions(SessionFilters(agent="codex"), limit=500)
    claude = index.sessions(SessionFilters(agent="claude"), limit=500)
    assert codex.total >= 10 and claude.total >= 1
    assert {row.agent for row in codex} == {"codex"}
    # Every byte of each file, a half-written last line included (issue 24: it is archived,
    # and read whole once completed).
    originals = {_digest(path.read_bytes()) for path in homes[1].rglob("*.jsonl")}
    restored = 0
    for row in codex:
        for path in index.restore(row.key, tmp_path / row.key):
            assert _digest(path.read_bytes()) in originals, path
            restored += 1
    assert restored == len(originals)


def test_figures_from_the_index_equal_figures_from_the_files(
    index: Index, homes: tuple[Path, Path]
) -> None:
    for agent in ("codex", "claude"):
        from_index = index_stats(index, by="model", agent=agent)
        from_files = usage_stats(list(homes), by="model", agent=agent)
        assert from_index.responses == from_files.responses > 0, agent
        assert from_index.total.tokens == from_files.total.tokens, agent
        assert from_index.prompts == from_files.prompts, agent
        assert from_index.tool_calls == from_files.tool_calls, agent
    by_agent = index_stats(index, by="agent")
    assert {row.key for row in by_agent.rows} == {"claude", "codex"}


def test_the_agent_filters_sessions_search_and_mcp(index: Index) -> None:
    found = index.search_results("greeting", SearchFilters(agent="codex"), limit=20)
    assert found.groups and all(g.agent == "codex" for g in found.groups)
    facets = index.search_results("the", SearchFilters(), limit=5).as_json()["facets"]
    assert {f["value"] for f in facets["agent"]} == {"claude", "codex"}
    tools = Tools(index)
    listed = tools.list_sessions(agent="codex", limit=100)
    assert listed["sessions"] and {row["agent"] for row in listed["sessions"]} == {"codex"}
    usage = tools.usage(by="agent")
    assert {row["key"] for row in usage["rows"]} == {"claude", "codex"}
    files = tools.session_files(A)
    assert "/home/dev/shop/src/app.py" in files["changed"]


def test_the_cli_lists_and_counts_by_agent(index: Index) -> None:
    runner = CliRunner()
    db = str(index.path)
    listed = runner.invoke(main, ["sessions", "--db", db, "--agent", "codex", "--json"])
    assert listed.exit_code == 0, listed.output
    rows = json.loads(listed.output)
    rows = rows["sessions"] if isinstance(rows, dict) else rows
    assert rows and {row["agent"] for row in rows} == {"codex"}
    stats = runner.invoke(main, ["stats", "--db", db, "--no-update", "--by", "agent", "--json"])
    assert stats.exit_code == 0, stats.output
    assert {row["key"] for row in json.loads(stats.output)["rows"]} == {"claude", "codex"}


def _token_line(total: int) -> bytes:
    usage = {
        "input_tokens": total,
        "cached_input_tokens": 0,
        "output_tokens": 5,
        "reasoning_output_tokens": 0,
        "total_tokens": total + 5,
    }
    payload = {
        "type": "token_count",
        "info": {"total_token_usage": usage, "last_token_usage": usage},
    }
    line = {"timestamp": "2026-05-01T11:00:01.000Z", "type": "event_msg", "payload": payload}
    return (json.dumps(line) + "\n").encode()


def _prompt_lines(text: str) -> bytes:
    lines = [
        {
            "timestamp": "2026-05-01T11:00:00.000Z",
            "type": "response_item",
            "payload": {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": text}],
            },
        },
        {
            "timestamp": "2026-05-01T11:00:00.000Z",
            "type": "event_msg",
            "payload": {"type": "user_message", "message": text, "images": []},
        },
    ]
    return "".join(json.dumps(line) + "\n" for line in lines).encode()


def _thread_file(home: Path, thread: str) -> Path:
    return next(path for path in home.rglob(f"*{thread}.jsonl"))


def test_appended_lines_are_read_from_where_the_last_run_stopped(tmp_path: Path) -> None:
    home = _home(tmp_path / "codex")
    index = Index(tmp_path / "i.db")
    index.update([home], workers=1)
    path = _thread_file(home, A)
    before = index.load(A)
    assert before is not None
    size = path.stat().st_size
    appended = _prompt_lines("an appended pangolin") + _token_line(10_000_000)
    with path.open("ab") as handle:
        handle.write(appended)
    report = index.update([home], workers=1)
    assert report.updated == [A]
    # Only the appended bytes were read (the rest was not read again).
    assert report.bytes_read == len(appended)
    after = index.load(A)
    assert after is not None and after.first_prompt == before.first_prompt
    assert "an appended pangolin" in [p for p in _prompts(after)]
    assert index.search_results("pangolin", SearchFilters(), limit=5).groups
    restored = next(p for p in index.restore(A, tmp_path / "out") if p.name == path.name)
    assert restored.read_bytes() == path.read_bytes() and path.stat().st_size > size


def _prompts(session: object) -> list[str]:
    from cclens.model.session import Session, UserItem

    assert isinstance(session, Session)
    return [i.text for i in session.items if isinstance(i, UserItem) and i.kind == "prompt"]


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    home = _home(tmp_path / "codex")
    with running([home], tmp_path / "live.db") as server:
        yield home, server.url


@pytest.mark.slow
def test_the_web_app_follows_a_codex_session_live(live: tuple[Path, str]) -> None:
    home, url = live
    path = _thread_file(home, A)
    with httpx.Client(base_url=url, timeout=httpx.Timeout(10.0)) as client:
        listed = client.get("/api/sessions", params={"agent": "codex", "limit": 100}).json()
        assert listed["sessions"] and {s["agent"] for s in listed["sessions"]} == {"codex"}
        assert client.get("/api/sessions", params={"agent": "nobody"}).status_code == 400
        figures = client.get("/api/stats", params={"agent": "codex"}).json()
        assert figures["filters"]["agent"] == "codex"
        assert [row["key"] for row in figures["agents"]] == ["codex"]
        assert client.get("/api/stats", params={"agent": "nobody"}).status_code == 400
        assert client.get("/search", params={"q": "greeting", "agent": "codex"}).status_code == 200
        page = client.get(f"/sessions/{A}").text
        assert "Codex CLI" in page and 'data-view="codex-patch"' in page
        with client.stream("GET", f"/api/sessions/{A}/events") as stream:
            lines = stream.iter_lines()
            assert next(lines).startswith("retry:")
            began = time.monotonic()
            with path.open("ab") as handle:
                handle.write(_prompt_lines("a live pangolin appears"))
            event = _next_event(lines)
            assert time.monotonic() - began < 5.0
        assert event["updated"] == [A]
        assert "a live pangolin appears" in client.get(f"/sessions/{A}").text
