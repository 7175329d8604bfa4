"""``/permissions`` and ``/projects/{id}/permissions``: what ``cclens permissions`` shows.

For every recorded tool call, what today's rules decide and by which rule from which settings
file; the calls the user rejected; and the suggested ``PermissionUpdate`` objects, ranked by the
prompts they would have saved, as JSON to copy into a settings file by hand (cclens never
writes settings).
"""

from __future__ import annotations

import sqlite3
import threading
from contextlib import suppress
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from ..index import IndexUnusable
from ..permissions import Suggestion, merge_suggestions, rank
from ..reports.permission_audit import AuditedCall
from .api import JSONResponse
from .pages import not_found, page
from .permission_store import AuditStopped, PermissionsRow, ProjectPermissions
from .state import AppState, app_state
from .templating import path_part

_CALLS_PER_PAGE = 200
_OVERVIEW_SUGGESTIONS = 20
#: Suggestions merged into the "all at once" updates (as ``cclens permissions`` prints them).
_MERGED_SUGGESTIONS = 20
BEHAVIORS = ("allow", "ask", "deny")
DESTINATION_NAMES = {
    "userSettings": "user",
    "projectSettings": "project",
    "localSettings": "local",
    "session": "session",
    "cliArg": "command line",
}


def update_json(value: object) -> str:
    """A ``PermissionUpdate`` as JSON on one line, ready to paste."""
    return msgspec.json.encode(value).decode()


@dataclass(frozen=True, slots=True)
class SuggestionView:
    """A suggested rule, where it applies, and its ``PermissionUpdate`` as JSON."""

    suggestion: Suggestion
    project_name: str
    project_slug: str
    project_dir: str | None
    json: str


@dataclass(frozen=True, slots=True)
class OverviewContext:
    """``permissions.html``: every project with recorded calls (``None`` while the first audit
    of a large index runs), and the suggestions that would save most prompts across them."""

    rows: list[PermissionsRow] | None
    suggestions: list[SuggestionView]
    sessions: int


def _top_suggestions(rows: list[PermissionsRow]) -> list[SuggestionView]:
    found = [
        SuggestionView(
            suggestion, row.project.name, row.project.slug, None, update_json(suggestion.update)
        )
        for row in rows
        for suggestion in row.suggestions
    ]
    found.sort(key=lambda view: rank(view.suggestion))
    return found[:_OVERVIEW_SUGGESTIONS]


def audit_when_indexed(state: AppState) -> threading.Thread:
    """Start a thread that, once the first update is done, audits every project in the
    background (the audits are kept until a session or a settings file changes), so the first
    visit to ``/permissions`` finds them ready rather than a placeholder."""

    def audit() -> None:
        while not state.indexer.ready.wait(0.5):
            if state.stopping.is_set():
                return
        with suppress(sqlite3.Error, IndexUnusable, AuditStopped):
            # Queued on the pages' own worker: a visit meanwhile waits for this same audit.
            state.permissions_worker.within(0, state.permissions.overview)

    thread = threading.Thread(target=audit, name="cclens-permissions", daemon=True)
    thread.start()
    return thread


def permissions_page(request: Request) -> Response:
    """``/permissions``: decisions per project and the best suggestions."""
    state = app_state(request)
    rows = state.permissions.cached_overview() or state.permissions_worker.within(
        state.settings.page_wait_seconds, state.permissions.overview
    )
    context = OverviewContext(
        rows=rows,
        suggestions=_top_suggestions(rows) if rows is not None else [],
        sessions=state.index.totals().sessions,
    )
    return page(state, "permissions.html", overview=context)


@dataclass(frozen=True, slots=True)
class CallView:
    """One audited call and the link to it in its session."""

    call: AuditedCall
    url: str | None


@dataclass(frozen=True, slots=True)
class ProjectPermissionsContext:
    """``project_permissions.html``: a project's audit, one page of its calls, its suggestions.

    ``decision`` is the behavior the calls are filtered by (empty: all); ``matching`` counts the
    calls that pass it; ``previous`` and ``more`` link to the neighbouring pages.
    """

    found: ProjectPermissions
    calls: list[CallView]
    rejected: list[CallView]
    suggestions: list[SuggestionView]
    #: ``(destination, JSON)`` of the best suggestions merged, one update per destination.
    merged: list[tuple[str, str]]
    decision: str
    behaviors: tuple[str, ...]
    offset: int
    matching: int
    previous: str
    more: str
    destinations: dict[str, str]


def _call_view(found: ProjectPermissions, call: AuditedCall) -> CallView:
    key = found.session_keys.get(call.session_id)
    url = f"/sessions/{path_part(key)}#tool-{path_part(call.tool_use_id)}" if key else None
    return CallView(call, url)


def _page_link(request: Request, offset: int) -> str:
    params = [(k, v) for k, v in request.query_params.multi_items() if k != "offset"]
    if offset:
        params.append(("offset", str(offset)))
    return request.url.path + ("?" + urlencode(params) if params else "")


def project_permissions_page(request: Request) -> Response:
    """``/projects/{id}/permissions``: one project's audit, every call in pages of 200."""
    state = app_state(request)
    slug = request.path_params["slug"]
    found = state.permissions.project(slug)
    if found is None:
        return not_found(state, f"project {slug}")
    decision = request.query_params.get("decision", "")
    if decision not in BEHAVIORS:
        decision = ""
    try:
        offset = max(int(request.query_params.get("offset", "0")), 0)
    except ValueError:
        offset = 0
    every = [call for audit in found.audits for call in audit.calls]
    matching = [call for call in every if not decision or call.behavior == decision]
    shown = matching[offset : offset + _CALLS_PER_PAGE]
    suggestions = [
        SuggestionView(s, found.project.name, slug, None, update_json(s.update))
        for s in found.suggestions()
    ]
    merged = merge_suggestions(view.suggestion for view in suggestions[:_MERGED_SUGGESTIONS])
    context = ProjectPermissionsContext(
        found=found,
        calls=[_call_view(found, call) for call in shown],
        rejected=[_call_view(found, c) for audit in found.audits for c in audit.rejected],
        suggestions=suggestions,
        merged=[(update.destination, update_json(update)) for update in merged],
        decision=decision,
        behaviors=BEHAVIORS,
        offset=offset,
        matching=len(matching),
        previous=_page_link(request, max(offset - _CALLS_PER_PAGE, 0)) if offset else "",
        more=_page_link(request, offset + _CALLS_PER_PAGE)
        if offset + _CALLS_PER_PAGE < len(matching)
        else "",
        destinations=DESTINATION_NAMES,
    )
    return page(state, "project_permissions.html", view=context)


def row_json(row: PermissionsRow) -> dict[str, Any]:
    """A project of the overview as ``/api/permissions`` returns it."""
    return {
        "project": row.project.slug,
        "name": row.project.name,
        "claude_dir": row.claude_dir,
        "sessions": row.sessions,
        "calls": row.calls,
        "allow": row.allow,
        "ask": row.ask,
        "deny": row.deny,
        "rejected": row.rejected,
        "suggestions": row.suggestions,
        "url": f"/projects/{path_part(row.project.slug)}/permissions",
    }


def permissions_api(request: Request) -> Response:
    """``GET /api/permissions``: every project's decisions counted, and its best suggestions."""
    rows = app_state(request).permissions.overview()
    return JSONResponse({"projects": [row_json(row) for row in rows]})


def project_permissions_api(request: Request) -> Response:
    """``GET /api/projects/{id}/permissions``: the audit as ``cclens permissions --json``."""
    state = app_state(request)
    slug = request.path_params["slug"]
    found = state.permissions.project(slug)
    if found is None:
        return JSONResponse({"error": f"no project {slug}"}, status_code=404)
    return JSONResponse(
        {
            "claude_dir": found.claude_dir,
            "projects": found.audits,
            "diagnostics": found.diagnostics,
        }
    )


__all__ = [
    "CallView",
    "OverviewContext",
    "ProjectPermissionsContext",
    "SuggestionView",
    "audit_when_indexed",
    "permissions_api",
    "permissions_page",
    "project_permissions_api",
    "project_permissions_page",
]
