"""What a person sees in Chromium: browse, search, land on the message, watch it live."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, expect, sync_playwright

from cclens.web import RunningServer

from .test_index import WITH_SUBAGENTS, prompt_line, transcript
from .test_index_layout import make_claude_dir
from .test_web import running

pytestmark = pytest.mark.browser

SMALL = "fed8ce56-bc79-401f-a83e-af084253362f"
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
            ],
        )
        yield launched
        launched.close()


@pytest.fixture
def claude_dir(corpus: Path, tmp_path: Path) -> Path:
    return make_claude_dir(corpus, tmp_path / "claude")


@pytest.fixture
def server(claude_dir: Path, tmp_path: Path) -> Iterator[RunningServer]:
    with running([claude_dir], tmp_path / "index.db") as started:
        yield started


@pytest.fixture
def page(browser: Browser, server: RunningServer) -> Iterator[Page]:
    context = browser.new_context(base_url=server.url, viewport={"width": 1280, "height": 900})
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


def by_id(page: Page, anchor: str) -> object:
    return page.locator(f'[id="{anchor}"]')


def test_projects_then_a_session_then_a_search_hit_lands_on_its_message(page: Page) -> None:
    page.goto("/")
    page.get_by_role("navigation", name="Site").get_by_role("link", name="Projects").click()
    expect(page.get_by_role("heading", name="Projects")).to_be_visible()
    page.get_by_role("link", name="-experiments/worktrees").click()
    expect(page).to_have_url(re.compile(r"/projects/.*experiments-worktrees$"))
    page.locator("a.session-title").first.click()
    expect(page).to_have_url(re.compile(f"/sessions/{WITH_SUBAGENTS}$"))
    expect(page.locator("main h1").first).to_be_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-session.png"))

    page.get_by_label("Search every session").fill("comparison")
    page.get_by_label("Search every session").press("Enter")
    expect(page).to_have_url(re.compile(r"/search\?q=comparison"))
    page.get_by_label("Project").select_option(label="-experiments/worktrees")
    page.get_by_role("button", name="Search").click()
    hit = page.locator("a.hit-link").first
    expect(hit).to_be_visible()
    expect(page.locator(".hit mark").first).to_have_text(re.compile("comparison", re.I))
    page.screenshot(path=str(ARTIFACTS / "web-search.png"))
    href = hit.get_attribute("href")
    assert href is not None and href.startswith(f"/sessions/{WITH_SUBAGENTS}?hl=comparison&part=")
    anchor = href.split("#", 1)[1]
    hit.click()
    target = page.locator(f'[id="{anchor}"]')
    expect(target).to_be_in_viewport()
    assert page.evaluate("window.scrollY") > 500  # the message is far down: the page moved


def test_a_hit_inside_a_subagent_opens_its_conversation(page: Page) -> None:
    page.goto("/search?q=Beads&kind=tool_output")
    hit = page.locator(".hit", has=page.locator(".badge.subagent")).first.locator("a.hit-link")
    href = hit.get_attribute("href")
    assert href is not None
    hit.click()
    expect(page.locator(f'[id="{href.split("#", 1)[1]}"]')).to_be_in_viewport()
    assert page.evaluate("window.scrollY") > 500


def test_appended_lines_appear_in_the_open_page(page: Page, claude_dir: Path) -> None:
    path = transcript(claude_dir, SMALL)
    page.goto(f"/sessions/{SMALL}")
    expect(page.locator("main").first).to_be_visible()
    page.wait_for_timeout(300)  # the page's event stream connects
    for words in ("the first live ocelot", "and a second live ocelot"):
        line, uuid = prompt_line(path, words)
        with path.open("ab") as handle:
            handle.write(line)
        expect(page.locator(f'[id="{uuid}"]')).to_contain_text(words, timeout=2000)
    assert page.locator("text=live ocelot").count() == 2


def test_a_deleted_transcript_is_still_shown_marked_archived(
    page: Page, claude_dir: Path, tmp_path: Path
) -> None:
    path = transcript(claude_dir, WITH_SUBAGENTS)
    page.goto(f"/sessions/{WITH_SUBAGENTS}")
    banner = page.locator("[data-archived-banner]")
    expect(banner).to_be_hidden()
    page.wait_for_timeout(300)
    shutil.move(path, tmp_path / path.name)
    shutil.rmtree(path.with_suffix(""))
    expect(banner).to_be_visible(timeout=3000)  # without a reload
    page.reload()
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("cclens restore")
    expect(page.locator("article").first).to_be_visible()
    page.goto("/projects")
    page.get_by_role("link", name="-experiments/worktrees").click()
    expect(page.locator("tr.is-archived .badge.archived")).to_be_visible()
    page.goto("/search?q=worktree")
    expect(page.locator(".group .badge.archived").first).to_be_visible()


def test_new_sessions_appear_on_the_project_page(page: Page, claude_dir: Path) -> None:
    path = transcript(claude_dir, SMALL)
    page.goto("/projects")
    page.get_by_role("link", name="/Users/chip/dev/ai-music").click()
    expect(page.get_by_role("heading", name="/Users/chip/dev/ai-music")).to_be_visible()
    rows = page.locator("tr[data-session]")
    expect(rows.first).to_be_visible()
    before = rows.count()
    copy = path.with_name("00000000-0000-4000-8000-00000000c0de.jsonl")
    copy.write_bytes(path.read_bytes())
    expect(rows).to_have_count(before + 1, timeout=3000)
