"""What import resolution knows about a repository: each file's tags, its files per language family, build files.

Resolution never crosses families (``rules.toml`` lists them): a Python ``import json`` is looked up among Python
files only, so it can never land on ``viz-lib/json.tsx``. Build files that say how a language resolves
(``go.mod``, ``tsconfig.json``, ``package.json``, ``composer.json``) come with their text in their tags.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path, PurePosixPath
from typing import Any

from codeqa.records import FileTags

RULES: dict[str, Any] = tomllib.loads((Path(__file__).parent / "rules.toml").read_text())
FAMILIES: dict[str, str] = {language: family for family, langs in RULES["families"].items() for language in langs}

Resolution = tuple[set[str], str | None]
"""(repository files an import names, the external package to report when none — None: nothing to report)."""

_JSON_COMMENT = re.compile(r'("(?:\\.|[^"\\])*")|//[^\n]*|/\*.*?\*/', re.S)
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")


def words(text: str) -> frozenset[str]:
    """A word list written as text in ``rules.toml``."""
    return frozenset(text.split())


def read_json(text: str) -> dict[str, Any]:
    """JSON as tsconfig writes it (comments, trailing commas); ``{}`` when it still does not parse."""
    cleaned = _TRAILING_COMMA.sub(r"\1", _JSON_COMMENT.sub(lambda m: m.group(1) or "", text))
    try:
        data = json.loads(cleaned)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def parent(path: str) -> str:
    """``a/b/c.py`` → ``a/b``; a top-level file → ``""``."""
    return path.rpartition("/")[0]


def join(*parts: str) -> str | None:
    """Join and normalize POSIX parts; None when ``..`` climbs above the repository root."""
    out: list[str] = []
    for part in "/".join(p for p in parts if p).split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not out:
                return None
            out.pop()
        else:
            out.append(part)
    return "/".join(out)


def first_file(files: frozenset[str], base: str | None, patterns: Iterable[str]) -> str | None:
    """The first of ``pattern.format(base)`` that is a file (``{}.py``, ``{}/__init__.py``)."""
    if base is None:
        return None
    return next((path for pattern in patterns if (path := pattern.format(base).lstrip("/")) in files), None)


@dataclass
class Project:
    """The repository as import resolution sees it; per-family lookups are built lazily and cached."""

    tags: Mapping[str, FileTags]  # path → what the file defines, uses and imports
    prepared: dict[str, Any] = field(default_factory=dict)  # what a resolver derived once

    @classmethod
    def from_tags(cls, tags: Iterable[FileTags]) -> Project:
        return cls({item.path: item for item in tags})

    @cached_property
    def files(self) -> dict[str, frozenset[str]]:
        """Family → its files."""
        grouped: dict[str, set[str]] = defaultdict(set)
        for path, item in self.tags.items():
            if item.language in FAMILIES:
                grouped[FAMILIES[item.language]].add(path)
        return {family: frozenset(paths) for family, paths in grouped.items()}

    def cached(self, key: str, factory: Callable[[Project], Any]) -> Any:
        """What a resolver derives once per repository (package roots, aliases, class names)."""
        if key not in self.prepared:
            self.prepared[key] = factory(self)
        return self.prepared[key]

    def family_files(self, family: str) -> frozenset[str]:
        return self.files.get(family, frozenset())

    def text(self, path: str) -> str:
        """The text of a build file (only build files keep theirs)."""
        item = self.tags.get(path)
        return item.build if item else ""

    def named(self, *names: str) -> list[str]:
        """Paths whose file name is one of ``names`` (build files), shallowest first."""
        found = [path for path in self.tags if PurePosixPath(path).name in names]
        return sorted(found, key=lambda p: (p.count("/"), p))

    @cached_property
    def folders(self) -> dict[str, dict[str, set[str]]]:
        """Family → folder → files directly inside it (a Go or Java package is a folder)."""
        result: dict[str, dict[str, set[str]]] = {}
        for family, paths in self.files.items():
            inside: dict[str, set[str]] = defaultdict(set)
            for path in paths:
                inside[parent(path)].add(path)
            result[family] = dict(inside)
        return result

    def by_suffix(self, family: str, key: str, extensions: tuple[str, ...]) -> set[str]:
        """Files of ``family`` whose path without extension ends with ``key`` (a last resort, used when a build
        file that would say where sources live is not in the index); the shortest paths win."""
        index = self.cached(f"{family}:suffix", lambda project: _suffix_index(project.family_files(family), extensions))
        found = index.get(key.strip("/"), set())
        if len(found) <= 1:
            return set(found)
        shortest = min(p.count("/") for p in found)
        return {p for p in found if p.count("/") == shortest}


def _suffix_index(paths: Iterable[str], extensions: tuple[str, ...]) -> dict[str, set[str]]:
    index: dict[str, set[str]] = defaultdict(set)
    for path in paths:
        stem = next((path[: -len(ext)] for ext in extensions if path.endswith(ext)), None)
        if stem is None:
            continue
        parts = stem.split("/")
        for i in range(len(parts)):
            index["/".join(parts[i:])].add(path)
    return index


def nearest(path: str, candidates: Iterable[str]) -> set[str]:
    """The candidates sharing the most leading folders with ``path`` (the same package of a monorepo first)."""
    found = set(candidates)
    if len(found) <= 1:
        return found
    folders = path.split("/")[:-1]

    def shared(other: str) -> int:
        pairs = list(zip(folders, other.split("/")[:-1], strict=False))
        return next((i for i, (a, b) in enumerate(pairs) if a != b), len(pairs))

    best = max(shared(p) for p in found)
    return {p for p in found if shared(p) == best}
