"""What the index keeps about a session: a summary row and the texts search runs over.

The definitions live here, as pure functions over an assembled :class:`~cclens.parse.Session`
(:func:`digest`, :func:`documents`). Indexing derives the same from a lighter reading of the
records (:mod:`cclens.index.derive`, tested against these on the corpus and on generated
transcripts), and calls these for the rare session that reading cannot settle alone.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from ..analytics.inventory import CallFact, call_fact
from ..model.blocks import TextBlock, ThinkingBlock
from ..parse import AssistantItem, Item, Session, UserItem

DocumentKind = Literal["prompt", "assistant", "thinking", "tool_input", "tool_output"]
#: Every kind of content search can be narrowed to.
DOCUMENT_KINDS: tuple[DocumentKind, ...] = (
    "prompt",
    "assistant",
    "thinking",
    "tool_input",
    "tool_output",
)
#: Bumped whenever what is extracted changes; sessions indexed with an older version get their
#: documents derived again from the stored lines on the next update.
EXTRACT_VERSION = 1
#: The longest text kept for one message part (a 1 MB tool output is still searchable whole).
MAX_TEXT = 1_000_000
#: Longer texts are split into documents of about this many characters, at line ends: a
#: snippet is then cut from a few kilobytes, not from a whole file a tool read.
PIECE = 4000
#: Characters search uses to mark matches in snippets; removed from indexed text.
MATCH_START = "\ue000"
MATCH_END = "\ue001"
_PROMPT_KINDS = frozenset({"prompt", "command", "command_output"})
_SET_ASIDE = (MATCH_START, MATCH_END, "\x00")


@dataclass(slots=True)
class Document:
    """One searchable text and where it is shown: its file, and the item's anchor there."""

    path: str
    anchor: str
    kind: DocumentKind
    text: str
    tool: str | None = None
    error: bool = False
    time: float | None = None

    def row(self) -> DocumentRow:
        """The document as a plain tuple (what workers send: it pickles several times faster)."""
        return (self.anchor, self.kind, self.tool, self.error, self.time, self.text)


#: ``(anchor, kind, tool, error, time, text)``.
DocumentRow = tuple[str, str, str | None, bool, float | None, str]


@dataclass(slots=True)
class SessionDigest:
    """The summary of a session the project and session lists show."""

    title: str = ""
    title_source: str = "none"
    first_prompt: str = ""
    cwd: str | None = None
    git_branch: str | None = None
    started: float | None = None
    ended: float | None = None
    messages: int = 0
    tool_calls: int = 0
    errors: int = 0
    subagents: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    models: list[str] = field(default_factory=list)
    versions: list[str] = field(default_factory=list)
    malformed: int = 0


def _epoch(moment: datetime | None) -> float | None:
    return moment.timestamp() if moment is not None else None


def _unique(values: Iterator[str]) -> list[str]:
    return list(dict.fromkeys(values))


def digest(session: Session) -> SessionDigest:
    """Summarise ``session``; token usage counts each API response once, subagents included."""
    found = SessionDigest(
        title=session.title,
        title_source=session.title_source,
        first_prompt=session.first_prompt[:2000],
        cwd=session.cwd,
        git_branch=session.git_branch,
        started=_epoch(session.started),
        ended=_epoch(session.ended),
        subagents=len(session.subagents),
        versions=list(session.versions),
    )
    for item in session.main_line:
        if isinstance(item, AssistantItem) or (
            isinstance(item, UserItem) and item.kind in ("prompt", "command")
        ):
            found.messages += 1
    found.tool_calls = len(session.tool_calls)
    found.errors = sum(1 for call in session.tool_calls.values() if call.is_error)
    everything = session.all_sessions()
    found.models = _unique(model for agent in everything for model in agent.models)
    found.malformed = sum(len(agent.diagnostics) for agent in everything)
    counted: set[str] = set()
    for agent in everything:
        for item in agent.assistant_items:
            key = item.message_id or item.request_id or f"{agent.path}:{item.anchor}"
            usage = item.usage
            if key in counted or usage is None:
                continue
            counted.add(key)
            found.input_tokens += usage.input_tokens or 0
            found.output_tokens += usage.output_tokens or 0
            found.cache_read_tokens += usage.cache_read_input_tokens or 0
            found.cache_write_tokens += usage.cache_creation_input_tokens or 0
    return found


def call_facts(session: Session) -> list[CallFact]:
    """Every tool call of ``session`` and its subagents once, as the tool figures keep it
    (sidechains kept in the session file are also subagent sessions: met twice, kept once)."""
    seen: set[str] = set()
    facts: list[CallFact] = []
    for agent in session.all_sessions():
        for call in agent.tool_calls.values():
            fact = call_fact(call, agent.path)
            if fact.key not in seen:
                seen.add(fact.key)
                facts.append(fact)
    return facts


def clean_text(text: str) -> str:
    """``text`` as it is indexed: at most :data:`MAX_TEXT` characters, without the characters
    search uses to mark matches (nor NUL)."""
    text = text[:MAX_TEXT]
    # str.translate walks every character in Python-level steps; these are almost never there.
    for character in _SET_ASIDE:
        if character in text:
            text = text.replace(character, " ")
    return text


def pieces(text: str, size: int = PIECE) -> Iterator[str]:
    """``text`` cut into parts of at most ``size`` characters.

    Each part ends at a line end when there is one in its last quarter.
    """
    start = 0
    length = len(text)
    while length - start > size:
        end = text.rfind("\n", start + size * 3 // 4, start + size)
        end = end + 1 if end >= 0 else start + size
        yield text[start:end]
        start = end
    if start < length:
        yield text[start:]


def _split(document: Document) -> Iterator[Document]:
    if len(document.text) <= PIECE * 3 // 2:
        yield document
        return
    for part in pieces(document.text):
        yield Document(
            document.path,
            document.anchor,
            document.kind,
            part,
            document.tool,
            document.error,
            document.time,
        )


def input_text(value: Any) -> str:
    """The strings inside a tool input (values only, nested ones too), one per line."""
    parts: list[str] = []
    stack = [value]
    while stack:
        current = stack.pop()
        if isinstance(current, str):
            parts.append(current)
        elif isinstance(current, dict):
            stack.extend(reversed(list(current.values())))
        elif isinstance(current, list):
            stack.extend(reversed(current))
    return "\n".join(part for part in parts if part)


def _item_documents(item: Item, path: str) -> Iterator[Document]:
    moment = _epoch(item.timestamp)
    anchor = item.anchor
    if isinstance(item, UserItem):
        if item.kind in _PROMPT_KINDS:
            text = item.text
            if text.strip():
                yield Document(path, anchor, "prompt", clean_text(text), time=moment)
        return
    if not isinstance(item, AssistantItem):
        return
    failed = item.is_api_error
    for block in item.blocks:
        if isinstance(block, TextBlock) and block.text.strip():
            yield Document(path, anchor, "assistant", clean_text(block.text), None, failed, moment)
        elif isinstance(block, ThinkingBlock) and block.thinking.strip():
            yield Document(
                path, anchor, "thinking", clean_text(block.thinking), None, failed, moment
            )
    for call in item.tool_calls:
        error = call.is_error
        text = input_text(call.block.input)
        if text.strip():
            yield Document(path, anchor, "tool_input", clean_text(text), call.name, error, moment)
        result = call.result_text
        if result.strip():
            yield Document(
                path, anchor, "tool_output", clean_text(result), call.name, error, moment
            )


def _changed(item: Item, since: int) -> bool:
    if any(entry.line > since for entry in item.entries):
        return True
    if isinstance(item, AssistantItem):
        return any(
            call.result_entry is not None and call.result_entry.line > since
            for call in item.tool_calls
        )
    return False


@dataclass(slots=True)
class DocumentUpdate:
    """The documents of one file to write, and which of its old ones they replace."""

    path: str
    #: ``None``: every old document of the file goes; else only those with these anchors.
    replaced: set[str] | None
    rows: list[DocumentRow] = field(default_factory=list)


def documents(
    session: Session, since: Mapping[str, int] | None = None
) -> dict[str, DocumentUpdate]:
    """The documents of ``session`` and its subagents, per file.

    ``since`` maps a file's path to the line number its documents were last derived up to:
    only items with a record after that line (or a tool call whose result came after it) are
    derived again. A file not in ``since`` gets all its documents derived.
    """
    since = since or {}
    updates: dict[str, DocumentUpdate] = {}
    seen: set[tuple[str, str]] = set()
    for agent in session.all_sessions():
        path = str(agent.path)
        limit = since.get(path)
        update = updates.get(path)
        if update is None:
            update = DocumentUpdate(path, None if limit is None else set())
            updates[path] = update
        for item in agent.items:
            key = (path, item.anchor)
            if key in seen:
                continue  # sidechains kept in the session file appear twice
            seen.add(key)
            if limit is not None:
                if not _changed(item, limit):
                    continue
                assert update.replaced is not None
                update.replaced.add(item.anchor)
            update.rows.extend(
                part.row() for document in _item_documents(item, path) for part in _split(document)
            )
    return updates
