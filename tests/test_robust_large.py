"""Huge lines: read in chunks, their long strings decoded a window at a time, read as before.

The thresholds are made small here so that every case (a string cut between chunks, in the
middle of an escape, of a UTF-8 character, of a surrogate pair; a string that never ends) is met
with small lines; the reader must give exactly what reading the line whole gives.
"""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cclens.model._large as large
import cclens.readers.lines as read
from cclens.model import LARGE_LINE, to_builtins
from cclens.model.entries import ReadResult
from cclens.readers.claude import read_data, read_file


@pytest.fixture
def small_thresholds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(read, "LARGE_LINE", 64)
    monkeypatch.setattr(large, "LONG_STRING", 16)
    monkeypatch.setattr(large, "_WINDOW", 24)
    monkeypatch.setattr(large, "_CHUNK", 7)


def _both(path: Path, data: bytes) -> tuple[ReadResult, ReadResult]:
    """``data`` read in chunks (as the thresholds say), and read a whole line at a time."""
    path.write_bytes(data)
    chunked = read_file(path)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(read, "LARGE_LINE", 1 << 40)
        whole = read_data(path, data)
    return chunked, whole


def _same(chunked: ReadResult, whole: ReadResult) -> None:
    assert [to_builtins(e.record) for e in chunked.entries] == [
        to_builtins(e.record) for e in whole.entries
    ]
    assert [(e.line, e.offset, e.length) for e in chunked.entries] == [
        (e.line, e.offset, e.length) for e in whole.entries
    ]
    assert [(d.line, d.partial) for d in chunked.diagnostics] == [
        (d.line, d.partial) for d in whole.diagnostics
    ]
    assert (chunked.lines, chunked.end_offset) == (whole.lines, whole.end_offset)


_TEXT = st.text(
    alphabet=st.sampled_from(["a", "\\", '"', "\n", "\t", "é", "€", "😀", "\u2028", "\x00", "/"]),
    max_size=120,
)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(texts=st.lists(_TEXT, min_size=1, max_size=4), ascii_only=st.booleans())
def test_long_strings_read_in_windows_are_the_strings(
    texts: list[str], ascii_only: bool, tmp_path_factory: pytest.TempPathFactory
) -> None:
    path = tmp_path_factory.mktemp("large") / "s.jsonl"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(read, "LARGE_LINE", 64)
        patch.setattr(large, "LONG_STRING", 16)
        patch.setattr(large, "_WINDOW", 24)
        patch.setattr(large, "_CHUNK", 7)
        record = {
            "type": "user",
            "message": {"role": "user", "content": texts[0]},
            "toolUseResult": {f"k{i}": text for i, text in enumerate(texts)},
            texts[-1] * 3: "a key too",
        }
        line = json.dumps(record, ensure_ascii=ascii_only).encode()
        chunked, whole = _both(path, line + b"\n" + line + b"\r\n" + b"{}\n")
        _same(chunked, whole)
        assert to_builtins(chunked.entries[0].record) == record


@pytest.mark.usefixtures("small_thresholds")
@pytest.mark.parametrize(
    "line",
    [
        b'{"type":"user","message":{"content":"' + b"x" * 300,  # never ends
        b'{"type":"user","message":{"content":"' + b"x" * 300 + b'\\q"}}',  # a bad escape
        b'{"type":"user","message":{"content":"' + b"x" * 300 + b'\\ud800"}}',  # lone half
        b'{"type":"user","message":{"content":"' + b"x" * 300 + b'\xff"}}',  # not UTF-8
        b'["' + b"y" * 300 + b'"]',  # not an object
        b" " * 300,  # blank
        b'{"type":"user","x":"' + b"z" * 200 + b'"}' + b" " * 100,
    ],
)
def test_a_bad_huge_line_is_reported_as_the_whole_line_would_be(
    line: bytes, tmp_path: Path
) -> None:
    chunked, whole = _both(tmp_path / "s.jsonl", line + b"\n" + b'{"type":"user"}\n')
    _same(chunked, whole)


@pytest.mark.usefixtures("small_thresholds")
def test_a_huge_last_line_still_being_written_waits(tmp_path: Path) -> None:
    line = b'{"type":"user","message":{"content":"' + b"x" * 300
    chunked, whole = _both(tmp_path / "s.jsonl", b'{"type":"user"}\n' + line)
    _same(chunked, whole)
    assert chunked.end_offset == len(b'{"type":"user"}\n')
    assert "incomplete last line" in chunked.diagnostics[0].reason


@pytest.mark.usefixtures("small_thresholds")
def test_a_huge_first_line_after_a_byte_order_mark(tmp_path: Path) -> None:
    line = json.dumps({"type": "user", "message": {"content": "é" * 200}}).encode()
    chunked, whole = _both(tmp_path / "s.jsonl", b"\xef\xbb\xbf" + line + b"\n")
    _same(chunked, whole)
    assert chunked.entries[0].offset == 3


def test_a_200_megabyte_string_is_held_once(tmp_path: Path) -> None:
    """Not a benchmark: only that the real thresholds take the chunked path for such a line
    and give the string back whole (``benchmarks/robust.py`` measures the memory)."""
    text = "line of output\n" * (20 * 1024 * 1024 // 15)
    path = tmp_path / "big.jsonl"
    path.write_bytes(
        msgspec.json.encode({"type": "user", "message": {"role": "user", "content": text}}) + b"\n"
    )
    assert path.stat().st_size > LARGE_LINE
    result = read_file(path)
    record = result.entries[0].record
    assert record.message.content == text  # type: ignore[union-attr]
