"""Whether the definition a chunk opens goes on past the chunk's last line: a module the chunker cut in two.

A count of what a chunk holds ("runs the `Plug.Logger` and 5 other plugs on every request") is the count of the
whole definition only when the chunk holds all of it. An endpoint module cut after its first 56 lines has more plugs
below (``plug(Plug.Session, …)``, ``plug(LogflareWeb.Router)``); the count is then a floor. A definition is seen
closed by its own closer: ``end`` (Elixir, Ruby) or ``}`` (brace languages) at the indentation of the line that
opens it. A language whose blocks close by indentation alone (Python) says nothing here.
"""

from __future__ import annotations

import re

from codeqa.answer.explanation.code.keylines import COMMENT
from codeqa.records import Chunk

END_LANGUAGES = frozenset({"elixir", "ruby"})
OPENS_BLOCK = {"end": re.compile(r"\bdo\s*$|^\s*(?:class|module|def)\b"), "}": re.compile(r"\{\s*$")}


def runs_on(chunk: Chunk) -> bool:
    """Whether the definition ``chunk``'s first code line opens is not closed inside the chunk."""
    lines = chunk.text.split("\n")
    head = next((n for n, line in enumerate(lines) if line.strip() and not COMMENT.match(line)), None)
    if head is None:
        return False
    closer = "end" if chunk.language in END_LANGUAGES else "}"
    if not OPENS_BLOCK[closer].search(lines[head]):
        return False  # a line that opens no block (a Python `class X:`, a one-line statement): nothing to tell
    indent = len(lines[head]) - len(lines[head].lstrip())
    closed = (
        line.strip().startswith(closer) and len(line) - len(line.lstrip()) == indent for line in lines[head + 1 :]
    )
    return not any(closed)
