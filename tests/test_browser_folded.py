"""Folded parts in Chromium, in an exported file and in the web app: what is folded is not in the
document until opened, opening draws it, and a search hit's deep link (``?hl=…&part=…#target``)
lands on the highlighted term inside a folded tool output, a subagent's message and thinking."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from cclens.export import export_html
from cclens.model.blocks import TextBlock, ThinkingBlock
from cclens.readers.claude import AssistantItem, Session, load_session
from cclens.web import RunningServer

from .conftest import CORPUS
from .test_browser_web import claude_dir, server  # noqa: F401 (fixtures)
from .test_index import WITH_SUBAGENTS

pytestmark = pytest.mark.browser

REAL = CORPUS / "iansherr__claude-code-log/test/test_data/real_projects"
THINKING_SESSION = (
    REAL / "-Users-dain-workspace-JSSoundRecorder/7acd37a8-2745-4b58-a8a9-46164b22ad9e.jsonl"
)
AGENTS_SESSION = REAL / f"-experiments-worktrees/{WITH_SUBAGENTS}.jsonl"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]
_WORD = re.compile(r"\b[A-Za-z][A-Za-z_]{6,}\b")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        yield launched
        launched.close()


def _word(text: str, *, last: bool = False) -> str:
    words: list[str] = _WORD.findall(text)
    assert words, text[:200]
    return words[-1] if last else words[0]


def output_target(session: Session) -> tuple[str, str]:
    """The largest Bash or Read output of ``session`` and a word near its end (below the clamp)."""
    calls = [c for c in session.tool_calls.values() if c.name in ("Bash", "Read")]
    call = max(calls, key=lambda c: len(c.result_text))
    shown = call.result_text.split("<system-reminder>")[0]  # what the view draws
    tail = "\n".join(shown.strip().splitlines()[-6:])
    return f"tool-{call.id}", _word(tail, last=True)


def thinking_target(session: Session) -> tuple[str, str]:
    """A message far down ``session`` with thinking, and a word of that thinking."""
    found = [
        (item.anchor, block.thinking)
        for item in session.main_line
        if isinstance(item, AssistantItem)
        for block in item.blocks
        if isinstance(block, ThinkingBlock) and _WORD.search(block.thinking)
    ]
    anchor, text = found[-1]
    return anchor, _word(text)


def subagent_target(session: Session) -> tuple[str, str]:
    """A subagent's answer and a word of it."""
    for agent in session.subagents:
        for item in agent.items:
            if isinstance(item, AssistantItem):
                texts = [b.text for b in item.blocks if isinstance(b, TextBlock)]
                if texts and _WORD.search(texts[0]):
                    return item.anchor, _word(texts[0])
    raise AssertionError("no subagent answer")


def deep_link(base: str, target: str, term: str, part: str) -> str:
    return f"{base}?{urlencode([('hl', term), ('part', part)])}#{target}"


def assert_lands_on(page: Page, target: str, term: str) -> None:
    """The first highlighted match is in view, inside the target."""
    mark = page.locator(f"[id='{target}'] mark.hl").first
    expect(mark).to_be_visible()
    expect(mark).to_be_in_viewport()
    assert mark.inner_text().lower() == term.lower()


def dom_nodes(page: Page) -> int:
    return int(page.evaluate("document.getElementsByTagName('*').length"))


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("folded")
    files = {}
    for name, path in (("thinking", THINKING_SESSION), ("agents", AGENTS_SESSION)):
        files[name] = folder / f"{name}.html"
        files[name].write_text(export_html(load_session(path)), encoding="utf-8")
    return files


def open_page(browser: Browser, url: str) -> tuple[Page, list[str]]:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(url)
    return page, errors


def test_what_is_folded_is_not_in_the_document_until_opened(
    browser: Browser, exported: dict[Path, Path]
) -> None:
    page, errors = open_page(browser, exported["agents"].as_uri())  # type: ignore[index]
    tools = page.locator("section.tool")
    assert tools.count() > 5
    assert page.locator(".tool-body[data-ready]").count() == 0
    assert page.locator("article.msg .tool-input, .nested-items article").count() == 0
    before = dom_nodes(page)
    agent = page.locator("section.tool[data-tool=Agent]").first
    assert agent.get_attribute("data-view") == "agent"
    agent.locator("summary.tool-head").click()
    body = agent.locator(".tool-body[data-ready]")
    expect(body.locator(".tool-input")).to_be_visible()
    nested = body.locator("details.nested-session").first
    assert nested.locator(".nested-items").inner_html() == ""  # the conversation: folded still
    nested.locator("summary").click()
    expect(nested.locator(".nested-items article.msg").first).to_be_visible()
    assert dom_nodes(page) > before
    # A record's JSON is drawn when "{ } record" is opened.
    raw = page.locator("details.raw").first
    if raw.count():
        page.click("[data-action=details]")
        raw.locator("summary").click()
        expect(raw.locator(".json").first).to_be_visible()
    assert errors == []
    page.close()


def unshown_target(session: Session) -> tuple[str, str]:
    """The last todo list of ``session`` and a word only of the text the model read (Claude
    Code's confirmation, which the todo view does not draw)."""
    calls = [c for c in session.tool_calls.values() if c.name == "TodoWrite"]
    assert "modified successfully" in calls[-1].result_text
    return f"tool-{calls[-1].id}", "successfully"


@pytest.mark.parametrize("kind", ["tool_output", "thinking", "subagent", "unshown"])
def test_a_deep_link_in_an_export_lands_on_the_highlighted_term(
    browser: Browser, exported: dict[str, Path], kind: str
) -> None:
    if kind == "subagent":
        file, (target, term) = exported["agents"], subagent_target(load_session(AGENTS_SESSION))
        part = "assistant"
    elif kind == "unshown":  # words the model read that the tool's view does not draw
        file, (target, term) = exported["thinking"], unshown_target(load_session(THINKING_SESSION))
        part = "tool_output"
    else:
        session = load_session(THINKING_SESSION)
        file = exported["thinking"]
        target, term = output_target(session) if kind == "tool_output" else thinking_target(session)
        part = kind
    page, errors = open_page(browser, deep_link(file.as_uri(), target, term, part))
    assert_lands_on(page, target, term)
    assert errors == []
    page.close()


def test_keys_move_through_chunks_drawn_on_the_way(
    browser: Browser, exported: dict[str, Path]
) -> None:
    page, errors = open_page(browser, exported["thinking"].as_uri())
    assert page.locator(".chunk[data-lazy]:not([data-ready])").count() >= 1
    page.locator("body").click(position={"x": 5, "y": 5})
    seen = set()
    for _ in range(120):
        page.keyboard.press("j")
        seen.add(page.evaluate("document.activeElement.id"))
    session = load_session(THINKING_SESSION)
    last = [i for i in session.main_line if isinstance(i, AssistantItem)][-1].anchor
    assert last in seen
    assert errors == []
    page.close()


def test_the_web_app_draws_parts_when_opened_and_lands_on_deep_links(
    browser: Browser,
    server: RunningServer,  # noqa: F811 (fixture)
) -> None:
    session = load_session(AGENTS_SESSION)
    base = f"{server.url.rstrip('/')}/sessions/{WITH_SUBAGENTS}"
    page, errors = open_page(browser, base)
    assert page.locator(".tool-body[data-ready]").count() == 0
    parts: list[str] = []
    page.on("request", lambda r: parts.append(r.url) if "/parts/" in r.url else None)
    tool = page.locator("section.tool").first
    tool.locator("summary.tool-head").click()
    expect(tool.locator(".tool-body[data-ready] > *").first).to_be_visible()
    assert any(url.endswith("/parts/t." + str(tool.get_attribute("id"))[5:]) for url in parts)
    page.close()

    target, term = subagent_target(session)
    page, errors = open_page(browser, deep_link(base, target, term, "assistant"))
    assert_lands_on(page, target, term)
    page.close()

    target, term = output_target(session)
    page, more = open_page(browser, deep_link(base, target, term, "tool_output"))
    assert_lands_on(page, target, term)
    page.close()
    assert errors == [] and more == []
