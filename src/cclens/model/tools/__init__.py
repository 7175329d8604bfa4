"""Typed inputs and results of every Claude Code tool, and a catalogue describing each tool.

:func:`parse_tool_input` and :func:`parse_tool_result` type a call's ``input`` and its
``toolUseResult`` by the tool's name; :func:`cclens.model.to_builtins` gives back the JSON they
were decoded from. :func:`tool_spec` describes any tool name (built-in, MCP or unknown) and
:data:`BUILTIN_TOOLS` lists every built-in tool cclens knows, current and removed.

Each tool's own types live in the module of its family: :mod:`.shell`, :mod:`.files`,
:mod:`.search`, :mod:`.web`, :mod:`.agents`, :mod:`.tasks`, :mod:`.plans`,
:mod:`.interaction`, :mod:`.mcp`, :mod:`.schedule` and :mod:`.misc`.
"""

from typing import TYPE_CHECKING

from ..._lazy import lazy_names

if TYPE_CHECKING:
    from ._spec import McpToolSpec, ToolSpec
    from .decode import parse_input, parse_tool_input, parse_tool_result
    from .generic import (
        FreeformInput,
        FreeformResult,
        ResultList,
        TextResult,
        ToolErrorText,
        UnknownToolInput,
        UnknownToolResult,
    )
    from .mcp import McpName, mcp_parts
    from .registry import BUILTIN_TOOLS, any_tool_spec, is_known_tool, tool_spec

#: Where each name lives: its module is imported when the name is first used, so that the types of
#: one agent's tools (a Gemini or Codex reader) load without the registry of every tool.
_PLACES = {
    "McpToolSpec": "._spec",
    "ToolSpec": "._spec",
    "parse_input": ".decode",
    "parse_tool_input": ".decode",
    "parse_tool_result": ".decode",
    "FreeformInput": ".generic",
    "FreeformResult": ".generic",
    "ResultList": ".generic",
    "TextResult": ".generic",
    "ToolErrorText": ".generic",
    "UnknownToolInput": ".generic",
    "UnknownToolResult": ".generic",
    "McpName": ".mcp",
    "mcp_parts": ".mcp",
    "BUILTIN_TOOLS": ".registry",
    "any_tool_spec": ".registry",
    "is_known_tool": ".registry",
    "tool_spec": ".registry",
}

__all__ = [
    "BUILTIN_TOOLS",
    "FreeformInput",
    "FreeformResult",
    "McpName",
    "McpToolSpec",
    "ResultList",
    "TextResult",
    "ToolErrorText",
    "ToolSpec",
    "UnknownToolInput",
    "UnknownToolResult",
    "any_tool_spec",
    "is_known_tool",
    "mcp_parts",
    "parse_input",
    "parse_tool_input",
    "parse_tool_result",
    "tool_spec",
]

__getattr__ = lazy_names(__name__, _PLACES)
