"""The frame around every tool call: header, status badges, the result as the model saw it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import msgspec

from ..formats import duration, plural, size
from ..model import UNSET
from ..model.blocks import ImageBlock, TextBlock
from ..model.session import ToolCall
from ..model.tools.mcp import mcp_parts
from .prepared import PreparedView
from .summary import ToolSummary, one_line

__all__ = ["Badge", "ResultPart", "ToolFrame", "output_size", "tool_frame"]

#: A result with more lines than this starts folded.
_FOLD_LINES = 40


class Badge(msgspec.Struct, frozen=True):
    """A label in a tool's header; ``kind``: ``error``, ``warn``, ``info``, ``ok``, ``muted``."""

    text: str
    kind: str


class ResultPart(msgspec.Struct, frozen=True):
    """A piece of the result the model saw: ``text``, an ``image`` (base64 data) or ``json``."""

    kind: Literal["text", "image", "json"]
    value: Any
    media_type: str = ""


class ToolFrame(msgspec.Struct, frozen=True):
    """What ``tools/_frame.html`` draws around a view (documented field by field).

    ``display_name``: the tool name (the tool half for MCP tools, ``server`` holding the other);
    ``summary``: what the call did (:class:`~cclens.render.summary.ToolSummary`: the view's
    ``summarize``, or the ``summary`` a headline view prepared); ``badges``;
    ``duration``: call to result; ``output``: the size of the result (``"42 lines, 3.1 kB"``);
    ``error_line``: the first line of what a failed call reported; ``result_parts``: the
    ``tool_result`` content; ``result_open``: whether the raw result starts unfolded;
    ``view_error``: why the tool's own view could not draw it (then the generic view did).
    """

    display_name: str
    server: str
    summary: ToolSummary
    badges: list[Badge] = msgspec.field(default_factory=list)
    duration: str = ""
    output: str = ""
    error_line: str = ""
    result_parts: list[ResultPart] = msgspec.field(default_factory=list)
    result_open: bool = False
    view_error: str = ""


def output_size(parts: list[ResultPart]) -> str:
    """How much a result holds, for the folded header: lines and size of text, images."""
    texts = [p.value for p in parts if p.kind == "text" and isinstance(p.value, str)]
    images = sum(1 for p in parts if p.kind == "image")
    said = []
    if texts:
        chars = sum(len(t) for t in texts)
        lines = sum(t.rstrip("\n").count("\n") + 1 for t in texts if t)
        if lines > 1:
            said.append(f"{lines} lines")
        if chars:
            said.append(size(chars))
    if images:
        said.append(plural(images, "image"))
    return ", ".join(said)


def _error_line(call: ToolCall) -> str:
    if call.status != "error":
        return ""
    for line in call.result_text.splitlines():
        line = line.strip()
        if line and line.lower() not in ("error", "<tool_use_error>"):
            return one_line(line.removeprefix("<tool_use_error>").removesuffix("</tool_use_error>"))
    return ""


def _is_background(call: ToolCall) -> bool:
    raw_input = call.block.input
    raw_result = call.raw_result
    return (isinstance(raw_input, Mapping) and raw_input.get("run_in_background") is True) or (
        isinstance(raw_result, Mapping)
        and bool(raw_result.get("backgroundTaskId") or raw_result.get("isAsync"))
    )


_STATUS_BADGES = {
    "error": Badge("error", "error"),
    "rejected": Badge("rejected by user", "warn"),
    "interrupted": Badge("interrupted", "warn"),
    "pending": Badge("no result", "muted"),
}


def _result_parts(call: ToolCall) -> list[ResultPart]:
    block = call.result_block
    if block is None:
        return []
    content = block.content
    if isinstance(content, str):
        return [ResultPart("text", content)] if content else []
    parts: list[ResultPart] = []
    if isinstance(content, list):
        for item in content:
            if isinstance(item, TextBlock):
                parts.append(ResultPart("text", item.text))
            elif isinstance(item, ImageBlock) and item.source and item.source.data:
                parts.append(ResultPart("image", item.source.data, item.source.media_type or ""))
            else:
                parts.append(ResultPart("json", item))
    return parts


def tool_frame(
    call: ToolCall,
    prepared: PreparedView | None,
    view_error: str = "",
    summary: ToolSummary | None = None,
) -> ToolFrame:
    """The frame of ``call`` drawn by a view that prepared ``prepared`` (``None``: not
    prepared, as a folded row is); ``summary``: what its row says
    (:func:`cclens.render.tool_views.tool_summary`), unless the view is a headline one that
    worded it itself (``prepared.summary``)."""
    parts = mcp_parts(call.name)
    badges: list[Badge] = []
    status_badge = _STATUS_BADGES.get(call.status)
    if status_badge:
        badges.append(status_badge)
    if _is_background(call):
        badges.append(Badge("background", "info"))
    if call.subagents:
        count = len(call.subagents)
        badges.append(Badge(plural(count, "subagent"), "info"))
    worded = prepared.summary if prepared is not None else ""
    result_parts = _result_parts(call)
    lines = sum(p.value.count("\n") + 1 for p in result_parts if p.kind == "text")
    return ToolFrame(
        display_name=parts.tool if parts else call.name,
        server=parts.server if parts else "",
        summary=ToolSummary.of(note=worded) if worded else summary or ToolSummary(),
        badges=badges,
        duration=duration(call.duration) if call.duration is not None else "",
        output=output_size(result_parts),
        error_line=_error_line(call),
        result_parts=result_parts,
        result_open=lines <= _FOLD_LINES and call.raw_result is UNSET,
        view_error=view_error,
    )
