"""Read a Codex rollout file line by line into typed lines, with their byte offsets.

Each line becomes a :class:`CodexEntry` (the decoded :data:`~cclens.model.codex.CodexLine`
and where it was), or a :class:`~cclens.model.entries.Diagnostic` when it is not a JSON
object (see :mod:`cclens.readers.lines`). Past the first 50 lines in a row of a kind cclens
does not know, of one shape, the lines of that shape are kept as written (``quiet``).
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import TypeAlias

from ...files import open_regular
from ...model._shape import known_tags
from ...model.codex import CodexLine, UnknownLine, decode_line
from ...model.codex.lines import AnyLine
from ...model.entries import LineEntry
from ..lines import LinesRead, decoder, read_lines
from ..quiet import QuietShape, unknown_shape

#: One line of a rollout file and where it came from.
CodexEntry: TypeAlias = LineEntry[CodexLine]


# The class itself makes the entries: one made through the alias ``CodexEntry`` (a subscripted
# generic) costs a call into ``typing`` and a failed ``__orig_class__`` write, each line.
decode_entry = decoder(decode_line, UnknownLine, LineEntry)

#: The ``type`` of every line, item and event cclens knows.
_KNOWN = known_tags(AnyLine)


def quiet_shape(entry: CodexEntry, line: bytes) -> QuietShape | None:
    """The shape of the lines that may follow ``entry`` as quiet lines (see
    :mod:`cclens.readers.quiet`): a line of a kind cclens does not know, which every line of its
    keys and types is too (a line without ``type`` is told a header or a state marker by its
    keys, ``id`` and ``record_type``: not such a one)."""
    record = entry.record
    if type(record) is not UnknownLine:
        return None
    raw = record.raw
    if isinstance(raw, dict) and "type" not in raw and ("id" in raw or "record_type" in raw):
        return None
    return unknown_shape(raw, line, _KNOWN)


#: What reading a rollout file gives.
CodexRead = LinesRead[CodexEntry]


def read_file(path: Path, start_offset: int = 0, start_line: int = 0) -> CodexRead:
    """Every line of ``path`` after ``start_offset``; bad lines become diagnostics. Raises
    ``OSError`` only when the file cannot be read."""
    with open_regular(path) as handle:
        if start_offset:
            handle.seek(start_offset)
        return read_lines(path, handle, start_offset, start_line, decode_entry, quiet=quiet_shape)


def read_data(path: Path, data: bytes, start_offset: int = 0, start_line: int = 0) -> CodexRead:
    """Like :func:`read_file`, over ``data``: the bytes of ``path`` from ``start_offset`` on."""
    return read_lines(
        path, io.BytesIO(data), start_offset, start_line, decode_entry, quiet=quiet_shape
    )
