"""Run the app under uvicorn on a socket bound here, so the served port is always known.

Binding first (port 0 picks a free one) lets the Host check name the exact port served, and
lets tests and benchmarks run a real server in a thread.
"""

from __future__ import annotations

import socket
import threading
from dataclasses import dataclass

import uvicorn
from starlette.applications import Starlette

from .app import create_app
from .settings import Settings


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (IPv6 when the host is an IPv6 address)."""
    family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError:
        sock.close()
        raise
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def _server(settings: Settings, sock: socket.socket) -> tuple[uvicorn.Server, Starlette]:
    settings.port = int(sock.getsockname()[1])
    app = create_app(settings)
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        lifespan="on",
        timeout_graceful_shutdown=2,
    )
    return uvicorn.Server(config), app


def url(settings: Settings) -> str:
    """The address to open in a browser."""
    host = settings.host
    if host in ("0.0.0.0", "::", "[::]"):
        host = "127.0.0.1"
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{settings.port}/"


def run(settings: Settings, sock: socket.socket) -> None:
    """Serve until interrupted (Ctrl-C)."""
    server, _ = _server(settings, sock)
    server.run(sockets=[sock])


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
