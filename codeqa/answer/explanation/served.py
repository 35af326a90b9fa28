"""Where a Go handler that a middleware wraps is served: the wrapping line's scope (#35, scope3).

``appHandler = middleware(appHandler)`` (miniflux's ``internal/http/server/routes.go``) wraps a handler; the line
alone does not say which requests that handler gets. The function it sits in does: the handler given to the server
(``http.ListenAndServe(addr, h)``, ``Handler: h``) gets every request, one mounted at ``"/"`` (``mux.Handle("/",
h)``, also under ``http.StripPrefix``) every request no other route of that mux takes. A handler served nowhere in
the chunk (returned, mounted at ``/v1/``) is no proof of anything: the construct is then not found.
"""

from __future__ import annotations

import re

from codeqa.records import Chunk

SERVER = r"ListenAndServe(?:TLS)?\([^)]*\b{name}\s*\)|\bHandler:\s*{name}\b"
ROOT = r"\.Handle\(\s*(?:\w+\s*\+\s*)?\"/\"\s*,\s*(?:http\.StripPrefix\([^,]*,\s*)?{name}\s*\)"


def served(chunk: Chunk, number: int, name: str) -> str:
    """How the handler ``name`` wrapped at file line ``number`` is served below it in ``chunk`` ("; `h` is the
    server's handler", "; `h` is the handler served at `/`"), or "" when the chunk does not show it served."""
    if not name:
        return ""
    below = "\n".join(chunk.text.split("\n")[number - chunk.start_line + 1 :])
    word = re.escape(name)
    if re.search(SERVER.format(name=word), below):
        return f"; `{name}` is the server's handler"
    if re.search(ROOT.format(name=word), below):
        return f"; `{name}` is the handler served at `/`"
    return ""
