"""Scope a question or a view: layers, kinds, languages, directories, globs — one mask for every stage."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from codeqa.errors import QueryError
from codeqa.store.table import ChunkTable


@dataclass(frozen=True)
class Filters:
    """Scope a search. Empty tuples mean "any"; ``paths`` are directory prefixes or exact file paths."""

    layers: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    languages: tuple[str, ...] = ()
    paths: tuple[str, ...] = field(default=())
    globs: tuple[str, ...] = ()  # fnmatch patterns on the repo-relative path, e.g. "src/**/*.py"

    @property
    def active(self) -> bool:
        return bool(self.layers or self.kinds or self.languages or self.paths or self.globs)

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


def check_filter_values(filters: Filters, table: ChunkTable) -> None:
    """Raise a ``QueryError`` naming the valid values when a layer, kind or language filter is not in the index.

    Without this, a typo (``--layer apis``) silently matches nothing; with it the user sees what to type.
    """
    for label, wanted, present in (
        ("layer", filters.layers, table.layers),
        ("kind", filters.kinds, table.kinds),
        ("language", filters.languages, table.languages),
    ):
        known = set(present) if wanted else set()
        unknown = [value for value in dict.fromkeys(wanted) if value not in known]
        if unknown:
            valid = ", ".join(sorted(known)) or "none"
            listed = ", ".join(repr(value) for value in unknown)
            raise QueryError(f"Unknown {label} {listed}: this index has {label}s {valid}.")
