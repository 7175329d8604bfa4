"""The text inside model values, as search and finding read it."""

from __future__ import annotations

from typing import Any

__all__ = ["input_text"]


def input_text(value: Any) -> str:
    """The strings inside a tool input (values only, nested ones too), one per line."""
    parts: list[str] = []
    stack = [value]
    while stack:
        current = stack.pop()
        if isinstance(current, str):
            parts.append(current)
        elif isinstance(current, dict):
            stack.extend(reversed(list(current.values())))
        elif isinstance(current, list):
            stack.extend(reversed(current))
    return "\n".join(part for part in parts if part)
