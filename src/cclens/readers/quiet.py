"""Runs of lines kept as the bytes written (``Entry.quiet``): the shape a line must have.

A file can hold a million records that show nothing and count in no figure (records of a type
cclens does not know, ``{"n":1}``, ``{"n":2}``…). Decoding each into a record costs
microseconds and hundreds of bytes; past the first :data:`~cclens.model.entries.QUIET_KEPT` of a
run, :func:`cclens.readers.lines.read_lines` keeps such lines as the bytes written, once each is
checked to be JSON of the same :class:`QuietShape` as the run's records: the same keys, the same
``type``, values of the same types, nested no deeper than the model keeps typed. An agent's
reader says which of its records may start such a run, and that a line of the shape reads as
its records did (``readers/claude/quiet.py``, ``readers/codex/read.py``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Literal

import msgspec

from ..model import may_be_deep
from ..model._base import EXTRA_KEY, RAW_KEY, UNKNOWN_TAG

#: Keys the model keeps for itself: a line naming one takes the slow way.
_RESERVED = frozenset({EXTRA_KEY, RAW_KEY, UNKNOWN_TAG})


class QuietShape(msgspec.Struct, frozen=True, gc=False):
    """What a line must be to read as the run's records did (see the module docstring)."""

    keys: tuple[str, ...]
    types: tuple[type, ...]
    #: The ``type`` value (``None`` when there is none).
    kind: Any
    #: Whether a value is an array or an object (a line is then checked not to be nested past
    #: the depth the reader keeps typed: :func:`cclens.model.may_be_deep`).
    nested: bool = False
    #: Whether the keys must come in this order (what the agent's reader says of the line
    #: depends on it: a Claude Code user record's problems come in the order of its keys).
    ordered: bool = False

    def fitting(self) -> Callable[[bytes], bool]:
        """Whether a line (its bytes) is JSON of this shape, with no escape and ``"type"`` at
        most once: one function to call for each line of a run."""
        checker = _checker(self)
        decodes = checker.fits if checker is not None else self._fits_key_by_key
        nested = self.nested

        def fits(line: bytes) -> bool:
            return (
                b"\\" not in line
                and line.count(b'"type"') < 2
                and not (nested and may_be_deep(line))
                and decodes(line)
            )

        return fits

    def leading(self) -> Callable[[list[bytes]], int]:
        """How many of the lines given (each without its line break), from the first, the
        shape fits, with no escape and ``"type"`` at most once in each: one msgspec call for
        a block of lines (an array of them), and what msgspec does not check looked at line by
        line; where one does not fit, each line on its own."""
        fits = self.fitting()

        def one_by_one(lines: list[bytes]) -> int:
            for number, line in enumerate(lines):
                if not fits(line):
                    return number
            return len(lines)

        checker = _checker(self)
        if checker is None:
            return one_by_one
        array = msgspec.json.Decoder(list[checker.struct])  # type: ignore[name-defined]
        typed = "type" in self.keys
        each = self.nested or checker.order or checker.fractions  # (looked at line by line)
        nested, rest = self.nested, checker.rest_fits

        def at_once(lines: list[bytes]) -> int:
            joined = b",".join(lines)
            if b"\\" not in joined and (not typed or joined.count(b'"type"') == len(lines)):
                try:
                    decoded = array.decode(b"[" + joined + b"]")
                except Exception:  # (one does not fit: which, line by line)
                    return one_by_one(lines)
                if len(decoded) == len(lines):  # (a line holding two objects would be two)
                    if not each:
                        return len(lines)
                    for number, (value, line) in enumerate(zip(decoded, lines, strict=True)):
                        if (nested and may_be_deep(line)) or not rest(value, line):
                            return number
                    return len(lines)
            return one_by_one(lines)

        return at_once

    def _fits_key_by_key(self, line: bytes) -> bool:
        try:
            value = msgspec.json.decode(line)
        except Exception:  # (not of this shape: read the way every line is)
            return False
        return (
            type(value) is dict
            and tuple(value) == self.keys
            and tuple(map(type, value.values())) == self.types
            and value.get("type") == self.kind
        )


#: The first byte of a JSON number; the longest number with a fraction taken as it is (a
#: double as JavaScript writes it is shorter; a longer one may be out of a double's range).
_NUMBER_START = frozenset(b"-0123456789")
_LONGEST_NUMBER = 26


class _Checker:
    """A line checked against a shape by one msgspec call into a struct of exactly its keys and
    types, and what msgspec does not see: a number kept as written for a ``float`` must be a
    short one with a fraction (msgspec takes ``5`` for one; an exponent may be out of range),
    and the keys of an ordered shape must come in its order (found in the line)."""

    def __init__(self, shape: QuietShape) -> None:
        fields: list[tuple[str, Any]] = []
        rename: dict[str, str] = {}
        self.fractions: list[str] = []
        for number, (key, kind) in enumerate(zip(shape.keys, shape.types, strict=True)):
            name = f"f{number}"
            rename[name] = key
            if key == "type":
                fields.append((name, Literal[shape.kind]))
            elif kind is float:
                fields.append((name, msgspec.Raw))  # (checked below)
                self.fractions.append(name)
            else:
                fields.append((name, kind))
        self.struct = msgspec.defstruct("Quiet", fields, rename=rename, forbid_unknown_fields=True)
        self.decoder = msgspec.json.Decoder(self.struct)
        #: The keys as they are written (``"key":``), in order, when their order matters.
        self.order = (
            [msgspec.json.encode(key) + b":" for key in shape.keys] if shape.ordered else []
        )

    def fits(self, line: bytes) -> bool:
        try:
            decoded = self.decoder.decode(line)  # (raises unless the keys and types are)
        except Exception:  # (not of this shape)
            return False
        return self.rest_fits(decoded, line)

    def rest_fits(self, decoded: Any, line: bytes) -> bool:
        """What msgspec does not check of ``line``, decoded as ``decoded``."""
        for name in self.fractions:  # a number with a fraction, without an exponent
            raw = bytes(getattr(decoded, name))
            if (
                raw[0] not in _NUMBER_START
                or len(raw) > _LONGEST_NUMBER
                or b"." not in raw
                or b"e" in raw
                or b"E" in raw
            ):
                return False
        at = -1
        for key in self.order:  # (no escape: "key": is only ever a key in a flat line)
            found = line.find(key)
            if found <= at:
                return False
            at = found
        return True


@functools.cache
def _checker(shape: QuietShape) -> _Checker | None:
    """The :class:`_Checker` of ``shape``; ``None`` for a ``type`` that is ``true`` or
    ``false`` (not a literal msgspec takes), or an ordered shape with arrays or objects (whose
    keys' order a search of the line cannot tell): a line is then checked key by key."""
    if type(shape.kind) not in (str, int, type(None)):
        return None
    if shape.nested and shape.ordered:
        return None
    return _Checker(shape)


def shape_of(value: dict[str, Any], line: bytes, *, ordered: bool = False) -> QuietShape | None:
    """The shape of ``value``, the object of ``line``, for lines of a run to have (``ordered``:
    their keys in its order); ``None`` when its line has an escape, ``"type"`` twice, a key
    the model keeps for itself, or nesting that may be past the depth budget (such lines are
    read the long way)."""
    if b"\\" in line or line.count(b'"type"') > 1 or not _RESERVED.isdisjoint(value):
        return None
    types = tuple(map(type, value.values()))
    nested = list in types or dict in types
    if nested and may_be_deep(line):
        return None  # (nesting past the budget is read in another way)
    return QuietShape(tuple(value), types, value.get("type"), nested, ordered)


def unknown_shape(raw: Any, line: bytes, known: frozenset[str]) -> QuietShape | None:
    """:func:`shape_of` a record of a kind its agent's model does not know, ``raw`` its JSON
    (``known``: the model's kinds; a known ``type`` read as unknown had its key written twice,
    which a line of the same shape may not)."""
    if type(raw) is not dict:
        return None
    kind = raw.get("type")
    if isinstance(kind, str) and kind in known:
        return None
    return shape_of(raw, line)
