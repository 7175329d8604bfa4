"""Plan limits in the index and on the surfaces: migration 21, only changed samples stored,
``cclens limits`` (terminal and ``--json``), ``/api/limits`` and a session's share, all from
one definition (:mod:`cclens.figures.limits`)."""

from __future__ import annotations

import json
import re
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from cclens._statusline import limits_text
from cclens.cli import main
from cclens.figures.limits import (
    CLAUDE,
    FIVE_HOUR,
    SEVEN_DAY,
    LimitSample,
    claude_samples,
    codex_samples,
    pace,
)
from cclens.index import Index
from cclens.index.write.rate_limits import record
from cclens.reports.limits import limits_report, report_json, session_use

from .test_limits_figures import CODEX_058, _codex_058, _line
from .test_web import running

NOW = datetime(2025, 11, 18, 16, 0, tzinfo=UTC)


def _claude_history() -> list[LimitSample]:
    """A morning of Claude samples: a five-hour window that reset at 11:00, and the next one
    (reset due at 17:00) climbing; the weekly window alongside."""
    first_reset = datetime(2025, 11, 18, 11, 0, tzinfo=UTC)
    second_reset = datetime(2025, 11, 18, 17, 0, tzinfo=UTC)
    week_reset = datetime(2025, 11, 21, 9, 0, tzinfo=UTC)
    found = []
    for minutes, used in ((0, 10.0), (60, 35.0), (120, 80.0)):
        at = first_reset - timedelta(hours=3) + timedelta(minutes=minutes)
        found.append(LimitSample(CLAUDE, FIVE_HOUR, at, used, first_reset, 300, "s1"))
    for minutes, used in ((0, 5.0), (60, 20.0), (180, 45.0)):
        at = second_reset - timedelta(hours=4) + timedelta(minutes=minutes)
        found.append(LimitSample(CLAUDE, FIVE_HOUR, at, used, second_reset, 300, "s2"))
    found.append(LimitSample(CLAUDE, SEVEN_DAY, NOW - timedelta(hours=1), 31.0, week_reset, 10080))
    return found


def _codex_history() -> list[LimitSample]:
    found = []
    for row in CODEX_058:
        payload, at = _line(_codex_058(*row))
        found += codex_samples(payload, at, session="019a9776")
    return found


def _record(path: Path, samples: list[LimitSample]) -> int:
    """Store ``samples`` as the status line does: its own connection to a migrated index."""
    with Index(path):
        pass
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        return record(connection, samples)
    finally:
        connection.close()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "index.db"
    _record(path, [*_claude_history(), *_codex_history()])
    return path


def _rows(db: Path) -> int:
    connection = sqlite3.connect(db)
    try:
        return int(connection.execute("SELECT count(*) FROM rate_limits").fetchone()[0])
    finally:
        connection.close()


def test_only_samples_that_change_their_window_are_stored(db: Path) -> None:
    # Codex repeated its figures: of its five events x two windows, the changes are stored
    # (the weekly window's one-second jitter of its reset is no change).
    codex = [s for s in _codex_history()]
    assert len(codex) == 10
    connection = sqlite3.connect(db)
    try:
        stored = connection.execute(
            "SELECT window_name, used FROM rate_limits WHERE agent = 'codex' "
            "ORDER BY window_name, time"
        ).fetchall()
        assert stored == [
            ("five_hour", 7.0),
            ("five_hour", 8.0),
            ("five_hour", 9.0),
            ("five_hour", 12.0),
            ("seven_day", 77.0),
            ("seven_day", 78.0),
        ]
        # Storing the same samples again adds nothing.
        assert record(connection, [*_claude_history(), *_codex_history()]) == 0
    finally:
        connection.close()
    assert _rows(db) == 7 + 6


def test_an_older_index_gets_the_table(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with Index(path):
        pass
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("DROP TABLE rate_limits")
    connection.execute("DELETE FROM migrations WHERE number = 21")
    connection.close()
    assert _record(path, _claude_history()) == 7


def test_the_report_says_use_reset_pace_and_history(db: Path) -> None:
    with Index(db) as index:
        report = limits_report(index, NOW)
    keys = [(w.agent, w.window) for w in report.windows]
    assert keys == [
        ("claude", "five_hour"),
        ("claude", "seven_day"),
        ("codex", "five_hour"),
        ("codex", "seven_day"),
    ]
    five = report.windows[0]
    assert five.now.used_percent == 45.0 and not five.now.reset_since
    assert five.now.resets_in == timedelta(hours=1)
    expected = pace(five.history[-1], NOW)
    assert expected is not None and five.now.pace == expected
    assert [(p.peak_percent, p.samples) for p in five.periods] == [(80.0, 3), (45.0, 3)]
    # Codex's five-hour window reset at 16:26:45 UTC: at 16:00 it has 27 minutes to go.
    codex = report.windows[2]
    assert codex.now.used_percent == 12.0
    assert codex.now.resets_in == timedelta(minutes=26, seconds=45)


def test_limits_json_is_the_report(db: Path) -> None:
    result = CliRunner().invoke(main, ["limits", "--db", str(db), "--no-update", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    five = data["windows"][0]
    assert (five["agent"], five["window"], five["label"]) == ("claude", "five_hour", "5-hour")
    # Those samples are old: the window has reset since, and its use now is not known.
    assert (five["used_percent"], five["reset_since_sample"], five["pace"]) == (0.0, True, None)
    assert five["history"][-1]["used_percent"] == 45.0
    assert five["resets_at"] == "2025-11-18T17:00:00Z"
    assert [p["peak_percent"] for p in five["periods"]] == [80.0, 45.0]
    assert len(five["history"]) == 6
    # The JSON is the report's, read at the command's own moment.
    with Index(db) as index:
        now = datetime.fromisoformat(data["now"].replace("Z", "+00:00"))
        assert report_json(limits_report(index, now)) == data


def test_limits_in_the_terminal(db: Path) -> None:
    result = CliRunner().invoke(
        main, ["limits", "--db", str(db), "--no-update", "--agent", "codex"], terminal_width=120
    )
    assert result.exit_code == 0, result.output
    assert "codex" in result.output and "claude" not in result.output
    assert "5-hour" in result.output and "weekly" in result.output
    assert "reset since" in result.output  # those samples are a year old
    assert "Recent periods" in result.output


def test_with_nothing_recorded_it_says_how_to_record(tmp_path: Path) -> None:
    path = tmp_path / "index.db"
    with Index(path):
        pass
    result = CliRunner().invoke(main, ["limits", "--db", str(path), "--no-update"])
    assert result.exit_code == 0
    assert "No plan limits recorded yet" in result.output and "cclens setup" in result.output


def test_a_sessions_share_of_each_window(db: Path) -> None:
    with Index(db) as index:
        # From 09:30 to 15:30: +45 before the 11:00 reset (35 -> 80), then 5, +15 and +25.
        used = session_use(
            index,
            datetime(2025, 11, 18, 8, 30, tzinfo=UTC),
            datetime(2025, 11, 18, 15, 30, tzinfo=UTC),
        )
        assert [(u.agent, u.label, u.points) for u in used] == [
            ("claude", "5-hour", 45.0 + 5.0 + 15.0 + 25.0),
            ("claude", "weekly", 0.0),
        ]
        # A Codex session's windows are Codex's: its samples came with its id.
        codex = session_use(
            index,
            datetime(2025, 11, 18, 14, 0, tzinfo=UTC),
            datetime(2025, 11, 18, 16, 0, tzinfo=UTC),
            "019a9776",
        )
        assert [(u.agent, u.window, u.points) for u in codex] == [
            ("codex", "five_hour", 5.0),
            ("codex", "seven_day", 1.0),
        ]
        assert session_use(index, None, None) == []


def test_days_keeps_the_recent_history_and_each_windows_latest_sample(db: Path) -> None:
    with Index(db) as index:
        since = NOW - timedelta(minutes=30)
        report = limits_report(index, NOW, since=since)
        everything = limits_report(index, NOW)
    five, week, codex_five, codex_week = report.windows
    # The samples since 15:30; a window with none keeps its latest, and says the same now.
    assert [s.used_percent for s in five.history] == [45.0]
    assert [s.used_percent for s in codex_five.history] == [12.0]
    assert [s.used_percent for s in week.history] == [31.0]
    assert [s.used_percent for s in codex_week.history] == [78.0]
    assert [w.now for w in report.windows] == [w.now for w in everything.windows]
    result = CliRunner().invoke(
        main, ["limits", "--db", str(db), "--no-update", "--json", "--days", "1"]
    )
    assert result.exit_code == 0, result.output
    assert all(len(w["history"]) == 1 for w in json.loads(result.output)["windows"])


@pytest.mark.slow
def test_one_figure_on_every_surface(tmp_path: Path) -> None:
    """The use now and the pace of each window: ``cclens limits --json``, ``/api/limits``,
    the dashboard's table (its data attributes) and the status line say the same."""
    now = datetime.now(UTC).replace(microsecond=0)
    resets = now + timedelta(hours=2)
    samples = [
        LimitSample(CLAUDE, FIVE_HOUR, now - timedelta(hours=2), 20.0, resets, 300, "s1"),
        LimitSample(CLAUDE, FIVE_HOUR, now - timedelta(minutes=5), 57.0, resets, 300, "s1"),
        LimitSample(CLAUDE, SEVEN_DAY, now - timedelta(minutes=5), 64.0, now + timedelta(days=2)),
    ]
    db = tmp_path / "index.db"
    _record(db, samples)
    cli = CliRunner().invoke(main, ["limits", "--db", str(db), "--no-update", "--json"])
    assert cli.exit_code == 0, cli.output
    from_cli = {(w["agent"], w["window"]): w for w in json.loads(cli.output)["windows"]}
    with running([tmp_path / "no-claude"], db, watch=False) as server:
        api = httpx.get(f"{server.url}api/limits", timeout=30).json()
        page = httpx.get(f"{server.url}stats", timeout=30).text
    from_api = {(w["agent"], w["window"]): w for w in api["windows"]}
    assert from_cli.keys() == from_api.keys() == {("claude", "five_hour"), ("claude", "seven_day")}
    for key, window in from_cli.items():
        other = from_api[key]
        assert window["used_percent"] == other["used_percent"]
        assert window["pace"]["projected_percent"] == pytest.approx(
            other["pace"]["projected_percent"], abs=0.1
        )
        row = re.search(
            rf'<tr data-agent="claude" data-window="{key[1]}" data-used="([^"]+)"', page
        )
        assert row is not None and float(row.group(1)) == window["used_percent"]
        pace_cell = re.search(rf'data-window="{key[1]}".*?data-pace="([^"]+)"', page, re.S)
        assert pace_cell is not None
        assert float(pace_cell.group(1)) == pytest.approx(
            window["pace"]["projected_percent"], abs=0.1
        )
    # The status line, given the latest five-hour sample as Claude Code passes it.
    five = from_cli[("claude", "five_hour")]
    line = limits_text(
        claude_samples(
            {"five_hour": {"used_percentage": 57.0, "resets_at": resets.timestamp()}},
            now - timedelta(minutes=5),
        ),
        now,
    )
    assert line == f"5h 57% (pace {five['pace']['projected_percent']:.0f}%)"
