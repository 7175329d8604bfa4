"""Any JSON value as a readable tree: keys, typed scalars, collapsible objects and arrays."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Literal

import msgspec
from markupsafe import Markup

from ..model import to_builtins

if TYPE_CHECKING:
    from jinja2 import Environment

__all__ = ["JsonNode", "json_tree", "render_json"]

NodeKind = Literal["object", "array", "string", "number", "bool", "null", "raw", "more"]
#: Past this many nodes the rest of a value is summarised ("… 120 more").
MAX_NODES = 3000
#: Strings longer than this are cut, with a note.
MAX_STRING = 20_000
#: Objects and arrays with more children than this start collapsed.
OPEN_LIMIT = 12


class JsonNode(msgspec.Struct):
    """One value of the tree; ``text`` is the scalar as JSON, ``children`` for containers."""

    kind: NodeKind
    key: str | None
    text: str = ""
    children: list[JsonNode] = msgspec.field(default_factory=list)
    size: int = 0
    cut: int = 0
    open: bool = True
    multiline: bool = False


class _Budget:
    def __init__(self, nodes: int) -> None:
        self.left = nodes


def _opens(size: int, depth: int) -> bool:
    # The outermost value is always open: the reader asked to see it.
    return depth == 0 or (size <= OPEN_LIMIT and depth < 4)


def _node(value: Any, key: str | None, budget: _Budget, depth: int) -> JsonNode:
    budget.left -= 1
    if isinstance(value, dict):
        node = JsonNode("object", key, size=len(value), open=_opens(len(value), depth))
        for index, (child_key, child) in enumerate(value.items()):
            if budget.left <= 0:
                node.children.append(JsonNode("more", None, size=len(value) - index))
                break
            node.children.append(_node(child, str(child_key), budget, depth + 1))
        return node
    if isinstance(value, list | tuple):
        node = JsonNode("array", key, size=len(value), open=_opens(len(value), depth))
        for index, child in enumerate(value):
            if budget.left <= 0:
                node.children.append(JsonNode("more", None, size=len(value) - index))
                break
            node.children.append(_node(child, None, budget, depth + 1))
        return node
    if isinstance(value, str):
        text = value[:MAX_STRING]
        return JsonNode(
            "string", key, text=text, cut=len(value) - len(text), multiline="\n" in text
        )
    if isinstance(value, bool):
        return JsonNode("bool", key, text="true" if value else "false")
    if value is None:
        return JsonNode("null", key, text="null")
    if isinstance(value, int | float):
        return JsonNode("number", key, text=json.dumps(value))
    if isinstance(value, msgspec.Raw):  # nested too deep to decode: shown as the JSON it is
        raw = bytes(value).decode("utf-8", errors="replace")
        return JsonNode("raw", key, text=raw[:MAX_STRING], cut=max(len(raw) - MAX_STRING, 0))
    return JsonNode("string", key, text=str(value))


def json_tree(value: Any, *, max_nodes: int = MAX_NODES) -> JsonNode:
    """``value`` (builtins or a model value) as a :class:`JsonNode` tree."""
    return _node(to_builtins(value), None, _Budget(max_nodes), 0)


def render_json(environment: Environment, value: Any) -> Markup:
    """``value`` drawn as a collapsible JSON tree."""
    template = environment.get_template("_json.html")
    return Markup(template.render(root=json_tree(value)))
