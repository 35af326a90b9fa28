"""Whose a chunk's leading comment is: a chunk named after a function may open on other declarations above it (Go's
``// Only support songs for now`` over ``var validMediaTypes = …``, then ``func isValidMediaType``); that comment
documents the declaration below it, not the function the chunk is named after. A later piece of a long function
(vikunja's ``NewEcho``, lines 205-212, opening on ``// #nosec G115 - maxFileSize is a configuration value …`` over
``e.Use(…)``) holds no head at all: its leading comment is a note on the statement below it."""

from __future__ import annotations

import re

from codeqa.records import Chunk
from codeqa.symbols import short_name

# a declaration of another name than the definition's (a variable, a constant, a type), or a file's package header
OTHER_DECLARATION = re.compile(r"^\s*(?:export\s+)?(?:var|const|let|type|package|import)\b")


def documents(lines: list[str], index: int, comment: re.Pattern[str]) -> bool:
    """Whether the comment leading ``lines`` can document the definition whose head is line ``index``: not when the
    first code line below it declares something else above that head."""
    first = next((n for n, line in enumerate(lines) if line.strip() and not comment.match(line)), len(lines))
    return first >= index or not OTHER_DECLARATION.match(lines[first])


def headless(chunk: Chunk, definition: re.Pattern[str]) -> bool:
    """Whether ``chunk``, named after a definition, holds no head of one (no ``definition`` line, no line naming its
    own definition as declared or called): a piece of a body cut out of the middle of its definition."""
    if not chunk.symbol or str(chunk.kind) == "module":
        return False
    name = re.escape(short_name(chunk.symbol.split(",")[0].strip()))
    named = re.compile(rf"(?<![\w$.]){name}\s*(?:<[^>]*>)?\s*[(=:{{]")
    return not any(definition.match(line) or named.search(line) for line in chunk.text.split("\n"))
