"""Reading like a power user, in Chromium (issue 19): the conversation on the first screen, a
compact timeline, one theme control, rows that say what they did, calls made together grouped,
repeated events quiet, "Show all" that keeps its lines apart, a dense sessions view (a table
on a wide screen, compact cards and filters behind a button on a phone, filters as you type),
and a dashboard with a calendar, a day-by-hour grid and a live block that says when none is
active. At 1400 x 900 and at 390 px."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import httpx
import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, expect

from cclens.readers.claude import load_session
from cclens.render.summary import first_line
from cclens.web import RunningServer

from . import test_browser_web, test_web
from .conftest import corpus_files

pytestmark = pytest.mark.browser

#: Opens a page of the given width (and height) on the server; console errors fail the test.
Opener = Callable[..., Page]

browser = test_browser_web.browser
server = test_web.server

WITH_SUBAGENTS = "ef958aa1-0e93-49f0-bb71-150f63befcd1"
#: A session with a Read of 307 lines (folded past its first lines) and Glob calls with a path.
READS = "7acd37a8-2745-4b58-a8a9-46164b22ad9e"
LONG_READ = "toolu_01Xw1tnFcgk7KwbWa9ie1SoX"
GLOB_SESSION = "a7da6a22-facc-4fcd-8bab-f83c87862004"
GLOB = "toolu_015eCDEgFvqi34t41ULAPK2J"


@pytest.fixture
def open_page(browser: Browser, server: RunningServer) -> Iterator[Opener]:
    contexts = []
    problems: list[str] = []

    def make(width: int, height: int = 900) -> Page:
        context = browser.new_context(
            base_url=server.url, viewport={"width": width, "height": height}
        )
        context.grant_permissions(["clipboard-read", "clipboard-write"])
        contexts.append(context)
        page = context.new_page()

        def on_console(message: ConsoleMessage) -> None:
            if message.type == "error":
                problems.append(message.text)

        page.on("console", on_console)
        page.on("pageerror", lambda error: problems.append(str(error)))
        return page

    yield make
    for context in contexts:
        context.close()
    assert problems == [], problems


@pytest.mark.parametrize(("width", "height"), [(1400, 900), (390, 844)])
def test_the_conversation_is_on_the_first_screen(
    open_page: Opener, width: int, height: int
) -> None:
    page = open_page(width, height)
    page.goto(f"/sessions/{WITH_SUBAGENTS}", wait_until="load")
    expect(page.locator("[data-timeline][data-drawn]")).to_be_attached()
    title = page.locator("h1.session-title").bounding_box()
    first = page.locator("main.session .msg").first.bounding_box()
    assert title is not None and first is not None
    assert title["y"] < height / 2
    assert first["y"] < height  # the first message starts on the first screen
    # The timeline is a compact strip; its context chart opens on demand.
    strip = page.locator("[data-timeline]").bounding_box()
    canvas = page.locator('[data-chart="strip"] canvas').bounding_box()
    assert strip is not None and canvas is not None
    assert canvas["height"] <= 120 and strip["height"] <= 200
    expect(page.locator('[data-chart="context"]')).to_be_hidden()
    # One theme control.
    expect(page.get_by_role("button", name=re.compile("theme", re.I))).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_rows_say_what_each_call_did(open_page: Opener) -> None:
    page = open_page(1400)
    page.goto(f"/sessions/{WITH_SUBAGENTS}", wait_until="load")
    session = load_session(next(p for p in corpus_files() if p.stem == WITH_SUBAGENTS))
    bash = [c for c in session.tool_calls.values() if c.name == "Bash" and c.item.main]
    assert bash
    for call in bash[:3]:
        row = page.locator(f'[id="tool-{call.id}"] > details > summary')
        if row.count() == 0:
            continue  # in a chunk not drawn yet
        argument = row.locator("code.tool-argument")
        expect(argument).to_have_text(first_line(call.block.input["command"]))
        assert argument.evaluate("e => getComputedStyle(e).fontFamily").count("mono") >= 1
        description = call.block.input.get("description")
        if description:
            expect(row.locator(".tool-note")).to_have_text(description)
    # Calls made together are one group that says so.
    group = page.locator(".tool-group").first
    expect(group.locator(".tool-group-head")).to_have_text(re.compile(r"^\d+ calls in parallel$"))
    count = int(group.locator(".tool-group-head").inner_text().split()[0])
    assert group.locator(":scope > section.tool").count() == count
    # A Glob names its pattern and where it looked.
    page.goto(f"/sessions/{GLOB_SESSION}#tool-{GLOB}", wait_until="load")
    glob = load_session(next(p for p in corpus_files() if p.stem == GLOB_SESSION)).tool_calls[GLOB]
    row = page.locator(f'[id="tool-{GLOB}"] > details > summary')
    expect(row.locator("code.tool-argument")).to_have_text(glob.block.input["pattern"])
    expect(row.locator(".tool-note")).to_contain_text(glob.block.input["path"])


def test_repeated_events_are_one_line_with_a_count(open_page: Opener) -> None:
    page = open_page(1400)
    page.goto(f"/sessions/{WITH_SUBAGENTS}", wait_until="load")
    count = page.locator("button[data-repeats]").first
    expect(count).to_have_text(re.compile(r"^×\d+$"))
    head = count.get_attribute("data-repeats")
    times = int(count.inner_text()[1:])
    repeats = page.locator(f'[data-repeat-of="{head}"]')
    drawn = repeats.count()
    assert 0 < drawn <= times - 1
    for index in range(drawn):
        expect(repeats.nth(index)).to_be_hidden()
    count.click()
    expect(count).to_have_attribute("aria-expanded", "true")
    for index in range(drawn):
        expect(repeats.nth(index)).to_be_visible()
    count.click()
    expect(repeats.first).to_be_hidden()
    page.locator('.toolbar [data-action="details"]').click()  # "Show details" shows each
    expect(repeats.first).to_be_visible()


def test_show_all_keeps_every_line_apart(open_page: Opener) -> None:
    page = open_page(1400)
    page.goto(f"/sessions/{READS}#tool-{LONG_READ}", wait_until="load")
    tool = page.locator(f'[id="tool-{LONG_READ}"]')
    expect(tool.locator("details.tool-details")).to_have_attribute("open", "")
    expand = tool.locator("button.expand").first
    expect(expand).to_have_text(re.compile(r"^Show all \d+ lines$"))
    lines = int(expand.get_attribute("data-lines") or "0")
    expand.click()
    code = tool.locator(".clamp pre code").first
    shown = code.evaluate("c => c.querySelectorAll('.line').length")
    assert shown == lines
    text = code.inner_text()
    # Each line on its own line: as many line breaks as lines, less one (the first hidden
    # line is not glued onto the last shown one).
    assert text.rstrip("\n").count("\n") == lines - 1


def test_the_sessions_view_is_dense_on_a_desktop(open_page: Opener) -> None:
    page = open_page(1400, 900)
    page.goto("/sessions", wait_until="load")
    rows = page.locator("tr[data-session]")
    boxes = [rows.nth(i).bounding_box() for i in range(min(rows.count(), 30))]
    seen = [box for box in boxes if box is not None and box["y"] + box["height"] <= 900]
    assert len(seen) >= 15
    # The resume command is a small copy control.
    button = rows.first.locator("button.copy-command")
    box = button.bounding_box()
    assert box is not None and box["width"] <= 32
    command = button.get_attribute("data-copy-text") or ""
    button.click()
    expect(button).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == command
    expect(button.locator("svg")).to_have_count(1, timeout=3000)  # the icon comes back
    # Filters apply as you type, and the address follows.
    field = page.get_by_label("Words in the title, first prompt, directory or session id")
    field.press_sequentially("music")
    expect(page).to_have_url(re.compile(r"q=music"))
    expect(rows).not_to_have_count(50)
    expect(field).to_be_focused()
    # Archived says how many sessions each choice keeps.
    options = page.get_by_label("Archived").locator("option").all_inner_texts()
    assert any(re.search(r"archived only \(\d+", text) for text in options)


def test_the_sessions_view_is_compact_cards_on_a_phone(open_page: Opener) -> None:
    page = open_page(390, 844)
    page.goto("/sessions", wait_until="load")
    rows = page.locator("tr[data-session]")
    for index in range(10):
        box = rows.nth(index).bounding_box()
        assert box is not None and box["height"] <= 140, index
    # The filters wait behind a button; the words field is there at once.
    project = page.locator('.list-filters input[name="project"]')
    expect(project).to_be_hidden()
    expect(
        page.get_by_label("Words in the title, first prompt, directory or session id")
    ).to_be_visible()
    page.locator("[data-filters-toggle]").click()
    expect(project).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.parametrize("width", [1400, 390])
def test_the_dashboard_has_a_calendar_an_hour_grid_and_an_honest_block(
    open_page: Opener, server: RunningServer, width: int
) -> None:
    with httpx.Client(base_url=server.url, timeout=300) as client:
        figures = client.get("/api/stats").json()
    page = open_page(width)
    page.goto("/stats", wait_until="load")
    calendar = page.locator("[data-calendar]")
    expect(calendar).to_be_visible()
    days = {
        row["key"]: row["responses"]
        for row in figures["days"]
        if row["responses"] and re.match(r"\d{4}-\d\d-\d\d$", row["key"])
    }
    last = max(days)
    cell = calendar.locator(f'td[data-day="{last}"]')
    expect(cell).to_have_attribute("data-responses", str(days[last]))
    assert calendar.locator("td.lv4").count() >= 1
    grid = page.locator("[data-day-hours]")
    expect(grid).to_be_visible()
    assert grid.locator("tbody tr").count() == len(figures["day_hours"])
    # No response in the last five hours: the panel says so, and shows no empty figures.
    block = page.locator("[data-live-block]")
    expect(block.locator("[data-block-idle]")).to_be_visible()
    expect(block.locator("[data-block-idle]")).to_contain_text("No active block")
    expect(block.locator("[data-block-active]")).to_be_hidden()
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_the_timeline_squeezes_idle_time(open_page: Opener) -> None:
    # A session of 13 hours with 92 calls made in a few bursts.
    page = open_page(1400)
    page.goto("/sessions/9e953218-585f-4692-89df-9e0747a31c68", wait_until="load")
    panel = page.locator("[data-timeline][data-drawn]")
    expect(panel).to_be_attached()
    assert int(panel.get_attribute("data-gaps") or "0") >= 1
    page.locator("[data-timeline-more]").click()
    expect(page.locator('[data-chart="context"] canvas')).to_have_count(1)
    expect(page.locator("[data-legend] .legend-item").first).to_be_visible()
    page.locator("[data-timeline-more]").click()  # back to the compact strip
    expect(page.locator('[data-chart="context"]')).to_be_hidden()
