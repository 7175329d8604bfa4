"""Edit a JSON text in place: set a key, add an item, and leave every other byte as it was.

``cclens setup`` changes a few keys of a person's ``settings.json``; rewriting the whole file
with :func:`json.dumps` would reorder nothing but would still change its indentation, its
spacing and its line breaks, and the diff shown before asking would be the whole file. This
module finds where each value sits in the text (a small scanner over text :func:`json.loads`
has already accepted) and splices the new value in, indented like its neighbours.

Example::

    >>> text = '{\\n  "model": "opus"\\n}\\n'
    >>> print(set_key(text, ["statusLine"], {"type": "command", "command": "x"}), end="")
    {
      "model": "opus",
      "statusLine": {
        "type": "command",
        "command": "x"
      }
    }
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

#: The indentation used when the text shows none (Claude Code writes two spaces).
DEFAULT_INDENT = "  "
_WHITESPACE = " \t\r\n"


@dataclass(slots=True)
class Node:
    """A value's place in the text: ``start`` to ``end`` (exclusive); an object's members
    (key, where the key starts, value) and an array's items."""

    start: int
    end: int
    kind: str  # "object", "array" or "scalar"
    members: list[tuple[str, int, Node]] = field(default_factory=list)
    items: list[Node] = field(default_factory=list)

    def member(self, key: str) -> Node | None:
        """The value of ``key`` (the last one, as :func:`json.loads` keeps it)."""
        found = None
        for name, _, value in self.members:
            if name == key:
                found = value
        return found


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def skip(self) -> None:
        text, at = self.text, self.at
        while at < len(text) and text[at] in _WHITESPACE:
            at += 1
        self.at = at

    def separator(self) -> None:
        """Past the comma after an entry (and the whitespace around it), if there is one."""
        self.skip()
        if self.text[self.at] == ",":
            self.at += 1
            self.skip()

    def string(self) -> str:
        start = self.at
        at = start + 1
        text = self.text
        while text[at] != '"':
            at += 2 if text[at] == "\\" else 1
        self.at = at + 1
        decoded: str = json.loads(text[start : self.at])
        return decoded

    def value(self) -> Node:
        self.skip()
        start = self.at
        char = self.text[start]
        if char == "{":
            node = Node(start, start, "object")
            self.at += 1
            self.skip()
            while self.text[self.at] != "}":
                key_start = self.at
                key = self.string()
                self.skip()
                self.at += 1  # ":"
                node.members.append((key, key_start, self.value()))
                self.separator()
            self.at += 1
        elif char == "[":
            node = Node(start, start, "array")
            self.at += 1
            self.skip()
            while self.text[self.at] != "]":
                node.items.append(self.value())
                self.separator()
            self.at += 1
        elif char == '"':
            self.string()
            node = Node(start, start, "scalar")
        else:
            at = start
            while at < len(self.text) and self.text[at] not in _WHITESPACE + ",]}":
                at += 1
            self.at = at
            node = Node(start, start, "scalar")
        node.end = self.at
        return node


def parse(text: str) -> Node:
    """Where every value of ``text`` sits; ``text`` must be JSON (:func:`json.loads` raises
    ``ValueError`` otherwise, before any scanning)."""
    json.loads(text)
    scanner = _Scanner(text)
    return scanner.value()


def _line_indent(text: str, position: int) -> str:
    """The whitespace that begins the line holding ``position``."""
    line_start = text.rfind("\n", 0, position) + 1
    at = line_start
    while at < len(text) and text[at] in " \t":
        at += 1
    return text[line_start:at]


def indent_unit(text: str, root: Node) -> str:
    """One level of indentation in ``text``: from the first member or item on a line of its
    own, else :data:`DEFAULT_INDENT`."""
    stack = [root]
    while stack:
        node = stack.pop(0)
        places = [key_start for _, key_start, _ in node.members] or [i.start for i in node.items]
        for place in places:
            if "\n" in text[node.start : place]:
                inner = _line_indent(text, place)
                outer = _line_indent(text, node.start)
                if inner.startswith(outer) and len(inner) > len(outer):
                    return inner[len(outer) :]
        stack.extend(value for _, _, value in node.members)
        stack.extend(node.items)
    return DEFAULT_INDENT


def _dump(value: Any, indent: str, unit: str) -> str:
    """``value`` as JSON laid out over lines, its lines after the first indented by ``indent``."""
    text = json.dumps(value, indent=unit, ensure_ascii=False)
    return text.replace("\n", "\n" + indent)


def _entry(key: str | None, value: Any, unit: str | None) -> str:
    """A member ``"key": value`` (an item when ``key`` is ``None``), over lines when ``unit``
    is given, else on one line."""
    dumped = json.dumps(value, indent=unit, ensure_ascii=False)
    return dumped if key is None else f"{json.dumps(key, ensure_ascii=False)}: {dumped}"


def _insert(text: str, container: Node, key: str | None, value: Any, unit: str) -> str:
    """Add the member ``key: value`` (an item when ``key`` is ``None``) as the container's
    last one, laid out like the others."""
    places = [key_start for _, key_start, _ in container.members] or [
        item.start for item in container.items
    ]
    outer = _line_indent(text, container.start)
    entry = _entry(key, value, unit)
    if not places:
        # An empty container: its entry goes on a line of its own, one level in.
        inner = outer + unit
        return (
            text[: container.start + 1]
            + "\n"
            + inner
            + entry.replace("\n", "\n" + inner)
            + "\n"
            + outer
            + text[container.end - 1 :]
        )
    last_end = container.members[-1][2].end if container.members else container.items[-1].end
    if "\n" in text[container.start : places[-1]]:
        inner = _line_indent(text, places[-1])
        return text[:last_end] + ",\n" + inner + entry.replace("\n", "\n" + inner) + text[last_end:]
    # A container written on one line stays on one line.
    return text[:last_end] + ", " + _entry(key, value, None) + text[last_end:]


def _walk(root: Node, path: Sequence[str]) -> tuple[Node, int]:
    """The deepest object on ``path`` that exists, and how many keys of the path it covers."""
    node = root
    depth = 0
    for key in path:
        child = node.member(key)
        if child is None or child.kind != "object":
            break
        node = child
        depth += 1
    return node, depth


def _nest(path: Sequence[str], value: Any) -> Any:
    for key in reversed(path):
        value = {key: value}
    return value


def _locate(text: str, path: Sequence[str]) -> tuple[str, Node, int]:
    """The indentation unit of ``text``, the deepest object on ``path`` (all but its last key)
    that exists, and how many keys it covers."""
    root = parse(text)
    if root.kind != "object":
        raise ValueError("the top level is not an object")
    parent, depth = _walk(root, path[:-1])
    return indent_unit(text, root), parent, depth


def set_key(text: str, path: Sequence[str], value: Any) -> str:
    """``text`` with the value at ``path`` (keys from the top-level object) set to ``value``;
    objects on the way that are missing are added. Raises ``ValueError`` when ``text`` is not
    JSON, or a key on the way holds something else than an object."""
    unit, parent, depth = _locate(text, path)
    if depth < len(path) - 1:
        blocking = parent.member(path[depth])
        if blocking is not None:
            raise ValueError(f"{'.'.join(path[: depth + 1])} is not an object")
        return _insert(text, parent, path[depth], _nest(path[depth + 1 :], value), unit)
    current = parent.member(path[-1])
    if current is None:
        return _insert(text, parent, path[-1], value, unit)
    indent = _line_indent(text, current.start)
    if "\n" not in text[parent.start : current.start]:
        replacement = json.dumps(value, ensure_ascii=False)
    else:
        replacement = _dump(value, indent, unit)
    return text[: current.start] + replacement + text[current.end :]


def append_item(text: str, path: Sequence[str], value: Any) -> str:
    """``text`` with ``value`` added at the end of the array at ``path`` (made, with the
    objects on the way, when missing). Raises ``ValueError`` when ``text`` is not JSON, or
    something on the way is not what it should be."""
    unit, parent, depth = _locate(text, path)
    array = parent.member(path[-1]) if depth == len(path) - 1 else None
    if array is None:
        return set_key(text, path, [value])
    if array.kind != "array":
        raise ValueError(f"{'.'.join(path)} is not an array")
    return _insert(text, array, None, value, unit)


def new_text(value: Any) -> str:
    """A new file holding ``value``, laid out as Claude Code writes its settings."""
    return json.dumps(value, indent=len(DEFAULT_INDENT), ensure_ascii=False) + "\n"


__all__ = [
    "DEFAULT_INDENT",
    "Node",
    "append_item",
    "indent_unit",
    "new_text",
    "parse",
    "set_key",
]
