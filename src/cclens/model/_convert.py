"""Lossless decoding: a fast typed path, and a slow path that keeps what the types do not know.

The fast path is one call into msgspec. When it fails, the slow path decodes the value as plain
JSON and repairs it step by step, guided by msgspec's own error messages:

* an unknown field is moved into the ``extra`` mapping of the struct that holds it;
* a field of an unexpected type is moved there too (the typed field stays ``UNSET``);
* an object whose ``type`` tag is unknown, or that misses a required field, becomes the
  ``Unknown…`` member of its union, holding the raw value.

Whatever is moved aside is taken from an untouched copy of the input, so encoding the result
with :func:`cclens.model.to_builtins` gives back JSON equal to the input.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import msgspec

from ._base import UNKNOWN_TAG

T = TypeVar("T")

Segment = str | int
Path = tuple[Segment, ...]

_AT = re.compile(r"^(?P<message>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.DOTALL)
_SEGMENT = re.compile(r"\.([^.\[]+)|\[(\d+|\.\.\.)\]")
_UNKNOWN_FIELD = re.compile(r"^Object contains unknown field `(?P<key>.*)`$", re.DOTALL)
_MISSING_FIELD = re.compile(r"^Object missing required field `(?P<key>.*)`$", re.DOTALL)
_MAX_REPAIRS = 200
_ANY_KEY = "..."


@dataclass(slots=True)
class _Repairs:
    """What the slow path moved aside, by concrete path in the input."""

    extras: dict[Path, dict[str, Any]] = field(default_factory=dict)
    unknowns: dict[Path, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def _parse_path(text: str) -> list[Segment]:
    segments: list[Segment] = []
    for name, index in _SEGMENT.findall(text):
        if name:
            segments.append(name)
        elif index == _ANY_KEY:
            segments.append(_ANY_KEY)
        else:
            segments.append(int(index))
    return segments


def _expand(root: Any, pattern: list[Segment]) -> list[tuple[Path, Any]]:
    """Every concrete path (and its value) in ``root`` that ``pattern`` can mean.

    msgspec writes ``[...]`` for "some value of a mapping", so one pattern can name several
    places; the repair is tried on each of them.
    """
    found: list[tuple[Path, Any]] = [((), root)]
    for segment in pattern:
        following: list[tuple[Path, Any]] = []
        for path, node in found:
            if segment == _ANY_KEY and isinstance(node, dict):
                following.extend(((*path, key), child) for key, child in node.items())
            elif _has(node, segment):
                following.append(((*path, segment), node[segment]))
        found = following
    return found


def _has(node: Any, segment: Segment) -> bool:
    if isinstance(segment, int):
        return isinstance(node, list) and segment < len(node)
    return isinstance(node, dict) and segment in node


def _get(root: Any, path: Path) -> Any:
    node = root
    for segment in path:
        node = node[segment]
    return node


def _is_under(path: Path, prefix: Path) -> bool:
    return path[: len(prefix)] == prefix


class _Unrepairable(Exception):
    """The value as a whole does not fit the type: it becomes the union's unknown member."""


class _Repairer:
    def __init__(self, pristine: Any, work: Any) -> None:
        self.pristine = pristine
        self.work = work
        self.repairs = _Repairs()
        self._placeholders: set[Path] = set()

    def _forget_under(self, path: Path) -> None:
        for mapping in (self.repairs.extras, self.repairs.unknowns):
            for stale in [p for p in mapping if _is_under(p, path) and p != path]:
                del mapping[stale]
        for stale in [p for p in self.repairs.extras if p == path]:
            del self.repairs.extras[stale]

    def move_to_extra(self, holder: Path, key: str) -> None:
        """Move field ``key`` of the object at ``holder`` into that object's extras."""
        self._forget_under((*holder, key))
        original = _get(self.pristine, holder)[key]
        del _get(self.work, holder)[key]
        self.repairs.extras.setdefault(holder, {})[key] = original

    def make_unknown(self, path: Path) -> None:
        """Replace the object at ``path`` by the unknown member of its union."""
        if not path:
            raise _Unrepairable
        if path in self._placeholders:
            # The placeholder was refused too: that place is no union with an unknown member.
            self._escalate(path[:-1])
            return
        self._forget_under(path)
        self._placeholders.add(path)
        self.repairs.unknowns[path] = _get(self.pristine, path)
        _get(self.work, path[:-1])[path[-1]] = {"type": UNKNOWN_TAG}

    def _escalate(self, path: Path) -> None:
        """Move the nearest enclosing struct field that contains ``path`` into extras."""
        while path and not isinstance(path[-1], str):
            path = path[:-1]
        if not path:
            raise _Unrepairable
        self.move_to_extra(path[:-1], path[-1])  # type: ignore[arg-type]

    def repair(self, error: msgspec.ValidationError) -> None:
        match = _AT.match(str(error))
        assert match is not None
        message = match["message"]
        pattern = _parse_path(match["path"] or "")
        places = _expand(self.work, pattern)
        if not places:
            raise _Unrepairable
        unknown = _UNKNOWN_FIELD.match(message)
        missing = _MISSING_FIELD.match(message)
        for path, node in places:
            if unknown is not None:
                if isinstance(node, dict) and unknown["key"] in node:
                    self.move_to_extra(path, unknown["key"])
            elif missing is not None:
                self.make_unknown(path) if _is_list_item(path) else self._escalate(path)
            elif path and path[-1] == "type" and message.startswith("Invalid value"):
                self.make_unknown(path[:-1])
            else:
                self._escalate(path)
        self.repairs.notes.append(message if not match["path"] else f"{message} at {match['path']}")


def _is_list_item(path: Path) -> bool:
    return bool(path) and isinstance(path[-1], int)


_ENCODE_NAMES: dict[type, dict[str, str]] = {}


def _attribute(struct: msgspec.Struct, json_name: str) -> str:
    names = _ENCODE_NAMES.get(type(struct))
    if names is None:
        names = dict(zip(struct.__struct_encode_fields__, struct.__struct_fields__, strict=True))
        _ENCODE_NAMES[type(struct)] = names
    return names[json_name]


def _child(node: Any, segment: Segment) -> Any:
    if isinstance(node, msgspec.Struct):
        return getattr(node, _attribute(node, str(segment)))
    return node[segment]


def _attach(result: Any, repairs: _Repairs) -> None:
    """Put what the slow path moved aside back onto the decoded structs."""
    for path, raw in repairs.unknowns.items():
        target = result
        for segment in path:
            target = _child(target, segment)
        target.raw = raw
    for path, extra in repairs.extras.items():
        target = result
        for segment in path:
            target = _child(target, segment)
        existing = target.extra if isinstance(target.extra, dict) else {}
        target.extra = {**existing, **extra}


@dataclass(slots=True)
class Decoded(Generic[T]):
    """A decoded value and what the slow path had to set aside to decode it."""

    value: T
    notes: list[str]


class Lenient(Generic[T]):
    """Decode JSON into ``type_`` without losing anything.

    ``unknown`` builds the value used when the input does not fit the type at all (for example
    a record whose ``type`` tag is unknown): it receives the raw JSON value.
    """

    def __init__(self, type_: Any, unknown: Callable[[Any], T]) -> None:
        self.type = type_
        self.unknown = unknown
        self._decoder: msgspec.json.Decoder[T] = msgspec.json.Decoder(type_)

    def decode(self, data: bytes | str) -> Decoded[T]:
        """Decode one JSON document; raises ``msgspec.DecodeError`` only for invalid JSON."""
        try:
            return Decoded(self._decoder.decode(data), [])
        except msgspec.ValidationError:
            pass
        raw = msgspec.json.decode(data)
        return self._slow(raw, msgspec.json.decode(data))

    def convert(self, raw: Any) -> Decoded[T]:
        """Convert an already decoded JSON value (left untouched)."""
        try:
            return Decoded(msgspec.convert(raw, self.type), [])
        except msgspec.ValidationError:
            pass
        copy = msgspec.json.decode(msgspec.json.encode(raw))
        return self._slow(raw, copy)

    def _slow(self, pristine: Any, work: Any) -> Decoded[T]:
        repairer = _Repairer(pristine, work)
        for _ in range(_MAX_REPAIRS):
            try:
                result: T = msgspec.convert(repairer.work, self.type)
            except msgspec.ValidationError as error:
                try:
                    repairer.repair(error)
                except _Unrepairable:
                    return Decoded(self.unknown(pristine), [*repairer.repairs.notes, str(error)])
                continue
            _attach(result, repairer.repairs)
            return Decoded(result, repairer.repairs.notes)
        return Decoded(self.unknown(pristine), [*repairer.repairs.notes, "too many repairs"])
