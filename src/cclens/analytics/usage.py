"""API responses and their token usage, each counted once however often it was recorded.

Claude Code writes the same response several times: every record split from one streamed
response repeats its ``usage`` (same ``message.id`` and ``requestId``); a resumed session copies
earlier records into a new file; a subagent's records are mirrored into the parent transcript
as ``agent_progress`` records and written again to the agent's own file. So responses are
deduplicated across *all* files read, by the identities of :mod:`cclens.analytics.identity`,
and each belongs to the first session in reading order that recorded it.

A response's usage is the last, largest one its records carry: streaming snapshots grow
``output_tokens``, so the record with the most output tokens (then the most tokens overall, then
the latest) holds the final count. Responses from the ``<synthetic>`` model are Claude Code's
own notices, not API calls, and are left out.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import msgspec

from ..model import Usage, decode_record
from ..model.blocks import ToolUseBlock
from ..model.progress import AgentProgress
from ..model.records import AssistantRecord, ProgressRecord
from ..parse.read import Entry
from ..parse.session import Session, parse_time
from .identity import ResponseMatcher, reading_order, real_id, response_fallback
from .tokens import TokenCounts

#: The model name Claude Code gives the messages it writes itself.
SYNTHETIC_MODEL = "<synthetic>"


@dataclass(slots=True)
class Response:
    """One API response, counted once.

    ``session_id``, ``project``, ``session_title`` and ``session_path`` name the top-level
    session it belongs to (a subagent's responses belong to the session that spawned it; a
    response copied into a resumed session belongs to the first session in reading order that
    recorded it). ``agent_id`` is set for a subagent's response. ``tool_calls`` are the
    ``(tool_use id, tool name)`` pairs the response asked for. ``path`` and ``line`` say where
    the counted usage was read.
    """

    message_id: str | None
    request_id: str | None
    model: str | None
    timestamp: datetime | None
    session_id: str
    project: str
    session_title: str
    agent_id: str | None
    tokens: TokenCounts
    speed: str | None
    inference_geo: str | None
    path: Path
    line: int
    tool_calls: list[tuple[str, str]] = field(default_factory=list)
    session_path: Path = Path()

    @property
    def tool_names(self) -> list[str]:
        """The names of the tools the response called, one per call."""
        return [name for _, name in self.tool_calls]


@dataclass(slots=True)
class _Occurrence:
    """One record carrying a response's usage, and where it was found."""

    record: AssistantRecord
    usage: Usage
    path: Path
    line: int
    agent_id: str | None


def _mirrored(record: ProgressRecord) -> AssistantRecord | None:
    """The subagent response an ``agent_progress`` record mirrors, if it holds one."""
    data = record.data
    if not isinstance(data, AgentProgress) or not isinstance(data.message, dict):
        return None
    if data.message.get("type") != "assistant":
        return None
    try:
        decoded = decode_record(msgspec.json.encode(data.message)).value
    except msgspec.DecodeError:
        return None
    return decoded if isinstance(decoded, AssistantRecord) else None


def _occurrences(
    entries: Iterable[Entry], path: Path, agent: str | None, inline: dict[int, str | None]
) -> Iterator[_Occurrence]:
    for entry in entries:
        record = entry.record
        agent_id = inline.get(id(entry), agent)
        if isinstance(record, ProgressRecord):
            mirrored = _mirrored(record)
            if mirrored is None:
                continue
            data = record.data
            assert isinstance(data, AgentProgress)
            agent_id = data.agent_id or agent
            record_found: AssistantRecord = mirrored
        elif isinstance(record, AssistantRecord):
            record_found = record
        else:
            continue
        message = record_found.message
        if not message or not isinstance(message.usage, Usage):
            continue
        if message.model == SYNTHETIC_MODEL:
            continue
        # Sidechain records kept inside a session file (Claude Code 1.x) name their agent.
        agent_id = agent_id or record_found.agent_id or None
        yield _Occurrence(record_found, message.usage, path, entry.line, agent_id)


def _size(usage: Usage) -> tuple[int, int]:
    return (usage.output_tokens or 0, usage.total_tokens)


@dataclass(slots=True)
class _Builder:
    """A response being put together from its occurrences."""

    response: Response
    usage: Usage
    tool_ids: set[str] = field(default_factory=set)

    def add(self, found: _Occurrence) -> None:
        message = found.record.message
        assert message
        response = self.response
        if _size(found.usage) >= _size(self.usage):
            self.usage = found.usage
            response.tokens = TokenCounts.of(found.usage)
            response.speed = found.usage.speed or None
            response.inference_geo = found.usage.inference_geo or None
            response.path, response.line = found.path, found.line
        # A subagent's response mirrored in its parent's transcript may not name the agent;
        # its own file does.
        response.agent_id = response.agent_id or found.agent_id
        response.model = response.model or message.model or None
        response.request_id = response.request_id or real_id(found.record.request_id)
        when = parse_time(found.record.timestamp)
        if when is not None and (response.timestamp is None or when < response.timestamp):
            response.timestamp = when
        for block in message.blocks:
            if isinstance(block, ToolUseBlock):
                tool_id = block.id or f"{block.name}@{found.path}:{found.line}"
                if tool_id not in self.tool_ids:
                    self.tool_ids.add(tool_id)
                    response.tool_calls.append((tool_id, block.name))


class _Index:
    """Finds the response an occurrence belongs to (see :mod:`cclens.analytics.identity`)."""

    def __init__(self) -> None:
        self.matcher: ResponseMatcher[_Builder] = ResponseMatcher()
        self.builders: list[_Builder] = []

    def add(self, found: _Occurrence, session: Session) -> None:
        message = found.record.message
        assert message
        message_id = real_id(message.id)
        request_id = real_id(found.record.request_id)
        fallback = response_fallback(request_id, real_id(found.record.uuid), found.path, found.line)
        match = self.matcher.find(message_id, request_id, fallback)
        if match is None:
            response = Response(
                message_id=message_id,
                request_id=request_id,
                model=message.model or None,
                timestamp=None,
                session_id=session.session_id,
                project=session.project,
                session_title=session.title,
                agent_id=found.agent_id,
                tokens=TokenCounts.of(found.usage),
                speed=None,
                inference_geo=None,
                path=found.path,
                line=found.line,
                session_path=session.path,
            )
            builder = _Builder(response, found.usage)
            self.builders.append(builder)
            match = self.matcher.add(message_id, request_id, fallback, builder)
        builder = match.value
        builder.add(found)
        match.request_id = builder.response.request_id


def _files(
    session: Session,
) -> Iterator[tuple[Path, list[Entry], str | None, dict[int, str | None]]]:
    """Each file of a session tree once: the session's own, then its subagents'; with the
    agent of each entry that belongs to a subagent kept inside the same file (Claude Code 1.x
    sidechains, read with the file)."""
    seen: set[Path] = set()
    everything = session.all_sessions()
    for each in everything:
        if each.path in seen:
            continue
        seen.add(each.path)
        inline = {
            id(entry): agent.agent_id
            for agent in everything
            if agent is not each and agent.path == each.path
            for entry in agent.entries
        }
        yield each.path, each.entries, each.agent_id, inline


def collect_responses(sessions: Iterable[Session]) -> list[Response]:
    """Every API response recorded in ``sessions`` (and their subagents), each counted once.

    Sessions are read in reading order (:func:`cclens.analytics.identity.reading_order`), so a
    response copied into a resumed session stays with the session it was first recorded in.
    Responses come back in that order.
    """
    index = _Index()
    for session in reading_order(sessions):
        for path, entries, agent, inline in _files(session):
            for found in _occurrences(entries, path, agent, inline):
                index.add(found, session)
    return [builder.response for builder in index.builders]


__all__ = ["SYNTHETIC_MODEL", "Response", "collect_responses"]
