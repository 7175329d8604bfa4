"""Rebuild a Gemini CLI conversation from its records, as gemini-cli's own loader does.

``loadConversationRecord`` (``chatRecordingService.ts``) keeps messages in a map by id: a
message written again replaces the earlier version where it stood, a ``$set`` holding
``messages`` replaces them all, ``$rewindTo`` drops a message and every later one, and every
``$set`` merges its fields into the metadata. The replay does the same, but forgets nothing:
every message ever written stays, marked with what became of it, so a rewound reply or history
a checkpoint replaced is still shown (apart from the main line) and its tokens still counted
once (by message id, from its last version).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...model import UNSET, present
from ...model.gemini import (
    AnyMessage,
    Conversation,
    MetadataLine,
    RewindLine,
    SetLine,
    UnknownLine,
    UnknownMessage,
)
from .chat import ChatFile, ChatRecord


@dataclass(slots=True)
class MessageState:
    """A message of the conversation: its last version and where it was written."""

    message: AnyMessage
    #: Where the last version was written.
    record: ChatRecord
    #: Where the message was first written.
    first: ChatRecord
    #: How many times it was written (a ``.jsonl`` recording rewrites a message as it grows).
    versions: int = 1
    #: Dropped by ``/rewind``: not part of the conversation as it stands.
    rewound: bool = False
    #: Replaced by a ``$set`` of ``messages`` (history compressed or rebuilt).
    replaced: bool = False
    #: The id of the message the rewind went back from (for a rewound message).
    rewind_point: str | None = None

    @property
    def id(self) -> str | None:
        return self.message.id if isinstance(self.message.id, str) else None


@dataclass(slots=True)
class Checkpoint:
    """A ``$set`` of ``messages`` that dropped some: where, and how many."""

    record: ChatRecord
    dropped: int
    kept: int


@dataclass(slots=True)
class Metadata:
    """The conversation's fields, merged as gemini-cli merges them."""

    session_id: str | None = None
    project_hash: str | None = None
    start_time: str | None = None
    last_updated: str | None = None
    summary: str | None = None
    directories: list[str] = field(default_factory=list)
    kind: str | None = None
    #: The ``.jsonl`` line that last set ``summary`` (``None``: a ``.json`` recording's object).
    summary_record: ChatRecord | None = None

    def merge(self, update: Conversation, record: ChatRecord | None = None) -> None:
        if isinstance(update.summary, str):
            self.summary_record = record
        for name in ("session_id", "project_hash", "start_time", "last_updated", "summary", "kind"):
            value = getattr(update, name)
            if value is not UNSET:
                setattr(self, name, value if isinstance(value, str) else None)
        directories = present(update.directories)
        if directories is not None or update.directories is None:
            self.directories = [d for d in directories or [] if isinstance(d, str)]


@dataclass(slots=True)
class Replay:
    """The conversation a recording holds."""

    metadata: Metadata
    #: Every message ever written, in the order first written.
    messages: list[MessageState]
    checkpoints: list[Checkpoint]
    #: Records read but without meaning here (unknown lines).
    ignored: list[ChatRecord]

    @property
    def live(self) -> list[MessageState]:
        return [state for state in self.messages if not state.rewound]


def replay(chat: ChatFile) -> Replay:
    """The conversation in ``chat``."""
    metadata = Metadata()
    if chat.conversation is not None:
        metadata.merge(chat.conversation)
    states: dict[str, MessageState] = {}
    order: list[MessageState] = []
    # The ids in the order gemini-cli's map holds them (a Map keeps insertion order).
    live: dict[str, MessageState] = {}
    checkpoints: list[Checkpoint] = []
    ignored: list[ChatRecord] = []
    anonymous = 0

    def put(message: AnyMessage, record: ChatRecord) -> None:
        nonlocal anonymous
        identifier = message.id
        if not isinstance(identifier, str):
            anonymous += 1
            identifier = f"(no id {anonymous})"
        state = states.get(identifier)
        if state is None or state.rewound:
            state = MessageState(message, record, record)
            states[identifier] = state
            order.append(state)
        else:
            state.message = message
            state.record = record
            state.versions += 1
            state.replaced = False
        live[identifier] = state

    for record in chat.records:
        value = record.value
        if isinstance(value, RewindLine):
            target = value.rewind_to if isinstance(value.rewind_to, str) else None
            identifiers = list(live)
            cut = identifiers.index(target) if target in live else 0
            for identifier in identifiers[cut:]:
                state = live.pop(identifier)
                state.rewound = True
                state.rewind_point = target
        elif isinstance(value, SetLine):
            update = value.set
            if isinstance(update, Conversation):
                messages = update.messages
                if isinstance(messages, list):
                    before = dict(live)
                    live.clear()
                    for message in messages:
                        if isinstance(message.id, str):
                            put(message, record)
                    dropped = [state for key, state in before.items() if key not in live]
                    for state in dropped:
                        state.replaced = True
                    if dropped:
                        checkpoints.append(Checkpoint(record, len(dropped), len(live)))
                metadata.merge(update, record)
        elif isinstance(value, MetadataLine):
            metadata.merge(value, record)
            if isinstance(value.messages, list):
                for message in value.messages:
                    put(message, record)
        elif isinstance(value, UnknownLine):
            ignored.append(record)
        else:
            put(value, record)
    return Replay(metadata, order, checkpoints, ignored)


def message_kind(message: AnyMessage) -> str:
    """A message's ``type`` (an unknown one's own)."""
    return message.kind


def raw_id(message: Any) -> str | None:
    """A message's id, whatever its kind."""
    identifier = getattr(message, "id", None)
    return identifier if isinstance(identifier, str) else None


__all__ = ["Checkpoint", "MessageState", "Metadata", "Replay", "UnknownMessage", "replay"]
