"""What the web app is told when it is created."""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass, field
from pathlib import Path

from ..index import DEFAULT_SECONDS

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765


@dataclass(slots=True)
class Settings:
    """How ``create_app`` builds the app.

    ``claude_dirs`` are indexed at start (in a background thread) and watched for changes when
    ``watch`` is true. ``port`` must be the port actually served, because requests naming any
    other host or port are refused.
    """

    db_path: Path
    claude_dirs: list[Path] = field(default_factory=list)
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    index_on_start: bool = True
    watch: bool = True
    #: Serving the bundled demo sessions (the home page says so).
    demo: bool = False
    #: Worker processes for a large first index.
    workers: int = 2
    #: Seconds between full rescans while watching (a safety net for missed file events).
    rescan_seconds: float = 30.0
    #: How long the dashboard and permissions pages wait for figures not yet worked out before
    #: they are drawn saying so (their script then fetches them and draws the page again).
    page_wait_seconds: float = 2.0
    #: Audit every project's permissions once the first update is done, so that the first
    #: visit to ``/permissions`` finds the audit ready.
    audit_on_start: bool = True
    #: How long one search may run before it is answered "query too broad".
    search_seconds: float = DEFAULT_SECONDS
    #: The access token every request must carry (``None``: none needed). ``cclens serve``
    #: sets one when it listens beyond this machine, unless told ``--no-auth``.
    token: str | None = None
    #: Threads that answer requests (every handler reads the index and draws in Python, one
    #: core at a time: more threads only hold more memory and take turns more often).
    threads: int = 16

    @property
    def loopback(self) -> bool:
        """Whether only this machine can reach the server."""
        if self.host == "localhost":
            return True
        try:
            return ipaddress.ip_address(self.host.strip("[]")).is_loopback
        except ValueError:
            return False

    def browser_url(self, address: str) -> str:
        """``address`` with the access token, for the first visit (the server then sets a
        cookie and drops it from the address)."""
        return f"{address}?token={self.token}" if self.token else address

    @property
    def every_interface(self) -> bool:
        """Whether the server listens on every interface of the machine."""
        return self.host.lower() in ("0.0.0.0", "::", "[::]")

    def allowed_hosts(self) -> frozenset[str]:
        """The ``Host`` header values a request may carry (DNS rebinding protection)."""
        port = self.port
        host = self.host.lower()
        names = {host, "localhost", "127.0.0.1", "[::1]"}
        if ":" in host and not host.startswith("["):
            names.add(f"[{host}]")
        if self.every_interface:
            # Bound to every interface: the machine's own names are the served host too.
            names.update({socket.gethostname().lower(), socket.getfqdn().lower()})
        allowed = {f"{name}:{port}" for name in names}
        if port == 80:
            allowed.update(names)
        return frozenset(allowed)
