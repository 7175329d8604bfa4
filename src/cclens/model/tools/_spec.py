"""What cclens knows about one tool: its names, its input and result types, what it does."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """The catalogue entry of one tool.

    ``result_type`` types an object-shaped ``toolUseResult``; it is often a ``Union`` whose
    members :func:`cclens.model.tools.parse_tool_result` tells apart by a key such as ``type``
    or ``status``, and ``None`` when no object shape of the tool is known. ``list_result_type``
    is the list type of a tool whose ``toolUseResult`` is a JSON array.
    """

    name: str
    aliases: tuple[str, ...]
    input_type: Any
    result_type: Any
    description: str
    family: str
    removed: bool = False
    spawns_subagent: bool = False
    list_result_type: Any = None
    #: The input fields that say what a call does, in order of preference: the first one that
    #: is a non-empty string is the call's one-line summary (empty: the renderer's defaults).
    summary_keys: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        """The canonical name followed by the aliases."""
        return (self.name, *self.aliases)


@dataclass(frozen=True, slots=True)
class McpToolSpec(ToolSpec):
    """The spec of one MCP tool, ``mcp__<server>__<tool>``: it knows both halves of the name."""

    server: str = ""
    tool: str = ""
