"""What every response goes through: Host check, GET/HEAD only, cross-site refusal, the access
token when the server is reachable from other machines, protective headers.

A pure ASGI middleware (not Starlette's ``BaseHTTPMiddleware``) so server-sent event streams are
not buffered.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable, Mapping
from http.cookies import CookieError, SimpleCookie
from urllib.parse import parse_qsl, quote, urlencode

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


#: Paths whose answers are data for the app's own scripts (JSON, event streams, live
#: fragments, its files), never a page a person opens from a link on another site.
_DATA_PREFIXES = ("/api/", "/static/")
_DATA_SUFFIXES = ("/updates",)


def is_page(path: str) -> bool:
    """Whether ``path`` is an HTML page (one a link from elsewhere may open), not data."""
    return not path.startswith(_DATA_PREFIXES) and not path.endswith(_DATA_SUFFIXES)


def cross_site_refusal(
    headers: Mapping[bytes, bytes], path: str, origins: frozenset[str]
) -> str | None:
    """Why a request made on behalf of another web site is refused, or ``None`` to serve it.

    A page on any site the user visits can make the browser send GET requests here (an
    ``<img>``, a ``fetch`` in ``no-cors`` mode): each would make the server search or draw a
    session for nothing. Browsers say where a request comes from: ``Sec-Fetch-Site`` (every
    current browser) and ``Origin`` (scripted requests). A request from another site
    (``cross-site``, or ``same-site``: another port or subdomain of the same site) is served
    only when it is a person following a link to a page (a top-level navigation to an HTML
    page); an ``Origin`` other than the server's own is refused. Requests without these headers
    (curl, scripts on this machine) are served: they are not made by a web page.
    """
    origin = headers.get(b"origin")
    if origin is not None and origin.decode("latin-1").lower() not in origins:
        return "cross-origin request"
    site = headers.get(b"sec-fetch-site", b"").lower()
    if site in (b"cross-site", b"same-site"):
        mode = headers.get(b"sec-fetch-mode", b"").lower()
        destination = headers.get(b"sec-fetch-dest", b"").lower()
        if not (mode == b"navigate" and destination == b"document" and is_page(path)):
            return "cross-site request"
    return None


def local_path(scope: Scope) -> str:
    """The request's path as a relative address of this server: percent-encoded as it came
    (never a line break in a header), and starting with one ``/`` (``//evil.example/`` or
    ``/\\evil.example/`` would be another site to a browser)."""
    raw = scope.get("raw_path")
    path = raw.decode("latin-1") if raw else quote(scope["path"], safe="/:@!$&'()*+,;=-._~%")
    path = path.split("?", 1)[0]
    return "/" + path.lstrip("/\\")


def token_cookie_name(port: int) -> str:
    """The cookie that carries the access token (one per port: cookies ignore ports)."""
    return f"cclens-token-{port}"


def _cookie(headers: Mapping[bytes, bytes], name: str) -> str | None:
    raw = headers.get(b"cookie")
    if not raw:
        return None
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(raw.decode("latin-1"))
    except CookieError:
        return None
    morsel = jar.get(name)
    return morsel.value if morsel is not None else None


def _same(given: str | None, token: str) -> bool:
    """Constant-time comparison, so timing never tells how much of a guess was right."""
    return given is not None and hmac.compare_digest(given.encode(), token.encode())


class Guard:
    """Refuse requests for another host (400), with another method (405), from another web
    site (403), or without the access token when one is set (401); add protective headers.

    ``token``: when set (the server listens beyond this machine), a request must carry it in
    the cookie :func:`token_cookie_name`, an ``Authorization: Bearer`` (or ``token``) header,
    or a ``token`` query parameter. A request that carries it in its address is always
    redirected to the same path of this server without it (setting the cookie), as Jupyter
    does, so the token leaves the address bar and the history, and is never copied into the
    page's links.

    ``every_interface``: the server listens on every interface; the address a request came in
    on (``scope["server"]``) is then a ``Host`` it may name too (the machine's own addresses:
    an address is not a name a DNS rebinding attack can point elsewhere).
    """

    def __init__(
        self,
        app: ASGIApp,
        allowed_hosts: frozenset[str],
        policy: str,
        token: str | None = None,
        port: int = 0,
        every_interface: bool = False,
    ) -> None:
        self.app = app
        self.allowed_hosts = allowed_hosts
        self.origins = frozenset(f"http://{host}" for host in allowed_hosts)
        self.every_interface = every_interface
        self.token = token
        self.cookie = token_cookie_name(port)
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
        headers = _headers(scope)
        host = headers.get(b"host", b"").decode("latin-1").lower()
        origins = self.origins
        if host not in self.allowed_hosts:
            if not self._own_address(scope, host):
                await self._answer(send, 400, b"Bad Request: unexpected Host header\n")
                return
            origins = origins | {f"http://{host}"}
        if scope["method"] not in ("GET", "HEAD"):
            await self._answer(send, 405, b"Method Not Allowed: cclens only reads\n")
            return
        if any(character in scope["path"] for character in "\r\n\x00"):
            await self._answer(send, 400, b"Bad Request: control character in the path\n")
            return
        refusal = cross_site_refusal(headers, scope["path"], origins)
        if refusal is not None:
            body = f"Forbidden: {refusal} refused (open cclens from its own address)\n"
            await self._answer(send, 403, body.encode())
            return
        if self.token is not None and not await self._authorized(scope, headers, send):
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

    def _own_address(self, scope: Scope, host: str) -> bool:
        """Whether ``host`` is the address (and port) the request came in on, when the server
        listens on every interface."""
        server = scope.get("server")
        if not self.every_interface or not server:
            return False
        address, port = str(server[0]).lower(), int(server[1])
        address = address.removeprefix("::ffff:")  # IPv4 through an IPv6 socket
        name = f"[{address}]" if ":" in address else address
        return host in (f"{name}:{port}", name if port == 80 else f"{name}:{port}")

    async def _authorized(self, scope: Scope, headers: Mapping[bytes, bytes], send: Send) -> bool:
        """Whether the request carries the token; answers it (redirect or 401) when not served."""
        assert self.token is not None
        authorized = _same(_cookie(headers, self.cookie), self.token)
        authorization = headers.get(b"authorization", b"").decode("latin-1").split()
        scheme_ok = len(authorization) == 2 and authorization[0].lower() in ("bearer", "token")
        authorized = authorized or (scheme_ok and _same(authorization[1], self.token))
        query = parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        given = [value for name, value in query if name == "token"]
        by_address = bool(given) and _same(given[-1], self.token)
        if given and (authorized or by_address):
            # The token never stays in an address: the same path of this server, without it.
            rest = urlencode([(name, value) for name, value in query if name != "token"])
            location = local_path(scope) + (f"?{rest}" if rest else "")
            more = [(b"location", location.encode("latin-1"))]
            if by_address:
                cookie = f"{self.cookie}={self.token}; Path=/; HttpOnly; SameSite=Strict"
                more.append((b"set-cookie", cookie.encode()))
            await self._answer(send, 303, b"See Other\n", tuple(more))
            return False
        if authorized:
            return True
        await self._answer(
            send,
            401,
            b"Unauthorized: open the address with ?token=... that cclens serve printed\n",
        )
        return False

    async def _answer(
        self, send: Send, status: int, body: bytes, more: tuple[tuple[bytes, bytes], ...] = ()
    ) -> None:
        headers = [
            (b"content-type", b"text/plain; charset=utf-8"),
            (b"content-length", str(len(body)).encode()),
            (b"cache-control", b"no-store"),
            *self.extra_headers,
            *more,
        ]
        if status == 405:
            headers.append((b"allow", b"GET, HEAD"))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
