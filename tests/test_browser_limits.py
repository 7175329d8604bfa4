"""What a person sees of plan limits in Chromium: the dashboard's panel (the windows' use now,
the pace, and the chart of the use over time with its resets) and a session page's share.

A real uvicorn server on 127.0.0.1 over one real transcript, with samples recorded in its
index as the status line stores them. Any console error fails a test. Screenshots go to
``test-artifacts/``.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from cclens.figures.limits import CLAUDE, FIVE_HOUR, SEVEN_DAY, LimitSample
from cclens.index import Index
from cclens.index.write.rate_limits import record
from cclens.web import RunningServer

from .test_browser_dashboard import pixels_of
from .test_browser_web import ARTIFACTS, browser, page
from .test_hook import SESSION, SOURCE
from .test_web import running

pytestmark = pytest.mark.browser

__all__ = ["browser", "page"]  # fixtures of test_browser_web (its page fails on console errors)


def _recent(now: datetime) -> list[LimitSample]:
    """Two days of Claude samples: five-hour windows that filled and reset, the current one
    two hours in at 30 %, and the weekly window climbing."""
    found = []
    for day in (2, 1):
        reset = now - timedelta(days=day) + timedelta(hours=1)
        for hours, used in ((4, 10.0), (2, 55.0), (1, 90.0)):
            found.append(
                LimitSample(CLAUDE, FIVE_HOUR, reset - timedelta(hours=hours), used, reset, 300)
            )
    reset = now + timedelta(hours=3)
    for minutes, used in ((60, 12.0), (0, 30.0)):
        found.append(
            LimitSample(CLAUDE, FIVE_HOUR, now - timedelta(minutes=minutes), used, reset, 300)
        )
    week_reset = now + timedelta(days=4)
    for days, used in ((2, 20.0), (1, 38.0), (0, 41.0)):
        found.append(
            LimitSample(CLAUDE, SEVEN_DAY, now - timedelta(days=days), used, week_reset, 10080)
        )
    return found


@pytest.fixture
def indexed(tmp_path: Path) -> tuple[Path, Path, str]:
    """A Claude folder with one real session, and its index holding plan-limit samples: the
    session's own (stored by its status line while it ran) and two recent days'. Returns the
    folder, the index and the session's key."""
    root = tmp_path / "claude"
    project = root / "projects" / "-Users-dain-workspace-claude-code-log-sample"
    project.mkdir(parents=True)
    shutil.copy(SOURCE, project / SOURCE.name)
    db = tmp_path / "index.db"
    with Index(db) as index:
        index.update([root])
        (summary,) = index.sessions()
    assert summary.started is not None and summary.ended is not None
    middle = summary.started + (summary.ended - summary.started) / 2
    reset = summary.started + timedelta(hours=5)
    own = [
        LimitSample(CLAUDE, FIVE_HOUR, summary.started, 4.0, reset, 300, SESSION),
        LimitSample(CLAUDE, FIVE_HOUR, middle, 9.0, reset, 300, SESSION),
        LimitSample(CLAUDE, FIVE_HOUR, summary.ended, 16.0, reset, 300, SESSION),
    ]
    connection = sqlite3.connect(db, isolation_level=None)
    try:
        record(connection, [*own, *_recent(datetime.now(UTC))])
    finally:
        connection.close()
    return root, db, summary.key


@pytest.fixture
def server(indexed: tuple[Path, Path, str]) -> Iterator[RunningServer]:
    root, db, _ = indexed
    with running([root], db, watch=False) as started:
        yield started


def test_the_dashboard_plots_the_use_over_time_with_the_resets(
    page: Page, server: RunningServer
) -> None:
    page.goto("/stats")
    panel = page.locator("[data-limits][data-drawn]")
    expect(panel).to_be_visible()
    canvas = page.locator('[data-chart="limits"] canvas')
    expect(canvas).to_have_count(1)
    box = canvas.bounding_box()
    assert box is not None and box["width"] > 600 and box["height"] > 150
    chart = page.locator('[data-chart="limits"]')
    assert chart.get_attribute("data-series") == "2"
    assert int(chart.get_attribute("data-resets") or 0) >= 2  # the two past five-hour resets
    assert pixels_of(page, '[data-chart="limits"]', "--chart-1") > 100  # the 5-hour line
    assert pixels_of(page, '[data-chart="limits"]', "--chart-2") > 100  # the weekly line
    expect(page.locator('[data-legend="limits"]')).to_contain_text("claude 5-hour")
    # The table says the same as the API (one figure everywhere): use now and pace.
    api = httpx.get(f"{server.url}api/limits", timeout=30).json()
    five = next(w for w in api["windows"] if w["window"] == "five_hour")
    row = page.locator('[data-limit-windows] tr[data-window="five_hour"]')
    assert float(row.get_attribute("data-used") or -1) == five["used_percent"] == 30.0
    # 30 % two hours in: 75 % at the reset.
    assert abs(five["pace"]["projected_percent"] - 75.0) < 0.5
    expect(row).to_contain_text("75% at reset")
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("[data-limits]").screenshot(path=str(ARTIFACTS / "web-limits.png"))


def test_a_session_page_says_how_much_of_a_window_it_took(
    page: Page, indexed: tuple[Path, Path, str]
) -> None:
    page.goto(f"/sessions/{indexed[2]}")
    line = page.locator("[data-session-limits]")
    expect(line).to_contain_text("Plan limits while this session ran: claude 5-hour +12%")
    assert line.locator('[data-window="five_hour"]').get_attribute("data-points") == "12.0"
