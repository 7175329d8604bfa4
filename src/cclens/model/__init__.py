"""Typed, lossless model of Claude Code transcripts: records, content blocks, tools."""

from ._base import UNSET, CamelModel, Model, Opt, UnsetType, present, value
from ._convert import Decoded, Lenient
from ._encode import to_builtins, to_json
from .blocks import BLOCK_KINDS, ContentBlock, ResultContentBlock, block_kind
from .decode import decode_record
from .messages import Message, Usage
from .records import CHAIN_TYPES, RECORD_TYPES, SYSTEM_SUBTYPES, AnyRecord, record_kind

__all__ = [
    "BLOCK_KINDS",
    "CHAIN_TYPES",
    "RECORD_TYPES",
    "SYSTEM_SUBTYPES",
    "UNSET",
    "AnyRecord",
    "CamelModel",
    "ContentBlock",
    "Decoded",
    "Lenient",
    "Message",
    "Model",
    "Opt",
    "ResultContentBlock",
    "UnsetType",
    "Usage",
    "block_kind",
    "decode_record",
    "present",
    "record_kind",
    "to_builtins",
    "to_json",
    "value",
]
