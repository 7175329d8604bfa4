"""The index's view of transcript lines: only the fields indexing reads, decoded in one pass.

Indexing needs a fraction of each record: the conversation tree's links, the texts people
search, the tool calls and their results, usage, titles. Decoding lines into the full model
(:mod:`cclens.model`) builds every attachment, progress payload and ``toolUseResult`` as typed
values only to drop them; :class:`ViewRecord` declares the fields indexing reads, msgspec skips
the rest, and a ``toolUseResult`` stays raw JSON (:class:`msgspec.Raw`). The stored raw bytes
remain the lossless source: pages are always drawn from the full model.

The view never reads a line differently from the full model. Every field it declares has the
full model's type, and the blocks it knows have the full model's required fields, so whenever
the full model would set part of a line aside (a field of an unexpected type, a block of an
unknown kind), the view's decoder raises instead and the line is decoded by the full model and
converted (:func:`from_record`). msgspec does not check that the parts of a line it skips are
valid UTF-8, so a line that is not ASCII is checked first, and goes to the full model when it
is not valid; so does a line nested deeper than :data:`cclens.model.MAX_DEPTH` (the full model
keeps what is deeper as raw JSON). Three differences are left, on purpose, all for lines Claude
Code does not write: a number beyond what a double holds in a field the view skips
(``JSON.stringify`` never writes one) makes the full model call the line malformed, and a
record with more than 200 fields the model does not know makes it give up on the record (an
unknown record), while the view reads either; checking for them would cost more than all the
rest. And a value of an unexpected
shape in a field the view skips is not reported (the full model reports it, as a partial
diagnostic, wherever the session is read whole: pages, exports, ``check``).

The lines the reader keeps as quiet lines (``Entry.quiet``: past 50 records in a row, of one
shape, with nothing to show) are counted and left out here too, found the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Union

import msgspec

from ...model import RECORD_TYPES, UNSET, AnyRecord, Usage, may_be_deep, too_deep
from ...model._base import Int
from ...model.blocks import (
    ContentBlock,
    ResultContentBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    UnknownBlock,
)
from ...model.entries import QUIET_KEPT, Entry
from ...model.messages import CacheCreation
from ...model.records import (
    AiTitleRecord,
    AssistantRecord,
    ChainRecord,
    CustomTitleRecord,
    SummaryRecord,
    UnknownRecord,
    UserRecord,
)
from ...readers.claude import Diagnostic
from ...readers.claude.quiet import quiet_shape
from ...readers.claude.read import (
    FOLDED_LINE,
    add_diagnostic,
    count_more,
    decode_line,
    line_start,
    problem_diagnostic,
)
from ...readers.quiet import QuietShape

_BOM = b"\xef\xbb\xbf"
#: The ``type`` the full model gives a record or block it does not know.
_UNKNOWN_TAG = "__unknown__"


class ViewCacheCreation(msgspec.Struct, gc=False):
    """Cache writes split by lifetime."""

    ephemeral_5m_input_tokens: Int | None = None
    ephemeral_1h_input_tokens: Int | None = None


class ViewUsage(msgspec.Struct, gc=False):
    """The token counts of one response, and what its price depends on."""

    input_tokens: Int | None = None
    output_tokens: Int | None = None
    cache_creation_input_tokens: Int | None = None
    cache_read_input_tokens: Int | None = None
    cache_creation: ViewCacheCreation | None = None
    speed: str | None = None
    inference_geo: str | None = None


class ViewBlockBase(msgspec.Struct, tag_field="type", gc=False):
    """Base of the content blocks of the view."""


class ViewText(ViewBlockBase, tag="text"):
    text: str


class ViewThinking(ViewBlockBase, tag="thinking"):
    thinking: str


class ViewToolUse(ViewBlockBase, tag="tool_use"):
    name: str
    input: Any
    id: str | None = None


class ViewOther(ViewBlockBase):
    """A block of a kind indexing does not read (an image, a server tool call...)."""


def _other_block(kind: type[msgspec.Struct]) -> type[ViewOther]:
    """A view of a full-model block kind: its tag and its required fields, nothing else.

    Required fields decide whether the full model takes a block as that kind or as an unknown
    block, so the view requires the same ones, with the same types.
    """
    tag = kind.__struct_config__.tag
    required = [
        (info.name, info.type)
        for info in msgspec.structs.fields(kind)
        if info.required and info.encode_name != "type"
    ]
    made = msgspec.defstruct(
        f"View_{tag}", required, bases=(ViewOther,), tag=tag, tag_field="type", gc=False
    )
    return made  # type: ignore[return-value]


_READ_KINDS = {"text", "thinking", "tool_use", "tool_result"}
_OTHER_BLOCKS: dict[str, type[ViewOther]] = {
    kind.__struct_config__.tag: _other_block(kind)
    for kind in ContentBlock.__args__  # type: ignore[attr-defined]
    if kind is not UnknownBlock and kind.__struct_config__.tag not in _READ_KINDS
}

if TYPE_CHECKING:
    ViewResultBlock = Union[ViewText, ViewOther]  # noqa: UP007
else:
    ViewResultBlock = Union[  # noqa: UP007
        tuple(
            ViewText if kind is TextBlock else _OTHER_BLOCKS[kind.__struct_config__.tag]
            for kind in ResultContentBlock.__args__
            if kind is not UnknownBlock
        )
    ]


class ViewToolResult(ViewBlockBase, tag="tool_result"):
    tool_use_id: str | None = None
    content: str | list[ViewResultBlock] | None = None
    is_error: bool | None = None

    @property
    def text(self) -> str:
        """What the model was shown (as :attr:`cclens.model.blocks.ToolResultBlock.text`)."""
        content = self.content
        if isinstance(content, str):
            return content
        if isinstance(content, list):
            return "\n".join(b.text for b in content if isinstance(b, ViewText))
        return ""


if TYPE_CHECKING:
    ViewBlock = Union[ViewText, ViewThinking, ViewToolUse, ViewToolResult, ViewOther]  # noqa: UP007
else:
    ViewBlock = Union[
        (ViewText, ViewThinking, ViewToolUse, ViewToolResult, *_OTHER_BLOCKS.values())
    ]


class ViewMessage(msgspec.Struct, gc=False):
    """The ``message`` of a user or assistant record."""

    id: str | None = None
    model: str | None = None
    content: str | list[ViewBlock] | None = None
    usage: ViewUsage | None = None


class ViewResultObject(msgspec.Struct, gc=False):
    """A ``toolUseResult`` that is an object: whether it says the call was interrupted (the
    rest of it is skipped, not built)."""

    interrupted: Any = None


#: A ``toolUseResult``: the string, the object's ``interrupted``, or any other JSON value
#: (``UNSET`` when the record has none).
ViewToolUseResult = Union[  # noqa: UP007
    str, ViewResultObject, list[msgspec.Raw], int, float, bool, None, msgspec.UnsetType
]


class ViewRecord(msgspec.Struct, rename="camel", gc=False):
    """The fields of a record that indexing reads (each only for the kinds that have it)."""

    type: str
    timestamp: str | None = None
    # conversation tree (user, assistant, system, progress, attachment)
    uuid: str | None = None
    parent_uuid: str | None = None
    logical_parent_uuid: str | None = None
    is_sidechain: bool | None = None
    is_meta: bool | None = None
    team_name: str | None = None
    cwd: str | None = None
    version: str | None = None
    git_branch: str | None = None
    request_id: str | None = None
    agent_id: str | None = None
    # user and assistant
    message: ViewMessage | None = None
    tool_use_result: ViewToolUseResult = msgspec.UNSET
    tool_denial_kind: str | None = None
    is_compact_summary: bool | None = None
    is_api_error_message: bool | None = None
    # titles
    summary: str | None = None
    leaf_uuid: str | None = None
    custom_title: str | None = None
    ai_title: str | None = None


#: Record kinds that form the conversation tree.
CHAIN_KINDS = frozenset({"user", "assistant", "system", "progress", "attachment"})

_DECODER = msgspec.json.Decoder(ViewRecord)


def _opt(value: Any) -> Any:
    return None if value is UNSET else value


def _view_block(block: Any) -> Any:
    if isinstance(block, TextBlock):
        return ViewText(block.text)
    if isinstance(block, ThinkingBlock):
        return ViewThinking(block.thinking)
    if isinstance(block, ToolUseBlock):
        return ViewToolUse(block.name, block.input, _opt(block.id))
    if isinstance(block, ToolResultBlock):
        content = block.content
        if isinstance(content, list):
            content = [_view_block(inner) for inner in content]
        return ViewToolResult(_opt(block.tool_use_id), _opt(content), _opt(block.is_error))
    return ViewOther()


def from_record(record: AnyRecord) -> ViewRecord:
    """The view of a record the full model decoded (for lines the view's decoder refused)."""
    if isinstance(record, UnknownRecord):
        return ViewRecord(_UNKNOWN_TAG)
    if isinstance(record, ChainRecord):
        # (positional: another agent's reader writes many of these, each seen once)
        view = ViewRecord(
            record.kind,
            _opt(record.timestamp),
            _opt(record.uuid),
            _opt(record.parent_uuid),
            _opt(record.logical_parent_uuid),
            _opt(record.is_sidechain),
            _opt(record.is_meta),
            _opt(record.team_name),
            _opt(record.cwd),
            _opt(record.version),
            _opt(record.git_branch),
            _opt(record.request_id),
        )
    else:
        view = ViewRecord(record.kind, timestamp=_opt(record.timestamp))
    if isinstance(record, UserRecord | AssistantRecord) and record.message:
        message = record.message
        content = message.content
        usage = message.usage
        view.message = ViewMessage(
            _opt(message.id),
            _opt(message.model),
            [_view_block(b) for b in content] if isinstance(content, list) else _opt(content),
            ViewUsage(
                _opt(usage.input_tokens),
                _opt(usage.output_tokens),
                _opt(usage.cache_creation_input_tokens),
                _opt(usage.cache_read_input_tokens),
                ViewCacheCreation(
                    _opt(split.ephemeral_5m_input_tokens), _opt(split.ephemeral_1h_input_tokens)
                )
                if isinstance(split := usage.cache_creation, CacheCreation)
                else None,
                _opt(usage.speed),
                _opt(usage.inference_geo),
            )
            if isinstance(usage, Usage)
            else None,
        )
    if isinstance(record, UserRecord):
        raw = record.tool_use_result
        if isinstance(raw, dict):
            view.tool_use_result = ViewResultObject(raw.get("interrupted"))
        elif isinstance(raw, list):
            view.tool_use_result = [msgspec.Raw(msgspec.json.encode(value)) for value in raw]
        else:
            view.tool_use_result = raw
        view.tool_denial_kind = _opt(record.tool_denial_kind)
        view.is_compact_summary = _opt(record.is_compact_summary)
    elif isinstance(record, AssistantRecord):
        view.is_api_error_message = _opt(record.is_api_error_message)
    elif isinstance(record, SummaryRecord):
        view.summary = _opt(record.summary)
        view.leaf_uuid = _opt(record.leaf_uuid)
    elif isinstance(record, CustomTitleRecord):
        view.custom_title = _opt(record.custom_title)
    elif isinstance(record, AiTitleRecord):
        view.ai_title = _opt(record.ai_title)
    return view


@dataclass(slots=True)
class ViewRead:
    """The records of one file (or of the bytes from an offset in it), as
    :class:`cclens.readers.claude.ReadResult` gives them, in the view."""

    path: Path
    #: ``(line number, record, start, end)``: where the line's JSON is in the bytes read.
    entries: list[tuple[int, ViewRecord, int, int]] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: Non-empty lines seen (records plus malformed lines).
    lines: int = 0
    #: Where a later read should start (see :attr:`cclens.readers.claude.ReadResult.end_offset`).
    end_offset: int = 0
    #: Newlines in the bytes before ``end_offset`` (the line number a later read starts from).
    newlines: int = 0


def _valid_utf8(data: bytes) -> bool:
    if data.isascii():
        return True
    try:
        data.decode()
    except UnicodeDecodeError:
        return False
    return True


def read_view(path: Path, data: bytes, start_offset: int = 0, start_line: int = 0) -> ViewRead:
    """Read ``data`` (the bytes of ``path`` from ``start_offset``) into the view.

    Lines, line numbers, diagnostics and where a later read resumes are exactly those of
    :func:`cclens.readers.claude.read_data`.
    """
    result = ViewRead(path, end_offset=start_offset)
    entries = result.entries
    diagnostics = result.diagnostics
    decode = _DECODER.decode
    position = 0
    number = start_line
    size = len(data)
    if start_offset == 0 and data.startswith(_BOM):
        position = len(_BOM)
    # As read_data: a line byte for byte the same as the one before is folded into it.
    previous = b""
    folded: Diagnostic | None = None  # the diagnostic the lines being folded add to
    repeats = 0
    # As read_data: past QUIET_KEPT records of a run of the same quiet shape, each line of the
    # shape is counted and left out (Entry.quiet): the shape, the run's length, the line after
    # the last entry's lines, the line the quiet lines follow, how many, and the lines with the
    # run's problems not yet counted in their diagnostic.
    shape: QuietShape | None = None
    streak = after = head = quiet_lines = more = 0
    problems = False  # (whether the run's records have problems: its lines count in them)
    fits: Callable[[bytes], bool] = bool  # (the shape's, while a run is kept)
    while position < size:
        number += 1
        newline_at = data.find(b"\n", position)
        newline = newline_at != -1
        end = newline_at if newline else size
        following = end + 1 if newline else end
        same = newline and previous and following - position == len(previous)
        same = same and data.startswith(previous, position)
        if head:
            if (
                newline
                and number == head + quiet_lines + 1
                and (quiet_lines or not same)
                and fits(data[position:following])
            ):
                quiet_lines += 1
                more += problems
                result.lines += 1
                result.newlines += 1
                result.end_offset = start_offset + following
                position = following
                continue
            if more:
                count_more(diagnostics, more)
            if quiet_lines:
                previous, same = b"", False
            head = quiet_lines = more = streak = 0
            shape = None
        if same:
            result.lines += 1
            result.newlines += 1
            result.end_offset = start_offset + following
            repeats += 1
            after += 1
            position = following
            continue
        if repeats and folded is not None:
            count_more(diagnostics, repeats)
        repeats, folded, previous = 0, None, b""
        if end > position and data[end - 1] == 13:  # "\r"
            end -= 1
        if data[position] != 123 and not data[position:end].strip():  # not "{": blank?
            if newline:
                result.end_offset = start_offset + following
                result.newlines += 1
            position = following
            continue
        result.lines += 1
        content = data[position:end]
        record: ViewRecord | None = None
        if _valid_utf8(content):
            try:
                record = decode(content)
            except (msgspec.DecodeError, RecursionError):
                record = None
            if record is not None and (
                record.type == _UNKNOWN_TAG or (may_be_deep(content) and too_deep(record))
            ):
                # The full model reads that tag in its own way, and keeps what is nested past
                # its depth budget as raw JSON.
                record = None
        outcome: Entry | Diagnostic | None = None
        if record is None:
            outcome = decode_line(path, number, start_offset + position, content)
            if isinstance(outcome, Diagnostic):
                streak = 0
                if not newline:
                    # As read_data: a half-written last line waits for the next read.
                    reason = (
                        f"incomplete last line ({outcome.reason}); the file may still be written"
                    )
                    diagnostics.append(
                        Diagnostic(path, number, reason, outcome.offset, outcome.excerpt)
                    )
                    break
                add_diagnostic(diagnostics, outcome)
                folded = outcome
                if newline and following - position <= FOLDED_LINE:
                    previous = data[position:following]
                result.end_offset = start_offset + following
                result.newlines += newline
                position = following
                continue
            if outcome.problems:
                folded = problem_diagnostic(path, outcome, line_start(content, len(content)))
                add_diagnostic(diagnostics, folded)
            record = from_record(outcome.record)
        # (its problems are in the diagnostics only when the view could not read the line)
        reported = outcome is not None
        if outcome is None and (
            (record.type == "user" and record.message is None) or record.type not in RECORD_TYPES
        ):
            outcome = decode_line(path, number, start_offset + position, content)  # (rare)
        found = None
        if newline and isinstance(outcome, Entry):
            found = quiet_shape(outcome, data[position:following])
        if found is None:
            streak = 0
        elif streak and found == shape and number == after:
            streak += 1
        else:
            streak = 1
        shape = found
        if streak >= QUIET_KEPT and shape is not None and isinstance(outcome, Entry):
            head, problems = number, reported and bool(outcome.problems)
            fits = shape.fitting()
        entries.append((number, record, position, end))
        after = number + 1
        if newline and following - position <= FOLDED_LINE:
            previous = data[position:following]
        result.end_offset = start_offset + following
        result.newlines += newline
        position = following
    if repeats and folded is not None:
        count_more(diagnostics, repeats)
    if more:
        count_more(diagnostics, more)
    return result


def full_record(
    path: Path, data: bytes, entry: tuple[int, ViewRecord, int, int]
) -> AnyRecord | None:
    """The full model's record for one entry of a :class:`ViewRead` of ``data`` (``None`` in
    the one case where the full model calls a line malformed that the view read)."""
    line, _, start, end = entry
    outcome = decode_line(path, line, start, data[start:end])
    return None if isinstance(outcome, Diagnostic) else outcome.record


__all__ = [
    "CHAIN_KINDS",
    "ViewBlock",
    "ViewCacheCreation",
    "ViewMessage",
    "ViewOther",
    "ViewRead",
    "ViewRecord",
    "ViewResultBlock",
    "ViewResultObject",
    "ViewText",
    "ViewThinking",
    "ViewToolResult",
    "ViewToolUse",
    "ViewToolUseResult",
    "ViewUsage",
    "from_record",
    "full_record",
    "read_view",
]
