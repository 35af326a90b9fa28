"""A smart-HTTP git server on 127.0.0.1 for tests: public repos, a private path that needs Basic auth, a slow path.

It reuses the CGI handler of ``tests/test_source.py`` (``git http-backend``) and adds what GitHub does for a
private repository: ``/private/...`` answers 401 with ``WWW-Authenticate: Basic`` unless the request carries
the expected token (codeqa sends ``x-access-token:<token>`` as Basic auth).
"""

from __future__ import annotations

import base64
import contextlib
import threading
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path

from tests.test_source import _GitHTTP


class _AuthGitHTTP(_GitHTTP):
    def _cgi(self) -> None:
        server = self.server
        if self.path.startswith("/private/"):
            wanted = "Basic " + base64.b64encode(f"x-access-token:{server.token}".encode()).decode()  # type: ignore[attr-defined]
            if self.headers.get("Authorization") != wanted:
                server.auth.append(self.headers.get("Authorization"))  # type: ignore[attr-defined]
                self.send_response(401)
                self.send_header("WWW-Authenticate", 'Basic realm="private"')
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.path = self.path[len("/private") :]
        super()._cgi()


@contextlib.contextmanager
def git_http_server(root: Path, token: str = "s3cret-token") -> Iterator[tuple[str, list]]:
    """Serve bare repositories under ``root`` at ``http://127.0.0.1:<port>/<name>.git`` (and ``/private/…``)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _AuthGitHTTP)
    server.daemon_threads = True
    server.root = str(root)  # type: ignore[attr-defined]
    server.auth = []  # type: ignore[attr-defined]
    server.token = token  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", server.auth  # type: ignore[attr-defined]
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
