"""MCP: the tools MCP servers provide (``mcp__<server>__<tool>``) and the built-ins that list,
read and refresh MCP resources and tools."""

from collections.abc import Callable
from typing import Any, NamedTuple

from .._base import UNSET, CamelModel, Int, Model, Opt
from ..blocks import ResultContentBlock, TextBlock
from ._spec import McpToolSpec, ToolSpec
from .generic import FreeformInput, FreeformResult, ResultList

MCP_PREFIX = "mcp__"
_SEPARATOR = "__"


class McpName(NamedTuple):
    """The two halves of an MCP tool name."""

    server: str
    tool: str


def mcp_parts(name: str) -> McpName | None:
    """``(server, tool)`` of an ``mcp__<server>__<tool>`` name, else ``None``.

    The server is what lies between ``mcp__`` and the next ``__``: server names may hold single
    underscores (``mcp__plugin_serena_serena__find_symbol``), tool names may hold anything.
    """
    if not name.startswith(MCP_PREFIX):
        return None
    server, separator, tool = name[len(MCP_PREFIX) :].partition(_SEPARATOR)
    if not separator or not server or not tool:
        return None
    return McpName(server, tool)


class McpInput(FreeformInput):
    """The arguments of an MCP tool call; the server defines them."""


class McpObjectResult(FreeformResult):
    """An MCP tool's ``toolUseResult`` when it is an object (structured content)."""


class McpContent(ResultList[ResultContentBlock]):
    """An MCP tool's ``toolUseResult`` when it is a list of content blocks."""

    item_type = ResultContentBlock

    @property
    def text(self) -> str:
        """The text blocks, joined by newlines."""
        return "\n".join(block.text for block in self if isinstance(block, TextBlock))


def mcp_spec(name: str, server: str, tool: str) -> McpToolSpec:
    """The spec of the MCP tool ``name``."""
    return McpToolSpec(
        name=name,
        aliases=(),
        input_type=McpInput,
        result_type=McpObjectResult,
        description=f"MCP tool {tool!r} of server {server!r}",
        family="mcp",
        list_result_type=McpContent,
        server=server,
        tool=tool,
    )


def freeform_mcp_spec(
    name: str,
    server: str,
    tool: str,
    result_type: Any,
    summary: Callable[[Any], str] | None = None,
) -> McpToolSpec:
    """The spec of another agent's MCP tool ``name``: its arguments kept as they are
    (:class:`~cclens.model.tools.generic.FreeformInput`), its result of the agent's
    ``result_type``."""
    return McpToolSpec(
        name=name,
        aliases=(),
        input_type=FreeformInput,
        result_type=result_type,
        description=f"MCP tool {tool} of server {server}",
        family="mcp",
        server=server,
        tool=tool,
        summary=summary,
    )


# Resources and tool lists ----------------------------------------------------------------------


class ListMcpResourcesInput(Model):
    """Input of ``ListMcpResourcesTool``: optionally, one server to list."""

    server: Opt[str] = UNSET


class McpResource(CamelModel):
    """A resource an MCP server offers."""

    uri: Opt[str] = UNSET
    name: Opt[str] = UNSET
    mime_type: Opt[str] = UNSET
    description: Opt[str] = UNSET
    server: Opt[str] = UNSET


class McpResourceList(ResultList[McpResource]):
    """Result of ``ListMcpResourcesTool``: every resource of every (or one) server."""

    item_type = McpResource


class ReadMcpResourceInput(Model):
    """Input of ``ReadMcpResourceTool`` and ``ReadMcpResourceDirTool``."""

    server: Opt[str] = UNSET
    uri: Opt[str] = UNSET


class ResourceContent(CamelModel):
    """Part of a resource's content: text, or binary data saved to a file."""

    uri: Opt[str] = UNSET
    mime_type: Opt[str] = UNSET
    text: Opt[str] = UNSET
    blob: Opt[str] = UNSET
    blob_saved_to: Opt[str] = UNSET


class ReadMcpResourceResult(CamelModel):
    """Result of ``ReadMcpResourceTool``."""

    contents: Opt[list[ResourceContent]] = UNSET
    error: Opt[str] = UNSET
    server: Opt[str] = UNSET


class ReadMcpResourceDirResult(CamelModel):
    """Result of ``ReadMcpResourceDirTool``: the direct children of a directory resource."""

    resources: Opt[list[McpResource]] = UNSET
    error: Opt[str] = UNSET


class RefreshMcpToolsInput(Model):
    """Input of ``RefreshMcpTools``: optionally, one server to refresh."""

    server: Opt[str] = UNSET


class McpRefresh(CamelModel):
    """How refreshing one server's tools went."""

    server: Opt[str] = UNSET
    status: Opt[str] = UNSET
    tool_count: Opt[Int] = UNSET
    added: Opt[list[str]] = UNSET
    removed: Opt[list[str]] = UNSET
    error: Opt[str] = UNSET


class McpRefreshList(ResultList[McpRefresh]):
    """Result of ``RefreshMcpTools``: one entry per server."""

    item_type = McpRefresh


class WaitForMcpServersInput(FreeformInput):
    """Input of ``WaitForMcpServers`` (no declared schema)."""


SPECS: tuple[ToolSpec, ...] = (
    ToolSpec(
        name="ListMcpResourcesTool",
        aliases=("ListMcpResources",),
        input_type=ListMcpResourcesInput,
        result_type=None,
        description="List the resources MCP servers offer",
        family="mcp",
        list_result_type=McpResourceList,
    ),
    ToolSpec(
        name="ReadMcpResourceTool",
        aliases=("ReadMcpResource",),
        input_type=ReadMcpResourceInput,
        result_type=ReadMcpResourceResult,
        description="Read a resource from an MCP server",
        family="mcp",
    ),
    ToolSpec(
        name="ReadMcpResourceDirTool",
        aliases=(),
        input_type=ReadMcpResourceInput,
        result_type=ReadMcpResourceDirResult,
        description="List the children of a directory resource of an MCP server",
        family="mcp",
    ),
    ToolSpec(
        name="RefreshMcpTools",
        aliases=(),
        input_type=RefreshMcpToolsInput,
        result_type=None,
        description="Re-query the tool lists of MCP servers",
        family="mcp",
        list_result_type=McpRefreshList,
    ),
    ToolSpec(
        name="WaitForMcpServers",
        aliases=(),
        input_type=WaitForMcpServersInput,
        result_type=None,
        description="Wait until MCP servers that are still starting have connected",
        family="mcp",
    ),
)
