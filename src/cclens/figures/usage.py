"""API responses and their token usage, each counted once however often it was recorded.

Claude Code writes the same response several times: every record split from one streamed
response repeats its ``usage`` (same ``message.id`` and ``requestId``); a resumed session copies
earlier records into a new file; a subagent's records are mirrored into the parent transcript
as ``agent_progress`` records and written again to the agent's own file. So responses are
deduplicated across *all* files read, by the identities of :mod:`cclens.figures.identity`,
and each belongs to the first session in reading order that recorded it.

A response's usage is the last, largest one its records carry: streaming snapshots grow
``output_tokens``, so the record with the most output tokens (then the most tokens overall, then
the latest) holds the final count. Responses from the ``<synthetic>`` model are Claude Code's
own notices, not API calls, and are left out.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import msgspec

from ..times import parse_time
from .identity import ResponseMatcher, by_project, real_id, response_fallback
from .pricing import PricedCost, PriceTable, response_cost
from .tokens import TokenCounts

if TYPE_CHECKING:
    # The model and the parser are loaded by the functions that read records: the collector
    # alone (the status line's) needs neither.
    from ..model import Usage
    from ..model.entries import Entry
    from ..model.records import AssistantRecord, ProgressRecord
    from ..model.session import Session

#: The model name Claude Code gives the messages it writes itself.
SYNTHETIC_MODEL = "<synthetic>"


class Response(msgspec.Struct):
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
    tool_calls: list[tuple[str, str]] = msgspec.field(default_factory=list)
    session_path: Path = Path()
    #: How another file's copy of it is recognised: its ``message.id``, else
    #: :func:`cclens.figures.identity.response_fallback` of its first record.
    identity: str = ""
    #: The agent that wrote the session (``claude``, ``codex``...).
    session_agent: str = "claude"

    @property
    def tool_names(self) -> list[str]:
        """The names of the tools the response called, one per call."""
        return [name for _, name in self.tool_calls]

    def priced(self, table: PriceTable) -> PricedCost:
        """What the response cost under ``table``: :func:`~cclens.figures.pricing.response_cost`
        of its model, tokens, speed, inference geography and time."""
        return response_cost(
            table,
            self.model,
            self.tokens,
            speed=self.speed,
            inference_geo=self.inference_geo,
            when=self.timestamp,
        )


class LightSplit(Protocol):
    """The ``cache_creation`` breakdown as a light reader has it."""

    @property
    def ephemeral_5m_input_tokens(self) -> int | None: ...
    @property
    def ephemeral_1h_input_tokens(self) -> int | None: ...


class LightUsage(Protocol):
    """A response's ``usage`` as a light reader has it."""

    @property
    def input_tokens(self) -> int | None: ...
    @property
    def output_tokens(self) -> int | None: ...
    @property
    def cache_creation_input_tokens(self) -> int | None: ...
    @property
    def cache_read_input_tokens(self) -> int | None: ...
    @property
    def cache_creation(self) -> LightSplit | None: ...
    @property
    def speed(self) -> str | None: ...
    @property
    def inference_geo(self) -> str | None: ...


class LightMessage(Protocol):
    """An assistant ``message`` as a light reader has it."""

    @property
    def id(self) -> str | None: ...
    @property
    def model(self) -> str | None: ...


class LightRecord(Protocol):
    """An assistant record as a light reader has it."""

    @property
    def uuid(self) -> str | None: ...
    @property
    def request_id(self) -> str | None: ...
    @property
    def timestamp(self) -> str | None: ...


class Occurrence(msgspec.Struct):
    """One record carrying a response's usage, reduced to what counting it needs.

    Ids are real ids (:func:`cclens.figures.identity.real_id`) or ``None``; ``size`` is
    ``(output tokens, every token as recorded)``, which picks the final streaming snapshot;
    ``tool_uses`` are the ``(tool_use id, name)`` of the record's ``tool_use`` blocks.
    """

    message_id: str | None
    request_id: str | None
    uuid: str | None
    model: str | None
    timestamp: str | None
    tokens: TokenCounts
    size: tuple[int, int]
    speed: str | None
    inference_geo: str | None
    path: Path
    line: int
    agent_id: str | None
    tool_uses: list[tuple[str | None, str]]

    @classmethod
    def read(
        cls,
        record: LightRecord,
        message: LightMessage,
        usage: LightUsage,
        *,
        path: Path,
        line: int,
        agent_id: str | None,
        tool_uses: list[tuple[str | None, str]],
    ) -> Occurrence:
        """The occurrence of a record read by one of the light readers (the index's view of a
        transcript, the status line's reader of appended lines): the same counts as
        :meth:`of` gives for the full model's record."""
        split = usage.cache_creation
        output = usage.output_tokens or 0
        return cls(
            message_id=real_id(message.id),
            request_id=real_id(record.request_id),
            uuid=real_id(record.uuid),
            model=message.model or None,
            timestamp=record.timestamp or None,
            tokens=TokenCounts.from_counts(
                usage.input_tokens,
                usage.output_tokens,
                usage.cache_creation_input_tokens,
                usage.cache_read_input_tokens,
                split.ephemeral_5m_input_tokens if split is not None else None,
                split.ephemeral_1h_input_tokens if split is not None else None,
            ),
            size=(
                output,
                (usage.input_tokens or 0)
                + output
                + (usage.cache_creation_input_tokens or 0)
                + (usage.cache_read_input_tokens or 0),
            ),
            speed=usage.speed or None,
            inference_geo=usage.inference_geo or None,
            path=path,
            line=line,
            agent_id=agent_id,
            tool_uses=tool_uses,
        )

    @classmethod
    def of(
        cls, record: AssistantRecord, usage: Usage, path: Path, line: int, agent_id: str | None
    ) -> Occurrence:
        """The occurrence of an assistant record of the full model."""
        from ..model.blocks import ToolUseBlock

        message = record.message
        assert message
        return cls(
            message_id=real_id(message.id),
            request_id=real_id(record.request_id),
            uuid=real_id(record.uuid),
            model=message.model or None,
            timestamp=record.timestamp or None,
            tokens=TokenCounts.of(usage),
            size=(usage.output_tokens or 0, usage.total_tokens),
            speed=usage.speed or None,
            inference_geo=usage.inference_geo or None,
            path=path,
            line=line,
            agent_id=agent_id,
            tool_uses=[
                (block.id or None, block.name)
                for block in message.blocks
                if isinstance(block, ToolUseBlock)
            ],
        )


def mirrored_response(record: ProgressRecord) -> AssistantRecord | None:
    """The subagent response an ``agent_progress`` record mirrors, if it holds one."""
    from ..model import decode_record
    from ..model.progress import AgentProgress
    from ..model.records import AssistantRecord

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


def counted_record(
    record: AssistantRecord | ProgressRecord, agent: str | None
) -> tuple[AssistantRecord, Usage, str | None] | None:
    """The response record ``record`` holds (itself, or the subagent response an
    ``agent_progress`` record mirrors), its usage and the agent it belongs to; ``None`` when it
    holds no usage to count (``<synthetic>`` messages are Claude Code's own notices)."""
    from ..model import Usage
    from ..model.progress import AgentProgress
    from ..model.records import ProgressRecord

    agent_id = agent
    if isinstance(record, ProgressRecord):
        mirrored = mirrored_response(record)
        if mirrored is None:
            return None
        data = record.data
        assert isinstance(data, AgentProgress)
        agent_id = data.agent_id or agent
        record = mirrored
    message = record.message
    if not message or not isinstance(message.usage, Usage) or message.model == SYNTHETIC_MODEL:
        return None
    # Sidechain records kept inside a session file (Claude Code 1.x) name their agent.
    return record, message.usage, agent_id or record.agent_id or None


def occurrences(
    entries: Iterable[Entry],
    path: Path,
    agent: str | None = None,
    inline: dict[int, str | None] | None = None,
) -> Iterator[Occurrence]:
    """The records of ``entries`` (read from ``path``) that carry a response's usage, as
    occurrences; ``agent`` is the file's subagent, ``inline`` the subagent of entries (by
    ``id``) that belong to one kept inside the file."""
    from ..model.records import AssistantRecord, ProgressRecord

    inline = inline or {}
    for entry in entries:
        record = entry.record
        if not isinstance(record, AssistantRecord | ProgressRecord):
            continue
        found = counted_record(record, inline.get(id(entry), agent))
        if found is not None:
            yield Occurrence.of(found[0], found[1], path, entry.line, found[2])


class _Builder(msgspec.Struct):
    """A response being put together from its occurrences."""

    response: Response
    size: tuple[int, int]
    tool_ids: set[str] = msgspec.field(default_factory=set)

    def add(self, found: Occurrence) -> None:
        response = self.response
        if found.size >= self.size:
            self.size = found.size
            response.tokens = found.tokens
            response.speed = found.speed
            response.inference_geo = found.inference_geo
            response.path, response.line = found.path, found.line
        # A subagent's response mirrored in its parent's transcript may not name the agent;
        # its own file does.
        response.agent_id = response.agent_id or found.agent_id
        response.model = response.model or found.model
        response.request_id = response.request_id or found.request_id
        when = parse_time(found.timestamp)
        if when is not None and (response.timestamp is None or when < response.timestamp):
            response.timestamp = when
        for block_id, name in found.tool_uses:
            tool_id = block_id or f"{name}@{found.path}:{found.line}"
            if tool_id not in self.tool_ids:
                self.tool_ids.add(tool_id)
                response.tool_calls.append((tool_id, name))


class Owner(msgspec.Struct, frozen=True):
    """The session a response is counted for: its id, project, title, path and agent."""

    session_id: str
    project: str
    title: str
    path: Path
    agent: str = "claude"

    @classmethod
    def of(cls, session: Session) -> Owner:
        return cls(session.session_id, session.project, session.title, session.path, session.agent)


class ResponseCollector:
    """Puts responses together from their occurrences, each response once (see
    :mod:`cclens.figures.identity`); the first owner to record one counts it."""

    def __init__(self) -> None:
        self.matcher: ResponseMatcher[_Builder] = ResponseMatcher()
        self.builders: list[_Builder] = []

    def add(self, found: Occurrence, owner: Owner) -> None:
        """One occurrence, recorded by ``owner``."""
        # Only a record without a message id is known by its other ids or its place.
        fallback = (
            ""
            if found.message_id is not None
            else response_fallback(found.request_id, found.uuid, found.path, found.line)
        )
        match = self.matcher.find(found.message_id, found.request_id, fallback)
        if match is None:
            response = Response(
                message_id=found.message_id,
                request_id=found.request_id,
                model=found.model,
                timestamp=None,
                session_id=owner.session_id,
                project=owner.project,
                session_title=owner.title,
                agent_id=found.agent_id,
                tokens=found.tokens,
                speed=None,
                inference_geo=None,
                path=found.path,
                line=found.line,
                session_path=owner.path,
                session_agent=owner.agent,
                identity=found.message_id or fallback,
            )
            builder = _Builder(response, found.size)
            self.builders.append(builder)
            match = self.matcher.add(found.message_id, found.request_id, fallback, builder)
        builder = match.value
        builder.add(found)
        match.request_id = builder.response.request_id

    def responses(self) -> list[Response]:
        """Every response, in the order first met."""
        return [builder.response for builder in self.builders]


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

    Each project is counted on its own, its sessions in reading order
    (:mod:`cclens.figures.identity`), so a response copied into a resumed session stays with
    the session it was first recorded in. Responses come back in that order.
    """
    found_all: list[Response] = []
    for project in by_project(sessions):
        collector = ResponseCollector()
        for session in project:
            owner = Owner.of(session)
            for path, entries, agent, inline in _files(session):
                for found in occurrences(entries, path, agent, inline):
                    collector.add(found, owner)
        found_all += collector.responses()
    return found_all


__all__ = [
    "SYNTHETIC_MODEL",
    "Occurrence",
    "Owner",
    "Response",
    "ResponseCollector",
    "collect_responses",
    "counted_record",
    "mirrored_response",
    "occurrences",
]
