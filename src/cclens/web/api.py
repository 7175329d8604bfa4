"""The JSON API behind the pages (documented in docs/web.md) and the event streams."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

import msgspec
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from ..index import SessionSummary
from ..model import JsonStream, iter_compact, to_builtins
from ..readers.claude import AssistantItem, Item, Session, UserItem
from .state import Rendered, app_state


class JSONResponse(Response):
    """JSON encoded by msgspec (a large transcript encodes several times faster)."""

    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return msgspec.json.encode(content)


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def item_json(item: Item) -> dict[str, Any]:
    """One item: what it is, where it sits, its text and tool calls, and its raw records."""
    found: dict[str, Any] = {
        "anchor": item.anchor,
        "type": type(item).__name__.removesuffix("Item").lower(),
        "main": item.main,
        "branch": item.branch,
        "time": _iso(item.timestamp),
        "lines": [entry.line for entry in item.entries],
    }
    if isinstance(item, UserItem):
        found["kind"] = item.kind
        found["text"] = item.text
    if isinstance(item, AssistantItem):
        found["model"] = item.model
        found["text"] = item.text
        found["tool_calls"] = [
            {
                "id": call.id,
                "name": call.name,
                "status": call.status,
                "input": call.block.input,
                "result_text": call.result_text,
                "duration_seconds": call.duration.total_seconds() if call.duration else None,
                "subagents": [agent.agent_id for agent in call.subagents],
            }
            for call in item.tool_calls
        ]
    found["records"] = [to_builtins(entry.record) for entry in item.entries]
    return found


def items_json(session: Session) -> Iterator[dict[str, Any]]:
    """Each item of ``session`` (:func:`item_json`), and after an item whose record is followed
    by quiet lines (:class:`~cclens.model.entries.QuietLines`) one item per line, its
    ``anchor``, ``lines`` and ``records`` its own (a line the same as the one before is one
    of its ``lines``, as the reader folds such lines into one record)."""
    for item in session.items:
        found = item_json(item)
        yield found
        for entry in item.entries:
            for line, count, written in entry.quiet_records():
                yield found | {
                    "anchor": f"line-{line}",
                    "lines": list(range(line, line + count)),
                    "records": [msgspec.json.decode(written)],
                }


def transcript_json(session: Session) -> dict[str, Any]:
    """A session's items, and its subagents' (nested the same way); its items are a
    :class:`~cclens.model.JsonStream`, written as they are made
    (:func:`cclens.model.iter_compact`)."""
    return {
        "agent_id": session.agent_id,
        "parent_tool_use_id": session.parent_tool_use_id,
        "diagnostics": [
            {"line": d.line, "reason": d.reason, "excerpt": d.excerpt}
            | ({"repeats": d.repeats} if d.repeats else {})
            for d in session.diagnostics
        ],
        "items": JsonStream(lambda: items_json(session)),
        "subagents": [transcript_json(agent) for agent in session.subagents],
    }


def _missing(what: str) -> JSONResponse:
    return JSONResponse({"error": f"no {what}"}, status_code=404)


class AskedSession(NamedTuple):
    """The session a request's path names (``{key}``): its summary in the index, and the
    session loaded (:meth:`cclens.web.state.AppState.loaded`)."""

    key: str
    summary: SessionSummary
    loaded: Rendered


def asked_session(request: Request) -> AskedSession | Response:
    """The session the request's path names, or the 404 answer when the index has none."""
    state = app_state(request)
    key = request.path_params["key"]
    summary = state.index.session(key)
    loaded = state.loaded(key, summary.revision) if summary else None
    if summary is None or loaded is None:
        return _missing(f"session {key}")
    return AskedSession(key, summary, loaded)


def session(request: Request) -> Response:
    """``GET /api/sessions/{id}``: the summary and the whole transcript."""
    asked = asked_session(request)
    if isinstance(asked, Response):
        return asked
    _, summary, loaded = asked
    document = {"session": summary.as_json(), "transcript": transcript_json(loaded.session)}
    # Written as its items are made: a million records are never held as JSON values at once.
    return StreamingResponse(iter_compact(document), media_type="application/json")


def status(request: Request) -> Response:
    """``GET /api/status``: what the indexer is doing and what the index holds."""
    state = app_state(request)
    current = state.indexer.status
    totals = state.index.totals()
    return JSONResponse(
        {
            "indexing": current.indexing,
            "updates": current.updates,
            "last_update": current.last_update,
            "last_seconds": current.last_seconds,
            "error": current.error,
            "watching": current.watching,
            "problems": current.problems,
            "projects": totals.projects,
            "sessions": totals.sessions,
            "archived_sessions": totals.archived,
            "searches": state.searches,
            "searches_cancelled": state.searches_cancelled,
        }
    )


_STREAM_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}


def _headers_only(request: Request) -> Response | None:
    """The answer to ``HEAD`` on an event stream: its headers, at once (a stream never ends,
    so answering HEAD the way GET is answered would hold the connection)."""
    if request.method != "HEAD":
        return None
    return Response(media_type="text/event-stream", headers=_STREAM_HEADERS)


def events(request: Request) -> Response:
    """``GET /api/events``: a server-sent event each time the index changes."""
    broker = app_state(request).broker
    head = _headers_only(request)
    if head is not None:
        return head
    return StreamingResponse(
        broker.stream(lambda event: True),
        media_type="text/event-stream",
        headers=_STREAM_HEADERS,
    )


def session_events(request: Request) -> Response:
    """``GET /api/sessions/{id}/events``: an event each time that session changes (404 for a
    session the index does not hold)."""
    key = request.path_params["key"]
    state = app_state(request)
    if state.index.session(key) is None:
        return _missing(f"session {key}")
    broker = state.broker
    head = _headers_only(request)
    if head is not None:
        return head

    def concerns(event: dict[str, object]) -> bool:
        return any(
            isinstance(keys, list) and key in keys
            for keys in (event.get("added"), event.get("updated"), event.get("archived"))
        )

    return StreamingResponse(
        broker.stream(concerns), media_type="text/event-stream", headers=_STREAM_HEADERS
    )
