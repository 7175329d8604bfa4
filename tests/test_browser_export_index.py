"""A bulk export opened from file:// in Chromium: the index lists the sessions, its links open
them, and nothing is blocked or fetched."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from cclens.export.bulk import export_sessions
from cclens.readers.claude import discover

from .conftest import CORPUS
from .test_browser_export import ARTIFACTS, Watched, browser

pytestmark = pytest.mark.browser

__all__ = ["browser"]  # the Chromium fixture, shared with test_browser_export

PROJECT = CORPUS / "jazzyalex__agent-sessions/Resources/Fixtures/stage0/agents/claude"


def test_index_opens_every_session(browser: Browser, tmp_path: Path) -> None:
    files = discover(PROJECT).sessions
    assert len(files) >= 2
    result = export_sessions(files, tmp_path / "site", workers=2, title="Ideas")
    watched = Watched(browser, result.index.as_uri(), viewport={"width": 1200, "height": 800})
    page = watched.page
    assert page.locator("h1").inner_text() == "Ideas"
    rows = page.locator(".index-table tbody tr")
    assert rows.count() == len(files)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "export-index.png"), full_page=True)
    first = page.locator(".index-table a").first
    title = first.inner_text()
    first.click()
    page.wait_for_load_state()
    assert page.url.endswith(".html") and page.url != result.index.as_uri()
    assert page.locator(".session-title").inner_text() == title
    # The shared stylesheet and script (assets/) apply: styled, and a folded call opens.
    assert page.evaluate("getComputedStyle(document.querySelector('.toolbar')).display") == "flex"
    tool = page.locator("section.tool").first
    if tool.count():
        tool.locator("summary.tool-head").click()
        expect(tool.locator(".tool-body[data-ready] > *").first).to_be_visible()
    page.go_back()
    page.locator('button[data-action="theme"]').click()
    assert page.locator("html").get_attribute("data-theme") != "auto"
    watched.check_clean()
