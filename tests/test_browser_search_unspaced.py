"""A search hit in text written without spaces, in Chromium: the snippet marks the characters
matched, and the hit opens its session with exactly those characters highlighted.

A real uvicorn server on 127.0.0.1 over a copy of the shared corpus (the fixtures of
``test_browser_web``), which holds a real Japanese session.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Page, expect

from .test_browser_web import ARTIFACTS, browser, claude_dir, page, server

pytestmark = pytest.mark.browser

__all__ = ["browser", "claude_dir", "page", "server"]  # fixtures shared with test_browser_web

JAPANESE = "5c0375b4-57a5-4f26-b12d-d022ee4e51b7"


@pytest.mark.parametrize(
    ("query", "marked", "session"),
    [
        (
            "アップデート",
            "アップデート",
            JAPANESE,
        ),  # inside "…を最新の状態にアップデートしてください"
        ("状態", "状態", JAPANESE),
        ("態", "態", JAPANESE),  # one character
    ],
)
def test_a_hit_in_an_unspaced_script_opens_its_session_with_the_match_highlighted(
    page: Page, query: str, marked: str, session: str
) -> None:
    page.goto(f"/search?q={query}")
    hit = page.locator("li.hit").first
    expect(hit.locator("mark").first).to_have_text(marked)
    link = hit.locator("a.hit-link")
    href = link.get_attribute("href")
    assert href is not None
    url = urlsplit(href)
    assert parse_qs(url.query)["hl"] == [query]
    assert url.path == f"/sessions/{session}"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-search-unspaced.png"))
    link.click()
    target = page.locator(f'[id="{url.fragment}"]')
    highlighted = target.locator("mark.hl").first
    expect(highlighted).to_have_text(marked, timeout=3000)
    expect(highlighted).to_be_in_viewport()
    # Exactly the characters searched for: the text around the mark is not in it.
    texts = target.locator("mark.hl").all_inner_texts()
    assert texts and set(texts) == {marked}
