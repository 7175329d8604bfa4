"""What the request handlers share: the index, the indexer, the renderer, a small page cache."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from urllib.parse import quote

from jinja2 import Environment
from starlette.requests import Request

from ..index import Index
from ..index.watch import Broker, Indexer
from ..readers.claude import Item, Session
from .assets import Asset
from .background import Background
from .permission_store import PermissionsStore
from .session_view import DrawnSession, SessionRenderer
from .settings import Settings
from .stats_store import StatsStore

_CACHED_SESSIONS = 6
#: Sessions loaded or drawn at once. Each holds a whole session in memory while it is worked
#: on, and the work is Python (one core at a time): forty request threads doing it together
#: only multiply the memory and make every one of them slower.
_HEAVY_AT_ONCE = 2
#: Locks spread over the sessions, so that requests for the same session wait for one load
#: and one drawing instead of each doing its own.
_STRIPES = 64


@dataclass(slots=True)
class Rendered:
    """A session loaded from the index and its drawn body, for one revision of it."""

    session: Session
    #: ``None`` until a page needs it (live updates only draw a few items).
    body: str | None = None
    #: Set when the session view failed and the built-in view drew the session instead.
    problem: str | None = None
    #: The data the page's script reads (JSON), and what draws a folded part on request.
    drawn: DrawnSession | None = None


def parts_url(key: str) -> str:
    """Where a session page asks for its folded parts (``<url><part id>``)."""
    return f"/sessions/{quote(key, safe='')}/parts/"


def texts_url(key: str) -> str:
    """Where a session page's find asks for the page's text index."""
    return f"/sessions/{quote(key, safe='')}/text"


def images_url(key: str) -> str:
    """Where a session page's images are (``<url><digest>``)."""
    return f"/sessions/{quote(key, safe='')}/images/"


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
    _heavy: threading.BoundedSemaphore = field(
        default_factory=lambda: threading.BoundedSemaphore(_HEAVY_AT_ONCE)
    )
    _stripes: list[threading.Lock] = field(
        default_factory=lambda: [threading.Lock() for _ in range(_STRIPES)]
    )

    def _cached(self, key: str, revision: int) -> Rendered | None:
        with self._lock:
            found = self._cache.get((key, revision))
            if found is not None:
                self._cache.move_to_end((key, revision))
            return found

    def fragment(self, rendered: Rendered, items: list[Item]) -> str:
        """Items of a session drawn again, by the view that drew (or would draw) its page."""
        drawer = self.fallback if rendered.problem else self.renderer
        return drawer.fragment(rendered.session, items)

    def loaded(self, key: str, revision: int) -> Rendered | None:
        """The session ``key`` at ``revision``, loaded from the index (cached)."""
        found = self._cached(key, revision)
        if found is not None:
            return found
        with self._stripes[hash(key) % _STRIPES]:
            found = self._cached(key, revision)  # loaded while this request waited
            if found is not None:
                return found
            with self._heavy:
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
        """The session ``key`` at ``revision``, loaded and drawn (cached: pages reload), its
        header showing what the index counts for it (:meth:`cclens.index.Index.counts`)."""
        loaded = self.loaded(key, revision)
        if loaded is None or loaded.body is not None:
            return loaded
        with self._stripes[hash(key) % _STRIPES]:
            if loaded.body is not None:  # drawn while this request waited
                return loaded
            with self._heavy:
                try:
                    counts = self.index.counts(key)
                    drawn = self.renderer.draw(
                        loaded.session, parts_url(key), counts, images_url(key), texts_url(key)
                    )
                except Exception as error:  # shown on the page, over the plain view
                    loaded.problem = f"{type(error).__name__}: {error}"
                    drawn = self.fallback.draw(loaded.session, parts_url(key))
            loaded.drawn = drawn
            loaded.body = drawn.body
        return loaded

    def _drawn(self, key: str) -> DrawnSession | None:
        """What drew the page of the session ``key`` at its current revision (its parts, its
        images), drawing it if need be; ``None`` for a session the index does not have."""
        summary = self.index.session(key)
        rendered = self.rendered(key, summary.revision) if summary is not None else None
        return rendered.drawn if rendered is not None else None

    def part(self, key: str, part_id: str) -> str | None:
        """A folded part of the session's page, drawn now (``None``: no such part)."""
        drawn = self._drawn(key)
        return drawn.part(part_id) if drawn is not None else None

    def texts(self, key: str) -> bytes | None:
        """The text index of the session's page, as JSON (``None``: no such session)."""
        drawn = self._drawn(key)
        return drawn.texts() if drawn is not None else None

    def image(self, key: str, digest: str) -> tuple[bytes, str] | None:
        """An image the session's page (or a part drawn for it) links to, with its type."""
        drawn = self._drawn(key)
        return drawn.image(digest) if drawn is not None else None


def app_state(request: Request) -> AppState:
    """The state ``create_app`` attached to the app."""
    state = request.app.state.cclens
    assert isinstance(state, AppState)
    return state
