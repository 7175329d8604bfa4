"""Files that are not regular files among the transcripts: never opened for reading.

A FIFO named like a transcript blocks whoever opens it until a writer comes; a link to
``/dev/zero`` never ends; a socket cannot be opened at all. cclens reads regular files only:
each of the others is one line naming it, the other sessions are still read, and the command
ends with the exit status every unreadable input gives (2). Every command runs as a real
process under a timeout, so a hang fails the test instead of stopping the suite.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from cclens.files import NotRegularFile, open_regular, read_regular

from .test_cli_exits import COMMAND, Served, _environment
from .test_index import SMALL

SPECIAL = ("fifo.jsonl", "zero.jsonl", "socket.jsonl")
REASON = "not a regular file"
TIMEOUT = 90


@pytest.fixture(scope="module")
def claude_dir(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One real session, and beside it a FIFO, a link to ``/dev/zero`` and a socket, as
    sessions, as a subagent (``agent-*.jsonl``, whose head discovery reads) and as a subagent's
    ``.meta.json`` sidecar."""
    # A short folder: a socket's path must fit in 108 bytes.
    root = Path(tmp_path_factory.mktemp("sp"))
    project = root / "projects" / "-tmp-app"
    nested = project / SMALL / "subagents"
    nested.mkdir(parents=True)
    source = next(corpus.rglob(f"{SMALL}.jsonl"))
    (project / f"{SMALL}.jsonl").write_bytes(source.read_bytes())
    os.mkfifo(project / "fifo.jsonl")
    os.symlink("/dev/zero", project / "zero.jsonl")
    listening = socket.socket(socket.AF_UNIX)
    listening.bind(str(project / "socket.jsonl"))
    os.mkfifo(project / "agent-fifo.jsonl")
    os.mkfifo(nested / "agent-sub.jsonl")
    (nested / "agent-meta.jsonl").write_bytes(b"")
    os.mkfifo(nested / "agent-meta.meta.json")
    os.symlink(root / "nowhere", project / "dangling.jsonl")
    try:
        yield root
    finally:
        listening.close()


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *args],
        capture_output=True,
        text=True,
        env=_environment(COLUMNS="200"),
        timeout=TIMEOUT,
        check=False,
    )


def assert_named(
    result: subprocess.CompletedProcess[str], *names: str, code: int = 2, reason: str = REASON
) -> None:
    """Each of ``names`` is named in one line, ``cclens: cannot read PATH: REASON``; the
    command exits with ``code`` (2 for a command whose inputs the transcripts are; 0 for one
    that answers from the index and refreshed it first)."""
    assert "Traceback" not in result.stderr, result.stderr
    for name in names:
        lines = [line for line in result.stderr.splitlines() if name in line]
        assert lines, (name, result.stderr)
        for line in lines:
            assert line.startswith("cclens: cannot read ") and reason in line, lines
    assert result.returncode == code, result.stderr


# The rule, where files are opened ------------------------------------------------------------


def test_open_regular_refuses_what_is_not_a_regular_file(claude_dir: Path) -> None:
    project = claude_dir / "projects" / "-tmp-app"
    for name in SPECIAL:
        started = time.monotonic()
        with pytest.raises(NotRegularFile) as raised:
            open_regular(project / name)
        assert time.monotonic() - started < 5
        assert REASON in str(raised.value) and raised.value.filename == str(project / name)
        assert isinstance(raised.value, OSError)
    with pytest.raises(NotRegularFile):
        read_regular(project / "fifo.jsonl")
    with pytest.raises(NotRegularFile):
        open_regular(claude_dir)  # a folder neither
    with open_regular(project / f"{SMALL}.jsonl") as handle:
        assert handle.read(1) == b"{"
    assert read_regular(project / f"{SMALL}.jsonl", 5) == b'{"typ'


def test_a_fifo_swapped_in_after_the_check_is_still_not_read(tmp_path: Path) -> None:
    """The type is checked on the opened file, not on its name, so a file replaced by a FIFO
    between a listing and the read never blocks."""
    os.mkfifo(tmp_path / "late.jsonl")
    started = time.monotonic()
    with pytest.raises(NotRegularFile):
        open_regular(tmp_path / "late.jsonl")
    assert time.monotonic() - started < 5


# Every command -------------------------------------------------------------------------------


def test_check_reports_each_special_file_and_reads_the_rest(claude_dir: Path) -> None:
    result = run("check", str(claude_dir), "--json")
    assert_named(result, *SPECIAL, "agent-fifo.jsonl", "agent-sub.jsonl")
    assert_named(result, "dangling.jsonl", reason="No such file or directory")
    report = json.loads(result.stdout)
    assert report["sessions"] >= 1 and report["records"] > 0
    unreadable = " ".join(report["unreadable"])
    assert all(name in unreadable for name in SPECIAL)


@pytest.mark.slow
def test_check_of_a_named_special_file(claude_dir: Path) -> None:
    project = claude_dir / "projects" / "-tmp-app"
    for name in SPECIAL:
        result = run("check", str(project / name))
        assert_named(result, name)


def _did_the_rest(command: str, stdout: str, out: Path, db: Path) -> bool:
    """Whether ``command`` did its work on the regular session."""
    if command == "tools":
        return "Read" in stdout or "Bash" in stdout
    if command == "stats":
        return bool(json.loads(stdout)["total"]["tokens"]["total"] > 0)
    if command == "permissions":
        return bool(json.loads(stdout)["projects"])
    if command == "dataset":
        return any(out.rglob("*.parquet"))
    if command == "export":
        return (out / "index.html").exists() and any(out.rglob(f"{SMALL}.html"))
    if command in ("index", "sessions", "search"):
        return db.exists() and (command == "index" or SMALL in stdout or "groups" in stdout)
    raise AssertionError(command)


@pytest.mark.slow
@pytest.mark.parametrize(
    "command",
    [
        ["tools", "{root}"],
        ["stats", "{root}", "--json"],
        ["permissions", "--claude-dir", "{root}", "--json"],
        ["dataset", "{out}", "--claude-dir", "{root}"],
        ["index", "--claude-dir", "{root}", "--db", "{db}"],
        ["export", "--all", "-o", "{out}", "--claude-dir", "{root}"],
        ["sessions", "--claude-dir", "{root}", "--db", "{db}", "--json"],
        ["search", "error", "--claude-dir", "{root}", "--db", "{db}", "--json"],
    ],
    ids=lambda command: command[0] + ("-all" if "--all" in command else ""),
)
def test_every_command_names_special_files_and_goes_on(
    claude_dir: Path, tmp_path: Path, command: list[str]
) -> None:
    if command[0] == "dataset":
        pytest.importorskip("pyarrow")
    out, db = tmp_path / "out", tmp_path / "i.db"
    values = {"root": str(claude_dir), "out": str(out), "db": str(db)}
    result = run(*(part.format(**values) for part in command))
    code = 0 if command[0] in ("sessions", "search") else 2
    assert_named(result, *SPECIAL, code=code)
    assert_named(result, "dangling.jsonl", code=code, reason="No such file or directory")
    assert _did_the_rest(command[0], result.stdout, out, db), result.stdout[-2000:]


@pytest.mark.slow
def test_export_and_show_of_a_named_fifo(claude_dir: Path, tmp_path: Path) -> None:
    fifo = claude_dir / "projects" / "-tmp-app" / "fifo.jsonl"
    assert_named(run("export", str(fifo), "-o", str(tmp_path / "x.html")), "fifo.jsonl")
    assert not (tmp_path / "x.html").exists()
    assert_named(run("show", str(fifo)), "fifo.jsonl")


def test_the_status_line_of_a_fifo_transcript_answers(claude_dir: Path, tmp_path: Path) -> None:
    fifo = claude_dir / "projects" / "-tmp-app" / "fifo.jsonl"
    given = json.dumps({"session_id": "x", "transcript_path": str(fifo), "model": {}})
    result = subprocess.run(
        [*COMMAND, "statusline", "--db", str(tmp_path / "none.db")],
        input=given,
        capture_output=True,
        text=True,
        env=_environment(),
        timeout=TIMEOUT,
        check=False,
    )
    assert result.returncode == 0 and "Traceback" not in result.stderr
    assert len(result.stdout.strip().splitlines()) == 1


@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_serve_indexes_the_other_sessions_and_stops(
    claude_dir: Path, tmp_path: Path, stop: signal.Signals
) -> None:
    process = subprocess.Popen(
        [
            *COMMAND,
            "serve",
            "--port",
            "0",
            "--claude-dir",
            str(claude_dir),
            "--db",
            str(tmp_path / "index.db"),
        ],
        stderr=subprocess.PIPE,
        text=True,
        env=_environment(TMPDIR=str(tmp_path)),
    )
    served = Served(process)
    try:
        served.wait_for("(Ctrl-C to stop)")
        deadline = time.monotonic() + 60
        # The first update ended (its problems are published when it ends; its sessions are
        # counted as they are committed).
        while (status := httpx.get(served.url + "api/status", timeout=5).json())[
            "updates"
        ] < 1 or status["sessions"] < 1:
            assert time.monotonic() < deadline, served.stderr
            time.sleep(0.1)
        assert httpx.get(f"{served.url}sessions/{SMALL}", timeout=10).status_code == 200
        problems = httpx.get(served.url + "api/status", timeout=5).json()["problems"]
        assert any(REASON in line and "fifo.jsonl" in line for line in problems), problems
        process.send_signal(stop)
        assert process.wait(15) == 0
        assert "Traceback" not in served.stderr
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)
        assert process.stderr is not None
        process.stderr.close()


def test_the_library_never_opens_a_special_file(claude_dir: Path) -> None:
    """Discovery lists them as errors; nothing blocks in this process either."""
    from cclens import discover

    started = time.monotonic()
    found = discover(claude_dir)
    assert time.monotonic() - started < 10
    assert {s.session_id for s in found.sessions} >= {SMALL}
    named = {path.name for path, reason in found.errors if REASON in reason}
    assert named >= {*SPECIAL, "agent-fifo.jsonl", "agent-sub.jsonl"}


def test_every_agents_discovery_names_special_files(tmp_path: Path) -> None:
    """Codex, Gemini and Copilot files go through the same walk: named like theirs, a FIFO is
    an unreadable path, never opened."""
    from cclens.readers import agents

    names = [
        "sessions/2025/06/01/rollout-2025-06-01T09-00-00-x.jsonl",  # Codex
        "tmp/abc/chats/session-2025-06-01T09-00-x.json",  # Gemini
        "session-state/events.jsonl",  # Copilot
    ]
    for name in names:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(path)
    started = time.monotonic()
    found = agents.discover(tmp_path)
    assert time.monotonic() - started < 10
    named = {path.name for path, reason in found.errors if REASON in reason}
    assert named == {Path(name).name for name in names}
    assert not found.sessions
