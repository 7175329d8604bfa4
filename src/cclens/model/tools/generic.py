"""Tool values that are not one tool's own shape.

* :class:`UnknownToolInput` and :class:`UnknownToolResult` keep the raw JSON of a tool cclens
  does not know, or of a value that does not fit the tool's types at all.
* :class:`TextResult` (and :class:`ToolErrorText`) hold a ``toolUseResult`` that is a plain
  string, which is how Claude Code records most failed or refused calls.
* :class:`FreeformInput` and :class:`FreeformResult` hold a mapping whose keys belong to someone
  else (an MCP server, a structured-output schema).
* :class:`ResultList` is the base of the typed lists some tools return.

Every one of them encodes back to exactly the JSON it was built from.
"""

from typing import Any, ClassVar, TypeVar

import msgspec

from .._base import RAW_KEY, UNKNOWN_TAG, UNSET, Model

T = TypeVar("T")


class UnknownToolInput(Model, tag=UNKNOWN_TAG):
    """The input of a tool cclens does not know, or one that fits none of its types."""

    raw: Any = msgspec.field(default=None, name=RAW_KEY)


class UnknownToolResult(Model, tag=UNKNOWN_TAG):
    """A ``toolUseResult`` that fits none of the tool's types; ``raw`` is its JSON."""

    raw: Any = msgspec.field(default=None, name=RAW_KEY)


#: How the texts Claude Code records for failed or refused calls begin.
_ERROR_PREFIXES = (
    "Error",
    "InputValidationError",
    "<tool_use_error>",
    "The user doesn't want to",
    "User rejected",
)
_REJECTION_MARKS = ("doesn't want to proceed", "doesn't want to take this action")


class TextResult(Model, tag=UNKNOWN_TAG):
    """A ``toolUseResult`` that is a plain string (an MCP tool's text, ``LS`` output, …)."""

    text: str = msgspec.field(name=RAW_KEY)

    @property
    def is_error(self) -> bool:
        """Whether the text reads as an error (see :class:`ToolErrorText`)."""
        return False


class ToolErrorText(TextResult, tag=UNKNOWN_TAG):
    """A string ``toolUseResult`` that reports an error or a refusal (``Error: …``)."""

    @property
    def is_error(self) -> bool:
        return True

    @property
    def is_rejection(self) -> bool:
        """Whether the user declined the call rather than the tool failing."""
        return any(mark in self.text for mark in _REJECTION_MARKS)

    @property
    def message(self) -> str:
        """The text without its leading ``Error:``."""
        return self.text.removeprefix("Error:").strip()


def text_result(text: str) -> TextResult:
    """The typed value of a string ``toolUseResult``."""
    if text.startswith(_ERROR_PREFIXES):
        return ToolErrorText(text=text)
    return TextResult(text=text)


class FreeformInput(Model):
    """An input whose keys the tool does not define (an MCP tool's arguments, for example)."""

    @property
    def arguments(self) -> dict[str, Any]:
        """Every key of the input."""
        return self.extra if isinstance(self.extra, dict) else {}


class FreeformResult(Model):
    """An object ``toolUseResult`` whose keys the tool does not define."""

    @property
    def fields(self) -> dict[str, Any]:
        """Every key of the result."""
        return self.extra if isinstance(self.extra, dict) else {}


def freeform(type_: type[FreeformInput] | type[FreeformResult], raw: dict[str, Any]) -> Any:
    """Build a free-form value holding every key of ``raw``, in order."""
    return type_(extra=dict(raw)) if raw else type_(extra=UNSET)


class ResultList(list[T]):
    """A ``toolUseResult`` that is a JSON array; ``item_type`` types its items."""

    item_type: ClassVar[Any] = Any
