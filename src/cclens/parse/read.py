"""Read a transcript file line by line, with byte offsets, never stopping at a bad line."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from ..model import AnyRecord, decode_record
from ..model.records import UnknownRecord

_BOM = b"\xef\xbb\xbf"
_EXCERPT = 80
# A \uD800-\uDFFF escape (preceded by an even number of backslashes, so it is an escape).
_SURROGATE = re.compile(rb"(?<!\\)(?:\\\\)*\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_PAIR = re.compile(rb"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}")


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A line that could not be read as a record, or a file that could not be read at all."""

    path: Path
    line: int
    reason: str
    offset: int = 0
    excerpt: str = ""

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else str(self.path)
        return f"{where}: {self.reason}"


@dataclass(slots=True)
class Entry:
    """One record and where it came from."""

    record: AnyRecord
    line: int
    offset: int
    length: int
    #: What the lenient decoder had to set aside (unknown fields, unexpected types).
    notes: tuple[str, ...] = ()


@dataclass(slots=True)
class ReadResult:
    """Everything read from one file (or from an offset in it)."""

    path: Path
    entries: list[Entry] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: Non-empty lines seen (records plus malformed lines).
    lines: int = 0
    #: Bytes read, from the start offset.
    bytes: int = 0
    #: Where a later read should start: after the last complete line. A last line without a
    #: newline that does not parse is treated as still being written and is not consumed.
    end_offset: int = 0


def _excerpt(data: bytes) -> str:
    text = data[:_EXCERPT].decode("utf-8", errors="replace")
    return text + ("…" if len(data) > _EXCERPT else "")


def _has_lone_surrogate(data: bytes) -> bool:
    if b"\\u" not in data and b"\\U" not in data:
        return False
    paired = len(_PAIR.findall(data)) * 2
    return len(_SURROGATE.findall(data)) > paired


def _reason(data: bytes, error: Exception) -> str:
    if isinstance(error, UnicodeDecodeError):
        return f"invalid UTF-8 at byte {error.start} of the line"
    if _has_lone_surrogate(data):
        return "lone UTF-16 surrogate escape in a string"
    message = str(error)
    if message == "Input data was truncated":
        return "truncated JSON (the line ends in the middle of a value)"
    return f"invalid JSON: {message}"


def decode_line(path: Path, number: int, offset: int, data: bytes) -> Entry | Diagnostic:
    """Decode one line (without its newline) into an :class:`Entry` or a :class:`Diagnostic`."""
    try:
        decoded = decode_record(data)
    except (msgspec.DecodeError, UnicodeDecodeError) as error:
        return Diagnostic(path, number, _reason(data, error), offset, _excerpt(data))
    record = decoded.value
    if isinstance(record, UnknownRecord) and not isinstance(record.raw, dict):
        kind = type(record.raw).__name__
        names = {"str": "a string", "int": "a number", "float": "a number", "list": "an array"}
        shown = names.get(kind, "null" if record.raw is None else kind)
        return Diagnostic(path, number, f"not a JSON object ({shown})", offset, _excerpt(data))
    return Entry(record, number, offset, len(data), tuple(decoded.notes))


def read_file(path: Path, start_offset: int = 0, start_line: int = 0) -> ReadResult:
    """Read every record of ``path`` after ``start_offset``; bad lines become diagnostics.

    ``start_line`` is the number of lines before ``start_offset`` (so line numbers stay right
    when reading on from an offset). A last line without a newline that does not parse is taken
    to be still being written: it is reported, and ``end_offset`` stays before it so that a
    later read picks it up. Raises ``OSError`` only when the file itself cannot be read.
    """
    with path.open("rb") as handle:
        if start_offset:
            handle.seek(start_offset)
        data = handle.read()
    return read_data(path, data, start_offset, start_line)


def read_data(path: Path, data: bytes, start_offset: int = 0, start_line: int = 0) -> ReadResult:
    """Like :func:`read_file`, over ``data``: the bytes of ``path`` from ``start_offset`` on.

    For bytes already in memory (the index keeps compressed copies of transcripts).
    """
    result = ReadResult(path, end_offset=start_offset)
    entries = result.entries
    diagnostics = result.diagnostics
    position = 0
    number = start_line
    size = len(data)
    if start_offset == 0 and data.startswith(_BOM):
        position = len(_BOM)
    while position < size:
        number += 1
        newline_at = data.find(b"\n", position)
        newline = newline_at != -1
        end = newline_at if newline else size
        content = data[position:end]
        if content.endswith(b"\r"):
            content = content[:-1]
        offset = start_offset + position
        following = end + 1 if newline else end
        if not content.startswith(b"{") and not content.strip():
            if newline:
                result.end_offset = start_offset + following
            position = following
            continue
        result.lines += 1
        outcome = decode_line(path, number, offset, content)
        if isinstance(outcome, Diagnostic):
            if not newline:
                # A half-written last line: report it, but leave it to be read again later.
                reason = f"incomplete last line ({outcome.reason}); the file may still be written"
                diagnostics.append(Diagnostic(path, number, reason, offset, outcome.excerpt))
                break
            diagnostics.append(outcome)
        else:
            entries.append(outcome)
        result.end_offset = start_offset + following
        position = following
    result.bytes = result.end_offset - start_offset
    return result
