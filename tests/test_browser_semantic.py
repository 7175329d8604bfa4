"""Search by meaning in Chromium: the search page's toggle between words, meaning and both,
"More like this" from a message of a session page, and the related sessions it lists.

A real uvicorn server on 127.0.0.1 over a copy of the corpus (the fixtures of
``test_browser_web``), indexed with vectors (the semantic extra is installed for the tests).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from cclens.index.embedding import available

from .test_browser_web import ARTIFACTS, browser, claude_dir, page, server

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not available(), reason="the semantic extra is not installed"),
]

__all__ = ["browser", "claude_dir", "page", "server"]  # fixtures shared with test_browser_web

MUSIC = "d3ad4cdc-5657-435d-98fa-0035d53e383d"
#: Shares no word with the session it describes (benchmarks/data/paraphrases.json).
PARAPHRASE = "songs all come out identical and boring"


def test_the_toggle_searches_by_words_meaning_or_both(page: Page) -> None:
    page.goto(f"/search?q={PARAPHRASE}")
    toggle = page.locator("fieldset.search-mode")
    expect(toggle).to_be_visible()
    expect(toggle.get_by_label("words and meaning")).to_be_checked()
    groups = page.locator("li.group")
    expect(groups.first).to_be_visible()
    sessions = groups.evaluate_all("groups => groups.map(g => g.dataset.session)")
    assert MUSIC in sessions[:5]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-search-semantic.png"), full_page=True)
    # By words alone, nothing: the query shares no word with any of the session's texts.
    toggle.get_by_label("words", exact=True).check()
    page.locator(".search-form button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"mode=lexical"))
    expect(page.locator(".search-total")).to_contain_text("No matches.")
    expect(page.locator("fieldset.search-mode").get_by_label("words", exact=True)).to_be_checked()
    page.locator("fieldset.search-mode").get_by_label("meaning", exact=True).check()
    page.locator(".search-form button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"mode=semantic"))
    expect(page.locator(f'li.group[data-session="{MUSIC}"]')).to_be_visible()


def test_more_like_this_opens_a_search_by_meaning_from_a_message(page: Page) -> None:
    page.goto(f"/sessions/{MUSIC}")
    related = page.locator("nav.related-sessions li a")
    expect(related.first).to_be_visible()
    assert 1 <= related.count() <= 5
    link = page.locator("a.more-like-this").first
    expect(link).to_be_visible()
    anchor = link.evaluate("link => link.closest('[id]').id")
    link.click()
    expect(page).to_have_url(re.compile(rf"like={MUSIC}.*mode=semantic"))
    assert f"anchor={anchor}" in page.url
    expect(page.locator(".search-like")).to_contain_text("nearest in meaning")
    expect(page.locator("li.group").first).to_be_visible()
    expect(page.locator("fieldset.search-mode").get_by_label("meaning", exact=True)).to_be_checked()
    # The message it started from is not among the hits.
    hits = page.locator("li.hit a").evaluate_all("links => links.map(a => a.href)")
    assert hits and not any(
        f"/sessions/{MUSIC}" in href and href.endswith(f"#{anchor}") for href in hits
    )
