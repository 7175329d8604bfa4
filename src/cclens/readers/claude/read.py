"""Read a transcript file line by line, with byte offsets, never stopping at a bad line."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path
from typing import BinaryIO

import msgspec

from ...files import open_regular
from ...model import (
    LARGE_LINE,
    RECORD_TYPES,
    AnyRecord,
    Decoded,
    LargeLine,
    convert_record,
    decode_large_record,
    decode_record,
    has_lone_surrogate,
    read_large_line,
    replace_lone_surrogates,
)
from ...model.entries import Diagnostic, Entry, ReadResult
from ...model.records import UnknownRecord
from ...times import is_in_the_future
from ._gc import paused

_BOM = b"\xef\xbb\xbf"
_EXCERPT = 80
_SHOWN_PROBLEMS = 3


def _excerpt(data: bytes, length: int | None = None) -> str:
    length = len(data) if length is None else length
    text = data[: min(_EXCERPT, length)].decode("utf-8", errors="replace")
    return text + ("…" if length > _EXCERPT else "")


def _reason(data: bytes, error: Exception) -> str:
    if isinstance(error, UnicodeDecodeError):
        return f"invalid UTF-8 at byte {error.start} of the line"
    if has_lone_surrogate(data):
        return "lone UTF-16 surrogate escape in a string"
    message = str(error)
    if message == "Input data was truncated":
        return "truncated JSON (the line ends in the middle of a value)"
    return f"invalid JSON: {message}"


def decode_line(path: Path, number: int, offset: int, data: bytes) -> Entry | Diagnostic:
    """Decode one line (without its newline) into an :class:`Entry` or a :class:`Diagnostic`.

    Never raises: whatever goes wrong with one line is that line's diagnostic.
    """
    return _decode(path, number, offset, data, len(data))


def _decode(
    path: Path, number: int, offset: int, data: bytes | LargeLine, length: int
) -> Entry | Diagnostic:
    """:func:`decode_line` over ``data``, whose first ``length`` bytes are the line's JSON (what
    follows is its line end: JSON allows that whitespace, and a huge line is not copied)."""
    repairs: list[str] = []
    try:
        decoded = decode_large_record(data) if isinstance(data, LargeLine) else decode_record(data)
    except (msgspec.DecodeError, UnicodeDecodeError) as error:
        text = data.skeleton if isinstance(data, LargeLine) else data
        repaired = _without_lone_surrogates(data, error)
        if repaired is None:
            return Diagnostic(path, number, _reason(text, error), offset, _start(data, length))
        decoded = repaired
        repairs.append(_SURROGATE_REPAIRED)
    except Exception as error:  # a defect in cclens must cost one line, not the file
        reason = f"cclens could not read this line ({type(error).__name__}: {error})"
        return Diagnostic(path, number, reason, offset, _start(data, length))
    if isinstance(data, LargeLine) and data.repaired and _SURROGATE_REPAIRED not in repairs:
        repairs.append(_SURROGATE_REPAIRED)  # in a long string, read in parts
    record = decoded.value
    if isinstance(record, UnknownRecord) and not isinstance(record.raw, dict):
        kind = type(record.raw).__name__
        names = {"str": "a string", "int": "a number", "float": "a number", "list": "an array"}
        shown = names.get(kind, "null" if record.raw is None else kind)
        reason = f"not a JSON object ({shown})"
        return Diagnostic(path, number, reason, offset, _start(data, length))
    if isinstance(record, UnknownRecord) and _known_type_written_twice(record, data):
        # {"type":"user","type":"assistant",…}: read as JSON parsers read it, the last one.
        kind = record.raw["type"]
        decoded = convert_record(record.raw)
        record = decoded.value
        repairs.append(f"the key `type` is written twice; the last ({kind!r}) is read")
    timestamp = getattr(record, "timestamp", None)
    if is_in_the_future(timestamp):
        repairs.append(f"timestamp {timestamp} is in the future; its time is not used")
    problems = (*decoded.problems, *repairs)
    excerpt = _start(data, length) if problems else ""
    return Entry(record, number, offset, length, tuple(decoded.notes), problems, excerpt)


_SURROGATE_REPAIRED = "a lone UTF-16 surrogate escape was read as U+FFFD (\ufffd)"


def _without_lone_surrogates(
    data: bytes | LargeLine, error: Exception
) -> Decoded[AnyRecord] | None:
    """The record of a line that failed only for lone surrogate escapes (``\\ud800``, half a
    character), each read as the replacement character; ``None`` otherwise."""
    text = data.skeleton if isinstance(data, LargeLine) else data
    if isinstance(error, UnicodeDecodeError) or not has_lone_surrogate(text):
        return None
    try:
        if isinstance(data, LargeLine):  # in a short string, left in the skeleton
            if data.error is not None:
                return None
            return decode_large_record(replace(data, skeleton=replace_lone_surrogates(text)))
        return decode_record(replace_lone_surrogates(text))
    except (msgspec.DecodeError, UnicodeDecodeError):
        return None


def _known_type_written_twice(record: UnknownRecord, data: bytes | LargeLine) -> bool:
    """Whether a record read as unknown has a known ``type`` after all: the key is written
    twice (the first decides the typed reading, the last the plain one)."""
    raw = record.raw
    kind = raw.get("type") if isinstance(raw, dict) else None
    if not isinstance(kind, str) or kind not in RECORD_TYPES:
        return False
    text = data.skeleton if isinstance(data, LargeLine) else data
    return text.count(b'"type"') > 1


def _start(data: bytes | LargeLine, length: int) -> str:
    """The excerpt of a line shown in its diagnostic."""
    return _excerpt(data.head if isinstance(data, LargeLine) else data[:_EXCERPT], length)


def problem_diagnostic(path: Path, entry: Entry) -> Diagnostic:
    """The partial diagnostic of an entry whose line had parts of an unexpected shape."""
    reason = "; ".join(entry.problems[:_SHOWN_PROBLEMS])
    more = len(entry.problems) - _SHOWN_PROBLEMS
    if more > 0:
        reason += f"; and {more} more"
    return Diagnostic(path, entry.line, reason, entry.offset, entry.excerpt, partial=True)


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


#: Lines longer than this are never compared with the one before (a real line is unique).
FOLDED_LINE = 4096


def _fold(entries: list[Entry], diagnostics: list[Diagnostic], repeats: int) -> None:
    """Fold ``repeats`` lines, the same as the last one read, into its outcome: its entry (and
    the partial diagnostic of its problems) or its diagnostic."""
    last_diagnostic = diagnostics[-1] if diagnostics else None
    if entries and (last_diagnostic is None or entries[-1].line >= last_diagnostic.line):
        entry = entries[-1]
        entry.repeats += repeats
        if last_diagnostic is None or last_diagnostic.line != entry.line:
            return
    assert last_diagnostic is not None
    diagnostics[-1] = replace(last_diagnostic, repeats=last_diagnostic.repeats + repeats)


def _read_lines(path: Path, handle: BinaryIO, start_offset: int, start_line: int) -> ReadResult:
    """Read the lines of ``handle``: the bytes of ``path`` from ``start_offset``.

    Each line is read with its newline; a line of :data:`cclens.model.LARGE_LINE` bytes or
    more is read on in chunks (:func:`cclens.model.read_large_line`), never held whole.
    """
    result = ReadResult(path, end_offset=start_offset)
    entries = result.entries
    diagnostics = result.diagnostics
    position = end_offset = start_offset
    if start_offset == 0:
        if handle.read(len(_BOM)) == _BOM:
            position = len(_BOM)
        else:
            handle.seek(0)
    number = start_line
    lines = 0
    readline = handle.readline
    limit = LARGE_LINE
    # The last line read, while lines just like it are folded into its outcome (see
    # Entry.repeats), and how many were.
    previous: bytes | None = None
    repeats = 0
    while read := readline(limit):
        number += 1
        offset = position
        if read == previous:
            position += len(read)
            lines += 1
            repeats += 1
            end_offset = position
            continue
        if repeats:
            _fold(entries, diagnostics, repeats)
            repeats = 0
        previous = None
        line: bytes | LargeLine = read
        if len(read) == limit and read[-1] != 10:  # no newline yet: a huge line
            line = large = read_large_line(read, handle)
            position += large.size
            newline, length = large.newline, large.length
            blank = not large.strings and large.skeleton.isspace()
        else:
            position += len(read)
            newline = read[-1] == 10  # "\n"
            length = len(read) - newline
            if length and read[length - 1] == 13:  # "\r"
                length -= 1
            blank = read[0] != 123 and read.isspace()  # not "{": only spaces?
        if blank:
            if newline:
                end_offset = position
            continue
        lines += 1
        outcome = _decode(path, number, offset, line, length)
        if isinstance(outcome, Diagnostic):
            if not newline:
                # A half-written last line: report it, but leave it to be read again later.
                reason = f"incomplete last line ({outcome.reason}); the file may still be written"
                diagnostics.append(Diagnostic(path, number, reason, offset, outcome.excerpt))
                break
            diagnostics.append(outcome)
        else:
            entries.append(outcome)
            if outcome.problems:
                diagnostics.append(problem_diagnostic(path, outcome))
        if newline and line is read and len(read) <= FOLDED_LINE:
            previous = read  # (a huge line is never folded: only its first chunk is held)
        end_offset = position
    if repeats:
        _fold(entries, diagnostics, repeats)
    result.lines = lines
    result.end_offset = end_offset
    result.bytes = end_offset - start_offset
    return result
