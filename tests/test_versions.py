"""A transcript changed other than by growing: the index keeps both versions, never a mix."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from cclens.index import Index

from .test_index import SMALL, append, prompt_line, transcript
from .test_index_cli import run
from .test_index_layout import make_claude_dir


@pytest.fixture
def claude_dir(corpus: Path, tmp_path: Path) -> Path:
    return make_claude_dir(corpus, tmp_path / "claude")


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    with Index(tmp_path / "data" / "index.db") as opened:
        yield opened


def _restored(index: Index, out: Path, version: int | None = None) -> bytes:
    written = index.restore(SMALL, out, overwrite=True, version=version)
    return next(p for p in written if p.name == f"{SMALL}.jsonl").read_bytes()


def _touch_later(path: Path) -> None:
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 5_000_000_000))


def _middle_line(data: bytes) -> tuple[int, bytes]:
    lines = data.splitlines(keepends=True)
    middle = len(lines) // 2
    return middle, lines[middle]


def _edit_middle(path: Path, replacement: bytes) -> bytes:
    lines = path.read_bytes().splitlines(keepends=True)
    middle = len(lines) // 2
    lines[middle] = replacement
    edited = b"".join(lines)
    path.write_bytes(edited)
    _touch_later(path)
    return edited


def _prompt(path: Path, text: str, width: int | None = None) -> bytes:
    line = prompt_line(path, text)[0]
    if width is not None:  # pad the prompt to an exact width, keeping valid JSON
        record = msgspec.json.decode(line)
        record["message"]["content"] += "x" * (width - len(line))
        line = msgspec.json.encode(record) + b"\n"
        assert len(line) == width
    return line


def test_a_longer_middle_line_is_a_new_version_never_a_mix(
    claude_dir: Path, index: Index, tmp_path: Path
) -> None:
    index.update([claude_dir])
    path = transcript(claude_dir, SMALL)
    original = path.read_bytes()
    _, old_line = _middle_line(original)
    edited = _edit_middle(path, _prompt(path, "okapi lanterns", len(old_line) + 500))
    report = index.update([claude_dir])
    assert report.updated == [SMALL]
    assert _restored(index, tmp_path / "new") == edited
    assert _restored(index, tmp_path / "old", version=1) == original
    versions = index.versions(SMALL)
    assert [v.number for v in versions] == [1, 2] and versions[-1].newest
    assert versions[0].size == len(original) and versions[1].size == len(edited)
    assert versions[0].replaced is not None and versions[0].changed == (str(path),)
    # What is derived follows the newest version.
    assert [h.session_key for h in index.search("okapi")] == [SMALL]
    loaded = index.load(SMALL)
    assert loaded is not None and loaded.file_size == len(edited)
    assert not loaded.diagnostics  # no malformed line from a mix of versions


@pytest.mark.slow
def test_a_same_length_edit_is_noticed(claude_dir: Path, index: Index, tmp_path: Path) -> None:
    index.update([claude_dir])
    path = transcript(claude_dir, SMALL)
    original = path.read_bytes()
    _, old_line = _middle_line(original)
    edited = _edit_middle(path, _prompt(path, "quetzal harmonics", len(old_line)))
    assert len(edited) == len(original) and edited != original
    index.update([claude_dir])
    assert _restored(index, tmp_path / "new") == edited
    assert _restored(index, tmp_path / "old", version=1) == original
    assert [h.session_key for h in index.search("quetzal")] == [SMALL]


@pytest.mark.slow
def test_a_truncation_keeps_what_was_removed(
    claude_dir: Path, index: Index, tmp_path: Path
) -> None:
    index.update([claude_dir])
    path = transcript(claude_dir, SMALL)
    original = path.read_bytes()
    kept = b"".join(original.splitlines(keepends=True)[:3])
    path.write_bytes(kept)
    index.update([claude_dir])
    assert _restored(index, tmp_path / "new") == kept
    assert _restored(index, tmp_path / "old", version=1) == original
    loaded = index.load(SMALL)
    assert loaded is not None and loaded.entries[-1].line <= 3
    # Then it grows again: appends go to the newest version only.
    line = _prompt(path, "narwhal ledger")
    append(path, line)
    report = index.update([claude_dir])
    assert report.bytes_read == len(line)
    assert _restored(index, tmp_path / "grown") == kept + line
    assert _restored(index, tmp_path / "old", version=1) == original
    assert len(index.versions(SMALL)) == 2


@pytest.mark.slow
def test_appends_and_a_rewrite_back_and_forth(
    claude_dir: Path, index: Index, tmp_path: Path
) -> None:
    index.update([claude_dir])
    path = transcript(claude_dir, SMALL)
    first = path.read_bytes()
    append(path, _prompt(path, "one"))
    index.update([claude_dir])
    assert len(index.versions(SMALL)) == 1  # an append is not a new version
    second = path.read_bytes()
    path.write_bytes(first)  # back to the start
    _touch_later(path)
    index.update([claude_dir])
    assert _restored(index, tmp_path / "1", version=1) == second
    assert _restored(index, tmp_path / "2", version=2) == first
    # The same line again, then a different last line: an append, then a new version.
    path.write_bytes(second)
    _touch_later(path)
    index.update([claude_dir])
    assert len(index.versions(SMALL)) == 2
    third = first + _prompt(path, "two")
    path.write_bytes(third)
    _touch_later(path)
    index.update([claude_dir])
    versions = index.versions(SMALL)
    assert [v.number for v in versions] == [1, 2, 3]
    assert _restored(index, tmp_path / "1", version=1) == second
    assert _restored(index, tmp_path / "2", version=2) == second
    assert _restored(index, tmp_path / "3", version=3) == third
    assert _restored(index, tmp_path / "n") == third
    with pytest.raises(ValueError, match="versions 1 to 3"):
        index.restore(SMALL, tmp_path / "x", version=4)


@pytest.mark.slow
def test_an_unchanged_file_is_not_read_or_hashed_again(claude_dir: Path, index: Index) -> None:
    index.update([claude_dir])
    report = index.update([claude_dir])
    assert report.bytes_read == 0 and report.files_read == 0 and report.changed == []
    # Touched, not changed: read and checked, but no new version.
    path = transcript(claude_dir, SMALL)
    _touch_later(path)
    report = index.update([claude_dir])
    assert report.bytes_read == 0
    assert len(index.versions(SMALL)) == 1


@pytest.mark.slow
def test_an_index_without_hashes_still_notices_an_edit(
    claude_dir: Path, index: Index, tmp_path: Path
) -> None:
    index.update([claude_dir])
    # As an index written before versions existed: no hash of what was stored.
    raw = sqlite3.connect(index.path, isolation_level=None)
    raw.execute("UPDATE files SET digest = NULL")
    raw.close()
    path = transcript(claude_dir, SMALL)
    original = path.read_bytes()
    _, old_line = _middle_line(original)
    edited = _edit_middle(path, _prompt(path, "ibex", len(old_line)))
    index.update([claude_dir])
    assert _restored(index, tmp_path / "new") == edited
    assert _restored(index, tmp_path / "old", version=1) == original


@pytest.mark.slow
def test_restore_versions_from_the_command_line(claude_dir: Path, tmp_path: Path) -> None:
    db = tmp_path / "index.db"
    assert run("index", "--claude-dir", claude_dir, "--db", db)[0] == 0
    path = transcript(claude_dir, SMALL)
    original = path.read_bytes()
    _, old_line = _middle_line(original)
    edited = _edit_middle(path, _prompt(path, "tapir", len(old_line) + 3))
    assert run("index", "--claude-dir", claude_dir, "--db", db)[0] == 0
    common: list[str | Path] = ["--claude-dir", claude_dir, "--db", db]
    code, out, _ = run("restore", SMALL, "--list-versions", *common)
    assert code == 0 and "version 1: replaced" in out and "version 2: newest" in out
    code, out, _ = run("restore", SMALL, "--list-versions", "--json", *common)
    listed = msgspec.json.decode(out)
    assert [v["version"] for v in listed] == [1, 2] and listed[1]["newest"] is True
    code, _, _ = run("restore", SMALL, "-o", tmp_path / "old", "--version", "1", *common)
    assert code == 0
    assert next((tmp_path / "old").rglob(f"{SMALL}.jsonl")).read_bytes() == original
    code, _, _ = run("restore", SMALL, "-o", tmp_path / "new", *common)
    assert next((tmp_path / "new").rglob(f"{SMALL}.jsonl")).read_bytes() == edited
    code, _, err = run("restore", SMALL, "-o", tmp_path / "x", "--version", "9", *common)
    assert code == 2 and "versions 1 to 2" in err and "Traceback" not in err
