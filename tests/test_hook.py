"""``cclens hook``: the JSON Claude Code passes a ``SessionEnd`` or ``PreCompact`` hook on
stdin archives that transcript (only what was appended), and the hook exits 0 whatever comes:
garbage, a missing transcript, one outside the Claude folders, a busy index, a deadline."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cclens.index.storage.locking import update_lock
from cclens.setup.hook import options

from .conftest import CORPUS

SOURCE = (
    CORPUS
    / "iansherr__claude-code-log/test/test_data/real_projects"
    / "-Users-dain-workspace-claude-code-log-sample/0d3a8e6f-290f-4105-a327-a2496e5e2a83.jsonl"
)
SESSION = "0d3a8e6f-290f-4105-a327-a2496e5e2a83"
SRC = Path(__file__).resolve().parents[1] / "src"


class Machine:
    """A Claude folder with one live session (the first half of a real transcript), cclens's
    data folder and an index file, all in a temporary folder."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.claude = root / "claude"
        self.project = self.claude / "projects" / "-Users-dain-workspace-claude-code-log-sample"
        self.project.mkdir(parents=True)
        self.transcript = self.project / f"{SESSION}.jsonl"
        self.lines = SOURCE.read_bytes().splitlines(keepends=True)
        self.half = len(self.lines) // 2
        self.transcript.write_bytes(b"".join(self.lines[: self.half]))
        self.data = root / "data"
        self.db = root / "index.db"
        self.env = {
            **os.environ,
            "CLAUDE_CONFIG_DIR": str(self.claude),
            "XDG_DATA_HOME": str(self.data),
            "HOME": str(root / "home"),
            "PYTHONPATH": str(SRC),
        }
        self.env.pop("CCLENS_DB", None)

    def payload(self, event: str = "SessionEnd", **extra: object) -> str:
        """The JSON Claude Code writes on the hook's stdin (2.1.x)."""
        found: dict[str, object] = {
            "session_id": SESSION,
            "transcript_path": str(self.transcript),
            "cwd": "/Users/dain/workspace/claude-code-log-sample",
            "permission_mode": "default",
            "hook_event_name": event,
        }
        if event == "SessionEnd":
            found["reason"] = "prompt_input_exit"
        else:
            found.update(trigger="auto", custom_instructions="")
        found.update(extra)
        return json.dumps(found)

    def hook(
        self, stdin: str, *, timeout: float = 60, wait: bool = True
    ) -> subprocess.CompletedProcess[str]:
        """Run the hook as Claude Code does; ``wait``: archive before returning (``--wait``)."""
        return subprocess.run(
            [sys.executable, "-m", "cclens", "hook", "--db", str(self.db)]
            + (["--wait"] if wait else []),
            input=stdin,
            capture_output=True,
            text=True,
            env=self.env,
            timeout=timeout,
            check=False,
        )

    @property
    def state(self) -> dict[str, object]:
        found = json.loads((self.data / "cclens" / "hook.json").read_text())
        assert isinstance(found, dict)
        return found

    @property
    def log(self) -> str:
        path = self.data / "cclens" / "cclens.log"
        return path.read_text() if path.exists() else ""

    def stored(self) -> int:
        """How many bytes of the transcript the index holds."""
        connection = sqlite3.connect(self.db)
        try:
            row = connection.execute(
                "SELECT offset FROM files WHERE path = ?", (str(self.transcript),)
            ).fetchone()
        finally:
            connection.close()
        return int(row[0]) if row else 0


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    return Machine(tmp_path)


@pytest.mark.slow
def test_session_end_then_pre_compact_archive_what_was_appended(machine: Machine) -> None:
    done = machine.hook(machine.payload("SessionEnd"))
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    size = machine.transcript.stat().st_size
    assert machine.stored() == size
    state = machine.state
    assert state["outcome"] == "archived" and state["event"] == "SessionEnd"
    assert state["session"] == SESSION and state["bytes_read"] == size

    # Claude Code goes on, then compacts: only the new lines are read.
    added = b"".join(machine.lines[machine.half :])
    with machine.transcript.open("ab") as handle:
        handle.write(added)
    done = machine.hook(machine.payload("PreCompact"))
    assert done.returncode == 0
    assert machine.stored() == machine.transcript.stat().st_size == SOURCE.stat().st_size
    assert machine.state["bytes_read"] == len(added)
    assert machine.state["event"] == "PreCompact"
    # Then the session ends with nothing new: a glance at the index says so.
    assert machine.hook(machine.payload("SessionEnd")).returncode == 0
    assert machine.state["outcome"] == "nothing new"
    assert machine.log == ""


@pytest.mark.parametrize("stdin", ["", "not json", "[1, 2]", '{"transcript_path": 3}', "\xff\xfe"])
def test_garbage_on_stdin_exits_0_and_is_logged(machine: Machine, stdin: str) -> None:
    done = machine.hook(stdin)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert machine.state["outcome"] != "archived"
    assert "cclens.hook" in machine.log
    assert not machine.db.exists() or machine.stored() == 0


def test_a_missing_transcript_exits_0(machine: Machine) -> None:
    machine.transcript.unlink()
    done = machine.hook(machine.payload())
    assert done.returncode == 0 and done.stderr == ""
    assert machine.state["outcome"] == "transcript not found"


def test_a_transcript_outside_the_claude_folders_is_left_alone(machine: Machine) -> None:
    elsewhere = machine.root / "elsewhere" / "a" / "b"
    elsewhere.mkdir(parents=True)
    stray = elsewhere / f"{SESSION}.jsonl"
    shutil.copy(SOURCE, stray)
    (elsewhere.parent / "other.jsonl").write_bytes(SOURCE.read_bytes())
    done = machine.hook(machine.payload(transcript_path=str(stray)))
    assert done.returncode == 0
    assert "outside the configured Claude folders" in str(machine.state["outcome"])
    assert not machine.db.exists()


@pytest.mark.slow
def test_a_busy_index_is_left_to_the_update_holding_it(machine: Machine) -> None:
    assert machine.hook(machine.payload()).returncode == 0
    with machine.transcript.open("ab") as handle:
        handle.write(b"".join(machine.lines[machine.half :]))
    before = machine.stored()
    with update_lock(machine.db):
        started = time.monotonic()
        done = machine.hook(machine.payload())
        took = time.monotonic() - started
    assert done.returncode == 0 and done.stderr == ""
    assert machine.state["outcome"] == "index busy: left to the update under way"
    assert machine.stored() == before
    assert took < 5


@pytest.mark.slow
def test_the_hook_ends_itself_at_its_deadline(machine: Machine) -> None:
    # stdin left open and silent: the hook waits for it, then its deadline ends it (made short
    # here; 10 s in use).
    script = (
        "import sys; import cclens.setup.hook as hook; hook.DEADLINE = 0.5; "
        f"sys.exit(hook.main(['--db', {str(machine.db)!r}]))"
    )
    with subprocess.Popen(
        [sys.executable, "-c", script],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=machine.env,
    ) as process:
        started = time.monotonic()
        try:
            assert process.wait(timeout=30) == 0
        finally:
            process.kill()
        assert time.monotonic() - started < 10
    assert str(machine.state["outcome"]).startswith("gave up after")
    assert "gave up" in machine.log


def _archived(machine: Machine, size: int, within: float = 60) -> bool:
    """Whether the index comes to hold ``size`` bytes of the transcript, and the run is
    recorded as archived, within ``within`` seconds."""
    ends = time.monotonic() + within
    while time.monotonic() < ends:
        hook_json = machine.data / "cclens" / "hook.json"
        if (
            hook_json.exists()
            and machine.db.exists()
            and machine.state.get("outcome") == "archived"
            and machine.stored() == size
        ):
            return True
        time.sleep(0.05)
    return False


def test_without_wait_a_process_of_its_own_archives_and_the_hook_returns(
    machine: Machine,
) -> None:
    done = machine.hook(machine.payload("SessionEnd"), wait=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert _archived(machine, machine.transcript.stat().st_size)
    assert machine.state["event"] == "SessionEnd" and machine.log == ""
    # Nothing new: answered by the hook itself, no process started.
    assert machine.hook(machine.payload("SessionEnd"), wait=False).returncode == 0
    assert machine.state["outcome"] == "nothing new"


def test_the_archive_outlives_claude_code_ending_its_hooks(machine: Machine) -> None:
    """Claude Code ends the hooks it started when it exits after SessionEnd (anthropics/
    claude-code#41577): the process doing the archive is in a session of its own."""
    with subprocess.Popen(
        [sys.executable, "-m", "cclens", "hook", "--db", str(machine.db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=machine.env,
        start_new_session=True,  # the hook's group, as Claude Code starts it
    ) as process:
        process.communicate(machine.payload("SessionEnd").encode(), timeout=60)
        assert process.returncode == 0
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # Claude Code exits, ending its hooks
    assert _archived(machine, machine.transcript.stat().st_size)


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ([], (None, False)),
        (["--wait"], (None, True)),
        (["--db", "x.db"], (Path("x.db"), False)),
        (["--wait", "--db", "x.db"], (Path("x.db"), True)),
        (["--db", "x.db", "--wait"], (Path("x.db"), True)),
        (["--help"], None),
        (["--db"], None),
        (["--db", ""], None),
        (["--wait", "--wait"], None),
        (["--db", "a", "--db", "b"], None),
    ],
)
def test_the_short_way_in_takes_only_its_options(
    arguments: list[str], expected: tuple[Path | None, bool] | None
) -> None:
    assert options(arguments) == expected


def test_hook_help_goes_to_the_command_line(machine: Machine) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cclens", "hook", "--help"],
        capture_output=True,
        text=True,
        env=machine.env,
        check=False,
    )
    assert done.returncode == 0 and "--wait" in done.stdout
