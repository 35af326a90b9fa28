"""Names in code: the one identifier pattern and the one parser for the ``symbol`` strings chunks carry.

A chunk's ``symbol`` is a qualified name (``SessionStore.login``, ``pkg::mod::f``, ``Cart#total``), or several
joined by ``", "`` when small siblings were merged (``"Product, Order"``, at most five, then ``"…"``).
"""

from __future__ import annotations

import re
import sys

IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
CAMEL_PARTS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
SEPARATORS = re.compile(r"[.#:]+")  # Class.method, Ruby Class#method, Rust/C++ a::b


def identifier_words(word: str) -> list[str]:
    """``getHTTPResponse_v2`` → ``["get", "http", "response", "v", "2"]`` (lower-cased camelCase/snake_case parts)."""
    return [part.lower() for piece in word.split("_") for part in CAMEL_PARTS.findall(piece)]


def qualified_names(symbol: str) -> list[str]:
    """``"A.f, A.g"`` → ``["A.f", "A.g"]`` (the ``…`` of a long merged list dropped)."""
    names = []
    for part in symbol.split(","):
        part = part.strip().strip("…").strip()
        if part:
            names.append(part)
    return names


def short_name(qualified: str) -> str:
    """``SessionStore.login`` → ``login``; ``pkg::mod::f`` → ``f``."""
    return SEPARATORS.split(qualified)[-1] if qualified else ""


def short_names(symbol: str) -> list[str]:
    """The short name of every definition in a chunk's ``symbol``."""
    return [name for name in (short_name(q) for q in qualified_names(symbol)) if name]


def defined_names(symbol: str) -> list[str]:
    """Every name a chunk defines, qualified and short: ``"A.f, A.g"`` → ``["A.f", "f", "A.g", "g"]``."""
    names: list[str] = []
    for qualified in qualified_names(symbol):
        names.append(qualified)
        last = short_name(qualified)
        if last and last != qualified:
            names.append(last)
    return names


def referenced_names(text: str, min_length: int = 3) -> set[str]:
    """Identifiers ``text`` mentions (interned: the symbol graph keeps millions of them)."""
    return {sys.intern(name) for name in IDENTIFIER.findall(text) if len(name) >= min_length}
