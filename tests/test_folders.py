"""One rule for the folders every command reads (issue 20, item 8): ``--dir`` (and its synonym
``--claude-dir``) names an agent's folder or any folder of transcripts; a folder named that
does not exist is an error (one line, exit 2) on every command, never silently replaced; an
empty one is read as empty; no agent folder at all is one line saying so."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import sampled
from .test_cli_exits import _environment

COMMAND = [sys.executable, "-c", "from cclens.cli import main; main()"]

#: Every command that reads transcripts, with what it needs besides the folder (``{out}`` is a
#: new path to write to).
COMMANDS: dict[str, list[str]] = {
    "index": ["index"],
    "sessions": ["sessions"],
    "search": ["search", "needle"],
    "resume": ["resume", "abc", "--print"],
    "restore": ["restore", "abc", "-o", "{out}"],
    "show": ["show", "abc", "--no-pager"],
    "export": ["export", "--all", "-o", "{out}"],
    "stats": ["stats"],
    "tools": ["tools"],
    "check": ["check"],
    "permissions": ["permissions"],
    "dataset": ["dataset", "{out}"],
    "otel": ["otel", "--endpoint", "http://127.0.0.1:9"],
    "mcp": ["mcp"],
    "serve": ["serve", "--port", "0"],
}
#: Commands that cannot run to their end in a test (a server): checked with a missing folder.
SERVERS = {"serve"}


def _run(tmp_path: Path, args: list[str], *extra: str) -> subprocess.CompletedProcess[str]:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    out = tmp_path / "out"
    argv = [part.replace("{out}", str(out)) for part in args]
    return subprocess.run(
        [*COMMAND, *argv, *extra],
        capture_output=True,
        text=True,
        input="",
        env=_environment(HOME=str(home), CCLENS_DB=str(tmp_path / "index.db")),
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("name", sampled(sorted(COMMANDS), quick=2))
@pytest.mark.parametrize("option", ["--dir", "--claude-dir"])
def test_a_folder_that_does_not_exist_is_an_error(tmp_path: Path, name: str, option: str) -> None:
    missing = tmp_path / "nowhere"
    result = _run(tmp_path, COMMANDS[name], option, str(missing))
    assert result.returncode == 2, (name, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert lines == [
        f"cclens: {missing}: no such file or folder; give an agent's folder (~/.claude, "
        "~/.codex) or a folder holding transcripts"
    ], (name, result.stderr)
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("name", sampled(sorted(set(COMMANDS) - SERVERS), quick=2))
def test_an_empty_folder_is_read_as_empty(tmp_path: Path, name: str) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    result = _run(tmp_path, COMMANDS[name], "--dir", str(empty))
    assert "Traceback" not in result.stderr, (name, result.stderr)
    if name in ("resume", "restore", "show", "export"):
        # Looking a session up in an empty folder finds none: said so in one line.
        assert result.returncode == 2, (name, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1, (name, result.stderr)
        assert "no" in result.stderr
        return
    assert result.returncode == 0, (name, result.stdout, result.stderr)
    if name != "mcp":  # a server speaking JSON-RPC on stdin: nothing to say to an empty input
        assert (result.stdout + result.stderr).strip(), name


@pytest.mark.parametrize("name", sampled(sorted(set(COMMANDS) - SERVERS - {"restore"}), quick=2))
def test_no_agent_folder_at_all_is_one_line(tmp_path: Path, name: str) -> None:
    result = _run(tmp_path, COMMANDS[name])
    assert "Traceback" not in result.stderr, (name, result.stderr)
    assert "folder" in result.stderr and "found" in result.stderr, (name, result.stderr)
    said = [line for line in result.stderr.splitlines() if "folder" in line]
    assert len(said) == 1, (name, result.stderr)


def test_restore_reads_the_index_alone(tmp_path: Path) -> None:
    """``restore`` writes back what the index kept: with no folder it still says, in one line,
    that the session is not in the index."""
    result = _run(tmp_path, COMMANDS["restore"])
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "cclens: no indexed session matches 'abc'; `cclens search` or the web app shows the "
        "sessions the index holds"
    ]
