"""A search hit in text written without spaces, in Chromium: the snippet marks the characters
matched, and the hit opens its session with exactly those characters highlighted.

A real uvicorn server on 127.0.0.1 over a copy of the shared corpus (the fixtures of
``test_browser_web``), which holds a real Japanese session, and the Chinese, Japanese and
Korean sessions of ``test_search_unspaced``.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Page, expect

from .test_browser_web import ARTIFACTS, browser, page, server
from .test_index_layout import make_claude_dir
from .test_search_unspaced import SESSIONS, _records, session_id
from .test_usage import write

pytestmark = pytest.mark.browser

__all__ = ["browser", "page", "server"]  # fixtures shared with test_browser_web

JAPANESE = "5c0375b4-57a5-4f26-b12d-d022ee4e51b7"
#: A prompt where words are apart that a query has together (search reads both as the same
#: characters in the same order).
APART = "把推广，产品和 API 接入的文档合并"


@pytest.fixture
def claude_dir(corpus: Path, tmp_path: Path) -> Path:
    root = make_claude_dir(corpus, tmp_path / "claude")
    for key, texts in {**SESSIONS, session_id(9): (APART, "好的。", "")}.items():
        write(root / "projects" / "-home-me-zh" / f"{key}.jsonl", _records(key, texts))
    return root


@pytest.mark.parametrize(
    ("query", "marked", "session"),
    [
        ("アップデート", "アップデート", JAPANESE),  # in "…状態にアップデートしてください"
        ("状態", "状態", JAPANESE),
        ("態", "態", JAPANESE),  # one character
        ("推广产品", "推广产品", session_id(1)),
        ("广产", "广，产", session_id(9)),  # across punctuation, as FTS5 finds phrases
        ("API接入", "API 接入", session_id(9)),
    ],
)
def test_a_hit_in_an_unspaced_script_opens_its_session_with_the_match_highlighted(
    page: Page, query: str, marked: str, session: str
) -> None:
    page.goto(f"/search?q={query}")
    hit = page.locator("li.hit", has=page.locator(f'a[href^="/sessions/{session}?"]')).first
    expect(hit.locator("mark").first).to_have_text(marked)
    link = hit.locator("a.hit-link")
    href = link.get_attribute("href")
    assert href is not None
    url = urlsplit(href)
    assert parse_qs(url.query)["hl"] == [query]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-search-unspaced.png"))
    link.click()
    target = page.locator(f'[id="{url.fragment}"]')
    highlighted = target.locator("mark.hl").first
    expect(highlighted).to_have_text(marked, timeout=3000)
    expect(highlighted).to_be_in_viewport()
    page.screenshot(path=str(ARTIFACTS / "web-session-unspaced-hit.png"))
    # Exactly the characters searched for: the text around the mark is not in it.
    texts = target.locator("mark.hl").all_inner_texts()
    assert texts and set(texts) == {marked}
