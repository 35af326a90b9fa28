"""Scope a question or a view: layers, kinds, languages, directories, globs — one mask for every stage."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from codeqa.errors import QueryError
from codeqa.records import ChunkKind, Layer
from codeqa.searchfiles.table import ChunkTable

KNOWN_VALUES: dict[str, frozenset[str]] = {"layer": frozenset(Layer), "kind": frozenset(ChunkKind)}
MAX_FILTER_VALUES = 50  # per filter (layers, kinds, languages, paths, globs): a scope, not a file list
MAX_FILTER_CHARS = 300  # per value


class HasFacetValues(Protocol):
    """A chunk table (one value per chunk) or ``Facets`` (value → count): anything naming the values present."""

    @property
    def layers(self) -> Iterable[str]: ...
    @property
    def kinds(self) -> Iterable[str]: ...
    @property
    def languages(self) -> Iterable[str]: ...


@dataclass(frozen=True)
class Filters:
    """Scope a search. Empty tuples mean "any"; ``paths`` are directory prefixes or exact file paths."""

    layers: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    languages: tuple[str, ...] = ()
    paths: tuple[str, ...] = field(default=())
    globs: tuple[str, ...] = ()  # fnmatch patterns on the repo-relative path, e.g. "src/**/*.py"

    def __post_init__(self) -> None:
        """Bound every filter, whichever face built it: 300 globs once took 33 s per search (#18 finding 3)."""
        for label, values in (
            ("layer", self.layers),
            ("kind", self.kinds),
            ("language", self.languages),
            ("path", self.paths),
            ("glob", self.globs),
        ):
            if len(values) > MAX_FILTER_VALUES:
                raise QueryError(
                    f"Too many {label} filters ({len(values)}): at most {MAX_FILTER_VALUES}, each at most "
                    f"{MAX_FILTER_CHARS} characters; use a directory or a broader glob instead."
                )
            longest = max((len(str(value)) for value in values), default=0)
            if longest > MAX_FILTER_CHARS:
                raise QueryError(
                    f"A {label} filter is {longest} characters long: at most {MAX_FILTER_CHARS} (and at most "
                    f"{MAX_FILTER_VALUES} {label} filters)."
                )

    @property
    def active(self) -> bool:
        return bool(self.layers or self.kinds or self.languages or self.paths or self.globs)

    def validate(self, present: HasFacetValues) -> None:
        """Raise ``QueryError`` naming the valid values when a layer, kind or language does not occur in the index.

        A typo (``--layer controllers``) would otherwise look like "no matching code"; the message lists what this
        index has, most common first, so the fix is one copy-paste away.
        """
        for label, wanted, values in (
            ("layer", self.layers, present.layers),
            ("kind", self.kinds, present.kinds),
            ("language", self.languages, present.languages),
        ):
            if not wanted:
                continue
            counts = Counter(values)  # a list counts its items; a dict of counts is taken as is
            missing = [value for value in wanted if not counts.get(value)]
            if missing:
                raise QueryError(_unknown_message(label, missing, counts))

    def mask(self, table: ChunkTable) -> np.ndarray | None:
        """The filter as a boolean mask over the chunk table's rows (None = no filter); every stage applies it."""
        return table.mask(
            layers=self.layers,
            kinds=self.kinds,
            languages=self.languages,
            paths=tuple(normalize_path_filter(p) for p in self.paths),
            globs=self.globs,
        )


def normalize_path_filter(raw: str) -> str:
    path = raw.strip().replace("\\", "/").strip("/")
    while path.startswith("./"):
        path = path[2:]
    if ".." in path.split("/"):
        raise QueryError(f"Path filter {raw!r} must be a directory inside the repository (no '..').")
    return path or "."


def _unknown_message(label: str, missing: list[str], counts: Counter[str]) -> str:
    known = KNOWN_VALUES.get(label)
    names = ", ".join(repr(value) for value in missing)
    plural = "s" if len(missing) > 1 else ""
    if known is None or any(value not in known for value in missing):
        problem = f"Unknown {label}{plural} {names}"
    else:
        problem = f"No chunk in this index has {label}{plural} {names}"
    valid = ", ".join(value for value, _ in counts.most_common()) or "none"
    return f"{problem}; this index has these {label}s: {valid}."


def check_filter_values(filters: Filters, table: ChunkTable) -> None:
    """Raise a ``QueryError`` naming the valid values when a layer, kind or language filter is not in the index."""
    filters.validate(table)
