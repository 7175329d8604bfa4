"""The catalogue: every tool cclens knows, by every name it has had."""

import functools
from collections.abc import Callable

from ..._lazy import deferred
from . import agents, files, interaction, mcp, misc, plans, schedule, search, shell, tasks, web
from ._spec import ToolSpec
from .generic import UnknownToolInput, UnknownToolResult
from .mcp import mcp_parts, mcp_spec

#: Every built-in tool, current and removed, grouped by family.
BUILTIN_TOOLS: tuple[ToolSpec, ...] = (
    *shell.SPECS,
    *files.SPECS,
    *search.SPECS,
    *web.SPECS,
    *agents.SPECS,
    *tasks.SPECS,
    *plans.SPECS,
    *interaction.SPECS,
    *mcp.SPECS,
    *schedule.SPECS,
    *misc.SPECS,
)


def _index(specs: tuple[ToolSpec, ...]) -> dict[str, ToolSpec]:
    index: dict[str, ToolSpec] = {}
    for spec in specs:
        for name in spec.names:
            if name in index:
                raise ValueError(f"tool name {name!r} is claimed twice")
            index[name] = spec
    return index


_BY_NAME = _index(BUILTIN_TOOLS)


def _unknown_spec(name: str, agent: str = "claude") -> ToolSpec:
    label = "Claude Code" if agent == "claude" else agent
    return ToolSpec(
        name=name,
        aliases=(),
        input_type=UnknownToolInput,
        result_type=UnknownToolResult,
        description=f"Not a built-in {label} tool that cclens knows",
        family="unknown",
    )


#: The tool catalogue of each agent other than Claude Code: a function giving the spec of a
#: tool name, or ``None`` for a name the agent's catalogue does not know (an agent's tools are
#: typed in a module of this package: :mod:`cclens.model.tools.codex`,
#: :mod:`cclens.model.tools.gemini`, :mod:`cclens.model.tools.copilot`).
AGENT_TOOLS: dict[str, Callable[[str], ToolSpec | None]] = {
    agent: deferred(f".{agent}", f"{agent}_tool_spec", __package__)
    for agent in ("codex", "gemini", "copilot")
}


def tool_spec(name: str, agent: str = "claude") -> ToolSpec:
    """The spec of the tool called ``name`` of ``agent`` (a Claude Code tool by default);
    never raises.

    An alias gives the canonical tool's spec (``Task`` gives ``Agent``'s), an MCP name an
    :class:`~cclens.model.tools.McpToolSpec`, and any other name a spec of family ``unknown``.
    Another agent's tools come from its catalogue (:data:`AGENT_TOOLS`).
    """
    if agent != "claude":
        lookup = AGENT_TOOLS.get(agent)
        found = lookup(name) if lookup is not None else None
        return found if found is not None else _unknown_spec(name, agent)
    spec = _BY_NAME.get(name)
    if spec is not None:
        return spec
    return _dynamic_spec(name)


@functools.lru_cache(maxsize=4096)
def _dynamic_spec(name: str) -> ToolSpec:
    """The spec of an MCP or unknown tool name (built once per name)."""
    parts = mcp_parts(name)
    if parts is not None:
        return mcp_spec(name, parts.server, parts.tool)
    return _unknown_spec(name)


def any_tool_spec(name: str) -> ToolSpec:
    """The spec of a tool called ``name`` by whichever agent has one (Claude Code's first),
    for figures that keep a call's tool name without its agent; never raises."""
    spec = tool_spec(name)
    if spec.family != "unknown":
        return spec
    for lookup in AGENT_TOOLS.values():
        found = lookup(name)
        if found is not None:
            return found
    return spec


def is_known_tool(name: str, agent: str = "claude") -> bool:
    """Whether cclens has a spec for ``agent``'s tool ``name`` (every MCP tool counts as
    known)."""
    if agent != "claude":
        lookup = AGENT_TOOLS.get(agent)
        return lookup is not None and lookup(name) is not None
    return name in _BY_NAME or mcp_parts(name) is not None
