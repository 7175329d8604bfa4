"""What a person sees of the sessions view in Chromium: filters, sorting, resume and fork
buttons, one theme for every page, and no page wider than a phone."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, expect

from cclens.web import RunningServer

from . import test_browser_web, test_web

pytestmark = pytest.mark.browser

#: Chromium, and a server over a copy of the corpus (one per module).
browser = test_browser_web.browser
server = test_web.server

SMALL = "fed8ce56-bc79-401f-a83e-af084253362f"
WITH_SUBAGENTS = "ef958aa1-0e93-49f0-bb71-150f63befcd1"
LARGEST = "0d3a8e6f-290f-4105-a327-a2496e5e2a83"
DEEP_MANIFEST = "-iansherr__claude-code-log-test-test_data-real_projects--src-deep-manifest"
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"

#: Every kind of page the app serves.
PAGES = (
    "/",
    "/sessions?sort=cost",
    "/projects",
    f"/projects/{quote(DEEP_MANIFEST)}",
    "/search?q=error",
    "/stats",
    "/permissions",
    f"/projects/{quote(DEEP_MANIFEST)}/permissions",
    f"/sessions/{SMALL}",
    f"/sessions/{WITH_SUBAGENTS}",
    f"/sessions/{LARGEST}",
    MISSING := "/no/such/page",
)


def _warm(server: RunningServer) -> None:
    """Work out the figures the dashboard and the permissions pages wait for (answered once
    ready), so those pages are drawn whole rather than reloading themselves when ready."""
    with httpx.Client(base_url=server.url, timeout=300) as client:
        project = f"/api/projects/{DEEP_MANIFEST}/permissions"
        for path in ("/api/stats", "/api/permissions", project):
            assert client.get(path).status_code == 200, path


def _context(chromium: Browser, server: RunningServer, width: int) -> BrowserContext:
    context = chromium.new_context(base_url=server.url, viewport={"width": width, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    # The theme <html> carries when the first frame is drawn (before any paint).
    context.add_init_script(
        "requestAnimationFrame(() => { window.firstFrameTheme = "
        "document.documentElement.getAttribute('data-theme'); });"
    )
    return context


@pytest.fixture
def page(browser: Browser, server: RunningServer) -> Iterator[Page]:
    context = _context(browser, server, 1280)
    opened = context.new_page()
    problems: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error" and not message.location["url"].endswith(MISSING):
            problems.append(message.text)

    opened.on("console", on_console)
    opened.on("pageerror", lambda error: problems.append(str(error)))
    yield opened
    context.close()
    assert problems == [], problems


def _numbers(page: Page, label: str) -> list[float]:
    cells = page.locator(f'table.sessions-table td[data-label="{label}"]').all_inner_texts()
    return [float(re.sub(r"[^0-9.]", "", text) or "nan") for text in cells]


def test_filter_and_sort_the_sessions_view(page: Page) -> None:
    page.goto("/")
    rows = page.locator("tr[data-session]")
    expect(rows).to_have_count(50)
    page.get_by_label("Failures").select_option(label="with failed calls")  # applies at once
    expect(page).to_have_url(re.compile(r"/\?errors=1$"))
    failed = _numbers(page, "Failed")
    assert failed and all(count > 0 for count in failed)
    page.get_by_role("link", name="Cost", exact=True).click()
    expect(page).to_have_url(re.compile(r"errors=1&sort=cost$"))
    expect(page.locator('th[aria-sort="descending"]')).to_have_text(re.compile("Cost"))
    costs = [c for c in _numbers(page, "Cost") if c == c]
    assert len(costs) > 3 and costs == sorted(costs, reverse=True)
    page.get_by_role("link", name=re.compile("^Cost")).click()  # again: the other way
    expect(page.locator('th[aria-sort="ascending"]')).to_have_text(re.compile("Cost"))
    costs = [c for c in _numbers(page, "Cost") if c == c]
    assert costs == sorted(costs)
    page.get_by_label("Words in the title").fill("music")
    page.get_by_label("Words in the title").press("Enter")
    expect(page).to_have_url(re.compile(r"q=music"))
    titles = page.locator("a.session-title").all_inner_texts()
    assert titles and len(titles) < 10
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-sessions-filtered.png"))
    page.get_by_role("link", name="Clear filters").click()
    expect(rows).to_have_count(50)


def test_the_resume_button_copies_the_command(page: Page, server: RunningServer) -> None:
    with httpx.Client(base_url=server.url) as client:
        wanted = client.get(f"/api/sessions/{SMALL}/resume").json()
    page.goto(f"/sessions?q={SMALL}")
    button = page.locator(f'tr[data-session="{SMALL}"] button.copy-command')
    expect(button).to_have_attribute("data-copy-text", wanted["resume"]["command"])
    assert wanted["resume"]["command"].startswith("cd '/Users/chip/dev/ai-music' && claude")
    button.click()
    expect(button).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == wanted["resume"]["command"]

    page.goto(f"/sessions/{SMALL}")
    fork = page.locator(".fork-here")
    expect(fork.first).to_be_visible()
    assert fork.count() == len(wanted["fork"])
    message = page.locator("[data-fork-at]").nth(1)
    anchor = message.get_attribute("id")
    assert anchor is not None
    message.locator(".fork-here").click()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == wanted["fork"][anchor]["command"]
    assert "--fork-session --resume-session-at=" in copied


def test_one_theme_for_every_page_kept_after_a_reload(page: Page, server: RunningServer) -> None:
    _warm(server)
    page.goto("/")
    toggle = page.locator("[data-theme-toggle]")
    expect(toggle).to_have_text("Theme: auto")
    while page.evaluate("document.documentElement.dataset.theme") != "dark":
        toggle.click()
    dark_background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    for path in PAGES:
        page.goto(path)
        page.wait_for_function("window.firstFrameTheme !== undefined")
        assert page.evaluate("window.firstFrameTheme") == "dark", path  # before the first paint
        expect(page.locator("[data-theme-toggle]")).to_have_text("Theme: dark")
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == dark_background, path
    page.reload()
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    # A session page has one theme control: the top bar's (its toolbar has none of its own).
    page.goto(f"/sessions/{SMALL}")
    expect(page.get_by_role("button", name=re.compile("theme", re.I))).to_have_count(1)
    assert page.locator('.toolbar [data-action="theme"]').count() == 0
    page.locator("[data-theme-toggle]").click()
    expect(page.locator("[data-theme-toggle]")).to_have_text("Theme: auto")
    page.locator("[data-theme-toggle]").click()
    page.goto("/projects")
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    assert page.evaluate("localStorage.getItem('cclens-theme')") == "light"


def test_no_page_scrolls_sideways_on_a_phone(browser: Browser, server: RunningServer) -> None:
    _warm(server)
    context = _context(browser, server, 390)
    phone = context.new_page()
    wide: dict[str, list[str]] = {}
    for path in PAGES:
        phone.goto(path)
        phone.wait_for_load_state("networkidle")
        if phone.evaluate("document.documentElement.scrollWidth") > 390:
            wide[path] = phone.evaluate(
                "() => [...document.querySelectorAll('body *')]"
                ".filter(e => e.getBoundingClientRect().right > 391)"
                ".slice(0, 5).map(e => e.tagName + '.' + e.className)"
            )
    ARTIFACTS.mkdir(exist_ok=True)
    phone.goto("/")
    phone.screenshot(path=str(ARTIFACTS / "web-sessions-390.png"), full_page=False)
    # The sessions table turned into stacked rows, each value named.
    row = phone.locator("tr[data-session]").first
    expect(row.locator('td[data-label="Cost"]')).to_be_visible()
    assert (
        phone.evaluate(
            "getComputedStyle(document.querySelector('table.sessions-table thead')).position"
        )
        == "absolute"
    )
    context.close()
    assert wide == {}
