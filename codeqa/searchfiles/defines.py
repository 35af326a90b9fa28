"""Which names each chunk defines: the names its symbol gives plus every definition its file's tags place inside its
lines (the one place this is computed; the search files and the answer context both read it).

A chunk's ``symbol`` names at most five definitions, and a class held whole in one chunk only the class: its methods,
a JavaScript function assigned to an object's property (``authenticationController.doLogin = async function``) and a
function declared inside another are no symbol. The tags name them with their lines, so a name is defined by the row
whose lines hold its definition's line. A method is also named by its class where the chunk shows the class
(``AuthViewSet`` holding ``def create`` → ``AuthViewSet.create`` and ``create``), as ``symbols.defined_names`` names
``"A.f"`` by ``A.f`` and ``f``. Variables, parameters, constants and properties are not definitions here.

Computed when the search files are loaded, from the stored tags (``tags.json``: only each file's definitions are
decoded), so the chunk symbols, the embedded headers and the search files' format stay as they are.
"""

from __future__ import annotations

import bisect
import json
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from codeqa.records import FileTags
from codeqa.searchfiles.tagfile import TAGS_FILE, TAGS_VERSION
from codeqa.symbols import defined_names, qualified_names, short_name

# the tag kinds that define a name a call or a type can reach (not a variable, parameter, constant or property)
DEFINING_KINDS = frozenset({"function", "method", "class", "module", "interface", "type", "enum", "macro",
                            "constructor"})  # fmt: skip
OWNER_KINDS = frozenset({"class", "module", "interface", "enum"})  # what a method is named by
MEMBER_KINDS = frozenset({"function", "method", "constructor"})
_DEFINITIONS_KEY = '"definitions":'
_NEXT_KEY = ',"names":'  # the key ``tagfile._encode`` writes after the definitions (never inside a JSON string)
# one stored definition of a kept kind, ``["name","kind",line]`` (only these are decoded: Python's many variables and
# parameters are skipped unread)
_DEFINITION = re.compile(r'\["([^"\\]*(?:\\.[^"\\]*)*)","(' + "|".join(sorted(DEFINING_KINDS)) + r')",(\d+)\]')

Definition = tuple[str, str, int]  # name, kind, line (a ``Tag``'s fields: thousands are made at each load)
Definitions = Mapping[str, Sequence[Definition]]  # path → the definitions its tags hold (DEFINING_KINDS), by line


def file_definitions(tags: Sequence[FileTags]) -> dict[str, list[Definition]]:
    """The definitions of each file's tags (DEFINING_KINDS), by line."""
    found = {item.path: _kept([(d.name, d.category, d.line) for d in item.definitions]) for item in tags}
    return {path: kept for path, kept in found.items() if kept}


def load_definitions(directory: Path) -> dict[str, list[Definition]] | None:
    """The definitions ``tags.json`` holds per file, only those decoded; None when it is missing or of another
    version."""
    try:
        header, *rows = (directory / TAGS_FILE).read_text().splitlines()
        if json.loads(header).get("version") != TAGS_VERSION:
            return None
        found: dict[str, list[Definition]] = {}
        for line in rows:
            path, raw = line.split("\t", 1)
            if kept := line_definitions(raw):
                found[json.loads(path)] = kept
        return found
    except (OSError, ValueError, AttributeError, TypeError):
        return None


def line_definitions(raw: str) -> list[Definition]:
    """The definitions (DEFINING_KINDS) of one file's stored tags, ``raw`` its JSON as ``tags.json`` holds it."""
    start = raw.index(_DEFINITIONS_KEY) + len(_DEFINITIONS_KEY)
    if raw.startswith("[]", start):
        return []
    stored = _DEFINITION.findall(raw, start, raw.index(_NEXT_KEY, start))
    return _kept([(json.loads(f'"{name}"') if "\\" in name else name, kind, int(at)) for name, kind, at in stored])


def _kept(definitions: list[Definition]) -> list[Definition]:
    kept = [(sys.intern(name), kind, line) for name, kind, line in definitions if kind in DEFINING_KINDS]
    return sorted(kept, key=lambda d: d[2])


def row_defines(
    paths: Sequence[str], starts: Sequence[int], ends: Sequence[int], symbols: Sequence[str], definitions: Definitions
) -> list[tuple[str, ...]]:
    """Per row, every name it defines: its symbol's (``defined_names``) first, then each definition on its lines, a
    method also by the class above it in the chunk when the chunk's symbol names that class."""
    out: list[tuple[str, ...]] = []
    lines_of: dict[str, list[int]] = {}
    named: dict[str, tuple[str, ...]] = {}  # symbol → its names (many rows share one: "", a split definition's)
    for path, start, end, symbol in zip(paths, starts, ends, symbols, strict=True):
        names = named.get(symbol)
        if names is None:
            names = named[symbol] = tuple(defined_names(symbol))
        held = definitions.get(path)
        if not held or held[-1][2] < start or held[0][2] > end:
            out.append(names)
            continue
        lines = lines_of.get(path)
        if lines is None:
            lines = lines_of[path] = [line for _, _, line in held]
        owners = {short_name(q): q for q in qualified_names(symbol)}
        owner = ""
        extra: list[str] = []
        for name, kind, _ in held[bisect.bisect_left(lines, start) : bisect.bisect_right(lines, end)]:
            if kind in OWNER_KINDS:
                owner = owners.get(name, "")
                extra.append(owner or name)
                if owner and owner != name:
                    extra.append(name)
                continue
            if owner and kind in MEMBER_KINDS:
                extra.append(f"{owner}.{name}")
            extra.append(name)
        out.append(names + tuple(name for name in dict.fromkeys(extra) if name not in names))
    return out


def definers_of(defines: Sequence[Sequence[str]]) -> dict[str, list[int]]:
    """Lower-cased defined name → the rows that define it, in row order."""
    definers: dict[str, list[int]] = {}
    for row, names in enumerate(defines):
        for name in dict.fromkeys(name.lower() for name in names):
            definers.setdefault(name, []).append(row)
    return definers
