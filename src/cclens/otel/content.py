"""Transcript content as GenAI message attributes, redacted and size-limited.

Messages follow the conventions' JSON schemas (``gen_ai.input.messages`` /
``gen_ai.output.messages``): ``{"role": ..., "parts": [...]}`` with ``text``, ``reasoning``,
``tool_call`` and ``tool_call_response`` parts. The Python SDK's span attributes are scalars or
lists of scalars, so each value is sent as a JSON string, as the conventions allow.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

from ..dataset.redaction import Redaction
from ..model.blocks import ImageBlock, TextBlock, ThinkingBlock, ToolUseBlock
from ..readers.claude import AssistantItem, UserItem

Message = dict[str, Any]


def clip(value: Any, limit: int) -> Any:
    """``value`` with every string longer than ``limit`` characters cut (0: no limit).

    Cutting strings rather than the encoded JSON keeps the JSON valid.
    """
    if limit <= 0:
        return value
    if isinstance(value, str):
        if len(value) <= limit:
            return value
        return f"{value[:limit]}… [{len(value) - limit} more characters]"
    if isinstance(value, dict):
        return {key: clip(item, limit) for key, item in value.items()}
    if isinstance(value, list):
        return [clip(item, limit) for item in value]
    return value


@dataclass(frozen=True, slots=True)
class Content:
    """How content is put on spans: redacted by ``redaction``, strings cut at ``limit``."""

    redaction: Redaction
    limit: int = 8192

    def text(self, value: str) -> str:
        """A piece of text, redacted and cut."""
        result: str = clip(self.redaction.text(value), self.limit)
        return result

    def json(self, value: Any) -> str:
        """A JSON value, redacted and cut, encoded as a JSON string."""
        return msgspec.json.encode(clip(self.redaction.json(value), self.limit)).decode()


def user_message(item: UserItem) -> Message:
    """A user record as an input message: text, or the tool results it carries."""
    if item.kind == "tool_results":
        return {
            "role": "tool",
            "parts": [
                {
                    "type": "tool_call_response",
                    "id": block.tool_use_id or None,
                    "response": block.text,
                }
                for block in item.tool_results
            ],
        }
    parts: list[dict[str, Any]] = [{"type": "text", "content": item.text}]
    parts.extend({"type": "image"} for _ in item.images)
    return {"role": "user", "parts": parts}


def output_message(item: AssistantItem) -> Message:
    """A model response as an output message."""
    parts: list[dict[str, Any]] = []
    for block in item.blocks:
        if isinstance(block, TextBlock):
            parts.append({"type": "text", "content": block.text})
        elif isinstance(block, ThinkingBlock):
            parts.append({"type": "reasoning", "content": block.thinking})
        elif isinstance(block, ToolUseBlock):
            parts.append(
                {
                    "type": "tool_call",
                    "id": block.id or None,
                    "name": block.name,
                    "arguments": block.input,
                }
            )
        elif isinstance(block, ImageBlock):
            parts.append({"type": "image"})
    return {"role": "assistant", "parts": parts, "finish_reason": item.stop_reason or ""}


__all__ = ["Content", "Message", "clip", "output_message", "user_message"]
