"""The index archives exactly the bytes on disk, an incomplete last line included.

A crash or a full disk leaves a transcript cut in the middle of a line. Those bytes are the
user's: the index keeps them (``restore`` gives every byte on disk), and when the line is
completed later, the next update reads it whole and keeps the rest, without reading any record
twice.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from cclens.index import Index
from cclens.index.storage.compression import compress

from .test_index import SMALL, transcript
from .test_index_layout import make_claude_dir


@pytest.fixture
def claude_dir(corpus: Path, tmp_path: Path) -> Path:
    return make_claude_dir(corpus, tmp_path / "claude")


def _cut(data: bytes, line: int, within: int) -> int:
    """The offset ``within`` bytes into line number ``line`` (1-based) of ``data``."""
    start = 0
    for _ in range(line - 1):
        start = data.index(b"\n", start) + 1
    return start + within


def _restored(index: Index, key: str, out: Path) -> bytes:
    written = index.restore(key, out, overwrite=True)
    return next(path for path in written if path.name.endswith(f"{SMALL}.jsonl")).read_bytes()


@pytest.mark.slow
def test_a_cut_last_line_is_archived_and_completed_later(claude_dir: Path, tmp_path: Path) -> None:
    path = transcript(claude_dir, SMALL)
    whole = path.read_bytes()
    cut = _cut(whole, 5, 40)
    path.write_bytes(whole[:cut])
    with Index(tmp_path / "index.db") as index:
        index.update([claude_dir])
        key = index.find(SMALL)[0].key
        first = index.load(key)
        assert first is not None
        assert _restored(index, key, tmp_path / "r1") == whole[:cut]
        # Claude Code deletes the file: the cut line is still archived.
        path.unlink()
        index.update([claude_dir])
        assert _restored(index, key, tmp_path / "r2") == whole[:cut]
        # It comes back completed, and longer: the rest is read, the cut line whole, once.
        path.write_bytes(whole)
        index.update([claude_dir])
        assert _restored(index, key, tmp_path / "r3") == whole
        completed = index.load(key)
        assert completed is not None
        fresh = tmp_path / "fresh.db"
    with Index(fresh) as other:
        other.update([claude_dir])
        from_scratch = other.load(other.find(SMALL)[0].key)
        assert from_scratch is not None
    uuids = [getattr(item, "uuid", None) for item in completed.items]
    assert uuids == [getattr(item, "uuid", None) for item in from_scratch.items]
    assert len(completed.items) > len(first.items)
    assert not [d for d in completed.diagnostics if "incomplete" in d.reason]


@pytest.mark.slow
def test_every_update_keeps_what_is_on_disk(claude_dir: Path, tmp_path: Path) -> None:
    """A file written a few bytes at a time, cut anywhere, is archived whole at every step."""
    path = transcript(claude_dir, SMALL)
    whole = path.read_bytes()
    cuts = sorted({0, 1, 7, *range(100, len(whole), 997), len(whole)})
    with Index(tmp_path / "index.db") as index:
        for step, cut in enumerate(cuts):
            path.write_bytes(whole[:cut])
            os.utime(path, ns=(step * 10**9, step * 10**9))
            index.update([claude_dir])
            found = index.find(SMALL)
            if not cut:
                continue
            assert _restored(index, found[0].key, tmp_path / f"r{step}") == whole[:cut], cut
        session = index.load(found[0].key)
    assert session is not None
    with Index(tmp_path / "fresh.db") as other:
        other.update([claude_dir])
        fresh = other.load(other.find(SMALL)[0].key)
    assert fresh is not None
    assert [getattr(i, "uuid", None) for i in session.items] == [
        getattr(i, "uuid", None) for i in fresh.items
    ]


@pytest.mark.slow
def test_an_index_that_stopped_before_the_cut_line_takes_it_now(
    claude_dir: Path, tmp_path: Path
) -> None:
    """Indexes written before this change stored only up to the last complete line and, the
    file's size and time unchanged, never read it again: the next update takes the tail."""
    path = transcript(claude_dir, SMALL)
    whole = path.read_bytes()
    cut = _cut(whole, 5, 40)
    path.write_bytes(whole[:cut])
    db = tmp_path / "index.db"
    with Index(db) as index:
        index.update([claude_dir])
        key = index.find(SMALL)[0].key
    line_end = whole.rindex(b"\n", 0, cut) + 1
    with sqlite3.connect(db) as connection:  # what the previous version left
        (file_id,) = connection.execute(
            "SELECT id FROM files WHERE path = ?", (str(path),)
        ).fetchone()
        connection.execute("DELETE FROM chunks WHERE file = ?", (file_id,))
        connection.execute(
            "INSERT INTO chunks(file, start, size, data) VALUES (?, 0, ?, ?)",
            (file_id, line_end, compress(whole[:line_end])),
        )
        connection.execute(
            "UPDATE files SET offset = ?, lines = 4 WHERE id = ?", (line_end, file_id)
        )
    with Index(db) as index:
        assert _restored(index, key, tmp_path / "before") == whole[:line_end]
        index.update([claude_dir])
        assert _restored(index, key, tmp_path / "after") == whole[:cut]


def test_the_status_line_reads_a_stored_cut_line_again_whole(
    claude_dir: Path, tmp_path: Path
) -> None:
    """The status line reads what the index has not seen from the last complete line stored:
    the cut line, stored in part, is read again whole once completed."""
    from cclens.index.read.live_usage import StoredFile
    from cclens.reports.live import _tail

    path = transcript(claude_dir, SMALL)
    whole = path.read_bytes()
    cut = _cut(whole, 5, 40)
    line_start = whole.rindex(b"\n", 0, cut) + 1
    stored = StoredFile(1, SMALL, "p", cut, 4, whole[:100])
    tail, start, lines = _tail(path, stored)
    assert (tail, start, lines) == (whole[line_start:], line_start, 4)
    # A line longer than the window looked back through.
    long = tmp_path / "long.jsonl"
    long.write_bytes(b'{"a":1}\n' + b"x" * 200_000)
    tail, start, _ = _tail(long, StoredFile(1, "s", "p", 150_000, 1, b'{"a":1}\n'))
    assert start == 8 and tail == b"x" * 200_000
