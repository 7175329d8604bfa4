"""The web app on a real uvicorn server over a copy of the corpus, driven with httpx."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import httpx
import msgspec
import pytest

from cclens.demo import demo_dir
from cclens.web import RunningServer, Settings, start
from cclens.web.security import content_security_policy, parse_policy

from .test_index import WITH_SUBAGENTS, prompt_line, transcript
from .test_index_layout import make_claude_dir

SMALL = "fed8ce56-bc79-401f-a83e-af084253362f"


@contextmanager
def running(roots: list[Path], db: Path, **options: object) -> Iterator[RunningServer]:
    """A server on a free port of 127.0.0.1, with its first index done."""
    server = start(Settings(db_path=db, claude_dirs=roots, port=0, **options))  # type: ignore[arg-type]
    try:
        assert server.app.state.cclens.indexer.ready.wait(60)
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def server(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    root = make_claude_dir(corpus, tmp_path_factory.mktemp("claude"))
    with running([root], tmp_path_factory.mktemp("db") / "index.db", watch=False) as started:
        yield started


@pytest.fixture(scope="module")
def client(server: RunningServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=30) as opened:
        yield opened


@pytest.mark.slow
def test_pages_answer(client: httpx.Client) -> None:
    home = client.get("/")
    assert home.status_code == 200 and "Projects" in home.text
    projects = client.get("/api/projects").json()
    slug = next(p["id"] for p in projects if p["id"].endswith("experiments-worktrees"))
    project = client.get(f"/projects/{quote(slug)}")
    assert project.status_code == 200
    assert f'href="/sessions/{WITH_SUBAGENTS}"' in project.text
    session = client.get(f"/sessions/{WITH_SUBAGENTS}")
    assert session.status_code == 200
    assert 'id="' in session.text and "data-live-session" in session.text
    found = client.get("/search", params={"q": "worktree", "kind": "tool_output"})
    assert found.status_code == 200 and "<mark>" in found.text.lower()


@pytest.mark.slow
def test_every_corpus_session_page_is_drawn_by_the_session_view(client: httpx.Client) -> None:
    keys = [
        session["id"]
        for project in client.get("/api/projects").json()
        for session in client.get(f"/api/projects/{quote(project['id'])}/sessions").json()[
            "sessions"
        ]
    ]
    assert len(keys) > 100
    for key in keys:
        response = client.get(f"/sessions/{quote(key)}")
        assert response.status_code == 200, key
        assert "view-problem" not in response.text, key


def test_the_json_api(client: httpx.Client) -> None:
    projects = client.get("/api/projects").json()
    assert len(projects) > 10
    assert all({"id", "sessions", "last_activity", "tokens", "url"} <= set(p) for p in projects)
    assert any(p["tokens"]["total"] > 0 for p in projects)
    slug = next(p["id"] for p in projects if p["id"].endswith("experiments-worktrees"))
    listing = client.get(f"/api/projects/{quote(slug)}/sessions").json()
    (session,) = listing["sessions"]
    assert session["id"] == WITH_SUBAGENTS and session["subagents"] == 3
    assert session["git_branch"] and session["duration_seconds"] > 0
    whole = client.get(f"/api/sessions/{WITH_SUBAGENTS}").json()
    transcript_json = whole["transcript"]
    assert len(transcript_json["subagents"]) == 3
    assert all(item["records"] for item in transcript_json["items"])
    anchors = {item["anchor"] for item in transcript_json["items"]}
    # Every hit of the session shown (hybrid search ranks them by words and meaning).
    params = {"q": "worktree", "project": slug, "per_session": "1000"}
    found = client.get("/api/search", params=params).json()
    (group,) = found["groups"]
    hits = group["shown"]
    assert group["session"] == WITH_SUBAGENTS and group["hits"] >= len(hits) > 0
    assert all(hit["session"] == WITH_SUBAGENTS for hit in hits)
    main_hits = [hit for hit in hits if not hit["in_subagent"]]
    assert main_hits and all(hit["anchor"] in anchors for hit in main_hits)
    first = hits[0]
    assert first["url"] == (
        f"/sessions/{WITH_SUBAGENTS}?hl=worktree&part={first['kind']}#{quote(first['target'])}"
    )
    status = client.get("/api/status").json()
    assert status["sessions"] > 100 and status["indexing"] is False
    bad = client.get("/api/search", params={"q": "x", "kind": "pictures"})
    assert bad.status_code == 400 and bad.json()["error"].startswith("kind: 'pictures'")


def test_unknown_things_are_404(client: httpx.Client) -> None:
    assert client.get("/sessions/no-such-session").status_code == 404
    assert client.get("/projects/no-such-project").status_code == 404
    missing = client.get("/api/sessions/no-such-session")
    assert missing.status_code == 404 and missing.json() == {"error": "no session no-such-session"}
    assert client.get("/api/nothing").json() == {"error": "not found"}


@pytest.mark.parametrize(
    "path",
    [
        "/static/../pyproject.toml",
        "/static/%2e%2e/%2e%2e/pyproject.toml",
        "/static/..%2f..%2f__init__.py",
        "/static/render/..%2f..%2fweb%2fapp.py",
        "/static/templates/base.html",
        "/static/%2Fetc%2Fpasswd",
        "/sessions/..%2f..%2f..%2fetc%2fpasswd",
    ],
)
def test_no_request_becomes_a_filesystem_path(client: httpx.Client, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert "root:" not in response.text and "import" not in response.text


def test_static_files_come_from_memory(client: httpx.Client) -> None:
    script = client.get("/static/app.js")
    assert script.status_code == 200 and script.headers["content-type"].startswith(
        "text/javascript"
    )
    again = client.get("/static/app.js", headers={"If-None-Match": script.headers["etag"]})
    assert again.status_code == 304


def test_a_foreign_host_header_is_refused(server: RunningServer, client: httpx.Client) -> None:
    port = server.settings.port
    for host in ("evil.example", f"evil.example:{port}", f"127.0.0.1:{port + 1}", "127.0.0.1"):
        refused = client.get("/", headers={"Host": host})
        assert refused.status_code == 400, host
        assert "private" not in refused.text
    for host in (f"localhost:{port}", f"127.0.0.1:{port}", f"LOCALHOST:{port}"):
        assert client.get("/", headers={"Host": host}).status_code == 200, host


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
def test_only_get_and_head_are_answered(client: httpx.Client, method: str) -> None:
    response = client.request(method, "/api/projects")
    assert response.status_code == 405
    assert response.headers["allow"] == "GET, HEAD"
    assert client.head("/").status_code == 200


def test_every_response_carries_the_protective_headers(client: httpx.Client) -> None:
    for path in ("/", "/api/projects", "/static/app.js", "/sessions/none", f"/sessions/{SMALL}"):
        response = client.get(path)
        policy = parse_policy(response.headers["content-security-policy"])
        assert policy["default-src"] == ["'self'"]
        assert "'unsafe-inline'" not in policy["script-src"]
        assert "'unsafe-eval'" not in policy["script-src"]
        assert policy["frame-ancestors"] == ["'none'"]
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "no-referrer"


def test_no_inline_script_in_pages(client: httpx.Client) -> None:
    for path in ("/", f"/sessions/{WITH_SUBAGENTS}", "/search?q=worktree"):
        html = client.get(path).text
        assert "<script>" not in html and " onclick=" not in html and " onerror=" not in html


def test_the_policy_merges_the_renderers_without_widening() -> None:
    merged = parse_policy(
        content_security_policy(
            ["default-src 'none'; script-src 'sha256-abc' *; form-action 'none'"]
        )
    )
    assert merged["default-src"] == ["'self'"]
    assert merged["script-src"] == ["'self'", "'sha256-abc'"]
    assert merged["form-action"] == ["'self'"]


def test_settings_allow_the_served_host_only() -> None:
    settings = Settings(db_path=Path("x.db"), port=8765)
    assert settings.loopback
    assert "127.0.0.1:8765" in settings.allowed_hosts()
    assert "localhost:8765" in settings.allowed_hosts()
    assert "example.com:8765" not in settings.allowed_hosts()
    assert not Settings(db_path=Path("x.db"), host="0.0.0.0").loopback


@pytest.mark.slow
def test_untrusted_text_is_escaped_in_lists_and_search(tmp_path: Path) -> None:
    hostile = '<script>alert(1)</script><img src=x onerror=alert(2)>"'
    folder = tmp_path / "claude" / "projects" / "-tmp-<b>x"
    folder.mkdir(parents=True)
    record = {
        "type": "user",
        "uuid": "11111111-1111-4111-8111-111111111111",
        "parentUuid": None,
        "sessionId": "hostile",
        "timestamp": "2025-06-01T10:00:00Z",
        "cwd": hostile,
        "message": {"role": "user", "content": f"{hostile} findme"},
    }
    (folder / "hostile.jsonl").write_bytes(msgspec.json.encode(record) + b"\n")
    with (
        running([tmp_path / "claude"], tmp_path / "i.db", watch=False) as started,
        httpx.Client(base_url=started.url) as client,
    ):
        for path in ("/", "/projects/-tmp-%3Cb%3Ex", "/search?q=findme", "/sessions/hostile"):
            html = client.get(path).text
            assert "<script>alert" not in html and "<img src=x" not in html, path
            assert "&lt;script&gt;" in html, path


def test_an_empty_machine_explains_where_sessions_come_from(tmp_path: Path) -> None:
    with (
        running([], tmp_path / "i.db", watch=False) as started,
        httpx.Client(base_url=started.url) as client,
    ):
        html = client.get("/").text
    assert "No sessions yet" in html
    assert "~/.claude/projects/" in html and "~/.codex/sessions/" in html
    assert "--dir" in html and "--demo" in html


@pytest.mark.slow
def test_the_demo_set(tmp_path: Path) -> None:
    with (
        running([demo_dir()], tmp_path / "i.db", watch=False, demo=True) as started,
        httpx.Client(base_url=started.url) as client,
    ):
        projects = client.get("/api/projects").json()
        assert len(projects) == 4
        html = client.get(f"/sessions/{WITH_SUBAGENTS}").text
        assert "demo" in client.get("/").text
    assert sum(p["sessions"] for p in projects) == 4
    assert "worktree" in html


def _next_event(lines: Iterator[str]) -> dict[str, object]:
    for line in lines:
        if line.startswith("data: "):
            event = msgspec.json.decode(line[len("data: ") :])
            assert isinstance(event, dict)
            return event
    raise AssertionError("the stream ended")


@pytest.mark.slow
def test_live_updates_reach_a_session_stream(corpus: Path, tmp_path: Path) -> None:
    root = make_claude_dir(corpus, tmp_path / "claude")
    path = transcript(root, SMALL)
    with (
        running([root], tmp_path / "i.db") as started,
        httpx.Client(base_url=started.url, timeout=httpx.Timeout(10.0)) as client,
    ):
        page = client.get(f"/sessions/{SMALL}").text
        state = page.split('data-state="', 1)[1].split('"', 1)[0].replace("&#34;", '"')
        with client.stream("GET", f"/api/sessions/{SMALL}/events") as stream:
            lines = stream.iter_lines()
            assert next(lines).startswith("retry:")
            line, uuid = prompt_line(path, "a live pangolin appears")
            began = time.monotonic()
            with path.open("ab") as handle:
                handle.write(line)
            event = _next_event(lines)
            assert time.monotonic() - began < 2.0
        assert event["updated"] == [SMALL]
        change = client.get(f"/sessions/{SMALL}/updates", params={"since": state}).json()
        assert change["anchors"] == [uuid]
        assert f'id="{uuid}"' in change["html"] and "pangolin" in change["html"]
        assert client.get("/api/search", params={"q": "pangolin"}).json()["total"]["hits"]
        nothing = client.get(f"/sessions/{SMALL}/updates", params={"since": change["state"]})
        assert nothing.json()["anchors"] == []
        with client.stream("GET", f"/api/sessions/{SMALL}/events") as stream:
            lines = stream.iter_lines()
            assert next(lines).startswith("retry:")
            path.unlink()
            event = _next_event(lines)
        assert event["archived"] == [SMALL]
        assert client.get(f"/api/sessions/{SMALL}").json()["session"]["archived"] is True
        html = client.get(f"/sessions/{SMALL}").text
        assert "data-archived-banner>" in html and "Archived." in html
        assert "pangolin" in html


@pytest.mark.slow
def test_the_serve_command(tmp_path: Path) -> None:
    import socket
    import subprocess
    import sys

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [
        sys.executable,
        "-c",
        "from cclens.cli import main; main()",
        "serve",
        "--port",
        str(port),
        "--host",
        "0.0.0.0",
        "--no-auth",
        "--demo",
    ]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                answer = httpx.get(f"http://127.0.0.1:{port}/api/status", timeout=2)
                if answer.json()["sessions"] == 4:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "cclens serve did not answer"
            time.sleep(0.2)
    finally:
        process.terminate()
        _, errors = process.communicate(timeout=20)
    assert "warning: listening on 0.0.0.0 without an access token" in errors
    assert f":{port}/" in errors


@pytest.mark.slow
def test_serve_falls_back_to_the_demo_when_there_is_no_claude_folder(tmp_path: Path) -> None:
    import os
    import socket
    import subprocess
    import sys

    home = tmp_path / "home"
    home.mkdir()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    environment = {key: value for key, value in os.environ.items() if key != "CLAUDE_CONFIG_DIR"}
    environment |= {"HOME": str(home), "CCLENS_DB": str(tmp_path / "index.db")}
    command = [sys.executable, "-c", "from cclens.cli import main; main()", "serve"]
    command += ["--port", str(port)]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, env=environment)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                answer = httpx.get(f"http://127.0.0.1:{port}/api/status", timeout=2)
                if answer.json()["sessions"] == 4:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "cclens serve did not serve the demo"
            time.sleep(0.2)
        page = httpx.get(f"http://127.0.0.1:{port}/", timeout=5).text
        assert "bundled demo sessions" in page and "~/.claude/projects/" in page
    finally:
        process.terminate()
        _, errors = process.communicate(timeout=20)
    assert "no agent folder found" in errors
    assert not (home / ".claude").exists()
