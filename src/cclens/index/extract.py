"""What the index keeps about a session: a summary row and the texts search runs over.

The definitions live here, as pure functions over an assembled
:class:`~cclens.readers.claude.Session`
(:func:`digest`, :func:`documents`). Indexing derives the same from a lighter reading of the
records (:mod:`cclens.index.write.derive`, tested against these on the corpus and on generated
transcripts), and calls these for the rare session that reading cannot settle alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import NamedTuple

from ..figures.figures import session_prompts
from ..figures.inventory import is_failed, session_calls
from ..figures.pricing import PricedCost
from ..figures.usage import Response, collect_responses
from ..model.blocks import TextBlock, ThinkingBlock
from ..model.entries import malformed
from ..model.records import SummaryRecord
from ..model.text import input_text
from ..readers.claude import AssistantItem, Item, Session, UserItem
from ..readers.claude.assemble import session_tips
from ..readers.claude.titles import PREVIEW_LENGTH
from .costs import CostTally
from .names import DocumentKind
from .words import (
    MAX_PHRASE_WORDS,
    PRIVATE_USE,
    SEPARATOR,
    TOKEN,
    TOKEN_BREAK,
    WORD_CHARACTER,
    index_text,
)

#: Bumped whenever what is extracted changes; sessions indexed with an older version get their
#: documents derived again from the stored lines on the next update. 3: each document names the
#: element it is shown in (``target``), whether it is a subagent's, long texts are cut into
#: overlapping pieces, and each session lists what it counts (two changes, each made as 2 on
#: its own branch).
#: 4: titles (tips, summaries), prices and the first prompt as the sessions view reads them.
#: 5: each claim keeps its time, model, cost and tools, for the usage figures (migration 7).
#: 6: each character of a script written without spaces is a token of its own (migration 19);
#: an orphan subagent counts no prompt; the calls of subagents known only from the
#: ``agent_progress`` records mirroring them count; calls pair with results in other files.
EXTRACT_VERSION = 6
#: The longest text kept for one message part (a 1 MB tool output is still searchable whole).
MAX_TEXT = 1_000_000
#: Longer texts are split into documents of about this many characters, at line ends: a
#: snippet is then cut from a few kilobytes, not from a whole file a tool read.
PIECE = 4000
#: Texts up to this long stay whole.
SPLIT_ABOVE = PIECE * 3 // 2
#: Each piece after the first repeats this many words from the end of the one before (more than
#: a phrase may hold, :data:`~cclens.index.read.query.MAX_PHRASE_WORDS`), so that a phrase that
#: straddles a cut is whole in the next piece...
OVERLAP_WORDS = MAX_PHRASE_WORDS + 8
#: ...as long as those words lie within this many characters of the cut.
MAX_OVERLAP = PIECE // 2
#: Characters search uses to mark matches in snippets; removed from indexed text.
MATCH_START = "\ue000"
MATCH_END = "\ue001"
_PROMPT_KINDS = frozenset({"prompt", "command", "command_output"})
_LONG_WORD = 200
_WORD_RUN = re.compile(f"{WORD_CHARACTER.pattern}++")
#: OVERLAP_WORDS words (each with the separators after it), read from a reversed text.
#: (Possessive: backtracking would count a word as several.)
_LAST_WORDS = re.compile(
    f"(?:{SEPARATOR.pattern}*+{WORD_CHARACTER.pattern}++){{{OVERLAP_WORDS}}}", re.DOTALL
)
#: The same with plain character classes (several times faster), for a text without
#: private-use characters, and for an ASCII one.
_LAST_UNICODE_WORDS = re.compile(f"(?:[\\W_]*+[^\\W_]++){{{OVERLAP_WORDS}}}")
_LAST_ASCII_WORDS = re.compile(f"(?:[^a-zA-Z0-9]*+[a-zA-Z0-9]++){{{OVERLAP_WORDS}}}")
#: Characters read back first to find the overlap's words.
_SHORT_OVERLAP = 600
_SET_ASIDE = (MATCH_START, MATCH_END, "\x00", TOKEN_BREAK)


def tool_target(call_id: str) -> str:
    """The element id of a tool call on the session page (its input and output are in it)."""
    return f"tool-{call_id}"


@dataclass(slots=True)
class Document:
    """One searchable text and where it is shown: its file, the item's anchor there, and the
    finest element that holds it (``target``: the item, or ``tool-<id>`` for a tool call)."""

    path: str
    anchor: str
    kind: DocumentKind
    text: str
    tool: str | None = None
    error: bool = False
    time: float | None = None
    target: str = ""
    subagent: bool = False

    def rows(self) -> Iterator[DocumentRow]:
        """The document as plain tuples, one per piece of its text (what workers send: tuples
        pickle several times faster)."""
        for piece, text in enumerate(text_pieces(self.text)):
            yield (
                self.anchor,
                self.target or self.anchor,
                self.kind,
                self.tool,
                self.error,
                self.subagent,
                self.time,
                piece,
                text,
            )


#: ``(anchor, target, kind, tool, error, subagent, time, piece, text)``: ``piece`` numbers the
#: pieces of one text from 0 (see :func:`text_pieces`).
DocumentRow = tuple[str, str, str, str | None, bool, bool, float | None, int, str]


CLAIM_PROMPT, CLAIM_RESPONSE, CLAIM_CALL = 0, 1, 2
CLAIM_KINDS = (CLAIM_PROMPT, CLAIM_RESPONSE, CLAIM_CALL)


class Claim(NamedTuple):
    """What a session counts, one row per prompt, response and tool call (see
    :mod:`cclens.figures.identity`), as the ``counted`` table stores it (same columns, same
    order).

    ``kind`` is one of :data:`CLAIM_KINDS`; ``time`` is when (epoch seconds) the prompt was
    typed, the response's first record was written, the call was made. A response has its
    ``request`` id, tokens, ``model``, ``agent`` (a subagent's), ``speed``, ``inference_geo``,
    its cost priced with the bundled table (``cost``, ``price``, ``reason``: see
    :class:`cclens.figures.pricing.PricedCost`) and the names of the ``tools`` it called (one
    per line), and ``cache_write_unsplit`` (see :class:`~cclens.figures.tokens.TokenCounts`);
    a call has its ``status``, tool ``name`` and ``seconds`` to its result.
    """

    kind: int
    key: str
    request: str | None = None
    status: str | None = None
    input: int = 0
    output: int = 0
    cache_write_5m: int = 0
    cache_write_1h: int = 0
    cache_read: int = 0
    time: float | None = None
    model: str | None = None
    agent: str | None = None
    name: str | None = None
    seconds: float | None = None
    speed: str | None = None
    inference_geo: str | None = None
    cost: float | None = None
    price: str | None = None
    reason: str | None = None
    tools: str | None = None
    cache_write_unsplit: int = 0


#: The columns of :class:`Claim`, in order.
CLAIM_COLUMNS: tuple[str, ...] = Claim._fields


def prompt_claim(key: str, moment: datetime | None) -> Claim:
    """The claim of a prompt typed at ``moment``."""
    return Claim(CLAIM_PROMPT, key, time=_epoch(moment))


def response_claim(response: Response, priced: PricedCost | None) -> Claim:
    """The claim of a response, with its cost (``None``: not a priced kind of response)."""
    tokens = response.tokens
    return Claim(
        CLAIM_RESPONSE,
        response.identity,
        request=response.request_id,
        input=tokens.input,
        output=tokens.output,
        cache_write_5m=tokens.cache_write_5m,
        cache_write_1h=tokens.cache_write_1h,
        cache_read=tokens.cache_read,
        time=_epoch(response.timestamp),
        model=response.model,
        agent=response.agent_id,
        speed=response.speed,
        inference_geo=response.inference_geo,
        cost=priced.cost if priced is not None else None,
        price=priced.price if priced is not None else None,
        reason=priced.reason if priced is not None else None,
        tools="\n".join(response.tool_names) or None,
        cache_write_unsplit=tokens.cache_write_unsplit,
    )


def call_claim(
    key: str, status: str, name: str, started: datetime | None, seconds: float | None
) -> Claim:
    """The claim of a tool call."""
    return Claim(CLAIM_CALL, key, status=status, name=name, time=_epoch(started), seconds=seconds)


@dataclass(slots=True)
class SessionDigest:
    """The summary of a session the project and session lists show.

    ``prompts``, ``responses``, ``tool_calls``, ``errors`` (calls that failed) and the tokens
    are the figures of :mod:`cclens.figures.figures` for the session on its own (subagents
    included); ``claims`` lists what they count, so the index can give each response, call and
    prompt another session also holds to the session that counts it.

    ``title`` and ``title_source`` come from the session's own file; the index replaces a
    title taken from a prompt by a summary another file points at this session
    (:mod:`cclens.readers.claude.titles`), through ``tips`` (where its conversations end) and
    ``summaries`` (``(leafUuid, summary, line)`` of the summary records in its file). ``cost``
    (US dollars, ``None`` when no response had a price) and ``unpriced`` price the session's
    responses (:mod:`cclens.index.costs`).
    """

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
    prompts: int = 0
    responses: int = 0
    cache_write_1h_tokens: int = 0
    claims: list[Claim] = field(default_factory=list)
    cost: float | None = None
    unpriced: int = 0
    tips: list[str] = field(default_factory=list)
    summaries: list[tuple[str, str, int]] = field(default_factory=list)
    #: The agent that wrote the session (see :mod:`cclens.readers.agents`).
    agent: str = "claude"

    def count(self, claims: list[Claim]) -> None:
        """Set the figures from ``claims`` (each counted once already)."""
        self.claims = claims
        self.prompts = self.responses = self.tool_calls = self.errors = 0
        tokens = [0, 0, 0, 0, 0]
        for claim in claims:
            kind = claim.kind
            if kind == CLAIM_PROMPT:
                self.prompts += 1
            elif kind == CLAIM_RESPONSE:
                self.responses += 1
                for position, count in enumerate(claim[4:9]):
                    tokens[position] += count
            else:
                self.tool_calls += 1
                self.errors += is_failed(claim.status)  # type: ignore[arg-type]
        self.input_tokens, self.output_tokens = tokens[0], tokens[1]
        self.cache_write_tokens = tokens[2] + tokens[3]
        self.cache_write_1h_tokens = tokens[3]
        self.cache_read_tokens = tokens[4]


def _epoch(moment: datetime | None) -> float | None:
    return moment.timestamp() if moment is not None else None


def _seconds(duration: timedelta | None) -> float | None:
    return duration.total_seconds() if duration is not None else None


def _unique(values: Iterator[str]) -> list[str]:
    return list(dict.fromkeys(values))


def digest(session: Session) -> SessionDigest:
    """Summarise ``session``: its figures as :mod:`cclens.figures.figures` counts them for the
    session on its own, subagents included."""
    found = SessionDigest(
        agent=session.agent,
        title=session.title,
        title_source=session.title_source,
        first_prompt=session.first_prompt[:PREVIEW_LENGTH],
        cwd=session.cwd,
        git_branch=session.git_branch,
        started=_epoch(session.started),
        ended=_epoch(session.ended),
        subagents=len(session.subagents),
        versions=list(session.versions),
        tips=session_tips(session.entries),
        summaries=[
            (record.leaf_uuid, record.summary, entry.line)
            for entry in session.entries
            if isinstance(record := entry.record, SummaryRecord)
            and isinstance(record.summary, str)
            and record.summary.strip()
            and isinstance(record.leaf_uuid, str)
            and record.leaf_uuid
        ],
    )
    for item in session.main_line:
        if isinstance(item, AssistantItem) or (
            isinstance(item, UserItem) and item.kind in ("prompt", "command")
        ):
            found.messages += 1
    everything = session.all_sessions()
    found.models = _unique(model for agent in everything for model in agent.models)
    found.malformed = sum(malformed(agent.diagnostics) for agent in everything)
    claims = [prompt_claim(key, item.timestamp) for key, item in session_prompts(session)]
    costs = CostTally()
    claims += [
        response_claim(response, costs.add_response(response))
        for response in collect_responses([session])
    ]
    claims += [
        call_claim(key, call.status, call.name, call.started, _seconds(call.duration))
        for key, call in session_calls(session)
    ]
    found.count(claims)
    found.cost, found.unpriced = costs.cost, costs.unpriced
    return found


def clean_text(text: str) -> str:
    """``text`` as it is indexed: at most :data:`MAX_TEXT` characters, without the characters
    search uses to mark matches and to set words apart (nor NUL)."""
    text = text[:MAX_TEXT]
    # str.translate walks every character in Python-level steps; these are almost never there.
    for character in _SET_ASIDE:
        if character in text:
            text = text.replace(character, " ")
    return text


def _cut(text: str, start: int, size: int) -> int:
    """Where the piece that begins at ``start`` ends: at a line end in its last quarter, else
    at ``size`` characters, moved back to the start of a word that would be cut in two."""
    limit = start + size
    end = text.rfind("\n", start + size * 3 // 4, limit)
    if end >= 0:
        return end + 1
    if not (WORD_CHARACTER.match(text, limit - 1) and WORD_CHARACTER.match(text, limit)):
        return limit
    # The word around the limit, read backwards from it; one over _LONG_WORD characters (a
    # hash, base64) is cut.
    low = max(start + 1, limit - _LONG_WORD)
    tail = _WORD_RUN.match(text[low:limit][::-1])
    assert tail is not None  # the character before the limit is a word's
    return limit - tail.end() if tail.end() < limit - low else limit


def _last_words(window: str) -> re.Match[str] | None:
    """:data:`OVERLAP_WORDS` words at the start of ``window`` (a reversed text), or ``None``."""
    if window.isascii():
        return _LAST_ASCII_WORDS.match(window)
    if PRIVATE_USE.search(window) is None:
        return _LAST_UNICODE_WORDS.match(window)
    return _LAST_WORDS.match(window)


def _next_start(text: str, start: int, end: int) -> int:
    """Where the piece after ``text[start:end]`` begins: :data:`OVERLAP_WORDS` words before
    ``end``, or as far back as :data:`MAX_OVERLAP` characters allow, at the start of a word."""
    low = max(start + 1, end - MAX_OVERLAP)
    # Read backwards from the end: the words, most recent first (a C-level match, not a
    # Python step per word); a short stretch first, which is nearly always enough.
    for since in dict.fromkeys((max(low, end - _SHORT_OVERLAP), low)):
        back = _last_words(text[since:end][::-1])
        if back is None:
            continue
        found = end - back.end()
        if found > since or not WORD_CHARACTER.match(text, since - 1):
            return found  # (else the last word counted began before the stretch)
    # Fewer words than the overlap in the window: from its first whole word.
    first = TOKEN.search(text, low, end)
    if first is not None and first.start() == low and WORD_CHARACTER.match(text, low - 1):
        first = TOKEN.search(text, first.end(), end)  # the rest of a word begun before
    return first.start() if first is not None else end


def piece_spans(text: str, size: int = PIECE) -> Iterator[tuple[int, int]]:
    """Where :func:`pieces` cuts ``text``: ``(start, end)`` of each part, in order."""
    start = 0
    length = len(text)
    while length - start > size:
        end = _cut(text, start, size)
        yield start, end
        start = _next_start(text, start, end)
    if start < length:
        yield start, length


def pieces(text: str, size: int = PIECE) -> Iterator[str]:
    """``text`` cut into overlapping parts of at most ``size`` characters.

    Each part ends at a line end when there is one in its last quarter, else between two words
    (only a word over 200 characters may be cut); each part after the first begins
    :data:`OVERLAP_WORDS` words before the end of the one before (within :data:`MAX_OVERLAP`
    characters), so any phrase of up to :data:`~cclens.index.read.query.MAX_PHRASE_WORDS` words
    lies whole in one part.
    """
    for start, end in piece_spans(text, size):
        yield text[start:end]


def text_pieces(text: str) -> Iterator[str]:
    """The documents one text becomes, as the index reads them: itself up to
    :data:`SPLIT_ABOVE` characters, else its :func:`pieces`, each with the characters of
    scripts written without spaces set apart (:func:`~cclens.index.words.index_text`)."""
    if len(text) <= SPLIT_ABOVE:
        yield index_text(text)
    else:
        yield from map(index_text, pieces(text))


def _item_documents(item: Item, path: str, subagent: bool) -> Iterator[Document]:
    moment = _epoch(item.timestamp)
    anchor = item.anchor
    subagent = subagent or item.is_sidechain
    if isinstance(item, UserItem):
        if item.kind in _PROMPT_KINDS:
            text = item.text
            if text.strip():
                yield Document(
                    path, anchor, "prompt", clean_text(text), time=moment, subagent=subagent
                )
        return
    if not isinstance(item, AssistantItem):
        return
    failed = item.is_api_error
    for block in item.blocks:
        kind: DocumentKind
        if isinstance(block, TextBlock) and block.text.strip():
            text, kind = block.text, "assistant"
        elif isinstance(block, ThinkingBlock) and block.thinking.strip():
            text, kind = block.thinking, "thinking"
        else:
            continue
        yield Document(path, anchor, kind, clean_text(text), None, failed, moment, anchor, subagent)
    for call in item.tool_calls:
        error = call.is_error
        target = tool_target(call.id)
        text = input_text(call.block.input)
        if text.strip():
            yield Document(
                path,
                anchor,
                "tool_input",
                clean_text(text),
                call.name,
                error,
                moment,
                target,
                subagent,
            )
        result = call.result_text
        if result.strip():
            yield Document(
                path,
                anchor,
                "tool_output",
                clean_text(result),
                call.name,
                error,
                moment,
                target,
                subagent,
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
                row
                for document in _item_documents(item, path, agent.is_subagent)
                for row in document.rows()
            )
    return updates
