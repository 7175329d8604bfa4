"""Encode model values back to the JSON Claude Code wrote."""

from __future__ import annotations

from typing import Any

import msgspec

from ._base import EXTRA_KEY, RAW_KEY, UNKNOWN_TAG


def _restore(node: Any) -> Any:
    if isinstance(node, dict):
        if node.get("type") == UNKNOWN_TAG and RAW_KEY in node:
            return node[RAW_KEY]
        extra = node.pop(EXTRA_KEY, None)
        for key, child in node.items():
            if isinstance(child, dict | list):
                node[key] = _restore(child)
        if extra:
            node.update(extra)
        return node
    if isinstance(node, list):
        return [_restore(child) if isinstance(child, dict | list) else child for child in node]
    return node


def to_builtins(value: Any) -> Any:
    """The JSON value (dicts, lists, strings, numbers) a model value was decoded from."""
    return _restore(msgspec.to_builtins(value))


def to_json(value: Any) -> bytes:
    """Encode a model value as the JSON it was decoded from."""
    return msgspec.json.encode(to_builtins(value))
