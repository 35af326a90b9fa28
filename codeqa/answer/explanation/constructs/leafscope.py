"""Error handlers declared in one controller class that no other class extends: its own requests' failures only.

rubygems.org's ``Api::V1::SearchesController`` turns three search errors into responses (``rescue_from``), and the
answer's closing said "when a request fails, `Api.V1.SearchesController` turns …": a leaf controller's
``rescue_from`` (or a Spring controller's own ``@ExceptionHandler``, outside a ``@ControllerAdvice``) handles the
errors of its own actions, not of the app's other requests. When no indexed class extends the class the handlers sit
in, the closing says "when a request to `Api::V1::SearchesController` fails". A base class (``ApplicationController``,
an API base controller) keeps "a request": its subclasses' requests are the app's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.constructs.mechanism import Match

CLASS = re.compile(r"^\s*(?:(?:public|abstract|final|open|internal)\s+)*class\s+(?P<name>[A-Z][\w:]*)")
SUBCLASS = re.compile(r"^\s*(?:(?:public|abstract|final|open|internal)\s+)*class\s+[\w:]+(?P<rest>.*)")
ADVICE = re.compile(r"@(?:Rest)?ControllerAdvice\b")
IN_CLASS = frozenset({"ruby", "java", "kotlin"})  # a handler declared in a class body handles that class's actions
ROWS_READ = 200  # chunks naming the class read for a subclass


def _class_above(lines: Sequence[str], index: int) -> str | None:
    return next((hit.group("name") for line in reversed(lines[: index + 1]) if (hit := CLASS.match(line))), None)


def _extended(context: AnswerContext, name: str) -> bool:
    """Whether a class elsewhere in the index (or in the same file) extends ``name`` (``class X < Name``, ``class X
    extends Name``, ``class X : Name()``)."""
    short = re.escape(name.split("::")[-1])
    parent = re.compile(rf"<\s*(?:[\w:]+::)?{short}\b|\bextends\s+(?:[\w.]+\.)?{short}\b|(?<!:):\s*{short}\s*\(")
    rows = context.rows_mentioning(name.split("::")[-1])[:ROWS_READ]
    return any((head := SUBCLASS.match(line)) and parent.search(head.group("rest"))
               for chunk in context.chunks(rows) for line in chunk.text.split("\n"))  # fmt: skip


def leaf_class(context: AnswerContext | None, matches: Sequence[Match]) -> str | None:
    """The class the error ``matches`` are declared in, when they are a class's own (not a ``@ControllerAdvice``)
    and no indexed class extends it; None otherwise."""
    if context is None or not matches or any(m.chunk.language not in IN_CLASS for m in matches):
        return None
    chunk = matches[0].chunk
    lines = chunk.text.split("\n")
    names = {_class_above(lines, m.line - chunk.start_line) for m in matches if m.chunk.id == chunk.id}
    if len(names) != 1 or None in names or ADVICE.search(chunk.text):
        return None
    name = names.pop()
    if name is None or _extended(context, name):
        return None
    return name
