"""What each tool of ``cclens mcp`` answers, as plain JSON values, bounded in size.

Every answer is worked out from the index by the functions the rest of cclens uses (search,
the assembled session, the usage figures, the permission audit), cut to the limits below so
that one call never floods a model's context window, and cites where it comes from: the
session key and id, the message's uuid (its anchor) and the ``cclens serve`` address showing
it. :class:`Tools` does not redact; the server passes every answer through
:class:`cclens.redact.Redactor` (unless started with ``--no-redact``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, Literal
from urllib.parse import quote

import msgspec

from ..figures.aggregate import UsageRow
from ..figures.blocks import active_block
from ..figures.period import DateError, Period, parse_date
from ..index import Index, ListError, SearchError, SearchFilters, SessionFilters, SessionSummary
from ..model.blocks import TextBlock, ThinkingBlock
from ..permissions import claude_config_dir
from ..readers.agents import AGENTS
from ..readers.claude import AssistantItem, Item, Session, SystemItem, ToolCall, UserItem
from ..reports.permission_audit import permission_audit
from ..reports.stats import index_stats

#: Limits (documented in docs/mcp.md): the most items one call returns, and the longest text.
MAX_HITS = 50
MAX_SESSIONS = 100
MAX_MESSAGES = 100
MAX_CALLS = 100
MAX_FILES = 500
MAX_ROWS = 100
#: The most recent sessions of a project the permission audit reads.
MAX_AUDITED = 200
MAX_TEXT = 20_000
SNIPPET = 400
#: An answer's JSON stops growing at about this many characters (items after it are left
#: for the next page, which the answer names).
MAX_ANSWER = 60_000

GroupBy = Literal["day", "week", "month", "project", "session", "model", "tool", "block", "agent"]

#: Tools whose input names a file they read, and those that change one.
_READS = frozenset({"Read", "NotebookRead"})
_CHANGES = frozenset({"Write", "Edit", "MultiEdit", "NotebookEdit"})
_SEARCHES = frozenset({"Glob", "Grep", "LS"})


class ToolProblem(Exception):
    """A call the tool cannot answer (unknown session, bad query, bad date); the message says
    what to do instead."""


def cut(text: str, limit: int, *, more: str = "") -> tuple[str, bool]:
    """``text`` to at most ``limit`` characters, with a marker saying how much was left out
    (and ``more``: how to read it) when it was cut."""
    if len(text) <= limit:
        return text, False
    left = len(text) - limit
    marker = f"\n[… {left:,} more characters cut{'; ' + more if more else ''}]"
    return text[:limit] + marker, True


def _agent(name: str | None) -> str | None:
    """The agent named (``claude``, ``codex``…), or ``None`` for every agent."""
    if not name:
        return None
    if name not in AGENTS:
        raise ToolProblem(f"agent: {name!r} is not one of {', '.join(AGENTS)}")
    return name


def _iso(moment: datetime | None) -> str | None:
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z") if moment else None


def _day(text: str | None, name: str) -> date | None:
    if not text:
        return None
    try:
        return parse_date(text[:10])
    except DateError as error:
        raise ToolProblem(f"{name}: {error}") from None


def _moment(text: str | None, name: str, *, end: bool) -> datetime | None:
    """An ISO date or time (UTC when it has no zone); a bare end date includes that day."""
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ToolProblem(f"{name}: {text!r} is not a date (use YYYY-MM-DD)") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    if end and len(text) == len("2025-06-01"):
        moment = moment.replace(hour=23, minute=59, second=59, microsecond=999999)
    return moment


def _page(items: list[Any], offset: int, limit: int, total: int | None = None) -> dict[str, Any]:
    """The paging fields of an answer."""
    total = len(items) if total is None else total
    shown = offset + limit
    return {"offset": offset, "total": total, "next_offset": shown if shown < total else None}


@dataclass(slots=True)
class Tools:
    """The tools over one index. ``serve_url`` is where ``cclens serve`` shows the index
    (links in answers); ``claude_dirs`` are the Claude folders indexed (their settings feed
    the permission audit)."""

    index: Index
    serve_url: str = "http://127.0.0.1:8765"
    claude_dirs: Sequence[Path] = ()

    # --- citing -------------------------------------------------------------------------------

    def url(self, key: str, anchor: str | None = None) -> str:
        """The ``cclens serve`` address of a session, at one message when ``anchor`` is given."""
        address = f"{self.serve_url.rstrip('/')}/sessions/{quote(key, safe='')}"
        return address + (f"#{quote(anchor, safe='')}" if anchor else "")

    def resolve(self, session: str) -> SessionSummary:
        """The session named by a key, a session id, a transcript path or an id prefix."""
        wanted = session.strip()
        found = self.index.find(wanted) if wanted else []
        exact = [summary for summary in found if summary.key == wanted]
        found = exact or found  # a key is exact; a session id may name several copies
        if not found:
            raise ToolProblem(
                f"no session {session!r} in the index; find one with search or list_sessions"
            )
        if len(found) > 1:
            names = ", ".join(summary.key for summary in found[:5])
            raise ToolProblem(
                f"{session!r} names {len(found)} sessions ({names}…); give more of it"
            )
        return found[0]

    def _load(self, summary: SessionSummary) -> Session:
        session = self.index.load(summary.key)
        if session is None:
            raise ToolProblem(f"session {summary.key} is gone from the index")
        return session

    def _summary(self, summary: SessionSummary) -> dict[str, Any]:
        """The session as the sessions view lists it (its figures counted once:
        :mod:`cclens.figures.figures`), with a full link."""
        found = summary.as_json()
        found["url"] = self.absolute(found["url"])
        found["first_prompt"], _ = cut(found["first_prompt"], 1000)
        return found

    # --- search -------------------------------------------------------------------------------

    def absolute(self, address: str) -> str:
        """A ``cclens serve`` page (``/sessions/…``) as a full address."""
        return self.serve_url.rstrip("/") + address if address.startswith("/") else address

    def search(
        self,
        query: str,
        *,
        project: str | None = None,
        agent: str | None = None,
        since: str | None = None,
        until: str | None = None,
        tool: str | None = None,
        kinds: Sequence[str] = (),
        errors_only: bool = False,
        origin: Literal["main", "subagent"] | None = None,
        session: str | None = None,
        limit: int = 10,
        per_session: int = 3,
        offset: int = 0,
        mode: Literal["lexical", "semantic", "hybrid"] | None = None,
        like: tuple[str, str] | None = None,
    ) -> dict[str, Any]:
        """The sessions with the best matches for ``query`` (the query language, filters and
        grouping of ``cclens search``; the answer is what ``cclens search --json`` prints, its
        links full ``cclens serve`` addresses that open at the matching element). ``mode`` and
        ``like`` (session, message anchor: more like this) as :meth:`Index.search_results`."""
        if like is not None:
            like = (self.resolve(like[0]).key, like[1])
        elif not any(character.isalnum() for character in query):
            raise ToolProblem(
                'bad query: it holds no word to look for (give words, "a phrase" or prefix*)'
            )
        key = self.resolve(session).key if session else None
        filters = SearchFilters(
            project=project or None,
            agent=_agent(agent),
            since=_moment(since, "since", end=False),
            until=_moment(until, "until", end=True),
            tool=tool or None,
            kinds=tuple(kinds),
            errors_only=errors_only,
            session=key,
            origin=origin,
        )
        try:
            result = self.index.search_results(
                query,
                filters,
                offset=max(offset, 0),
                limit=1 if key else max(1, min(limit, MAX_HITS)),
                per_session=max(1, min(per_session, MAX_HITS)),
                mode=mode,
                like=like,
            )
        except SearchError as error:
            raise ToolProblem(f"bad query: {error}") from None
        answer = result.as_json()
        for group in answer["groups"]:
            group["url"] = self.absolute(group["url"])
            for hit in group["shown"]:
                hit["url"] = self.absolute(hit["url"])
        answer["next_offset"] = result.offset + len(result.groups) if result.more else None
        answer["hint"] = (
            "Read around a hit with get_messages(session, around=anchor); a session's outline "
            "with get_session; more hits of one session with search(query, session=...)."
        )
        return answer

    # --- sessions -----------------------------------------------------------------------------

    def list_sessions(
        self,
        *,
        text: str | None = None,
        project: str | None = None,
        agent: str | None = None,
        since: str | None = None,
        until: str | None = None,
        model: str | None = None,
        branch: str | None = None,
        errors: bool | None = None,
        archived: bool | None = None,
        sort: str = "last_activity",
        order: Literal["asc", "desc"] | None = None,
        limit: int = 20,
        offset: int = 0,
    ) -> dict[str, Any]:
        """A page of the sessions view (its filters and sorts; the most recently active first
        by default): what ``/api/sessions`` answers, with full ``cclens serve`` links."""
        limit = max(1, min(limit, MAX_SESSIONS))
        filters = SessionFilters(
            text=text or None,
            project=project or None,
            agent=_agent(agent),
            since=_moment(since, "since", end=False),
            until=_moment(until, "until", end=True),
            model=model or None,
            branch=branch or None,
            errors=errors,
            archived=archived,
        )
        try:
            page = self.index.sessions(
                filters, sort=sort, order=order, limit=limit, offset=max(offset, 0)
            )
        except ListError as error:
            raise ToolProblem(str(error)) from None
        answer = page.as_json()
        for row in answer["sessions"]:
            row["url"] = self.absolute(row["url"])
            row["first_prompt"], _ = cut(row["first_prompt"], SNIPPET)
        answer["next_offset"] = page.offset + len(page) if page.more else None
        return answer

    def session_overview(self, session: str) -> dict[str, Any]:
        """One session's outline: where, when, which models, what it cost, what it did."""
        summary = self.resolve(session)
        loaded = self._load(summary)
        overview = self._summary(summary)
        calls = _all_calls(loaded)
        tools: dict[str, dict[str, int]] = {}
        for call in calls:
            counts = tools.setdefault(call.name, {"calls": 0, "errors": 0})
            counts["calls"] += 1
            counts["errors"] += int(call.is_error)
        overview["tools"] = dict(sorted(tools.items(), key=lambda item: -item[1]["calls"]))
        files = _files(calls)
        overview["files"] = {
            "read": len(files["read"]),
            "changed": len(files["changed"]),
            "changed_paths": files["changed"][:20],
        }
        overview["subagents"] = [
            {
                "agent_id": agent.agent_id,
                "description": _agent_description(agent),
                "messages": len(agent.main_line),
                "tool_calls": len(agent.tool_calls),
            }
            for agent in loaded.subagents[:20]
        ]
        overview["compactions"] = [
            {
                "time": _iso(compaction.boundary.timestamp),
                "uuid": compaction.boundary.anchor,
                "trigger": compaction.trigger,
                "pre_tokens": compaction.pre_tokens,
            }
            for compaction in loaded.compactions[:20]
        ]
        overview["hint"] = (
            "Read it with get_messages(session); its calls with get_tool_calls; "
            "its files with get_session_files."
        )
        return overview

    # --- messages -----------------------------------------------------------------------------

    def messages(
        self,
        session: str,
        *,
        start: int = 0,
        limit: int = 20,
        around: str | None = None,
        include_thinking: bool = False,
        include_tool_results: bool = True,
        max_chars: int = 2000,
    ) -> dict[str, Any]:
        """The messages of a session's main line, from ``start`` (or centred on ``around``)."""
        summary = self.resolve(session)
        loaded = self._load(summary)
        limit = max(1, min(limit, MAX_MESSAGES))
        max_chars = max(100, min(max_chars, MAX_TEXT))
        items = [item for item in loaded.main_line if _shown(item)]
        if around:
            position = next((n for n, item in enumerate(items) if _has_anchor(item, around)), None)
            if position is None:
                raise ToolProblem(
                    f"no message {around!r} on the main line of {summary.key}; "
                    "subagent messages are read with the agent's own transcript"
                )
            start = max(0, position - limit // 2)
        start = max(0, start)
        shown: list[dict[str, Any]] = []
        size = 0
        end = start
        for position in range(start, min(len(items), start + limit)):
            message = self._message(
                summary.key,
                position,
                items[position],
                include_thinking,
                include_tool_results,
                max_chars,
            )
            encoded = len(msgspec.json.encode(message))
            if shown and size + encoded > MAX_ANSWER:
                break
            shown.append(message)
            size += encoded
            end = position + 1
        return {
            "session": summary.key,
            "title": summary.title,
            "messages": shown,
            "total": len(items),
            "start": start,
            "next_start": end if end < len(items) else None,
            "hint": "Cut texts end with a marker: read the rest with read_message(session, uuid).",
        }

    def _message(
        self,
        key: str,
        position: int,
        item: Item,
        thinking: bool,
        results: bool,
        max_chars: int,
    ) -> dict[str, Any]:
        anchor = item.anchor
        more = f"read_message(session={key!r}, uuid={anchor!r}, offset={max_chars})"
        found: dict[str, Any] = {
            "index": position,
            "uuid": anchor,
            "time": _iso(item.timestamp),
            "url": self.url(key, anchor),
        }
        if isinstance(item, UserItem):
            found["role"] = "user"
            found["kind"] = item.kind
            found["text"], found["cut"] = cut(item.text, max_chars, more=more)
        elif isinstance(item, AssistantItem):
            found["role"] = "assistant"
            found["model"] = item.model
            text, found["cut"] = cut(_assistant_text(item, thinking), max_chars, more=more)
            found["text"] = text
            found["tool_calls"] = [
                _call_json(call, max_chars=min(max_chars, 1000), result=results)
                for call in item.tool_calls
            ]
        elif isinstance(item, SystemItem):
            found["role"] = "system"
            found["kind"] = item.subtype
            content = getattr(item.record, "content", None)
            found["text"], found["cut"] = cut(str(content or ""), max_chars, more=more)
        return found

    def read_message(
        self, session: str, uuid: str, *, offset: int = 0, length: int = MAX_TEXT
    ) -> dict[str, Any]:
        """The whole text of one message (or of one tool call's input and result), a slice
        at a time."""
        summary = self.resolve(session)
        loaded = self._load(summary)
        length = max(1, min(length, MAX_TEXT))
        offset = max(0, offset)
        text: str | None = None
        for agent in loaded.all_sessions():
            for item in agent.items:
                if _has_anchor(item, uuid):
                    if isinstance(item, UserItem):
                        text = item.text
                    elif isinstance(item, AssistantItem):
                        text = _assistant_text(item, True)
                    else:
                        text = str(getattr(item.first.record, "content", "") or "")
                    break
            if text is None:
                call = agent.tool_calls.get(uuid.removeprefix("tool-"))
                if call is not None:
                    text = (
                        f"{call.name} input:\n{msgspec.json.encode(call.block.input).decode()}\n\n"
                        f"result ({call.status}):\n{call.result_text}"
                    )
            if text is not None:
                break
        if text is None:
            raise ToolProblem(f"no message or tool call {uuid!r} in {summary.key}")
        part = text[offset : offset + length]
        end = offset + len(part)
        return {
            "session": summary.key,
            "uuid": uuid,
            "offset": offset,
            "length": len(text),
            "text": part,
            "next_offset": end if end < len(text) else None,
            "url": self.url(summary.key, uuid),
        }

    # --- tool calls and files -----------------------------------------------------------------

    def tool_calls(
        self,
        session: str,
        *,
        tool: str | None = None,
        status: str | None = None,
        limit: int = 20,
        offset: int = 0,
        max_chars: int = 1000,
    ) -> dict[str, Any]:
        """A session's tool calls (its subagents' too), in order, filtered by tool or status."""
        summary = self.resolve(session)
        loaded = self._load(summary)
        limit = max(1, min(limit, MAX_CALLS))
        max_chars = max(100, min(max_chars, MAX_TEXT))
        calls = [
            call
            for call in _all_calls(loaded)
            if (not tool or call.name.lower() == tool.lower())
            and (not status or _status_matches(call, status))
        ]
        offset = max(0, offset)
        page = calls[offset : offset + limit]
        shown = []
        for call in page:
            found = _call_json(call, max_chars=max_chars, result=True)
            found["uuid"] = call.item.anchor
            found["url"] = self.url(summary.key, f"tool-{call.id}")
            shown.append(found)
        return {"session": summary.key, "calls": shown, **_page(calls, offset, limit)}

    def session_files(self, session: str) -> dict[str, Any]:
        """The files a session (with its subagents) read, changed or searched."""
        summary = self.resolve(session)
        files = _files(_all_calls(self._load(summary)))
        answer: dict[str, Any] = {"session": summary.key, "cwd": summary.cwd}
        for kind, paths in files.items():
            answer[kind] = paths[:MAX_FILES]
            if len(paths) > MAX_FILES:
                answer[f"{kind}_total"] = len(paths)
        return answer

    # --- usage and permissions ----------------------------------------------------------------

    def usage(
        self,
        *,
        by: GroupBy = "day",
        since: str | None = None,
        until: str | None = None,
        project: str | None = None,
        agent: str | None = None,
        limit: int = 31,
    ) -> dict[str, Any]:
        """Tokens and cost (``cclens stats``'s figures) grouped ``by``."""
        limit = max(1, min(limit, MAX_ROWS))
        period = Period(since=_day(since, "since"), until=_day(until, "until"))
        report = index_stats(
            self.index, by=by, period=period, project=project or None, agent=_agent(agent)
        )
        # Time rows: the most recent; the others: the largest.
        timed = by in ("day", "week", "month", "block")
        rows = report.rows[-limit:] if timed else report.rows[:limit]
        answer: dict[str, Any] = {
            "by": by,
            "since": report.since,
            "until": report.until,
            "project": project,
            "agent": agent or None,
            "timezone": report.timezone,
            "prices_as_of": report.prices.as_of,
            "prompts": report.prompts,
            "responses": report.responses,
            "tool_calls": msgspec.to_builtins(report.tool_calls),
            "total": _row_json(report.total),
            "rows": [_row_json(row) for row in rows],
            "rows_total": len(report.rows),
            "unpriced": [
                {"model": model.model, "responses": model.responses, "reason": model.reason}
                for model in report.unpriced
            ],
        }
        if by == "block":
            current = active_block(report.rows)
            answer["active_block"] = _row_json(current) if current else None
        return answer

    def permission_audit(self, project: str, *, limit: int = 20) -> dict[str, Any]:
        """What today's permission rules decide for a project's recorded tool calls."""
        limit = max(1, min(limit, 50))
        page = self.index.sessions(SessionFilters(project=project), limit=MAX_AUDITED)
        if not page.total:
            raise ToolProblem(f"no project matches {project!r}; list_sessions shows them")
        sessions: list[Session] = []
        keys: dict[str, str] = {}
        for summary in page:
            loaded = self.index.load(summary.key)
            if loaded is not None:
                sessions.append(loaded)
                keys[loaded.session_id] = summary.key
        home = os.path.expanduser("~")
        claude_dir = (
            str(self.claude_dirs[0])
            if self.claude_dirs
            else claude_config_dir(os.environ, home=home)
        )
        audit = permission_audit(sessions, claude_dir=claude_dir)
        projects = []
        for found in audit.projects:
            rejected = [
                {
                    "tool": call.tool,
                    "subject": call.subject,
                    "session": keys.get(call.session_id, call.session_id),
                    "tool_use_id": call.tool_use_id,
                    "url": self.url(
                        keys.get(call.session_id, call.session_id), f"tool-{call.tool_use_id}"
                    ),
                }
                for call in found.rejected[:limit]
            ]
            projects.append(
                {
                    "project": found.project,
                    "project_dir": found.project_dir,
                    "sessions": len(found.sessions),
                    "calls": len(found.calls),
                    "tools": [msgspec.to_builtins(tool) for tool in found.tools[:limit]],
                    "rejected": rejected,
                    "rejected_total": len(found.rejected),
                    "suggestions": [
                        msgspec.to_builtins(suggestion) for suggestion in found.suggestions[:limit]
                    ],
                    "settings": [msgspec.to_builtins(report) for report in found.settings],
                }
            )
        return {"claude_dir": claude_dir, "projects": projects}


def _row_json(row: UsageRow) -> dict[str, Any]:
    found = msgspec.to_builtins(row)
    assert isinstance(found, dict)
    for key in ("tool", "block", "title", "project"):
        if found.get(key) is None:
            found.pop(key, None)
    return found


def _shown(item: Item) -> bool:
    if isinstance(item, UserItem):
        return item.kind not in ("tool_results", "meta")
    return isinstance(item, AssistantItem | SystemItem)


def _has_anchor(item: Item, anchor: str) -> bool:
    if item.anchor == anchor:
        return True
    return any(getattr(entry.record, "uuid", None) == anchor for entry in item.entries)


def _assistant_text(item: AssistantItem, thinking: bool) -> str:
    parts = []
    for block in item.blocks:
        if isinstance(block, TextBlock) and block.text.strip():
            parts.append(block.text)
        elif thinking and isinstance(block, ThinkingBlock) and block.thinking.strip():
            parts.append(f"[thinking]\n{block.thinking}")
    return "\n\n".join(parts)


def _call_json(call: ToolCall, *, max_chars: int, result: bool) -> dict[str, Any]:
    raw_input = msgspec.json.encode(call.block.input).decode()
    found: dict[str, Any] = {
        "id": call.id,
        "name": call.name,
        "status": call.status,
        "started": _iso(call.started),
        "seconds": call.duration.total_seconds() if call.duration is not None else None,
        "input": cut(raw_input, max_chars, more="read_message(session, uuid='tool-<id>')")[0],
    }
    if result:
        found["result"] = cut(
            call.result_text, max_chars, more="read_message(session, uuid='tool-<id>')"
        )[0]
    if call.subagents:
        found["subagents"] = [agent.agent_id for agent in call.subagents]
    return found


def _status_matches(call: ToolCall, status: str) -> bool:
    """``failed`` is every call that did not succeed; otherwise the status itself."""
    wanted = status.lower()
    return call.is_error if wanted == "failed" else call.status == wanted


def _all_calls(session: Session) -> list[ToolCall]:
    """Every call of the session and its subagents once (sidechains kept in the session file
    are met twice)."""
    seen: set[str] = set()
    calls: list[ToolCall] = []
    for agent in session.all_sessions():
        for call in agent.tool_calls.values():
            key = call.block.id or f"{agent.path}:{call.entry.line}"
            if key not in seen:
                seen.add(key)
                calls.append(call)
    calls.sort(key=lambda call: call.started or datetime.min.replace(tzinfo=UTC))
    return calls


def _path_of(call: ToolCall) -> str | None:
    tool_input = call.block.input
    if not isinstance(tool_input, dict):
        return None
    for field in ("file_path", "notebook_path", "path"):
        value = tool_input.get(field)
        if isinstance(value, str) and value:
            return value
    return None


def _files(calls: Iterable[ToolCall]) -> dict[str, list[str]]:
    found: dict[str, dict[str, None]] = {"read": {}, "changed": {}, "searched": {}}
    for call in calls:
        touched = call.spec.files
        if touched is not None:  # the tool says which files it touched
            for kind, file in touched(call.input, call.result):
                if kind in found:
                    found[kind].setdefault(file, None)
            continue
        path = _path_of(call)
        if path is None:
            continue
        if call.name in _CHANGES:
            found["changed"].setdefault(path, None)
        elif call.name in _READS:
            found["read"].setdefault(path, None)
        elif call.name in _SEARCHES:
            found["searched"].setdefault(path, None)
    return {kind: list(paths) for kind, paths in found.items()}


def _agent_description(agent: Session) -> str | None:
    meta = agent.agent_meta or {}
    description = meta.get("description") if isinstance(meta, dict) else None
    return str(description) if description else (agent.title or None)


__all__ = [
    "MAX_ANSWER",
    "MAX_CALLS",
    "MAX_FILES",
    "MAX_HITS",
    "MAX_MESSAGES",
    "MAX_ROWS",
    "MAX_SESSIONS",
    "MAX_TEXT",
    "SNIPPET",
    "ToolProblem",
    "Tools",
    "cut",
]
