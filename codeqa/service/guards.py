"""The HTTP API's edge, as ASGI middleware that runs before FastAPI reads a byte of the body.

``CrossSiteGuard`` refuses what a page on another site makes a browser send (``Sec-Fetch-Site``) before the token is
looked at; ``TokenGuard`` checks the bearer token and refuses a client after too many wrong ones (429 with
``Retry-After``), counting only a token that was sent: twenty ``<img>`` tags on another site cannot lock out the real
token;
``BodyLimit`` refuses a body larger than the limit from its ``Content-Length`` alone, and reads a body without one
(chunked) only up to the limit. So a stranger's 200 MB upload costs neither memory nor parsing.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Iterable

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from codeqa.service.ratelimit import RateLimiter

FAILURE_WINDOW_SECONDS = 600.0
OTHER_SITES = ("cross-site", "same-site")  # same-site: another port of localhost is another program's page
EMBEDDED = ("object", "embed")  # a navigation into these is a resource load, not the user opening a page


async def send_error(send: Send, status: int, kind: str, message: str, headers: dict[str, str] | None = None) -> None:
    """The API's ``{"error": {"type", "message"}}`` answer, sent directly (the body, if any, stays unread)."""
    body = json.dumps({"error": {"type": kind, "message": message}}).encode()
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    raw += [(name.lower().encode(), value.encode()) for name, value in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})


def client_of(scope: Scope) -> str:
    client = scope.get("client")
    return client[0] if client else "unknown"


def from_another_site(headers: Headers, method: str) -> bool:
    """A request a page on another site (or another port) made the browser send: its fetch metadata says so. A
    plain GET navigation (the user following a link) is let through; it carries no token, so it cannot guess."""
    if headers.get("sec-fetch-site", "").lower() not in OTHER_SITES:
        return False  # same-origin, typed by the user ("none"), or a script or agent (no fetch metadata at all)
    navigation = headers.get("sec-fetch-mode", "").lower() == "navigate" and method == "GET"
    return not (navigation and headers.get("sec-fetch-dest", "").lower() not in EMBEDDED)


class CrossSiteGuard:
    """Refuse (403) requests that pages on other sites make a browser send, before any token is checked."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and from_another_site(Headers(scope=scope), scope["method"]):
            site = Headers(scope=scope).get("sec-fetch-site")
            message = f"Refused: a page on another site made this request (Sec-Fetch-Site: {site})."
            await send_error(send, 403, "CrossSiteRequest", message)
            return
        await self.app(scope, receive, send)


class TokenGuard:
    """Require ``Authorization: Bearer <token>`` on every path but the public ones; limit wrong attempts."""

    def __init__(self, app: ASGIApp, token: str | None, failures_allowed: int, public: Iterable[str]) -> None:
        self.app = app
        self.token = token.encode() if token else None
        self.public = frozenset(public)
        self.failures = RateLimiter({"auth": failures_allowed}, window=FAILURE_WINDOW_SECONDS)

    def _given(self, scope: Scope) -> bytes:
        scheme, _, credentials = Headers(scope=scope).get("authorization", "").partition(" ")
        return credentials.strip().encode() if scheme.lower() == "bearer" else b""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.token is None or scope["path"] in self.public:
            await self.app(scope, receive, send)
            return
        client = client_of(scope)
        wait = self.failures.wait(client, "auth")
        if wait is not None:
            limit = self.failures.limits["auth"]
            message = f"Too many wrong tokens from this client ({limit} in 10 minutes); retry in {wait} s."
            await send_error(send, 429, "RateLimited", message, {"Retry-After": str(wait)})
            return
        if not hmac.compare_digest(self._given(scope), self.token):
            if Headers(scope=scope).get("authorization", "").strip():
                self.failures.check(client, "auth")  # a wrong token counts; none at all is no guess
            await send_error(send, 401, "Unauthorized", "Missing or wrong token: send 'Authorization: Bearer <token>'.")
            return
        await self.app(scope, receive, send)


class BodyLimit:
    """Refuse (413) a request body over ``limit`` bytes without reading it (``Content-Length``) or past the limit."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    def _too_large(self) -> str:
        return f"The request body is larger than {self.limit} bytes (CODEQA_API_MAX_BODY_BYTES)."

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.limit <= 0:
            await self.app(scope, receive, send)
            return
        length = Headers(scope=scope).get("content-length")
        if length is not None:
            if length.strip().isdigit() and int(length) > self.limit:
                await send_error(send, 413, "PayloadTooLarge", self._too_large())
                return
            await self.app(scope, receive, send)  # the server stops at Content-Length bytes
            return
        chunks: list[bytes] = []
        size = 0
        while True:  # no length given (chunked): read at most the limit, then hand the body on whole
            message = await receive()
            if message["type"] != "http.request":
                break
            size += len(message.get("body", b""))
            if size > self.limit:
                await send_error(send, 413, "PayloadTooLarge", self._too_large())
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": b"".join(chunks), "more_body": False}

        await self.app(scope, replay, send)
