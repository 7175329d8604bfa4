"""Views of MCP: any ``mcp__<server>__<tool>`` call, and the built-ins that list, read and
refresh MCP resources and tools."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, Literal

import msgspec

from ...model.blocks import ImageBlock, TextBlock
from ...model.session import ToolCall
from ...model.tools import FreeformInput, McpToolSpec, TextResult, ToolErrorText, mcp
from ..prepared import (
    Field,
    Image,
    PreparedView,
    TextPart,
    Tree,
    field_parts,
    piece_part,
    text_part,
)
from ..views import ViewHelpers
from ._common import (
    Fields,
    FieldsView,
    as_type,
    base,
    fields_base,
    first_line,
    int_of,
    list_of,
    said,
    text_of,
)

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


class McpPart(msgspec.Struct, frozen=True):
    """A piece of an MCP result: ``text``, ``json`` or ``other`` (a :class:`Tree`), or an
    ``image``."""

    kind: Literal["text", "json", "image", "other"]
    text: str = ""
    tree: Tree | None = None
    image: Image | None = None

    @property
    def text_part(self) -> TextPart:
        """The piece as text."""
        if self.tree is not None:
            return piece_part(self.tree, result=True)
        note = self.image.note if self.image is not None else ""
        return TextPart("result", self.text or note, result=True)


def content_parts(blocks: Iterable[Any]) -> list[McpPart]:
    """Result content blocks as parts to draw: ``text``, ``json`` (a tree), ``image``,
    ``other``."""
    parts: list[McpPart] = []
    for block in blocks:
        if isinstance(block, TextBlock):
            value = _parsed_json(block.text)
            if value is not None:
                parts.append(McpPart("json", tree=Tree(value)))
            else:
                parts.append(McpPart("text", block.text))
        elif isinstance(block, ImageBlock) and block.source and block.source.data:
            image = Image(text_of(block.source.data), text_of(block.source.media_type))
            parts.append(McpPart("image", image=image))
        else:
            parts.append(McpPart("other", tree=Tree(block)))
    return parts


class McpView(PreparedView, frozen=True, kw_only=True):
    """An MCP tool's call (``tools/mcp.html``): its ``server`` and ``tool``, its
    ``arguments``, and what it answered: its ``content`` or an object's ``fields``."""

    server: str = ""
    tool: str = ""
    arguments: Sequence[Field] = ()
    content: Sequence[McpPart] = ()
    fields: Sequence[Field] = ()
    answered: bool = False

    def parts(self) -> list[TextPart]:
        shown = [TextPart("field", self.server, "MCP server"), TextPart("field", self.tool, "Tool")]
        shown += field_parts(self.arguments)
        if self.answered:
            shown += [part.text_part for part in self.content]
            shown += field_parts(self.fields, result=True)
            if not (self.content or self.fields):
                shown.append(TextPart("result", "Empty result.", result=True))
        return shown


def mcp_arguments(request: FreeformInput | None) -> list[Field]:
    """An MCP call's arguments as field rows."""
    arguments = Fields()
    for key, value in (request.arguments if request else {}).items():
        arguments.add(str(key), value)
    return arguments.rows


def prepare_mcp(call: ToolCall, h: ViewHelpers) -> McpView:
    """Any MCP tool: server and tool, its arguments as a table, its text and image results."""
    v = base(call, mcp.McpContent, mcp.McpObjectResult)
    names = call.spec if isinstance(call.spec, McpToolSpec) else None
    request = as_type(call.input, FreeformInput)
    result = v["r"]
    parts: list[McpPart] = []
    fields = Fields()
    if isinstance(result, mcp.McpContent):
        parts = content_parts(result)
    elif isinstance(result, mcp.McpObjectResult):
        for key, value in result.fields.items():
            fields.add(str(key), value)
    elif v["error"] is None:
        raw = call.result
        block = call.result_block
        if isinstance(raw, TextResult) and not isinstance(raw, ToolErrorText):
            parts = content_parts([TextBlock(text=raw.text)])
        elif block is not None and isinstance(block.content, list):
            parts = content_parts(block.content)
        elif block is not None and call.result_text:
            parts = content_parts([TextBlock(text=call.result_text)])
    return McpView(
        **v,
        server=names.server if names else "",
        tool=names.tool if names else call.name,
        arguments=mcp_arguments(request),
        content=parts,
        fields=fields.rows,
        answered=bool(parts or fields.rows) or result is not None,
        summary=_mcp_summary(request),
    )


def _mcp_summary(request: FreeformInput | None) -> str:
    for value in (request.arguments if request else {}).values():
        if isinstance(value, str) and value.strip():
            return first_line(value)
    return ""


class Resource(msgspec.Struct, frozen=True):
    """An MCP resource listed: its ``uri``, ``name``, ``mime_type``, ``description`` and
    ``server``."""

    uri: str
    name: str
    mime_type: str
    description: str
    server: str


def _resource_rows(resources: Iterable[Any]) -> list[Resource]:
    return [
        Resource(
            text_of(item.uri),
            text_of(item.name),
            text_of(item.mime_type),
            text_of(item.description),
            text_of(item.server),
        )
        for item in resources
        if isinstance(item, mcp.McpResource)
    ]


class ResourcesView(PreparedView, frozen=True, kw_only=True):
    """MCP resources listed (``tools/mcp_resources.html``): of a ``server`` (all when empty),
    inside the directory resource ``uri``; ``said``: the result text when it has no typed
    result."""

    server: str = ""
    uri: str = ""
    resources: Sequence[Resource] = ()
    said: str = ""

    def parts(self) -> list[TextPart]:
        parts = [
            TextPart("field", self.server or "all servers", "MCP server"),
            *text_part("field", self.uri, "Resource"),
        ]
        if self.r is None and not self.said:
            return parts
        listed = "\n".join(
            " · ".join(part for part in (res.uri, res.name, res.mime_type, res.server) if part)
            for res in self.resources
        )
        return [*parts, TextPart("result", listed or self.said or "No resources.", result=True)]


def prepare_list_mcp_resources(call: ToolCall, h: ViewHelpers) -> ResourcesView:
    """ListMcpResourcesTool: every resource of every (or one) server, as a table."""
    v = base(call, mcp.McpResourceList)
    request = as_type(call.input, mcp.ListMcpResourcesInput)
    server = text_of(request.server) if request else ""
    return ResourcesView(
        **v,
        server=server,
        resources=_resource_rows(v["r"] or []),
        said=said(call, v),
        summary=server or "all servers",
    )


def prepare_read_mcp_resource_dir(call: ToolCall, h: ViewHelpers) -> ResourcesView:
    """ReadMcpResourceDirTool: the resources inside a directory resource."""
    v = base(call, mcp.ReadMcpResourceDirResult)
    request = as_type(call.input, mcp.ReadMcpResourceInput)
    result: mcp.ReadMcpResourceDirResult | None = v["r"]
    if result is not None and result.error:
        v["error"] = text_of(result.error)
    return ResourcesView(
        **v,
        server=text_of(request.server) if request else "",
        uri=text_of(request.uri) if request else "",
        resources=_resource_rows(list_of(result.resources if result else None)),
        said=said(call, v),
        summary=text_of(request.uri) if request else "",
    )


class ResourceContent(msgspec.Struct, frozen=True):
    """A resource's content as read: its ``text``, or where its binary content was
    ``saved_to`` (``has_blob``: it has some)."""

    uri: str
    mime_type: str
    text: str
    saved_to: str
    has_blob: bool


class ResourceView(PreparedView, frozen=True, kw_only=True):
    """An MCP resource read (``tools/mcp_resource.html``): its ``contents``; ``said``: the
    result text when it has no typed result."""

    server: str = ""
    uri: str = ""
    contents: Sequence[ResourceContent] = ()
    said: str = ""

    def parts(self) -> list[TextPart]:
        parts = [
            TextPart("field", self.server, "MCP server"),
            TextPart("field", self.uri, "Resource"),
        ]
        for item in self.contents:
            label = " ".join(
                p for p in (item.uri, f"({item.mime_type})" if item.mime_type else "") if p
            )
            parts += text_part("result", item.text, label, result=True)
            saved = f"Binary content saved to {item.saved_to}" if item.saved_to else ""
            saved = saved or ("Binary content, not shown." if item.has_blob else "")
            parts += text_part("note", saved, result=True)
        return parts + text_part("result", self.said, result=True)


def prepare_read_mcp_resource(call: ToolCall, h: ViewHelpers) -> ResourceView:
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
                    ResourceContent(
                        uri=text_of(item.uri),
                        mime_type=text_of(item.mime_type),
                        text=text_of(item.text),
                        saved_to=text_of(item.blob_saved_to),
                        has_blob=bool(item.blob),
                    )
                )
    return ResourceView(
        **v,
        server=text_of(request.server) if request else "",
        uri=text_of(request.uri) if request else "",
        contents=contents,
        said=said(call, v),
        summary=text_of(request.uri) if request else "",
    )


def prepare_refresh_mcp_tools(call: ToolCall, h: ViewHelpers) -> FieldsView:
    """RefreshMcpTools: for each server, its status and the tools added or removed."""
    v = fields_base(call, mcp.McpRefreshList)
    request = as_type(call.input, mcp.RefreshMcpToolsInput)
    server = text_of(request.server) if request else ""
    got = Fields()
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
    return FieldsView(
        **v, lead=server or "All servers", lead_code=bool(server), got=got.rows, summary=server
    )
