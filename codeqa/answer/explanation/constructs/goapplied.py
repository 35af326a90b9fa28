"""Where a Go router or middleware is applied, followed by name through the index (#35, scope3).

A Go middleware's definition (``func (m *middleware) withCORSHeaders(next http.Handler) http.Handler``, miniflux's
``internal/api/middleware.go``) cannot say which requests it sees: the function applying it can
(``return middleware.withCORSHeaders(…(mux))`` in ``api.NewHandler``), and the line that mounts that function's
handler (``appMux.Handle("/v1/", api.NewHandler(store, pool))``) says under which path. Where one function applies it
and a mount of that function is found, both are said, cited; otherwise nothing is added (no guess).
"""

from __future__ import annotations

import re
from dataclasses import replace

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.constructs.mechanism import Match
from codeqa.answer.rendering.render import code_span
from codeqa.records import Chunk
from codeqa.symbols import short_names

GO_MOUNT = r"\.(?:Mount|Handle)\(\s*\"(?:[A-Z]+\s+)?(?P<path>/[^\"]*)\"\s*,\s*(?:\w+\.)*{name}\("
GO_FUNC = re.compile(r"^func\s*(?:\([^)]*\)\s*)?(?P<name>\w+)\s*\(")
APPLIED = r"(?<![\w.])(?:\w+\.)?{name}\(|\.Use\([^)]*\b{name}\b"
ROWS_READ = 40  # chunks naming a Go function read for where it is applied or mounted


def func_at(chunk: Chunk, line: int) -> str:
    """The name of the Go function whose head is the nearest above file line ``line`` in ``chunk``; of a piece with no
    head, its symbol's ("" if none)."""
    above = chunk.text.split("\n")[: max(0, line - chunk.start_line + 1)]
    head = next((hit.group("name") for text in reversed(above) if (hit := GO_FUNC.match(text))), "")
    if head or not chunk.symbol:
        return head
    return short_names(chunk.symbol)[0].split(".")[-1] if short_names(chunk.symbol) else ""  # a piece of one


def go_mounts(context: AnswerContext, name: str) -> list[tuple[str, str]]:
    """(path, where) of the lines mounting what the Go function ``name`` makes (``r.Mount("/admin",
    adminRouter())``, ``mux.Handle("/v1/", api.NewHandler(…))``)."""
    if not name:
        return []
    pattern = re.compile(GO_MOUNT.format(name=re.escape(name)))
    return [(hit.group("path"), where) for chunk in _go_chunks(context, name)
            for hit, where in _lines(chunk, pattern)]  # fmt: skip


def applied(context: AnswerContext, match: Match) -> Match:
    """``match`` (a Go middleware's definition) with the function applying it and that function's mount said."""
    hit = match.construct.pattern.search(match.text)
    name = (hit.groupdict().get("name") or "") if hit else ""
    if not name:
        return match
    pattern = re.compile(APPLIED.format(name=re.escape(name)))
    uses = [(func_at(chunk, int(where.rsplit(":", 1)[1])), where) for chunk in _go_chunks(context, name)
            for hit, where in _lines(chunk, pattern) if not GO_FUNC.match(hit.string)]  # fmt: skip
    holders = {holder for holder, _ in uses}
    if len(holders) != 1 or not (holder := holders.pop()):
        return match
    mounts = go_mounts(context, holder)
    if len({path for path, _ in mounts}) != 1:
        return match
    (path, mounted), where = mounts[0], uses[0][1]
    said = (f"{match.phrase}; {code_span(holder)} applies it ({code_span(where)}) to the handler of the requests under "
            f"{code_span(path)} ({code_span(mounted)})")  # fmt: skip
    return replace(match, phrase=said, narrowed=True)


def _go_chunks(context: AnswerContext, name: str) -> list[Chunk]:
    rows = [row for row in context.rows_mentioning(name)[:ROWS_READ] if context.table.languages[row] == "go"]
    return context.chunks(rows)


def _lines(chunk: Chunk, pattern: re.Pattern[str]) -> list[tuple[re.Match[str], str]]:
    return [(hit, f"{chunk.path}:{chunk.start_line + offset}") for offset, text in enumerate(chunk.text.split("\n"))
            if (hit := pattern.search(text)) is not None and not text.lstrip().startswith("//")]  # fmt: skip
