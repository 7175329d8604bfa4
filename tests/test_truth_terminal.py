"""What the commands print for a person: links, local days and times, plurals.

* search hits are links (OSC 8) to the page that opens at them when a server is known;
* ``--since`` is a local day in ``search`` as in every command (it was a UTC day);
* ``permissions`` prints times as the other commands do (it printed raw ISO timestamps);
* one of anything is singular ("1 session", not "1 sessions").
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cclens.cli.main import main

from .test_cli_permissions import Transcript
from .test_terminal_width import in_terminal
from .test_usage import SESSION, assistant, project_dir, prompt, usage, write


def _one_session(root: Path, when: str) -> Path:
    return write(
        project_dir(root) / f"{SESSION}.jsonl",
        [
            prompt("u0", "find the zebra", time=when),
            assistant("a1", "msg_1", usage(input=1, output=1), parent="u0", time=when),
        ],
    )


def _cclens(*args: str, zone: str = "UTC") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cclens", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "TZ": zone, "COLUMNS": "80"},
        timeout=120,
        check=False,
    )


@pytest.mark.slow
def test_search_hits_are_links_when_a_server_is_known(tmp_path: Path) -> None:
    claude = tmp_path / "claude"
    _one_session(claude, "2025-06-01T12:00:00.000Z")
    db = str(tmp_path / "index.db")
    assert _cclens("index", "--claude-dir", str(claude), "--db", db).returncode == 0
    _, plain = in_terminal("search", "zebra", "--db", db, "--no-update")
    assert "/sessions/" in plain and "\x1b]8;" not in plain
    leader = "http://127.0.0.1:8765"
    raw = _raw_terminal("search", "zebra", "--db", db, "--no-update", "--server", leader)
    assert "\x1b]8;id=" in raw or f"\x1b]8;;{leader}/sessions/" in raw
    assert f"{leader}/sessions/" in raw


def _raw_terminal(*args: str) -> str:
    """What ``cclens ARGS`` writes to an 80-column terminal, escape sequences kept."""
    import fcntl
    import pty
    import select
    import struct
    import termios

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    environment = {**os.environ, "TERM": "xterm-256color"}
    environment.pop("NO_COLOR", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "cclens", *args],
        stdin=subprocess.DEVNULL,
        stdout=follower,
        stderr=subprocess.DEVNULL,
        env=environment,
    )
    os.close(follower)
    output = b""
    while select.select([leader], [], [], 60)[0]:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        output += chunk
    process.wait(timeout=60)
    os.close(leader)
    return output.decode("utf-8", "replace")


@pytest.mark.slow
def test_search_since_is_a_local_day(tmp_path: Path) -> None:
    claude = tmp_path / "claude"
    # 12:00 UTC on June 1st is already June 2nd at UTC+14.
    _one_session(claude, "2025-06-01T12:00:00.000Z")
    db = str(tmp_path / "index.db")
    assert _cclens("index", "--claude-dir", str(claude), "--db", db).returncode == 0
    east = "Pacific/Kiritimati"

    def hits(since: str, zone: str) -> int:
        done = _cclens(
            "search", "zebra", "--since", since, "--json", "--db", db, "--no-update", zone=zone
        )
        assert done.returncode == 0, done.stderr
        return int(json.loads(done.stdout)["total"]["hits"])

    assert hits("2025-06-02", east) > 0
    assert hits("2025-06-02", "UTC") == 0
    # The sessions list and stats read --since the same way.
    listed = _cclens(
        "sessions", "--since", "2025-06-02", "--json", "--db", db, "--no-update", zone=east
    )
    assert json.loads(listed.stdout)["total"] == 1


def test_permissions_prints_times_like_the_other_commands(tmp_path: Path) -> None:
    claude = tmp_path / "claude"
    transcript = Transcript(str(tmp_path / "app"))
    transcript.prompt("push it")
    transcript.call("Bash", {"command": "git push"}, rejected=True)
    transcript.write(claude)
    done = _cclens("permissions", "--claude-dir", str(claude))
    assert done.returncode == 0, done.stderr
    (line,) = [line for line in done.stdout.splitlines() if "git push" in line and "→" in line]
    assert "2025-06-01 10:00" in line and "T10:" not in line and "Z " not in line


@pytest.mark.slow
def test_one_of_anything_is_singular(tmp_path: Path) -> None:
    claude = tmp_path / "claude"
    _one_session(claude, "2025-06-01T12:00:00.000Z")
    db = str(tmp_path / "index.db")
    outputs = [
        _cclens("index", "--claude-dir", str(claude), "--db", db).stdout,
        _cclens("stats", "--db", db, "--no-update").stdout,
        _cclens("sessions", "--db", db, "--no-update").stdout,
        _cclens("check", str(claude)).stdout,
        _cclens("search", "zebra", "--db", db, "--no-update").stdout,
    ]
    for text in outputs:
        for noun in ("sessions", "files", "projects", "responses", "hits", "records"):
            assert f" 1 {noun}" not in f" {text}" and f"(1 {noun}" not in text, (noun, text)
    result = CliRunner().invoke(main, ["stats", "--db", db, "--no-update"])
    assert "1 response;" in result.stdout and "1 session (1 file)" in result.stdout
