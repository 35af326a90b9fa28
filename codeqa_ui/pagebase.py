"""Tell the browser where the app's server is, so a page opened directly (``/Map``) does not probe ``/Map/_stcore``.

Streamlit's browser code does not know the server's base path: on ``/Map`` it first tries ``/Map/_stcore/health``
and ``/Map/_stcore/host-config`` (two 404s in the log), then ``/``. Its documented hook for hosts,
``window.__streamlit.BACKEND_BASE_URL``, names the base: this ASGI middleware writes it into each page's HTML.
"""

from __future__ import annotations

import json

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

NOT_PAGES = ("/_stcore/", "/media/", "/static/", "/component/", "/app/static/")  # Streamlit's own routes and files


def base_script(base_path: str) -> bytes:
    base = "/" + base_path.strip("/") + ("/" if base_path.strip("/") else "")
    return (
        "<script>window.__streamlit=Object.assign(window.__streamlit||{},"
        f"{{BACKEND_BASE_URL:new URL({json.dumps(base)},location.origin).href}});</script>"
    ).encode()


class PageBase:
    """Insert ``base_script`` at the top of every HTML page the app serves (asked for uncompressed)."""

    def __init__(self, app: ASGIApp, base_path: str = "") -> None:
        self.app = app
        self.script = base_script(base_path)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        wants_page = "text/html" in Headers(scope=scope).get("accept", "") if scope["type"] == "http" else False
        path = scope.get("path", "")
        if not wants_page or scope.get("method") != "GET" or any(part in path for part in NOT_PAGES):
            await self.app(scope, receive, send)
            return
        plain = [(key, value) for key, value in scope["headers"] if key.lower() != b"accept-encoding"]
        start: Message | None = None
        body: list[bytes] = []

        async def rewrite(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
                return
            if message["type"] != "http.response.body" or start is None:
                await send(message)
                return
            headers = Headers(raw=start["headers"])
            if not headers.get("content-type", "").startswith("text/html") or "content-encoding" in headers:
                await send(start)
                start = None  # the rest of this response passes through as it is
                await send(message)
                return
            body.append(message.get("body", b""))
            if message.get("more_body"):
                return
            page = b"".join(body).replace(b"<head>", b"<head>" + self.script, 1)
            out = MutableHeaders(raw=list(start["headers"]))
            out["content-length"] = str(len(page))
            await send({**start, "headers": out.raw})
            await send({"type": "http.response.body", "body": page, "more_body": False})

        await self.app({**scope, "headers": plain}, receive, rewrite)
