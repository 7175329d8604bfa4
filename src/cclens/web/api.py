"""The JSON API behind the pages (documented in docs/web.md) and the event streams."""

from __future__ import annotations

from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from ..index import ProjectSummary, SearchError, SessionSummary
from ..model import to_builtins
from ..parse import AssistantItem, Item, Session, UserItem
from .state import app_state, search_request
from .templating import path_part


class JSONResponse(Response):
    """JSON encoded by msgspec (a large transcript encodes several times faster)."""

    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return msgspec.json.encode(content)


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def project_json(project: ProjectSummary) -> dict[str, Any]:
    """A project as the API returns it."""
    return {
        "id": project.slug,
        "name": project.name,
        "cwd": project.cwd,
        "sessions": project.sessions,
        "archived_sessions": project.archived,
        "first_activity": _iso(project.first_activity),
        "last_activity": _iso(project.last_activity),
        "messages": project.messages,
        "tool_calls": project.tool_calls,
        "tokens": {
            "total": project.tokens,
            "input": project.input_tokens,
            "output": project.output_tokens,
            "cache_read": project.cache_read_tokens,
            "cache_write": project.cache_write_tokens,
        },
        "url": f"/projects/{path_part(project.slug)}",
    }


def session_json(session: SessionSummary) -> dict[str, Any]:
    """A session's summary as the API returns it."""
    return {
        "id": session.key,
        "session_id": session.session_id,
        "project": session.project,
        "path": session.path,
        "title": session.title,
        "title_source": session.title_source,
        "first_prompt": session.first_prompt,
        "cwd": session.cwd,
        "git_branch": session.git_branch,
        "started": _iso(session.started),
        "ended": _iso(session.ended),
        "duration_seconds": session.duration_seconds,
        "messages": session.messages,
        "tool_calls": session.tool_calls,
        "errors": session.errors,
        "subagents": session.subagents,
        "tokens": {
            "total": session.tokens,
            "input": session.input_tokens,
            "output": session.output_tokens,
            "cache_read": session.cache_read_tokens,
            "cache_write": session.cache_write_tokens,
        },
        "models": session.models,
        "versions": session.versions,
        "malformed_lines": session.malformed,
        "archived": session.archived,
        "archived_at": _iso(session.archived_at),
        "revision": session.revision,
        "url": f"/sessions/{path_part(session.key)}",
    }


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


def transcript_json(session: Session) -> dict[str, Any]:
    """A session's items, and its subagents' (nested the same way)."""
    return {
        "agent_id": session.agent_id,
        "parent_tool_use_id": session.parent_tool_use_id,
        "diagnostics": [
            {"line": d.line, "reason": d.reason, "excerpt": d.excerpt} for d in session.diagnostics
        ],
        "items": [item_json(item) for item in session.items],
        "subagents": [transcript_json(agent) for agent in session.subagents],
    }


def _missing(what: str) -> JSONResponse:
    return JSONResponse({"error": f"no {what}"}, status_code=404)


def projects(request: Request) -> Response:
    """``GET /api/projects``."""
    return JSONResponse([project_json(p) for p in app_state(request).index.projects()])


def project_sessions(request: Request) -> Response:
    """``GET /api/projects/{id}/sessions``."""
    index = app_state(request).index
    slug = request.path_params["slug"]
    summary = index.project(slug)
    if summary is None:
        return _missing(f"project {slug}")
    return JSONResponse(
        {
            "project": project_json(summary),
            "sessions": [session_json(s) for s in index.sessions(slug)],
        }
    )


def session(request: Request) -> Response:
    """``GET /api/sessions/{id}``: the summary and the whole transcript."""
    state = app_state(request)
    key = request.path_params["key"]
    summary = state.index.session(key)
    loaded = state.loaded(key, summary.revision) if summary else None
    if summary is None or loaded is None:
        return _missing(f"session {key}")
    return JSONResponse(
        {"session": session_json(summary), "transcript": transcript_json(loaded.session)}
    )


def search(request: Request) -> Response:
    """``GET /api/search?q=...``."""
    wanted = search_request(request)
    if wanted.problem:
        return JSONResponse({"error": wanted.problem}, status_code=400)
    try:
        hits = app_state(request).index.search(
            wanted.query, wanted.filters, limit=wanted.limit, offset=wanted.offset
        )
    except SearchError as error:
        return JSONResponse({"error": str(error)}, status_code=400)
    return JSONResponse(
        {
            "query": wanted.query,
            "offset": wanted.offset,
            "limit": wanted.limit,
            "hits": [hit.as_json() for hit in hits],
        }
    )


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
