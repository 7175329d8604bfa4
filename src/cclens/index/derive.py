"""A session's summary and search documents, derived from the index's view of its files.

This is what :func:`cclens.index.extract.digest` and :func:`cclens.index.extract.documents`
compute from an assembled :class:`~cclens.parse.Session`, without assembling one: records become
light items (responses merged by ``message.id``, calls paired with results), the main line comes
from the same rules the parser uses (:mod:`cclens.parse.tree`), and the texts go straight into
document rows. The few cases the view cannot settle alone are settled exactly: two blocks of a
response with the same text are compared as the full model encodes them, and a response split
across subagent runs kept inside a session file raises :class:`NeedsAssembly` (the caller then
assembles the session).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from ..analytics.inventory import CallFact, call_key
from ..model import RECORD_TYPES
from ..model.blocks import ToolUseBlock
from ..model.records import AssistantRecord
from ..parse.assemble import choose_title, clean_prompt, text_kind
from ..parse.session import ToolStatus, parse_time, tool_status
from ..parse.tree import ASSISTANT, OTHER, USER, Link, main_line, sidechain_roots
from .extract import (
    PIECE,
    DocumentRow,
    DocumentUpdate,
    SessionDigest,
    clean_text,
    input_text,
    pieces,
)
from .view import (
    CHAIN_KINDS,
    ViewRead,
    ViewRecord,
    ViewResultObject,
    ViewText,
    ViewThinking,
    ViewToolResult,
    ViewToolUse,
    ViewToolUseResult,
    full_record,
)

_PROMPT_KINDS = frozenset({"prompt", "command", "command_output"})
_SPLIT_ABOVE = PIECE * 3 // 2

Entry = tuple[int, ViewRecord, int, int]


class NeedsAssembly(Exception):
    """The view cannot derive this session exactly: assemble it with :mod:`cclens.parse`."""


@dataclass(slots=True)
class ViewFile:
    """One file of a session, read into the view: the session's transcript or a subagent's."""

    path: Path
    role: str
    read: ViewRead
    #: The bytes ``read`` was made from (to settle a rare case with the full model).
    data: bytes


class _Call:
    __slots__ = (
        "_status",
        "block_id",
        "id",
        "input",
        "line",
        "name",
        "raw",
        "rejected",
        "result",
        "result_line",
        "result_time",
        "time",
    )

    def __init__(
        self, call_id: str, block_id: str | None, name: str, value: Any, line: int, time: str | None
    ) -> None:
        self.id = call_id
        self.block_id = block_id
        self.name = name
        self.input = value
        self.line = line
        self.time = time
        self.result: ViewToolResult | None = None
        self.result_line = 0
        self.result_time: str | None = None
        self.raw: ViewToolUseResult = msgspec.UNSET
        self.rejected = False
        self._status: ToolStatus | None = None

    @property
    def status(self) -> ToolStatus:
        """As :attr:`cclens.parse.ToolCall.status`."""
        if self._status is None:
            self._status = self._find_status()
        return self._status

    @property
    def is_error(self) -> bool:
        """Failed, rejected or interrupted (as :attr:`cclens.parse.ToolCall.is_error`)."""
        return self.status not in ("ok", "pending")

    def _find_status(self) -> ToolStatus:
        result = self.result
        if result is None:
            return "pending"
        raw = self.raw
        return tool_status(
            result.text,
            raw if isinstance(raw, str) else "",
            isinstance(raw, ViewResultObject) and raw.interrupted is True,
            self.rejected,
            result.is_error is True,
        )

    def fact(self, path: Path) -> CallFact:
        """What the tool figures keep of the call (as ``analytics.inventory.call_fact``)."""
        started = parse_time(self.time)
        finished = parse_time(self.result_time) if self.result is not None else None
        seconds = (
            (finished - started).total_seconds()
            if started is not None and finished is not None
            else None
        )
        return CallFact(
            key=call_key(self.block_id, path, self.line, self.name),
            name=self.name,
            status=self.status,
            started=started,
            seconds=seconds,
        )


class _Item:
    __slots__ = ("anchor", "blocks", "calls", "entries", "kind", "last_line", "role")

    def __init__(self, role: int, anchor: str, entry: Entry) -> None:
        self.role = role
        self.anchor = anchor
        self.entries = [entry]
        self.last_line = entry[0]
        #: A user item's kind (see :data:`cclens.parse.session.UserKind`).
        self.kind = ""
        #: A response's text and thinking blocks, merged: ``(kind, text, entry, block index)``.
        self.blocks: list[tuple[str, str, Entry, int]] = []
        self.calls: list[_Call] = []

    @property
    def record(self) -> ViewRecord:
        return self.entries[0][1]


def _blocks(record: ViewRecord) -> list[Any]:
    message = record.message
    content = message.content if message is not None else None
    return content if isinstance(content, list) else []


def _user_kind(record: ViewRecord) -> str:
    if record.is_compact_summary:
        return "compact_summary"
    message = record.message
    content = message.content if message is not None else None
    if isinstance(content, list) and any(isinstance(b, ViewToolResult) for b in content):
        return "tool_results"
    if isinstance(content, str):
        text = content
    elif isinstance(content, list):
        text = "\n".join(b.text for b in content if isinstance(b, ViewText))
    else:
        text = ""
    return text_kind(text, bool(record.is_meta))


def _user_text(record: ViewRecord) -> str:
    message = record.message
    if message is None:
        return ""
    if isinstance(message.content, str):
        return message.content
    return "\n\n".join(b.text for b in _blocks(record) if isinstance(b, ViewText))


class _FullKeys:
    """The full model's identity of a block, for the rare response holding the same text twice."""

    def __init__(self, path: Path, data: bytes) -> None:
        self.path = path
        self.data = data
        self._records: dict[int, AssistantRecord] = {}

    def key(self, entry: Entry, index: int) -> object:
        record = self._records.get(entry[2])
        if record is None:
            decoded = full_record(self.path, self.data, entry)
            if not isinstance(decoded, AssistantRecord) or not decoded.message:
                # The full model gave up on a line the view read (too many unknown fields).
                raise NeedsAssembly(f"{self.path}:{entry[0]}: the full model reads it otherwise")
            record = self._records[entry[2]] = decoded
        assert record.message  # checked when it was decoded
        block = record.message.blocks[index]
        if isinstance(block, ToolUseBlock) and block.id:
            return ("tool_use", block.id)
        return msgspec.json.encode(block)


def _merge(item: _Item, entry: Entry, keys: _FullKeys) -> None:
    """Add a response's record to its item, keeping each of its blocks once.

    As the parser does: a block already among the item's blocks (as the full model encodes it)
    is dropped; the blocks of one record are not compared with each other.
    """
    before = list(item.blocks)
    for index, block in enumerate(_blocks(entry[1])):
        if isinstance(block, ViewText):
            kind, text = "text", block.text
        elif isinstance(block, ViewThinking):
            kind, text = "thinking", block.thinking
        else:
            continue
        twins = [b for b in before if b[0] == kind and b[1] == text]
        if twins:
            mine = keys.key(entry, index)
            if any(keys.key(twin[2], twin[3]) == mine for twin in twins):
                continue
        item.blocks.append((kind, text, entry, index))


def _start(item: _Item, entry: Entry) -> None:
    for index, block in enumerate(_blocks(entry[1])):
        if isinstance(block, ViewText):
            item.blocks.append(("text", block.text, entry, index))
        elif isinstance(block, ViewThinking):
            item.blocks.append(("thinking", block.thinking, entry, index))


@dataclass(slots=True)
class _Built:
    """One file's records as light items, with its tool calls paired."""

    items: list[_Item]
    calls: dict[str, _Call]


def _build(view: ViewFile) -> _Built:
    items: list[_Item] = []
    responses: dict[str, _Item] = {}
    keys = _FullKeys(view.path, view.data)
    for entry in view.read.entries:
        line, record, _, _ = entry
        kind = record.type
        if kind == "assistant":
            message = record.message
            key = (message.id if message is not None else None) or record.uuid or f"line-{line}"
            existing = responses.get(key)
            if existing is None:
                item = _Item(ASSISTANT, record.uuid or f"line-{line}", entry)
                _start(item, entry)
                responses[key] = item
                items.append(item)
            else:
                existing.entries.append(entry)
                existing.last_line = line
                _merge(existing, entry, keys)
        elif kind == "user":
            item = _Item(USER, record.uuid or f"line-{line}", entry)
            item.kind = _user_kind(record)
            items.append(item)
        elif kind in CHAIN_KINDS:
            items.append(_Item(OTHER, record.uuid or f"line-{line}", entry))
        else:
            items.append(_Item(OTHER, f"line-{line}", entry))
    calls: dict[str, _Call] = {}
    for item in items:
        if item.role != ASSISTANT:
            continue
        for entry in item.entries:
            for block in _blocks(entry[1]):
                if isinstance(block, ViewToolUse):
                    call_id = block.id or f"line-{entry[0]}-{block.name}"
                    if call_id not in calls:
                        call = _Call(
                            call_id, block.id, block.name, block.input, entry[0], entry[1].timestamp
                        )
                        calls[call_id] = call
                        item.calls.append(call)
    for item in items:
        if item.role != USER or item.kind != "tool_results":
            continue
        record = item.record
        results = [b for b in _blocks(record) if isinstance(b, ViewToolResult)]
        for index, block in enumerate(results):
            paired = calls.get(block.tool_use_id or "")
            if paired is None or paired.result is not None:
                continue
            paired.result = block
            paired.result_line = item.entries[0][0]
            paired.result_time = record.timestamp
            paired.rejected = record.tool_denial_kind == "user-rejected"
            if index == 0:
                paired.raw = record.tool_use_result
    return _Built(items, calls)


def _parent(record: ViewRecord) -> str | None:
    parent = record.parent_uuid or None
    if parent is None and record.logical_parent_uuid:
        return record.logical_parent_uuid
    return parent


def _main_flags(built: _Built) -> list[bool]:
    links: list[Link] = []
    roles: list[int] = []
    results: list[tuple[str, ...] | None] = []
    position: dict[int, int] = {}
    for index, item in enumerate(built.items):
        roles.append(item.role)
        if item.role == USER and item.kind == "tool_results":
            blocks = _blocks(item.record)
            results.append(
                tuple(b.tool_use_id or "" for b in blocks if isinstance(b, ViewToolResult))
            )
        else:
            results.append(None)
        for entry in item.entries:
            record = entry[1]
            if record.type in CHAIN_KINDS:
                links.append(
                    (
                        index,
                        record.uuid or None,
                        _parent(record),
                        entry[0],
                        bool(record.is_sidechain),
                        bool(record.is_meta or record.team_name),
                        record.type in ("user", "assistant"),
                    )
                )
        for call in item.calls:
            position[id(call)] = index
    calls = [(call.id, position[id(call)]) for call in built.calls.values()]
    return main_line(links, roles, results, calls).main


def _inline_subagents(view: ViewFile, built: _Built) -> int:
    """How many subagent runs the session file keeps inline (Claude Code 1.x sidechains).

    The parser assembles each as a subagent of its own, from the same records; such a subagent
    adds nothing to the summary or the search documents as long as each of its responses is
    whole in it. A response split across runs (or between a run and the main line) would make
    the run's items differ from the file's: :class:`NeedsAssembly`.
    """
    side: list[tuple[str | None, str | None, int]] = []
    chained = 0
    for line, record, _, _ in view.read.entries:
        if record.type in CHAIN_KINDS:
            chained += 1
            if record.is_sidechain:
                side.append((record.uuid or None, record.parent_uuid or None, line))
    if not side or len(side) == chained:
        return 0
    roots = sidechain_roots(side)
    root_of = {line: root for (_, _, line), root in zip(side, roots, strict=True)}
    for item in built.items:
        if item.role != ASSISTANT or len(item.entries) == 1:
            continue
        found = {root_of.get(entry[0]) for entry in item.entries}
        if len(found) > 1:
            raise NeedsAssembly(f"{view.path}: a response spans several subagent runs")
    return len(set(roots))


def _epoch(text: str | None) -> float | None:
    moment = parse_time(text)
    return moment.timestamp() if moment is not None else None


def _rows(
    kind: str, text: str, anchor: str, tool: str | None, error: bool, moment: float | None
) -> Iterator[DocumentRow]:
    text = clean_text(text)
    if len(text) <= _SPLIT_ABOVE:
        yield (anchor, kind, tool, error, moment, text)
        return
    for part in pieces(text):
        yield (anchor, kind, tool, error, moment, part)


def _item_rows(item: _Item) -> Iterator[DocumentRow]:
    if item.role == OTHER:
        return
    record = item.record
    anchor = item.anchor
    moment = _epoch(record.timestamp)
    if item.role == USER:
        if item.kind in _PROMPT_KINDS:
            text = _user_text(record)
            if text.strip():
                yield from _rows("prompt", text, anchor, None, False, moment)
        return
    failed = any(entry[1].is_api_error_message for entry in item.entries)
    for kind, text, _, _ in item.blocks:
        if text.strip():
            yield from _rows(
                "assistant" if kind == "text" else "thinking", text, anchor, None, failed, moment
            )
    for call in item.calls:
        error = call.is_error
        text = input_text(call.input)
        if text.strip():
            yield from _rows("tool_input", text, anchor, call.name, error, moment)
        result = call.result.text if call.result is not None else ""
        if result.strip():
            yield from _rows("tool_output", result, anchor, call.name, error, moment)


def _changed(item: _Item, since: int) -> bool:
    if item.last_line > since:
        return True
    return any(call.result is not None and call.result_line > since for call in item.calls)


def _documents(path: str, built: _Built, limit: int | None) -> DocumentUpdate:
    update = DocumentUpdate(path, None if limit is None else set())
    seen: set[str] = set()
    rows = update.rows
    for item in built.items:
        anchor = item.anchor
        if anchor in seen:
            continue
        seen.add(anchor)
        if limit is not None:
            if not _changed(item, limit):
                continue
            assert update.replaced is not None
            update.replaced.add(anchor)
        rows.extend(_item_rows(item))
    return update


def _response_usage(item: _Item) -> Any:
    best = None
    best_key = (-1, -1)
    for entry in item.entries:
        message = entry[1].message
        usage = message.usage if message is not None else None
        if usage is not None:
            total = (
                (usage.input_tokens or 0)
                + (usage.output_tokens or 0)
                + (usage.cache_creation_input_tokens or 0)
                + (usage.cache_read_input_tokens or 0)
            )
            key = (usage.output_tokens or 0, total)
            if key >= best_key:
                best, best_key = usage, key
    return best


def _count_usage(
    found: SessionDigest, path: Path, built: _Built, counted: set[str], models: dict[str, None]
) -> None:
    for item in built.items:
        if item.role != ASSISTANT:
            continue
        first = item.record.message
        message_id = (first.id or None) if first is not None else None
        request_id = next((e[1].request_id for e in item.entries if e[1].request_id), None)
        model = next(
            (e[1].message.model for e in item.entries if e[1].message and e[1].message.model),
            None,
        )
        if model and model != "<synthetic>":
            models.setdefault(model, None)
        key = message_id or request_id or f"{path}:{item.anchor}"
        usage = _response_usage(item)
        if key in counted or usage is None:
            continue
        counted.add(key)
        found.input_tokens += usage.input_tokens or 0
        found.output_tokens += usage.output_tokens or 0
        found.cache_read_tokens += usage.cache_read_input_tokens or 0
        found.cache_write_tokens += usage.cache_creation_input_tokens or 0


def _summary(view: ViewFile, built: _Built, found: SessionDigest) -> None:
    """The main transcript's part of the summary: title, first prompt, place, times, counts."""
    entries = view.read.entries
    custom: list[object] = []
    ai: list[object] = []
    summaries: list[tuple[object, str | None]] = []
    uuids: set[str] = set()
    branches: dict[str, None] = {}
    versions: dict[str, None] = {}
    times = []
    for _, record, _, _ in entries:
        kind = record.type
        if kind in CHAIN_KINDS:
            if record.uuid:
                uuids.add(record.uuid)
            if found.cwd is None and record.cwd:
                found.cwd = record.cwd
            if record.git_branch:
                branches.setdefault(record.git_branch, None)
            if record.version:
                versions.setdefault(record.version, None)
        elif kind == "custom-title":
            custom.append(record.custom_title)
        elif kind == "ai-title":
            ai.append(record.ai_title)
        elif kind == "summary":
            summaries.append((record.summary, record.leaf_uuid))
        if kind in RECORD_TYPES:
            moment = parse_time(record.timestamp)
            if moment is not None:
                times.append(moment)
    found.git_branch = list(branches)[-1] if branches else None
    found.versions = list(versions)
    if times:
        found.started = min(times).timestamp()
        found.ended = max(times).timestamp()
    main = _main_flags(built)
    first_prompt = ""
    for item, on_main in zip(built.items, main, strict=True):
        if not on_main:
            continue
        if item.role == ASSISTANT:
            found.messages += 1
        elif item.role == USER and item.kind in ("prompt", "command"):
            found.messages += 1
            if not first_prompt:
                first_prompt = clean_prompt(_user_text(item.record))
    kept = [text for text, leaf in summaries if not leaf or leaf in uuids]
    found.title, found.title_source = choose_title(custom, ai, kept, first_prompt)
    found.first_prompt = first_prompt[:2000]
    found.tool_calls = len(built.calls)
    found.errors = sum(1 for call in built.calls.values() if call.is_error)


def derive(
    files: Sequence[ViewFile],
    since: Mapping[str, int] | None = None,
    calls: list[CallFact] | None = None,
) -> tuple[SessionDigest, dict[str, DocumentUpdate]]:
    """The summary and the documents of a session (its transcript first, then its subagents).

    ``since`` as in :func:`cclens.index.extract.documents`. ``calls``, when given, receives
    every tool call of the session tree once (see :func:`cclens.index.extract.call_facts`).
    Raises :class:`NeedsAssembly` when only the assembled session can say.
    """
    seen_calls: set[str] = set()
    since = since or {}
    found = SessionDigest()
    updates: dict[str, DocumentUpdate] = {}
    counted: set[str] = set()
    models: dict[str, None] = {}
    malformed = 0
    for view in files:
        built = _build(view)
        if view.role == "session":
            _summary(view, built, found)
            found.subagents += _inline_subagents(view, built)
        else:
            found.subagents += 1
        malformed += len(view.read.diagnostics)
        _count_usage(found, view.path, built, counted, models)
        if calls is not None:
            for call in built.calls.values():
                fact = call.fact(view.path)
                if fact.key not in seen_calls:
                    seen_calls.add(fact.key)
                    calls.append(fact)
        path = str(view.path)
        updates[path] = _documents(path, built, since.get(path))
    found.models = list(models)
    found.malformed = malformed
    return found, updates


__all__ = ["NeedsAssembly", "ViewFile", "derive"]
