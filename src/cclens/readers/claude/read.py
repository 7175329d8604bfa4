"""Read a transcript file line by line, with byte offsets, never stopping at a bad line."""

from __future__ import annotations

import io
from pathlib import Path
from typing import BinaryIO

from ...files import open_regular
from ...model import (
    RECORD_TYPES,
    AnyRecord,
    Decoded,
    LargeLine,
    convert_record,
    decode_record,
)
from ...model.entries import Diagnostic, Entry, ReadResult
from ...model.records import UnknownRecord
from ...times import is_in_the_future
from ..lines import (
    FOLDED_LINE,
    add_diagnostic,
    count_more,
    decoder,
    line_start,
    problem_diagnostic,
    read_lines,
)
from ._gc import paused
from .quiet import quiet_shape

__all__ = [
    "FOLDED_LINE",
    "add_diagnostic",
    "count_more",
    "decode_line",
    "line_start",
    "problem_diagnostic",
    "read_data",
    "read_file",
]


def _revise(
    record: AnyRecord, data: bytes | LargeLine
) -> tuple[Decoded[AnyRecord] | None, list[str]]:
    """Claude Code's second look at a line: a record with two ``type`` keys is read as JSON
    parsers read it (the last one), and a timestamp from the future is reported (its time is
    not used: :func:`cclens.times.parse_time`)."""
    revised: Decoded[AnyRecord] | None = None
    problems: list[str] = []
    if isinstance(record, UnknownRecord) and _known_type_written_twice(record, data):
        # {"type":"user","type":"assistant",…}: the typed reading met the first, the plain one
        # kept the last.
        assert isinstance(record.raw, dict)
        kind = record.raw["type"]
        revised = convert_record(record.raw)
        record = revised.value
        problems.append(f"the key `type` is written twice; the last ({kind!r}) is read")
    timestamp = getattr(record, "timestamp", None)
    if is_in_the_future(timestamp):
        problems.append(f"timestamp {timestamp} is in the future; its time is not used")
    return revised, problems


def _known_type_written_twice(record: UnknownRecord, data: bytes | LargeLine) -> bool:
    """Whether a record read as unknown has a known ``type`` after all: the key is written
    twice (the first decides the typed reading, the last the plain one)."""
    raw = record.raw
    kind = raw.get("type") if isinstance(raw, dict) else None
    if not isinstance(kind, str) or kind not in RECORD_TYPES:
        return False
    text = data.skeleton if isinstance(data, LargeLine) else data
    return text.count(b'"type"') > 1


_decode = decoder(decode_record, UnknownRecord, Entry, _revise)


def decode_line(path: Path, number: int, offset: int, data: bytes) -> Entry | Diagnostic:
    """Decode one line (without its newline) into an :class:`Entry` or a :class:`Diagnostic`.

    Never raises: whatever goes wrong with one line is that line's diagnostic.
    """
    return _decode(path, number, offset, data, len(data))


def read_file(path: Path, start_offset: int = 0, start_line: int = 0) -> ReadResult:
    """Read every record of ``path`` after ``start_offset``; bad lines become diagnostics.

    ``start_line`` is the number of lines before ``start_offset`` (so line numbers stay right
    when reading on from an offset). A last line without a newline that does not parse is taken
    to be still being written: it is reported, and ``end_offset`` stays before it so that a
    later read picks it up. Raises ``OSError`` only when the file itself cannot be read. The
    file is read a line at a time (a huge line in chunks): memory never holds the whole file.
    """
    with open_regular(path) as handle, paused():
        if start_offset:
            handle.seek(start_offset)
        return _read_lines(path, handle, start_offset, start_line)


def read_data(path: Path, data: bytes, start_offset: int = 0, start_line: int = 0) -> ReadResult:
    """Like :func:`read_file`, over ``data``: the bytes of ``path`` from ``start_offset`` on.

    For bytes already in memory (the index keeps compressed copies of transcripts).
    """
    with paused():
        return _read_lines(path, io.BytesIO(data), start_offset, start_line)


def _read_lines(path: Path, handle: BinaryIO, start_offset: int, start_line: int) -> ReadResult:
    """Read the lines of ``handle``: the bytes of ``path`` from ``start_offset``."""
    # Lines byte for byte the same as the one before are folded into it (Entry.repeats).
    # Past the first records of a long run of records with nothing to show, the lines are
    # kept as they were written (Entry.quiet, see quiet.py).
    read = read_lines(path, handle, start_offset, start_line, _decode, fold=True, quiet=quiet_shape)
    result = ReadResult(path, read.entries, read.diagnostics, read.lines, read.bytes)
    result.end_offset = read.end_offset
    return result
