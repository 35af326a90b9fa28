"""Sources that are all documentation prose: a Python chunk cut out of a long module docstring.

A chunk starts where the chunker cut the file, which may be inside a triple-quoted string (taiga's
``taiga/auth/settings.py`` is a 215-line module docstring, lines 32-247, then the settings code). Shown as "the file's
top-level code" with a snippet of its lines, the prose reads as code to a newcomer (round 8). Whether a chunk starts
inside such a string is read from the file's chunks before it; a chunk whose every line lies inside a docstring is no
source (what the code does is in its code lines, and it has none).
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.records import Chunk

QUOTES = ('"""', "'''")


def _open_docstring(lines: list[str]) -> str | None:
    """The quote of a docstring (a line that starts with triple quotes) still open after ``lines``, else None. Triple
    quotes elsewhere on a line (an argument's string) are followed too, so the state stays right after them."""
    quote: str | None = None
    docstring = False
    for line in lines:
        at = 0
        while True:
            if quote is None:
                found = [(line.find(q, at), q) for q in QUOTES if line.find(q, at) >= 0]
                if not found:
                    break
                position, quote = min(found)
                docstring = line[:position].strip().lower() in ("", "r", "u", "b", "rb", "br")  # not an argument
                at = position + 3
            else:
                end = line.find(quote, at)
                if end < 0:
                    break
                quote, at = None, end + 3
    return quote if quote is not None and docstring else None


def prose_only(chunk: Chunk, context: AnswerContext) -> bool:
    """Whether every line of Python ``chunk`` lies inside a docstring opened above it and not closed in it."""
    body = chunk.text.rstrip().split("\n")
    if body and body[-1].strip() in QUOTES:  # the docstring's closing quotes end the chunk: still no code
        body = body[:-1]
    if chunk.language != "python" or chunk.kind != "module" or chunk.start_line <= 1:
        return False  # a definition's chunk is code; only a file's top-level lines can lie in its docstring
    if any(q in line for line in body for q in QUOTES):
        return False
    before = [c for c in context.file_chunks([chunk.path], limit=None).get(chunk.path, [])
              if c.end_line < chunk.start_line]  # fmt: skip
    if not before:
        return False
    lines: list[str] = []
    for piece in before:
        lines += piece.text.split("\n")
    return _open_docstring(lines) is not None
