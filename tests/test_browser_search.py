"""The search page in Chromium: the total, sessions grouped with their counts, facets that
narrow, snippets that keep their lines (code and tool output in a fixed-width font), no
sideways scrolling on a phone, and a hit that lands on its element.

A real uvicorn server on 127.0.0.1 over a copy of the corpus (the fixtures of
``test_browser_web``). Any console error fails a test (the page's stylesheet or a script
blocked by the Content-Security-Policy shows up there).
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Page, expect

from .test_browser_web import ARTIFACTS, browser, claude_dir, page, server

pytestmark = pytest.mark.browser

__all__ = ["browser", "claude_dir", "page", "server"]  # fixtures shared with test_browser_web


def _number(text: str) -> int:
    """The number at the start of ``text`` (``1,234 hits``)."""
    found = re.match(r"[\d,]+", text.strip())
    assert found, text
    return int(found.group().replace(",", ""))


def test_results_are_grouped_by_session_with_a_total(page: Page) -> None:
    page.goto("/search?q=test")
    total = page.locator(".search-total")
    expect(total).to_contain_text(re.compile(r"[\d,]+ hits in [\d,]+ sessions"))
    hits = _number(total.locator("strong").nth(0).inner_text())
    groups = page.locator("li.group")
    expect(groups).to_have_count(10)
    counts = [_number(c) for c in groups.locator(".group-count").all_inner_texts()]
    assert all(count >= 1 for count in counts) and sum(counts) <= hits
    for number in range(10):
        group = groups.nth(number)
        shown = group.locator("li.hit").count()
        count = counts[number]
        assert 1 <= shown <= min(3, count)
        if count > shown:
            expect(group.locator(".group-more")).to_contain_text(f"all {count:,} hits")
    # The project is shown as its path.
    expect(groups.first.locator(".group-project")).to_have_text(re.compile(r"^/|^-"))
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-search-groups.png"), full_page=True)


def test_a_facet_narrows_the_search_and_shows_what_is_chosen(page: Page) -> None:
    page.goto("/search?q=test")
    facet = page.locator(".facet", has=page.locator("h2", has_text="Kind of text"))
    link = facet.locator("a", has_text="tool output")
    expected = _number(link.locator(".facet-count").inner_text())
    link.click()
    expect(page).to_have_url(re.compile(r"kind=tool_output"))
    total = page.locator(".search-total strong").first
    expect(total).to_have_text(f"{expected:,}")
    kinds = set(page.locator("li.hit").evaluate_all("hits => hits.map(h => h.dataset.kind)"))
    assert kinds == {"tool_output"}
    chosen = page.locator(".facet li.active a", has_text="tool output")
    expect(chosen).to_have_attribute("aria-current", "true")
    chosen.click()  # the chosen value takes its filter off again
    expect(page).not_to_have_url(re.compile(r"kind="))


def test_snippets_keep_lines_and_code_is_monospace(page: Page) -> None:
    page.goto("/search?q=error&kind=tool_output")
    code = page.locator("pre.snippet.code").first
    expect(code).to_be_visible()
    font = code.evaluate("element => getComputedStyle(element).fontFamily")
    assert "mono" in font.lower() or "menlo" in font.lower() or "consolas" in font.lower()
    white_space = code.evaluate("element => getComputedStyle(element).whiteSpace")
    assert white_space == "pre-wrap"
    expect(code.locator("mark").first).to_have_text(re.compile("error", re.I))
    page.goto("/search?q=error&kind=prompt")
    prose = page.locator("li.hit[data-kind=prompt] pre.snippet").first
    expect(prose).to_be_visible()
    if "code" not in (prose.get_attribute("class") or ""):
        font = prose.evaluate("element => getComputedStyle(element).fontFamily")
        assert "mono" not in font.lower()


def test_no_sideways_scrolling_on_a_phone(page: Page) -> None:
    phone = page
    phone.set_viewport_size({"width": 390, "height": 900})
    phone.goto("/search?q=test")
    expect(phone.locator("li.group").first).to_be_visible()
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    phone.screenshot(path=str(ARTIFACTS / "web-search-phone.png"), full_page=True)


def test_a_hit_link_names_its_element_terms_and_part(page: Page) -> None:
    page.goto('/search?q="command not found" bash')
    link = page.locator("a.hit-link").first
    href = link.get_attribute("href")
    assert href is not None
    url = urlsplit(href)
    query = parse_qs(url.query)
    assert query["hl"] == ["command not found", "bash"] and query["part"][0] in {
        "tool_input",
        "tool_output",
        "assistant",
        "prompt",
        "thinking",
    }
    link.click()
    expect(page.locator(f'[id="{url.fragment}"]')).to_be_attached()


def test_a_hit_opens_its_folded_tool_output_with_the_term_highlighted(page: Page) -> None:
    # A tool's output is folded and not drawn until opened (the session page's contract):
    # following the hit must draw it, open it, mark the term and bring it into view.
    page.goto("/search?q=worktree&kind=tool_output")
    link = page.locator("a.hit-link").first
    href = link.get_attribute("href")
    assert href is not None
    target = urlsplit(href).fragment
    assert target.startswith("tool-")
    body = page.request.get(href).text()
    assert 'class="hl"' not in body  # the server draws no marks: the page does, once opened
    link.click()
    element = page.locator(f'[id="{target}"]')
    mark = element.locator("mark.hl").first
    expect(mark).to_have_text(re.compile("worktree", re.I), timeout=3000)
    expect(mark).to_be_in_viewport()
