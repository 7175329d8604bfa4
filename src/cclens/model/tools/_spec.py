"""What cclens knows about one tool: its names, its input and result types, what it does."""

from collections.abc import Callable
from typing import Any

import msgspec

#: What a call did to files: ``(kind, path)`` pairs, kind ``read``, ``changed`` or ``searched``.
FilesTouched = list[tuple[str, str]]


class ToolSpec(msgspec.Struct, frozen=True):
    """The catalogue entry of one tool.

    ``result_type`` types an object-shaped ``toolUseResult``; it is often a ``Union`` whose
    members :func:`cclens.model.tools.parse_tool_result` tells apart by a key such as ``type``
    or ``status``, and ``None`` when no object shape of the tool is known. ``list_result_type``
    is the list type of a tool whose ``toolUseResult`` is a JSON array.

    ``summary`` words a call's one-line summary from its typed input (without it, pages take the
    first of a few common keys: ``description``, ``command``, ``file_path``...); ``files`` says
    which files a call read, changed or searched, from its typed input and result (without it,
    the common keys of Claude Code's file tools are used).
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
    summary: Callable[[Any], str] | None = None
    files: Callable[[Any, Any], FilesTouched] | None = None

    @property
    def names(self) -> tuple[str, ...]:
        """The canonical name followed by the aliases."""
        return (self.name, *self.aliases)


def first_text(*fields: str) -> Callable[[Any], str]:
    """A :attr:`ToolSpec.summary` that says the first of ``fields`` of a typed input (its
    attributes; a freeform input's arguments) holding text."""

    def summary(value: Any) -> str:
        arguments = getattr(value, "arguments", None)
        for name in fields:
            found = getattr(value, name, None)
            if found is None and isinstance(arguments, dict):
                found = arguments.get(name)
            if isinstance(found, str) and found.strip():
                return found
        return ""

    return summary


def named_spec(
    name: str,
    input_type: Any,
    description: str,
    family: str,
    *aliases: str,
    result_type: Any,
    spawns: bool = False,
    summary: tuple[str, ...] = (),
) -> ToolSpec:
    """The spec of a built-in tool whose summary is the first of the input fields ``summary``
    holding text (:func:`first_text`; none without them): the entries of the Gemini CLI and
    Copilot CLI catalogues, each agent giving every tool its one ``result_type``."""
    return ToolSpec(
        name=name,
        aliases=aliases,
        input_type=input_type,
        result_type=result_type,
        description=description,
        family=family,
        spawns_subagent=spawns,
        summary=first_text(*summary) if summary else None,
    )


class McpToolSpec(ToolSpec, frozen=True):
    """The spec of one MCP tool, ``mcp__<server>__<tool>``: it knows both halves of the name."""

    server: str = ""
    tool: str = ""
