"""Valid JSON for every type of the model, and the same JSON with one field given a wrong type.

:func:`samples` builds, for a model type, a few valid JSON values that between them hold every
struct type reachable from it (every union member somewhere). :func:`struct_places` finds where
each struct sits in such a value, and :func:`misfits` replaces each field of each of them (its
tag included) by values of other JSON types, one at a time.
"""

from __future__ import annotations

import copy
import json
import types
from collections.abc import Iterator
from typing import Any, Literal, Union, get_args, get_origin

import msgspec

from cclens.model import to_builtins
from cclens.model._base import EXTRA_KEY, RAW_KEY, UNKNOWN_TAG
from cclens.model._shape import child_type, is_struct, layout, narrow

Place = tuple[str | int, ...]

#: Values of every JSON type, and shapes that trip decoders: nesting past the depth budget, a
#: huge integer, the model's own reserved keys, an unknown tag.
WRONG: tuple[Any, ...] = (
    "x",
    "",
    0,
    -7,
    1.5,
    True,
    False,
    None,
    [],
    [1, "a", None],
    {},
    {"type": "zzz", "a": [1, {"b": 2}]},
    {"a": {"b": {"c": []}}},
    2**70,
    {EXTRA_KEY: {"x": 1}},
    {"type": UNKNOWN_TAG, RAW_KEY: 5},
    json.loads("[" * 100 + "]" * 100),
)


def _members(type_: Any) -> tuple[Any, ...]:
    if get_origin(type_) in (Union, types.UnionType):
        return tuple(m for m in get_args(type_) if m not in (type(None), msgspec.UnsetType))
    return (type_,)


def _struct_value(cls: type[msgspec.Struct], depth: int, index: int) -> dict[str, Any]:
    shape = layout(cls)
    value: dict[str, Any] = {}
    if shape.tag is not None:
        value[shape.tag[0]] = shape.tag[1]
    for _, name, _ in shape.fields:
        if name in (EXTRA_KEY, RAW_KEY):
            continue
        options = samples(shape.types[name], depth + 1)
        if options:
            value[name] = options[index % len(options)]
    return value


def samples(type_: Any, depth: int = 0) -> list[Any]:
    """Valid JSON values of ``type_``; between them every union member reachable appears."""
    if depth > 8:
        return []
    found: list[Any] = []
    for member in _members(type_):
        origin = get_origin(member)
        if member is Any or member is object:
            found.append({"any": [1, "two"]})
        elif member is str:
            found.append("text")
        elif member is bool:
            found.append(True)
        elif member is int:
            found.append(3)
        elif member is float:
            found.append(2.5)
        elif origin is Literal:
            found.append(get_args(member)[0])
        elif is_struct(member):
            if layout(member).raw_attribute is not None:
                continue  # an Unknown… member: what the others do not fit
            shape = layout(member)
            fields = [samples(shape.types[name], depth + 1) for _, name, _ in shape.fields]
            width = max((len(options) for options in fields), default=1) or 1
            found += [_struct_value(member, depth, index) for index in range(width)]
        elif origin in (list, tuple, set, frozenset) or (
            isinstance(member, type) and issubclass(member, list)
        ):
            items = samples(child_type(member, 0), depth + 1)
            found.append(items)
        elif origin is dict:
            values = samples(get_args(member)[1], depth + 1)
            found.append({f"key{index}": item for index, item in enumerate(values)})
    return found


def struct_places(type_: Any, value: Any) -> Iterator[tuple[Place, type[msgspec.Struct]]]:
    """Where, in ``value`` (valid for ``type_``), each struct is, and its class."""
    stack: list[tuple[Place, Any, Any]] = [((), type_, value)]
    while stack:
        place, declared, node = stack.pop()
        narrowed = narrow(declared, node) if declared is not None else None
        if narrowed is None:
            continue
        if is_struct(narrowed):
            yield place, narrowed
        if isinstance(node, dict):
            for key, child in node.items():
                stack.append(((*place, key), child_type(narrowed, key), child))
        elif isinstance(node, list):
            for index, child in enumerate(node):
                stack.append(((*place, index), child_type(narrowed, index), child))


def _set(root: Any, place: Place, key: str, wrong: Any) -> Any:
    """A copy of ``root`` with ``wrong`` at ``place`` + ``key`` (only the containers on the way
    there are copied: the rest is shared, and never changed)."""
    top = copy.copy(root)
    node = top
    for segment in place:
        node[segment] = copy.copy(node[segment])
        node = node[segment]
    node[key] = wrong
    return top


def misfits(type_: Any, value: Any) -> Iterator[tuple[str, Any]]:
    """``value`` with one field of one struct (or its tag) set to each of :data:`WRONG`, with a
    label saying which."""
    for place, cls in struct_places(type_, value):
        shape = layout(cls)
        keys = [name for _, name, _ in shape.fields if name not in (EXTRA_KEY, RAW_KEY)]
        if shape.tag is not None:
            keys.append(shape.tag[0])
        for key in keys:
            for number, wrong in enumerate(WRONG):
                yield (
                    f"{cls.__name__}.{key} at {list(place)} = WRONG[{number}]",
                    _set(value, place, key, wrong),
                )


def canonical(value: Any) -> Any:
    """``value`` with every number as a float (JSON does not tell ``1`` from ``1.0``) and
    ``True``/``False`` kept apart from numbers."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return ("number", float(value)) if abs(value) < 2**53 else ("number", str(value))
    if isinstance(value, dict):
        return {key: canonical(child) for key, child in value.items()}
    if isinstance(value, list):
        return [canonical(child) for child in value]
    raise TypeError(type(value))


def same_json(model_value: Any, original: Any) -> bool:
    """Whether a model value encodes back to JSON equal to ``original`` (raw parts included)."""
    encoded = json.loads(msgspec.json.encode(to_builtins(model_value)))
    return bool(canonical(encoded) == canonical(original))
