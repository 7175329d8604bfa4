"""Typed, lossless model of Claude Code transcripts: records, content blocks, tools."""

from ._base import UNSET, CamelModel, Model, Opt, UnsetType, present, value
from ._convert import Decoded, Lenient
from ._depth import (
    MAX_DEPTH,
    has_lone_surrogate,
    may_be_deep,
    replace_lone_surrogates,
    too_deep,
)
from ._encode import format_json, iter_json, to_builtins, to_json
from ._large import LARGE_LINE, LargeLine, read_large_line
from .blocks import BLOCK_KINDS, ContentBlock, ResultContentBlock, block_kind
from .decode import convert_record, decode_large_record, decode_record
from .messages import Message, Usage
from .records import CHAIN_TYPES, RECORD_TYPES, SYSTEM_SUBTYPES, AnyRecord, record_kind

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
    "decode_large_record",
    "decode_record",
    "format_json",
    "has_lone_surrogate",
    "iter_json",
    "may_be_deep",
    "present",
    "read_large_line",
    "record_kind",
    "replace_lone_surrogates",
    "to_builtins",
    "to_json",
    "too_deep",
    "value",
]
