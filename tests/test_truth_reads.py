"""What cclens reads and how it opens its index, when more than one thing happens at once.

* The status line's background update reads the transcript Claude Code named and indexes the
  configured folders only: given a ``transcript_path`` elsewhere (a temporary folder), it once
  indexed everything two levels above that file. Every file and folder the update process
  opens is recorded here by an audit hook (:func:`sys.addaudithook`), in a real process.
* Two processes opening a new index file at once: the second once died with "SQLite failed
  (duplicate column name: digest)". Migrations run under a lock.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from cclens.index import Index
from cclens.index.storage.connection import connect

from .test_usage import PROJECT, SESSION, assistant, prompt, usage, write

#: Runs the status line's background update with every path it opens or lists printed.
_AUDITED = """
import runpy, sys
seen = []
def hook(event, args):
    if event in ("open", "os.scandir", "os.listdir") and args and isinstance(args[0], (str, bytes)):
        seen.append(args[0] if isinstance(args[0], str) else args[0].decode())
sys.addaudithook(hook)
sys.argv = ["cclens._statusline", *sys.argv[1:]]
try:
    runpy.run_module("cclens._statusline", run_name="__main__")
finally:
    sys.stderr.write("\\n".join(["AUDIT", *seen]) + "\\n")
"""


def _session(path: Path, session: str = SESSION) -> Path:
    return write(
        path,
        [
            prompt("u0", "go", session=session, time="2025-06-01T10:00:00.000Z"),
            assistant("a1", "msg_1", usage(input=3, output=5), parent="u0", session=session),
        ],
    )


def _background_update(db: Path, transcript: Path, claude: Path) -> list[Path]:
    """Run the status line's background update as Claude Code's status line starts it; the
    paths it opened or listed."""
    environment = {**os.environ, "CLAUDE_CONFIG_DIR": str(claude), "HOME": str(claude.parent)}
    done = subprocess.run(
        [sys.executable, "-c", _AUDITED, "--db", str(db), str(transcript)],
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    _, _, audit = done.stderr.partition("AUDIT\n")
    return [Path(line) for line in audit.splitlines() if line]


def _inside(path: Path, folder: Path) -> bool:
    return path.absolute().is_relative_to(folder.absolute())


def test_a_transcript_outside_the_claude_folders_indexes_nothing_around_it(tmp_path: Path) -> None:
    claude = tmp_path / "claude"
    _session(claude / "projects" / PROJECT / f"{SESSION}.jsonl")
    # Somewhere else: a transcript Claude Code names, among many files that are not cclens's.
    foreign = tmp_path / "elsewhere"
    transcript = _session(
        foreign / "deep" / "down" / "f0000000-0000-4000-8000-000000000001.jsonl",
        "f0000000-0000-4000-8000-000000000001",
    )
    for number in range(5):
        _session(
            foreign / f"other{number}" / "x" / f"{number}0000000-0000-4000-8000-000000000000.jsonl"
        )
    db = tmp_path / "data" / "index.db"

    opened = _background_update(db, transcript, claude)
    outside = [p for p in opened if _inside(p, foreign)]
    assert outside == [] or set(outside) == {transcript}, outside
    with Index(db) as index:
        paths = [Path(s.path) for s in index.sessions()]
    assert all(_inside(p, claude) for p in paths), paths


@pytest.mark.slow
def test_a_transcript_inside_the_claude_folders_is_indexed(tmp_path: Path) -> None:
    claude = tmp_path / "claude"
    transcript = _session(claude / "projects" / PROJECT / f"{SESSION}.jsonl")
    beside = tmp_path / "beside"  # next to the configured folder, never read
    _session(beside / "projects" / PROJECT / "b0000000-0000-4000-8000-000000000000.jsonl")
    db = tmp_path / "data" / "index.db"

    opened = _background_update(db, transcript, claude)
    assert not [p for p in opened if _inside(p, beside)]
    with Index(db) as index:
        assert [s.path for s in index.sessions()] == [str(transcript)]


@pytest.mark.parametrize("trial", range(5))
def test_connections_opening_a_new_index_at_once_all_succeed(tmp_path: Path, trial: int) -> None:
    path = tmp_path / "index.db"
    start = threading.Barrier(4)
    errors: list[BaseException] = []

    def open_it() -> None:
        start.wait()
        try:
            connect(path).close()
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=open_it) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


@pytest.mark.slow
def test_two_index_runs_on_a_new_file_both_succeed(tmp_path: Path, corpus: Path) -> None:
    db = tmp_path / "index.db"
    environment = {**os.environ, "CLAUDE_CONFIG_DIR": str(tmp_path / "none")}
    for _ in range(3):
        db.unlink(missing_ok=True)
        runs = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "cclens",
                    "index",
                    "--json",
                    "--claude-dir",
                    str(corpus / "chiphuyen__sniffly"),
                    "--db",
                    str(db),
                ],
                env=environment,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(2)
        ]
        for run in runs:
            out, err = run.communicate(timeout=120)
            assert run.returncode == 0, err
            json.loads(out)
