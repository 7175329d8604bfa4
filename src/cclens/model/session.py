"""The assembled view of a session: messages, tool calls, subagents, branches and compactions.

These types are what every consumer (renderers, the index, analytics) works with. They are built
by :func:`cclens.readers.claude.assemble.assemble` from the records of one file.
"""

from __future__ import annotations

import os
from datetime import datetime, timedelta
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import msgspec

from ..times import parse_time as parse_time
from . import UNSET, ContentBlock, Decoded, Usage
from .blocks import ImageBlock, TextBlock, ToolResultBlock, ToolUseBlock
from .entries import Diagnostic, Entry
from .records import (
    AssistantRecord,
    AttachmentRecord,
    ChainRecord,
    ProgressRecord,
    SystemRecord,
    UserRecord,
)

if TYPE_CHECKING:
    from .tools import ToolSpec

ToolStatus = Literal["ok", "error", "rejected", "interrupted", "pending"]
UserKind = Literal[
    "prompt", "command", "command_output", "tool_results", "compact_summary", "meta", "interrupt"
]
TitleSource = Literal["custom", "ai", "summary", "first-prompt", "none"]


class Item(msgspec.Struct, eq=False, dict=True):
    """One thing shown in a session: a message, an event, or session metadata.

    ``entries`` are the records it was built from (several for a streamed assistant response).
    """

    entries: list[Entry]
    #: Whether the item is on the session's main line (not an abandoned branch or a sidechain).
    main: bool = True
    #: Index into :attr:`Session.branches` for items of an abandoned branch.
    branch: int | None = None

    @property
    def first(self) -> Entry:
        return self.entries[0]

    @property
    def uuid(self) -> str | None:
        record = self.first.record
        return (record.uuid or None) if isinstance(record, ChainRecord) else None

    @property
    def anchor(self) -> str:
        """A stable id for links: the uuid, or the line number for records without one."""
        return self.uuid or f"line-{self.first.line}"

    @property
    def timestamp(self) -> datetime | None:
        record = self.first.record
        return parse_time(getattr(record, "timestamp", None))

    @property
    def is_sidechain(self) -> bool:
        record = self.first.record
        return isinstance(record, ChainRecord) and record.is_sidechain is True


class UserItem(Item, eq=False, dict=True):
    """A user record: a prompt, a slash command and its output, tool results, a summary."""

    kind: UserKind = "prompt"

    @property
    def record(self) -> UserRecord:
        record = self.first.record
        assert isinstance(record, UserRecord)
        return record

    @property
    def blocks(self) -> list[ContentBlock]:
        message = self.record.message
        return message.blocks if message else []

    @property
    def text(self) -> str:
        """The prompt's text (string content, or its text blocks joined)."""
        message = self.record.message
        if not message:
            return ""
        if isinstance(message.content, str):
            return message.content
        return "\n\n".join(b.text for b in message.blocks if isinstance(b, TextBlock))

    @property
    def images(self) -> list[ImageBlock]:
        return [b for b in self.blocks if isinstance(b, ImageBlock)]

    @property
    def tool_results(self) -> list[ToolResultBlock]:
        return [b for b in self.blocks if isinstance(b, ToolResultBlock)]


class AssistantItem(Item, eq=False, dict=True):
    """A model response: the records sharing one ``message.id``, merged in block order."""

    blocks: list[ContentBlock] = msgspec.field(default_factory=list)
    tool_calls: list[ToolCall] = msgspec.field(default_factory=list)

    @property
    def records(self) -> list[AssistantRecord]:
        return [e.record for e in self.entries if isinstance(e.record, AssistantRecord)]

    @property
    def record(self) -> AssistantRecord:
        return self.records[0]

    @property
    def message_id(self) -> str | None:
        message = self.record.message
        return (message.id or None) if message else None

    @property
    def request_id(self) -> str | None:
        for record in self.records:
            if record.request_id:
                return record.request_id
        return None

    @property
    def model(self) -> str | None:
        for record in self.records:
            if record.message and record.message.model:
                return record.message.model
        return None

    @property
    def stop_reason(self) -> str | None:
        for record in reversed(self.records):
            if record.message and record.message.stop_reason:
                return record.message.stop_reason
        return None

    @property
    def usage(self) -> Usage | None:
        """The response's usage: the last, largest one its records carry.

        Claude Code repeats ``usage`` on every record split from a response; streaming snapshots
        can grow ``output_tokens``, so the largest (and among equals the last) is the final one.
        """
        best: Usage | None = None
        best_key = (-1, -1)
        for record in self.records:
            usage = record.message.usage if record.message else None
            if isinstance(usage, Usage):
                key = (usage.output_tokens or 0, usage.total_tokens)
                if key >= best_key:
                    best, best_key = usage, key
        return best

    @property
    def text(self) -> str:
        return "\n\n".join(b.text for b in self.blocks if isinstance(b, TextBlock))

    @property
    def is_api_error(self) -> bool:
        return any(r.is_api_error_message for r in self.records)


class SystemItem(Item, eq=False, dict=True):
    @property
    def record(self) -> SystemRecord:
        record = self.first.record
        assert isinstance(record, SystemRecord)
        return record

    @property
    def subtype(self) -> str:
        return self.record.subtype or "(none)"


class AttachmentItem(Item, eq=False, dict=True):
    @property
    def record(self) -> AttachmentRecord:
        record = self.first.record
        assert isinstance(record, AttachmentRecord)
        return record


class ProgressItem(Item, eq=False, dict=True):
    @property
    def record(self) -> ProgressRecord:
        record = self.first.record
        assert isinstance(record, ProgressRecord)
        return record


class MetaItem(Item, eq=False, dict=True):
    """A record outside the conversation tree: titles, modes, snapshots, queue operations."""


class ToolCall(msgspec.Struct, eq=False, dict=True):
    """A tool call paired with its result."""

    block: ToolUseBlock
    item: AssistantItem
    entry: Entry
    result_block: ToolResultBlock | None = None
    result_entry: Entry | None = None
    #: The user record's ``toolUseResult`` as written (``UNSET`` when absent).
    raw_result: Any = UNSET
    subagents: list[Session] = msgspec.field(default_factory=list)
    #: The agent that made the call (its tools are that agent's: see
    #: :func:`cclens.model.tools.tool_spec`).
    agent: str = "claude"

    @property
    def id(self) -> str:
        """The ``tool_use`` id (a stand-in naming the line when the block has none)."""
        return self.block.id or f"line-{self.entry.line}-{self.name}"

    @property
    def name(self) -> str:
        return self.block.name

    @cached_property
    def spec(self) -> ToolSpec:
        from .tools import tool_spec

        return tool_spec(self.name, self.agent)

    @cached_property
    def parsed_input(self) -> Decoded[Any]:
        from .tools import parse_tool_input

        return parse_tool_input(self.name, self.block.input, self.agent)

    @property
    def input(self) -> Any:
        """The typed input (see :mod:`cclens.model.tools`)."""
        return self.parsed_input.value

    @cached_property
    def parsed_result(self) -> Decoded[Any] | None:
        from .tools import parse_tool_result

        if self.raw_result is UNSET:
            return None
        return parse_tool_result(self.name, self.raw_result, self.agent)

    @property
    def result(self) -> Any:
        """The typed ``toolUseResult``, or ``None`` when the record had none."""
        parsed = self.parsed_result
        return parsed.value if parsed else None

    @property
    def result_text(self) -> str:
        """What the model was shown as the result."""
        return self.result_block.text if self.result_block else ""

    @property
    def status(self) -> ToolStatus:
        if self.result_block is None:
            return "pending"
        raw = self.raw_result
        record = self.result_entry.record if self.result_entry else None
        return tool_status(
            self.result_text,
            raw if isinstance(raw, str) else "",
            isinstance(raw, dict) and raw.get("interrupted") is True,
            isinstance(record, UserRecord) and record.tool_denial_kind == "user-rejected",
            self.result_block.is_error is True,
        )

    @property
    def is_error(self) -> bool:
        return self.status in ("error", "rejected", "interrupted")

    @property
    def started(self) -> datetime | None:
        return parse_time(getattr(self.entry.record, "timestamp", None))

    @property
    def finished(self) -> datetime | None:
        if self.result_entry is None:
            return None
        return parse_time(getattr(self.result_entry.record, "timestamp", None))

    @property
    def duration(self) -> timedelta | None:
        """Time from the call to its result, when both are known."""
        if self.started is None or self.finished is None:
            return None
        return self.finished - self.started


def tool_status(
    text: str, raw_text: str, raw_interrupted: bool, user_rejected: bool, is_error: bool
) -> ToolStatus:
    """The status of a tool call that has its result.

    ``text``: what the model was shown; ``raw_text``: the ``toolUseResult`` when it is a string
    (else empty); ``raw_interrupted``: the ``toolUseResult`` is an object whose
    ``interrupted`` is true; ``user_rejected``: the result record's ``toolDenialKind`` is
    ``user-rejected``; ``is_error``: the ``tool_result`` block's ``is_error`` is true.
    """
    # Each family of markers shares its first words: a text without them (almost every one,
    # and some are megabytes) is searched once rather than once per marker.
    if user_rejected or (
        (_REJECTION_START in text or _REJECTION_START in raw_text)
        and any(marker in text or marker in raw_text for marker in REJECTION_MARKERS)
    ):
        return "rejected"
    if raw_interrupted or (
        _INTERRUPTION_START in text and any(marker in text for marker in INTERRUPTION_MARKERS)
    ):
        return "interrupted"
    if is_error:
        return "error"
    return "ok"


#: Text Claude Code puts in a tool result when the user declined the call.
REJECTION_MARKERS: tuple[str, ...] = (
    "The user doesn't want to proceed with this tool use",
    "The user doesn't want to take this action right now",
)
#: Text Claude Code writes when the user interrupted a request.
INTERRUPTION_MARKERS: tuple[str, ...] = (
    "[Request interrupted by user for tool use]",
    "[Request interrupted by user]",
)
# The words each family of markers starts with (a prefix of characters, not of path parts).
_REJECTION_START = os.path.commonprefix(REJECTION_MARKERS)  # noqa: RUF071
_INTERRUPTION_START = os.path.commonprefix(INTERRUPTION_MARKERS)  # noqa: RUF071


class Branch(msgspec.Struct, eq=False, dict=True):
    """Records that left the main line: a rewind or an edited prompt.

    ``fork`` is the uuid of the main-line record it grew from (``None`` for a separate root).
    """

    fork: str | None
    items: list[Item]


class Compaction(msgspec.Struct, eq=False, dict=True):
    """A compaction boundary and the summary that replaced the history before it."""

    boundary: SystemItem
    summary: UserItem | None
    trigger: str | None
    pre_tokens: int | None


class Session(msgspec.Struct, eq=False, dict=True):
    """One transcript file, assembled."""

    path: Path
    session_id: str
    project: str
    entries: list[Entry]
    diagnostics: list[Diagnostic]
    items: list[Item]
    tool_calls: dict[str, ToolCall]
    branches: list[Branch]
    compactions: list[Compaction]
    subagents: list[Session]
    title: str
    title_source: TitleSource
    first_prompt: str
    #: For a subagent transcript: its agent id, its ``.meta.json`` and the spawning call's id.
    agent_id: str | None = None
    agent_meta: dict[str, Any] | None = None
    parent_tool_use_id: str | None = None
    file_size: int = 0
    lines: int = 0
    #: When the transcript file was last written (seconds since the epoch; 0 when unknown). It
    #: orders sessions: see :func:`cclens.figures.identity.reading_order`.
    mtime: float = 0.0
    #: A subagent transcript whose session file is gone, shown as a session of its own.
    orphan: bool = False
    #: For an orphan: the id of the session that spawned it, when its records or folder say.
    parent_session_id: str | None = None
    #: The agent that wrote the transcript (a name of :data:`cclens.readers.agents.READERS`).
    agent: str = "claude"
    #: Lines read by kind, and the kinds cclens does not know, when the agent's reader counts
    #: them itself (its records are not the entries: ``None`` counts the entries' types).
    line_kinds: dict[str, int] | None = None
    unknown_kinds: dict[str, int] | None = None
    #: A subagent known only from the ``agent_progress`` records mirroring its messages into
    #: the transcript that spawned it (its own file is gone): its ``path`` is that transcript.
    mirrored: bool = False

    @property
    def main_line(self) -> list[Item]:
        """The items of the conversation as it stands, in file order."""
        return [item for item in self.items if item.main]

    @property
    def is_subagent(self) -> bool:
        return self.agent_id is not None

    @property
    def chain_records(self) -> list[ChainRecord]:
        return [e.record for e in self.entries if isinstance(e.record, ChainRecord)]

    @cached_property
    def cwd(self) -> str | None:
        return next((r.cwd for r in self.chain_records if r.cwd), None)

    @cached_property
    def git_branches(self) -> list[str]:
        return _unique(r.git_branch for r in self.chain_records if r.git_branch)

    @property
    def git_branch(self) -> str | None:
        branches = self.git_branches
        return branches[-1] if branches else None

    @cached_property
    def versions(self) -> list[str]:
        return _unique(r.version for r in self.chain_records if r.version)

    @cached_property
    def models(self) -> list[str]:
        return _unique(
            item.model
            for item in self.items
            if isinstance(item, AssistantItem) and item.model and item.model != "<synthetic>"
        )

    @cached_property
    def started(self) -> datetime | None:
        times = self._times()
        return min(times) if times else None

    @cached_property
    def ended(self) -> datetime | None:
        times = self._times()
        return max(times) if times else None

    @property
    def duration(self) -> timedelta | None:
        if self.started is None or self.ended is None:
            return None
        return self.ended - self.started

    def _times(self) -> list[datetime]:
        times = (parse_time(getattr(e.record, "timestamp", None)) for e in self.entries)
        return [t for t in times if t is not None]

    def find_item(self, uuid: str) -> Item | None:
        """The item built from the record with ``uuid``."""
        for item in self.items:
            if any(getattr(e.record, "uuid", None) == uuid for e in item.entries):
                return item
        return None

    def all_sessions(self) -> list[Session]:
        """This session and every subagent session below it."""
        found = [self]
        for agent in self.subagents:
            found.extend(agent.all_sessions())
        return found


def _unique(values: Any) -> list[str]:
    seen: dict[str, None] = {}
    for value in values:
        seen.setdefault(value, None)
    return list(seen)
