"""Middleware added to a part of the app that is mounted under a path elsewhere: that path's requests only (#35,
scope3).

``app.use("*", cors(…))`` in a Hono file whose app another file mounts (bun-vite-hono's ``src/api/index.ts``, mounted
by ``src/app.ts``'s ``app.route("/api", api)``), or chi's ``r.Use(AdminOnly)`` in ``adminRouter()``, mounted by
``r.Mount("/admin", adminRouter())``, was said to be on "every request's" path: the line cannot show the mount, which
sits in another file (the file that imports this one) or function (the one calling this one). Where such a mount is
found, the construct's "every request"/"every route" is said as the requests under the mount's path, with the mount
cited; it is then narrowed (no hook for "where would I add …" that sees every request).
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import PurePosixPath

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.constructs.goapplied import applied, func_at, go_mounts
from codeqa.answer.explanation.constructs.mechanism import Match
from codeqa.answer.explanation.constructs.springfilter import registered_paths
from codeqa.answer.rendering.render import code_span
from codeqa.records import Chunk

JS = frozenset({"javascript", "typescript", "tsx", "jsx"})
JS_MOUNT = r"\.(?:route|use|mount)\(\s*[\"'`](?P<path>/[^\"'`]*)[\"'`]\s*,\s*{name}\s*\)"
JS_IMPORT = re.compile(r"^\s*import\s+(?P<names>[\w${},\s]+?)\s+from\s+[\"'](?P<spec>[^\"']+)[\"']", re.MULTILINE)
USED_ON = re.compile(r"^([\w$]+)\.use\(")
ROWS_READ = 40  # files importing a part read for its mount
EVERY = (  # what a construct says of every request, and what it says of a mounted part's requests
    ("every request's middleware chain", "the middleware chain of the requests under {path}"),
    ("every request's chain", "the chain of the requests under {path}"),
    ("every route", "the routes under {path}"),
    ("every request", "the requests under {path}"),
)


def narrow_mounted(context: AnswerContext, matches: list[Match]) -> list[Match]:
    """``matches`` with each every-request one that sits in a mounted part said of the mount's path only, each Go
    middleware definition with where it is applied (``goapplied``), and each Java filter with the paths its
    registration gives it (``springfilter``)."""
    return [_narrowed(context, match) if match.every_request
            else applied(context, match) if match.construct.wraps and match.chunk.language == "go"
            else registered_paths(context, match) for match in matches]  # fmt: skip


def _narrowed(context: AnswerContext, match: Match) -> Match:
    mounts = _js_mounts(context, match.chunk, match.text) if match.chunk.language in JS else []
    if match.chunk.language == "go":
        mounts = go_mounts(context, func_at(match.chunk, match.line))
    if not mounts:
        return match
    path = ", ".join(dict.fromkeys(code_span(p) for p, _ in mounts))
    phrase = match.phrase
    for every, scoped in EVERY:
        if every in phrase:
            phrase = phrase.replace(every, scoped.format(path=path))
            break
    else:
        return replace(match, narrowed=True)
    return replace(match, phrase=f"{phrase}, mounted at {code_span(mounts[0][1])}", narrowed=True)


def _js_mounts(context: AnswerContext, chunk: Chunk, text: str) -> list[tuple[str, str]]:
    """(path, where) of the mounts of the app whose ``use`` is ``text``: in its own file (``app.route('/api',
    api)`` below ``api.use('*', authMiddleware)``) or by the files that import ``chunk``'s file."""
    receiver = USED_ON.match(text)
    found: list[tuple[str, str]] = []
    if receiver is not None:
        own = context.chunks(context.table.rows_by_path().get(chunk.path, []))
        found = [mount for other in own for mount in _mounted(other, [JS_MOUNT.format(name=re.escape(receiver[1]))])]
    importers = [path for path, imported in context.file_imports.items() if chunk.path in imported]
    for path in importers[:ROWS_READ]:
        for other in context.chunks(context.table.rows_by_path().get(path, [])):
            bound = [
                hit.group("names") for hit in JS_IMPORT.finditer(other.text) if _same_file(hit["spec"], chunk.path)
            ]
            names = [name for names in bound for name in re.findall(r"[\w$]+", names) if name not in {"as", "type"}]
            found += _mounted(other, [JS_MOUNT.format(name=re.escape(name)) for name in names])
    return found


def _same_file(spec: str, path: str) -> bool:
    """Whether the import specifier ``spec`` can name the file ``path`` (``./api`` for ``src/api/index.ts``)."""
    file, last = PurePosixPath(path), PurePosixPath(spec).name.split(".")[0]
    return last == file.stem or (file.stem == "index" and last == file.parent.name)


def _mounted(chunk: Chunk, patterns: list[str]) -> list[tuple[str, str]]:
    found = []
    for offset, text in enumerate(chunk.text.split("\n")):
        for pattern in patterns:
            if (hit := re.search(pattern, text)) is not None:
                found.append((hit.group("path"), f"{chunk.path}:{chunk.start_line + offset}"))
    return found
