"""Reading lines: offsets, and every kind of bad line reported by file and line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cclens.model.entries import Diagnostic
from cclens.readers.claude import read_file
from cclens.readers.claude.read import decode_line

GOOD = b'{"type":"user","uuid":"u1","message":{"role":"user","content":"hello"}}'


def write(tmp_path: Path, data: bytes, name: str = "s.jsonl") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_offsets_point_at_each_line(tmp_path: Path) -> None:
    data = GOOD + b"\n\n" + GOOD.replace(b"u1", b"u2") + b"\n"
    path = write(tmp_path, data)
    result = read_file(path)
    assert [e.line for e in result.entries] == [1, 3]
    for entry in result.entries:
        assert data[entry.offset : entry.offset + entry.length] in (
            GOOD,
            GOOD.replace(b"u1", b"u2"),
        )
    assert result.lines == 2
    assert result.end_offset == len(data)


def test_bad_lines_are_reported_and_the_rest_is_read(tmp_path: Path) -> None:
    lines = [
        GOOD,
        b"{not json",
        b"42",
        b'"a string"',
        b"[1, 2]",
        b"null",
        b'{"type":"user","message":{"content":"\xff\xfe"}}',
        b'{"type":"user","message":{"content":"\\ud800 lone"}}',
        GOOD.replace(b"u1", b"u9"),
    ]
    path = write(tmp_path, b"\n".join(lines) + b"\n")
    result = read_file(path)
    # A lone surrogate costs the string one character, not the record (issue 24).
    assert [e.line for e in result.entries] == [1, 8, 9]
    reasons = {d.line: d.reason for d in result.diagnostics}
    assert reasons[2].startswith("invalid JSON")
    assert reasons[3] == "not a JSON object (a number)"
    assert reasons[4] == "not a JSON object (a string)"
    assert reasons[5] == "not a JSON object (an array)"
    assert reasons[6] == "not a JSON object (null)"
    assert reasons[7].startswith("invalid UTF-8")
    assert "lone UTF-16 surrogate" in reasons[8] and "U+FFFD" in reasons[8]
    assert [d.line for d in result.diagnostics if d.partial] == [8]
    for diagnostic in result.diagnostics:
        assert str(diagnostic).startswith(f"{path}:{diagnostic.line}: ")


def test_bom_and_crlf(tmp_path: Path) -> None:
    path = write(tmp_path, b"\xef\xbb\xbf" + GOOD + b"\r\n" + GOOD.replace(b"u1", b"u2") + b"\r\n")
    result = read_file(path)
    assert len(result.entries) == 2 and not result.diagnostics
    assert result.entries[1].offset == 3 + len(GOOD) + 2


def test_half_written_last_line_is_left_for_later(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD + b"\n" + GOOD[:30])
    result = read_file(path)
    assert len(result.entries) == 1
    assert result.diagnostics[0].reason.startswith("incomplete last line")
    assert result.end_offset == len(GOOD) + 1
    # once the writer finishes the line, reading from the offset picks it up
    path.write_bytes(GOOD + b"\n" + GOOD + b"\n")
    later = read_file(path, result.end_offset, start_line=1)
    assert [e.line for e in later.entries] == [2]
    assert not later.diagnostics


def test_complete_last_line_without_newline_is_read(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD)
    result = read_file(path)
    assert len(result.entries) == 1 and result.end_offset == len(GOOD)


def test_multi_megabyte_line(tmp_path: Path) -> None:
    big = "x" * (5 * 1024 * 1024)
    line = json.dumps({"type": "user", "message": {"role": "user", "content": big}}).encode()
    result = read_file(write(tmp_path, line + b"\n" + GOOD + b"\n"))
    assert len(result.entries) == 2


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_decode_or_diagnose(data: bytes) -> None:
    outcome = decode_line(Path("x.jsonl"), 1, 0, data)
    if isinstance(outcome, Diagnostic):
        assert outcome.reason and outcome.line == 1


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=len(GOOD)))
def test_truncated_lines_never_raise(cut: int) -> None:
    outcome = decode_line(Path("x.jsonl"), 1, 0, GOOD[:cut])
    assert isinstance(outcome, Diagnostic) or cut == len(GOOD)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["type", "uuid", "message", "parentUuid", "toolUseResult", "x"]),
        json_values,
    )
)
def test_random_objects_decode_losslessly(value: dict[str, object]) -> None:
    from cclens.model import to_builtins

    line = json.dumps(value).encode()
    outcome = decode_line(Path("x.jsonl"), 1, 0, line)
    assert not isinstance(outcome, Diagnostic)
    assert to_builtins(outcome.record) == json.loads(line)
