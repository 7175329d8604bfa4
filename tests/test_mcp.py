"""``cclens mcp`` through the MCP SDK's own client over stdio, on a copy of the shared corpus.

The server runs as Claude Code would start it (``cclens mcp``, a new process speaking MCP on
stdin and stdout). Every tool is called; the answers cite sessions, messages and the
``cclens serve`` address; secrets are redacted; mistakes come back as tool errors that say
what to do.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from cclens.index import Index
from cclens.redact import Redactor

from .test_usage import PROJECT, SESSION, assistant, prompt, tool_result, tool_use, usage, write

TOOLS = {
    "search",
    "list_sessions",
    "get_session",
    "get_messages",
    "read_message",
    "get_tool_calls",
    "get_session_files",
    "usage_summary",
    "permission_audit",
}
SECRET = "ghp_" + "a1B2c3D4e5" * 4
SERVE = "http://127.0.0.1:9999"


def _corpus_copy(corpus: Path, root: Path) -> Path:
    """A Claude folder: two real projects of the corpus and a session of our own."""
    projects = root / "projects"
    for name in ("chiphuyen__sniffly", "d-kimuson__claude-code-viewer"):
        shutil.copytree(corpus / name, projects / name.replace("_", "-"))
    long_output = "line of output\n" * 2000
    write(
        projects / PROJECT / f"{SESSION}.jsonl",
        [
            prompt("u0", f"deploy with GITHUB_TOKEN={SECRET} please", time="2025-06-01T09:00:00Z"),
            assistant(
                "a1",
                "msg_1",
                usage(input=10, output=20),
                parent="u0",
                time="2025-06-01T09:00:05Z",
                content=[
                    {"type": "text", "text": "Reading the zanzibar config."},
                    tool_use("toolu_1", "Read", {"file_path": "/home/me/app/config.toml"}),
                    tool_use(
                        "toolu_2",
                        "Edit",
                        {"file_path": "/home/me/app/main.py", "old_string": "a", "new_string": "b"},
                    ),
                ],
            ),
            tool_result("u1", "toolu_1", long_output, parent="a1", time="2025-06-01T09:00:06Z"),
            tool_result("u2", "toolu_2", "ok", parent="u1", time="2025-06-01T09:00:07Z"),
        ],
    )
    return root


@asynccontextmanager
async def _client(db: Path, root: Path, *extra: str) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(
        command=sys.executable,
        args=[
            "-c",
            "from cclens.cli import main; main()",
            "mcp",
            "--db",
            str(db),
            "--claude-dir",
            str(root),
            "--serve-url",
            SERVE,
            *extra,
        ],
        env=dict(os.environ),
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


def _run(
    db: Path, root: Path, body: Callable[[ClientSession], Awaitable[None]], *extra: str
) -> None:
    async def main() -> None:
        async with _client(db, root, *extra) as session:
            await body(session)

    anyio.run(main)


async def _call(client: ClientSession, name: str, /, **arguments: Any) -> dict[str, Any]:
    result = await client.call_tool(name, arguments)
    text = result.content[0].text  # type: ignore[union-attr]
    assert not result.is_error, text
    found = json.loads(text)
    assert isinstance(found, dict)
    return found


async def _error(client: ClientSession, name: str, /, **arguments: Any) -> str:
    result = await client.call_tool(name, arguments)
    assert result.is_error
    text = result.content[0].text  # type: ignore[union-attr]
    assert isinstance(text, str)
    return text


def _relative(answer: dict[str, Any]) -> dict[str, Any]:
    """A search answer with its links as ``cclens search --json`` gives them, without the
    fields only the tool adds (and the time it took)."""
    found = json.loads(json.dumps(answer).replace(SERVE, ""))
    for key in ("next_offset", "hint", "seconds"):
        found.pop(key, None)
    assert isinstance(found, dict)
    return found


def _search_json(db: Path, query: str) -> dict[str, Any]:
    from click.testing import CliRunner

    from cclens.cli import main

    result = CliRunner().invoke(main, ["search", "--json", "--no-update", "--db", str(db), query])
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    found.pop("seconds", None)
    assert isinstance(found, dict)
    return found


def _listing(page: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [(row["id"], row["tokens"], row["cost"], row["prompts"]) for row in page["sessions"]]


@pytest.fixture(scope="module")
def indexed(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = _corpus_copy(corpus, tmp_path_factory.mktemp("claude"))
    db = tmp_path_factory.mktemp("db") / "index.db"
    with Index(db) as index:
        index.update([root])
    return db, root


@pytest.mark.slow
def test_every_tool_answers_through_a_stdio_client(indexed: tuple[Path, Path]) -> None:
    db, root = indexed

    async def body(session: ClientSession) -> None:
        listed = await session.list_tools()
        assert {tool.name for tool in listed.tools} == TOOLS
        for tool in listed.tools:
            assert tool.description and len(tool.description) > 60, tool.name
            assert tool.input_schema["type"] == "object"
            for name, schema in tool.input_schema.get("properties", {}).items():
                assert schema.get("description"), (tool.name, name)

        hits = await _call(session, "search", query="zanzibar")
        (group,) = hits["groups"]
        (hit,) = group["shown"]
        assert hit["session"] == SESSION and hit["anchor"] == hit["target"] == "a1"
        assert hit["url"] == f"{SERVE}/sessions/{SESSION}?hl=zanzibar&part=assistant#a1"
        # What `cclens search --json` prints (redacted as every answer is), links made whole.
        assert _relative(hits) == Redactor().json(_search_json(db, "zanzibar"))
        grouped = await _call(session, "search", query="the", limit=5, per_session=2)
        assert len(grouped["groups"]) == 5 and grouped["next_offset"] == 5
        assert grouped["total"]["sessions"] > 5
        assert all(len(each["shown"]) <= 2 for each in grouped["groups"])
        mine_only = await _call(session, "search", query="config", session=SESSION)
        assert [each["session"] for each in mine_only["groups"]] == [SESSION]

        sessions = await _call(session, "list_sessions", limit=3, sort="tokens")
        assert len(sessions["sessions"]) == 3 and sessions["total"] > 3
        totals = [row["tokens"]["total"] for row in sessions["sessions"]]
        assert totals == sorted(totals, reverse=True)
        # The one listing of sessions: what /api/sessions answers for the same filters.
        with Index(db) as index:
            expected = index.sessions(sort="tokens", limit=3).as_json()
        assert _listing(sessions) == _listing(expected)
        mine = await _call(session, "list_sessions", text="deploy")
        assert [row["id"] for row in mine["sessions"]] == [SESSION]
        oldest = await _call(session, "list_sessions", sort="started", order="asc", limit=2)
        assert oldest["sessions"][0]["started"] <= oldest["sessions"][1]["started"]

        overview = await _call(session, "get_session", session=SESSION)
        assert overview["tokens"]["total"] == 30 and overview["responses"] == 1
        assert overview["tools"] == {
            "Read": {"calls": 1, "errors": 0},
            "Edit": {"calls": 1, "errors": 0},
        }
        assert overview["files"]["changed_paths"] == ["/home/me/app/main.py"]
        # Secrets are redacted in every answer.
        assert SECRET not in json.dumps(overview)
        assert "[REDACTED:" in overview["first_prompt"]

        page = await _call(session, "get_messages", session=SESSION, around="a1", max_chars=500)
        assert [message["uuid"] for message in page["messages"]] == ["u0", "a1"]
        (call,) = [c for c in page["messages"][1]["tool_calls"] if c["name"] == "Read"]
        assert "more characters cut" in call["result"]
        rest = await _call(session, "read_message", session=SESSION, uuid="tool-toolu_1")
        assert rest["length"] > 20000 and rest["next_offset"] == 20000
        end = await _call(
            session, "read_message", session=SESSION, uuid="tool-toolu_1", offset=20000
        )
        assert end["next_offset"] is None and end["text"].endswith("line of output\n")

        calls = await _call(session, "get_tool_calls", session=SESSION, tool="Edit")
        (edit,) = calls["calls"]
        assert edit["status"] == "ok" and edit["url"] == f"{SERVE}/sessions/{SESSION}#tool-toolu_2"
        files = await _call(session, "get_session_files", session=SESSION)
        assert files["read"] == ["/home/me/app/config.toml"]
        assert files["changed"] == ["/home/me/app/main.py"]

        usage_rows = await _call(session, "usage_summary", by="model")
        assert usage_rows["responses"] > 100 and usage_rows["rows"]
        blocks = await _call(session, "usage_summary", by="block", limit=3)
        assert len(blocks["rows"]) == 3 and "active_block" in blocks

        audit = await _call(session, "permission_audit", project="app")
        assert audit["projects"] and audit["projects"][0]["calls"] == 2

    _run(db, root, body, "--no-update")


def test_mistakes_come_back_as_tool_errors(indexed: tuple[Path, Path]) -> None:
    db, root = indexed

    async def body(session: ClientSession) -> None:
        assert "no session" in await _error(session, "get_session", session="nope")
        assert "no session" in await _error(session, "get_messages", session="nope")
        assert "bad query" in await _error(session, "search", query="  -- ")
        assert "not a date" in await _error(session, "search", query="x", since="yesterday")
        assert "no message" in await _error(
            session, "get_messages", session=SESSION, around="missing-uuid"
        )
        assert "no project" in await _error(session, "permission_audit", project="nowhere")
        too_many = await session.call_tool("search", {"query": "x", "limit": 1000})
        assert too_many.is_error

    _run(db, root, body, "--no-update")


@pytest.mark.slow
def test_no_redact_returns_secrets_as_written(indexed: tuple[Path, Path]) -> None:
    db, root = indexed

    async def body(session: ClientSession) -> None:
        overview = await _call(session, "get_session", session=SESSION)
        assert SECRET in overview["first_prompt"]

    _run(db, root, body, "--no-update", "--no-redact")


@pytest.mark.slow
def test_the_index_is_brought_up_to_date_when_the_server_starts(
    corpus: Path, tmp_path: Path
) -> None:
    root = _corpus_copy(corpus, tmp_path / "claude")
    db = tmp_path / "index.db"

    async def body(session: ClientSession) -> None:
        for _ in range(200):
            found = await _call(session, "search", query="zanzibar")
            if found["groups"]:
                return
            await anyio.sleep(0.1)
        raise AssertionError("the server did not index the transcripts")

    _run(db, root, body, "--no-watch")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        assert isinstance(port, int)
        return port


@pytest.mark.slow
def test_streamable_http_on_127_0_0_1(indexed: tuple[Path, Path]) -> None:
    db, root = indexed
    port = _free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from cclens.cli import main; main()",
            "mcp",
            "--db",
            str(db),
            "--claude-dir",
            str(root),
            "--no-update",
            "--port",
            str(port),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    async def main() -> None:
        url = f"http://127.0.0.1:{port}/mcp"
        for _ in range(100):  # until the server listens
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                await anyio.sleep(0.1)
        async with (
            streamable_http_client(url) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            assert {tool.name for tool in (await session.list_tools()).tools} == TOOLS
            hits = await _call(session, "search", query="zanzibar")
            assert hits["groups"][0]["session"] == SESSION

    try:
        anyio.run(main)
    finally:
        server.terminate()
        server.wait(timeout=10)
