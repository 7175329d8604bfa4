"""The generic tool view: every input and result field by name, for tools without their own view.

It is also how a call is drawn when its input fits none of the tool's types, or when the tool is
unknown: then the fields come straight from the raw JSON, so nothing the transcript holds is lost.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..model import UNSET, to_builtins
from ..model.tools import UnknownToolInput, UnknownToolResult
from .prepared import PreparedView, TextPart, Tree, piece_part
from .views import ToolView, ViewHelpers

if TYPE_CHECKING:
    from ..model.session import ToolCall

__all__ = ["GenericView", "fields_of", "prepare_generic"]


def fields_of(value: Any) -> list[tuple[str, Any]] | None:
    """``value``'s top-level fields as (name, JSON value) pairs; ``None`` when not an object."""
    raw = to_builtins(value)
    if isinstance(raw, Mapping):
        return [(str(key), item) for key, item in raw.items()]
    return None


class GenericView(PreparedView, frozen=True, kw_only=True):
    """``tools/generic.html``: every field of the call's input and result as recorded.

    ``input_fields``/``result_fields``: (name, value) pairs, or ``None`` when the value is not
    an object (then ``input_raw``/``result_raw`` hold it); ``has_result``: whether a
    ``toolUseResult`` was recorded; ``untyped``: the input fit none of the tool's types;
    ``unknown_tool``: cclens does not know the tool. The text outputs show the input and the
    recorded result as JSON.
    """

    input_fields: list[tuple[str, Any]] | None = None
    input_raw: Any = None
    has_result: bool = False
    result_fields: list[tuple[str, Any]] | None = None
    result_raw: Any = None
    untyped: bool = False
    untyped_result: bool = False
    unknown_tool: bool = False
    description: str = ""

    def parts(self) -> list[TextPart]:
        parts = [piece_part(Tree(self.input_raw))]
        if self.has_result:
            parts.append(piece_part(Tree(self.result_raw), "Result", result=True))
        return parts


def prepare_generic(call: ToolCall, helpers: ViewHelpers) -> GenericView:
    """The generic view of ``call``: its fields by name."""
    raw_input = call.block.input
    has_result = call.raw_result is not UNSET
    return GenericView(
        i=call.input,
        input_fields=fields_of(raw_input),
        input_raw=raw_input,
        has_result=has_result,
        result_fields=fields_of(call.raw_result) if has_result else None,
        result_raw=to_builtins(call.raw_result) if has_result else None,
        untyped=isinstance(call.input, UnknownToolInput),
        untyped_result=isinstance(call.result, UnknownToolResult),
        unknown_tool=call.spec.family == "unknown",
        description=call.spec.description,
    )


#: The one fallback: names every input and result field; raw JSON for unknown tools.
generic_view = ToolView("generic", "tools/generic.html", prepare_generic)
