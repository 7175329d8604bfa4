"""Type a tool call's ``input`` and its ``toolUseResult`` by the tool's name, losing nothing."""

import functools
import operator
from typing import Any, Union, get_args, get_origin

import msgspec

from .._base import UNSET
from .._convert import Decoded, Lenient
from ._spec import ToolSpec
from .generic import (
    FreeformInput,
    FreeformResult,
    ResultList,
    UnknownToolInput,
    UnknownToolResult,
    freeform,
    text_result,
)
from .registry import tool_spec


@functools.cache
def _lenient(type_: Any, unknown: Any) -> Lenient[Any]:
    return Lenient(type_, unknown=unknown)


def _members(type_: Any) -> tuple[Any, ...]:
    if get_origin(type_) is Union:
        return get_args(type_)
    return (type_,)


class _Plan(msgspec.Struct, frozen=True):
    """How to decode an object result: by its tag when it has one, else as ``plain``."""

    tag_field: str | None
    tagged: Any
    plain: Any


@functools.cache
def _plan(result_type: Any) -> _Plan:
    """Split a result union into its tagged members and at most one untagged fallback.

    msgspec decodes a union of structs only when all share one tag field; a tool whose old
    results lack the tag (``Task`` in 1.0.x recorded no ``status``) has an untagged member that
    is used when the tag field is missing.
    """
    members = _members(result_type)
    tagged = [m for m in members if m.__struct_config__.tag is not None]
    plain = [m for m in members if m.__struct_config__.tag is None]
    if len(plain) > 1:
        raise TypeError(f"{result_type!r}: more than one untagged member")
    fields = {m.__struct_config__.tag_field for m in tagged}
    if len(fields) > 1:
        raise TypeError(f"{result_type!r}: members tagged by different fields")
    return _Plan(
        tag_field=fields.pop() if fields else None,
        tagged=functools.reduce(operator.or_, tagged) if tagged else None,
        plain=plain[0] if plain else None,
    )


def _is_freeform(type_: Any, base: type) -> bool:
    return isinstance(type_, type) and issubclass(type_, base)


def parse_tool_input(name: str, raw: Any, agent: str = "claude") -> Decoded[Any]:
    """The typed input of a call to tool ``name``.

    An unknown tool, or an input that fits none of the tool's types (not an object, a required
    field missing), gives :class:`UnknownToolInput` holding ``raw``. Never raises.
    """
    return parse_input(tool_spec(name, agent), raw)


def parse_input(spec: ToolSpec, raw: Any) -> Decoded[Any]:
    """The typed input of a call to the tool ``spec`` describes (a call whose spec depends on
    more than its name: a Gemini CLI subagent, a Copilot CLI MCP tool), as
    :func:`parse_tool_input` types it. Never raises."""
    input_type = spec.input_type
    if input_type is UnknownToolInput:
        return Decoded(UnknownToolInput(raw=raw), [])
    if _is_freeform(input_type, FreeformInput):
        if isinstance(raw, dict):
            return Decoded(freeform(input_type, raw), [])
        return Decoded(UnknownToolInput(raw=raw), [f"{spec.name}: input is not an object"])
    return _lenient(input_type, UnknownToolInput).convert(raw)


def parse_tool_result(name: str, raw: Any, agent: str = "claude") -> Decoded[Any] | None:
    """The typed ``toolUseResult`` of a call to tool ``name``; ``None`` when it is absent.

    A string gives a :class:`~cclens.model.tools.TextResult` (a
    :class:`~cclens.model.tools.ToolErrorText` when it reads as an error), a list the tool's
    :class:`~cclens.model.tools.ResultList`, an object the tool's result type; anything that
    fits none of these gives :class:`UnknownToolResult` holding ``raw``. Never raises.
    """
    if raw is UNSET:
        return None
    if isinstance(raw, str):
        return Decoded(text_result(raw), [])
    spec = tool_spec(name, agent)
    if isinstance(raw, list):
        return _decode_list(spec, raw)
    if isinstance(raw, dict):
        return _decode_object(spec, raw)
    return Decoded(UnknownToolResult(raw=raw), [f"{name}: result is neither text, list nor object"])


def _decode_list(spec: ToolSpec, raw: list[Any]) -> Decoded[Any]:
    list_type = spec.list_result_type
    if list_type is None:
        if spec.result_type is UnknownToolResult:
            return Decoded(UnknownToolResult(raw=raw), [])
        return Decoded(UnknownToolResult(raw=raw), [f"{spec.name}: no list result is known"])
    assert issubclass(list_type, ResultList)
    item_list = list.__class_getitem__(list_type.item_type)
    decoded = _lenient(item_list, UnknownToolResult).convert(raw)
    if isinstance(decoded.value, list):
        return Decoded(list_type(decoded.value), decoded.notes)
    return decoded


def _decode_object(spec: ToolSpec, raw: dict[str, Any]) -> Decoded[Any]:
    result_type = spec.result_type
    if result_type is UnknownToolResult:
        return Decoded(UnknownToolResult(raw=raw), [])
    if result_type is None:
        return Decoded(UnknownToolResult(raw=raw), [f"{spec.name}: no object result is known"])
    if _is_freeform(result_type, FreeformResult):
        return Decoded(freeform(result_type, raw), [])
    plan = _plan(result_type)
    if plan.plain is not None and (plan.tagged is None or plan.tag_field not in raw):
        return _lenient(plan.plain, UnknownToolResult).convert(raw)
    return _lenient(plan.tagged, UnknownToolResult).convert(raw)
