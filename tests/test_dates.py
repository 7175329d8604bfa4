"""Dates at the edges of the calendar: one reader for every command and page, never a traceback."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cclens.figures.period import (
    FIRST_DAY,
    LAST_DAY,
    DateError,
    Period,
    parse_date,
    parse_moment,
    read_date,
)
from cclens.web import RunningServer

from .conftest import sampled
from .test_index import SMALL
from .test_index_cli import run
from .test_web import running

EDGES = ["9999-12-31", "0001-01-01", "99991231", "00010101", "9999-12-31T23:59:59-14:00"]
EDGES += ["0001-01-01T00:00:00+14:00", "1969-12-31", "9999-12-31T23:59:59.999999"]


def test_a_date_alone_and_a_time() -> None:
    assert read_date("2025-06-01") == date(2025, 6, 1)
    assert read_date("20250601") == date(2025, 6, 1)
    assert read_date("2025-06-01T14:30Z") == datetime(2025, 6, 1, 14, 30, tzinfo=UTC)
    assert parse_moment("2025-06-01", end=True, zone=UTC) == datetime(2025, 6, 2, tzinfo=UTC)
    assert parse_moment("2025-06-01T10:00", zone=UTC) == datetime(2025, 6, 1, 10, tzinfo=UTC)


@pytest.mark.parametrize("text", EDGES)
def test_the_edges_are_clamped_and_usable(text: str) -> None:
    found = read_date(text)
    day = found.date() if isinstance(found, datetime) else found
    assert FIRST_DAY <= day <= LAST_DAY
    for end in (False, True):
        for zone in (None, UTC, timezone(timedelta(hours=14)), timezone(timedelta(hours=-12))):
            moment = parse_moment(text, end=end, zone=zone)
            moment.timestamp()
            moment.astimezone(UTC)
    one = parse_date(text)
    period = Period(since=one, until=one)
    assert period.start is not None and period.end is not None
    period.start.timestamp()
    period.end.timestamp()


@pytest.mark.parametrize(
    "text", ["", "tomorrow", "2025-13-01", "2025-02-30", "10000-01-01", "0000-01-01", "x" * 5000]
)
def test_what_is_not_a_date_is_refused_in_one_line(text: str) -> None:
    with pytest.raises(DateError) as refused:
        read_date(text)
    message = str(refused.value)
    assert "\n" not in message and "YYYY-MM-DD" in message and len(message) < 200


@pytest.mark.slow
@given(st.text(max_size=40))
def test_any_text_is_a_date_or_a_date_error(text: str) -> None:
    try:
        parse_moment(text, end=True)
        parse_date(text)
    except DateError:
        pass


@given(st.datetimes(timezones=st.timezones() | st.none()))
def test_any_iso_time_reads_back_within_range(moment: datetime) -> None:
    found = parse_moment(moment.isoformat(), end=True, zone=UTC)
    assert found.tzinfo is not None
    found.astimezone(UTC).timestamp()


@pytest.mark.parametrize("text", sampled(EDGES, quick=3))
@pytest.mark.parametrize("option", ["--since", "--until"])
def test_commands_take_the_edges(tmp_path: Path, option: str, text: str) -> None:
    db = tmp_path / "index.db"
    claude = tmp_path / "claude"
    claude.mkdir()
    code, _, err = run("search", "anything", option, text, "--db", db, "--claude-dir", claude)
    assert code == 0, err
    code, _, err = run("stats", option, text, "--claude-dir", claude)
    assert code == 0, err
    if option == "--since":
        code, _, err = run("dataset", str(tmp_path / "set"), option, text, "--claude-dir", claude)
        assert code == 0, err


def test_commands_refuse_what_is_not_a_date_in_one_line(tmp_path: Path) -> None:
    claude = tmp_path / "claude"
    claude.mkdir()
    for command in (["search", "x", "--db", str(tmp_path / "i.db")], ["stats"]):
        code, _, err = run(*command, "--since", "2025-02-30", "--claude-dir", claude)
        assert code == 2 and "Traceback" not in err
        assert "'2025-02-30' is not a date" in err


@pytest.fixture(scope="module")
def server(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    source = next(corpus.rglob(f"{SMALL}.jsonl"))
    folder = tmp_path_factory.mktemp("claude") / "projects" / "-tmp-demo"
    folder.mkdir(parents=True)
    folder.joinpath(f"{SMALL}.jsonl").write_bytes(source.read_bytes())
    db = tmp_path_factory.mktemp("db") / "index.db"
    with running([folder.parent.parent], db, watch=False) as started:
        yield started


@pytest.mark.parametrize("text", EDGES)
def test_pages_and_the_api_take_the_edges(server: RunningServer, text: str) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as client:
        for name in ("since", "until"):
            for path in ("/search", "/api/search"):
                answer = client.get(path, params={"q": "error", name: text})
                assert answer.status_code == 200, (path, name, text, answer.text[:200])
            for path in ("/stats", "/api/stats"):
                answer = client.get(path, params={name: text})
                assert answer.status_code == 200, (path, name, text, answer.text[:200])


def test_pages_and_the_api_refuse_what_is_not_a_date_with_a_400(server: RunningServer) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as client:
        for path in ("/search", "/api/search", "/stats", "/api/stats"):
            answer = client.get(path, params={"q": "error", "until": "2025-02-30"})
            assert answer.status_code == 400, path
            assert "is not a date" in answer.text
        assert "until:" in client.get("/api/search", params={"until": "x"}).json()["error"]


HOSTILE_STATES = {
    "nested arrays": "[" * 10_000 + "]" * 10_000,
    "nested objects": '{"a":' * 4_000 + "1" + "}" * 4_000,
    "nested values": '{"a":' + "[" * 10_000 + "]" * 10_000 + "}",
    "long": "x" * 30_000,
}


@pytest.mark.parametrize("name", list(HOSTILE_STATES))
def test_live_updates_ignore_a_hostile_state(server: RunningServer, name: str) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as client:
        since = HOSTILE_STATES[name]
        answer = client.get(f"/sessions/{SMALL}/updates", params={"since": since})
        assert answer.status_code == 200, answer.text[:200]
        assert answer.json()["anchors"] == []
