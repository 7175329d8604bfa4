"""Lossless decoding: a fast typed path, and a slow path that keeps what the types do not know.

The fast path is one call into msgspec. When it fails, the slow path decodes the value as plain
JSON and repairs it step by step, guided by msgspec's own error messages and by the model's
types (:mod:`._shape`), which say what each step of an error's path is:

* an unknown field is moved into the ``extra`` mapping of the struct that holds it;
* a value of an unexpected type becomes the ``Unknown…`` member of its union when it has one
  (a content block, an attachment, a list item of such a union), else the struct field holding
  it, however deep (inside lists, mappings, unions), moves into that struct's ``extra`` (the
  typed field stays ``UNSET``);
* an object whose tag is unknown, or that misses a required field, becomes the ``Unknown…``
  member of its union, holding the raw value, or moves aside as above.

Whatever is moved aside is taken from the untouched input, so encoding the result with
:func:`cclens.model.to_builtins` gives back JSON equal to the input. Values nested deeper than
:data:`~cclens.model._depth.MAX_DEPTH` are kept as raw JSON (:mod:`._depth`). A key the model
reserves for itself (``__extra__``, or the tag ``__unknown__``) read from the input is kept as
an unknown field, never taken for the model's own.
"""

from __future__ import annotations

import copy
import functools
import re
import sys
from collections.abc import Callable
from typing import Any, Generic, TypeVar

import msgspec

from ._base import EXTRA_KEY, UNKNOWN_TAG, UNSET, Model
from ._depth import MAX_DEPTH, bounded_decode, nested_past_budget
from ._shape import (
    Place,
    Segment,
    child_type,
    is_struct,
    layout,
    members,
    narrow,
    tagged_fields,
    unknown_member,
)

T = TypeVar("T")

_AT = " - at `$"
_SEGMENT = re.compile(r"\.([^.\[]+)|\[(\d+|\.\.\.)\]")
_UNKNOWN_FIELD = re.compile(r"^Object contains unknown field `(?P<key>.*)`$", re.DOTALL)
_MISSING_FIELD = re.compile(r"^Object missing required field `(?P<key>.*)`$", re.DOTALL)
_MAX_REPAIRS = 200
_ANY_KEY = "..."
# The conversions below go through a one-field struct: msgspec keeps the type information of a
# struct class, but builds a union's again on every call (70 us for a record, 100 times more).
_BOX = "value"
# Input that names the model's reserved keys is taken through the slow path.
_RESERVED_EXTRA = f'"{EXTRA_KEY}"'.encode()
_RESERVED_TAG = f'"{UNKNOWN_TAG}"'.encode()


class Decoded(msgspec.Struct, Generic[T]):
    """A decoded value and what the slow path had to set aside to decode it.

    ``notes`` lists every repair (an unknown field, an unknown kind, a value of an unexpected
    shape); ``problems`` only those that mean the input does not have the shape Claude Code
    writes (a value of an unexpected type, a required field missing, nesting past the depth
    budget): they are reported as diagnostics.
    """

    value: T
    notes: list[str]
    problems: list[str] = msgspec.field(default_factory=list)


class _Repairs(msgspec.Struct):
    """What the slow path moved aside, by concrete place in the input."""

    extras: dict[Place, dict[str, Any]] = msgspec.field(default_factory=dict)
    unknowns: dict[Place, Any] = msgspec.field(default_factory=dict)
    notes: list[str] = msgspec.field(default_factory=list)
    problems: list[str] = msgspec.field(default_factory=list)


class _Unrepairable(Exception):
    """The value as a whole does not fit the type: it becomes the union's unknown member."""


def _parse_path(text: str) -> list[Segment]:
    segments: list[Segment] = []
    for name, index in _SEGMENT.findall(text):
        if name:
            # (a field's name becomes a key of the ``extra`` it moves to: one string for all)
            segments.append(sys.intern(name))
        elif index == _ANY_KEY:
            segments.append(_ANY_KEY)
        else:
            segments.append(int(index))
    return segments


def _split(error: msgspec.ValidationError) -> tuple[str, str]:
    """msgspec's message and the path it names (``""`` for the value itself)."""
    text = str(error)
    message, at, path = text.rpartition(_AT)
    if not at or not path.endswith("`"):
        return text, ""
    return message, path[:-1]


@functools.lru_cache(maxsize=1024)
def _describe_text(message: str, path: str) -> str:
    path = path.removeprefix(f".{_BOX}") if path.startswith(f".{_BOX}") else path
    return f"{message} at ${path}" if path else message


def _describe(error: msgspec.ValidationError) -> str:
    """msgspec's message, its path read from the value converted (not the box around it).

    The same few messages come back for many lines: they are shared, not made each time.
    """
    return _describe_text(*_split(error))


def _get(root: Any, place: Place) -> Any:
    node = root
    for segment in place:
        node = node[segment]
    return node


def _is_under(place: Place, prefix: Place) -> bool:
    return place[: len(prefix)] == prefix


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _shown(place: Place) -> str:
    """A place as a JSON path: ``$.message.content[2]``, ``$.files["a.js"]``."""
    steps = []
    for segment in place:
        if isinstance(segment, int):
            steps.append(f"[{segment}]")
        elif _NAME.fullmatch(segment):
            steps.append(f".{segment}")
        else:
            steps.append(f"[{msgspec.json.encode(segment).decode()}]")
    return "$" + "".join(steps)


class _Repairer:
    def __init__(self, type_: Any, pristine: Any) -> None:
        self.type = type_
        self.pristine = pristine
        self._work: Any = None
        #: The containers of ``_work`` that are its own (the others are shared with the input).
        self._own: set[int] = set()
        self.repairs = _Repairs()
        self._placeholders: set[Place] = set()
        #: What each repair did, in order, for :class:`_Plan` (``None``: not recorded).
        self.log: list[tuple[str, Place, str]] | None = None

    @property
    def work(self) -> Any:
        """The value msgspec is asked to convert (the input until the first repair)."""
        return self.pristine if self._work is None else self._work

    def _mutable(self, place: Place) -> Any:
        """The container at ``place`` in the work copy, made its own (copied from the input,
        as is each container on the way there) so that changing it leaves the input as it
        was: a repair copies one path, not the whole value."""
        if self._work is None:
            self._work = copy.copy(self.pristine)
            self._own.add(id(self._work))
        node = self._work
        for segment in place:
            child = node[segment]
            if id(child) not in self._own:
                child = copy.copy(child)
                node[segment] = child
                self._own.add(id(child))
            node = child
        return node

    # -- what the types say about a place -------------------------------------------------

    def _types(self, place: Place) -> list[tuple[Any, Any]]:
        """``(declared, narrowed)`` type of each prefix of ``place``, the empty one first."""
        found: list[tuple[Any, Any]] = []
        declared: Any = self.type
        node = self.work
        for segment in place:
            narrowed = narrow(declared, node)
            found.append((declared, narrowed))
            declared = child_type(narrowed, segment) if narrowed is not None else None
            node = node[segment]
        found.append((declared, narrow(declared, node) if declared is not None else None))
        return found

    def _resolve(self, pattern: list[Segment]) -> Place | None:
        """The concrete place ``pattern`` names; for ``[...]`` (some value of a mapping), the
        first key whose value does not fit the mapping's value type."""
        place: list[Segment] = []
        node = self.work
        declared: Any = self.type
        for segment in pattern:
            narrowed = narrow(declared, node) if declared is not None else None
            if segment == _ANY_KEY:
                if not isinstance(node, dict) or not node:
                    return None
                value_type = child_type(narrowed, segment) if narrowed is not None else None
                segment = _first_misfit(node, value_type)
            elif not _has(node, segment):
                return None
            place.append(segment)
            declared = child_type(narrowed, segment) if narrowed is not None else None
            node = node[segment]
        return tuple(place)

    # -- repairs --------------------------------------------------------------------------

    def _forget_under(self, place: Place) -> None:
        for mapping in (self.repairs.extras, self.repairs.unknowns):
            for stale in [p for p in mapping if _is_under(p, place)]:
                del mapping[stale]

    def move_to_extra(self, holder: Place, key: str) -> None:
        """Move field ``key`` of the struct at ``holder`` into that struct's extras."""
        if self.log is not None:
            self.log.append((_EXTRA_OP, holder, key))
        self._forget_under((*holder, key))
        original = _get(self.pristine, holder)[key]
        del self._mutable(holder)[key]
        self.repairs.extras.setdefault(holder, {})[key] = original

    def make_unknown(self, place: Place) -> None:
        """Make the value at ``place`` its union's unknown member, or move it aside."""
        if not place:
            raise _Unrepairable
        declared = self._types(place)[-1][0]
        member = unknown_member(declared) if declared is not None else None
        if member is None or place in self._placeholders:
            self.escalate(place)
            return
        self.set_unknown(place, str(member.__struct_config__.tag_field))

    def set_unknown(self, place: Place, tag_field: str) -> None:
        """Put the unknown member's tag at ``place``, its value set aside."""
        if self.log is not None:
            self.log.append((_UNKNOWN_OP, place, tag_field))
        self._forget_under(place)
        self._placeholders.add(place)
        self.repairs.unknowns[place] = _get(self.pristine, place)
        self._mutable(place[:-1])[place[-1]] = {tag_field: UNKNOWN_TAG}

    def escalate(self, place: Place) -> None:
        """Set aside the smallest part holding ``place`` that can be set aside: a union member
        that becomes unknown, or a struct field moved to the struct's extras."""
        types = self._types(place)
        for depth in range(len(place), 0, -1):
            here = place[:depth]
            declared = types[depth][0]
            if (
                here not in self._placeholders
                and declared is not None
                and unknown_member(declared) is not None
            ):
                self.make_unknown(here)
                return
            holder = types[depth - 1][1]
            segment = place[depth - 1]
            if isinstance(segment, str) and is_struct(holder) and segment in layout(holder).types:
                self.move_to_extra(place[: depth - 1], segment)
                return
        raise _Unrepairable

    def repair(self, error: msgspec.ValidationError) -> None:
        message, path = _split(error)
        pattern = _parse_path(path)
        if pattern[:1] != [_BOX]:
            raise _Unrepairable
        place = self._resolve(pattern[1:])
        if place is None:
            raise _Unrepairable
        unknown = _UNKNOWN_FIELD.match(message)
        missing = _MISSING_FIELD.match(message)
        problem = True
        if unknown is not None:
            key = unknown["key"]
            holder = self._types(place)[-1][1]
            if is_struct(holder) and isinstance(_get(self.work, place), dict):
                self.move_to_extra(place, key)
                problem = False
            else:
                self.escalate((*place, key))
        elif missing is not None:
            if not place:
                raise _Unrepairable  # the value as a whole: its union's unknown member
            problem = not self._is_tag(place, missing["key"])
            self.make_unknown(place)
        elif place and message.startswith("Invalid value") and self._is_tag(place[:-1], place[-1]):
            problem = False
            self.make_unknown(place[:-1])
        else:
            self.escalate(place)
        where = _shown(place)
        self.repairs.notes.append(f"{message} at {where}")
        if problem:
            said = message[:1].lower() + message[1:]
            self.repairs.problems.append(f"{where}: {said}; kept as it is")

    def _is_tag(self, place: Place, key: Segment) -> bool:
        """Whether ``key`` is the tag field of the union declared at ``place``."""
        declared = self._types(place)[-1][0]
        return any(
            is_struct(member) and member.__struct_config__.tag_field == key
            for member in members(declared)
        )

    def audit(self, result: Any) -> bool:
        """Take back what msgspec read into the model's reserved fields from the input.

        Returns whether the input was changed (and must be converted again).
        """
        changed = False
        for place, struct in _structs(result):
            shape = layout(type(struct))
            if shape.raw_attribute is not None:
                if place not in self._placeholders:
                    # The input itself carries the unknown tag: keep it whole, as it came.
                    self._forget_under(place)
                    self.repairs.unknowns[place] = _get(self.pristine, place)
            elif shape.has_extra and getattr(struct, "extra", UNSET) is not UNSET:
                self.move_to_extra(place, EXTRA_KEY)
                changed = True
        return changed


def _has(node: Any, segment: Segment) -> bool:
    if isinstance(segment, int):
        return isinstance(node, list) and segment < len(node)
    return isinstance(node, dict) and segment in node


_BOXES: dict[Any, Any] = {}


def _box(type_: Any) -> Any:
    """The one-field struct used to convert values to ``type_``."""
    found = _BOXES.get(type_)
    if found is None:
        found = _BOXES[type_] = msgspec.defstruct("Box", [(_BOX, type_)])
    return found


def _fits(value: Any, type_: Any) -> bool:
    try:
        msgspec.convert({_BOX: value}, _box(type_))
    except msgspec.ValidationError:
        return False
    return True


def _first_misfit(mapping: dict[str, Any], value_type: Any) -> str:
    """The first key of ``mapping`` whose value does not fit ``value_type`` (else the first)."""
    if value_type is not None:
        for key, value in mapping.items():
            if not _fits(value, value_type):
                return key
    return next(iter(mapping))


def _structs(value: Any) -> list[tuple[Place, msgspec.Struct]]:
    """Every struct in a converted value, with its place (not inside unknown members)."""
    found: list[tuple[Place, msgspec.Struct]] = []
    stack: list[tuple[Place, Any]] = [((), value)]
    while stack:
        place, node = stack.pop()
        if isinstance(node, msgspec.Struct):
            found.append((place, node))
            shape = layout(type(node))
            if shape.raw_attribute is not None:
                continue
            for attribute, name, walks in shape.fields:
                if walks:
                    stack.append(((*place, name), getattr(node, attribute)))
        elif isinstance(node, list):
            stack.extend(((*place, index), child) for index, child in enumerate(node))
        elif isinstance(node, dict):
            stack.extend(((*place, key), child) for key, child in node.items())
    return found


def _child(node: Any, segment: Segment) -> Any:
    if isinstance(node, msgspec.Struct):
        return getattr(node, layout(type(node)).attributes[str(segment)])
    return node[segment]


def _attach(result: Any, repairs: _Repairs) -> bool:
    """Put what the slow path moved aside back onto the decoded structs.

    Returns ``False`` when a place does not hold the struct it should (the caller then keeps
    the whole value as unknown rather than lose anything).
    """
    for place, raw in repairs.unknowns.items():
        target = result
        for segment in place:
            target = _child(target, segment)
        attribute = (
            layout(type(target)).raw_attribute if isinstance(target, msgspec.Struct) else None
        )
        if attribute is None:
            return False
        setattr(target, attribute, raw)
    for place, extra in repairs.extras.items():
        target = result
        for segment in place:
            target = _child(target, segment)
        if not isinstance(target, Model):
            return False
        existing = target.extra if isinstance(target.extra, dict) else None
        target.extra = {**existing, **extra} if existing else extra
    return True


_EXTRA_OP = "extra"
_UNKNOWN_OP = "unknown"
#: Lines at most this long that need repairs are remembered by shape (:class:`_Plan`).
_PLANNED_LINE = 2048
#: Shapes remembered per decoder (all forgotten when there are more).
_PLANS = 1024


class _Plan(msgspec.Struct):
    """What the repair loop did for a value of one shape: msgspec's error at each step
    (``errors``), what each repair did (``steps``), and what it said. Another value of the
    same shape (:func:`_shape`: the same keys, lists, types of numbers and the same strings)
    is repaired by replaying it, each step checked against msgspec's own error: a value that
    fails elsewhere (a number out of a range) takes the loop."""

    errors: list[str]
    steps: list[list[tuple[str, Place, str]]]
    notes: list[str]
    problems: list[str]
    #: The reason when the value became the unknown member (after ``errors``).
    unknown: str | None = None
    #: False when the loop cannot be replayed (a step chose among the keys of a mapping by
    #: their values, or the loop gave up).
    replayable: bool = True


def _shape(value: Any) -> Any:
    """A key equal for JSON values that the repair loop treats alike: the same objects (keys
    in order), arrays and strings, with numbers, booleans and null by their type only."""
    kind = type(value)
    if kind is dict:
        return (dict, *((key, _shape(item)) for key, item in value.items()))
    if kind is list:
        return (list, *(_shape(item) for item in value))
    if kind is str:
        return value
    return kind


class Lenient(Generic[T]):
    """Decode JSON into ``type_`` without losing anything.

    ``unknown`` builds the value used when the input does not fit the type at all (for example
    a record whose ``type`` tag is unknown): it receives the raw JSON value.
    """

    def __init__(self, type_: Any, unknown: Callable[[Any], T]) -> None:
        self.type = type_
        self.unknown = unknown

    # The decoders are built on first use (tens of milliseconds for a large union): a module
    # that declares one costs nothing to import, and a process that never decodes that type
    # (the index's fast view of Claude Code lines, another agent's types) never builds it.
    @functools.cached_property
    def _decoder(self) -> msgspec.json.Decoder[T]:
        return msgspec.json.Decoder(self.type)

    @functools.cached_property
    def _box(self) -> Any:
        return _box(self.type)

    @functools.cached_property
    def _root_errors(self) -> tuple[str, ...]:
        """Errors about the value as a whole (a tag missing or unknown): no repair can help."""
        return tuple(f" - at `$.{name}`" for name in tagged_fields(self.type))

    def decode(self, data: bytes | str) -> Decoded[T]:
        """Decode one JSON document; raises ``msgspec.DecodeError`` only for invalid JSON."""
        if isinstance(data, str):
            data = data.encode("utf-8", "surrogatepass")
        reserved = _RESERVED_EXTRA in data or _RESERVED_TAG in data
        if not reserved:
            try:
                value = self._decoder.decode(data)
            except msgspec.ValidationError as error:
                if self._whole(error):
                    return self._unknown_whole(data, error)
            except RecursionError:
                return self._deep(data)
            else:
                if nested_past_budget(data, value):
                    return self._deep(data)
                return Decoded(value, [])
        if not reserved and len(data) <= _PLANNED_LINE:
            return self._plain(data, self._planned)
        return self._plain(data, functools.partial(self._slow, audit=reserved))

    def convert(self, raw: Any) -> Decoded[T]:
        """Convert an already decoded JSON value (left untouched)."""
        try:
            value: T = msgspec.convert({_BOX: raw}, self._box).value
        except msgspec.ValidationError:
            return self._slow(raw)
        except RecursionError:
            return Decoded(self.unknown(raw), ["nested too deep to convert"], ["nested too deep"])
        if any(_reserved(struct) for _, struct in _structs(value)):
            return self._slow(raw)
        return Decoded(value, [])

    def _whole(self, error: msgspec.ValidationError) -> bool:
        """Whether ``error`` is about the value as a whole (not a field of it): its tag is
        missing or unknown, or it is not an object at all."""
        message = str(error)
        if _AT in message:
            return message.endswith(self._root_errors)
        return not message.startswith("Object contains unknown field")

    def _unknown_whole(self, data: bytes, error: msgspec.ValidationError) -> Decoded[T]:
        """The value for input that does not fit the type as a whole."""
        note = _describe(error)
        return self._plain(data, lambda raw: Decoded(self.unknown(raw), [note]))

    def _plain(self, data: bytes, then: Callable[[Any], Decoded[T]]) -> Decoded[T]:
        """``then`` of ``data`` decoded as plain JSON, or, when it nests past the depth
        budget, ``data`` decoded by the deep path."""
        try:
            raw = msgspec.json.decode(data)
        except RecursionError:
            return self._deep(data)
        if nested_past_budget(data, raw):
            return self._deep(data)
        return then(raw)

    def _deep(self, data: bytes) -> Decoded[T]:
        raw, kept = bounded_decode(data)
        decoded = self._slow(raw, audit=_RESERVED_EXTRA in data or _RESERVED_TAG in data)
        problem = (
            f"nested deeper than {MAX_DEPTH} levels; what is deeper ({kept} "
            f"value{'s' if kept != 1 else ''}) is kept as raw JSON"
        )
        decoded.notes.append(problem)
        decoded.problems.append(problem)
        return decoded

    def _slow(self, pristine: Any, *, audit: bool = True, plan: _Plan | None = None) -> Decoded[T]:
        """The repair loop. ``audit``: the input may name the model's reserved keys (when it
        is known not to, the check for them is skipped). ``plan`` (without ``audit``): filled
        with what the loop did (see :class:`_Plan`)."""
        repairer = _Repairer(self.type, pristine)
        repairs = repairer.repairs
        for _ in range(_MAX_REPAIRS):
            try:
                result: T = msgspec.convert({_BOX: repairer.work}, self._box).value
            except msgspec.ValidationError as error:
                if plan is not None and plan.replayable:
                    text = str(error)
                    if f"{_ANY_KEY}]" in text:
                        plan.replayable = False
                    else:
                        plan.errors.append(text)
                        repairer.log = []
                        plan.steps.append(repairer.log)
                try:
                    repairer.repair(error)
                except _Unrepairable:
                    reason = _describe(error)
                    if plan is not None:
                        plan.unknown = reason
                        _keep_said(plan, repairs)
                    return self._unknown(pristine, repairs, reason)
                continue
            if audit and repairer.audit(result):
                continue
            if not _attach(result, repairs):
                if plan is not None:
                    plan.replayable = False
                return self._unknown(pristine, repairs, "a repair did not land on a struct")
            if plan is not None:
                _keep_said(plan, repairs)
            return Decoded(result, repairs.notes, repairs.problems)
        if plan is not None:
            plan.replayable = False
        return self._unknown(pristine, repairs, "too many repairs")

    @functools.cached_property
    def _plans(self) -> dict[Any, _Plan | None]:
        return {}

    def _planned(self, pristine: Any) -> Decoded[T]:
        """:meth:`_slow` (without the audit: the input names no reserved key), replaying
        the plan of a value of the same shape when there is one, else recording one."""
        try:
            shape = _shape(pristine)
            hash(shape)
        except RecursionError:
            return self._slow(pristine, audit=False)
        plans = self._plans
        plan = plans.get(shape)
        if plan is not None:
            replayed = self._replay(pristine, plan)
            if replayed is not None:
                return replayed
        elif shape in plans:  # (a shape whose loop cannot be replayed)
            return self._slow(pristine, audit=False)
        if len(plans) >= _PLANS:
            plans.clear()
        recorded = _Plan([], [], [], [])
        decoded = self._slow(pristine, audit=False, plan=recorded)
        plans[shape] = recorded if recorded.replayable else None
        return decoded

    def _replay(self, pristine: Any, plan: _Plan) -> Decoded[T] | None:
        """``pristine`` repaired as ``plan`` says; ``None`` when msgspec disagrees."""
        repairer = _Repairer(self.type, pristine)
        box = self._box
        for error, steps in zip(plan.errors, plan.steps, strict=True):
            try:
                msgspec.convert({_BOX: repairer.work}, box)
            except msgspec.ValidationError as found:
                if str(found) != error:
                    return None
            else:
                return None
            for operation, place, name in steps:
                if operation == _EXTRA_OP:
                    repairer.move_to_extra(place, name)
                else:
                    repairer.set_unknown(place, name)
        repairs = repairer.repairs
        repairs.notes, repairs.problems = list(plan.notes), list(plan.problems)
        if plan.unknown is not None:
            return self._unknown(pristine, repairs, plan.unknown)
        try:
            result: T = msgspec.convert({_BOX: repairer.work}, box).value
        except msgspec.ValidationError:
            return None
        if not _attach(result, repairs):
            return None
        return Decoded(result, repairs.notes, repairs.problems)

    def _unknown(self, pristine: Any, repairs: _Repairs, reason: str) -> Decoded[T]:
        notes = [*repairs.notes, reason]
        return Decoded(self.unknown(pristine), notes, repairs.problems)


def _keep_said(plan: _Plan, repairs: _Repairs) -> None:
    plan.notes, plan.problems = list(repairs.notes), list(repairs.problems)


def _reserved(struct: msgspec.Struct) -> bool:
    """Whether a struct the fast path built took one of the model's reserved keys from the
    input (its ``extra``, or the unknown tag)."""
    shape = layout(type(struct))
    return shape.raw_attribute is not None or (
        shape.has_extra and getattr(struct, "extra", UNSET) is not UNSET
    )
