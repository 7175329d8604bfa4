"""A depth budget for decoded values: what is nested deeper is kept as raw JSON.

msgspec, and every walker of JSON values after it (encoders, renderers, redaction), recurse once
per level of nesting, so a line nested a thousand levels deep would raise ``RecursionError``
wherever it went. No transcript Claude Code writes comes near :data:`MAX_DEPTH`; a line that
goes deeper is decoded here without recursion: every array or object that would sit deeper than
the budget becomes a :class:`msgspec.Raw` holding its exact bytes. A ``Raw`` encodes back to
those bytes, so nothing is lost; the typed decoder sees it as a value of no known shape, which
keeps it in an ``Any`` field or moves it to its struct's ``extra``.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

from ._shape import layout

#: The deepest level of nesting decoded into Python values (a record's own object is level 1).
MAX_DEPTH = 64

_OPEN = frozenset(b"[{")
# After a value, or right after "[" / "{" (an empty container), a closing mark may come.
_CLOSABLE = frozenset({"comma", "first", "first-key"})
_WHITESPACE = re.compile(rb"[ \t\n\r]*")
# One JSON token after optional whitespace: a string (escapes checked), a number, a literal, or
# one of the structural characters.
_TOKEN = re.compile(
    rb"[ \t\n\r]*(?:"
    rb'(?P<string>"[^"\\\x00-\x1f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*)*")'
    rb"|(?P<number>-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)"
    rb"|(?P<literal>true|false|null)"
    rb"|(?P<mark>[\[\]{},:]))"
)
# A \uD800-\uDFFF escape (preceded by an even number of backslashes, so it is an escape).
_SURROGATE = re.compile(rb"(?<!\\)(?:\\\\)*\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_PAIR = re.compile(rb"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}")


def may_be_deep(data: bytes) -> bool:
    """Whether ``data`` holds enough ``[`` and ``{`` to be nested past :data:`MAX_DEPTH`.

    A cheap first test: when it is false the value cannot be too deep.
    """
    return data.count(b"[") + data.count(b"{") > MAX_DEPTH


# Keep the quotes and the brackets.
_NOT_STRUCTURE = bytes(range(256)).translate(None, b'"[]{}')
_EMPTY = re.compile(rb"\[\]|\{\}")


def _skeleton_too_deep(data: bytes, limit: int) -> bool:
    """:func:`too_deep` read from the text of a valid JSON value, at C speed per byte."""
    skeleton = data.replace(b"\\\\", b"").replace(b'\\"', b"").translate(None, _NOT_STRUCTURE)
    skeleton = b"".join(skeleton.split(b'"')[::2])  # drop what is inside strings
    for _ in range(limit):  # each round removes the innermost arrays and objects
        if not skeleton:
            return False
        reduced = _EMPTY.sub(b"", skeleton)  # one pass: pairs it empties wait for the next
        if len(reduced) == len(skeleton):
            return True  # not balanced: not a value this can measure
        skeleton = reduced
    return bool(skeleton)


def nested_past_budget(data: bytes, value: Any) -> bool:
    """Whether ``value``, decoded from the valid JSON ``data``, nests past :data:`MAX_DEPTH`.

    The cheaper of two ways: walking the decoded containers (a line of long strings holds
    few), or reading the brackets from the text (a line dense in containers).
    """
    openers = data.count(b"[") + data.count(b"{")
    if openers <= MAX_DEPTH:
        return False
    if openers * 64 > len(data):
        return _skeleton_too_deep(data, MAX_DEPTH)
    return too_deep(value)


def too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether ``value`` (JSON builtins or model structs) nests containers past ``limit``.

    Walks without recursion, only into values that can hold containers.
    """
    stack: list[tuple[Any, int]] = [(value, 1)]
    pop = stack.pop
    push = stack.append
    while stack:
        node, depth = pop()
        if depth > limit:
            return True
        depth += 1
        if isinstance(node, dict):
            children: Any = node.values()
        elif isinstance(node, list):
            children = node
        elif isinstance(node, msgspec.Struct):
            children = [getattr(node, name) for name in layout(type(node)).containers]
        else:
            continue
        for child in children:
            if isinstance(child, dict | list | msgspec.Struct):
                push((child, depth))
    return False


def has_lone_surrogate(data: bytes) -> bool:
    """Whether a JSON text holds a ``\\uD800``-``\\uDFFF`` escape that is not half of a pair."""
    if b"\\u" not in data and b"\\U" not in data:
        return False
    paired = len(_PAIR.findall(data)) * 2
    return len(_SURROGATE.findall(data)) > paired


#: Escapes in the order a JSON reader meets them: an escaped backslash (``\\\\``, whatever
#: follows is text), a surrogate pair (a character), a lone surrogate (no character).
_ESCAPES = re.compile(
    rb"(\\\\)|(\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    rb"|(\\u[dD][89a-fA-F][0-9a-fA-F]{2})"
)


def replace_lone_surrogates(data: bytes) -> bytes:
    """``data`` (JSON text) with each ``\\uD800``-``\\uDFFF`` escape that is not half of a
    pair replaced by ``\\uFFFD`` (the replacement character), as a reader that cannot hold
    half a character does; the rest of the record is kept."""

    def replace(found: re.Match[bytes]) -> bytes:
        return b"\\ufffd" if found.group(3) else found.group()

    return _ESCAPES.sub(replace, data)


def _malformed(data: bytes, position: int) -> msgspec.DecodeError:
    if _WHITESPACE.match(data, position).end() >= len(data):  # type: ignore[union-attr]
        return msgspec.DecodeError("Input data was truncated")
    return msgspec.DecodeError(f"JSON is malformed: invalid character (byte {position})")


def _deep_spans(data: bytes, limit: int) -> list[tuple[int, int]]:
    """Validate ``data`` as one JSON value, without recursion, and return where each array or
    object nested past ``limit`` starts and ends. Raises ``msgspec.DecodeError``."""
    spans: list[tuple[int, int]] = []
    # What comes next: "value", "first" (a value or "]"), "key", "first-key" (a key or "}"),
    # "colon", "comma" (a "," or the container's end).
    stack: list[int] = []  # the open containers: 0 an array, 1 an object
    expect = "value"
    start = 0
    position = 0
    size = len(data)
    match = _TOKEN.match
    while True:
        token = match(data, position)
        if token is None:
            raise _malformed(data, position)
        position = token.end()
        kind = token.lastgroup
        assert kind is not None  # one of the alternatives matched
        text = token[kind]
        if kind == "mark":
            mark = text[0]
            if mark in _OPEN:
                if expect not in ("value", "first"):
                    raise _malformed(data, token.start(kind))
                stack.append(0 if mark == 0x5B else 1)
                if len(stack) == limit + 1:
                    start = token.start(kind)
                expect = "first" if mark == 0x5B else "first-key"
                continue
            if mark in b"]}":
                closing = 0 if mark == 0x5D else 1
                if not stack or stack[-1] != closing or expect not in _CLOSABLE:
                    raise _malformed(data, token.start(kind))
                if len(stack) == limit + 1:
                    spans.append((start, position))
                stack.pop()
                expect = "comma"
            elif mark == 0x2C:  # ","
                if expect != "comma" or not stack:
                    raise _malformed(data, token.start(kind))
                expect = "value" if stack[-1] == 0 else "key"
                continue
            else:  # ":"
                if expect != "colon":
                    raise _malformed(data, token.start(kind))
                expect = "value"
                continue
        elif expect == "key" or expect == "first-key":
            if kind != "string":
                raise _malformed(data, token.start(kind))
            expect = "colon"
            continue
        elif expect in ("value", "first"):
            expect = "comma"
        else:
            raise _malformed(data, token.start(kind))
        if not stack:
            break
    end = _WHITESPACE.match(data, position).end()  # type: ignore[union-attr]
    if end != size:
        raise msgspec.DecodeError(f"JSON is malformed: trailing characters (byte {end})")
    return spans


def bounded_decode(data: bytes, limit: int = MAX_DEPTH) -> tuple[Any, int]:
    """Decode ``data`` into JSON builtins, each container nested past ``limit`` kept as a
    :class:`msgspec.Raw`; returns the value and how many were kept so.

    Raises ``msgspec.DecodeError`` (or ``UnicodeDecodeError``) for what is not JSON, as
    :func:`msgspec.json.decode` would.
    """
    data.decode("utf-8")  # what is kept raw is never decoded by msgspec: check it here
    if has_lone_surrogate(data):
        raise msgspec.DecodeError("JSON is malformed: invalid escape")
    spans = _deep_spans(data, limit)
    if not spans:
        return msgspec.json.decode(data), 0
    import secrets  # here: only a line nested past the budget needs it (hmac, hashlib)

    nonce = secrets.token_hex(8).encode()
    while nonce in data:
        nonce = secrets.token_hex(8).encode()
    pieces: list[bytes] = []
    kept: dict[str, msgspec.Raw] = {}
    previous = 0
    for number, (start, end) in enumerate(spans):
        marker = nonce + b":%d" % number
        kept[marker.decode()] = msgspec.Raw(data[start:end])
        pieces += (data[previous:start], b'"', marker, b'"')
        previous = end
    pieces.append(data[previous:])
    value = msgspec.json.decode(b"".join(pieces))
    _put_back(value, kept)
    return value, len(spans)


def _put_back(value: Any, kept: dict[str, msgspec.Raw]) -> None:
    """Replace each marker string in ``value`` by the raw JSON it stands for."""
    stack = [value]
    while stack:
        node = stack.pop()
        items: Any = node.items() if isinstance(node, dict) else enumerate(node)
        for key, child in list(items):
            if isinstance(child, str):
                raw = kept.get(child)
                if raw is not None:
                    node[key] = raw
            elif isinstance(child, dict | list):
                stack.append(child)


__all__ = [
    "MAX_DEPTH",
    "bounded_decode",
    "has_lone_surrogate",
    "may_be_deep",
    "nested_past_budget",
    "too_deep",
]
