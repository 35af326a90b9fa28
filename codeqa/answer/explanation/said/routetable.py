"""A table of routes: lines that each map a URL to a handler named there (``app.get('/api', apiController.getApi)``).

Such a chunk is where requests are sent, not where one is handled: the handlers are the names it passes on. An
Express ``app.js`` lists dozens of routes in a row, and the chunker cuts that list into pieces; "handles the request"
said of a piece is false. It routes URLs to their handlers.
"""

from __future__ import annotations

import re

from codeqa.answer.explanation.code.keylines import COMMENT
from codeqa.records import Chunk

ROUTES = "routes URLs to their handlers"
MIN_ROUTES = 3  # registrations in the chunk
ROUTE_SHARE = 0.6  # of its code lines (comments and blank lines aside)
REGISTRATION = re.compile(  # at the line's start: not a decorator (`@bp.route(`), not a call's argument
    r"^\s*(?:router|app|api|routes|server|bp|blueprint|\w+Router)\.(?:get|post|put|patch|delete|all|use|route)\s*\("
    r"\s*['\"`]"
)
INLINE_HANDLER = re.compile(r"=>\s*\{\s*$|\bfunction\s*\([^)]*\)\s*\{\s*$|\(\s*req\s*,\s*res\b[^)]*\)\s*=>\s*\{")


def route_table(chunk: Chunk) -> bool:
    """Whether ``chunk`` is mostly routes registered to handlers named on their lines, with no handler written out
    in it (a one-line ``(req, res) => res.redirect('/account')`` is a registration too)."""
    code = [line for line in chunk.text.split("\n") if line.strip() and not COMMENT.match(line)]
    routes = [line for line in code if REGISTRATION.match(line)]
    if len(routes) < MIN_ROUTES or len(routes) < ROUTE_SHARE * len(code):
        return False
    return not any(INLINE_HANDLER.search(line) for line in code)
