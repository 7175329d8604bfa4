"""What the request handlers share: the index, the indexer, the renderer, a small page cache."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from jinja2 import Environment
from starlette.requests import Request

from ..index import Index
from ..parse import Item, Session
from .assets import Asset
from .background import Background
from .live import Broker, Indexer
from .permission_store import PermissionsStore
from .session_view import SessionRenderer
from .settings import Settings
from .stats_store import StatsStore

_CACHED_SESSIONS = 6


@dataclass(slots=True)
class Rendered:
    """A session loaded from the index and its drawn body, for one revision of it."""

    session: Session
    #: ``None`` until a page needs it (live updates only draw a few items).
    body: str | None = None
    #: Set when the session view failed and the built-in view drew the session instead.
    problem: str | None = None


@dataclass
class AppState:
    """Everything a handler needs, created once by ``create_app``."""

    settings: Settings
    index: Index
    broker: Broker
    indexer: Indexer
    environment: Environment
    renderer: SessionRenderer
    #: Draws a session when ``renderer`` fails on it: a view's bug never hides a session.
    fallback: SessionRenderer
    assets: dict[str, Asset]
    render_assets: dict[str, Asset]
    #: The dashboard's figures and the permission audits, kept between requests.
    stats: StatsStore
    permissions: PermissionsStore
    #: Where each store's slow first computation runs while a page waits a little for it (one
    #: thread each: a long permission audit never holds up the dashboard).
    stats_worker: Background
    permissions_worker: Background
    #: Set when the server stops: searches under way give up at once.
    stopping: threading.Event = field(default_factory=threading.Event)
    #: Searches running now, and those stopped because their client went away (changed on the
    #: event loop's thread only).
    searches: int = 0
    searches_cancelled: int = 0
    _cache: OrderedDict[tuple[str, int], Rendered] = field(default_factory=OrderedDict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def fragment(self, rendered: Rendered, items: list[Item]) -> str:
        """Items of a session drawn again, by the view that drew (or would draw) its page."""
        drawer = self.fallback if rendered.problem else self.renderer
        return drawer.fragment(rendered.session, items)

    def loaded(self, key: str, revision: int) -> Rendered | None:
        """The session ``key`` at ``revision``, loaded from the index (cached)."""
        with self._lock:
            found = self._cache.get((key, revision))
            if found is not None:
                self._cache.move_to_end((key, revision))
                return found
        session = self.index.load(key)
        if session is None:
            return None
        loaded = Rendered(session)
        with self._lock:
            self._cache[(key, revision)] = loaded
            while len(self._cache) > _CACHED_SESSIONS:
                self._cache.popitem(last=False)
        return loaded

    def rendered(self, key: str, revision: int) -> Rendered | None:
        """The session ``key`` at ``revision``, loaded and drawn (cached: pages reload)."""
        loaded = self.loaded(key, revision)
        if loaded is None or loaded.body is not None:
            return loaded
        try:
            body = self.renderer.body(loaded.session)
        except Exception as error:  # shown on the page, over the plain view
            loaded.problem = f"{type(error).__name__}: {error}"
            body = self.fallback.body(loaded.session)
        loaded.body = body
        return loaded


def app_state(request: Request) -> AppState:
    """The state ``create_app`` attached to the app."""
    state = request.app.state.cclens
    assert isinstance(state, AppState)
    return state
