"""For "where would I add logging?": the logging middleware the app's own middleware list already runs on every request.

A middleware list (Django's ``MIDDLEWARE``, Laravel's ``$middleware->web(prepend: [...])``, Rails'
``config.middleware.use``) that names a middleware for logging (``plane.middleware.logger.RequestLoggerMiddleware``,
``AddRequestContextForLogging::class``) says where the app logs its requests: that middleware sees every request the
list does, and a log line of what users do belongs beside its own. The entry is read on the list's lines and its
name resolved to the definition in the index; nothing is said when the name is defined nowhere in the code.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.code.keylines import COMMENT
from codeqa.answer.explanation.constructs.candidate import Candidate
from codeqa.answer.explanation.constructs.mechanism import Match, answers_poorly, matches_in
from codeqa.frameworks.conventions import Convention
from codeqa.frameworks.intent import HOOK
from codeqa.records import Chunk, Hit
from codeqa.symbols import qualified_names, short_name

LOG_WORDS = frozenset({"log", "logs", "logger", "loggers", "logging"})
LIST_LINES = 40  # lines of a middleware list read after its head
MAX_LOGGERS = 2
CLASS_NAME = re.compile(r"(?<![\w$])[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*")
WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
CLOSES = re.compile(r"^\s*[\])}]+\s*\)?\s*[,;)]*\s*$")


def named_for_logging(name: str) -> bool:
    """``RequestLoggerMiddleware``, ``AddRequestContextForLogging``, ``APITokenLogMiddleware``; not ``LoginForm``."""
    return any(word.lower() in LOG_WORDS for word in WORD.findall(name))


def logger_entries(chunk: Chunk, match: Match) -> list[tuple[int, str]]:
    """``(file line, class name)`` of the entries named for logging in the middleware list that opens at ``match``
    (a construct about middleware whose line opens a bracket it does not close; not an aspect, not a definition)."""
    lines = chunk.text.split("\n")
    start = match.line - chunk.start_line
    if not 0 <= start < len(lines) or "middleware" not in match.construct.says or not _opens_list(lines[start]):
        return []
    head_indent = len(lines[start]) - len(lines[start].lstrip())
    found: list[tuple[int, str]] = []
    for offset, text in enumerate(lines[start : start + LIST_LINES]):
        if offset and CLOSES.match(text) and len(text) - len(text.lstrip()) <= head_indent:
            break  # the list is closed
        if COMMENT.match(text):
            continue
        found += [(match.line + offset, name) for name in CLASS_NAME.findall(text) if named_for_logging(name)]
    return list(dict.fromkeys(found))


def _opens_list(line: str) -> bool:
    return sum(line.count(c) for c in "([{") > sum(line.count(c) for c in ")]}")


def listed_loggers(
    context: AnswerContext, conventions: Sequence[Convention], found: Sequence[Candidate]
) -> list[Candidate]:
    """The definitions of the logging middleware the every-request lists among ``found`` name (not yet in ``found``),
    each with its own constructs."""
    seen = {candidate.chunk.id for candidate in found}
    brought: list[Candidate] = []
    for candidate in found:
        for match in candidate.matches:
            if not match.every_request:
                continue
            for _, name in logger_entries(candidate.chunk, match):
                chunk = _definition(context, conventions, name)
                if chunk is None or chunk.id in seen:
                    continue
                seen.add(chunk.id)
                matches = matches_in(chunk, conventions, (HOOK, "logging"))
                brought.append(Candidate(Hit(chunk, 0.0, chunk.id), 0.0, matches, 0, False))
    return brought[:MAX_LOGGERS]


def _definition(context: AnswerContext, conventions: Sequence[Convention], name: str) -> Chunk | None:
    """The code of class ``name``: the chunk of its request hook when it has one (``__call__``, ``handle``), else
    the chunk that defines it; None when no in-scope source code defines it."""
    rows = [row for row in context.definers.get(name.lower(), []) if context.in_scope(row)
            and context.table.layers[row] not in ("test", "docs")]  # fmt: skip
    chunks = [c for c in context.chunks(rows) if not answers_poorly(c) and _defines(c, name)]
    if not chunks:
        return None
    path = chunks[0].path
    own = [c for c in context.chunks(context.file_rows(path)) if _defines(c, name) or _member_of(c, name)]
    hooked = [c for c in own if any(m.every_request for m in matches_in(c, conventions, (HOOK,)))]
    return (hooked or chunks)[0]


def _defines(chunk: Chunk, name: str) -> bool:
    return any(short_name(q) == name for q in qualified_names(chunk.symbol))


def _member_of(chunk: Chunk, name: str) -> bool:
    return any(q.startswith(f"{name}.") for q in qualified_names(chunk.symbol))
