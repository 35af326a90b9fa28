"""Understanding the question: validate it, and pull out the names and file names it mentions."""

from __future__ import annotations

import re

from codeqa.errors import QueryError

MAX_QUERY_CHARS = 20_000
CODE_LIKE = re.compile(
    r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+"  # dotted: module.func, obj.attr
    r"|[A-Za-z_]\w*(?=\()"  # call: name(
    r"|[A-Za-z]\w*_\w+|_\w+"  # snake_case / _private
    r"|[a-z]+[A-Z]\w*|[A-Z][a-z0-9]+[A-Z]\w*"  # camelCase / PascalCase
    r"|`[^`\n]{2,60}`"  # inline code
)
FILE_LIKE = re.compile(
    r"[\w./-]+\.(?:py|js|jsx|ts|tsx|rb|go|java|rs|c|h|cc|cpp|hpp|cs|php|kt|swift|scala|md|rst|yaml|yml|toml|json)\b"
)
TEST_WORDS = re.compile(r"\btest(s|ing|ed)?\b|\bspec\b|\bfixture", re.IGNORECASE)


def validate_query(query: str) -> str:
    query = (query or "").strip()
    if not query:
        raise QueryError("The question is empty: type what you are looking for, e.g. 'where is the config loaded?'")
    return query[:MAX_QUERY_CHARS]


def query_identifiers(query: str) -> tuple[set[str], set[str]]:
    """Names (lower-cased, each dotted part too) and file names a question mentions."""
    names: set[str] = set()
    for raw in CODE_LIKE.findall(query):
        raw = raw.strip("`").strip()
        for part in re.split(r"[.\s()]+", raw):
            if len(part) > 2:
                names.add(part.lower())
        names.add(raw.lower())
    files = {match.lower().lstrip("./") for match in FILE_LIKE.findall(query)}
    return names, files


def asks_for_tests(query: str) -> bool:
    """True when the question is about tests (then tests are not demoted)."""
    return bool(TEST_WORDS.search(query))
