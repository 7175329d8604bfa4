"""Where a record came from, and what could not be read: the entries every reader returns.

A reader (one per agent, :mod:`cclens.readers`) turns a file into :class:`Entry` values (a
record and its place in the file) and :class:`Diagnostic` values (what it could not read); a
:class:`ReadResult` holds both for one file or the part of it read from an offset.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Generic, TypeVar

import msgspec

from .records import AnyRecord

T = TypeVar("T")


class Diagnostic(msgspec.Struct, frozen=True):
    """A line that could not be read as a record, or a file that could not be read at all.

    ``partial`` diagnostics are about lines that were read: a part of the line did not have
    the shape Claude Code writes (a value of an unexpected type, nesting past the depth
    budget) and was kept as it is, untyped (see :attr:`Entry.problems`).
    """

    path: Path
    line: int
    reason: str
    offset: int = 0
    excerpt: str = ""
    partial: bool = False
    #: Lines just after this one with the same problem, folded into it: byte for byte the
    #: same lines (see :attr:`Entry.repeats`), or other lines with the same ``reason`` (a
    #: million ``[N]`` lines are one diagnostic). ``offset`` and ``excerpt`` are the first's.
    repeats: int = 0

    def __str__(self) -> str:
        where = f"{self.path}:{self.span}" if self.line else str(self.path)
        return f"{where}: {self.reason}"

    @property
    def span(self) -> str:
        """The line, or the first and last of the lines folded into it: ``"7"``, ``"7-90"``."""
        return f"{self.line}-{self.line + self.repeats}" if self.repeats else str(self.line)

    @property
    def count(self) -> int:
        """How many lines it is about (itself and those folded into it)."""
        return 1 + self.repeats

    @property
    def outcome(self) -> str:
        """What became of the line: ``"skipped"``, or ``"read in part"`` (partial)."""
        return "read in part" if self.partial else "skipped"


#: A run of records with nothing to show longer than this keeps its first ``QUIET_KEPT``
#: records as entries and the rest as their lines (:class:`QuietLines`).
QUIET_KEPT = 50


class QuietLines(msgspec.Struct, frozen=True, gc=False):
    """The lines just after an entry's, each a record of the same kind and shape with nothing to
    show and nothing to count (a message-less user record, a record of a type cclens does not
    know): kept as the bytes written, one after the other, not as a million records.

    A reader keeps a run so only past its first :data:`QUIET_KEPT` records, and only when every
    line has exactly the keys of the entry's and values of the same types that the record
    cannot take (so each line would read as the entry's did: same kind, same problems)."""

    #: The lines as written, each with its line break (the reader hands over the buffer it
    #: filled, not a copy).
    data: bytes | bytearray
    #: How many lines (records) ``data`` holds.
    count: int

    def lines(self) -> Iterator[bytes]:
        """Each line's JSON, without its line break (one at a time)."""
        data = self.data
        view = memoryview(data)
        find = data.find
        start = 0
        for _ in range(self.count):
            end = find(b"\n", start)
            yield bytes(view[start:end]).rstrip(b"\r")
            start = end + 1


class LineEntry(msgspec.Struct, Generic[T]):
    """One line of an agent's file, decoded (``record``), and where it came from."""

    record: T
    line: int
    offset: int
    length: int
    #: What the lenient decoder had to set aside (unknown fields, unexpected types).
    notes: tuple[str, ...] = ()
    #: The notes that mean the line does not have the shape the agent writes (each is also
    #: reported as a partial :class:`Diagnostic`).
    problems: tuple[str, ...] = ()
    #: The start of the line, for a diagnostic (the readers of ``readers/lines.py`` leave it
    #: empty: the diagnostic of the line's ``problems`` holds it, not each entry).
    excerpt: str = ""
    #: Lines just after this one, byte for byte the same, folded into it: a file of a million
    #: ``{}`` lines is one entry, read and drawn once (Claude Code never writes the same line
    #: twice: each record has its own uuid and time). Lines counts include them; figures do
    #: not count a record twice anyway.
    repeats: int = 0
    #: Lines after those, records of the same kind with nothing to show, kept as written.
    quiet: QuietLines | None = None

    @property
    def records(self) -> int:
        """How many records it stands for: itself, the lines folded into it, its quiet lines."""
        quiet = self.quiet
        return 1 + self.repeats + (quiet.count if quiet is not None else 0)

    @property
    def last_line(self) -> int:
        """The number of the last line it stands for."""
        return self.line + self.records - 1

    def quiet_records(self) -> Iterator[tuple[int, int, bytes]]:
        """The records of its quiet lines, as a reader would fold them: the number of each
        one's first line, how many lines it is (a line byte for byte the same as the one before
        is folded into it) and its JSON."""
        if self.quiet is None:
            return
        line = self.line + self.repeats + 1
        for written, same in itertools.groupby(self.quiet.lines()):
            count = sum(1 for _ in same)
            yield line, count, written
            line += count


class Entry(LineEntry[AnyRecord]):
    """One record (a Claude Code line, or another agent's line written as one) and where it
    came from."""


class ReadResult(msgspec.Struct):
    """Everything read from one file (or from an offset in it)."""

    path: Path
    entries: list[Entry] = msgspec.field(default_factory=list)
    diagnostics: list[Diagnostic] = msgspec.field(default_factory=list)
    #: Non-empty lines seen (records plus malformed lines).
    lines: int = 0
    #: Bytes read, from the start offset.
    bytes: int = 0
    #: Where a later read should start: after the last complete line. A last line without a
    #: newline that does not parse is treated as still being written and is not consumed.
    end_offset: int = 0


def malformed(diagnostics: Iterable[Diagnostic]) -> int:
    """How many of ``diagnostics`` are about lines that could not be read (the others are
    about lines read in part, or whole files)."""
    return sum(
        diagnostic.count for diagnostic in diagnostics if diagnostic.line and not diagnostic.partial
    )
