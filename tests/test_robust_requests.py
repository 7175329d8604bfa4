"""Hostile requests: answers bounded whatever the query, long filters refused in one line, and
the access token handled on every request that carries it.

A real server on 127.0.0.1 (and one with an access token), the real CLI, and ``cclens mcp``
through the MCP SDK's client.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp.client.session import ClientSession

from cclens.index import Index
from cclens.web import RunningServer, Settings, start
from cclens.web.security import token_cookie_name

from .test_cli_exits import assert_one_line_error, run
from .test_index_layout import make_claude_dir
from .test_mcp import _client
from .test_web import running

MB = 1024 * 1024
#: A filter past SQLite's LIKE pattern limit (50,000 bytes).
LONG = "a" * 50_001
#: Queries whose terms, repeated in every link, made answers grow with them.
HOSTILE_QUERIES = [
    " OR ".join(["error", *[f"z{i:02d}" * 210 for i in range(31)]]),
    "error OR " + "e" * 21_000 + "*",
    '"error ' + "y" * 21_000 + '"',
    "error " + " ".join("-" + "q" * 600 + str(i) for i in range(30)),
]


@pytest.fixture(scope="module")
def indexed(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = make_claude_dir(corpus, tmp_path_factory.mktemp("claude"))
    db = tmp_path_factory.mktemp("db") / "index.db"
    with Index(db) as index:
        index.update([root])
    return root, db


@pytest.fixture(scope="module")
def server(indexed: tuple[Path, Path]) -> Iterator[RunningServer]:
    root, db = indexed
    with running([root], db, watch=False) as started:
        yield started


@pytest.fixture(scope="module")
def client(server: RunningServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=60) as opened:
        yield opened


# 5. Bounded answers ---------------------------------------------------------------------------


@pytest.mark.parametrize("query", HOSTILE_QUERIES, ids=["terms", "prefix", "phrase", "excluded"])
def test_a_search_answer_stays_small_whatever_the_query(client: httpx.Client, query: str) -> None:
    for path in ("/api/search", "/search"):
        answer = client.get(path, params={"q": query})
        assert answer.status_code in (200, 422), (path, answer.status_code)
        assert len(answer.content) < MB, (path, len(answer.content))
        assert "Traceback" not in answer.text


def test_hit_links_carry_bounded_terms(client: httpx.Client) -> None:
    long_term = "error" + "x" * 900
    answer = client.get("/api/search", params={"q": f"error OR {long_term}*"})
    assert answer.status_code == 200
    hits = [hit for group in answer.json()["groups"] for hit in group["shown"]]
    assert hits
    for hit in hits:
        assert len(hit["url"]) < 2048, len(hit["url"])
        assert "hl=error" in hit["url"]
        assert len(hit["snippet"]) < 2048


def test_a_search_page_links_its_query_a_bounded_number_of_times(client: httpx.Client) -> None:
    query = "error OR " + " OR ".join(f"w{i}" * 30 for i in range(31))
    page = client.get("/search", params={"q": query})
    assert page.status_code in (200, 422)
    assert len(page.content) < MB


# 6. Long filters ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "name"),
    [
        ("/api/sessions", "project"),
        ("/api/sessions", "model"),
        ("/api/sessions", "q"),
        ("/api/sessions", "branch"),
        ("/api/search", "project"),
        ("/api/search", "tool"),
        ("/api/search", "q"),
        ("/api/stats", "project"),
    ],
)
def test_a_long_filter_is_a_422_naming_it(client: httpx.Client, path: str, name: str) -> None:
    params = {name: LONG}
    if path == "/api/search" and name != "q":
        params["q"] = "error"
    answer = client.get(path, params=params)
    assert answer.status_code == 422, (path, name, answer.status_code, answer.text[:200])
    assert "too long" in answer.json()["error"]


@pytest.mark.parametrize("path", ["/", "/sessions", "/search", "/projects", "/stats"])
def test_a_long_filter_on_a_page_is_a_422_page(client: httpx.Client, path: str) -> None:
    for name in ("project", "model", "q"):
        answer = client.get(path, params={name: LONG})
        assert answer.status_code in (200, 422), (path, name, answer.status_code)
        assert "Traceback" not in answer.text and len(answer.content) < MB
        if answer.status_code == 422:
            assert "too long" in answer.text


def test_a_filter_of_a_sane_length_is_served(client: httpx.Client) -> None:
    assert client.get("/api/sessions", params={"project": "a" * 3000}).status_code == 200
    assert client.get("/api/search", params={"q": "error " + "b" * 3000}).status_code == 200
    assert client.get("/api/search", params={"q": "error " + "b" * 5000}).status_code == 422


@pytest.mark.parametrize(
    "command",
    [
        ["sessions", "--project", LONG],
        ["sessions", "--model", LONG],
        ["search", LONG],
        ["search", "error", "--project", LONG],
        ["restore", LONG, "--list-versions"],
    ],
    ids=lambda command: "-".join(part[:10] for part in command[:3]),
)
def test_a_long_filter_on_the_command_line_is_one_line(
    indexed: tuple[Path, Path], command: list[str]
) -> None:
    _, db = indexed
    extra = ["--no-update"] if command[0] in ("sessions", "search") else []
    result = run(*command, *extra, "--db", str(db))
    assert_one_line_error(result, "too long")


@pytest.mark.slow
def test_long_arguments_are_clear_mcp_tool_errors(indexed: tuple[Path, Path]) -> None:
    root, db = indexed
    calls: list[tuple[str, dict[str, Any]]] = [
        ("search", {"query": LONG}),
        ("search", {"query": "error", "project": LONG}),
        ("list_sessions", {"project": LONG}),
        ("list_sessions", {"model": LONG}),
        ("get_session", {"session": LONG}),
        ("permission_audit", {"project": LONG}),
    ]

    async def body(session: ClientSession) -> None:
        for name, arguments in calls:
            result = await session.call_tool(name, arguments)
            text = result.content[0].text  # type: ignore[union-attr]
            assert result.is_error, (name, text[:200])
            assert "too long" in text and "Traceback" not in text, (name, text[:300])
            assert len(text) < 1000
        answer = await session.call_tool("search", {"query": HOSTILE_QUERIES[1]})
        text = answer.content[0].text  # type: ignore[union-attr]
        assert len(text.encode()) < MB

    async def main() -> None:
        async with _client(db, root) as session:
            await body(session)

    anyio.run(main)


# 7. The access token --------------------------------------------------------------------------

TOKEN = "t0ken-for-robust-tests"


@pytest.fixture(scope="module")
def guarded(indexed: tuple[Path, Path]) -> Iterator[RunningServer]:
    root, db = indexed
    settings = Settings(
        db_path=db, claude_dirs=[root], port=0, watch=False, token=TOKEN, host="0.0.0.0"
    )
    server = start(settings)
    try:
        assert server.app.state.cclens.indexer.ready.wait(60)
        yield server
    finally:
        server.stop()


def _url(server: RunningServer) -> str:
    return f"http://127.0.0.1:{server.settings.port}"


def test_a_token_in_the_address_is_always_redirected_away(guarded: RunningServer) -> None:
    name = token_cookie_name(guarded.settings.port)
    with httpx.Client(base_url=_url(guarded), timeout=30, cookies={name: TOKEN}) as client:
        # The cookie is set already: the token still leaves the address.
        again = client.get("/search", params={"q": "error", "token": TOKEN})
        assert again.status_code == 303 and again.headers["location"] == "/search?q=error"
        with_header = client.get(
            "/api/projects", params={"token": TOKEN}, headers={"Authorization": f"Bearer {TOKEN}"}
        )
        assert with_header.status_code == 303
        page = client.get("/search", params={"q": "error"})
        assert page.status_code == 200 and TOKEN not in page.text


def test_the_redirect_stays_on_this_site(guarded: RunningServer) -> None:
    for path in ("//evil.example/", "///evil.example/x", "/\\evil.example/", "//evil.example"):
        request = f"GET {path}?token={TOKEN} HTTP/1.1\r\nHost: 127.0.0.1:{guarded.settings.port}"
        status, headers = _raw(guarded, request)
        assert status == 303, (path, status)
        location = headers["location"]
        assert location.startswith("/") and not location.startswith(("//", "/\\")), location


def _raw(server: RunningServer, request: str) -> tuple[int, dict[str, str]]:
    """Send ``request`` as written (httpx would normalise the path); status and headers."""
    with socket.create_connection(("127.0.0.1", server.settings.port), timeout=10) as connection:
        connection.sendall(request.encode("latin-1") + b"\r\nConnection: close\r\n\r\n")
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
    head = received.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    status = int(head[0].split()[1])
    headers = {}
    for line in head[1:]:
        key, _, value = line.partition(":")
        headers[key.strip().lower()] = value.strip()
    return status, headers


def test_cr_lf_in_a_path_is_a_clean_answer(guarded: RunningServer, server: RunningServer) -> None:
    for running_server, extra in ((guarded, f"&token={TOKEN}"), (server, "")):
        for path in ("/a%0d%0aSet-Cookie:%20x=1", "/search%0A", "/%0d%0a"):
            request = (
                f"GET {path}?q=1{extra} HTTP/1.1\r\nHost: 127.0.0.1:{running_server.settings.port}"
            )
            status, headers = _raw(running_server, request)
            assert status in (303, 400, 404), (path, status)
            assert "set-cookie" not in headers or headers["set-cookie"].startswith("cclens-token")
            assert "\r" not in headers.get("location", "")


@pytest.mark.slow
def test_the_machines_own_address_is_a_host(guarded: RunningServer) -> None:
    own = _own_address()
    if own is None:
        pytest.skip("no address other than loopback here")
    url = f"http://{own}:{guarded.settings.port}"
    with httpx.Client(base_url=url, timeout=30) as client:
        answer = client.get("/api/status", headers={"Authorization": f"Bearer {TOKEN}"})
        assert answer.status_code == 200, answer.text
    with httpx.Client(base_url=_url(guarded), timeout=30) as client:
        refused = client.get(
            "/api/status",
            headers={
                "Authorization": f"Bearer {TOKEN}",
                "Host": f"evil.example:{guarded.settings.port}",
            },
        )
        assert refused.status_code == 400


def _own_address() -> str | None:
    """This machine's address on its network (not loopback), if it has one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # no packet is sent
        except OSError:
            return None
        address = str(probe.getsockname()[0])
    return None if address.startswith("127.") else address


@pytest.mark.slow
def test_search_json_of_a_hostile_query_on_the_command_line(indexed: tuple[Path, Path]) -> None:
    _, db = indexed
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "from cclens.cli import main; main()",
            "search",
            "--json",
            "--no-update",
            "--db",
            str(db),
            HOSTILE_QUERIES[0],
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert "Traceback" not in result.stderr
    if result.returncode == 0:
        assert len(result.stdout.encode()) < MB
        json.loads(result.stdout)
