"""The server against requests other web sites make, and its access token, on a real server."""

from __future__ import annotations

import html
import shlex
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from cclens.web import RunningServer, Settings, start
from cclens.web.security import cross_site_refusal, token_cookie_name

from .test_index import SMALL
from .test_web import running

TOKEN = "s3cret-token-for-tests"


@pytest.fixture(scope="module")
def server(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    source = next(corpus.rglob(f"{SMALL}.jsonl"))
    folder = tmp_path_factory.mktemp("claude") / "projects" / "-tmp-demo"
    folder.mkdir(parents=True)
    folder.joinpath(f"{SMALL}.jsonl").write_bytes(source.read_bytes())
    # A transcript whose name would run a command if pasted unquoted into a shell.
    folder.joinpath("x $(touch pwned) y.jsonl").write_bytes(source.read_bytes())
    root = folder.parent.parent
    with running([root], tmp_path_factory.mktemp("db") / "index.db", watch=False) as started:
        yield started


@pytest.fixture(scope="module")
def client(server: RunningServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=10) as opened:
        yield opened


def _fetch(site: str, mode: str, destination: str) -> dict[str, str]:
    return {"Sec-Fetch-Site": site, "Sec-Fetch-Mode": mode, "Sec-Fetch-Dest": destination}


DATA_PATHS = ["/api/search?q=error", "/api/projects", f"/api/sessions/{SMALL}", "/api/status"]
PAGE_PATHS = ["/", "/search?q=error", f"/sessions/{SMALL}", "/stats"]


@pytest.mark.parametrize("site", ["cross-site", "same-site"])
@pytest.mark.parametrize("path", [*DATA_PATHS, *PAGE_PATHS, f"/sessions/{SMALL}/updates"])
def test_an_image_or_script_from_another_site_is_refused(
    client: httpx.Client, site: str, path: str
) -> None:
    # <img src=http://127.0.0.1:8765/api/search?q=...> on any page the user visits.
    for mode, destination in (("no-cors", "image"), ("no-cors", "script"), ("cors", "empty")):
        refused = client.get(path, headers=_fetch(site, mode, destination))
        assert refused.status_code == 403, (path, mode, destination)
        assert "cross-site" in refused.text
        assert refused.headers["content-security-policy"]


@pytest.mark.parametrize("path", PAGE_PATHS)
def test_a_link_from_another_site_opens_a_page(client: httpx.Client, path: str) -> None:
    for site in ("cross-site", "same-site"):
        opened = client.get(path, headers=_fetch(site, "navigate", "document"))
        assert opened.status_code == 200, (path, site)


@pytest.mark.parametrize("path", DATA_PATHS)
def test_a_link_from_another_site_to_data_is_refused(client: httpx.Client, path: str) -> None:
    assert client.get(path, headers=_fetch("cross-site", "navigate", "document")).status_code == 403
    framed = client.get("/", headers=_fetch("cross-site", "navigate", "iframe"))
    assert framed.status_code == 403


def test_the_apps_own_requests_and_other_clients_are_served(
    server: RunningServer, client: httpx.Client
) -> None:
    for path in [*DATA_PATHS, *PAGE_PATHS]:
        assert client.get(path, headers=_fetch("same-origin", "cors", "empty")).status_code == 200
        assert client.get(path, headers=_fetch("none", "navigate", "document")).status_code == 200
        assert client.get(path).status_code == 200  # curl: no browser headers at all
    own = f"http://127.0.0.1:{server.settings.port}"
    assert client.get("/api/projects", headers={"Origin": own}).status_code == 200


@pytest.mark.parametrize(
    "origin", ["http://evil.example", "null", "http://127.0.0.1:1", "https://localhost"]
)
def test_another_origin_is_refused(client: httpx.Client, origin: str) -> None:
    for path in ("/api/search?q=error", "/", "/api/events"):
        assert client.get(path, headers={"Origin": origin}).status_code == 403, (origin, path)


def test_event_streams_from_another_site_are_refused(client: httpx.Client) -> None:
    for path in ("/api/events", f"/api/sessions/{SMALL}/events"):
        headers = {**_fetch("cross-site", "cors", "empty"), "Accept": "text/event-stream"}
        assert client.get(path, headers=headers).status_code == 403


def test_the_refusal_rules() -> None:
    own = frozenset({"http://127.0.0.1:8765"})
    assert cross_site_refusal({}, "/api/search", own) is None
    assert cross_site_refusal({b"origin": b"http://127.0.0.1:8765"}, "/api/x", own) is None
    assert cross_site_refusal({b"origin": b"http://a.example"}, "/", own) == "cross-origin request"
    navigation = {
        b"sec-fetch-site": b"cross-site",
        b"sec-fetch-mode": b"navigate",
        b"sec-fetch-dest": b"document",
    }
    assert cross_site_refusal(navigation, "/sessions/k", own) is None
    assert cross_site_refusal(navigation, "/sessions/k/updates", own) == "cross-site request"
    assert cross_site_refusal(navigation, "/static/app.js", own) == "cross-site request"


def test_head_on_an_event_stream_answers_at_once(client: httpx.Client) -> None:
    for path in ("/api/events", f"/api/sessions/{SMALL}/events"):
        began = time.monotonic()
        answer = client.head(path, timeout=5)
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/event-stream")
        assert time.monotonic() - began < 3


def test_events_of_an_unknown_session_are_404(client: httpx.Client) -> None:
    missing = client.get("/api/sessions/no-such-session/events", timeout=5)
    assert missing.status_code == 404
    assert missing.json() == {"error": "no session no-such-session"}


def test_the_restore_command_shown_is_quoted_for_the_shell(client: httpx.Client) -> None:
    key = "x $(touch pwned) y"
    page = client.get(f"/sessions/{httpx.URL(path='/' + key).raw_path.decode()[1:]}")
    assert page.status_code == 200
    shown = html.escape(f"cclens restore {shlex.quote(key)} -o DIR", quote=True)
    assert shown in page.text or shown.replace("&#x27;", "&#39;") in page.text
    assert "restore x $(touch" not in page.text


@pytest.fixture(scope="module")
def guarded(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    source = next(corpus.rglob(f"{SMALL}.jsonl"))
    folder = tmp_path_factory.mktemp("claude") / "projects" / "-tmp-demo"
    folder.mkdir(parents=True)
    folder.joinpath(f"{SMALL}.jsonl").write_bytes(source.read_bytes())
    settings = Settings(
        db_path=tmp_path_factory.mktemp("db") / "index.db",
        claude_dirs=[folder.parent.parent],
        port=0,
        watch=False,
        token=TOKEN,
    )
    server = start(settings)
    try:
        assert server.app.state.cclens.indexer.ready.wait(60)
        yield server
    finally:
        server.stop()


def test_without_the_token_nothing_is_served(guarded: RunningServer) -> None:
    with httpx.Client(base_url=guarded.url, timeout=10) as client:
        for path in ("/", "/api/projects", "/static/app.js", f"/sessions/{SMALL}", "/api/events"):
            refused = client.get(path)
            assert refused.status_code == 401, path
            assert "token" in refused.text and SMALL not in refused.text
        assert client.get("/", params={"token": "wrong"}).status_code == 401
        assert client.get("/", params={"token": ""}).status_code == 401
        name = token_cookie_name(guarded.settings.port)
        assert client.get("/", headers={"Cookie": f"{name}=wrong"}).status_code == 401
        assert client.get("/", headers={"Authorization": "Bearer wrong"}).status_code == 401


def test_the_token_becomes_a_strict_cookie_and_leaves_the_address(guarded: RunningServer) -> None:
    with httpx.Client(base_url=guarded.url, timeout=10) as client:
        first = client.get("/search", params={"q": "error", "token": TOKEN})
        assert first.status_code == 303
        assert first.headers["location"] == "/search?q=error"
        cookie = first.headers["set-cookie"]
        name = token_cookie_name(guarded.settings.port)
        assert cookie.startswith(f"{name}={TOKEN};")
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
        # The client now holds the cookie: every page and the API answer without the token.
        followed = client.get(first.headers["location"])
        assert followed.status_code == 200 and "token" not in str(followed.url)
        assert client.get("/api/projects").status_code == 200
        assert client.get(f"/sessions/{SMALL}").status_code == 200
    with httpx.Client(base_url=guarded.url, timeout=10) as script:
        answer = script.get("/api/projects", headers={"Authorization": f"Bearer {TOKEN}"})
        assert answer.status_code == 200


def test_the_token_does_not_let_another_site_in(guarded: RunningServer) -> None:
    cookie = {token_cookie_name(guarded.settings.port): TOKEN}
    with httpx.Client(base_url=guarded.url, timeout=10, cookies=cookie) as client:
        headers = _fetch("cross-site", "no-cors", "image")
        assert client.get("/api/search?q=error", headers=headers).status_code == 403


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _serve(tmp_path: Path, *options: str) -> tuple[subprocess.Popen[str], int, str]:
    port = _free_port()
    command = [sys.executable, "-c", "from cclens.cli import main; main()", "serve"]
    command += ["--port", str(port), "--demo", *options]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    first = process.stderr.readline()
    return process, port, first


def _stop(process: subprocess.Popen[str]) -> str:
    process.terminate()
    return process.communicate(timeout=20)[1]


@pytest.mark.slow
def test_serve_on_every_interface_prints_a_token_once_and_requires_it(tmp_path: Path) -> None:
    process, port, first = _serve(tmp_path, "--host", "0.0.0.0")
    try:
        assert "?token=" in first, first
        token = first.split("?token=")[1].split()[0]
        assert len(token) >= 32
        deadline = time.monotonic() + 30
        while True:
            try:
                answer = httpx.get(f"http://127.0.0.1:{port}/api/status", timeout=2)
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, "cclens serve did not answer"
                time.sleep(0.2)
        assert answer.status_code == 401
        allowed = httpx.get(
            f"http://127.0.0.1:{port}/api/status",
            headers={"Authorization": f"Bearer {token}"},
            timeout=5,
        )
        assert allowed.status_code == 200
    finally:
        rest = _stop(process)
    assert token not in rest  # printed once


@pytest.mark.slow
def test_serve_no_auth_is_explicit_and_warns(tmp_path: Path) -> None:
    process, port, first = _serve(tmp_path, "--host", "0.0.0.0", "--no-auth")
    try:
        assert "without an access token" in first
        deadline = time.monotonic() + 30
        while True:
            try:
                answer = httpx.get(f"http://127.0.0.1:{port}/api/status", timeout=2)
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, "cclens serve did not answer"
                time.sleep(0.2)
        assert answer.status_code == 200
    finally:
        _stop(process)
