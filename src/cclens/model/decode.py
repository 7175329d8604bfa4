"""Decode one transcript line into a record, losslessly."""

from __future__ import annotations

from ._convert import Decoded, Lenient
from .records import AnyRecord, UnknownRecord

_RECORDS: Lenient[AnyRecord] = Lenient(AnyRecord, lambda raw: UnknownRecord(raw=raw))


def decode_record(data: bytes | str) -> Decoded[AnyRecord]:
    """Decode one JSON line as a record.

    Raises ``msgspec.DecodeError`` when the line is not JSON. A JSON value that is not an object,
    or an object whose ``type`` is not known, decodes as :class:`UnknownRecord`.
    """
    return _RECORDS.decode(data)
