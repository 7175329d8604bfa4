"""One session's failure is a diagnostic naming its file; every other session is processed.

A defect is planted for the session whose file is named ``broken``: reading it raises, or
assembling it raises. Every command that reads many sessions, and every page, must go on.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

import cclens.readers.claude
import cclens.readers.claude.assemble
from cclens.cli.main import main
from cclens.readers.claude import Diagnostic
from cclens.readers.claude.isolate import each_isolated
from cclens.web import RunningServer

from .test_web import running

BROKEN = "00000000-0000-0000-0000-00000broken"
GOOD = ["11111111-0000-0000-0000-000000000001", "22222222-0000-0000-0000-000000000002"]


def _lines(session: str) -> bytes:
    records = [
        {
            "type": "user",
            "uuid": f"{session}-u",
            "sessionId": session,
            "timestamp": "2026-01-01T00:00:00Z",
            "cwd": "/tmp/p",
            "message": {"role": "user", "content": f"hello from {session}"},
        },
        {
            "type": "assistant",
            "uuid": f"{session}-a",
            "parentUuid": f"{session}-u",
            "sessionId": session,
            "timestamp": "2026-01-01T00:00:01Z",
            "message": {
                "id": f"msg-{session}",
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "content": [
                    {
                        "type": "tool_use",
                        "id": f"t-{session}",
                        "name": "Bash",
                        "input": {"command": "ls"},
                    }
                ],
                "usage": {"input_tokens": 10, "output_tokens": 5},
            },
        },
        {
            "type": "user",
            "uuid": f"{session}-r",
            "parentUuid": f"{session}-a",
            "sessionId": session,
            "timestamp": "2026-01-01T00:00:02Z",
            "message": {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": f"t-{session}", "content": "ok"}
                ],
            },
        },
    ]
    return b"".join(json.dumps(record).encode() + b"\n" for record in records)


@pytest.fixture
def claude(tmp_path: Path) -> Path:
    project = tmp_path / "claude" / "projects" / "-tmp-p"
    project.mkdir(parents=True)
    for session in [BROKEN, *GOOD]:
        (project / f"{session}.jsonl").write_bytes(_lines(session))
    return tmp_path / "claude"


@pytest.fixture
def unreadable(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading the broken session raises (a defect, not an ``OSError``)."""
    loader = importlib.import_module("cclens.readers.claude.loader")
    read_file = loader.read_file

    def failing(path: Path, *args: Any) -> Any:
        if BROKEN in path.name:
            raise RuntimeError("planted defect")
        return read_file(path, *args)

    monkeypatch.setattr(loader, "read_file", failing)


@pytest.fixture
def unassemblable(monkeypatch: pytest.MonkeyPatch) -> None:
    """Assembling the broken session raises."""
    build = cclens.readers.claude.assemble._build_items

    def failing(entries: Any) -> Any:
        if any(BROKEN in str(entry.record.session_id) for entry in entries):
            raise RuntimeError("planted defect")
        return build(entries)

    monkeypatch.setattr(cclens.readers.claude.assemble, "_build_items", failing)


def run(claude: Path, tmp: Path, *args: str | Path) -> tuple[int, str, str]:
    env = {"CLAUDE_CONFIG_DIR": str(claude), "CCLENS_DB": str(tmp / "index.db")}
    result = CliRunner().invoke(main, [str(a) for a in args], env=env)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def test_each_isolated_names_the_file_and_goes_on() -> None:
    problems: list[Diagnostic] = []

    def work(name: str) -> str:
        if name == "b":
            raise ValueError("no")
        if name == "c":
            raise FileNotFoundError(2, "No such file or directory")
        return name.upper()

    done = list(each_isolated(["a", "b", "c", "d"], work, Path, problems))
    assert done == ["A", "D"]
    assert [str(p) for p in problems] == [
        "b: cclens failed on this file (ValueError: no); it was left out",
        "c: cannot read: No such file or directory",
    ]


@pytest.mark.usefixtures("unreadable")
def test_commands_leave_out_a_session_they_fail_on(claude: Path, tmp_path: Path) -> None:
    code, out, _ = run(claude, tmp_path, "check", "--json", claude)
    report = json.loads(out)
    assert code == 2  # a file could not be read: said, and the rest counted
    assert [u for u in report["unreadable"] if BROKEN in u and "planted defect" in u]
    assert report["sessions"] == 2 and report["tools"]["Bash"]["calls"] == 2
    # Given a path, stats reads the transcripts (without one it answers from the index, whose
    # workers read bytes on their own: the planted defect is not on that path).
    code, out, err = run(claude, tmp_path, "stats", "--json", claude)
    assert json.loads(out)["sessions_read"] == 2 and BROKEN in out + err
    # One rule (README, "Exit status"): a file that could not be read is named, and a command
    # that reads transcripts exits 2 after doing the rest.
    code, out, err = run(claude, tmp_path, "tools", "--json")
    assert code == 2 and json.loads(out)[0]["calls"] == 2 and BROKEN in err
    code, out, _ = run(claude, tmp_path, "permissions", "--json")
    assert code == 2 and BROKEN in out
    code, out, err = run(claude, tmp_path, "dataset", tmp_path / "dataset")
    assert BROKEN in out + err and (tmp_path / "dataset").is_dir()


@pytest.mark.usefixtures("unassemblable")
def test_a_session_that_cannot_be_assembled_is_listed_empty_with_why(
    claude: Path, tmp_path: Path
) -> None:
    code, out, _ = run(claude, tmp_path, "check", "--json", claude)
    report = json.loads(out)
    assert report["sessions"] == 3 and report["tools"]["Bash"]["calls"] == 2
    assert [u for u in report["unreadable"] if BROKEN in u and "planted defect" in u]
    code, out, err = run(claude, tmp_path, "export", "--all", "-o", tmp_path / "html")
    assert code == 0 and len(list((tmp_path / "html").rglob("*.html"))) == 4
    code, out, err = run(
        claude, tmp_path, "show", claude / "projects" / "-tmp-p" / f"{BROKEN}.jsonl"
    )
    assert code == 0 and "planted defect" in out + err


@pytest.fixture
def server(claude: Path, tmp_path: Path, unassemblable: None) -> Iterator[RunningServer]:
    del unassemblable
    with running([claude], tmp_path / "web.db", watch=False) as started:
        yield started


@pytest.mark.slow
def test_pages_answer_when_a_session_cannot_be_assembled(server: RunningServer) -> None:
    with httpx.Client(base_url=server.url, timeout=60) as client:
        for page in ("/", "/stats", "/permissions", "/api/permissions", "/api/projects"):
            assert client.get(page).status_code == 200, page
        shown = client.get(f"/sessions/{BROKEN}")
        assert shown.status_code == 200 and "planted defect" in shown.text
        for session in GOOD:
            assert "hello from" in client.get(f"/sessions/{session}").text
