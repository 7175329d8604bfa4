"""Which Claude Code records a run of lines kept as bytes may follow (``Entry.quiet``).

Message-less user records whose every field has a value of the wrong type
(``{"type":"user","uuid":5}``) and records of a type cclens does not know: they show nothing
and count in no figure. A line of the run's shape (:mod:`cclens.readers.quiet`) reads as they
did when each key the record sets aside is undeclared or holds a JSON type its field never
takes, whatever the value (an ``Int`` with bounds takes some numbers and not others, a literal
some strings), and, for a user record of two keys or more, the keys come in the same order
(its problems come in that order).
"""

from __future__ import annotations

import functools
from typing import Any

import msgspec
import msgspec.inspect as mi

from ...model import RECORD_TYPES
from ...model._base import UNSET
from ...model.entries import Entry
from ...model.records import UnknownRecord, UserRecord
from ..quiet import QuietShape, shape_of, unknown_shape

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
        return unknown_shape(record.raw, line, RECORD_TYPES)
    if type(record) is not UserRecord:
        return None
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
        if key != "type" and (key not in extra or not _never_takes(UserRecord, key, type(item))):
            return None
    # (two keys or more besides ``type``: the record's problems come in their order)
    return shape_of(value, line, ordered=len(value) > 2)
