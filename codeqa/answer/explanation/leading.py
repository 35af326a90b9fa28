"""Whose a chunk's leading comment is: a chunk named after a function may open on other declarations above it (Go's
``// Only support songs for now`` over ``var validMediaTypes = …``, then ``func isValidMediaType``); that comment
documents the declaration below it, not the function the chunk is named after."""

from __future__ import annotations

import re

# a declaration of another name than the definition's (a variable, a constant, a type), or a file's package header
OTHER_DECLARATION = re.compile(r"^\s*(?:export\s+)?(?:var|const|let|type|package|import)\b")


def documents(lines: list[str], index: int, comment: re.Pattern[str]) -> bool:
    """Whether the comment leading ``lines`` can document the definition whose head is line ``index``: not when the
    first code line below it declares something else above that head."""
    first = next((n for n, line in enumerate(lines) if line.strip() and not comment.match(line)), len(lines))
    return first >= index or not OTHER_DECLARATION.match(lines[first])
