"""Typed, lossless model of Claude Code transcripts: records, content blocks, tools."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_names

if TYPE_CHECKING:
    from ._base import UNSET, CamelModel, Model, Opt, UnsetType, present, value
    from ._convert import Decoded, Lenient
    from ._depth import (
        MAX_DEPTH,
        has_lone_surrogate,
        may_be_deep,
        replace_lone_surrogates,
        too_deep,
    )
    from ._encode import (
        JsonStream,
        format_json,
        iter_compact,
        iter_json,
        stream_hook,
        to_builtins,
        to_json,
    )
    from ._large import LARGE_LINE, LargeLine, decode_large, read_large_line
    from .blocks import BLOCK_KINDS, ContentBlock, ResultContentBlock, block_kind
    from .decode import convert_record, decode_large_record, decode_record
    from .messages import Message, Usage
    from .records import CHAIN_TYPES, RECORD_TYPES, SYSTEM_SUBTYPES, AnyRecord, record_kind

#: Where each name lives: its module is imported when the name is first used, so that reading one
#: module of the model (the index's view of a line needs only the records) builds no other, and the
#: decoder is made only for a reader that decodes.
_PLACES = {
    "UNSET": "._base",
    "CamelModel": "._base",
    "Model": "._base",
    "Opt": "._base",
    "UnsetType": "._base",
    "present": "._base",
    "value": "._base",
    "Decoded": "._convert",
    "Lenient": "._convert",
    "MAX_DEPTH": "._depth",
    "has_lone_surrogate": "._depth",
    "may_be_deep": "._depth",
    "replace_lone_surrogates": "._depth",
    "too_deep": "._depth",
    "format_json": "._encode",
    "iter_json": "._encode",
    "iter_compact": "._encode",
    "JsonStream": "._encode",
    "stream_hook": "._encode",
    "to_builtins": "._encode",
    "to_json": "._encode",
    "LARGE_LINE": "._large",
    "LargeLine": "._large",
    "decode_large": "._large",
    "read_large_line": "._large",
    "BLOCK_KINDS": ".blocks",
    "ContentBlock": ".blocks",
    "ResultContentBlock": ".blocks",
    "block_kind": ".blocks",
    "convert_record": ".decode",
    "decode_large_record": ".decode",
    "decode_record": ".decode",
    "Message": ".messages",
    "Usage": ".messages",
    "CHAIN_TYPES": ".records",
    "RECORD_TYPES": ".records",
    "SYSTEM_SUBTYPES": ".records",
    "AnyRecord": ".records",
    "record_kind": ".records",
}

__all__ = [
    "BLOCK_KINDS",
    "CHAIN_TYPES",
    "LARGE_LINE",
    "MAX_DEPTH",
    "RECORD_TYPES",
    "SYSTEM_SUBTYPES",
    "UNSET",
    "AnyRecord",
    "CamelModel",
    "ContentBlock",
    "Decoded",
    "JsonStream",
    "LargeLine",
    "Lenient",
    "Message",
    "Model",
    "Opt",
    "ResultContentBlock",
    "UnsetType",
    "Usage",
    "block_kind",
    "convert_record",
    "decode_large",
    "decode_large_record",
    "decode_record",
    "format_json",
    "has_lone_surrogate",
    "iter_compact",
    "iter_json",
    "may_be_deep",
    "present",
    "read_large_line",
    "record_kind",
    "replace_lone_surrogates",
    "stream_hook",
    "to_builtins",
    "to_json",
    "too_deep",
    "value",
]

__getattr__ = lazy_names(__name__, _PLACES)
