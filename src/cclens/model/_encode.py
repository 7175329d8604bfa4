"""Encode model values back to the JSON Claude Code wrote."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Iterator
from typing import Any

import msgspec

from ._base import UNSET
from ._shape import layout

_SCALARS = (str, int, float, bool, type(None))


def _plain(value: Any) -> Any:
    """A copy of a JSON value held as it was read (an ``Any`` field, an extra, a raw value)."""
    if isinstance(value, _SCALARS):
        return value
    return msgspec.to_builtins(value, builtin_types=(msgspec.Raw,))


def _struct(node: msgspec.Struct) -> Any:
    shape = layout(type(node))
    if shape.raw_attribute is not None:
        return _plain(getattr(node, shape.raw_attribute))
    out: dict[str, Any] = {}
    if shape.tag is not None:
        out[shape.tag[0]] = shape.tag[1]
    for attribute, name, walks in shape.fields:
        value = getattr(node, attribute)
        if value is UNSET:
            continue
        out[name] = _encode(value) if walks else _plain(value)
    if shape.has_extra:
        extra = node.extra  # type: ignore[attr-defined]
        if isinstance(extra, dict):
            for key, value in extra.items():
                out[key] = _plain(value)
    return out


def _encode(node: Any) -> Any:
    if isinstance(node, msgspec.Struct):
        return _struct(node)
    if isinstance(node, list | tuple):
        return [_encode(child) for child in node]
    if isinstance(node, dict):
        return {key: _encode(child) for key, child in node.items()}
    return node


def to_builtins(value: Any) -> Any:
    """The JSON value (dicts, lists, strings, numbers) a model value was decoded from.

    Fields kept aside (``extra``) are back in their object, an ``Unknown…`` value is its raw
    JSON, and a value nested too deep to decode stays a :class:`msgspec.Raw` (which
    :func:`to_json` and :func:`msgspec.json.encode` write out as it was).
    """
    return _encode(value)


def to_json(value: Any) -> bytes:
    """Encode a model value as the JSON it was decoded from."""
    return msgspec.json.encode(to_builtins(value))


#: Strings at least this long are encoded on their own when writing a document in pieces.
LARGE_STRING = 1 << 16
_MARKER = re.compile(rb'"([0-9a-f]{16}):([0-9]+)"')


def format_json(value: Any, indent: int = 2) -> bytes:
    """``value`` (JSON builtins, which may hold :class:`msgspec.Raw`) as indented JSON, as
    :func:`msgspec.json.format` writes it.

    A raw value nested too deep to decode is written on one line, as it came (indenting it
    would mean decoding it).
    """
    return b"".join(iter_json(value, indent))


class JsonStream:
    """An array of a top-level object that :func:`iter_json` writes one element at a time, as
    ``elements()`` makes them: never held whole (a million records). Encoded any other way, it
    is the list of its elements (:func:`stream_hook`)."""

    def __init__(self, elements: Callable[[], Iterator[Any]]) -> None:
        self.elements = elements


def stream_hook(value: Any) -> Any:
    """An ``enc_hook`` for :func:`msgspec.json.encode`: a :class:`JsonStream` as a list."""
    if isinstance(value, JsonStream):
        return list(value.elements())
    raise NotImplementedError(f"cannot encode {type(value).__name__}")


def iter_compact(value: Any) -> Iterator[bytes]:
    """``value`` as compact JSON (:func:`msgspec.json.encode`), in pieces: each
    :class:`JsonStream` in it, however deep, is written one element at a time."""
    streams: list[JsonStream] = []
    nonce = secrets.token_hex(8)

    def aside(found: Any) -> Any:
        if not isinstance(found, JsonStream):
            raise NotImplementedError(f"cannot encode {type(found).__name__}")
        streams.append(found)
        return f"{nonce}:{len(streams) - 1}"

    encoded = msgspec.json.encode(value, enc_hook=aside)
    while streams and encoded.count(nonce.encode()) != len(streams):  # the input holds it
        streams.clear()
        nonce = secrets.token_hex(8)
        encoded = msgspec.json.encode(value, enc_hook=aside)
    previous = 0
    for found in _MARKER.finditer(encoded):
        if found[1].decode() != nonce:
            continue
        yield encoded[previous : found.start()]
        separator = b"["
        for element in streams[int(found[2])].elements():
            yield separator
            yield msgspec.json.encode(element, enc_hook=stream_hook)
            separator = b","
        yield b"[]" if separator == b"[" else b"]"
        previous = found.end()
    yield encoded[previous:]


def _stream(stream: JsonStream, pad: bytes, indent: int) -> Iterator[bytes]:
    first = True
    for element in stream.elements():
        yield b"[\n" + pad * 2 if first else b",\n" + pad * 2
        first = False
        yield from _piece(element, indent, 2)
    yield b"[]" if first else b"\n" + pad + b"]"


def iter_json(value: Any, indent: int = 2) -> Iterator[bytes]:
    """:func:`format_json`, in pieces, so that a large document is never held whole.

    Each element of the arrays of a top-level object (and of its :class:`JsonStream`) is
    encoded on its own, and so is every string of :data:`LARGE_STRING` characters or more:
    memory holds one of them at a time.
    """
    if not (isinstance(value, dict) and value and indent):
        yield from _piece(value, indent, 0)
        return
    pad = b" " * indent
    yield b"{\n"
    last = len(value) - 1
    for number, (key, child) in enumerate(value.items()):
        yield pad + msgspec.json.encode(key) + b": "
        if isinstance(child, JsonStream):
            yield from _stream(child, pad, indent)
        elif isinstance(child, list) and child:
            yield b"[\n"
            end = len(child) - 1
            for index, element in enumerate(child):
                yield pad * 2
                yield from _piece(element, indent, 2)
                yield b",\n" if index < end else b"\n"
            yield pad + b"]"
        else:
            yield from _piece(child, indent, 1)
        yield b",\n" if number < last else b"\n"
    yield b"}"


def _has_large(value: Any) -> bool:
    """Whether ``value`` holds a :class:`msgspec.Raw` or a large string (see :func:`_piece`)."""
    stack = [value]
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is str:
            if len(node) >= LARGE_STRING:
                return True
        elif kind is dict:
            stack.extend(node.values())
        elif kind is list or kind is tuple:
            stack.extend(node)
        elif isinstance(node, msgspec.Raw | str | dict | list | tuple):
            return True  # (a subclass: the careful way)
    return False


def _piece(value: Any, indent: int, level: int) -> Iterator[bytes]:
    """``value`` formatted at nesting ``level``, its large strings and raw values written
    apart from the rest."""
    if not _has_large(value):  # (most values: encoded and formatted at once)
        text = msgspec.json.encode(value)
        if indent:
            text = msgspec.json.format(text, indent=indent)
            if level:
                text = text.replace(b"\n", b"\n" + b" " * (indent * level))
        yield text
        return
    kept: list[Any] = []
    nonce = secrets.token_hex(8)
    skeleton = _set_aside(value, nonce, kept)
    encoded = msgspec.json.encode(skeleton)
    while kept and encoded.count(nonce.encode()) != len(kept):  # the input holds the nonce
        kept.clear()
        nonce = secrets.token_hex(8)
        skeleton = _set_aside(value, nonce, kept)
        encoded = msgspec.json.encode(skeleton)
    text = msgspec.json.format(encoded, indent=indent) if indent else encoded
    if level and indent:
        text = text.replace(b"\n", b"\n" + b" " * (indent * level))
    if not kept:
        yield text
        return
    previous = 0
    for found in _MARKER.finditer(text):
        if found[1].decode() != nonce:
            continue
        yield text[previous : found.start()]
        original = kept[int(found[2])]
        if isinstance(original, msgspec.Raw):
            yield bytes(original)
        else:
            yield from _string(original)
        previous = found.end()
    yield text[previous:]


def _string(text: str) -> Iterator[bytes]:
    """A large string as JSON, a window at a time (escapes never span two characters)."""
    yield b'"'
    for start in range(0, len(text), LARGE_STRING):
        yield msgspec.json.encode(text[start : start + LARGE_STRING])[1:-1]
    yield b'"'


def _set_aside(value: Any, nonce: str, kept: list[Any]) -> Any:
    """``value`` with each :class:`msgspec.Raw` and large string replaced by a marker string
    (``kept`` gets them, in order); containers are copied only when they hold one."""

    def aside(original: Any) -> str:
        kept.append(original)
        return f"{nonce}:{len(kept) - 1}"

    def large(node: Any) -> bool:
        return isinstance(node, msgspec.Raw) or (
            isinstance(node, str) and len(node) >= LARGE_STRING
        )

    if large(value):
        return aside(value)
    if not isinstance(value, dict | list | tuple):
        return value
    top: Any = dict(value) if isinstance(value, dict) else list(value)
    stack = [top]
    while stack:
        node = stack.pop()
        items: Any = node.items() if isinstance(node, dict) else enumerate(node)
        for key, child in list(items):
            if large(child):
                node[key] = aside(child)
            elif isinstance(child, dict | list | tuple):
                node[key] = copied = dict(child) if isinstance(child, dict) else list(child)
                stack.append(copied)
    return top
