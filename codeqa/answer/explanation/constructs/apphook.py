"""The app's own every-request hooks, found where the framework is imported: for "where would I add logging?" when
the code retrieved for the question's words holds none. "Logging" and "user behavior" name no line of
``app.use(requestLogger)`` in the file that calls ``express()``, of FastAPI's ``@app.middleware("http")``, of a
Phoenix endpoint's plugs or of a Go ``func(next http.Handler) http.Handler``; the framework's import names them all.

The files importing a framework (its ``imports``, looked up in the word index and checked on the file's import
lines) are read once per loaded index for constructs on every request's path (``Construct.every_request``). The
file that mounts the app's parts comes first (a mounted part's own ``app.use`` sees that part only), then the files
holding the most, then the shallower (the app's setup sits near its root, a plugin's deep). The question's scope is
applied when the answer takes its chunk, not when the files are read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import PurePosixPath

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.code.branches import condition_at
from codeqa.answer.explanation.constructs.candidate import Candidate
from codeqa.answer.explanation.constructs.listedlog import listed_loggers
from codeqa.answer.explanation.constructs.mechanism import Match, answers_poorly, matches_in
from codeqa.frameworks.conventions import Convention, anchor_rows
from codeqa.frameworks.evidence import imports_module, lookup_word
from codeqa.frameworks.intent import HOOK
from codeqa.records import Chunk, Hit

LOGGING = "logging"
ROWS_READ = 300  # chunks naming a framework's import word, read for the files that import it
# the file that mounts the app's parts (`app.use(mount("/api", api))`, `app.use('/api', router)`, `app.route('/auth',
# auth)`, `app.mount("/api/v1", app=api)`, `plug MyAppWeb.Router`) is the root app; a part's own `app.use` sees its part
MOUNTS = re.compile(
    # (not a folder of static files: `app.use('/assets', express.static(…))` in an installer's own little app)
    # (nor a router's own sub-routes: `router.use("/", authMiddleware(…), resolvedRouter.routes())` in a part)
    r"\bmount\(\s*[\"'`/]|(?<![Rr]outer)\.(?:use|route|mount)\(\s*[\"'`]/"
    r"(?![^\"'`]*[\"'`]\s*,\s*(?:express\.)?(?:static|serveStatic)\b)"
    r"|\binclude_router\(|^\s*plug\s+[\w.]+\.Router\b",
    re.MULTILINE,
)
FILES_READ = 40  # files importing a framework read for its hooks, the ones naming it most first


def app_hooks(
    context: AnswerContext, conventions: Sequence[Convention], found: Sequence[Candidate], intents: Sequence[str] = ()
) -> list[Candidate]:
    """Sources for a placement question: for logging, the logging middleware the middleware lists among ``found``
    name (``listedlog``); when ``found`` holds no every-request construct, the chunk of the index's frameworks
    holding most of them, with those matches (none outside the question's scope)."""
    loggers = listed_loggers(context, conventions, found) if LOGGING in intents else []
    if any(match.every_request and condition_at(candidate.chunk, match.line) == ("", "")
           for candidate in found for match in candidate.matches):  # fmt: skip
        return loggers  # one under a test (`if DEBUG_TOOLBAR: MIDDLEWARE = [...]`) is not every request's
    seen = {candidate.chunk.id for candidate in [*found, *loggers]}
    return [*loggers, *(Candidate(Hit(chunk, 0.0, chunk.id), 0.0, matches, 0, False)
                        for chunk, matches in _in_scope(context, conventions) if chunk.id not in seen)]  # fmt: skip


def _in_scope(context: AnswerContext, conventions: Sequence[Convention]) -> list[tuple[Chunk, list[Match]]]:
    """The best in-scope chunk holding hooks: of the best file, the chunk holding most (one source, so the code
    retrieved for the question keeps its place: the hook is where to add it, not what the app does)."""
    ranked = context.table.derived("app hooks", lambda: _hook_chunks(context, conventions))
    inside = [(chunk, matches) for chunk, matches in ranked if (row := context.row_of(chunk)) is not None
              and context.in_scope(row)]  # fmt: skip
    if not inside:
        return []
    best = [(chunk, matches) for chunk, matches in inside if chunk.path == inside[0][0].path]
    return [max(best, key=lambda item: len(item[1]))]


def _hook_chunks(context: AnswerContext, conventions: Sequence[Convention]) -> list[tuple[Chunk, list[Match]]]:
    table = context.table
    found: dict[str, list[tuple[Chunk, list[Match]]]] = {}
    mounting: set[str] = set()  # by any chunk of the file: the mounts sit apart from the hooks above them (Outline)
    for convention in conventions:
        if convention.common or not any(c.every_request for c in convention.constructs):
            continue
        anchors = [c.hook_word for c in convention.constructs if c.every_request and c.hook_word]
        for module in [*convention.imports, *anchors]:
            anchored = module in anchors  # a hook's own word (`get_response`): its file may import no framework
            rows = (anchor_rows(module, context.rows_mentioning) if anchored
                    else context.rows_mentioning(lookup_word(module)))[:ROWS_READ]  # fmt: skip
            paths = [
                table.paths[r] for r in rows if not convention.languages or table.languages[r] in convention.languages
            ]
            for path in list(dict.fromkeys(p for p in paths if p not in found))[:FILES_READ]:
                # every chunk of the file, whatever the first question's scope: the result is kept for the index
                chunks = sorted(context.chunks(table.rows_by_path().get(path, [])), key=lambda c: c.start_line)
                if not chunks or not (anchored or any(imports_module(c.text, c.language, module) for c in chunks[:2])):
                    continue
                held = [(c, [m for m in matches_in(c, conventions, (HOOK,)) if m.every_request])
                        for c in chunks if not answers_poorly(c)]  # fmt: skip
                found[path] = [(c, matches) for c, matches in held if matches]
                if any(MOUNTS.search(c.text) for c in chunks):
                    mounting.add(path)
    # where a file mounts the app's parts, a mounted part's own hooks see that part only: none of theirs is taken;
    # where the files that mount hold no hook (NodeBB's routes/api.js mounts, its webserver.js sets up the app), the
    # others, but never a file one of them imports (Outline's web.ts mounts the oauth app it imports)
    hooked = [p for p in found if found[p]]
    parts = {imported for path in mounting for imported in context.file_imports.get(path, ())}
    unmounted = [p for p in hooked if p not in parts]
    order = sorted([p for p in hooked if p in mounting] or unmounted,
                   key=lambda p: (-sum(len(m) for _, m in found[p]), len(PurePosixPath(p).parts), p))  # fmt: skip
    return [item for path in order for item in found[path]]
