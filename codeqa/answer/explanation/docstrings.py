"""Where triple-quoted blocks begin and end in a chunk's lines, when the chunk may begin inside one."""

from __future__ import annotations

import re

DOCSTRING = re.compile(r'^\s*(?:@(?:moduledoc|doc|typedoc|shortdoc)\s+(?:~[sS])?)?[rRuUbBfF]?("""|\'\'\')')
DEF_HEADER = re.compile(r"^\s*(?:async\s+def|def|class)\b|[)\]]\s*(?:->\s*[^:]+)?:\s*$")
STRING_OPENS = re.compile(r"""[=(,\[:]\s*[rRbBuUfF]?(?:\"\"\"|\'\'\')$""")  # ``sql = \"\"\"`` opens a string


def closing_line(lines: list[str]) -> int:
    """The index of the line that closes a triple-quoted block the chunk begins inside, else -1: a chunk cut out of a
    long module docstring starts in its prose, and its closing quotes read as an opening would make the code after
    them prose (Hexpm's ``use Oban.Worker`` under a 35-line ``@moduledoc``)."""
    for index, line in enumerate(lines):
        quote = next((mark for mark in ('"""', "'''") if mark in line), None)
        if quote is None:
            continue
        stripped = line.strip()
        if line.count(quote) != 1:
            return -1
        if stripped == quote:  # alone on its line: it opens a docstring only under a ``def``/``class`` header
            before = next((text for text in reversed(lines[:index]) if text.strip()), "")
            return -1 if not before or DEF_HEADER.search(before) else index
        if DOCSTRING.match(line) or not stripped.endswith(quote) or STRING_OPENS.search(stripped):
            return -1
        return index  # ``… traced back to it."""``: prose that ends the block
    return -1
