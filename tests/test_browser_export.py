"""An exported page opened from file:// in Chromium: what a person sees and can do with it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, expect, sync_playwright

from cclens.export import export_html
from cclens.readers.claude import AssistantItem, load_session

from .conftest import CORPUS, ROOT

pytestmark = pytest.mark.browser

SESSION = (
    CORPUS
    / "iansherr__claude-code-log/test/test_data/real_projects/-Users-dain-workspace-JSSoundRecorder"
    / "7acd37a8-2745-4b58-a8a9-46164b22ad9e.jsonl"
)
#: The Read call with the largest output of SESSION (16 kB, past the first chunk).
LARGEST_READ = "toolu_01Xw1tnFcgk7KwbWa9ie1SoX"
ARTIFACTS = ROOT / "test-artifacts"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("export") / "session.html"
    path.write_text(export_html(load_session(SESSION)), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        yield launched
        launched.close()


class Watched:
    """A page with its console errors, page errors and requests recorded."""

    def __init__(self, browser: Browser, url: str, **context: object) -> None:
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page: Page = browser.new_page(**context)  # type: ignore[arg-type]
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.goto(url)

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.errors.append(message.text)

    def check_clean(self) -> None:
        assert self.errors == []
        assert [url for url in self.requests if not url.startswith("file://")] == []


def test_the_page_works(browser: Browser, exported: Path) -> None:
    watched = Watched(browser, exported.as_uri(), viewport={"width": 1280, "height": 900})
    page = watched.page
    # Titled by the first prompt the user typed, not by the /init command before it.
    assert page.locator(".session-title").inner_text().startswith("OK, so this was just so you")
    assert page.locator(".facts").is_visible()
    assert page.locator("section.tool").first.is_visible()
    assert page.locator(".msg-user").first.is_visible()

    thinking = page.locator("details.thinking").first
    assert thinking.get_attribute("open") is None
    assert not thinking.locator(".md").is_visible()
    thinking.locator("summary").click()
    assert thinking.get_attribute("open") == ""
    # A folded part is drawn when opened: wait for it (a loaded machine takes a while).
    expect(thinking.locator(".md")).to_be_visible()

    # Tool calls are folded, one line each; opening one draws its body (its own view).
    tool = page.locator("section.tool").first
    assert tool.get_attribute("data-view")
    assert tool.locator(".tool-body").inner_html() == ""
    tool.locator("summary.tool-head").click()
    expect(tool.locator(".tool-body > *").first).to_be_visible()

    # The largest file read, in a later chunk: revealed, opened, its long content clamped.
    page.evaluate(f"window.cclens.reveal('tool-{LARGEST_READ}')")
    read = page.locator(f"[id='tool-{LARGEST_READ}']")
    expect(read).to_be_visible()
    assert "lines" in read.locator(".tool-output-size").inner_text()
    read.locator("summary.tool-head").click()
    expand = read.locator(".tool-body[data-ready] button.expand").first
    clamp = expand.locator("xpath=preceding-sibling::div[1]")
    expand.scroll_into_view_if_needed()
    assert "is-clamped" in (clamp.get_attribute("class") or "")
    height = clamp.bounding_box()
    expand.click()
    assert "is-clamped" not in (clamp.get_attribute("class") or "")
    assert expand.inner_text() == "Show less"
    taller = clamp.bounding_box()
    assert height is not None and taller is not None and taller["height"] > height["height"]

    # "Open all" is remembered for every page: a reload opens every call of the first chunk.
    page.click("[data-action=fold]")
    assert page.evaluate("localStorage.getItem('cclens-fold')") == "open"
    page.reload()
    expect(page.locator("details.tool-details").first).to_have_attribute("open", "")
    expect(page.locator("section.tool .tool-body[data-ready]").first).to_be_attached()
    page.click("[data-action=fold]")
    assert page.locator("details.tool-details[open]").count() == 0
    assert page.evaluate("localStorage.getItem('cclens-fold')") == "folded"

    noisy = page.locator(".noisy")
    if noisy.count():
        assert not noisy.first.is_visible()
        page.click("[data-action=details]")
        assert noisy.first.is_visible()
        page.click("[data-action=details]")

    page.locator("body").click(position={"x": 5, "y": 5})
    ids = page.eval_on_selector_all(
        ".msg", "els => els.filter(e => e.offsetParent !== null).map(e => e.id)"
    )
    page.keyboard.press("j")
    assert page.evaluate("document.activeElement.id") == ids[0]
    page.keyboard.press("j")
    page.keyboard.press("j")
    assert page.evaluate("document.activeElement.id") == ids[2]
    page.keyboard.press("k")
    assert page.evaluate("document.activeElement.id") == ids[1]
    assert page.locator(".msg.current").count() == 1

    page.click("[data-action=theme]")
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    page.reload()  # one setting for every page, applied before the first paint
    assert page.evaluate("document.documentElement.dataset.theme") == "light"

    ARTIFACTS.mkdir(exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(ARTIFACTS / "export-light.png"))
    watched.check_clean()
    watched.page.close()


@pytest.mark.parametrize(
    ("name", "context"),
    [
        ("export-dark.png", {"viewport": {"width": 1280, "height": 900}, "color_scheme": "dark"}),
        ("export-phone.png", {"viewport": {"width": 390, "height": 844}, "is_mobile": True}),
    ],
)
def test_themes_and_phone(
    browser: Browser, exported: Path, name: str, context: dict[str, object]
) -> None:
    watched = Watched(browser, exported.as_uri(), **context)
    page = watched.page
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    if context.get("color_scheme") == "dark":
        assert background == "rgb(13, 17, 23)"
    else:
        # Nothing sticks out sideways on a phone.
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390
    page.screenshot(path=str(ARTIFACTS / name))
    watched.check_clean()
    watched.page.close()


def test_anchor_opens_what_hides_it(browser: Browser, exported: Path) -> None:
    # A message far down the session is in a chunk not drawn yet: opening its link draws it.
    session = load_session(SESSION)
    target = [i for i in session.main_line if isinstance(i, AssistantItem)][-2].anchor
    watched = Watched(browser, exported.as_uri() + "#" + target)
    message = watched.page.locator(f"[id='{target}']")
    expect(message).to_be_in_viewport()
    watched.check_clean()
    watched.page.close()
