"""Translation catalogs: the same messages once per language, which answer no question about how the code works.

A forum's ``public/language/ar/error.json``, ``…/th/error.json``, ``…/pt-PT/error.json`` hold every word a
question uses ("API", "request", "failed") in forty copies, and on a real-size app they fill retrieval's best files
(NodeBB's "what happens when an API request fails?" got six catalogs as its six best files, and the error handler
fell out of the candidates). A file is a catalog when its path has a language code where sibling paths have others:
at least ``MIN_LOCALES`` codes at the same place, two of them common languages (so ``src/db``, ``src/ui`` and
``src/js`` are not taken for languages). Retrieval gives them the translation role (``roles``: ranked after the
code unless the question asks for translations), and an answer's pool leaves them out unless it asks.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

MIN_LOCALES = 3
LOCALE = re.compile(r"^[a-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*$")  # en, pt-BR, zh-Hans, es-419, en-x-pirate
COMMON = frozenset(
    "en de fr es it ja zh ru pt nl ko ar pl sv tr cs da fi he hu id nb no ro uk vi th el fa".split()  # noqa: SIM905
)
ASKS = re.compile(
    r"\b(?:translat\w*|languages?|locales?|locali[sz]\w*|internationali[sz]\w*|i18n|l10n|multilingual)\b",
    re.IGNORECASE,
)


def _places(path: str) -> Iterable[tuple[str, str]]:
    """(the path with one segment replaced by ``*``, that segment) for each segment that looks like a language code
    (a file's name is read without its extensions)."""
    parts = path.split("/")
    for index, part in enumerate(parts):
        name = part.split(".", 1)[0] if index == len(parts) - 1 else part
        if LOCALE.match(name):
            rest = part[len(name) :]
            yield "/".join([*parts[:index], "*" + rest, *parts[index + 1 :]]), name


def catalog_paths(paths: Iterable[str]) -> frozenset[str]:
    """The paths among ``paths`` that are translation catalogs (see the module docstring)."""
    codes: dict[str, set[str]] = {}
    members: dict[str, list[str]] = {}
    for path in dict.fromkeys(paths):
        for place, code in _places(path):
            codes.setdefault(place, set()).add(code)
            members.setdefault(place, []).append(path)
    found: set[str] = set()
    for place, seen in codes.items():
        common = {code.replace("_", "-").split("-")[0].lower() for code in seen} & COMMON
        if len(seen) >= MIN_LOCALES and len(common) >= 2:
            found.update(members[place])
    return frozenset(found)


def asks_for_translations(question: str) -> bool:
    return ASKS.search(question) is not None
