"""Sessions flattened into the rows of the dataset's tables.

:meth:`RowBuilder.session` gives every row of a session: messages and tool calls of each
transcript, and one ``usage`` row per API response as
:func:`cclens.figures.usage.collect_responses` counts them (the numbers ``cclens stats``
shows). :func:`count_once` then drops the responses and tool calls another session already
counted (a resumed session copies them) and fills in the totals of ``sessions`` and
``subagents``. Every free-text value goes through the redactor.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec

from ..figures.figures import session_prompts
from ..figures.identity import ReadingKey, call_key, session_reading_key
from ..figures.pricing import PriceTable, load_price_table
from ..figures.usage import Response, collect_responses
from ..model.blocks import ImageBlock, ThinkingBlock, ToolUseBlock
from ..model.entries import malformed
from ..model.messages import ServerToolUse
from ..model.records import ChainRecord
from ..model.tools import mcp_parts
from ..model.tools.agents import AgentInput
from ..readers.claude import AssistantItem, Session, ToolCall, UserItem
from .agents import subagent_type
from .redaction import Redaction
from .responses import Ledger
from .schema import TABLES
from .select import first_activity, last_activity
from .turns import inline_entry_ids, own_items, split_turns, turn_index

Row = dict[str, Any]

#: Key of a tool call row holding its identity (``cclens.figures.identity.call_key``) until
#: :func:`count_once` uses it.
_COUNT_KEY = "_call_key"
#: Fields of a tool call row that come from its result: a copy with a result gives them to the
#: row that counts the call when that one has none.
#: Key of a usage row holding its response's identity until :func:`count_once` uses it.
_IDENTITY = "_identity"
_RESULT_FIELDS = ("status", "is_error", "finished", "duration_seconds", "result", "result_chars")

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


def project_slug(project: str) -> str:
    """The partition value of a project folder name (safe as a directory name)."""
    slug = _UNSAFE.sub("-", project)
    return slug if slug.strip(".") else slug.replace(".", "-") or "-"


def month_of(moment: datetime | None) -> str:
    """The ``YYYY-MM`` partition value of a time, in UTC; ``unknown`` without one."""
    if moment is None:
        return "unknown"
    return moment.astimezone(UTC).strftime("%Y-%m")


def _seconds(start: datetime | None, end: datetime | None) -> float | None:
    if start is None or end is None:
        return None
    return (end - start).total_seconds()


@dataclass(slots=True)
class SessionRows:
    """The rows of one top-level session, by table, and where they go.

    ``reading_key`` places the session in reading order (the first session to hold a copied
    response, call or prompt counts it); ``prompts`` are the keys of its prompts.
    """

    session_id: str
    project: str
    month: str
    tables: dict[str, list[Row]] = field(default_factory=lambda: {name: [] for name in TABLES})
    reading_key: ReadingKey = ("", 0.0, "", "")
    prompts: list[str] = field(default_factory=list)
    counted_prompts: int = 0


#: Where each response record was read: (file, line) to (agent id, item, turn). Kept only while
#: a session's rows are built, so the rows do not hold on to the parsed session.
Places = dict[tuple[Path, int], tuple[str | None, AssistantItem, int | None]]


class RowBuilder:
    """Turns sessions into rows."""

    def __init__(
        self, machine: str, redaction: Redaction, prices: PriceTable | None = None
    ) -> None:
        self.machine = machine
        self.redaction = redaction
        self.prices = prices or load_price_table()

    def _text(self, value: str | None) -> str | None:
        return self.redaction.text(value) if value else value

    def session(self, session: Session) -> SessionRows:
        """Every row of ``session`` and its subagents; totals are left to :func:`count_once`."""
        started = first_activity(session)
        rows = SessionRows(session.session_id, project_slug(session.project), month_of(started))
        rows.reading_key = session_reading_key(session)
        rows.prompts = [key for key, _ in session_prompts(session)]
        places: Places = {}
        self._transcript(session, None, rows, places)
        self._subagents(session, rows, places)
        base = {"machine": self.machine, "session_id": session.session_id}
        for response in collect_responses([session]):
            rows.tables["usage"].append(base | _usage(response, places, self.prices))
            rows.tables["usage"][-1][_IDENTITY] = response.identity
        tables = rows.tables
        ended = last_activity(session)
        models = list(dict.fromkeys(m for s in session.all_sessions() for m in s.models))
        tables["sessions"].append(
            {
                "machine": self.machine,
                "session_id": session.session_id,
                "agent": session.agent,
                "title": self._text(session.title),
                "title_source": session.title_source,
                "first_prompt": self._text(session.first_prompt),
                "cwd": self._text(session.cwd),
                "git_branch": session.git_branch,
                "version": session.versions[-1] if session.versions else None,
                "versions": session.versions,
                "models": models,
                "started": started,
                "ended": ended,
                "duration_seconds": _seconds(started, ended),
                "turns": sum(1 for turn in split_turns(session) if turn.prompt is not None),
                "messages": len(tables["messages"]),
                "subagents": len(tables["subagents"]),
                "orphan": session.orphan,
                "parent_session_id": session.parent_session_id,
                "branches": len(tables["branches"]),
                "compactions": len(tables["compactions"]),
                "path": self._text(str(session.path)),
                "file_size": session.file_size,
                "lines": session.lines,
                "malformed_lines": sum(malformed(s.diagnostics) for s in session.all_sessions()),
            }
        )
        return rows

    def _subagents(self, parent: Session, rows: SessionRows, places: Places) -> None:
        for agent in parent.subagents:
            agent_id = agent.agent_id or f"unknown-{len(rows.tables['subagents'])}"
            before = {name: len(table) for name, table in rows.tables.items()}
            self._transcript(agent, agent_id, rows, places)
            call = parent.tool_calls.get(agent.parent_tool_use_id or "")
            spawn = call.input if call is not None else None
            spawn = spawn if isinstance(spawn, AgentInput) else None
            agent_type = subagent_type(agent, call)
            rows.tables["subagents"].append(
                {
                    "machine": self.machine,
                    "session_id": rows.session_id,
                    "agent_id": agent_id,
                    "parent_agent_id": parent.agent_id,
                    "tool_use_id": agent.parent_tool_use_id,
                    "agent_type": agent_type,
                    "description": self._text((spawn.description or None) if spawn else None),
                    "source": "inline" if agent.path == parent.path else "file",
                    "started": agent.started,
                    "ended": agent.ended,
                    "duration_seconds": _seconds(agent.started, agent.ended),
                    "messages": len(rows.tables["messages"]) - before["messages"],
                    "models": agent.models,
                }
            )
            self._subagents(agent, rows, places)

    def _transcript(
        self, session: Session, agent_id: str | None, rows: SessionRows, places: Places
    ) -> None:
        """The rows of one transcript (the main session or one subagent), subagents apart."""
        base = {"machine": self.machine, "session_id": rows.session_id, "agent_id": agent_id}
        turns = turn_index(session)
        for item in own_items(session):
            if isinstance(item, UserItem) and not item.record.message:
                continue  # (a user record without a message is no message: nothing was said)
            if isinstance(item, UserItem | AssistantItem):
                rows.tables["messages"].append({**base, **self._message(item, turns)})
            if isinstance(item, AssistantItem):
                for entry in item.entries:
                    places[(session.path, entry.line)] = (agent_id, item, turns.get(id(item)))
        inline = inline_entry_ids(session)
        for call in session.tool_calls.values():
            if id(call.entry) not in inline:
                row = {**base, **self._tool_call(call, turns)}
                row[_COUNT_KEY] = call_key(call.block.id, session.path, call.entry.line, call.name)
                rows.tables["tool_calls"].append(row)
        for index, branch in enumerate(session.branches):
            messages = [i for i in branch.items if isinstance(i, UserItem | AssistantItem)]
            times = [t for i in branch.items if (t := i.timestamp) is not None]
            rows.tables["branches"].append(
                {
                    **base,
                    "branch": index,
                    "fork_uuid": branch.fork,
                    "messages": len(messages),
                    "started": min(times) if times else None,
                }
            )
        for compaction in session.compactions:
            boundary = compaction.boundary
            summary = compaction.summary.text if compaction.summary else None
            rows.tables["compactions"].append(
                {
                    **base,
                    "uuid": boundary.uuid,
                    "timestamp": boundary.timestamp,
                    "trigger": compaction.trigger,
                    "pre_tokens": compaction.pre_tokens,
                    "summary": self._text(summary),
                }
            )

    def _message(self, item: UserItem | AssistantItem, turns: dict[int, int]) -> Row:
        record = item.first.record
        parent = record.parent_uuid if isinstance(record, ChainRecord) else None
        blocks = item.blocks
        text = item.text
        row: Row = {
            "uuid": item.uuid,
            "parent_uuid": parent or None,
            "timestamp": item.timestamp,
            "turn": turns.get(id(item)),
            "is_main": item.main,
            "branch": item.branch,
            "text": self._text(text),
            "text_chars": len(text),
            "images": sum(1 for b in blocks if isinstance(b, ImageBlock)),
            "line": item.first.line,
        }
        if isinstance(item, AssistantItem):
            row |= {
                "role": "assistant",
                "kind": "response",
                "message_id": item.message_id,
                "request_id": item.request_id,
                "model": item.model,
                "stop_reason": item.stop_reason,
                "thinking_chars": sum(
                    len(b.thinking) for b in blocks if isinstance(b, ThinkingBlock)
                ),
                "tool_uses": sum(1 for b in blocks if isinstance(b, ToolUseBlock)),
                "tool_results": 0,
                "is_api_error": item.is_api_error,
            }
        else:
            row |= {
                "role": "user",
                "kind": item.kind,
                "thinking_chars": 0,
                "tool_uses": 0,
                "tool_results": len(item.tool_results),
                "is_api_error": False,
            }
        return row

    def _tool_call(self, call: ToolCall, turns: dict[int, int]) -> Row:
        parts = mcp_parts(call.name)
        record = call.entry.record
        result = call.result_text
        raw_input = call.block.input
        return {
            "tool_use_id": call.id,
            "message_uuid": (record.uuid or None) if isinstance(record, ChainRecord) else None,
            "message_id": call.item.message_id,
            "turn": turns.get(id(call.item)),
            "is_main": call.item.main,
            "name": call.name,
            "tool": call.spec.name,
            "family": call.spec.family,
            "mcp_server": parts.server if parts else None,
            "mcp_tool": parts.tool if parts else None,
            "status": call.status,
            "is_error": call.is_error,
            "started": call.started,
            "finished": call.finished,
            "duration_seconds": _seconds(call.started, call.finished),
            "input": msgspec.json.encode(self.redaction.json(raw_input)).decode(),
            "result": self._text(result) if call.result_block is not None else None,
            "result_chars": len(result) if call.result_block is not None else None,
            "subagent_ids": [a.agent_id for a in call.subagents if a.agent_id],
        }


def _usage(response: Response, places: Places, prices: PriceTable) -> Row:
    place = places.get((response.path, response.line))
    agent_id, item, turn = place if place is not None else (response.agent_id, None, None)
    usage = item.usage if item is not None else None
    server = usage.server_tool_use if usage is not None else None
    server = server if isinstance(server, ServerToolUse) else None
    tokens = response.tokens
    return {
        "agent_id": agent_id,
        "message_id": response.message_id,
        "request_id": response.request_id,
        "message_uuid": item.uuid if item is not None else None,
        "timestamp": response.timestamp,
        "turn": turn,
        "model": response.model,
        "input_tokens": tokens.input,
        "output_tokens": tokens.output,
        "cache_creation_input_tokens": tokens.cache_write,
        "cache_read_input_tokens": tokens.cache_read,
        "cache_write_5m_tokens": tokens.cache_write_5m,
        "cache_write_1h_tokens": tokens.cache_write_1h,
        "total_tokens": tokens.total,
        "cost_usd": response.priced(prices).cost,
        "service_tier": (usage.service_tier or None) if usage is not None else None,
        "web_search_requests": (server.web_search_requests or 0) if server else 0,
        "web_fetch_requests": (server.web_fetch_requests or 0) if server else 0,
    }


_TOKEN_COLUMNS = (
    "input_tokens",
    "output_tokens",
    "cache_creation_input_tokens",
    "cache_read_input_tokens",
)


def _token_sums(usage: list[Row]) -> Row:
    return {column: sum(row[column] for row in usage) for column in _TOKEN_COLUMNS}


def count_once(rows: SessionRows, ledger: Ledger, kept: dict[str, Row]) -> None:
    """Drop the responses and tool calls ``ledger`` has counted already and count the prompts
    it has not (``rows`` in reading order, a session at a time). ``kept`` maps each counted
    call's key to its row: a copy with a result gives its result to a counted call without one.
    """
    tables = rows.tables
    tables["usage"] = [
        u
        for u in tables["usage"]
        if ledger.claim_response(u["message_id"], u["request_id"], u.pop(_IDENTITY))
    ]
    calls = []
    for call in tables["tool_calls"]:
        key = call.pop(_COUNT_KEY)
        if ledger.claim_tool_call(key):
            calls.append(call)
            kept[key] = call
            continue
        counted = kept.get(key)
        if counted is not None and counted["status"] == "pending" and call["status"] != "pending":
            for name in _RESULT_FIELDS:
                counted[name] = call[name]
    tables["tool_calls"] = calls
    rows.counted_prompts = sum(1 for key in rows.prompts if ledger.claim_prompt(key))


def fill_totals(rows: SessionRows) -> None:
    """The totals of what ``rows`` counts (after :func:`count_once` of its project): the
    session row gets those of every transcript, each subagent row its own."""
    tables = rows.tables
    usage, calls = tables["usage"], tables["tool_calls"]
    for session in tables["sessions"]:
        session.update(_token_sums(usage))
        session["prompts"] = rows.counted_prompts
        session["responses"] = len(usage)
        session["tool_calls"] = len(calls)
        session["tool_errors"] = sum(1 for c in calls if c["is_error"])
    for agent in tables["subagents"]:
        agent.update(_token_sums([u for u in usage if u["agent_id"] == agent["agent_id"]]))
        agent["tool_calls"] = sum(1 for c in calls if c["agent_id"] == agent["agent_id"])


__all__ = [
    "Row",
    "RowBuilder",
    "SessionRows",
    "count_once",
    "fill_totals",
    "month_of",
    "project_slug",
]
