"""Only this machine's own names reach the servers: a Host check (DNS rebinding) and an Origin check (other sites).

A web page on another site can make a browser send requests to ``127.0.0.1``: either directly (its ``Origin`` is
then that site) or after pointing its own name at ``127.0.0.1`` (DNS rebinding: the ``Host`` header is then that
name). The HTTP API and the served app both accept only the hosts they serve — loopback names, the address they
are bound to and the names in ``CODEQA_ALLOWED_HOSTS`` — for plain requests and WebSocket upgrades alike. The Host
check is Starlette's ``TrustedHostMiddleware``; ``OriginGuard`` refuses a request whose ``Origin`` is not this
server's own (scripts and agents send no ``Origin``; browsers always do on a POST and a WebSocket). An origin is a
scheme, a host *and a port*: a page on ``http://localhost:3000`` is another program's page, not ours.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from codeqa.errors import CodeqaError

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")
MIN_TOKEN_CHARS = 16
MIN_TOKEN_DISTINCT = 8  # "aaaaaaaaaaaaaaaa" is long but guessable; 16 random hex digits have fewer than 8 in 1 of 100
DEFAULT_PORTS = {"http": 80, "https": 443}


def host_name(address: str) -> str:
    """How an address appears in a Host header: lower-cased, an IPv6 literal in brackets."""
    address = address.strip().lower()
    try:
        if ipaddress.ip_address(address.strip("[]")).version == 6:
            return f"[{address.strip('[]')}]"
    except ValueError:
        pass
    return address


def served_hosts(bind: str, allowed: str | Iterable[str] = ()) -> tuple[str, ...]:
    """The host names a server bound to ``bind`` answers to: loopback, ``bind`` itself and the allow-list."""
    extra = allowed.split(",") if isinstance(allowed, str) else list(allowed)
    names = [*LOOPBACK_HOSTS, host_name(bind), *(host_name(name) for name in extra if name.strip())]
    return tuple(dict.fromkeys(names))


def host_allowed(host: str, patterns: Iterable[str]) -> bool:
    """``host`` matches a name, a ``*.domain`` pattern or ``*`` (TrustedHostMiddleware's rules)."""
    host = host.lower()
    return any(
        pattern == "*" or host == pattern or (pattern.startswith("*.") and host.endswith(pattern[1:]))
        for pattern in patterns
    )


class OriginGuard:
    """Refuse (403) a request or WebSocket whose ``Origin`` is not this server's own page.

    Own means a served host name and either this server's scheme and port (a page on ``http://localhost:8501``
    calling ``127.0.0.1:8501``) or exactly the host and port the browser addressed (``Host``: the port a
    container maps, or a TLS proxy in front, which this server cannot see). Any other port on the same name is
    another program: a page on ``http://localhost:3000`` must not drive the app on ``localhost:8501``.
    """

    def __init__(self, app: ASGIApp, allowed_hosts: Iterable[str]) -> None:
        self.app = app
        self.allowed_hosts = tuple(allowed_hosts)

    def allows(self, origin: str, scope: Scope) -> bool:
        try:
            parts = urlsplit(origin)
            hostname, port = parts.hostname, parts.port
        except ValueError:
            return False
        if parts.scheme not in DEFAULT_PORTS or not hostname:
            return False  # "null" (a sandboxed frame, a file:// page) or a malformed origin
        if not host_allowed(host_name(hostname), self.allowed_hosts):
            return False
        port = port or DEFAULT_PORTS[parts.scheme]
        server = scope.get("server")
        own_scheme = "https" if scope.get("scheme") in ("https", "wss") else "http"
        if server and server[1] == port and parts.scheme == own_scheme:
            return True
        addressed = Headers(scope=scope).get("host", "").lower()
        return addressed != "" and parts.netloc.lower() == addressed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            origin = Headers(scope=scope).get("origin")
            if origin is not None and not self.allows(origin, scope):
                message = f"Requests from pages on {origin} are refused: this server only answers its own pages."
                await PlainTextResponse(message, status_code=403)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def guard_middleware(allowed_hosts: Iterable[str]) -> list[Middleware]:
    """The Host check, then the Origin check, outermost first (for ``Starlette(middleware=…)`` and ``st.App``)."""
    hosts = list(allowed_hosts)
    return [
        Middleware(TrustedHostMiddleware, allowed_hosts=hosts, www_redirect=False),
        Middleware(OriginGuard, allowed_hosts=hosts),
    ]


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind(host: str, token: str | None) -> None:
    """Refuse to serve beyond this machine without a real token (long, no spaces)."""
    if is_loopback(host):
        return
    if not token:
        raise CodeqaError(
            f"Refusing to serve the API on {host} without a token: set CODEQA_API_TOKEN to a long random secret "
            "(clients send it as 'Authorization: Bearer <token>'), or bind to 127.0.0.1."
        )
    if len(token) < MIN_TOKEN_CHARS or any(char.isspace() for char in token) or len(set(token)) < MIN_TOKEN_DISTINCT:
        raise CodeqaError(
            f"Refusing to serve the API on {host} with a weak token: CODEQA_API_TOKEN must be at least "
            f"{MIN_TOKEN_CHARS} characters without spaces, at least {MIN_TOKEN_DISTINCT} of them different "
            "(e.g. `openssl rand -hex 24`)."
        )
