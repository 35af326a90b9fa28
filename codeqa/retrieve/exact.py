"""The exact-name fast path: a question that names a symbol the index defines gets that definition first.

"Where is ``SessionStore`` defined?", "what does parse_header do", "RateLimiter": when a short question names a
class or function exactly as the code spells it (case included), and that name is defined in at most
``MAX_FILES`` source files, those definitions lead the ranking. Long texts (issue reports, commit messages)
mention names in passing, so the path is for short questions (``MAX_WORDS``), and for questions up to
``MAX_WORDS_CODE`` words only when the name is spelled as code (``snake_case``, ``CamelCase``, ``call()``, backticks):
"which part of the code ends up calling `parse_flags`, and what does it do?" asks for that definition too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from codeqa.retrieve.query import CODE_LIKE
from codeqa.retrieve.roles import SECONDARY, Role
from codeqa.searchfiles.files import SearchFiles
from codeqa.symbols import IDENTIFIER

MAX_WORDS = 12
MAX_WORDS_CODE = 40
MAX_FILES = 3
_CAPITALIZED = re.compile(r"(?<![\w.])[A-Z][A-Za-z0-9_]*[a-z0-9_][A-Za-z0-9_]*")  # Session, HTTPAdapter, Flask


def named_symbols(query: str, code_only: bool = False) -> list[str]:
    """Names the question spells like code, in order: code-like tokens, then capitalized words past the first."""
    names: list[str] = []
    for raw in CODE_LIKE.findall(query):
        raw = raw.strip("`").strip().rstrip("(")
        if IDENTIFIER.fullmatch(raw.replace(".", "_").replace("::", "_").replace("#", "_")):
            names.append(raw)
    words = query.split()
    if code_only:
        return list(dict.fromkeys(names))
    first = words[0] if len(words) > 1 else ""  # "Where is …": a sentence's first word is capitalized anyway
    names.extend(word for word in _CAPITALIZED.findall(query) if word != first)
    return list(dict.fromkeys(names))


def exact_definitions(
    files: SearchFiles, spelled: Sequence[str], words: int, roles: Sequence[Role], mask: np.ndarray | None = None
) -> list[int]:
    """Chunk rows defining the one symbol a short question (of ``words`` words) names (best first), or [] when the
    path does not apply. ``spelled``: the names the question spells like code (``Question.spelled``).

    A name qualifies when some chunk defines exactly that name (case-sensitive) and at most ``MAX_FILES`` source
    files do (or, when no source file does, at most that many other files); the path applies when the qualifying
    names all point at the same definitions' files.
    """
    if words > MAX_WORDS_CODE:
        return []
    row_file = files.files.row_file
    found: dict[str, list[int]] = {}
    for name in spelled:
        rows = [
            row
            for row in files.all_definers.get(name.lower(), ())
            if name in files.defines[row] and (mask is None or mask[row])
        ]
        source = [row for row in rows if roles[int(row_file[row])] not in SECONDARY]
        rows = source or rows  # a name only an example or a test defines still leads there
        defining = {int(row_file[row]) for row in rows}
        if rows and len(defining) <= MAX_FILES:
            found[name] = rows
    if not found:
        return []
    file_sets = {frozenset(int(row_file[row]) for row in rows) for rows in found.values()}
    if len(file_sets) > 1:
        return []
    best = max(found, key=len)  # the longest (most specific) name decides the order: class before its method
    return sorted(found[best], key=lambda row: (_is_member(files.table.symbols[row], best), row))


def asks_only_for_the_name(words: int) -> bool:
    """A short question (of ``words`` words) is about the name itself; a longer one names it while asking about
    more."""
    return words <= MAX_WORDS


def _is_member(symbol: str, name: str) -> bool:
    """A chunk whose qualified name is the name itself (the definition) sorts before one that only ends with it."""
    return not any(qualified == name for qualified in symbol.split(", "))
