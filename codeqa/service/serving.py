"""How uvicorn serves the API and the app: a cap on a request's headers and a deadline for sending them.

uvicorn reads headers without limit when httptools parses them (a 200 MB header was read in full before the 401),
and it has no timeout for a request that is still arriving: its keep-alive timer starts only after a response, and
any byte cancels it. So 300 "slowloris" connections, each sending a header byte now and then, stayed open for good.
``LimitedH11Protocol`` parses with h11 (whose buffer limit caps the request line and headers) and closes a
connection whose request headers are not complete ``HEADER_TIMEOUT_SECONDS`` after it opened or after its last
response. A request already being answered (a streamed answer, a WebSocket) is never cut.

The API's ``uvicorn.run`` takes ``api_server_options()`` (``codeqa api`` is to pass them). Streamlit builds its
uvicorn config itself and offers no such options, so ``codeqa_ui/served/app_server.py`` calls
``limit_loading_server()`` while uvicorn imports it.
"""

from __future__ import annotations

import asyncio
import sys
from types import FrameType
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

MAX_HEADER_BYTES = 64 * 1024  # request line and headers; a browser's cookies for localhost fit many times over
HEADER_TIMEOUT_SECONDS = 10.0  # from connecting (or the last response) to the end of the next request's headers
KEEP_ALIVE_SECONDS = 5  # an idle connection between requests (uvicorn's own default, stated)


class LimitedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request's headers (the size cap is h11's buffer limit)."""

    header_timeout = HEADER_TIMEOUT_SECONDS
    _header_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_header_deadline()

    def on_response_complete(self) -> None:
        self._arm_header_deadline()  # before the next request is parsed (a pipelined one clears it at once)
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_header_deadline()
        super().connection_lost(exc)

    def _arm_header_deadline(self) -> None:
        self._disarm_header_deadline()
        self._header_deadline = self.loop.call_later(self.header_timeout, self._header_deadline_passed, self.scope)

    def _disarm_header_deadline(self) -> None:
        if self._header_deadline is not None:
            self._header_deadline.cancel()
        self._header_deadline = None

    def _header_deadline_passed(self, scope_when_armed: object) -> None:
        """Close the connection if no request's headers arrived since the deadline was set."""
        self._header_deadline = None
        if self.scope is not scope_when_armed or self.transport.is_closing():
            return  # a request came in time (it may still be running: that is not ours to cut)
        if self.transport.get_protocol() is not self:
            return  # upgraded to a WebSocket
        self.transport.close()  # connection_lost then tells h11 the connection is closed


def api_server_options() -> dict[str, Any]:
    """Keyword arguments for ``uvicorn.run``/``uvicorn.Config`` that cap headers and time out slow ones."""
    return {
        "http": LimitedH11Protocol,
        "h11_max_incomplete_event_size": MAX_HEADER_BYTES,
        "timeout_keep_alive": KEEP_ALIVE_SECONDS,
    }


def limit_loading_server() -> bool:
    """Apply ``api_server_options()`` to the uvicorn server that is importing the caller (``app_server.py`` under
    ``streamlit run``): Streamlit creates that server's config itself. False when not imported by uvicorn (AppTest,
    a test importing the module). uvicorn reads the protocol class when a connection opens, after the import."""
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        config = frame.f_locals.get("self")
        if isinstance(config, uvicorn.Config):
            config.http_protocol_class = LimitedH11Protocol
            config.h11_max_incomplete_event_size = MAX_HEADER_BYTES
            config.timeout_keep_alive = KEEP_ALIVE_SECONDS
            return True
        frame = frame.f_back
    return False
