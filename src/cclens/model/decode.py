"""Decode one transcript line into a record, losslessly."""

from __future__ import annotations

from ._convert import Decoded, Lenient
from ._large import LargeLine, decode_large
from .records import AnyRecord, UnknownRecord

_RECORDS: Lenient[AnyRecord] = Lenient(AnyRecord, lambda raw: UnknownRecord(raw=raw))


def decode_record(data: bytes | str) -> Decoded[AnyRecord]:
    """Decode one JSON line as a record.

    Raises ``msgspec.DecodeError`` when the line is not JSON. A JSON value that is not an object,
    or an object whose ``type`` is not known, decodes as :class:`UnknownRecord`.
    """
    return _RECORDS.decode(data)


def convert_record(raw: object) -> Decoded[AnyRecord]:
    """A record from its JSON value already decoded (dicts, lists, strings), losslessly.

    The strings are shared with ``raw``, not copied. Never raises: a value that is not a
    record decodes as :class:`UnknownRecord`.
    """
    return _RECORDS.convert(raw)


def decode_large_record(line: LargeLine) -> Decoded[AnyRecord]:
    """Decode a line read in parts (:func:`cclens.model.read_large_line`) as a record.

    Raises ``msgspec.DecodeError`` when the line is not JSON.
    """
    return decode_large(line, _RECORDS.decode)
