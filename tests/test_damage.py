"""A damaged index, a read-only one, a full disk: one correct line each, in the CLI and the web
app, and ``--rebuild`` advised only when the file is damaged.

Read-only and full disks are real: a read-only bind mount and a small tmpfs (root ignores file
modes, so ``chmod`` would prove nothing). Where mounting is not allowed those tests skip; the
full disk is also simulated with ``PRAGMA max_page_count``, which runs everywhere.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from cclens.index import Index, IndexReadOnly, IndexUnusable

from .test_index import SMALL, append, prompt_line, transcript
from .test_index_layout import make_claude_dir
from .test_web import running

CCLENS = [sys.executable, "-c", "from cclens.cli import main; main(prog_name='cclens')"]


def cclens(*args: str | Path) -> tuple[int, str]:
    done = subprocess.run(
        [*CCLENS, *map(str, args)], capture_output=True, text=True, timeout=300, check=False
    )
    return done.returncode, done.stderr


def _one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert "Traceback" not in err, err
    assert lines and lines[-1].startswith("cclens: "), err
    return lines[-1]


@pytest.fixture(scope="module")
def built(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = make_claude_dir(corpus, tmp_path_factory.mktemp("claude"))
    db = tmp_path_factory.mktemp("db") / "index.db"
    with Index(db) as index:
        # Without vectors: the damage below is placed in the middle of the file, where these
        # tests expect the stored transcripts (vectors would move them; tests/test_semantic.py
        # damages the vectors themselves).
        index.update([root], embed=False)
    return root, db


def _copy(db: Path, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "index.db"
    shutil.copyfile(db, target)
    return target


def _damage(db: Path) -> None:
    size = db.stat().st_size
    rng = random.Random(13)
    with db.open("r+b") as handle:
        handle.seek(size // 2)
        handle.write(rng.randbytes(64 * 1024))


@pytest.mark.slow
def test_garbage_in_the_middle_is_found_and_rebuild_advised(
    built: tuple[Path, Path], tmp_path: Path
) -> None:
    root, db = built
    damaged = _copy(db, tmp_path / "d")
    _damage(damaged)
    code, err = cclens("index", "--check", "--claude-dir", root, "--db", damaged)
    line = _one_line(err)
    assert code == 2 and "damaged" in line and "--rebuild" in line
    for command in (["search", "error", "--no-update"], ["search", "tool", "--no-update"]):
        code, err = cclens(*command, "--claude-dir", root, "--db", damaged)
        if code != 0:
            line = _one_line(err)
            assert code == 2 and "damaged" in line and "--rebuild" in line
    code, err = cclens("index", "--rebuild", "--claude-dir", root, "--db", damaged)
    assert code == 0, err
    assert list(damaged.parent.glob("index.db.*.old"))  # kept, renamed
    code, err = cclens("index", "--check", "--claude-dir", root, "--db", damaged)
    assert code == 0, err


def test_damage_met_by_a_query_is_one_line_naming_it(
    built: tuple[Path, Path], tmp_path: Path
) -> None:
    _, db = built
    damaged = _copy(db, tmp_path / "d")
    with Index(damaged) as index:
        keys = [s.key for s in index.sessions()]
    _damage(damaged)
    failures = []
    with Index(damaged) as index:
        for key in keys:
            try:
                index.load(key)
            except IndexUnusable as error:
                failures.append(error)
        for word in ("error", "test", "file", "the"):
            try:
                index.search(word)
            except IndexUnusable as error:
                failures.append(error)
    assert failures  # 64 KB of garbage in the middle of the file is met somewhere
    assert all(error.damaged and "--rebuild" in str(error) for error in failures)


@contextmanager
def read_only_view(folder: Path, view: Path) -> Iterator[Path]:
    """``folder`` seen through a read-only bind mount at ``view``."""
    view.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(["mount", "--bind", str(folder), str(view)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot bind-mount here: {mounted.stderr.decode().strip()}")
    try:
        remounted = subprocess.run(
            ["mount", "-o", "remount,bind,ro", str(view)], capture_output=True
        )
        if remounted.returncode != 0:
            pytest.skip(f"cannot remount read-only: {remounted.stderr.decode().strip()}")
        assert not os.access(view, os.W_OK)  # really read-only, even for root
        yield view
    finally:
        subprocess.run(["umount", str(view)], check=True)


@pytest.mark.slow
def test_a_read_only_file_system_is_read_not_called_damaged(
    built: tuple[Path, Path], tmp_path: Path
) -> None:
    root, db = built
    folder = _copy(db, tmp_path / "data").parent
    with read_only_view(folder, tmp_path / "ro") as view:
        index_path = view / "index.db"
        code, err = cclens(
            "search", "error", "--no-update", "--claude-dir", root, "--db", index_path
        )
        assert code == 0, err
        assert "rebuild" not in err
        code, err = cclens("search", "error", "--claude-dir", root, "--db", index_path)
        assert code == 0 and "read-only: using it as it is" in err
        code, err = cclens("index", "--claude-dir", root, "--db", index_path)
        line = _one_line(err)
        assert code == 2 and "read-only" in line and "rebuild" not in line
        code, err = cclens("restore", SMALL, "-o", tmp_path / "out", "--db", index_path)
        assert code == 0, err
        with Index(index_path) as index:
            assert index.read_only and index.totals().sessions > 100
            with pytest.raises(IndexReadOnly):
                index.update([root])
        with (
            running([root], index_path, watch=False) as server,
            httpx.Client(base_url=server.url, timeout=30) as client,
        ):
            assert client.get("/").status_code == 200
            assert client.get(f"/sessions/{SMALL}").status_code == 200
            assert client.get("/api/search", params={"q": "error"}).json()["total"]["hits"]
            assert "read-only" in client.get("/api/status").json()["error"]


@pytest.mark.slow
def test_a_read_only_index_file_with_changes_to_read(
    corpus: Path, built: tuple[Path, Path], tmp_path: Path
) -> None:
    _, db = built
    root = make_claude_dir(corpus, tmp_path / "claude")
    folder = _copy(db, tmp_path / "data").parent
    Index(folder / "index.db").close()
    path = transcript(root, SMALL)
    append(path, prompt_line(path, "okapi")[0])
    # The file alone read-only (its folder writable): bind-mount it over itself, read-only.
    target = folder / "index.db"
    mounted = subprocess.run(["mount", "--bind", str(target), str(target)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("cannot bind-mount here")
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(target)], check=True)
        code, err = cclens("index", "--claude-dir", root, "--db", target)
        line = _one_line(err)
        assert code == 2 and "read-only" in line and "rebuild" not in line
    finally:
        subprocess.run(["umount", str(target)], check=True)


@contextmanager
def small_disk(where: Path, size: str) -> Iterator[Path]:
    where.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", str(where)], check=True)


@pytest.mark.slow
def test_a_full_disk_is_said_and_the_index_survives(corpus: Path, tmp_path: Path) -> None:
    root = make_claude_dir(corpus, tmp_path / "claude")
    with small_disk(tmp_path / "disk", "3m") as disk:
        db = disk / "index.db"
        code, err = cclens("index", "--claude-dir", root, "--db", db)
        line = _one_line(err)
        assert code == 2 and "full" in line and "rebuild" not in line
        assert "cannot rollback" not in err
        shutil.copyfile(db, tmp_path / "copy.db")
    with Index(tmp_path / "copy.db") as index:  # what was committed is intact
        index.check()


@pytest.mark.slow
def test_a_full_disk_simulated_by_a_page_limit(corpus: Path, tmp_path: Path) -> None:
    root = make_claude_dir(corpus, tmp_path / "claude")
    with Index(tmp_path / "index.db") as index:
        writer = index._writing()
        pages = writer.execute("PRAGMA page_count").fetchone()[0]
        writer.execute(f"PRAGMA max_page_count = {pages + 20}")
        with pytest.raises(IndexUnusable) as full:
            index.update([root], workers=1)
        assert "full" in full.value.reason and not full.value.damaged
        assert "rebuild" not in str(full.value)
        writer.execute("PRAGMA max_page_count = 1073741823")
        index.update([root], workers=1)
        assert index.totals().sessions > 100
        index.check()


@pytest.mark.slow
def test_the_web_app_says_the_index_is_damaged_never_a_500(
    built: tuple[Path, Path], tmp_path: Path
) -> None:
    root, db = built
    damaged = _copy(db, tmp_path / "d")
    with Index(damaged) as index:
        keys = [s.key for s in index.sessions()]
    _damage(damaged)
    statuses: dict[int, list[str]] = {}
    with (
        running([root], damaged, watch=False, index_on_start=False) as server,
        httpx.Client(base_url=server.url, timeout=60) as client,
    ):
        paths = [f"/sessions/{key}" for key in keys] + [f"/api/sessions/{key}" for key in keys]
        paths += ["/search?q=error", "/api/search?q=tool", "/"]
        for path in paths:
            answer = client.get(path)
            statuses.setdefault(answer.status_code, []).append(answer.text)
    assert set(statuses) <= {200, 503}, {k: v[0][:300] for k, v in statuses.items()}
    assert 503 in statuses
    assert all("damaged" in text and "--rebuild" in text for text in statuses[503])
