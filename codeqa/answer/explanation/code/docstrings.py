"""Where triple-quoted blocks begin and end in a chunk's lines, when the chunk may begin inside one, and which lines
are prose about the code (``prose_lines``): docstrings, doc heredocs and ``/* … */`` blocks."""

from __future__ import annotations

import re

DOCSTRING = re.compile(r'^\s*(?:@(?:moduledoc|doc|typedoc|shortdoc)\s+(?:~[sS])?)?[rRuUbBfF]?("""|\'\'\')')
CODE_LINE = re.compile(  # a statement: quotes alone after it open a block (``ensure_ascii = False`` / ``\"\"\"``)
    r"(?:[()\[\]{},;:=]|\bdo|->)\s*$|\s[=!<>]=?\s|^(?:return|raise|import|from|def|class|if|elif|for|while|with|"
    r"except|use|alias|require|defp?)\b(?=.*[(=:\[])|^(?:else|try|finally|pass|end)\b"
)
COMMENT_LINE = re.compile(r"^(?:#|//|--)")
PROSE_END = re.compile(r"[\w.!?`')\]]$")  # ``… traced back to it.`` ends prose; ``~H`` or ``execute `` opens
OPENER_PREFIX = re.compile(r"~\w$|(?<!\w)[rRbBuUfF]{1,2}$")  # a sigil (``~H``) or a string prefix (``f``)
STRING_OPENS = re.compile(  # ``sql = \"\"\"``, ``RunSQL(\"\"\"``, ``~H\"\"\"``, ``execute \"\"\"``: a string, not prose
    r"""(?:[=(,\[:]\s*|~\w|\w\s+)[rRbBuUfF]{0,2}(?:\"\"\"|\'\'\')$"""
)


def closing_line(lines: list[str]) -> int:
    """The index of the line that closes a triple-quoted block the chunk begins inside, else -1: a chunk cut out of a
    long module docstring starts in its prose, and its closing quotes read as an opening would make the code after
    them prose (Hexpm's ``use Oban.Worker`` under a 35-line ``@moduledoc``). Quotes open a block wherever code leads
    to them: under a ``def``/``class``/``except …:`` header, after ``RunSQL(`` or ``x = 1``, as a sigil (``~H\"\"\"``),
    as a call's argument (``execute \"\"\"``), or as a module's docstring under its licence comments."""
    for index, line in enumerate(lines):
        quote = next((mark for mark in ('"""', "'''") if mark in line), None)
        if quote is None:
            continue
        if line.count(quote) != 1:
            return -1
        stripped = line.strip()
        if stripped == quote:  # alone on its line: it closes prose, and opens a block after code
            before = [text.strip() for text in lines[:index] if text.strip()]
            if not before or all(COMMENT_LINE.match(text) for text in before) or CODE_LINE.search(before[-1]):
                return -1
            return index
        ahead = stripped[: -len(quote)] if stripped.endswith(quote) else ""
        return (
            index
            if ahead and PROSE_END.search(ahead) and not OPENER_PREFIX.search(ahead) and not DOCSTRING.match(line)
            else -1
        )
    return -1


BLOCK_OPENS = re.compile(r"^\s*/\*")  # a block comment that begins its line


def prose_lines(lines: list[str]) -> set[int]:
    """Indexes of lines inside Python docstrings or Elixir doc heredocs (triple-quoted blocks), or a ``/* … */`` block
    begun on its own line: prose about the code, not the code (a `plug …` in a `@moduledoc` example runs nowhere; a
    PHP config's ``| … via Bugsnag::registerCallback.`` under ``/*`` calls nothing)."""
    closing = closing_line(lines)
    inside: set[int] = set(range(closing + 1))
    quote: str | None = None
    string: str | None = None  # a ``sql = \"\"\"`` string's quotes: its body is data, and its closing opens nothing
    for index, line in enumerate(lines):
        if index <= closing:
            continue
        if string is not None:
            string = None if string in line else string
            continue
        opens_string = next((mark for mark in ('"""', "'''") if line.count(mark) == 1), None)
        if quote is None and opens_string and STRING_OPENS.search(line.strip()) and not DOCSTRING.match(line):
            string = opens_string
            continue
        if quote is not None:
            inside.add(index)
            if quote in line:
                quote = None
            continue
        if BLOCK_OPENS.match(line):
            inside.add(index)
            quote = None if "*/" in line.lstrip()[2:] else "*/"
            continue
        opened = DOCSTRING.match(line)
        if opened:
            inside.add(index)
            rest = line[opened.end() :]
            if opened.group(1) not in rest:
                quote = opened.group(1)
    return inside
