"""Finding within a session and the keys of every page, in Chromium (issue 19): / or Ctrl-F
finds in every part of a session (folded parts and subagents included) with "n of N", Enter
and Shift+Enter step, what it lands on is opened and marked; landing from a search hit offers
the next hit; Ctrl-K searches every session as you type; ? lists the keys; j/k, J/K, [ ], g/G,
Enter/o; never while typing. At 1280 px and at 390 px, in the web app and in an exported file."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, expect

from cclens.export import export_html
from cclens.readers.claude import Session, load_session
from cclens.render.find_index import find_entries
from cclens.web import RunningServer

from . import test_browser_web, test_web
from .conftest import corpus_files

pytestmark = pytest.mark.browser

browser = test_browser_web.browser
server = test_web.server

WITH_SUBAGENTS = "ef958aa1-0e93-49f0-bb71-150f63befcd1"
_WORD = re.compile(r"[A-Za-z]{6,}")


def _session(name: str) -> Session:
    return load_session(next(p for p in corpus_files() if p.stem == name))


def subagent_word(session: Session) -> tuple[str, int, str]:
    """A word found two to six times in the session (as a piece of text, ignoring case), first
    inside a subagent's tool output: (word, how many times, the element of its first match)."""
    entries = find_entries(session)
    lowered = [(target, text.lower()) for target, _, text in entries]
    inner = {
        f"tool-{call.id}"
        for top in session.tool_calls.values()
        for agent in top.subagents
        for call in agent.tool_calls.values()
    }
    tried: set[str] = set()
    for target, kind, text in entries:
        if target not in inner or kind != "tool_output":
            continue
        for word in _WORD.findall(text):
            key = word.lower()
            if key in tried:
                continue
            tried.add(key)
            count = sum(x.count(key) for _, x in lowered)
            first = next(t for t, x in lowered if key in x)
            if 2 <= count <= 6 and first == target:
                return word, count, target
    raise AssertionError("no word to find in a subagent")


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("find") / "session.html"
    path.write_text(export_html(_session(WITH_SUBAGENTS)), encoding="utf-8")
    return path


def _open(browser: Browser, width: int, base_url: str | None = None) -> tuple[Page, list[str]]:
    context = browser.new_context(viewport={"width": width, "height": 900}, base_url=base_url)
    page = context.new_page()
    problems: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            problems.append(message.text)

    page.on("console", on_console)
    page.on("pageerror", lambda error: problems.append(str(error)))
    return page, problems


def _find_in_page(page: Page, width: int) -> None:
    session = _session(WITH_SUBAGENTS)
    word, count, target = subagent_word(session)
    assert page.locator(f'[id="{target}"]').count() == 0  # folded: not in the document
    page.keyboard.press("/")
    bar = page.locator("[data-find-bar]")
    expect(bar).to_be_visible()
    expect(bar.locator("input")).to_be_focused()
    page.keyboard.type(word)
    counter = bar.locator("[data-find-count]")
    # The count is the transcript's, made the page's where a view shows a text more than once
    # (a result and the lines the model read besides it).
    expect(counter).to_have_text(re.compile(r"^1 of \d+$"))
    total = int(counter.inner_text().split()[-1])
    assert total >= count
    current = page.locator("mark.find-current")
    expect(current).to_have_count(1)
    expect(current).to_be_in_viewport()
    assert current.inner_text().lower() == word.lower()
    # What it landed on was drawn and opened: the subagent's call, inside its parent call.
    assert page.locator(f'[id="{target}"] mark.find-current').count() == 1
    box = bar.bounding_box()
    assert box is not None and box["width"] <= width and box["x"] >= 0
    page.keyboard.press("Enter")
    expect(counter).to_have_text(re.compile(r"^2 of \d+$"))
    expect(page.locator("mark.find-current")).to_be_in_viewport()
    page.keyboard.press("Shift+Enter")
    expect(counter).to_have_text(re.compile(r"^1 of \d+$"))
    page.keyboard.press("Shift+Enter")  # wraps to the last
    expect(counter).to_have_text(re.compile(r"^(\d+) of \1$"))
    expect(page.locator("mark.find-current")).to_be_in_viewport()
    page.keyboard.press("Escape")
    expect(bar).to_be_hidden()
    expect(page.locator("mark.find")).to_have_count(0)
    # Ctrl-F opens the same bar; nothing found says so.
    page.keyboard.press("Control+f")
    expect(bar).to_be_visible()
    page.keyboard.press("Control+a")
    page.keyboard.type("zqxjzqxj no such text")
    expect(counter).to_have_text("no match")


@pytest.mark.parametrize("width", [1280, 390])
def test_find_in_the_web_app(browser: Browser, server: RunningServer, width: int) -> None:
    page, problems = _open(browser, width, server.url)
    page.goto(f"/sessions/{WITH_SUBAGENTS}")
    _find_in_page(page, width)
    page.context.close()
    assert problems == []


@pytest.mark.parametrize("width", [1280, 390])
def test_find_in_an_exported_file(browser: Browser, exported: Path, width: int) -> None:
    page, problems = _open(browser, width)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(exported.as_uri())
    _find_in_page(page, width)
    page.keyboard.press("Escape")
    page.keyboard.press("?")
    expect(page.locator("dialog[data-keys-help]")).to_be_visible()
    expect(page.locator("dialog[data-keys-help]")).to_contain_text("find in this session")
    page.context.close()
    assert problems == []
    assert [url for url in requests if not url.startswith("file://")] == []


def test_landing_from_a_search_hit_offers_the_next_hit(
    browser: Browser, server: RunningServer
) -> None:
    session = _session(WITH_SUBAGENTS)
    word, count, _ = subagent_word(session)
    with httpx.Client(base_url=server.url) as client:
        found = client.get(
            "/api/search", params={"q": word, "session": WITH_SUBAGENTS, "per_session": 20}
        ).json()
    hit = found["groups"][0]["shown"][-1]
    page, problems = _open(browser, 1280, server.url)
    page.goto(hit["url"])
    bar = page.locator("[data-find-bar]")
    expect(bar).to_be_visible()
    counter = bar.locator("[data-find-count]")
    expect(counter).to_have_text(re.compile(r"^\d+ of \d+$"))
    landed, total = (int(n) for n in counter.inner_text().split(" of "))
    assert total >= count
    bar.locator('button[data-find="next"]').click()
    expect(counter).to_have_text(re.compile(rf"^{landed % total + 1} of \d+$"))
    expect(page.locator("mark.find-current")).to_be_in_viewport()
    page.context.close()
    assert problems == []


@pytest.mark.parametrize("width", [1280, 390])
def test_search_as_you_type_from_any_page(
    browser: Browser, server: RunningServer, width: int
) -> None:
    page, problems = _open(browser, width, server.url)
    page.goto("/stats")
    page.keyboard.press("Control+k")
    palette = page.locator("dialog[data-palette]")
    expect(palette).to_be_visible()
    page.keyboard.type("worktree")
    rows = palette.locator("a.palette-row")
    expect(rows.first).to_be_visible()
    expect(palette.locator("[data-palette-status]")).to_have_text(re.compile(r"\d+ hits? in \d+"))
    assert palette.locator("mark").count() > 0
    box = palette.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    href = rows.first.get_attribute("href") or ""
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(re.escape(href.split("#")[0])))
    # / opens it too, outside a session page.
    page.goto("/projects")
    page.keyboard.press("/")
    expect(page.locator("dialog[data-palette]")).to_be_visible()
    page.keyboard.press("Escape")
    page.context.close()
    assert problems == []


def test_keys_never_fire_while_typing(browser: Browser, server: RunningServer) -> None:
    page, problems = _open(browser, 1280, server.url)
    page.goto("/sessions")
    field = page.get_by_label("Words in the title, first prompt, directory or session id")
    field.click()
    page.keyboard.type("j?/[g")
    expect(field).to_have_value("j?/[g")
    expect(page.locator("dialog[open]")).to_have_count(0)
    assert page.locator(".is-current-row").count() == 0
    page.goto(f"/sessions/{WITH_SUBAGENTS}")
    page.locator(".topbar input[type=search]").click()
    page.keyboard.type("jk/")
    expect(page.locator("[data-find-bar]")).to_be_hidden()
    assert page.locator(".msg.current").count() == 0
    page.context.close()
    assert problems == []


def test_keys_list_and_move(browser: Browser, server: RunningServer) -> None:
    page, problems = _open(browser, 1280, server.url)
    page.goto("/sessions")
    page.keyboard.press("?")
    help_box = page.locator("dialog[data-keys-help]")
    expect(help_box).to_be_visible()
    expect(help_box).to_contain_text("Ctrl")
    page.keyboard.press("Escape")
    # j / k move through the rows, Enter opens one.
    page.keyboard.press("j")
    page.keyboard.press("j")
    second = page.locator("tr.is-current-row")
    expect(second).to_have_count(1)
    urls = page.locator("tr[data-session] a.session-title").evaluate_all(
        "links => links.map(a => a.pathname)"
    )
    assert second.locator("a.session-title").evaluate("a => a.pathname") == urls[1]
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(re.escape(urls[1]) + "$"))
    page.wait_for_load_state()
    # ] and [ go through the list we came from (the links in the crumbs say where).
    expect(page.locator("a[data-list-next]")).to_have_attribute("href", urls[2])
    page.keyboard.press("]")
    expect(page).to_have_url(re.compile(re.escape(urls[2]) + "$"))
    page.wait_for_load_state()
    page.keyboard.press("[")
    expect(page).to_have_url(re.compile(re.escape(urls[1]) + "$"))
    page.wait_for_load_state()
    page.keyboard.press("[")
    expect(page).to_have_url(re.compile(re.escape(urls[0]) + "$"))
    # On a session page: j / k messages, J / K prompts, o opens, g / G ends.
    page.goto(f"/sessions/{WITH_SUBAGENTS}", wait_until="load")
    page.keyboard.press("j")
    expect(page.locator(".msg.current")).to_have_count(1)
    page.keyboard.press("Shift+J")
    current = page.locator(".msg.current")
    expect(current).to_have_attribute("data-kind", "prompt")
    page.keyboard.press("G")
    expect(page.locator(".msg.current")).to_be_in_viewport()
    last = page.locator(".msg").last
    expect(last).to_have_class(re.compile(r"\bcurrent\b"))
    page.keyboard.press("g")
    first = page.locator(".msg").first
    expect(first).to_have_class(re.compile(r"\bcurrent\b"))
    with_call = page.locator(".msg:has(details.tool-details)").first
    with_call.focus()
    page.evaluate(
        "el => { document.querySelectorAll('.msg.current')"
        ".forEach(m => m.classList.remove('current')); el.classList.add('current'); }",
        with_call.element_handle(),
    )
    page.keyboard.press("o")
    expect(with_call.locator("details.tool-details").first).to_have_attribute("open", "")
    page.keyboard.press("o")
    expect(with_call.locator("details.tool-details[open]")).to_have_count(0)
    page.keyboard.press("?")
    expect(page.locator("dialog[data-keys-help]")).to_contain_text("find in this session")
    page.context.close()
    assert problems == []
