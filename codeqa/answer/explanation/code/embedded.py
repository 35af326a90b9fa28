"""Lines of a chunk inside a heredoc (Ruby ``<<~JS`` … ``JS``, PHP ``<<<EOT`` … ``EOT;``): text the definition
hands on as data (JavaScript a Ruby method gives a JS engine to run), not code it runs. A ``throw new TypeError(…)``
there is no raise of the Ruby method's, so no outcome is said of such a line."""

from __future__ import annotations

import re

from codeqa.answer.explanation.code.keylines import prose_lines
from codeqa.records import Chunk

# `<<~JS`, `<<-EOS`, `<<~'SQL'` (Ruby: a bare `<<NAME` is left alone, it reads like `list << CONSTANT`)
_RUBY = re.compile(r"<<[~-](['\"`]?)([A-Za-z_]\w*)\1")
_PHP = re.compile(r"<<<\s*(['\"]?)([A-Za-z_]\w*)\1\s*$")  # `<<<EOT`, `<<<'EOT'` (nowdoc), at the line's end


def heredoc_lines(chunk: Chunk) -> frozenset[int]:
    """The file lines of ``chunk`` inside a heredoc's body (its opening and closing lines are code), or inside a
    docstring (Indico: "It is the caller's responsibility to add the folder … using ``db.session.add(...)``." was
    said as the method's write)."""
    if '"""' in chunk.text or "'''" in chunk.text:
        docs = {chunk.start_line + n for n in prose_lines(chunk.text.split("\n"))}
        return frozenset(docs) | _heredocs(chunk)
    return _heredocs(chunk)


def _heredocs(chunk: Chunk) -> frozenset[int]:
    opener = _RUBY if chunk.language == "ruby" else _PHP if chunk.language == "php" else None
    if opener is None or "<<" not in chunk.text:
        return frozenset()
    inside: set[int] = set()
    closing = ""
    for number, text in enumerate(chunk.text.split("\n"), start=chunk.start_line):
        if closing:
            if text.strip().rstrip(";,)") == closing:
                closing = ""
            else:
                inside.add(number)
            continue
        found = opener.search(text)
        if found is not None:
            closing = found.group(2)
    return frozenset(inside)


def string_body_lines(lines: list[str]) -> frozenset[int]:
    """Indexes of ``lines`` inside a triple-quoted string begun on a line above (its closing line too): a Python
    f-string's text written from the first column (Kiwi TCMS's ``comment = f\"\"\"Filed from …`` then ``{reporter}``)
    is no statement of the module's, however it is indented."""
    inside: set[int] = set()
    quote = ""
    for index, line in enumerate(lines):
        if quote:
            inside.add(index)
            quote = "" if quote in line else quote
            continue
        quote = next((mark for mark in ('"""', "'''") if line.count(mark) % 2 == 1), "")
    return frozenset(inside)
