"""Typed inputs and results of every Claude Code tool, and a catalogue describing each tool.

:func:`parse_tool_input` and :func:`parse_tool_result` type a call's ``input`` and its
``toolUseResult`` by the tool's name; :func:`cclens.model.to_builtins` gives back the JSON they
were decoded from. :func:`tool_spec` describes any tool name (built-in, MCP or unknown) and
:data:`BUILTIN_TOOLS` lists every built-in tool cclens knows, current and removed.

Each tool's own types live in the module of its family: :mod:`.shell`, :mod:`.files`,
:mod:`.search`, :mod:`.web`, :mod:`.agents`, :mod:`.tasks`, :mod:`.plans`,
:mod:`.interaction`, :mod:`.mcp`, :mod:`.schedule` and :mod:`.misc`.
"""

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
