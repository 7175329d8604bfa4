"""What the model's types say about a JSON value: struct layouts, and the type at a place.

The lenient decoder (:mod:`._convert`) reads msgspec's error paths with these: whether a step of
a path is a struct's field (which has an ``extra`` mapping to move a value into), a mapping's key
or a list's item, and whether a place is a union with an ``Unknown…`` member. The encoder
(:mod:`._encode`) and the depth check (:mod:`._depth`) use the layouts to walk only the fields
that can hold something to walk.
"""

from __future__ import annotations

import functools
import types
from typing import Any, Literal, Union, get_args, get_origin

import msgspec

from ._base import EXTRA_KEY, RAW_KEY, UNKNOWN_TAG

Segment = str | int
Place = tuple[Segment, ...]

_SCALARS: frozenset[Any] = frozenset(
    {str, int, float, bool, type(None), msgspec.UnsetType, msgspec.Raw, bytes}
)


class Layout(msgspec.Struct, frozen=True):
    """How one struct class reads and writes its JSON object."""

    #: ``(tag field, tag value)`` of a tagged struct.
    tag: tuple[str, str] | None
    #: The attribute holding the whole raw value, for an ``Unknown…`` struct (else ``None``).
    raw_attribute: str | None
    #: ``(attribute, JSON name, may hold a struct)`` of every field but ``extra``.
    fields: tuple[tuple[str, str, bool], ...]
    #: Attributes whose value may be a JSON object or array (a struct, a list, a mapping).
    containers: tuple[str, ...]
    #: JSON name -> declared type.
    types: dict[str, Any]
    #: JSON name -> attribute.
    attributes: dict[str, str]
    #: Whether the struct keeps fields it does not declare (``extra``).
    has_extra: bool


def is_struct(type_: Any) -> bool:
    """Whether ``type_`` is a msgspec struct class."""
    return isinstance(type_, type) and issubclass(type_, msgspec.Struct)


def members(type_: Any) -> tuple[Any, ...]:
    """The members of a union (``Opt[...]`` included), else ``(type_,)``."""
    if get_origin(type_) in (Union, types.UnionType):
        return get_args(type_)
    return (type_,)


@functools.cache
def holds_struct(type_: Any) -> bool:
    """Whether a value of ``type_`` may be or contain a struct."""
    if is_struct(type_):
        return True
    return any(holds_struct(argument) for argument in get_args(type_) if argument is not ...)


@functools.cache
def holds_container(type_: Any) -> bool:
    """Whether a value of ``type_`` may be a JSON object or array."""
    if type_ in _SCALARS:
        return False
    origin = get_origin(type_)
    if origin in (Union, types.UnionType):
        return any(holds_container(member) for member in get_args(type_))
    return origin is not Literal


@functools.cache
def layout(cls: type[msgspec.Struct]) -> Layout:
    """The :class:`Layout` of struct class ``cls``."""
    config = cls.__struct_config__
    tag = (str(config.tag_field), str(config.tag)) if config.tag is not None else None
    fields: list[tuple[str, str, bool]] = []
    containers: list[str] = []
    declared: dict[str, Any] = {}
    attributes: dict[str, str] = {}
    raw_attribute = None
    has_extra = False
    for info in msgspec.structs.fields(cls):
        attributes[info.encode_name] = info.name
        declared[info.encode_name] = info.type
        if info.encode_name == EXTRA_KEY:
            has_extra = True
            containers.append(info.name)
            continue
        if info.encode_name == RAW_KEY and config.tag == UNKNOWN_TAG:
            raw_attribute = info.name
        fields.append((info.name, info.encode_name, holds_struct(info.type)))
        if holds_container(info.type):
            containers.append(info.name)
    return Layout(
        tag, raw_attribute, tuple(fields), tuple(containers), declared, attributes, has_extra
    )


def known_tags(type_: Any) -> frozenset[str]:
    """The tags of union ``type_``'s members but its ``Unknown…`` one: the kinds the model
    knows."""
    return frozenset(
        str(member.__struct_config__.tag)
        for member in members(type_)
        if member.__struct_config__.tag != UNKNOWN_TAG
    )


def unknown_member(type_: Any) -> type[msgspec.Struct] | None:
    """The ``Unknown…`` member of union ``type_``, if it has one."""
    for member in members(type_):
        if is_struct(member) and member.__struct_config__.tag == UNKNOWN_TAG:
            found: type[msgspec.Struct] = member
            return found
    return None


def _sequence(type_: Any) -> bool:
    origin = get_origin(type_) or type_
    return isinstance(origin, type) and issubclass(origin, list | tuple | set | frozenset)


def _mapping(type_: Any) -> bool:
    origin = get_origin(type_) or type_
    return isinstance(origin, type) and issubclass(origin, dict)


class _Choice(msgspec.Struct, frozen=True):
    """How to tell which member of a union describes a JSON value."""

    #: tag field -> tag value -> struct.
    tagged: dict[str, dict[str, Any]]
    untagged: Any
    mapping: Any
    sequence: Any
    any: bool


@functools.cache
def _choice(type_: Any) -> _Choice:
    tagged: dict[str, dict[str, Any]] = {}
    untagged = mapping = sequence = None
    for option in members(type_):
        if is_struct(option):
            config = option.__struct_config__
            if config.tag is None:
                untagged = untagged or option
            else:
                tagged.setdefault(str(config.tag_field), {}).setdefault(str(config.tag), option)
        elif _mapping(option):
            mapping = mapping or option
        elif _sequence(option):
            sequence = sequence or option
    return _Choice(tagged, untagged, mapping, sequence, Any in members(type_))


def tagged_fields(type_: Any) -> tuple[str, ...]:
    """The tag fields of the struct members of union ``type_``."""
    return tuple(_choice(type_).tagged)


def narrow(type_: Any, node: Any) -> Any:
    """The member of ``type_`` that describes ``node`` (a JSON value), or ``None``.

    A JSON object is described by the struct whose tag it carries, else by an untagged struct,
    else by a mapping type, else by ``Any``; an array by a list type or ``Any``.
    """
    choice = _choice(type_)
    if isinstance(node, dict):
        for field_name, by_tag in choice.tagged.items():
            tag = node.get(field_name)
            if isinstance(tag, str) and tag in by_tag:
                return by_tag[tag]
        if choice.untagged is not None:
            return choice.untagged
        if choice.mapping is not None:
            return choice.mapping
    elif isinstance(node, list) and choice.sequence is not None:
        return choice.sequence
    return Any if choice.any else None


def child_type(type_: Any, segment: Segment) -> Any:
    """The declared type of ``segment`` (a field, a key, an index) inside a ``type_`` value."""
    if type_ is Any:
        return Any
    if is_struct(type_):
        return layout(type_).types.get(str(segment))
    arguments = get_args(type_)
    if _mapping(type_):
        return arguments[1] if len(arguments) == 2 else Any
    if _sequence(type_):
        return arguments[0] if arguments else Any
    return None


__all__ = [
    "Layout",
    "Place",
    "Segment",
    "child_type",
    "holds_container",
    "holds_struct",
    "is_struct",
    "layout",
    "members",
    "narrow",
    "tagged_fields",
    "unknown_member",
]
