"""API responses and their token usage, each counted once however often it was recorded.

Claude Code writes the same response several times: every record split from one streamed
response repeats its ``usage`` (same ``message.id`` and ``requestId``); a resumed session copies
earlier records into a new file; a subagent's records are mirrored into the parent transcript
as ``agent_progress`` records and written again to the agent's own file. So responses are
deduplicated across *all* files read, by ``(message.id, requestId)``:

* records with the same ``message.id`` and ``requestId`` are one response;
* a record without ``requestId`` joins the response with its ``message.id`` (there is one
  unless two requests somehow returned the same id, and then the first);
* a record without ``message.id`` is keyed by its ``requestId``, else by its ``uuid`` (copies
  keep it), else it stands alone;
* ids that fixtures replaced with a bracketed placeholder (``[trimmed for fixture]``) are
  treated as absent.

A response's usage is the last, largest one its records carry: streaming snapshots grow
``output_tokens``, so the record with the most output tokens (then the most tokens overall, then
the latest) holds the final count. Responses from the ``<synthetic>`` model are Claude Code's
own notices, not API calls, and are left out.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path

import msgspec

from ..model import Usage, decode_record
from ..model.blocks import ToolUseBlock
from ..model.progress import AgentProgress
from ..model.records import AssistantRecord, ProgressRecord
from ..parse.read import Entry
from ..parse.session import Session, parse_time
from .tokens import TokenCounts

#: The model name Claude Code gives the messages it writes itself.
SYNTHETIC_MODEL = "<synthetic>"


@dataclass(slots=True)
class Response:
    """One API response, counted once.

    ``session_id``, ``project`` and ``session_title`` name the top-level session it belongs to
    (a subagent's responses belong to the session that spawned it; a response copied into a
    resumed session belongs to the session it was first recorded in). ``agent_id`` is set for
    a subagent's response. ``tool_calls`` are the ``(tool_use id, tool name)`` pairs the
    response asked for. ``path`` and ``line`` say where the counted usage was read.
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
    #: The ``uuid`` of the first record met that carries it (copies keep it).
    uuid: str | None = None

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


def _real_id(text: object) -> str | None:
    if not isinstance(text, str) or not text or text.startswith("["):
        return None
    return text


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


def _occurrences(entries: Iterable[Entry], path: Path, agent: str | None) -> Iterator[_Occurrence]:
    for entry in entries:
        record = entry.record
        agent_id = agent
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


def _size(tokens: TokenCounts) -> tuple[int, int]:
    return (tokens.output, tokens.total)


def _single(found: _Occurrence, session_id: str, project: str, title: str) -> Response:
    """One occurrence as a response of its own (what :func:`_Index.add` folds together)."""
    record = found.record
    message = record.message
    assert message
    tool_calls: list[tuple[str, str]] = []
    seen: set[str] = set()
    for block in message.blocks:
        if isinstance(block, ToolUseBlock):
            tool_id = block.id or f"{block.name}@{found.path}:{found.line}"
            if tool_id not in seen:
                seen.add(tool_id)
                tool_calls.append((tool_id, block.name))
    return Response(
        message_id=_real_id(message.id),
        request_id=_real_id(record.request_id),
        model=message.model or None,
        timestamp=parse_time(record.timestamp),
        session_id=session_id,
        project=project,
        session_title=title,
        agent_id=found.agent_id,
        tokens=TokenCounts.of(found.usage),
        speed=found.usage.speed or None,
        inference_geo=found.usage.inference_geo or None,
        path=found.path,
        line=found.line,
        tool_calls=tool_calls,
        uuid=_real_id(record.uuid),
    )


def response_key(response: Response) -> tuple[str, ...]:
    """The identity a copy of ``response`` is found by in another session: its ``message.id``
    (then matched by ``requestId`` as the module docstring says), else its ``requestId``, else
    its ``uuid``, else the place it was read."""
    if response.message_id is not None:
        return ("message", response.message_id)
    if response.request_id is not None:
        return ("request", response.request_id)
    if response.uuid is not None:
        return ("uuid", response.uuid)
    return ("line", str(response.path), str(response.line))


def _fold(into: Response, later: Response) -> None:
    """Fold ``later`` (another record or copy of the same response) into ``into``."""
    if _size(later.tokens) >= _size(into.tokens):  # the last, largest usage is the final count
        into.tokens = later.tokens
        into.speed = later.speed
        into.inference_geo = later.inference_geo
        into.path, into.line = later.path, later.line
    into.model = into.model or later.model
    into.request_id = into.request_id or later.request_id
    into.uuid = into.uuid or later.uuid
    if later.timestamp is not None and (into.timestamp is None or later.timestamp < into.timestamp):
        into.timestamp = later.timestamp
    if later.tool_calls:
        known = {tool_id for tool_id, _ in into.tool_calls}
        into.tool_calls.extend(call for call in later.tool_calls if call[0] not in known)


class _Index:
    """Folds responses met in reading order into one per API response (module docstring)."""

    def __init__(self, *, copy: bool) -> None:
        #: Keep a copy of each response met first (the caller's are not changed by folding).
        self.copy = copy
        self.by_message: dict[str, list[Response]] = {}
        self.by_other: dict[tuple[str, ...], Response] = {}
        self.responses: list[Response] = []
        #: For each response kept, the place (from 0) of the one it was made from among all
        #: those added.
        self.origins: list[int] = []
        self._added = 0

    def find(self, response: Response) -> Response | None:
        """The response met earlier that ``response`` is a record or copy of, if any."""
        if response.message_id is None:
            return self.by_other.get(response_key(response))
        candidates = self.by_message.get(response.message_id, [])
        for earlier in candidates:
            if earlier.request_id == response.request_id:
                return earlier
        if response.request_id is None and candidates:
            return candidates[0]
        for earlier in candidates:
            if earlier.request_id is None:
                return earlier  # an earlier copy without requestId: the same response
        return None

    def add(self, response: Response) -> None:
        self._added += 1
        earlier = self.find(response)
        if earlier is not None:
            _fold(earlier, response)
            return
        if self.copy:
            response = replace(response, tool_calls=list(response.tool_calls))
        self.responses.append(response)
        self.origins.append(self._added - 1)
        if response.message_id is not None:
            self.by_message.setdefault(response.message_id, []).append(response)
        else:
            self.by_other[response_key(response)] = response


#: One file of a session tree: its path, its records and the agent id of a subagent's file.
SessionFileEntries = tuple[Path, Iterable[Entry], str | None]


def session_responses(
    files: Iterable[SessionFileEntries], *, session_id: str, project: str, title: str = ""
) -> list[Response]:
    """The API responses recorded in one session tree's ``files`` (the session's transcript,
    then its subagents'), each once, attributed to the session ``session_id`` of ``project``.

    Only assistant records and ``agent_progress`` records are read, so a caller may pass just
    those. :func:`merge_responses` then counts a response recorded by several sessions once.
    """
    index = _Index(copy=False)  # the responses are made here
    for path, entries, agent in files:
        for found in _occurrences(entries, path, agent):
            index.add(_single(found, session_id, project, title))
    return index.responses


def merge_responses(
    per_session: Iterable[Iterable[Response]], origins: list[int] | None = None
) -> list[Response]:
    """The responses of several sessions (each from :func:`session_responses`, in reading
    order: oldest session first), with a response recorded by several sessions counted once:
    for the session that recorded it first, with its last, largest usage.

    ``origins``, when given, receives for each response returned the place (from 0, over all
    the responses given) of the one it was first met as.
    """
    index = _Index(copy=True)
    for responses in per_session:
        for response in responses:
            index.add(response)
    if origins is not None:
        origins.extend(index.origins)
    return index.responses


def _files(session: Session) -> Iterator[tuple[Path, list[Entry], str | None]]:
    """Each file of a session tree once: the session's own, then its subagents'."""
    seen: set[Path] = set()
    for each in session.all_sessions():
        if each.path in seen:
            continue  # sidechains kept inside the session file were read with it
        seen.add(each.path)
        yield each.path, each.entries, each.agent_id


def collect_responses(sessions: Iterable[Session]) -> list[Response]:
    """Every API response recorded in ``sessions`` (and their subagents), each counted once.

    Sessions are read oldest first (by their first timestamp, then path), so a response copied
    into a resumed session stays with the session it was first recorded in. Responses come back
    in that reading order.
    """
    ordered = sorted(
        sessions,
        key=lambda s: (s.started is None, s.started or datetime.min, str(s.path)),
    )
    return merge_responses(
        session_responses(
            _files(session),
            session_id=session.session_id,
            project=session.project,
            title=session.title,
        )
        for session in ordered
    )


__all__ = [
    "SYNTHETIC_MODEL",
    "Response",
    "SessionFileEntries",
    "collect_responses",
    "merge_responses",
    "response_key",
    "session_responses",
]
