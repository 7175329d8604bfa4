"""What every tool view shares: the base fields, field rows, safe links and small formatters."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, TypedDict, TypeVar
from urllib.parse import urlsplit

from ...formats import duration, size
from ...model import UNSET
from ...model.session import ToolCall
from ...model.tools import ToolErrorText, parse_tool_result
from ..prepared import (
    Code,
    Diff,
    Field,
    FieldKind,
    Link,
    PreparedView,
    Prose,
    TextPart,
    Tree,
    field_parts,
    piece_part,
    text_part,
)
from ..views import ViewHelpers

T = TypeVar("T")
R = TypeVar("R")
Prepare = Callable[[ToolCall, ViewHelpers], PreparedView]

_TOOL_USE_ERROR = re.compile(r"</?tool_use_error>")
_TAGGED_SECTION = re.compile(r"<([a-z_]+)>\n?(.*?)\n?</\1>", re.DOTALL)


def as_type(value: Any, type_: type[T]) -> T | None:
    """``value`` when it is a ``type_``, else ``None``."""
    return value if isinstance(value, type_) else None


def text_of(value: Any) -> str:
    """A string field's value, or ``""`` when it is absent, null or not a string."""
    return value if isinstance(value, str) else ""


def int_of(value: Any) -> int | None:
    """An integer field's value, or ``None``."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def number_of(value: Any) -> float | None:
    """A number field's value, or ``None``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def list_of(value: Any) -> list[Any]:
    """A list field's value, or ``[]``."""
    return value if isinstance(value, list) else []


def words(value: Any) -> str:
    """An identifier-like value for people: ``in_progress`` → ``in progress``."""
    return text_of(value).replace("_", " ")


def first_line(text: str, limit: int = 120) -> str:
    """The first non-blank line of ``text``, cut to ``limit`` characters."""
    line = text.strip().split("\n", 1)[0]
    return line if len(line) <= limit else line[: limit - 1] + "…"


def safe_href(url: str) -> str | None:
    """``url`` when it is an absolute ``http``/``https`` URL a page may link to, else ``None``."""
    # Browsers drop tabs and newlines inside a scheme ("java\tscript:"): drop them the same way.
    cleaned = "".join(ch for ch in url.strip() if ch not in "\t\r\n")
    try:
        parts = urlsplit(cleaned)
    except ValueError:
        return None
    return cleaned if parts.scheme.lower() in ("http", "https") and parts.netloc else None


def link(url: str, text: str | None = None) -> Link | None:
    """A :class:`Link` to ``url``, or ``None`` when it is not a safe web address."""
    href = safe_href(url)
    return Link(href, text or url) if href else None


def millis(value: Any) -> str:
    """A span given in milliseconds, for people."""
    number = number_of(value)
    return duration(number / 1000) if number is not None else ""


def epoch(value: Any) -> str:
    """An epoch time (seconds or milliseconds) as UTC text."""
    number = number_of(value)
    if number is None:
        return ""
    if number > 1e11:
        number /= 1000
    try:
        return datetime.fromtimestamp(number, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    except (OverflowError, OSError, ValueError):
        return str(value)


def size_of(value: Any) -> str:
    """A size in bytes for people (see :func:`cclens.formats.size`), from any number."""
    return size(number_of(value))


class Fields:
    """Collects :class:`Field` rows, dropping absent values and choosing how each is drawn."""

    def __init__(self) -> None:
        self.rows: list[Field] = []

    def add(self, label: str, value: Any, kind: FieldKind | None = None) -> Fields:
        """Add ``value`` under ``label`` unless it is absent, null or empty."""
        if value is UNSET or value is None or value == "" or value == [] or value == {}:
            return self
        if isinstance(value, Link):
            self.rows.append(Field(label, "link", value))
        elif isinstance(value, Code | Diff | Prose | Tree):
            self.rows.append(Field(label, "html", value))
        elif isinstance(value, bool):
            self.rows.append(Field(label, "text", "yes" if value else "no"))
        elif isinstance(value, int | float):
            self.rows.append(Field(label, kind or "text", str(value)))
        elif isinstance(value, str):
            long = "\n" in value or len(value) > 160
            self.rows.append(Field(label, "pre" if long else (kind or "text"), value))
        elif isinstance(value, list) and all(isinstance(item, str) for item in value):
            self.rows.append(Field(label, kind or "text", ", ".join(value)))
        else:
            self.rows.append(Field(label, "html", Tree(value)))
        return self

    def url(self, label: str, url: Any) -> Fields:
        """Add a URL: a link when it is a safe web address, else its text."""
        text = text_of(url)
        return self.add(label, link(text) or text, "code")


def clean_error(text: str) -> str:
    """An error text without the ``<tool_use_error>`` tags Claude Code wraps some in."""
    return _TOOL_USE_ERROR.sub("", text).strip()


def typed_result(call: ToolCall, *types: type) -> Any:
    """The call's result when it has one of ``types``, else ``None``.

    Calls recorded without a ``toolUseResult`` (subagent transcripts, some versions) often showed
    the model the same object as JSON text; that text is typed the same way, but only when every
    key belongs to the tool's result: a command that printed some other JSON keeps its text.
    """
    result = call.result
    if result is None and call.result_block is not None:
        text = call.result_text.strip()
        if text.startswith("{") and text.endswith("}"):
            try:
                raw = json.loads(text)
            except ValueError:
                raw = None
            decoded = parse_tool_result(call.name, raw) if isinstance(raw, dict) and raw else None
            if decoded is not None and not decoded.notes:
                result = decoded.value
    return result if types and isinstance(result, types) else None


def error_text(call: ToolCall) -> str | None:
    """What a failed or refused call reported, or ``None`` when it did not fail."""
    result = call.result
    if isinstance(result, ToolErrorText):
        text = call.result_text if call.result_text.strip() else result.message
    elif call.status in ("error", "rejected"):
        text = call.result_text
    else:
        return None
    return clean_error(text) or "(no message)"


class Common(TypedDict):
    """The fields every prepared view has, worked out from the call (see :func:`base`)."""

    i: Any
    r: Any
    error: str | None
    rejected: bool


def base(call: ToolCall, *result_types: type) -> Common:
    """The fields every view has (see :class:`~cclens.render.prepared.PreparedView`): the
    input, the result when it has one of ``result_types``, the error, whether it was refused.
    A view passes them on as ``SomeView(**base(call, ...), ...)``, after changing any."""
    result = typed_result(call, *result_types)
    error = None if result is not None else error_text(call)
    return Common(i=call.input, r=result, error=error, rejected=call.status == "rejected")


def task_link(helpers: ViewHelpers, task_id: str) -> Link | None:
    """A link to the call that started background task ``task_id``.

    When the page can look calls up (a ``find_background`` helper) the link goes to that call's
    frame, and there is none when no call started the task; else it goes to the ``#task-<id>``
    anchor that the starting view (Bash, Agent, Monitor, Workflow) puts on the task's id.
    """
    if not task_id:
        return None
    finder = getattr(helpers, "find_background", None)
    if callable(finder):
        target = finder(task_id)
        return Link(f"#tool-{target.id}", task_id) if isinstance(target, ToolCall) else None
    return Link(f"#task-{task_id}", task_id)


def tagged_sections(text: str) -> dict[str, str]:
    """The ``<name>value</name>`` sections of a result text, when it is made only of them."""
    sections = {match.group(1): match.group(2) for match in _TAGGED_SECTION.finditer(text)}
    leftover = _TAGGED_SECTION.sub("", text).strip()
    return sections if sections and not leftover else {}


def said(call: ToolCall, common: Common) -> str:
    """The result text the model saw, for a view to show when the call has no typed result
    and did not fail; else ``""``."""
    return call.result_text if common["r"] is None and common["error"] is None else ""


class FieldsView(PreparedView, frozen=True, kw_only=True):
    """``tools/fields.html``, the layout shared by tools made of small fields.

    ``lead``: the call's main value (a name, an id) and ``lead_code`` whether it is code;
    ``asked``/``got``: input and result :class:`Field` rows; ``body``/``result_body``: prose
    (a message, a plan) under them; ``outcome``: a one-line message of the result; ``said``:
    the result text the model saw, shown when the call has no typed result.
    """

    lead: str = ""
    lead_code: bool = True
    asked: Sequence[Field] = ()
    body: Prose | None = None
    got: Sequence[Field] = ()
    outcome: str = ""
    said: str = ""
    result_body: Prose | None = None

    def parts(self) -> list[TextPart]:
        parts = [
            *text_part("field" if self.lead_code else "note", self.lead),
            *([piece_part(self.body)] if self.body else []),
            *field_parts(self.asked),
        ]
        if self.r is None and not self.said:
            return parts
        answer = [
            *text_part("result", self.outcome, result=True),
            *field_parts(self.got, result=True),
            *([piece_part(self.result_body, result=True)] if self.result_body else []),
            *text_part("result", self.said, result=True),
        ]
        return parts + (answer or [TextPart("result", "Done.", result=True)])


class FieldsCommon(Common):
    """:class:`Common` and the result text the model saw (``said``) of a :class:`FieldsView`."""

    said: str


def fields_base(call: ToolCall, *result_types: type) -> FieldsCommon:
    """:func:`base` for a :class:`FieldsView`, with ``said`` (see :func:`said`)."""
    common = base(call, *result_types)
    return FieldsCommon(**common, said=said(call, common))


def typed_fields(
    call: ToolCall, input_type: type[T], result_type: type[R]
) -> tuple[FieldsCommon, T | None, R | None]:
    """:func:`fields_base` of a call whose result is typed ``result_type``, with the call's
    input when it is an ``input_type`` and its result when it is a ``result_type``."""
    common = fields_base(call, result_type)
    result: R | None = common["r"]
    return common, as_type(call.input, input_type), result
