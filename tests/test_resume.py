"""Going back into a session: the one command builder, fork points, ``cclens resume``."""

from __future__ import annotations

import json
import os
import shlex
import stat
import subprocess
from pathlib import Path

import pytest

from cclens.readers.claude import AssistantItem, load_session
from cclens.readers.resume import fork_points, resume_command
from cclens.render.context import session_header

from .test_assemble import assistant, tool_result, tool_use, user, write
from .test_index_cli import run

SESSION = "33333333-3333-4333-8333-333333333333"


def test_the_command_names_the_directory_and_quotes_it() -> None:
    plain = resume_command(SESSION, "/home/me/app")
    assert plain.shell == f"cd '/home/me/app' && claude --resume {SESSION}"
    assert plain.argv == ["claude", "--resume", SESSION]
    odd = resume_command(SESSION, "/home/o'neil/my app; rm -rf ~")
    # A POSIX shell reads it back as the same two commands, whatever the path holds.
    words = shlex.split(odd.shell)
    assert words[:2] == ["cd", "/home/o'neil/my app; rm -rf ~"]
    assert words[2:] == ["&&", "claude", "--resume", SESSION]
    assert resume_command(SESSION).shell == f"claude --resume {SESSION}"


def test_a_fork_keeps_the_original_and_can_stop_at_a_message() -> None:
    fork = resume_command(SESSION, "/app", fork=True)
    assert fork.argv == ["claude", "--resume", SESSION, "--fork-session"]
    at = resume_command(SESSION, "/app", at="u-9")
    assert at.argv == ["claude", "--resume", SESSION, "--fork-session", "--resume-session-at=u-9"]
    assert resume_command(SESSION, "/app").at_message("u-9") == at


def _session(tmp_path: Path, cwd: str) -> Path:
    records = [
        user("u1", None, "list the files", cwd=cwd),
        assistant("a1", "u1", "m1", [{"type": "text", "text": "Listing."}]),
        assistant("a2", "a1", "m1", [tool_use("t1", "Bash", command="ls")]),
        user("r1", "a2", [tool_result("t1", "a.txt")], cwd=cwd),
        assistant("a3", "r1", "m2", [{"type": "text", "text": "One file."}]),
        {**user("s1", "a3", "side", isSidechain=True)},
        user("u2", "a3", "thanks", cwd=cwd),
    ]
    for record in records:
        record["cwd"] = cwd
    return write(tmp_path / "projects" / "-app" / f"{SESSION}.jsonl", *records)


def test_fork_points_keep_each_message_whole(tmp_path: Path) -> None:
    session = load_session(_session(tmp_path, "/app"))
    points = fork_points(session)
    responses = [item.anchor for item in session.main_line if isinstance(item, AssistantItem)]
    # A response is kept with the results of its tool calls; prompts at themselves.
    assert points == {"u1": "u1", responses[0]: "r1", responses[1]: "a3", "u2": "u2"}


def test_the_session_header_offers_the_command_with_its_directory(tmp_path: Path) -> None:
    session = load_session(_session(tmp_path, "/home/me/app"))
    assert session_header(session).resume_command == (
        f"cd '/home/me/app' && claude --resume {SESSION}"
    )


@pytest.fixture
def fake_claude(tmp_path: Path) -> Path:
    """A ``claude`` on PATH that writes down where it ran and with what."""
    folder = tmp_path / "bin"
    folder.mkdir()
    log = tmp_path / "claude-ran.json"
    script = folder / "claude"
    script.write_text(
        "#!/usr/bin/env python3\nimport json, os, sys\n"
        f"json.dump({{'cwd': os.getcwd(), 'argv': sys.argv[1:]}}, open({str(log)!r}, 'w'))\n"
    )
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return folder


def test_cclens_resume_prints_and_runs(tmp_path: Path, fake_claude: Path) -> None:
    workdir = tmp_path / "work dir"
    workdir.mkdir()
    _session(tmp_path / "claude", str(workdir))
    db, claude = tmp_path / "index.db", tmp_path / "claude"
    code, out, _ = run("resume", SESSION[:8], "--print", "--claude-dir", claude, "--db", db)
    assert code == 0
    assert out.strip() == f"cd '{workdir}' && claude --resume {SESSION}"
    # Indexed or not, the session is found; --at forks at a message (kept whole).
    run("index", "--claude-dir", claude, "--db", db)
    response = next(
        item.anchor
        for item in load_session(claude / "projects" / "-app" / f"{SESSION}.jsonl").main_line
        if isinstance(item, AssistantItem)
    )
    code, out, _ = run("resume", SESSION, "--at", response, "--print", "--db", db)
    assert out.strip().endswith(f"--resume {SESSION} --fork-session --resume-session-at=r1")
    env = {"PATH": f"{fake_claude}{os.pathsep}{os.environ['PATH']}"}
    code, _, _ = run("resume", SESSION, "--fork", "--db", db, env=env)
    assert code == 0
    ran = json.loads((tmp_path / "claude-ran.json").read_text())
    assert ran == {"cwd": str(workdir), "argv": ["--resume", SESSION, "--fork-session"]}


def test_cclens_resume_says_what_is_missing_in_one_line(tmp_path: Path, fake_claude: Path) -> None:
    claude = tmp_path / "claude"
    _session(claude, str(tmp_path / "gone"))
    db = tmp_path / "index.db"
    code, _, err = run("resume", SESSION, "--claude-dir", claude, "--db", db, env={"PATH": ""})
    assert code != 0 and "`claude` is not on PATH" in err and len(err.strip().splitlines()) == 1
    assert f"claude --resume {SESSION}" in err
    env = {"PATH": str(fake_claude)}
    code, _, err = run("resume", SESSION, "--claude-dir", claude, "--db", db, env=env)
    assert code != 0 and "no longer exists" in err and len(err.strip().splitlines()) == 1
    code, out, _ = run("resume", SESSION, "--print", "--claude-dir", claude, "--db", db, env=env)
    assert code == 0 and "gone" in out  # --print still works
    code, _, err = run("resume", SESSION, "--at", "nope", "--claude-dir", claude, "--db", db)
    assert code != 0 and "has no message 'nope'" in err
    code, _, err = run("resume", "ffffffff", "--claude-dir", claude, "--db", db)
    assert code != 0 and "no session" in err


def test_the_printed_command_runs_in_a_shell(tmp_path: Path, fake_claude: Path) -> None:
    workdir = tmp_path / "it's here"
    workdir.mkdir()
    command = resume_command(SESSION, str(workdir)).shell
    env = {**os.environ, "PATH": f"{fake_claude}{os.pathsep}{os.environ['PATH']}"}
    subprocess.run(["sh", "-c", command], check=True, env=env)
    ran = json.loads((tmp_path / "claude-ran.json").read_text())
    assert ran == {"cwd": str(workdir), "argv": ["--resume", SESSION]}
