"""Where a construct's line applies, read below it in its chunk (#35, scope3): a construct with a ``scope`` is found
only where its reader finds that scope, and what the reader finds is said with it.

- ``served`` (Go): ``appHandler = middleware(appHandler)`` (miniflux's ``internal/http/server/routes.go``) wraps a
  handler; the function it sits in says which requests that handler gets: the one given to the server
  (``http.ListenAndServe(addr, h)``, ``Handler: h``) gets every request, one mounted at ``"/"`` (``mux.Handle("/",
  h)``, also under ``http.StripPrefix``) every request no other route of that mux takes. A handler served nowhere in
  the chunk (returned, mounted at ``/v1/``) proves nothing: not found.
- ``all_routes``/``some_routes`` (NestJS): ``consumer.apply(X)`` is middleware for the routes its chain's
  ``.forRoutes(…)`` names: ``'*'``, ``'*wildcard'``, ``{ path: '*', method: RequestMethod.ALL }`` (with no
  ``.exclude(…)``) are every route; a controller or a path is some. A chain with no ``forRoutes`` (a
  ``Function.prototype.apply``) is neither.
"""

from __future__ import annotations

import re

from codeqa.records import Chunk

SERVER = r"ListenAndServe(?:TLS)?\([^)]*\b{name}\s*\)|\bHandler:\s*{name}\b"
ROOT = r"\.Handle\(\s*(?:\w+\s*\+\s*)?\"/\"\s*,\s*(?:http\.StripPrefix\([^,]*,\s*)?{name}\s*\)"
FOR_ROUTES = re.compile(r"\.forRoutes\((?P<routes>[^;]*?)\)\s*;", re.DOTALL)
WILDCARD = r"""["'`](?:/?\*\w*|/?\{\*\w+\}|/?\(\.\*\))["'`]"""
ALL_ROUTES = re.compile(
    rf"^\s*(?:{WILDCARD}|\{{\s*path:\s*{WILDCARD}\s*,\s*method:\s*RequestMethod\.ALL\s*,?\s*\}})\s*,?\s*$"
)
CHAIN_LINES = 24  # lines of a `consumer.apply(…)` chain read for its `forRoutes`


def scoped(scope: str, chunk: Chunk, number: int, hit: re.Match[str]) -> str | None:
    """What ``scope``'s reader finds for the construct matched at file line ``number`` (said after the construct's
    phrase; "" says nothing more), or None when it does not find the scope (the construct is not found there)."""
    if scope == "served":
        return served(chunk, number, hit.group("app"))
    routes = _for_routes(chunk, number)
    if routes is None:
        return None
    every = ALL_ROUTES.match(routes) is not None and ".exclude(" not in _chain(chunk, number)
    if scope == "all_routes":
        return "" if every else None
    return None if every else f" (`forRoutes({_short(routes)})`)"


def served(chunk: Chunk, number: int, name: str) -> str | None:
    """How the handler ``name`` wrapped at file line ``number`` is served below it in ``chunk`` ("; `h` is the
    server's handler", "; `h` is the handler served at `/`"), or None when the chunk does not show it served."""
    below = "\n".join(chunk.text.split("\n")[number - chunk.start_line + 1 :])
    word = re.escape(name)
    if re.search(SERVER.format(name=word), below):
        return f"; `{name}` is the server's handler"
    if re.search(ROOT.format(name=word), below):
        return f"; `{name}` is the handler served at `/`"
    return None


def _chain(chunk: Chunk, number: int) -> str:
    """The statement from file line ``number`` to its ``;`` (or ``CHAIN_LINES`` lines)."""
    lines = chunk.text.split("\n")[number - chunk.start_line : number - chunk.start_line + CHAIN_LINES]
    text = "\n".join(lines)
    end = text.find(";")
    return text if end < 0 else text[: end + 1]


def _for_routes(chunk: Chunk, number: int) -> str | None:
    found = FOR_ROUTES.search(_chain(chunk, number))
    return None if found is None else found.group("routes").strip()


def _short(routes: str) -> str:
    """The routes as one line, a long list cut (``UsersController, …``)."""
    flat = " ".join(routes.split())
    return flat if len(flat) <= 60 else flat[:57].rsplit(",", 1)[0] + ", …"
