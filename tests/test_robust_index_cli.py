"""The index file as the command line handles it: a rebuild never pulls the file from under
another process, an exact key always names its own session, and an index that cannot be
created says so."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest

from cclens.index import Index

from .test_cli_exits import COMMAND, _environment, assert_one_line_error, run
from .test_damage import read_only_view
from .test_index import SMALL


@pytest.fixture
def claude_dir(corpus: Path, tmp_path: Path) -> Path:
    source = next(corpus.rglob(f"{SMALL}.jsonl"))
    project = tmp_path / "claude" / "projects" / "-tmp-app"
    project.mkdir(parents=True)
    shutil.copyfile(source, project / f"{SMALL}.jsonl")
    return tmp_path / "claude"


# 8. The rebuild ------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_rebuild_is_refused_while_another_process_has_the_index_open(
    claude_dir: Path, tmp_path: Path
) -> None:
    db = tmp_path / "data" / "index.db"
    assert run("index", "--claude-dir", str(claude_dir), "--db", str(db)).returncode == 0
    holder = subprocess.Popen(
        [
            *COMMAND[:2],
            "import sys, time; from cclens.index import Index\n"
            "index = Index(sys.argv[1]); print('open', flush=True); time.sleep(120)",
            str(db),
        ],
        stdout=subprocess.PIPE,
        text=True,
        env=_environment(),
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        refused = run("index", "--rebuild", "--claude-dir", str(claude_dir), "--db", str(db))
        line = assert_one_line_error(refused, "in use", "--rebuild")
        assert str(db) in line
        assert db.exists() and not list(db.parent.glob("*.old"))  # nothing moved
    finally:
        holder.kill()
        holder.wait(10)
        assert holder.stdout is not None
        holder.stdout.close()
    done = run("index", "--rebuild", "--claude-dir", str(claude_dir), "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert list(db.parent.glob("index.db.*.old"))
    with Index(db) as index:
        assert index.find(SMALL)


@pytest.mark.slow
def test_a_rebuild_waits_for_an_update_in_progress(claude_dir: Path, tmp_path: Path) -> None:
    """The update lock is taken before anything is moved: a rebuild started during another
    process's update waits for it (and says so), then moves the file aside."""
    db = tmp_path / "data" / "index.db"
    assert run("index", "--claude-dir", str(claude_dir), "--db", str(db)).returncode == 0
    holder = subprocess.Popen(
        [
            *COMMAND[:2],
            "import sys, time; from cclens.index.storage.locking import update_lock\n"
            "with update_lock(__import__('pathlib').Path(sys.argv[1])):\n"
            "    print('locked', flush=True); time.sleep(3)",
            str(db),
        ],
        stdout=subprocess.PIPE,
        text=True,
        env=_environment(),
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        started = time.monotonic()
        done = run("index", "--rebuild", "--claude-dir", str(claude_dir), "--db", str(db))
        assert done.returncode == 0, done.stderr
        assert time.monotonic() - started > 1.5
        assert "waiting" in done.stderr
    finally:
        holder.kill()
        holder.wait(10)
        assert holder.stdout is not None
        holder.stdout.close()
    assert list(db.parent.glob("index.db.*.old"))


# 9. Exact keys --------------------------------------------------------------------------------


@pytest.mark.slow
def test_an_exact_key_resolves_to_itself(claude_dir: Path, tmp_path: Path) -> None:
    """One session id in two project folders: keys ``X`` and ``X-<hash>``; ``X`` is the
    first, and only ``X``."""
    source = claude_dir / "projects" / "-tmp-app" / f"{SMALL}.jsonl"
    other = claude_dir / "projects" / "-tmp-other"
    other.mkdir()
    shutil.copyfile(source, other / f"{SMALL}.jsonl")
    db = tmp_path / "index.db"
    with Index(db) as index:
        index.update([claude_dir])
        keys = sorted(summary.key for summary in index.find(SMALL[:8]))
        assert len(keys) == 2 and SMALL in keys
        other_key = next(key for key in keys if key != SMALL)
        assert [s.key for s in index.find(SMALL)] == [SMALL]
        assert [s.key for s in index.find(other_key)] == [other_key]
    for key in (SMALL, other_key):
        listed = run("restore", key, "--list-versions", "--db", str(db))
        assert listed.returncode == 0, listed.stderr
        printed = run("resume", key, "--print", "--db", str(db), "--claude-dir", str(claude_dir))
        assert printed.returncode == 0, printed.stderr
        assert SMALL in printed.stdout
    out = tmp_path / "out"
    restored = run("restore", SMALL, "-o", str(out), "--db", str(db))
    assert restored.returncode == 0, restored.stderr
    assert (out / f"{SMALL}.jsonl").read_bytes() == source.read_bytes()
    ambiguous = run("restore", SMALL[:8], "--list-versions", "--db", str(db))
    assert ambiguous.returncode == 2 and "matches 2 sessions" in ambiguous.stderr


# 10. An index that cannot be created ------------------------------------------------------------


def test_an_index_in_a_read_only_folder_says_what_failed(claude_dir: Path, tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    with read_only_view(folder, tmp_path / "ro") as view:
        result = run("index", "--claude-dir", str(claude_dir), "--db", str(view / "new.db"))
        line = assert_one_line_error(result, "cannot create", str(view / "new.db"))
        assert "run `cclens index`" not in line
        assert "--db" in line or "CCLENS_DB" in line
        for command in (["sessions"], ["search", "x"]):
            other = run(*command, "--db", str(view / "new.db"), "--claude-dir", str(claude_dir))
            assert_one_line_error(other, "cannot create")
