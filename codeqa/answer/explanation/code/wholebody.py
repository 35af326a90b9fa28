"""A short body shown whole: a newcomer reads a ten-line function more easily than five of its lines picked apart.

A definition (a function, a method, a class) whose code lines (not blank, not lone punctuation, not comments,
docstrings or the file's imports) are at most ``SHORT_BODY`` shows all of them, in file order, instead of its best
lines by score: the line that sets the value nobody asked about by name (``'request_id' => Uuid::generate(),`` in a
middleware asked about logging) is then not cut for a line that only repeats the question's words, and the budget
(``budget.allocate_lines``) gives it exactly those lines. Every line shown lies inside the cited span. A file's
top-level code or settings are not "read whole": their lines compete for the budget as before. A mixin or trait
pulled into a class (``include Authentication``, ``use HasFactory;``, indented) is code, not an import.
"""

from __future__ import annotations

from functools import lru_cache

from codeqa.answer.explanation.code.keylines import COMMENT, IMPORT, TRIVIAL, prose_lines
from codeqa.records import Chunk

# chosen on answers_dev + newcomer_dev (183 questions): 8 code lines left the facts shown as they were (260)
SHORT_BODY = 8
DEFINITIONS = frozenset({"function", "method", "class"})
TAGS = ("<?php", "?>", "<?")  # a PHP file's opening or closing tag: no code


@lru_cache(maxsize=1024)
def body_lines(text: str) -> tuple[int, ...]:
    """Indexes of the lines of ``text`` that are code a reader reads (comments, docstrings, imports, blank lines and
    lone punctuation left out)."""
    lines = text.split("\n")
    prose = prose_lines(lines)
    return tuple(
        index
        for index, line in enumerate(lines)
        if line.strip()
        and index not in prose
        and not TRIVIAL.match(line)
        and not COMMENT.match(line)
        and line.strip() not in TAGS
        and not (IMPORT.match(line) and not line[:1].isspace())
    )


def whole_body(chunk: Chunk, limit: int = SHORT_BODY) -> tuple[int, ...]:
    """The code lines of a definition's ``chunk`` (indexes into its text) when there are at most
    ``min(limit, SHORT_BODY)`` of them (it is shown whole), else ``()``."""
    if str(chunk.kind) not in DEFINITIONS:
        return ()
    body = body_lines(chunk.text)
    return body if 0 < len(body) <= min(limit, SHORT_BODY) else ()
