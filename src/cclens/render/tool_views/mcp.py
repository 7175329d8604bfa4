"""Views of MCP: any ``mcp__<server>__<tool>`` call, and the built-ins that list, read and
refresh MCP resources and tools."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from ...model.blocks import ImageBlock, TextBlock
from ...model.session import ToolCall
from ...model.tools import FreeformInput, McpToolSpec, TextResult, ToolErrorText, mcp
from ..views import ViewHelpers
from ._common import Fields, as_type, base, fields_view, first_line, int_of, list_of, text_of

#: JSON text longer than this is shown as text rather than parsed into a tree.
MAX_JSON_TEXT = 200_000


def _parsed_json(text: str) -> Any:
    """``text`` as JSON when it is an object or array (MCP servers often answer in JSON)."""
    stripped = text.strip()
    if len(stripped) > MAX_JSON_TEXT or not stripped.startswith(("{", "[")):
        return None
    try:
        value = json.loads(stripped)
    except ValueError:
        return None
    return value if isinstance(value, dict | list) else None


def content_parts(h: ViewHelpers, blocks: Iterable[Any]) -> list[dict[str, Any]]:
    """Result content blocks as parts to draw: ``text``, ``json`` (markup), ``image``, ``other``."""
    parts: list[dict[str, Any]] = []
    for block in blocks:
        if isinstance(block, TextBlock):
            value = _parsed_json(block.text)
            if value is not None:
                parts.append({"kind": "json", "html": h.json(value)})
            else:
                parts.append({"kind": "text", "text": block.text})
        elif isinstance(block, ImageBlock) and block.source and block.source.data:
            parts.append(
                {
                    "kind": "image",
                    "data": text_of(block.source.data),
                    "media_type": text_of(block.source.media_type),
                }
            )
        else:
            parts.append({"kind": "other", "html": h.json(block)})
    return parts


def prepare_mcp(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """Any MCP tool: server and tool, its arguments as a table, its text and image results."""
    v = base(call, mcp.McpContent, mcp.McpObjectResult)
    names = call.spec if isinstance(call.spec, McpToolSpec) else None
    request = as_type(call.input, FreeformInput)
    arguments = Fields(h)
    for key, value in (request.arguments if request else {}).items():
        arguments.add(str(key), value)
    result = v["r"]
    parts: list[dict[str, Any]] = []
    fields = Fields(h)
    if isinstance(result, mcp.McpContent):
        parts = content_parts(h, result)
    elif isinstance(result, mcp.McpObjectResult):
        for key, value in result.fields.items():
            fields.add(str(key), value)
    elif v["error"] is None:
        raw = call.result
        block = call.result_block
        if isinstance(raw, TextResult) and not isinstance(raw, ToolErrorText):
            parts = content_parts(h, [TextBlock(text=raw.text)])
        elif block is not None and isinstance(block.content, list):
            parts = content_parts(h, block.content)
        elif block is not None and call.result_text:
            parts = content_parts(h, [TextBlock(text=call.result_text)])
    v.update(
        server=names.server if names else "",
        tool=names.tool if names else call.name,
        arguments=arguments.rows,
        parts=parts,
        fields=fields.rows,
        answered=bool(parts or fields.rows) or result is not None,
        summary=_mcp_summary(request),
    )
    return v


def _mcp_summary(request: FreeformInput | None) -> str:
    for value in (request.arguments if request else {}).values():
        if isinstance(value, str) and value.strip():
            return first_line(value)
    return ""


def _resource_rows(resources: Iterable[Any]) -> list[dict[str, str]]:
    return [
        {
            "uri": text_of(item.uri),
            "name": text_of(item.name),
            "mime_type": text_of(item.mime_type),
            "description": text_of(item.description),
            "server": text_of(item.server),
        }
        for item in resources
        if isinstance(item, mcp.McpResource)
    ]


def prepare_list_mcp_resources(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """ListMcpResourcesTool: every resource of every (or one) server, as a table."""
    v = base(call, mcp.McpResourceList)
    request = as_type(call.input, mcp.ListMcpResourcesInput)
    server = text_of(request.server) if request else ""
    v.update(
        server=server,
        uri="",
        resources=_resource_rows(v["r"] or []),
        said=call.result_text if v["r"] is None and v["error"] is None else "",
        summary=server or "all servers",
    )
    return v


def prepare_read_mcp_resource_dir(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """ReadMcpResourceDirTool: the resources inside a directory resource."""
    v = base(call, mcp.ReadMcpResourceDirResult)
    request = as_type(call.input, mcp.ReadMcpResourceInput)
    result: mcp.ReadMcpResourceDirResult | None = v["r"]
    if result is not None and result.error:
        v["error"] = text_of(result.error)
    v.update(
        server=text_of(request.server) if request else "",
        uri=text_of(request.uri) if request else "",
        resources=_resource_rows(list_of(result.resources if result else None)),
        said=call.result_text if result is None and v["error"] is None else "",
        summary=text_of(request.uri) if request else "",
    )
    return v


def prepare_read_mcp_resource(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """ReadMcpResourceTool: the resource's text, or where its binary content was saved."""
    v = base(call, mcp.ReadMcpResourceResult)
    request = as_type(call.input, mcp.ReadMcpResourceInput)
    result: mcp.ReadMcpResourceResult | None = v["r"]
    contents = []
    if result is not None:
        if result.error:
            v["error"] = text_of(result.error)
        for item in list_of(result.contents):
            if isinstance(item, mcp.ResourceContent):
                contents.append(
                    {
                        "uri": text_of(item.uri),
                        "mime_type": text_of(item.mime_type),
                        "text": text_of(item.text),
                        "saved_to": text_of(item.blob_saved_to),
                        "has_blob": bool(item.blob),
                    }
                )
    v.update(
        server=text_of(request.server) if request else "",
        uri=text_of(request.uri) if request else "",
        contents=contents,
        said=call.result_text if result is None and v["error"] is None else "",
        summary=text_of(request.uri) if request else "",
    )
    return v


def prepare_refresh_mcp_tools(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """RefreshMcpTools: for each server, its status and the tools added or removed."""
    v = fields_view(call, mcp.McpRefreshList)
    request = as_type(call.input, mcp.RefreshMcpToolsInput)
    server = text_of(request.server) if request else ""
    got = Fields(h)
    for item in v["r"] or []:
        if isinstance(item, mcp.McpRefresh):
            parts = [text_of(item.status)]
            if int_of(item.tool_count) is not None:
                parts.append(f"{item.tool_count} tools")
            if list_of(item.added):
                parts.append("added " + ", ".join(str(name) for name in list_of(item.added)))
            if list_of(item.removed):
                parts.append("removed " + ", ".join(str(name) for name in list_of(item.removed)))
            if item.error:
                parts.append(f"error: {item.error}")
            got.add(text_of(item.server) or "(server)", " · ".join(p for p in parts if p))
    v.update(lead=server or "All servers", lead_code=bool(server), got=got.rows, summary=server)
    return v
