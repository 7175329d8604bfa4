"""Read a JSON Lines file line by line, with byte offsets, never stopping at a bad line.

Every agent whose transcripts are JSON Lines (Claude Code, Codex CLI, Copilot CLI) reads them
here, each with its own decoder: a line becomes the agent's typed record, kept with its line
number, byte offset and length, or a :class:`~cclens.model.entries.Diagnostic` saying why it
could not be read (the rest of the file is still read). A last line without a newline that does
not parse is taken to be still being written: it is reported, and the read ends before it so
that a later read picks it up. A line of :data:`cclens.model.LARGE_LINE` bytes or more is read
in chunks (:func:`cclens.model.read_large_line`), never held whole.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO, Generic, Protocol, TypeVar, cast

import msgspec
from msgspec.structs import replace

from ..model import (
    LARGE_LINE,
    Decoded,
    LargeLine,
    decode_large,
    has_lone_surrogate,
    read_large_line,
    replace_lone_surrogates,
)
from ..model.entries import QUIET_KEPT, Diagnostic, QuietLines

_BOM = b"\xef\xbb\xbf"
_EXCERPT = 80
_SHOWN_PROBLEMS = 3

T = TypeVar("T")
E = TypeVar("E", bound="HasProblems")


class HasProblems(Protocol):
    """What a read line keeps that its diagnostic needs."""

    @property
    def line(self) -> int: ...
    @property
    def offset(self) -> int: ...
    @property
    def problems(self) -> tuple[str, ...]: ...
    @property
    def excerpt(self) -> str: ...


class HasRaw(Protocol):
    """A value a model did not know: it keeps the raw JSON."""

    raw: Any


class Read(Protocol):
    """What any reader says of the bytes it read: what it could not read, how many lines, and
    where a later read starts."""

    @property
    def diagnostics(self) -> list[Diagnostic]: ...
    @property
    def lines(self) -> int: ...
    @property
    def end_offset(self) -> int: ...


class LinesRead(msgspec.Struct, Generic[E]):
    """The lines read from one file (or from an offset in it)."""

    path: Path
    entries: list[E] = msgspec.field(default_factory=list)
    diagnostics: list[Diagnostic] = msgspec.field(default_factory=list)
    #: Non-empty lines seen (records plus malformed lines).
    lines: int = 0
    #: Bytes read, from the start offset.
    bytes: int = 0
    #: Where a later read should start: after the last complete line.
    end_offset: int = 0


def excerpt(data: bytes, length: int | None = None) -> str:
    """The start of a line, as a diagnostic shows it."""
    length = len(data) if length is None else length
    text = data[: min(_EXCERPT, length)].decode("utf-8", errors="replace")
    return text + ("…" if length > _EXCERPT else "")


def line_start(data: bytes | LargeLine, length: int) -> str:
    """The excerpt of a line shown in its diagnostic."""
    return excerpt(data.head if isinstance(data, LargeLine) else data[:_EXCERPT], length)


def reason(data: bytes, error: Exception) -> str:
    """Why a line is not JSON, in words."""
    if isinstance(error, UnicodeDecodeError):
        return f"invalid UTF-8 at byte {error.start} of the line"
    if has_lone_surrogate(data):
        return "lone UTF-16 surrogate escape in a string"
    message = str(error)
    if message == "Input data was truncated":
        return "truncated JSON (the line ends in the middle of a value)"
    return f"invalid JSON: {message}"


_NOT_AN_OBJECT = "not a JSON object ("
#: The first bytes of a line that may be an object: "{" and white space.
_OBJECT_OR_SPACE = frozenset(b"{ \t\r\n\f\v")


def not_an_object(raw: Any) -> str:
    """The reason given for a line whose JSON value is not an object."""
    kind = type(raw).__name__
    names = {"str": "a string", "int": "a number", "float": "a number", "list": "an array"}
    shown = names.get(kind, "null" if raw is None else kind)
    return f"{_NOT_AN_OBJECT}{shown})"


def problem_diagnostic(path: Path, entry: HasProblems, start: str | None = None) -> Diagnostic:
    """The partial diagnostic of an entry whose line had parts of an unexpected shape;
    ``start``: the excerpt of its line (:func:`line_start`; else the entry's own)."""
    text = "; ".join(entry.problems[:_SHOWN_PROBLEMS])
    more = len(entry.problems) - _SHOWN_PROBLEMS
    if more > 0:
        text += f"; and {more} more"
    shown = entry.excerpt if start is None else start
    return Diagnostic(path, entry.line, text, entry.offset, shown, partial=True)


#: The notes and problems of lines read so far, each kept once: a million lines with the same
#: problem share one tuple, not a million equal ones (emptied when it grows past a bound).
_SHARED: dict[tuple[str, ...], tuple[str, ...]] = {}
_SHARED_BOUND = 4096


def _shared(found: tuple[str, ...]) -> tuple[str, ...]:
    if not found:
        return ()
    kept = _SHARED.get(found)
    if kept is None:
        if len(_SHARED) >= _SHARED_BOUND:
            _SHARED.clear()
        kept = _SHARED[found] = found
    return kept


def add_diagnostic(diagnostics: list[Diagnostic], found: Diagnostic) -> None:
    """Append ``found`` to ``diagnostics``, or fold it into the last one when that one says
    the same (same reason, both partial or both not) of the line just before: a run of lines
    with the same problem is one diagnostic, its first line with its excerpt and offset, and
    ``repeats`` the lines after it (a million ``[N]`` lines are one diagnostic, not a million)."""
    if diagnostics and found.line:
        last = diagnostics[-1]
        if (
            found.line == last.line + last.repeats + 1
            and found.reason == last.reason
            and found.partial == last.partial
            and (found.path is last.path or found.path == last.path)
        ):
            count_more(diagnostics, 1 + found.repeats)
            return
    diagnostics.append(found)


#: An agent's decoder of one line: ``(path, line number, offset, data, length)`` to an entry or
#: a diagnostic (``data``'s first ``length`` bytes are the line's JSON). Never raises.
LineDecoder = Callable[[Path, int, int, "bytes | LargeLine", int], "E | Diagnostic"]


#: What a line whose lone surrogate escapes were read as U+FFFD says.
SURROGATE_REPAIRED = "a lone UTF-16 surrogate escape was read as U+FFFD (\ufffd)"

#: An agent's second look at a decoded line (its decoded value and the line): a value to use
#: instead (``None``: the one decoded), and problems to report with it.
Reviser = Callable[[T, "bytes | LargeLine"], "tuple[Decoded[T] | None, list[str]]"]


def _without_lone_surrogates(
    decode: Callable[[bytes | LargeLine], Decoded[T]], data: bytes | LargeLine, error: Exception
) -> Decoded[T] | None:
    """The value of a line that failed only for lone surrogate escapes (``\\ud800``, half a
    character), each read as the replacement character; ``None`` otherwise."""
    text = data.skeleton if isinstance(data, LargeLine) else data
    if isinstance(error, UnicodeDecodeError) or not has_lone_surrogate(text):
        return None
    try:
        if isinstance(data, LargeLine):  # in a short string, left in the skeleton
            if data.error is not None:
                return None
            return decode(replace(data, skeleton=replace_lone_surrogates(text)))
        return decode(replace_lone_surrogates(text))
    except (msgspec.DecodeError, UnicodeDecodeError):
        return None


def decoder(
    decode_whole: Callable[[bytes], Decoded[T]],
    unknown: type[HasRaw],
    make: Callable[[T, int, int, int, tuple[str, ...], tuple[str, ...], str], E],
    revise: Reviser[T] | None = None,
) -> Callable[[Path, int, int, bytes | LargeLine, int], E | Diagnostic]:
    """A :data:`LineDecoder` from an agent's ``decode_whole`` of one line's bytes (raises
    ``msgspec.DecodeError`` for what is not JSON; a line read in parts is given to it by its
    skeleton, :func:`cclens.model.decode_large`), ``unknown`` (the type of a value its model did
    not know, holding its ``raw`` JSON: a value that is not an object is a malformed line) and
    ``make`` (the entry: ``(value, number, offset, length, notes, problems, excerpt)``);
    ``revise``, when given, looks again at each decoded value (see :data:`Reviser`).

    A lone UTF-16 surrogate escape (``\\ud800``) costs its string one character, read as
    U+FFFD, not the whole line: the line is read, with a problem saying so."""

    def decode(data: bytes | LargeLine) -> Decoded[T]:
        if isinstance(data, LargeLine):
            return decode_large(data, decode_whole)
        return decode_whole(data)

    def decode_line(
        path: Path, number: int, offset: int, data: bytes | LargeLine, length: int
    ) -> E | Diagnostic:
        if type(data) is bytes and data[:1] != b"{" and not data[:1].isspace():
            # Not an object (``[1]``, ``"text"``, ``5``): no record to type, only its kind to
            # name (anything unusual, such as invalid JSON, takes the way below).
            try:
                plain = msgspec.json.decode(data)
            except Exception:  # (said by the way below)
                pass
            else:
                why = not_an_object(plain)
                return Diagnostic(path, number, why, offset, line_start(data, length))
        repairs: list[str] = []
        try:
            decoded = decode(data)
        except (msgspec.DecodeError, UnicodeDecodeError) as error:
            text = data.skeleton if isinstance(data, LargeLine) else data
            repaired = _without_lone_surrogates(decode, data, error)
            if repaired is None:
                why = reason(text, error)
                return Diagnostic(path, number, why, offset, line_start(data, length))
            decoded = repaired
            repairs.append(SURROGATE_REPAIRED)
        except Exception as error:  # a defect in cclens must cost one line, not the file
            why = f"cclens could not read this line ({type(error).__name__}: {error})"
            return Diagnostic(path, number, why, offset, line_start(data, length))
        if isinstance(data, LargeLine) and data.repaired and SURROGATE_REPAIRED not in repairs:
            repairs.append(SURROGATE_REPAIRED)  # in a long string, read in parts
        value = decoded.value
        if isinstance(value, unknown) and not isinstance(value.raw, dict):
            why = not_an_object(value.raw)
            return Diagnostic(path, number, why, offset, line_start(data, length))
        if revise is not None:
            revised, more = revise(value, data)
            if revised is not None:
                decoded, value = revised, revised.value
            repairs.extend(more)
        problems = _shared((*decoded.problems, *repairs))
        # (the excerpt of a line with problems is its diagnostic's: read_lines makes it)
        return make(value, number, offset, length, _shared(tuple(decoded.notes)), problems, "")

    return decode_line


#: Lines longer than this are never compared with the one before (a real line is unique).
FOLDED_LINE = 4096


class Folds(HasProblems, Protocol):
    """An entry that lines just like its own can be folded into (see ``read_lines``)."""

    repeats: int


def count_more(diagnostics: list[Diagnostic], more: int) -> None:
    """``more`` lines with the last diagnostic's problem, just after it, counted in it (lines
    byte for byte the same as its last, or other lines with the same reason)."""
    last = diagnostics[-1]
    repeats = last.repeats + more
    diagnostics[-1] = Diagnostic(
        last.path, last.line, last.reason, last.offset, last.excerpt, last.partial, repeats
    )


def _fold(entries: list[Any], diagnostics: list[Diagnostic], repeats: int) -> None:
    """Fold ``repeats`` lines, the same as the last one read, into its outcome: its entry (and
    the partial diagnostic of its problems) or its diagnostic."""
    last_diagnostic = diagnostics[-1] if diagnostics else None
    if entries and (last_diagnostic is None or entries[-1].line >= last_diagnostic.line):
        entry = entries[-1]
        entry.repeats += repeats
        if last_diagnostic is None or not (
            last_diagnostic.line <= entry.line <= last_diagnostic.line + last_diagnostic.repeats
        ):
            return  # (its problems' diagnostic may start earlier: a run folded by reason)
    count_more(diagnostics, repeats)


class Shape(Protocol):
    """What the lines after an entry must be to be kept as its quiet lines (compared with
    ``==``: a run is of entries of equal shapes)."""

    def fitting(self) -> Callable[[bytes], bool]:
        """Whether a line (its bytes) has the shape (no escape in it, ``"type"`` at most once):
        a function called for each line."""
        ...

    def leading(self) -> Callable[[list[bytes]], int]:
        """How many of the lines given (without their line breaks), from the first, have the
        shape (as :meth:`fitting` says of each)."""
        ...


#: Bytes read at once while a run of quiet lines goes on.
_QUIET_BLOCK = 1 << 20


def _quiet_lines(
    handle: BinaryIO, leading: Callable[[list[bytes]], int], kept: bytearray
) -> tuple[int, int]:
    """Append to ``kept`` the complete lines from ``handle``'s position on that ``leading`` says
    have the run's shape, as written (with their line breaks); how many, and their bytes.
    ``handle`` is left after them. Read a block at a time: a million quiet lines cost one
    msgspec call per thousands, and no copy of them but ``kept``."""
    start = handle.tell()
    count = size = 0
    while block := handle.read(_QUIET_BLOCK):
        lines = block.split(b"\n")
        lines.pop()  # (after the last line break: a line read line by line, or in the next block)
        if not lines:
            break  # (a last line without a line break, or a long one)
        fit = leading(lines)
        taken = sum(map(len, lines[:fit])) + fit if fit < len(lines) else block.rfind(b"\n") + 1
        kept += memoryview(block)[:taken]
        count += fit
        size += taken
        handle.seek(start + size)  # (the next block starts at the first line not taken)
        if fit < len(lines):
            break
    handle.seek(start + size)  # (after the last line taken, whatever was read past it)
    return count, size


class Quiets(Folds, Protocol):
    """An entry that keeps the lines of a run of records with nothing to show after it."""

    quiet: QuietLines | None

    @property
    def last_line(self) -> int: ...


#: An agent's look at an entry just read from its line: the :class:`Shape` of the lines that
#: may follow it as quiet lines, or ``None``.
QuietShapeOf = Callable[[Any, bytes], "Shape | None"]


def read_lines(
    path: Path,
    handle: BinaryIO,
    start_offset: int,
    start_line: int,
    decode: Callable[[Path, int, int, bytes | LargeLine, int], E | Diagnostic],
    *,
    fold: bool = False,
    quiet: QuietShapeOf | None = None,
) -> LinesRead[E]:
    """Read the lines of ``handle`` (the bytes of ``path`` from ``start_offset``; ``start_line``
    lines come before) with ``decode``.

    ``fold`` (entries with a ``repeats`` count, :class:`Folds`): a line byte for byte the same
    as the one before is folded into its outcome instead of being decoded again (a file of a
    million ``{}`` lines is one entry; Claude Code never writes the same line twice).

    ``quiet`` (entries with ``quiet`` lines, :class:`Quiets`): once :data:`QUIET_KEPT` entries
    in a row, on consecutive lines, have the same shape by ``quiet``, each complete line after
    them that the shape fits is kept as bytes in the last one's
    :class:`~cclens.model.entries.QuietLines` instead of being decoded into an entry; its
    problems, the run's, count in their diagnostic."""
    result: LinesRead[E] = LinesRead(path, end_offset=start_offset)
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
    # The last line read, while lines just like it are folded into its outcome, and how many.
    previous: bytes | None = None
    repeats = 0
    # While the last outcome is a line that is not an object (``[1]``): its reason, and the
    # lines after it found to be the same (not yet counted in its diagnostic).
    run: str | None = None
    more = 0
    # The problems of the last line read, while its diagnostic is the last (the decoder
    # shares equal ones: a line with the same is counted in it).
    problems: tuple[str, ...] | None = None
    json_decode = msgspec.json.decode
    # The shape of the last entry by ``quiet`` and how many entries in a row had it; once the
    # run is long enough, the entry its quiet lines follow, the lines and their count.
    shape: Shape | None = None
    streak = 0
    head: Quiets | None = None
    fits: Callable[[bytes], bool] = bool  # (the shape's, when a run starts)
    leading: Callable[[list[bytes]], int] = len
    kept = bytearray()
    quiet_lines = 0
    while read := readline(limit):
        number += 1
        offset = position
        if head is not None:
            if (
                number == head.line + quiet_lines + 1
                and (quiet_lines or read != previous)  # (its own line again: folded into it)
                and read[-1] == 10
                and len(read) < limit
                and fits(read)
            ):
                # This line, and as many after it as fit, a block at a time.
                kept += read
                count, size = _quiet_lines(handle, leading, kept)
                quiet_lines += 1 + count
                if problems:
                    more += 1 + count  # (their problems are the run's: in its diagnostic)
                position += len(read) + size
                number += count
                lines += 1 + count
                end_offset = position
                continue
            if quiet_lines:
                head.quiet = QuietLines(kept, quiet_lines)  # (handed over, not copied)
                previous = None
            head, shape, streak, quiet_lines = None, None, 0, 0
            kept = bytearray()
        if read == previous:
            position += len(read)
            lines += 1
            repeats += 1
            end_offset = position
            continue
        if repeats:
            if more:
                count_more(diagnostics, more)
                more = 0
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
        if run is not None and newline and line is read and read[0] not in _OBJECT_OR_SPACE:
            # Another line that may not be an object either: when it is valid JSON of the
            # same kind, it is counted in the run without a diagnostic of its own.
            try:
                kind = not_an_object(json_decode(read))
            except Exception:  # (said by the decoder below)
                kind = None
            last = diagnostics[-1]
            if kind == run and number == last.line + last.repeats + more + 1:
                more += 1
                if fold and len(read) <= FOLDED_LINE:
                    previous = read
                end_offset = position
                continue
        run = None
        outcome = decode(path, number, offset, line, length)
        if isinstance(outcome, Diagnostic):
            if more:
                count_more(diagnostics, more)
                more = 0
            problems = None
            streak = 0
            if not newline:
                # A half-written last line: report it, but leave it to be read again later.
                why = f"incomplete last line ({outcome.reason}); the file may still be written"
                diagnostics.append(Diagnostic(path, number, why, offset, outcome.excerpt))
                break
            add_diagnostic(diagnostics, outcome)
            if outcome.reason.startswith(_NOT_AN_OBJECT):
                run = outcome.reason
        else:
            if quiet is not None:
                found = quiet(outcome, read) if newline and line is read else None
                if found is None:
                    streak = 0
                elif (
                    streak
                    and found == shape
                    and number == cast("Quiets", entries[-1]).last_line + 1
                ):
                    streak += 1
                else:
                    streak = 1
                shape = found
            entries.append(outcome)
            if (
                outcome.problems
                and outcome.problems is problems
                and number == diagnostics[-1].line + diagnostics[-1].repeats + more + 1
            ):
                more += 1  # the same problems as the line before (shared): in its diagnostic
            else:
                if more:
                    count_more(diagnostics, more)
                    more = 0
                problems = outcome.problems
                if problems:
                    start = line_start(line, length)
                    add_diagnostic(diagnostics, problem_diagnostic(path, outcome, start))
        if streak >= QUIET_KEPT and shape is not None:  # the lines after it may be quiet
            head = cast("Quiets", outcome)
            fits, leading = shape.fitting(), shape.leading()
        if fold and newline and line is read and len(read) <= FOLDED_LINE:
            previous = read  # (a huge line is never folded: only its first chunk is held)
        end_offset = position
    if head is not None and quiet_lines:
        head.quiet = QuietLines(kept, quiet_lines)
    if more:
        count_more(diagnostics, more)
    if repeats:
        _fold(entries, diagnostics, repeats)
    result.lines = lines
    result.end_offset = end_offset
    result.bytes = end_offset - start_offset
    return result
