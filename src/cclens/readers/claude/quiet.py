"""Which Claude Code records a run of lines kept as bytes may follow (``Entry.quiet``).

A file can hold a million records that show nothing and count in no figure: records of a type
cclens does not know (``{"n":1}``, ``{"n":2}``…) or user records without a message whose every
field has a value of the wrong type (``{"type":"user","uuid":5}``). Decoding each into a record
costs microseconds and hundreds of bytes; past the first :data:`~cclens.model.entries.QUIET_KEPT`
of a run, :func:`cclens.readers.lines.read_lines` keeps such lines as the bytes written, once
each is checked to be JSON of the same :class:`QuietShape` as the run's records: the same keys in
the same order, the same ``type``, and values of the same types, each of which the record could
not take whatever its value, nested no deeper than the reader keeps typed (so that the line
would read exactly as the run's records did).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Literal

import msgspec
import msgspec.inspect as mi

from ...model import RECORD_TYPES, may_be_deep
from ...model._base import EXTRA_KEY, RAW_KEY, UNKNOWN_TAG, UNSET
from ...model.entries import Entry
from ...model.records import UnknownRecord, UserRecord

#: Keys the model keeps for itself: a line naming one takes the slow way.
_RESERVED = frozenset({EXTRA_KEY, RAW_KEY, UNKNOWN_TAG})
_OBJECTS = (mi.DictType, mi.TypedDictType, mi.DataclassType)
_ARRAYS = (
    mi.ListType,
    mi.VarTupleType,
    mi.TupleType,
    mi.SetType,
    mi.FrozenSetType,
    mi.NamedTupleType,
)
_SCALARS = (mi.StrType, mi.NoneType, mi.BoolType, mi.IntType, mi.FloatType)
#: For each JSON type, the parts of a field's type that take no value of it, whatever the
#: value (a string is left out: a literal or a pattern takes some strings and not others).
_NEVER: dict[type, tuple[type, ...]] = {
    int: (mi.StrType, mi.NoneType, mi.BoolType, *_ARRAYS, *_OBJECTS, mi.StructType),
    float: (mi.StrType, mi.NoneType, mi.BoolType, *_ARRAYS, *_OBJECTS, mi.StructType),
    bool: (mi.StrType, mi.NoneType, mi.IntType, mi.FloatType, *_ARRAYS, *_OBJECTS, mi.StructType),
    list: (*_SCALARS, *_OBJECTS),
    dict: (*_SCALARS, *_ARRAYS),
}


class QuietShape(msgspec.Struct, frozen=True, gc=False):
    """What a line must be to read as the run's records did (see the module docstring)."""

    keys: tuple[str, ...]
    types: tuple[type, ...]
    #: The ``type`` value (``None`` when there is none).
    kind: Any
    #: Whether a value is an array or an object (a line is then checked not to be nested past
    #: the depth the reader keeps typed: :func:`cclens.model.may_be_deep`).
    nested: bool = False

    def fits(self, line: bytes) -> bool:
        """Whether ``line`` (one line's bytes, without an escape) is JSON of this shape."""
        return self.fitting()(line)

    def fitting(self) -> Callable[[bytes], bool]:
        """:meth:`fits`, as one function to call for each line of a run."""
        checker = _checker(self)
        fits = checker.fits if checker is not None else self._fits_key_by_key
        if self.nested:
            return lambda line: not may_be_deep(line) and fits(line)
        return fits

    def leading(self) -> Callable[[list[bytes]], int]:
        """How many of the lines given (each without its line break), from the first, the
        shape fits, with no escape and ``"type"`` at most once in each: one msgspec call for
        a block of lines (an array of them), and what msgspec does not check looked at line by
        line; where one does not fit, each line on its own."""
        fits = self.fitting()

        def one_by_one(lines: list[bytes]) -> int:
            for number, line in enumerate(lines):
                if b"\\" in line or line.count(b'"type"') > 1 or not fits(line):
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
    and the keys of a user record must come in the shape's order (the order of its problems)."""

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
        ordered = shape.kind == "user" and len(shape.keys) > 2
        #: The keys as they are written (``"key":``), in order, when their order matters.
        self.order = [msgspec.json.encode(key) + b":" for key in shape.keys] if ordered else []

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
    ``false`` (not a literal msgspec takes), or a user record with arrays or objects and two
    keys or more (whose order a search of the line cannot tell): a line is then checked key by
    key."""
    if type(shape.kind) not in (str, int, type(None)):
        return None
    if shape.nested and shape.kind == "user" and len(shape.keys) > 2:
        return None
    return _Checker(shape)


@functools.cache
def _fields(record_type: type[msgspec.Struct]) -> dict[str, Any]:
    info = mi.type_info(record_type)
    assert isinstance(info, mi.StructType)
    return {field.encode_name: field.type for field in info.fields}


def _never_takes(record_type: type[msgspec.Struct], key: str, kind: type) -> bool:
    """Whether the field ``key`` of ``record_type`` takes no value of the JSON type ``kind``
    (an undeclared key takes none: it is kept aside whatever its value)."""
    found = _TAKES.get((record_type, key, kind))
    if found is None:
        found = _TAKES[record_type, key, kind] = _takes_none(record_type, key, kind)
    return found


#: What :func:`_never_takes` found, by record type, key and JSON type.
_TAKES: dict[tuple[type, str, type], bool] = {}


def _takes_none(record_type: type[msgspec.Struct], key: str, kind: type) -> bool:
    field = _fields(record_type).get(key)
    if field is None:
        return True
    members = field.types if isinstance(field, mi.UnionType) else (field,)
    if kind is type(None):
        return not any(isinstance(member, mi.NoneType) for member in members)
    never = _NEVER.get(kind)
    if never is None:
        return False
    for member in members:
        if isinstance(member, mi.StructType):  # (an array-like struct takes arrays, not objects)
            if member.array_like == (kind is list):
                return False
        elif not isinstance(member, never):
            return False
    return True


def quiet_shape(entry: Entry, line: bytes) -> QuietShape | None:
    """The shape of the lines that may follow ``entry`` (read from ``line``) as quiet lines, or
    ``None`` when its record shows or counts something, or its line is not plain enough."""
    record = entry.record
    if type(record) is UnknownRecord:
        value = record.raw
        if type(value) is not dict:
            return None
        kind = value.get("type")
        if isinstance(kind, str) and kind in RECORD_TYPES:
            return None  # (a known type read as unknown: its key written twice)
    elif type(record) is UserRecord:
        extra = record.extra
        if extra is UNSET or record.message:
            return None
        try:
            value = msgspec.json.decode(line)
        except msgspec.DecodeError:
            return None
        if type(value) is not dict or len(extra) != len(value) - 1:
            return None
        for key, item in value.items():
            if key != "type" and (
                key not in extra or not _never_takes(UserRecord, key, type(item))
            ):
                return None
    else:
        return None
    if b"\\" in line or line.count(b'"type"') > 1 or not _RESERVED.isdisjoint(value):
        return None
    types = tuple(map(type, value.values()))
    nested = list in types or dict in types
    if nested and may_be_deep(line):
        return None  # (nesting past the budget is read in another way)
    return QuietShape(tuple(value), types, value.get("type"), nested)
