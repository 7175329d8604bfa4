"""Run the app under uvicorn on a socket bound here, so the served port is always known.

Binding first (port 0 picks a free one) lets the Host check name the exact port served, and
lets tests and benchmarks run a real server in a thread.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import socket
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from types import FrameType

import uvicorn
from starlette.applications import Starlette

from .app import create_app
from .settings import Settings


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (IPv6 when the host is an IPv6 address)."""
    family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # Answers go out as a header write then a body write: with Nagle's algorithm the second
    # waits for the client's delayed acknowledgement of the first (40 ms on Linux) whenever
    # the answer is small. Accepted connections inherit the option from this socket on Linux.
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError:
        sock.close()
        raise
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


class _Server(uvicorn.Server):
    """uvicorn's server, stopping the way ``cclens serve`` must: at once and silently.

    Open pages hold server-sent event streams that never end by themselves; uvicorn waits for
    them (``timeout_graceful_shutdown``), then cancels them, logging a ``CancelledError``
    traceback. So the moment a stop is asked (Ctrl-C, SIGTERM) the event broker is closed and
    every stream ends. And uvicorn raises the stop signal again once it has stopped, which
    would kill the process before ``cclens serve`` removes its temporary demo index: here the
    signal, handled, is kept in :attr:`stopped_by` instead.
    """

    def __init__(self, config: uvicorn.Config, app: Starlette) -> None:
        super().__init__(config)
        self._app = app
        #: The signals that stopped the server.
        self.stopped_by: list[int] = []

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        self._app.state.cclens.broker.close()
        super().handle_exit(sig, frame)

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        with super().capture_signals():
            try:
                yield
            finally:
                self.stopped_by = list(self._captured_signals)
                self._captured_signals.clear()


def _server(settings: Settings, sock: socket.socket) -> tuple[_Server, Starlette]:
    settings.port = int(sock.getsockname()[1])
    app = create_app(settings)
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        lifespan="on",
        timeout_graceful_shutdown=2,
    )
    return _Server(config, app), app


def url(settings: Settings) -> str:
    """The address to open in a browser."""
    host = settings.host
    if host in ("0.0.0.0", "::", "[::]"):
        host = "127.0.0.1"
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{settings.port}/"


#: glibc's ``mallopt`` parameter for the number of memory arenas.
_M_ARENA_MAX = -8


def limit_memory_arenas(arenas: int = 2) -> None:
    """Have glibc keep ``arenas`` memory arenas at most (Linux; nothing elsewhere).

    By default glibc gives each thread that allocates its own arena, up to eight per core; a
    server whose threads take turns allocating large strings leaves each arena holding freed
    memory the others cannot reuse, and its resident memory climbs under load and stays up.
    Called before the server's threads start.
    """
    if not sys.platform.startswith("linux"):
        return
    name = ctypes.util.find_library("c")
    if name is None:
        return
    try:
        libc = ctypes.CDLL(name)
        libc.mallopt(_M_ARENA_MAX, arenas)
    except (OSError, AttributeError):
        return  # not glibc (musl has no arenas to limit)


def run(settings: Settings, sock: socket.socket) -> list[int]:
    """Serve until interrupted (Ctrl-C, SIGTERM); the signals that stopped it.

    Stopping ends every event stream at once and returns: the caller cleans up.
    """
    limit_memory_arenas()
    server, _ = _server(settings, sock)
    server.run(sockets=[sock])
    return server.stopped_by


@dataclass
class RunningServer:
    """A server running in a background thread (for tests and benchmarks)."""

    settings: Settings
    server: uvicorn.Server
    thread: threading.Thread
    app: Starlette

    @property
    def url(self) -> str:
        return url(self.settings)

    def stop(self) -> None:
        """Stop serving and wait for the thread (event streams are ended first)."""
        self.app.state.cclens.broker.close()
        self.server.should_exit = True
        self.thread.join(15)


def start(settings: Settings) -> RunningServer:
    """Bind ``settings.host:settings.port`` (0: any free port) and serve in a thread."""
    sock = bind(settings.host, settings.port)
    server, app = _server(settings, sock)
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [sock]}, name="cclens-server", daemon=True
    )
    thread.start()
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError("the server stopped while starting")
        thread.join(0.02)
    return RunningServer(settings, server, thread, app)
