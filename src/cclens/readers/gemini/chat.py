"""Read one Gemini CLI recording (``.json`` or ``.jsonl``) into typed records with positions.

A ``.json`` recording is one JSON object rewritten in place: each of its messages becomes a
record whose ``line`` is its place in ``messages`` (from 1) and whose ``offset``/``length`` are
the bytes of its object in the file, found after decoding (so a hit or a link lands on the
message). A ``.jsonl`` recording is read line by line like a Claude Code transcript: ``line`` is
the line number, ``offset``/``length`` the line's bytes. Nothing stops at a bad line: it
becomes a :class:`~cclens.model.entries.Diagnostic` naming the file and line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import msgspec

from ...files import read_regular
from ...model.entries import Diagnostic
from ...model.gemini import (
    AnyLine,
    AnyMessage,
    Conversation,
    MetadataLine,
    RewindLine,
    SetLine,
    UnknownLine,
    UnknownMessage,
    decode_conversation,
    decode_line,
)
from ..claude._gc import paused
from ..lines import add_diagnostic

Form = Literal["json", "jsonl"]

_BOM = b"\xef\xbb\xbf"
_EXCERPT = 80


@dataclass(slots=True)
class ChatRecord:
    """One record of a recording and where it is in the file."""

    value: AnyLine
    line: int
    offset: int
    length: int
    #: What the lenient decoder set aside (unknown fields, values of an unexpected shape).
    notes: tuple[str, ...] = ()


@dataclass(slots=True)
class ChatFile:
    """Everything read from one recording."""

    path: Path
    form: Form
    records: list[ChatRecord] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: For a ``.json`` recording: the whole object as decoded (its messages are the records).
    conversation: Conversation | None = None
    #: Bytes read.
    size: int = 0
    #: Non-empty lines (``.jsonl``) or messages (``.json``) seen.
    lines: int = 0
    #: Where a later read of a ``.jsonl`` recording should start (after its last whole line).
    end_offset: int = 0


def form_of(path: Path) -> Form:
    """The form of a recording, from its name."""
    return "jsonl" if path.suffix == ".jsonl" else "json"


def read_chat(path: Path) -> ChatFile:
    """Read the recording at ``path``. Raises ``OSError`` only when it cannot be read."""
    return read_chat_data(path, read_regular(path))


def read_chat_data(path: Path, data: bytes, start_offset: int = 0, start_line: int = 0) -> ChatFile:
    """Read a recording from its bytes (``.jsonl``: from ``start_offset``, after
    ``start_line`` lines)."""
    with paused():
        if form_of(path) == "jsonl":
            return _read_lines(path, data, start_offset, start_line)
        if start_offset:
            return _read_tail(path, data, start_offset)
        return _read_object(path, data)


def _read_tail(path: Path, data: bytes, start_offset: int) -> ChatFile:
    """What follows a ``.json`` recording read before: nothing but white space (gemini-cli
    rewrites the whole object, which the index notices as a rewrite and reads from the start)."""
    chat = ChatFile(path, "json", size=len(data), end_offset=start_offset)
    if not data.strip():
        chat.end_offset = start_offset + len(data)
    else:
        reason = "more than a whole JSON object; gemini-cli may be rewriting it"
        chat.diagnostics.append(Diagnostic(path, 0, reason, start_offset, _excerpt(data)))
    return chat


def _excerpt(data: bytes) -> str:
    text = data[:_EXCERPT].decode("utf-8", errors="replace")
    return text + ("…" if len(data) > _EXCERPT else "")


_BYTE = re.compile(r"\(byte (\d+)\)")


def _where(body: bytes, message: str) -> tuple[int, int]:
    """The line (from 1) and byte where a JSON text stops being valid: where the decoder
    said, else its end (a text cut short)."""
    match = _BYTE.search(message)
    offset = min(int(match.group(1)), len(body)) if match else len(body)
    return body.count(b"\n", 0, offset) + 1, offset


def _read_object(path: Path, data: bytes) -> ChatFile:
    chat = ChatFile(path, "json", size=len(data), end_offset=len(data))
    body = data[len(_BOM) :] if data.startswith(_BOM) else data
    if not body.strip():
        reason = "empty file (gemini-cli may be writing it)"
        chat.diagnostics.append(Diagnostic(path, 0, reason))
        chat.end_offset = 0
        return chat
    try:
        decoded = decode_conversation(body)
    except (msgspec.DecodeError, UnicodeDecodeError) as error:
        reason = f"not a whole JSON object ({error}); gemini-cli may be rewriting it"
        line, offset = _where(body, str(error))
        base = len(data) - len(body)
        chat.diagnostics.append(Diagnostic(path, line, reason, base + offset, _excerpt(body)))
        # Nothing is kept of a recording caught mid-rewrite: a later read takes it whole.
        chat.end_offset = 0
        return chat
    conversation = decoded.value
    if isinstance(conversation, UnknownLine) or not isinstance(conversation.messages, list):
        reason = "not a Gemini CLI recording (no messages list)"
        chat.diagnostics.append(Diagnostic(path, 0, reason, 0, _excerpt(body)))
        return chat
    chat.conversation = conversation
    base = len(data) - len(body)
    spans = message_spans(body, conversation.messages)
    for index, (message, (start, end)) in enumerate(
        zip(conversation.messages, spans, strict=True), start=1
    ):
        chat.records.append(ChatRecord(message, index, base + start, end - start))
    if decoded.problems:
        reason = "; ".join(decoded.problems[:3])
        chat.diagnostics.append(Diagnostic(path, 0, reason, 0, _excerpt(body), partial=True))
    chat.lines = len(chat.records)
    return chat


def message_spans(data: bytes, messages: list[AnyMessage]) -> list[tuple[int, int]]:
    """The byte span of each message's object in ``data`` (a ``.json`` recording).

    A message is found by its own ``"id": "<id>"`` pair: inside a string a quote is escaped,
    so that pair cannot match text a message holds. A message without an id (never written by
    gemini-cli) gets the span between its neighbours.
    """
    starts: list[int] = []
    position = data.find(b'"messages"')
    position = max(position, 0)
    for message in messages:
        identifier = message.id
        found = -1
        if isinstance(identifier, str) and identifier:
            encoded = msgspec.json.encode(identifier)
            for pattern in (b'"id": ' + encoded, b'"id":' + encoded):
                found = data.find(pattern, position)
                if found >= 0:
                    break
        if found >= 0:
            brace = data.rfind(b"{", position, found)
            start = brace if brace >= 0 else found
        else:
            start = data.find(b"{", position)
            start = start if start >= 0 else position
        starts.append(start)
        position = start + 1
    close = data.rfind(b"]")
    spans: list[tuple[int, int]] = []
    for index, start in enumerate(starts):
        limit = starts[index + 1] if index + 1 < len(starts) else max(close, start)
        end = data.rfind(b"}", start, limit) + 1 or limit
        spans.append((start, max(end, start)))
    return spans


def _read_lines(path: Path, data: bytes, start_offset: int, start_line: int) -> ChatFile:
    chat = ChatFile(path, "jsonl", size=len(data), end_offset=start_offset)
    position = start_offset
    if position == 0 and data.startswith(_BOM):
        position = len(_BOM)
    number = start_line
    size = len(data)
    while position < size:
        newline = data.find(b"\n", position)
        complete = newline >= 0
        end = newline if complete else size
        number += 1
        line = data[position:end]
        offset = position
        position = end + 1 if complete else size
        length = len(line)
        if line.endswith(b"\r"):
            length -= 1
            line = line[:length]
        if not line.strip():
            if complete:
                chat.end_offset = position
            continue
        chat.lines += 1
        try:
            decoded = decode_line(line)
        except (msgspec.DecodeError, UnicodeDecodeError) as error:
            reason = f"invalid JSON: {error}"
            if not complete:
                reason = f"incomplete last line ({reason}); the file may still be written"
                chat.diagnostics.append(Diagnostic(path, number, reason, offset, _excerpt(line)))
                break
            add_diagnostic(
                chat.diagnostics, Diagnostic(path, number, reason, offset, _excerpt(line))
            )
            chat.end_offset = position
            continue
        value = decoded.value
        if isinstance(value, UnknownLine) and not isinstance(value.raw, dict):
            reason = "not a JSON object"
            add_diagnostic(
                chat.diagnostics, Diagnostic(path, number, reason, offset, _excerpt(line))
            )
        else:
            chat.records.append(ChatRecord(value, number, offset, length, tuple(decoded.notes)))
            if decoded.problems:
                reason = "; ".join(decoded.problems[:3])
                add_diagnostic(
                    chat.diagnostics,
                    Diagnostic(path, number, reason, offset, _excerpt(line), partial=True),
                )
        chat.end_offset = position
    return chat


def unknown_kinds(chat: ChatFile) -> list[str]:
    """The kinds of the records cclens does not know (for ``check``)."""
    kinds: list[str] = []
    for record in chat.records:
        value = record.value
        if isinstance(value, UnknownLine):
            kinds.append(f"line {value.kind}")
        elif isinstance(value, UnknownMessage):
            kinds.append(f"message {value.kind}")
    return kinds


def line_kinds(chat: ChatFile) -> dict[str, int]:
    """How many records of each kind the recording holds (for ``check``): messages by their
    ``type``, and the ``.jsonl`` lines that are not messages (``metadata``, ``$set``,
    ``$rewindTo``)."""
    counts: dict[str, int] = {}
    for record in chat.records:
        value = record.value
        if isinstance(value, MetadataLine):
            kind = "metadata"
        elif isinstance(value, SetLine):
            kind = "$set"
        elif isinstance(value, RewindLine):
            kind = "$rewindTo"
        elif isinstance(value, UnknownLine):
            kind = f"line {value.kind}"
        else:
            kind = value.kind
        counts[kind] = counts.get(kind, 0) + 1
    return counts
