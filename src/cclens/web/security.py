"""What every response goes through: Host check, GET/HEAD only, protective headers.

A pure ASGI middleware (not Starlette's ``BaseHTTPMiddleware``) so server-sent event streams are
not buffered.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The app's own policy: everything from this origin, nothing inline, no framing.
BASE_POLICY: dict[str, list[str]] = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}
#: Sources never accepted from another policy merged in.
_REFUSED = {"'unsafe-eval'", "'strict-dynamic'", "*", "http:", "https:"}


def parse_policy(policy: str) -> dict[str, list[str]]:
    """A Content-Security-Policy string as ``{directive: [sources]}``."""
    parsed: dict[str, list[str]] = {}
    for part in policy.split(";"):
        words = part.split()
        if words:
            parsed.setdefault(words[0].lower(), []).extend(words[1:])
    return parsed


def content_security_policy(extra: Iterable[str] = ()) -> str:
    """The app's policy, widened by the directives of ``extra`` policies (the renderer's).

    Sources from the renderer's policy (hashes for its own inline styles or scripts, say) are
    added; wildcards and ``'unsafe-eval'`` never are.
    """
    merged = {directive: list(sources) for directive, sources in BASE_POLICY.items()}
    for policy in extra:
        for directive, sources in parse_policy(policy).items():
            if directive in ("frame-ancestors", "report-uri", "report-to", "sandbox"):
                continue
            target = merged.setdefault(directive, list(merged["default-src"]))
            for source in sources:
                if source not in target and source not in _REFUSED:
                    target.append(source)
    for sources in merged.values():
        if "'none'" in sources and len(sources) > 1:
            sources.remove("'none'")
    return "; ".join(f"{directive} {' '.join(sources)}" for directive, sources in merged.items())


def _headers(scope: Scope) -> Mapping[bytes, bytes]:
    return dict(scope.get("headers", []))


class Guard:
    """Refuse requests for another host (400) or with another method (405); add headers."""

    def __init__(self, app: ASGIApp, allowed_hosts: frozenset[str], policy: str) -> None:
        self.app = app
        self.allowed_hosts = allowed_hosts
        self.extra_headers = [
            (b"content-security-policy", policy.encode()),
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"no-referrer"),
            (b"x-frame-options", b"DENY"),
            (b"cross-origin-opener-policy", b"same-origin"),
            (b"cross-origin-resource-policy", b"same-origin"),
        ]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await send({"type": "websocket.close", "code": 1008})
            return
        host = _headers(scope).get(b"host", b"").decode("latin-1").lower()
        if host not in self.allowed_hosts:
            await self._refuse(send, 400, b"Bad Request: unexpected Host header\n")
            return
        if scope["method"] not in ("GET", "HEAD"):
            await self._refuse(send, 405, b"Method Not Allowed: cclens only reads\n")
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [
                    (name, value)
                    for name, value in message.get("headers", [])
                    if name.lower() not in {name for name, _ in self.extra_headers}
                ]
                message = {**message, "headers": headers + self.extra_headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)

    async def _refuse(self, send: Send, status: int, body: bytes) -> None:
        headers = [
            (b"content-type", b"text/plain; charset=utf-8"),
            (b"content-length", str(len(body)).encode()),
            *self.extra_headers,
        ]
        if status == 405:
            headers.append((b"allow", b"GET, HEAD"))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
