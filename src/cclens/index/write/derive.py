"""A session's summary and search documents, derived from the index's view of its files.

This is what :func:`cclens.index.extract.digest` and :func:`cclens.index.extract.documents`
compute from an assembled :class:`~cclens.readers.claude.Session`, without assembling one: records
become
light items (responses merged by ``message.id``, calls paired with results), the main line comes
from the same rules the parser uses (:mod:`cclens.readers.claude.tree`), and the texts go straight
into
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

from ...figures.figures import TURN_STARTS, is_injected
from ...figures.identity import call_key, prompt_key
from ...figures.inventory import CallMerger, is_failed
from ...figures.usage import SYNTHETIC_MODEL, Occurrence, Owner, ResponseCollector, counted_record
from ...model import RECORD_TYPES
from ...model.blocks import ToolUseBlock
from ...model.entries import malformed as count_malformed
from ...model.progress import AgentProgress
from ...model.records import AssistantRecord, ProgressRecord
from ...model.session import ToolStatus, parse_time, tool_status
from ...model.text import input_text
from ...readers.claude.assemble import user_content_kind
from ...readers.claude.titles import PromptPicker, choose_title, tips
from ...readers.claude.tree import ASSISTANT, OTHER, USER, Link, main_line, sidechain_roots
from ..costs import CostTally
from ..extract import (
    Claim,
    DocumentRow,
    DocumentUpdate,
    SessionDigest,
    call_claim,
    clean_text,
    prompt_claim,
    response_claim,
    text_pieces,
    tool_target,
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

Entry = tuple[int, ViewRecord, int, int]


class NeedsAssembly(Exception):
    """The view cannot derive this session exactly: assemble it with
    :mod:`cclens.readers.claude`."""


@dataclass(slots=True)
class ViewFile:
    """One file of a session, read into the view: the session's transcript or a subagent's."""

    path: Path
    role: str
    read: ViewRead
    #: The bytes ``read`` was made from (to settle a rare case with the full model).
    data: bytes
    #: Another agent's file, whose records its reader wrote (:mod:`.translated`): the full
    #: model's record of each entry, by the ``id`` of its view (``None``: Claude Code's file,
    #: its lines read from ``data``).
    records: dict[int, Any] | None = None
    #: The subagent another agent's file belongs to (``None``: the session's own), and
    #: whether it hangs right under the session (one of its subagents).
    agent_id: str | None = None
    direct: bool = True


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
        self,
        call_id: str,
        block_id: str | None,
        name: str,
        value: Any,
        line: int,
        time: str | None,
    ) -> None:
        self.id = call_id
        self.block_id = block_id
        self.name = name
        self.input = value
        #: The line and time of the record the ``tool_use`` block was first found in.
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
        """As :attr:`cclens.readers.claude.ToolCall.status`."""
        if self._status is None:
            self._status = self._find_status()
        return self._status

    @property
    def is_error(self) -> bool:
        """Failed: an error, a rejection or an interruption (see :func:`is_failed`)."""
        return is_failed(self.status)

    def claim(self, key: str) -> Claim:
        """The call's claim (as :func:`cclens.index.extract.digest` makes it)."""
        started = parse_time(self.time)
        finished = parse_time(self.result_time) if self.result is not None else None
        seconds = (
            (finished - started).total_seconds()
            if started is not None and finished is not None
            else None
        )
        return call_claim(key, self.status, self.name, started, seconds)

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


class _Item:
    __slots__ = ("anchor", "blocks", "calls", "entries", "kind", "last_line", "role")

    def __init__(self, role: int, anchor: str, entry: Entry) -> None:
        self.role = role
        self.anchor = anchor
        self.entries = [entry]
        self.last_line = entry[0]
        #: A user item's kind (see :data:`cclens.model.session.UserKind`).
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
    message = record.message
    if message is None:
        return "meta"  # (as the session's reader says: no message, nothing typed)
    return user_content_kind(
        message.content,
        compact_summary=bool(record.is_compact_summary),
        is_meta=bool(record.is_meta),
        result_type=ViewToolResult,
        text_type=ViewText,
    )


def _user_text(record: ViewRecord) -> str:
    message = record.message
    if message is None:
        return ""
    if isinstance(message.content, str):
        return message.content
    return "\n\n".join(b.text for b in _blocks(record) if isinstance(b, ViewText))


class _FullKeys:
    """The full model's identity of a block, for the rare response holding the same text twice."""

    def __init__(self, view: ViewFile) -> None:
        self.path = view.path
        self.data = view.data
        self.translated = view.records
        self._records: dict[int, AssistantRecord] = {}

    def key(self, entry: Entry, index: int) -> object:
        if self.translated is not None:
            return self._key(self.translated[id(entry[1])], entry, index)
        record = self._records.get(entry[2])
        if record is None:
            decoded = full_record(self.path, self.data, entry)
            if not isinstance(decoded, AssistantRecord) or not decoded.message:
                # The full model gave up on a line the view read (too many unknown fields).
                raise NeedsAssembly(f"{self.path}:{entry[0]}: the full model reads it otherwise")
            record = self._records[entry[2]] = decoded
        return self._key(record, entry, index)

    def _key(self, record: Any, entry: Entry, index: int) -> object:
        if not isinstance(record, AssistantRecord) or not record.message:
            raise NeedsAssembly(f"{self.path}:{entry[0]}: the full model reads it otherwise")
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
    """One file's records as light items, with its tool calls paired, and the ids every
    result in it names."""

    items: list[_Item]
    calls: dict[str, _Call]
    results: set[str]


def _build(view: ViewFile) -> _Built:
    items: list[_Item] = []
    responses: dict[str, _Item] = {}
    keys = _FullKeys(view)
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
    named: set[str] = set()
    for item in items:
        if item.role != USER or item.kind != "tool_results":
            continue
        record = item.record
        results = [b for b in _blocks(record) if isinstance(b, ViewToolResult)]
        named.update(block.tool_use_id for block in results if block.tool_use_id)
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
    return _Built(items, calls, named)


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


def _inline_subagents(view: ViewFile, built: _Built) -> dict[int, str]:
    """The subagent runs the session file keeps inline (Claude Code 1.x sidechains): the root
    of the run each line belongs to.

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
        return {}
    roots = sidechain_roots(side)
    root_of = {line: root for (_, _, line), root in zip(side, roots, strict=True)}
    for item in built.items:
        if item.role != ASSISTANT or len(item.entries) == 1:
            continue
        found = {root_of.get(entry[0]) for entry in item.entries}
        if len(found) > 1:
            raise NeedsAssembly(f"{view.path}: a response spans several subagent runs")
    return root_of


def _epoch(text: str | None) -> float | None:
    moment = parse_time(text)
    return moment.timestamp() if moment is not None else None


def _rows(
    kind: str,
    text: str,
    anchor: str,
    target: str,
    tool: str | None,
    error: bool,
    subagent: bool,
    moment: float | None,
) -> Iterator[DocumentRow]:
    for piece, part in enumerate(text_pieces(clean_text(text))):
        yield (anchor, target, kind, tool, error, subagent, moment, piece, part)


def _item_rows(item: _Item, subagent: bool) -> Iterator[DocumentRow]:
    if item.role == OTHER:
        return
    record = item.record
    anchor = item.anchor
    moment = _epoch(record.timestamp)
    subagent = subagent or bool(record.is_sidechain)
    if item.role == USER:
        if item.kind in _PROMPT_KINDS:
            text = _user_text(record)
            if text.strip():
                yield from _rows("prompt", text, anchor, anchor, None, False, subagent, moment)
        return
    failed = any(entry[1].is_api_error_message for entry in item.entries)
    for kind, text, _, _ in item.blocks:
        if text.strip():
            yield from _rows(
                "assistant" if kind == "text" else "thinking",
                text,
                anchor,
                anchor,
                None,
                failed,
                subagent,
                moment,
            )
    for call in item.calls:
        error = call.is_error
        target = tool_target(call.id)
        text = input_text(call.input)
        if text.strip():
            yield from _rows("tool_input", text, anchor, target, call.name, error, subagent, moment)
        result = call.result.text if call.result is not None else ""
        if result.strip():
            yield from _rows(
                "tool_output", result, anchor, target, call.name, error, subagent, moment
            )


def _changed(item: _Item, since: int) -> bool:
    if item.last_line > since:
        return True
    return any(call.result is not None and call.result_line > since for call in item.calls)


def _documents(path: str, built: _Built, limit: int | None, subagent: bool) -> DocumentUpdate:
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
        rows.extend(_item_rows(item, subagent))
    return update


def _models(built: _Built, models: dict[str, None]) -> None:
    for item in built.items:
        if item.role != ASSISTANT:
            continue
        model = next(
            (e[1].message.model for e in item.entries if e[1].message and e[1].message.model),
            None,
        )
        if model and model != SYNTHETIC_MODEL:
            models.setdefault(model, None)


_NO_OWNER = Owner("", "", "", Path())
_MIRROR_MARK = b"agent_progress"
_AGENT_PREFIX = "agent-"


def _agent(view: ViewFile) -> str | None:
    """The agent a subagent's file (or an orphan's, a session of its own) belongs to."""
    if view.records is not None:
        return view.agent_id
    name = view.path.stem
    return name.removeprefix(_AGENT_PREFIX) if name.startswith(_AGENT_PREFIX) else None


def _mirrors(view: ViewFile) -> dict[int, ProgressRecord]:
    """The ``agent_progress`` records of a file (by line), read by the full model."""
    found: dict[int, ProgressRecord] = {}
    if view.records is not None:
        return found  # another agent's records mirror no subagent
    for entry in view.read.entries:
        line, record, start, end = entry
        if record.type == "progress" and view.data.find(_MIRROR_MARK, start, end) >= 0:
            full = full_record(view.path, view.data, entry)
            if isinstance(full, ProgressRecord):
                found[line] = full
    return found


def _linked_elsewhere(
    views: Sequence[ViewFile], builts: Sequence[_Built], mirrors: Sequence[dict[int, Any]]
) -> str | None:
    """Why only the assembled session can say what these files count, if it must: a subagent
    known only from its mirror in a transcript, or a call whose result is in another file
    (see :mod:`cclens.readers.claude.links`)."""
    known = {agent for view in views if (agent := _agent(view)) is not None}
    for view, found in zip(views, mirrors, strict=True):
        for record in found.values():
            data = record.data
            if (
                isinstance(data, AgentProgress)
                and data.agent_id
                and data.agent_id not in known
                and isinstance(data.message, dict)
                and data.message.get("type") in ("assistant", "user")
            ):
                return f"{view.path}: a subagent known only from its agent_progress records"
    for position, built in enumerate(builts):
        pending = {c.block_id for c in built.calls.values() if c.result is None and c.block_id}
        if not pending:
            continue
        for other, elsewhere in enumerate(builts):
            if other != position and pending & elsewhere.results:
                return f"{views[position].path}: a call's result is in another file"
    return None


def _occurrences(
    view: ViewFile, runs: Mapping[int, str], mirrors: Mapping[int, ProgressRecord]
) -> Iterator[Occurrence]:
    """The records of a file that carry a response's usage, as
    :func:`cclens.figures.usage.collect_responses` reads them (``runs``: the inline
    subagent run of a line, see :func:`_inline_subagents`; ``mirrors``: its
    ``agent_progress`` records, see :func:`_mirrors`)."""
    path = view.path
    agent = _agent(view)
    for entry in view.read.entries:
        line, record, _, _ = entry
        if record.type == "assistant":
            message = record.message
            usage = message.usage if message is not None else None
            if message is None or usage is None or message.model == SYNTHETIC_MODEL:
                continue
            yield Occurrence.read(
                record,
                message,
                usage,
                path=path,
                line=line,
                agent_id=(f"sidechain-{runs[line]}" if line in runs else agent)
                or record.agent_id
                or None,
                tool_uses=[
                    (block.id or None, block.name)
                    for block in _blocks(record)
                    if isinstance(block, ViewToolUse)
                ],
            )
        elif line in mirrors:
            # A subagent's response mirrored in this transcript: read as the full model does.
            found = counted_record(mirrors[line], agent)
            if found is not None:
                yield Occurrence.of(found[0], found[1], path, line, found[2])


def _prompt_claims(view: ViewFile, built: _Built, inline: bool) -> Iterator[Claim]:
    """The prompts of the session's own transcript (not its inline subagents'; none in an
    orphan subagent's transcript, as :func:`cclens.figures.figures.session_prompts` says)."""
    if _agent(view) is not None:
        return
    for item in built.items:
        if item.role != USER or item.kind not in TURN_STARTS:
            continue
        record = item.record
        if inline and record.is_sidechain:
            continue
        if is_injected(_user_text(record)):
            continue
        yield prompt_claim(
            prompt_key(record.uuid, view.path, item.entries[0][0]), parse_time(record.timestamp)
        )


def _claims(
    views: Sequence[ViewFile],
    builts: Sequence[_Built],
    runs: Mapping[int, str],
    mirrors: Sequence[Mapping[int, ProgressRecord]],
    costs: CostTally,
) -> list[Claim]:
    """What the session counts (as :func:`cclens.index.extract.digest` lists it); its
    responses are priced into ``costs``."""
    claims = list(_prompt_claims(views[0], builts[0], bool(runs)))
    collector = ResponseCollector()
    for position, view in enumerate(views):
        for found in _occurrences(view, runs if position == 0 else {}, mirrors[position]):
            collector.add(found, _NO_OWNER)
    claims += [
        response_claim(response, costs.add_response(response)) for response in collector.responses()
    ]
    merger: CallMerger[None, _Call] = CallMerger(lambda call: call.status)
    keys: list[str] = []
    for view, built in zip(views, builts, strict=True):
        for call in built.calls.values():
            key = call_key(call.block_id, view.path, call.line, call.name)
            keys.append(key)
            merger.add(None, key, call)
    calls = [call for _, call in merger.calls()]
    claims += [call.claim(key) for key, call in zip(dict.fromkeys(keys), calls, strict=True)]
    return claims


def _summary(view: ViewFile, built: _Built, found: SessionDigest) -> None:
    """The main transcript's part of the summary: title, first prompt, place, times, counts."""
    entries = view.read.entries
    custom: list[object] = []
    ai: list[object] = []
    summaries: list[tuple[object, str | None, int]] = []
    uuids: set[str] = set()
    messages: list[tuple[str | None, str | None]] = []
    branches: dict[str, None] = {}
    versions: dict[str, None] = {}
    times = []
    for line, record, _, _ in entries:
        kind = record.type
        if kind in CHAIN_KINDS:
            if record.uuid:
                uuids.add(record.uuid)
            if kind in ("user", "assistant"):
                messages.append((record.uuid or None, record.parent_uuid or None))
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
            summaries.append((record.summary, record.leaf_uuid, line))
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
    picker = PromptPicker()
    for item, on_main in zip(built.items, main, strict=True):
        if not on_main:
            continue
        if item.role == ASSISTANT:
            found.messages += 1
        elif item.role == USER and item.kind in ("prompt", "command"):
            found.messages += 1
            if not picker.done:
                picker.add(item.kind, _user_text(item.record))
    kept = [text for text, leaf, _ in summaries if not leaf or leaf in uuids]
    found.title, found.title_source = choose_title(custom, ai, kept, picker.title_text)
    found.first_prompt = picker.preview
    found.tips = tips(messages)
    found.summaries = [
        (leaf, text, line)
        for text, leaf, line in summaries
        if isinstance(text, str) and text.strip() and leaf
    ]


def derive(
    files: Sequence[ViewFile], since: Mapping[str, int] | None = None
) -> tuple[SessionDigest, dict[str, DocumentUpdate]]:
    """The summary and the documents of a session (its transcript first, then its subagents).

    ``since`` as in :func:`cclens.index.extract.documents`. Raises :class:`NeedsAssembly` when
    only the assembled session can say.
    """
    since = since or {}
    found = SessionDigest()
    updates: dict[str, DocumentUpdate] = {}
    models: dict[str, None] = {}
    malformed = 0
    builts: list[_Built] = []
    runs: dict[int, str] = {}
    for view in files:
        built = _build(view)
        builts.append(built)
        translated = view.records is not None
        if view.role == "session":
            _summary(view, built, found)
            # An orphan subagent file (a session of its own) keeps no subagents inline, nor
            # does another agent's file.
            if not translated and not view.path.name.startswith("agent-"):
                runs = _inline_subagents(view, built)
                found.subagents += len(set(runs.values()))
        elif view.direct:
            found.subagents += 1
        malformed += count_malformed(view.read.diagnostics)
        _models(built, models)
        path = str(view.path)
        # Another agent's file is a subagent's when it belongs to one (an orphan's included).
        subagent = view.agent_id is not None if translated else view.role != "session"
        updates[path] = _documents(path, built, since.get(path), subagent)
    found.models = list(models)
    found.malformed = malformed
    mirrors = [_mirrors(view) for view in files]
    elsewhere = _linked_elsewhere(files, builts, mirrors)
    if elsewhere is not None:
        raise NeedsAssembly(elsewhere)
    if files and files[0].role == "session":
        costs = CostTally()
        found.count(_claims(files, builts, runs, mirrors, costs))
        found.cost, found.unpriced = costs.cost, costs.unpriced
    return found, updates


__all__ = ["NeedsAssembly", "ViewFile", "derive"]
