"""Hostile strings in every field of a session must never execute in the exported page.

A synthetic session carries script tags, event handlers, ``javascript:`` links, SVG payloads and
attribute breakers in prompts, answers, thinking, tool names, MCP server names, file names, JSON
keys, image media types, system and attachment records and metadata. The exported HTML is parsed
and checked (only cclens's own script and style, no event handler attributes, no dangerous URLs),
and opened in Chromium, where no dialog may fire.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from cclens.export import export_html, export_markdown
from cclens.render.assets import page_css, page_js, theme_js
from cclens.render.parts import expand_page

from .test_render_records import Transcript

PAYLOADS = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "<svg onload=alert(1)>",
    '"><script>alert(1)</script>',
    "'><img src=x onerror=alert(1)>",
    "javascript:alert(1)",
    "</textarea></style></script><script>alert(1)</script>",
    "<iframe src=javascript:alert(1)>",
    "{{ 7*7 }}{% raw %}",
]
P = " ".join(PAYLOADS)
MARKDOWN = (
    f"[click](javascript:alert(1)) [x](JaVaScRiPt:alert(1)) [y](java\tscript:alert(1)) "
    f"[d](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==) "
    f"![img](javascript:alert(1)) ![i2](https://evil.example/x.png) "
    f"<a href=javascript:alert(1)>a</a>\n\n"
    f"```html\n{P}\n```\n\n| {P} | b |\n|---|---|\n| `{P}` | <b>x</b> |\n\n{P}"
)
SVG = "PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+PC9zdmc+"


def hostile_session(tmp_path: Path) -> Path:
    t = Transcript(cwd=P, gitBranch=P, version=P, slug=P)
    t.meta({"type": "custom-title", "customTitle": P})
    t.meta({"type": "summary", "summary": P, "leafUuid": P})
    t.meta({"type": "pr-link", "prNumber": 1, "prUrl": "javascript:alert(1)", "prRepository": P})
    t.meta({"type": "frame-link", "path": P, "frameUrl": "javascript:alert(1)", "title": P})
    t.meta({"type": "queue-operation", "operation": "enqueue", "content": P})
    t.meta({"type": P, P: P})
    t.user(MARKDOWN)
    t.user(
        [
            {"type": "text", "text": MARKDOWN},
            {
                "type": "image",
                "source": {
                    "type": "base64",
                    "media_type": 'image/png" onerror="alert(1)',
                    "data": "AAAA",
                },
            },
            {
                "type": "image",
                "source": {"type": "base64", "media_type": "image/svg+xml", "data": SVG},
            },
            {
                "type": "image",
                "source": {
                    "type": "base64",
                    "media_type": "image/png",
                    "data": '"><script>alert(1)</script>',
                },
            },
            {"type": "image", "source": {"type": "url", "url": "javascript:alert(1)"}},
            {"type": P, P: P},
        ]
    )
    t.user(f"<command-name>{P}</command-name><command-args>{P}</command-args>")
    t.user(f"<local-command-stdout>{P}</local-command-stdout>")
    t.assistant(
        {"type": "thinking", "thinking": MARKDOWN, "signature": P},
        {"type": "redacted_thinking", "data": P},
        {"type": "text", "text": MARKDOWN},
        {"type": "server_tool_use", "id": P, "name": P, "input": {P: P}},
        {"type": "fallback", "from": {"model": P}, "to": {"model": P}},
    )
    t.tool(P, {P: P, "file_path": P}, P, {P: P, "nested": [{P: P}]})
    t.tool(f"mcp__{P}__{P}", {P: P}, [{"type": "text", "text": P}], [{"type": "text", "text": P}])
    t.tool(
        "Bash",
        {"command": P, "description": P},
        P,
        {"stdout": P, "stderr": P, "interrupted": False},
    )
    t.tool(
        "Read",
        {"file_path": f"/tmp/{P}.py"},
        P,
        {
            "type": "text",
            "file": {"filePath": P, "content": P, "numLines": 1, "startLine": 1, "totalLines": 1},
        },
    )
    t.tool(
        "Read",
        {"file_path": "/tmp/a.png"},
        [{"type": "image", "source": {"type": "base64", "media_type": P, "data": "AAAA"}}],
        {"type": "image", "file": {"base64": "AAAA", "type": P, "originalSize": 3}},
    )
    t.tool(
        "Edit",
        {"file_path": P, "old_string": P, "new_string": P + "!"},
        P,
        {
            "filePath": P,
            "oldString": P,
            "newString": P,
            "structuredPatch": [
                {
                    "oldStart": 1,
                    "oldLines": 1,
                    "newStart": 1,
                    "newLines": 1,
                    "lines": [f"-{P}", f"+{P}"],
                }
            ],
        },
    )
    t.tool(
        "Write",
        {"file_path": f"{P}.html", "content": P},
        P,
        {"type": "create", "filePath": P, "content": P, "structuredPatch": []},
    )
    t.tool(
        "Grep",
        {"pattern": P, "path": P},
        P,
        {"mode": "files_with_matches", "filenames": [P], "numFiles": 1},
    )
    t.tool(
        "Glob",
        {"pattern": P},
        P,
        {"filenames": [P], "numFiles": 1, "truncated": False, "durationMs": 1},
    )
    t.tool(
        "TodoWrite",
        {"todos": [{"content": P, "status": P, "activeForm": P}]},
        P,
        {"oldTodos": [], "newTodos": [{"content": P, "status": "in_progress", "activeForm": P}]},
    )
    t.tool(
        "WebFetch",
        {"url": "javascript:alert(1)", "prompt": P},
        P,
        {
            "url": "javascript:alert(1)",
            "result": MARKDOWN,
            "code": 200,
            "codeText": P,
            "bytes": 1,
            "durationMs": 1,
        },
    )
    t.tool(
        "WebSearch",
        {"query": P},
        P,
        {
            "query": P,
            "results": [
                {"tool_use_id": P, "content": [{"title": P, "url": "javascript:alert(1)"}]}
            ],
            "durationSeconds": 1,
        },
    )
    t.tool(
        "AskUserQuestion",
        {
            "questions": [
                {
                    "question": P,
                    "header": P,
                    "options": [{"label": P, "description": P}],
                    "multiSelect": False,
                }
            ]
        },
        P,
        {"questions": [], "answers": {P: P}},
    )
    t.tool(
        "ExitPlanMode", {"plan": MARKDOWN}, P, {"plan": MARKDOWN, "isAgent": False, "filePath": P}
    )
    t.tool(
        "Task",
        {"description": P, "prompt": P, "subagent_type": P},
        [{"type": "text", "text": P}],
        {
            "status": "completed",
            "prompt": P,
            "agentId": P,
            "content": [{"type": "text", "text": P}],
            "totalDurationMs": 1,
            "totalTokens": 1,
            "totalToolUseCount": 1,
        },
    )
    t.tool(
        "NotebookEdit",
        {"notebook_path": P, "new_source": P, "cell_id": P},
        P,
        {"new_source": P, "cell_id": P, "language": P, "error": P},
    )
    t.tool("MultiEdit", {"file_path": P, "edits": [{"old_string": P, "new_string": P}]}, P, P)
    t.system("api_error", error={"message": P}, cause=P, content=P)
    t.system(P, content=P, level=P)
    t.system("away_summary", content=MARKDOWN)
    t.system("compact_boundary", content=P, compactMetadata={"trigger": P, "preTokens": 1})
    t.attachment(
        {"type": "hook_blocking_error", "hookName": P, "hookEvent": P, "stderr": P, "command": P}
    )
    t.attachment({"type": "file", "filename": P, "content": {P: P}})
    t.attachment({"type": "queued_command", "prompt": P})
    t.attachment({"type": P, P: P})
    t.chain(
        {
            "type": "progress",
            "data": {"type": "hook_progress", "hookEvent": P, "hookName": P, "command": P},
        }
    )
    return t.write(tmp_path / f"{P.replace('/', '_')[:120]}.jsonl")


class PageAudit(HTMLParser):
    """Collects what could execute or load: scripts, styles, event handlers, URLs."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.scripts: list[str] = []
        self.styles: list[str] = []
        #: ``<script type="application/json">`` elements: data the page's script reads.
        self.data: list[str] = []
        self.problems: list[str] = []
        self._in: str | None = None
        self._data = False
        self._buffer: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("iframe", "object", "embed", "svg", "math", "base", "form", "frame", "link"):
            self.problems.append(f"<{tag}> element")
        if tag == "meta":
            values = dict(attrs)
            if (values.get("http-equiv") or "").lower() == "refresh":
                self.problems.append("meta refresh")
        for name, value in attrs:
            value = (value or "").strip()
            lowered = "".join(value.split()).lower()
            if name.startswith("on"):
                self.problems.append(f"<{tag} {name}=…>")
            if name in ("style", "formaction", "srcdoc", "xlink:href"):
                self.problems.append(f"<{tag} {name}=…>")
            if name in ("href", "src", "action", "poster", "background"):
                if lowered.startswith(("javascript:", "vbscript:")):
                    self.problems.append(f"<{tag} {name}={value[:40]}>")
                if lowered.startswith("data:") and not (
                    tag == "img"
                    and lowered.split(";")[0]
                    in (
                        "data:image/png",
                        "data:image/jpeg",
                        "data:image/gif",
                        "data:image/webp",
                        "data:image/bmp",
                    )
                ):
                    self.problems.append(f"<{tag} {name}={value[:40]}>")
                if tag == "img" and not lowered.startswith("data:image/"):
                    self.problems.append(f"<img {name}={value[:40]}> loads from elsewhere")
        if tag in ("script", "style"):
            self._in = tag
            self._buffer = []
            self._data = tag == "script" and dict(attrs).get("type") == "application/json"
            if tag == "script" and any(name == "src" for name, _ in attrs):
                self.problems.append("external script")

    def handle_data(self, data: str) -> None:
        if self._in:
            self._buffer.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == self._in:
            text = "".join(self._buffer)
            if self._data:
                self.data.append(text)
            else:
                (self.scripts if tag == "script" else self.styles).append(text)
            self._in = None


def audit(html: str) -> PageAudit:
    parser = PageAudit()
    parser.feed(html)
    parser.close()
    return parser


@pytest.fixture(scope="module")
def hostile_html(tmp_path_factory: pytest.TempPathFactory) -> str:
    from cclens.readers.claude import load_session

    path = hostile_session(tmp_path_factory.mktemp("hostile"))
    return export_html(load_session(path))


def test_nothing_executable_in_the_page(hostile_html: str) -> None:
    page = audit(hostile_html)
    assert page.problems == []
    assert page.scripts == [theme_js(), page_js()]
    assert page.styles == [page_css()]
    (data,) = page.data
    assert "<" not in data  # the folded parts cannot close their script element
    # Every folded part, as the page draws it when opened: nothing executable either.
    opened = audit(expand_page(hostile_html))
    assert opened.problems == []
    assert opened.scripts == [theme_js(), page_js()]


def test_hostile_text_is_shown_not_dropped(hostile_html: str) -> None:
    # Escaped, the payloads are still there for the reader to see (once every part is open).
    opened = expand_page(hostile_html)
    assert opened.count("&lt;script&gt;alert(1)&lt;/script&gt;") > 50
    assert 'data-tool="&lt;script&gt;' in hostile_html or 'data-tool="&#34;&gt;' in hostile_html


def test_markdown_export_neutralises_html(tmp_path: Path) -> None:
    from cclens.readers.claude import load_session

    text = export_markdown(load_session(hostile_session(tmp_path)))
    outside_code = []
    fence: str | None = None
    for line in text.split("\n"):
        stripped = line.lstrip()
        if stripped.startswith("```"):
            marks = stripped[: len(stripped) - len(stripped.lstrip("`"))]
            fence = None if fence and marks.startswith(fence) else (fence or marks)
            continue
        if fence is None:
            outside_code.append(line)
    # Inline code spans show their text literally too.
    body = re.sub(r"(`+).+?\1", "", "\n".join(outside_code))
    for tag in ("<script", "<img", "<svg", "<iframe", "<a "):
        assert tag not in body.lower()


@pytest.mark.browser
def test_no_dialog_fires_in_chromium(hostile_html: str, tmp_path: Path) -> None:
    from playwright.sync_api import Dialog, sync_playwright

    page_file = tmp_path / "hostile.html"
    page_file.write_text(hostile_html, encoding="utf-8")
    dialogs: list[str] = []
    requests: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
            ],
        )
        try:
            page = browser.new_page()

            def on_dialog(dialog: Dialog) -> None:
                dialogs.append(dialog.message)
                dialog.dismiss()

            page.on("dialog", on_dialog)
            page.on("request", lambda request: requests.append(request.url))
            page.goto(page_file.as_uri())
            # Open everything a reader could open (drawing every folded part), show details,
            # expand every output.
            page.click("[data-action=details]")
            page.evaluate("window.cclens.drawChunks()")
            for _ in range(6):  # parts hold parts: open what each round drew
                page.eval_on_selector_all("details", "els => els.forEach(e => e.open = true)")
                page.wait_for_timeout(150)
            assert page.locator("[data-lazy]:not([data-ready])").count() == 0
            for button in page.query_selector_all("button.expand"):
                button.click()
            page.mouse.move(10, 10)
            page.wait_for_timeout(300)
            assert dialogs == []
            # The same payload outside cclens does fire: the listener above would have seen it.
            control = tmp_path / "control.html"
            control.write_text("<!DOCTYPE html><img src=x onerror=alert(1)>", encoding="utf-8")
            page.goto(control.as_uri())
            page.wait_for_timeout(300)
        finally:
            browser.close()
    assert dialogs == ["1"]
    assert [url for url in requests if not url.startswith("file://")] == []


def test_audit_sees_an_injected_handler(hostile_html: str) -> None:
    injected = hostile_html.replace("<main ", "<img src=x onerror=alert(1)><main ", 1)
    problems = sorted(audit(injected).problems)
    assert problems == ["<img onerror=…>", "<img src=x> loads from elsewhere"]
