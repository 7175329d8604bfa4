"""What a person sees in Chromium: the dashboard's charts, a session's timeline, the permissions.

A real uvicorn server on 127.0.0.1 over a copy of the corpus (the fixtures of
``test_browser_web``), in light and dark mode. Any console error fails a test: a chart library
blocked by the Content-Security-Policy shows up there. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

import httpx
import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, Position, expect

from cclens.web import RunningServer

from .test_browser_web import ARTIFACTS, browser, claude_dir, server
from .test_index import WITH_SUBAGENTS, prompt_line, transcript
from .test_web import running

pytestmark = pytest.mark.browser

__all__ = ["browser", "claude_dir", "server"]  # fixtures shared with test_browser_web

DEEP_MANIFEST = "-iansherr__claude-code-log-test-test_data-real_projects--src-deep-manifest"
Scheme = Literal["light", "dark"]

#: Pixels of a chart's canvas whose colour is (within a few units) the CSS variable's.
_PIXELS_OF = """([selector, variable]) => {
  const canvas = document.querySelector(selector + " canvas");
  if (!canvas || !canvas.width || !canvas.height) return -1;
  const probe = document.createElement("span");
  probe.style.color = getComputedStyle(document.documentElement).getPropertyValue(variable);
  document.body.appendChild(probe);
  const [r, g, b] = getComputedStyle(probe).color.match(/\\d+/g).map(Number);
  probe.remove();
  const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
  let found = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (data[i + 3] > 200 && Math.abs(data[i] - r) < 6 && Math.abs(data[i + 1] - g) < 6
        && Math.abs(data[i + 2] - b) < 6) found++;
  }
  return found;
}"""


def pixels_of(page: Page, selector: str, variable: str) -> int:
    """How many pixels of the chart at ``selector`` have the colour of CSS ``variable``."""
    found = page.evaluate(_PIXELS_OF, [selector, variable])
    assert isinstance(found, int)
    return found


@pytest.fixture(params=["light", "dark"])
def scheme(request: pytest.FixtureRequest) -> Scheme:
    value = request.param
    assert value in ("light", "dark")
    return value  # type: ignore[no-any-return]


@pytest.fixture
def page(browser: Browser, server: RunningServer, scheme: Scheme) -> Iterator[Page]:
    context = browser.new_context(
        base_url=server.url, viewport={"width": 1280, "height": 900}, color_scheme=scheme
    )
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    opened = context.new_page()
    problems: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            problems.append(message.text)

    opened.on("console", on_console)
    opened.on("pageerror", lambda error: problems.append(str(error)))
    yield opened
    context.close()
    assert problems == [], problems


def test_the_dashboard_draws_its_charts_and_the_filters_change_them(
    page: Page, scheme: Scheme
) -> None:
    page.goto("/")
    page.get_by_role("link", name="Dashboard", exact=True).click()
    expect(page).to_have_url(re.compile(r"/stats$"))
    dashboard = page.locator("[data-dashboard][data-drawn]")
    expect(dashboard).to_be_visible()
    for chart in ("usage", "sessions", "tools", "activity"):
        canvas = page.locator(f'[data-chart="{chart}"] canvas')
        expect(canvas).to_have_count(1)
        box = canvas.bounding_box()
        assert box is not None and box["width"] > 200 and box["height"] > 100, chart
    assert pixels_of(page, '[data-chart="usage"]', "--chart-4") > 50  # cache-read bars
    assert pixels_of(page, '[data-chart="sessions"]', "--chart-5") > 20
    assert pixels_of(page, '[data-chart="tools"]', "--chart-1") > 500  # calls bars
    everything = page.locator("[data-total-tokens]").inner_text()
    tool_bars = pixels_of(page, '[data-chart="tools"]', "--chart-1")
    tools = page.locator("table.tools tbody tr").count()
    # The heatmap says what is under the pointer.
    heatmap = page.locator('[data-chart="activity"] .u-over')
    heatmap.hover(position={"x": 30, "y": 10})
    readout = page.locator('[data-readout="activity"]')
    expect(readout).to_contain_text(re.compile(r"^Mon \d\d:00–\d\d:00: \d+ responses?$"))
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"web-dashboard-{scheme}.png"), full_page=True)

    page.get_by_label("Project").select_option(value=DEEP_MANIFEST)
    page.get_by_label("Over time by").select_option("week")
    page.get_by_role("button", name="Apply").click()
    expect(page).to_have_url(re.compile(f"project={re.escape(DEEP_MANIFEST)}.*by=week"))
    expect(page.locator("[data-dashboard][data-drawn]")).to_be_visible()
    assert page.locator("[data-total-tokens]").inner_text() != everything
    assert 0 < page.locator("table.tools tbody tr").count() < tools
    assert pixels_of(page, '[data-chart="tools"]', "--chart-1") not in (0, tool_bars)
    expect(page.get_by_role("heading", name="Tokens and cost by week")).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / f"web-dashboard-project-{scheme}.png"), full_page=True)


def _find_a_call(page: Page) -> str:
    """Move over the strip until the readout describes a tool call; the readout's text.

    The readout follows the pointer a frame late, so a spot counts only when the readout still
    describes the same call after the pointer has been there a second time.
    """
    over = page.locator('[data-chart="strip"] .u-over')
    box = over.bounding_box()
    assert box is not None
    readout = page.locator('[data-readout="strip"]')
    for fraction in (0.3, 0.42, 0.55, 0.7, 0.85):
        for x in range(2, int(box["width"]) - 2, 4):
            spot: Position = {"x": x, "y": box["height"] * fraction}
            over.hover(position=spot)
            text = readout.inner_text()
            if "click to open it" in text:
                page.wait_for_timeout(100)
                over.hover(position=spot)
                if readout.inner_text() == text:
                    return text
    raise AssertionError("no tool call found in the strip")


def test_the_session_timeline_shows_turns_calls_and_context(page: Page, scheme: Scheme) -> None:
    page.goto(f"/sessions/{WITH_SUBAGENTS}")
    panel = page.locator("[data-timeline][data-drawn]")
    expect(panel).to_be_visible()
    expect(page.locator("[data-timeline-summary]")).to_contain_text("tool call")
    # A compact strip first: the context chart opens on demand.
    strip_box = page.locator('[data-chart="strip"] canvas').bounding_box()
    assert strip_box is not None and strip_box["height"] <= 120
    expect(page.locator('[data-chart="context"]')).to_be_hidden()
    page.locator("[data-timeline-more]").click()
    for chart in ("strip", "context"):
        canvas = page.locator(f'[data-chart="{chart}"] canvas')
        expect(canvas).to_have_count(1)
        box = canvas.bounding_box()
        assert box is not None and box["width"] > 200 and box["height"] > 40, chart
    assert pixels_of(page, '[data-chart="context"]', "--chart-1") > 100  # the context line
    expect(page.locator("[data-legend] .legend-item").first).to_be_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"web-timeline-{scheme}.png"))

    described = _find_a_call(page)
    name = described.split(" · ", 1)[0]
    page.mouse.down()
    page.mouse.up()
    expect(page).to_have_url(re.compile(r"#tool-"))
    anchor = page.evaluate("decodeURIComponent(location.hash.slice(1))")
    target = page.locator(f'[id="{anchor}"]')
    expect(target).to_be_in_viewport()
    assert target.get_attribute("data-tool") == name


def test_the_session_page_draws_its_timeline_once(page: Page, scheme: Scheme) -> None:
    # The live stream opening with nothing changed is no news: no cclens:updated, and the
    # charts drawn for this revision stay (they were destroyed and rebuilt 300 ms later).
    page.add_init_script(
        "window.cclensUpdates = 0;"
        "document.addEventListener('cclens:updated', () => { window.cclensUpdates += 1; });"
    )
    page.goto(f"/sessions/{WITH_SUBAGENTS}")
    expect(page.locator("[data-timeline][data-drawn]")).to_be_visible()
    strip = page.locator('[data-chart="strip"] canvas').element_handle()
    page.wait_for_timeout(2000)  # the stream opens and catches up meanwhile
    assert page.evaluate("window.cclensUpdates") == 0
    assert strip.evaluate("canvas => canvas.isConnected")
    # Its summary gives the session's figures, as the header does.
    header = page.locator("header.session-head")
    calls = header.get_attribute("data-tool-calls")
    failed = header.get_attribute("data-failed")
    summary = page.locator("[data-timeline-summary]")
    expect(summary).to_contain_text(f"{calls} tool calls ({failed} failed)")


def test_the_permissions_pages(page: Page, scheme: Scheme) -> None:
    page.goto("/")
    page.get_by_role("link", name="Permissions", exact=True).click()
    expect(page.get_by_role("heading", name="Permissions", exact=True)).to_be_visible()
    rows = page.locator("table.permissions-overview tbody tr")
    expect(rows.first).to_be_visible()  # a busy machine may draw the page before its figures
    assert rows.count() > 10
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"web-permissions-{scheme}.png"))
    page.locator(f'tr[data-project="{DEEP_MANIFEST}"] a').click()
    expect(page).to_have_url(re.compile(r"/projects/.*deep-manifest/permissions$"))
    expect(page.get_by_role("heading", name="Suggested rules")).to_be_visible()
    expect(page.locator("table.rejected tbody tr")).to_have_count(1)
    page.screenshot(path=str(ARTIFACTS / f"web-project-permissions-{scheme}.png"))

    # "Copy" copies what the page says to paste: the rule, as the file's permissions.allow
    # list holds it.
    first = page.locator(".suggestion").first
    expect(first).to_contain_text("Paste into permissions.allow of")
    first.get_by_role("button", name="Copy").first.click()
    expect(first.get_by_role("button", name="Copy").first).to_have_text("Copied")
    copied = json.loads(page.evaluate("navigator.clipboard.readText()"))
    assert copied == first.locator("code.rule").inner_text()
    # Its PermissionUpdate is there too, folded, with its own button.
    first.get_by_text("As a PermissionUpdate").click()
    first.get_by_role("button", name="Copy").last.click()
    update = json.loads(page.evaluate("navigator.clipboard.readText()"))
    assert update["type"] == "addRules" and update["behavior"] == "allow"
    assert update["destination"] in ("localSettings", "projectSettings")

    page.get_by_role("link", name="ask", exact=True).click()
    expect(page.locator("table.every tbody tr").first).to_be_visible()
    behaviors = page.locator("table.every tbody tr").evaluate_all(
        "rows => rows.map(row => row.dataset.behavior)"
    )
    assert behaviors and set(behaviors) == {"ask"}


def test_pages_drawn_before_their_figures_fill_in_by_themselves(
    browser: Browser, claude_dir: Path, tmp_path: Path
) -> None:
    # Pages that do not wait at all, and no audit ahead of the first visit: as the first view
    # of a very large index.
    with running(
        [claude_dir], tmp_path / "index.db", page_wait_seconds=0.0, audit_on_start=False
    ) as started:
        context = browser.new_context(base_url=started.url)
        opened = context.new_page()
        problems: list[str] = []
        opened.on("pageerror", lambda error: problems.append(str(error)))
        opened.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        # The first answer is the pending page; it is read over plain HTTP because in the
        # browser the page may already have reloaded itself (figures ready) before its body
        # could be read.
        assert "data-pending" in httpx.get(f"{started.url}stats", timeout=10).text
        opened.goto("/stats")
        expect(opened.locator("[data-dashboard][data-drawn]")).to_be_visible(timeout=20_000)
        assert opened.locator('[data-chart="usage"] canvas').count() == 1
        assert "Auditing" in httpx.get(f"{started.url}permissions", timeout=10).text
        opened.goto("/permissions")
        expect(opened.locator("table.permissions-overview")).to_be_visible(timeout=20_000)
        context.close()
    assert problems == [], problems


def test_the_timeline_follows_live_updates(page: Page, claude_dir: Path) -> None:
    path = transcript(claude_dir, WITH_SUBAGENTS)
    page.goto(f"/sessions/{WITH_SUBAGENTS}")
    panel = page.locator("[data-timeline][data-drawn]")
    expect(panel).to_be_visible()
    summary = page.locator("[data-timeline-summary]")
    turns = int(summary.inner_text().split(" turn", 1)[0])
    drawn = panel.get_attribute("data-drawn")
    page.wait_for_timeout(300)  # the page's event stream connects
    line, _ = prompt_line(path, "one more turn for the timeline")
    with path.open("ab") as handle:
        handle.write(line)
    expect(page.locator("[data-timeline]")).not_to_have_attribute("data-drawn", drawn or "")
    expect(summary).to_contain_text(f"{turns + 1} turns")
