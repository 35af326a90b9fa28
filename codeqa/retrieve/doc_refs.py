"""What a documentation page points at in the code: the targets of its Sphinx directives and roles
(``.. autoclass:: pkg.mod.Cls``, ``:func:`~pkg.mod.f```), mkdocstrings blocks (``::: pkg.mod``), its code references
(````name````, ```pkg.mod.f()```) and the source files it names (``src/pkg/mod.py``).

A page that matches the question explains a feature; the code it points at implements it. Retrieval gives those
files the page's vote (``file_signals.doc_bridge``) instead of letting the page compete with them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from codeqa.retrieve.query import FILE_LIKE, query_identifiers

_TARGET = r"~?!?([A-Za-z_][\w.]*[\w])(?:\(\))?"
DIRECTIVE = re.compile(
    r"^[ \t]*\.\.[ \t]+(?:py:)?(?:auto\w+|class|function|method|module|attribute|exception|data|currentmodule)"
    rf"::[ \t]*{_TARGET}",
    re.MULTILINE,
)
ROLE = re.compile(rf":(?:py:)?(?:func|class|meth|mod|attr|exc|data|obj|const|ref)`{_TARGET}`")
MKDOCSTRINGS = re.compile(rf"^[ \t]*:::[ \t]+{_TARGET}", re.MULTILINE)
LITERAL = re.compile(rf"``{_TARGET}``")  # reStructuredText inline code


@dataclass(frozen=True)
class DocReferences:
    targets: tuple[tuple[str, ...], ...]  # explicit pointers (directives, roles, literals) as dotted parts
    names: frozenset[str]  # every name the page mentions, lower-cased (``query_identifiers``)
    files: frozenset[str]  # source file paths it names, lower-cased


def doc_references(text: str) -> DocReferences:
    """The code ``text`` (a documentation chunk) points at."""
    found: list[tuple[str, ...]] = []
    for pattern in (DIRECTIVE, ROLE, MKDOCSTRINGS, LITERAL):
        for target in pattern.findall(text):
            parts = tuple(part for part in target.split(".") if part)
            if parts:
                found.append(parts)
    names, _ = query_identifiers(text)
    files = frozenset(match.lower().lstrip("./") for match in FILE_LIKE.findall(text) if not _is_doc(match))
    return DocReferences(tuple(dict.fromkeys(found)), frozenset(names), files)


def _is_doc(path: str) -> bool:
    return path.lower().endswith((".md", ".rst"))
