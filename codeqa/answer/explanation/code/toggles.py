"""A value kept in step with a test: an ``if`` branch sets it and its ``else`` takes it away again. Such a line is
bookkeeping, not what the story does, so no outcome quotes it."""

from __future__ import annotations

import re

from codeqa.records import Chunk

# an `else` that undoes what its `if` set (`req.session.meta.reAuthAt = now;` / `delete req.session.meta.reAuthAt;`)
ELSE_HEAD = re.compile(r"^\s*(?:\}\s*)?else\b(?!\s*if\b)")
ASSIGNED = re.compile(r"^\s*(?:(?P<declared>const|let|var)\s+)?(?P<target>[\w$@][\w$.@]*(?:\[[^\]]+\])*)\s*=[^=]")


def toggled(chunk: Chunk, line: int, code: str) -> bool:
    """Whether ``code`` (file line ``line`` of ``chunk``) sets a value on an ``if`` branch whose ``else`` takes it
    away again (``delete x``, ``unset(x)``, ``x = nil``): a flag kept in step with a test, not what the story does."""
    assigned = ASSIGNED.match(code)
    lines = chunk.text.split("\n")
    position = line - chunk.start_line
    if assigned is None or not 0 <= position < len(lines):
        return False
    target = re.escape(assigned.group("target"))
    undone = re.compile(
        rf"^\s*(?:delete\s+{target}\b|unset\(\s*{target}\s*\)|{target}\s*=\s*(?:nil|null|None|undefined)\b)"
    )
    indent = len(lines[position]) - len(lines[position].lstrip())
    for offset in range(position + 1, len(lines)):
        text = lines[offset]
        if not text.strip():
            continue
        depth = len(text) - len(text.lstrip())
        if depth < indent:
            if not ELSE_HEAD.match(text):
                return False
            for other in lines[offset + 1 :]:  # the ``else`` block: the lines below it, indented deeper
                if other.strip() and len(other) - len(other.lstrip()) <= depth:
                    return False
                if undone.match(other):
                    return True
            return False
    return False
