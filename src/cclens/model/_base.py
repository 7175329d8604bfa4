"""The conventions every model type follows.

Claude Code adds fields to its transcripts in almost every release, so the model is built to
lose nothing:

* every optional field defaults to ``UNSET``: absent stays absent and an explicit ``null`` stays
  ``null`` when a value is encoded again;
* structs forbid unknown fields, so the fast decoder fails loudly on anything new; the slow path
  in :mod:`cclens.model._convert` then moves each unknown field into the struct's ``extra``
  mapping and decodes again;
* every tagged union has an ``Unknown…`` member that keeps the raw JSON of a value whose tag it
  does not know.
"""

from typing import Annotated, Any, TypeAlias, TypeVar, Union

import msgspec
from msgspec import UNSET, UnsetType

T = TypeVar("T")

#: A field that may be absent (``UNSET``), ``null`` (``None``) or a value.
Opt: TypeAlias = Union[T, UnsetType, None]  # noqa: UP007 - a generic alias needs Union

#: A JSON integer within what JavaScript (Claude Code) writes exactly. A larger one is a value of
#: an unexpected shape: it is kept in ``extra`` rather than counted (no store or dataset could
#: hold sums of it).
Int: TypeAlias = Annotated[int, msgspec.Meta(ge=-(2**53), le=2**53)]

#: A JSON number that may be written with or without a fraction (kept as written: ``5`` stays
#: an ``int``).
Number: TypeAlias = Int | float

#: The JSON name under which a struct keeps the fields it does not declare.
EXTRA_KEY = "__extra__"
#: The JSON name under which an ``Unknown…`` struct keeps the raw value.
RAW_KEY = "__raw__"
#: The tag value of every ``Unknown…`` member of a tagged union.
UNKNOWN_TAG = "__unknown__"


class Model(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, gc=False):
    """Base of every decoded JSON object: unknown fields end up in ``extra``."""

    extra: dict[str, Any] | UnsetType = msgspec.field(default=UNSET, name=EXTRA_KEY)


class CamelModel(Model, rename="camel"):
    """A model whose JSON keys are camelCase (the transcript's top-level records)."""


def value(field: Opt[T], default: T) -> T:
    """Return ``field`` unless it is absent or null, else ``default``."""
    if field is None or field is UNSET:
        return default
    return field


def present(field: Opt[T]) -> T | None:
    """Return ``field`` or ``None`` when it is absent."""
    if field is UNSET:
        return None
    return field


__all__ = [
    "EXTRA_KEY",
    "RAW_KEY",
    "UNKNOWN_TAG",
    "UNSET",
    "CamelModel",
    "Int",
    "Model",
    "Number",
    "Opt",
    "UnsetType",
    "present",
    "value",
]
