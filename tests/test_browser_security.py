"""In Chromium: another site's page cannot make the server work; the access token's first visit."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from cclens.web import RunningServer, Settings, start

from .test_index import SMALL

pytestmark = pytest.mark.browser
TOKEN = "browser-test-token-0123456789abcdef"


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


def _serve(corpus: Path, tmp_path: Path, token: str | None = None) -> RunningServer:
    source = next(corpus.rglob(f"{SMALL}.jsonl"))
    folder = tmp_path / "claude" / "projects" / "-tmp-demo"
    folder.mkdir(parents=True)
    folder.joinpath(f"{SMALL}.jsonl").write_bytes(source.read_bytes())
    settings = Settings(
        db_path=tmp_path / "index.db",
        claude_dirs=[tmp_path / "claude"],
        port=0,
        watch=False,
        token=token,
    )
    server = start(settings)
    state = server.app.state.cclens
    assert state.indexer.ready.wait(60)
    # The work the server does on its own once indexed (the permission audit) is done before
    # another site's page comes.
    deadline = time.monotonic() + 60
    while state.permissions.cached_overview() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    return server


def _other_site(target: str) -> tuple[ThreadingHTTPServer, str]:
    """A page on another site (``localhost`` is another site than ``127.0.0.1``)."""
    page = f"""<!doctype html><title>elsewhere</title>
<img src="{target}api/search?q=error" alt="">
<img src="{target}search?q=error" alt="">
<script src="{target}api/projects"></script>
<script>fetch("{target}api/status", {{mode: "no-cors"}}).catch(() => {{}});</script>
<a id="link" href="{target}sessions/{SMALL}">a session</a>""".encode()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, format: str, *args: object) -> None:
            del format, args

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://localhost:{httpd.server_address[1]}/"


def test_another_sites_page_cannot_make_the_server_work(
    browser: Browser, corpus: Path, tmp_path: Path
) -> None:
    server = _serve(corpus, tmp_path)
    httpd, elsewhere = _other_site(server.url)
    # Watch what the server works out (the browser blocks the answers of these requests in
    # any case, after the server has done the work: that work is what must not happen).
    index = server.app.state.cclens.index
    calls: list[str] = []
    for name in ("search_results", "project_choices", "projects", "totals"):
        original = getattr(index, name)

        def counted(
            *args: object, _name: str = name, _original: object = original, **options: object
        ) -> object:
            calls.append(_name)
            return _original(*args, **options)  # type: ignore[operator]

        setattr(index, name, counted)
    try:
        context = browser.new_context()
        page = context.new_page()
        refused: list[str] = []
        page.on("requestfailed", lambda request: refused.append(request.url))
        page.goto(elsewhere)
        page.wait_for_load_state("networkidle")
        assert len(refused) == 4, refused  # every request was made, and answered 403
        assert calls == []
        # A person following a link still gets the page.
        with page.expect_navigation():
            page.click("#link")
        assert page.url == f"{server.url}sessions/{SMALL}"
        assert page.title() != "elsewhere" and "Forbidden" not in page.content()
        # The app's own requests from its own pages are served.
        status = page.evaluate("fetch('/api/search?q=error').then(r => r.status)")
        assert status == 200 and "search_results" in calls
        context.close()
    finally:
        httpd.shutdown()
        httpd.server_close()
        server.stop()


def test_the_token_is_kept_in_a_cookie_and_leaves_the_address(
    browser: Browser, corpus: Path, tmp_path: Path
) -> None:
    server = _serve(corpus, tmp_path, TOKEN)
    try:
        context = browser.new_context()
        page = context.new_page()
        refused = page.goto(server.url)
        assert refused is not None and refused.status == 401
        page.goto(f"{server.url}sessions/{SMALL}?token={TOKEN}")
        assert page.url == f"{server.url}sessions/{SMALL}"  # the token left the address
        assert "token" not in page.url
        cookies = context.cookies()
        assert [(c["value"], c["httpOnly"], c["sameSite"]) for c in cookies] == [
            (TOKEN, True, "Strict")
        ]
        assert page.evaluate("document.cookie") == ""  # out of reach of scripts
        assert page.evaluate("fetch('/api/status').then(r => r.status)") == 200
        home = page.goto(server.url)
        assert home is not None and home.status == 200
        stranger = browser.new_context().new_page()
        answer = stranger.goto(f"{server.url}sessions/{SMALL}")
        assert answer is not None and answer.status == 401
        context.close()
    finally:
        server.stop()
