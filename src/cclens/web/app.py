"""``create_app``: the Starlette app that serves the index to a browser on this machine."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio.to_thread
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..index import FilterTooLong, Index, IndexUnusable
from ..index.watch import Broker, Indexer
from . import (
    api,
    dashboard,
    limits_panel,
    lists,
    live_block,
    pages,
    permissions_pages,
    search,
    timeline_api,
)
from .assets import Asset, own_assets, renderer_assets
from .background import Background
from .listing import IndexListing
from .permission_store import PermissionsStore
from .security import Guard, content_security_policy
from .session_view import PageRenderer, PlainRenderer
from .settings import Settings
from .state import AppState, app_state
from .stats_store import StatsStore
from .templating import environment


def _serve(asset: Asset | None, request: Request) -> Response:
    if asset is None:
        return Response("Not Found\n", status_code=404, media_type="text/plain")
    headers = {"ETag": asset.etag, "Cache-Control": "no-cache"}
    if request.headers.get("if-none-match") == asset.etag:
        return Response(status_code=304, headers=headers)
    return Response(asset.content, media_type=asset.content_type, headers=headers)


def static(request: Request) -> Response:
    """``/static/{name}``: a key into the in-memory map, never a path on disk."""
    return _serve(app_state(request).assets.get(request.path_params["name"]), request)


def vendor_static(request: Request) -> Response:
    """``/static/vendor/{name}``: a vendored library (see static/vendor/README.md)."""
    name = "vendor/" + request.path_params["name"]
    return _serve(app_state(request).assets.get(name), request)


def render_static(request: Request) -> Response:
    """``/static/render/{name}``: the session renderer's CSS and JS."""
    return _serve(app_state(request).render_assets.get(request.path_params["name"]), request)


def _unavailable(request: Request, exc: Exception) -> Response:
    """The index failed (damaged, read-only or full disk…): say so, in a page or in JSON."""
    assert isinstance(exc, IndexUnusable)
    if request.url.path.startswith("/api/") or request.url.path.endswith("/updates"):
        return api.JSONResponse({"error": str(exc)}, status_code=503)
    return pages.page(app_state(request), "unavailable.html", 503, problem=exc)


def _too_long(request: Request, exc: Exception) -> Response:
    """A filter, a query or a key too long to be one: ``422``, saying which and what to do."""
    assert isinstance(exc, FilterTooLong)
    if request.url.path.startswith("/api/"):
        return api.JSONResponse({"error": str(exc)}, status_code=422)
    return Response(f"Unprocessable: {exc}\n", status_code=422, media_type="text/plain")


def _not_found(request: Request, exc: Exception) -> Response:
    if request.url.path.startswith("/api/"):
        return api.JSONResponse({"error": "not found"}, status_code=404)
    return pages.not_found(app_state(request), request.url.path)


ROUTES = [
    Route("/", lists.home),
    Route("/sessions", lists.sessions),
    Route("/projects", lists.projects),
    Route("/projects/{slug}", lists.project),
    Route("/sessions/{key}", pages.session),
    Route("/sessions/{key}/updates", pages.session_updates),
    Route("/sessions/{key}/parts/{part:path}", pages.session_part),
    Route("/sessions/{key}/images/{digest}", pages.session_image),
    Route("/sessions/{key}/text", pages.session_texts),
    Route("/search", search.search_page),
    Route("/stats", dashboard.stats_page),
    Route("/permissions", permissions_pages.permissions_page),
    Route("/projects/{slug}/permissions", permissions_pages.project_permissions_page),
    Route("/api/projects", lists.api_projects),
    Route("/api/projects/{slug}/sessions", lists.api_project_sessions),
    Route("/api/sessions", lists.api_sessions),
    Route("/api/sessions/{key}", api.session),
    Route("/api/sessions/{key}/resume", lists.api_resume),
    Route("/api/sessions/{key}/events", api.session_events),
    Route("/api/sessions/{key}/timeline", timeline_api.timeline),
    Route("/api/search", search.search_api),
    Route("/api/stats", dashboard.stats_api),
    Route("/api/blocks", live_block.blocks_api),
    Route("/api/limits", limits_panel.limits_api),
    Route("/api/permissions", permissions_pages.permissions_api),
    Route("/api/projects/{slug}/permissions", permissions_pages.project_permissions_api),
    Route("/api/status", api.status),
    Route("/api/events", api.events),
    Route("/static/render/{name}", render_static),
    Route("/static/vendor/{name}", vendor_static),
    Route("/static/{name}", static),
]


def create_app(settings: Settings) -> Starlette:
    """The web app over the index at ``settings.db_path``.

    Opening the index happens now, so a damaged file fails here with
    :class:`~cclens.index.IndexUnusable`. Indexing (and watching, when ``settings.watch``)
    starts with the server, in a background thread: pages answer at once with what is
    already indexed.
    """
    index = Index(settings.db_path)
    env = environment()
    renderer = PageRenderer()
    broker = Broker()
    listing = IndexListing(index)
    stats_worker, permissions_worker = Background(), Background()
    stopping = threading.Event()
    indexer = Indexer(
        index,
        list(settings.claude_dirs) if settings.index_on_start else [],
        broker,
        watch_files=settings.watch and settings.index_on_start,
        workers=settings.workers,
        rescan_seconds=settings.rescan_seconds,
    )
    state = AppState(
        settings=settings,
        index=index,
        broker=broker,
        indexer=indexer,
        environment=env,
        renderer=renderer,
        fallback=PlainRenderer(env),
        assets=own_assets(),
        render_assets=renderer_assets(renderer.static_files()),
        stats=StatsStore(index, listing),
        permissions=PermissionsStore(
            index, settings.claude_dirs, listing=listing, stopping=stopping
        ),
        stats_worker=stats_worker,
        permissions_worker=permissions_worker,
        stopping=stopping,
    )

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # Handlers run on the event loop's thread pool: bounded here, not at anyio's 40.
        anyio.to_thread.current_default_thread_limiter().total_tokens = settings.threads
        broker.bind(asyncio.get_running_loop())
        indexer.start()
        search.learn_when_indexed(state)
        if settings.audit_on_start:
            permissions_pages.audit_when_indexed(state)
        try:
            yield
        finally:
            state.stopping.set()
            broker.close()
            stats_worker.close()
            # An audit under way stops at its next project: wait for it, so that nothing reads
            # the index once it is closed.
            permissions_worker.close(wait=True)
            indexer.stop()
            await asyncio.to_thread(indexer.join, 10)
            index.close()

    policy = content_security_policy([p for p in [renderer.policy()] if p])
    app = Starlette(
        routes=ROUTES,
        middleware=[
            Middleware(
                Guard,
                allowed_hosts=settings.allowed_hosts(),
                policy=policy,
                token=settings.token,
                port=settings.port,
                every_interface=settings.every_interface,
            ),
        ],
        exception_handlers={
            404: _not_found,
            IndexUnusable: _unavailable,
            FilterTooLong: _too_long,
        },
        lifespan=lifespan,
    )
    app.state.cclens = state
    return app
