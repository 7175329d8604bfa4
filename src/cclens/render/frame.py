"""The frame around every tool call: header, status badges, the result as the model saw it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ..model import UNSET
from ..model.blocks import ImageBlock, TextBlock
from ..model.session import ToolCall
from ..model.tools.mcp import mcp_parts
from .environment import format_duration

__all__ = ["Badge", "ResultPart", "ToolFrame", "output_size", "summary_of", "tool_frame"]

#: Input fields that say best what a call did, in order of preference.
_SUMMARY_KEYS = (
    "description",
    "command",
    "file_path",
    "notebook_path",
    "path",
    "pattern",
    "url",
    "query",
    "subject",
    "skill",
    "task_id",
    "taskId",
    "shell_id",
    "bash_id",
    "prompt",
    "plan",
    "cron",
    "script",
)
_SUMMARY_LENGTH = 140
#: A result with more lines than this starts folded.
_FOLD_LINES = 40


@dataclass(frozen=True)
class Badge:
    """A label in a tool's header; ``kind``: ``error``, ``warn``, ``info``, ``ok``, ``muted``."""

    text: str
    kind: str


@dataclass(frozen=True)
class ResultPart:
    """A piece of the result the model saw: ``text``, an ``image`` (base64 data) or ``json``."""

    kind: Literal["text", "image", "json"]
    value: Any
    media_type: str = ""


@dataclass(frozen=True)
class ToolFrame:
    """What ``tools/_frame.html`` draws around a view (documented field by field).

    ``display_name``: the tool name (the tool half for MCP tools, ``server`` holding the other);
    ``summary``: one line (the view's ``summary`` or one derived from the input); ``badges``;
    ``duration``: call to result; ``output``: the size of the result (``"42 lines, 3.1 kB"``);
    ``error_line``: the first line of what a failed call reported; ``result_parts``: the
    ``tool_result`` content; ``result_open``: whether the raw result starts unfolded;
    ``view_error``: why the tool's own view could not draw it (then the generic view did).
    """

    display_name: str
    server: str
    summary: str
    badges: list[Badge] = field(default_factory=list)
    duration: str = ""
    output: str = ""
    error_line: str = ""
    result_parts: list[ResultPart] = field(default_factory=list)
    result_open: bool = False
    view_error: str = ""


def _size(count: int) -> str:
    if count < 1000:
        return f"{count} B"
    if count < 1_000_000:
        return f"{count / 1000:.1f} kB"
    return f"{count / 1_000_000:.1f} MB"


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
            said.append(_size(chars))
    if images:
        said.append(f"{images} image{'s' if images != 1 else ''}")
    return ", ".join(said)


def _error_line(call: ToolCall) -> str:
    if call.status != "error":
        return ""
    for line in call.result_text.splitlines():
        line = line.strip()
        if line and line.lower() not in ("error", "<tool_use_error>"):
            return _one_line(
                line.removeprefix("<tool_use_error>").removesuffix("</tool_use_error>")
            )
    return ""


def _one_line(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= _SUMMARY_LENGTH else line[: _SUMMARY_LENGTH - 1] + "…"


def summary_of(call: ToolCall) -> str:
    """A one-line summary of ``call`` from its input: its tool's own wording when the tool has
    one (:attr:`~cclens.model.tools.ToolSpec.summary`), else its description, command, path…"""
    worded = call.spec.summary
    if worded is not None:
        said = worded(call.input)
        if said.strip():
            return _one_line(said)
    raw = call.block.input
    if not isinstance(raw, Mapping):
        return ""
    for key in _SUMMARY_KEYS:
        value = raw.get(key)
        if isinstance(value, str) and value.strip():
            return _one_line(value)
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


def tool_frame(call: ToolCall, prepared: Mapping[str, Any], view_error: str = "") -> ToolFrame:
    """The frame of ``call`` drawn by a view that prepared ``prepared``."""
    parts = mcp_parts(call.name)
    badges: list[Badge] = []
    status_badge = _STATUS_BADGES.get(call.status)
    if status_badge:
        badges.append(status_badge)
    if _is_background(call):
        badges.append(Badge("background", "info"))
    if call.subagents:
        count = len(call.subagents)
        badges.append(Badge(f"{count} subagent{'s' if count != 1 else ''}", "info"))
    summary = prepared.get("summary")
    result_parts = _result_parts(call)
    lines = sum(p.value.count("\n") + 1 for p in result_parts if p.kind == "text")
    return ToolFrame(
        display_name=parts.tool if parts else call.name,
        server=parts.server if parts else "",
        summary=_one_line(summary) if isinstance(summary, str) and summary else summary_of(call),
        badges=badges,
        duration=format_duration(call.duration) if call.duration is not None else "",
        output=output_size(result_parts),
        error_line=_error_line(call),
        result_parts=result_parts,
        result_open=lines <= _FOLD_LINES and call.raw_result is UNSET,
        view_error=view_error,
    )
