"""The chunk table: every chunk's metadata in row order, kept beside the Chroma collection.

Lexical search, the symbol graph and filters work on rows of this table with numpy, which keeps filtered
retrieval fast and identical across stages (a directory-scoped question can never leak).
"""

from __future__ import annotations

import fnmatch
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from codeqa.records import Chunk

TABLE_FILE = "chunks.json"
T = TypeVar("T")


@dataclass
class ChunkTable:
    ids: list[str] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    symbols: list[str] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    layers: list[str] = field(default_factory=list)
    languages: list[str] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)
    ends: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._forget_derived()

    def _forget_derived(self) -> None:
        """Drop what is computed from the rows (after rows are added); kept on the table so it dies with it."""
        self._columns: dict[str, np.ndarray] = {}
        self._masks: dict[tuple, np.ndarray] = {}
        self._derived: dict[str, Any] = {}

    def __len__(self) -> int:
        return len(self.ids)

    def append(self, chunks: Sequence[Chunk]) -> None:
        for chunk in chunks:
            self.ids.append(chunk.id)
            self.paths.append(chunk.path)
            self.symbols.append(chunk.symbol)
            self.kinds.append(str(chunk.kind))
            self.layers.append(str(chunk.layer))
            self.languages.append(chunk.language)
            self.starts.append(chunk.start_line)
            self.ends.append(chunk.end_line)
        self._forget_derived()

    def extend(self, other: ChunkTable, rows: Sequence[int]) -> None:
        """Append ``rows`` of another table (an earlier generation's), in that order."""
        for name in self.__dataclass_fields__:
            column, source = getattr(self, name), getattr(other, name)
            column.extend(source[row] for row in rows)
        self._forget_derived()

    def derived(self, name: str, make: Callable[[], T]) -> T:
        """``make()``, computed once per table: a value read from the rows lives and dies with them (a cache keyed by
        ``id(table)`` outlives its table and answers for the next one Python puts at the same address)."""
        if name not in self._derived:
            self._derived[name] = make()
        return self._derived[name]

    def rows_by_id(self) -> dict[str, int]:
        """chunk id → row."""
        return self.derived("rows by id", lambda: {chunk_id: row for row, chunk_id in enumerate(self.ids)})

    def rows_by_path(self) -> dict[str, list[int]]:
        """file path → its rows, in row order."""

        def make() -> dict[str, list[int]]:
            by_path: dict[str, list[int]] = {}
            for row, path in enumerate(self.paths):
                by_path.setdefault(path, []).append(row)
            return by_path

        return self.derived("rows by path", make)

    def column(self, name: str) -> np.ndarray:
        """A column as a numpy array (cached), for vectorized filters."""
        if name not in self._columns:
            self._columns[name] = np.asarray(getattr(self, name), dtype=object)
        return self._columns[name]

    def mask(
        self,
        *,
        layers: Sequence[str] = (),
        kinds: Sequence[str] = (),
        languages: Sequence[str] = (),
        paths: Sequence[str] = (),
        globs: Sequence[str] = (),
    ) -> np.ndarray | None:
        """Rows that pass every filter, or None when there is no filter (cached: the UI repeats filters)."""
        if not (layers or kinds or languages or paths or globs):
            return None
        key = (tuple(layers), tuple(kinds), tuple(languages), tuple(paths), tuple(globs))
        if key not in self._masks:
            if len(self._masks) > 64:
                self._masks.clear()
            self._masks[key] = self._compute_mask(*key)
        return self._masks[key]

    def _compute_mask(
        self,
        layers: Sequence[str],
        kinds: Sequence[str],
        languages: Sequence[str],
        paths: Sequence[str],
        globs: Sequence[str],
    ) -> np.ndarray:
        keep = np.ones(len(self), dtype=bool)
        for column, wanted in (("layers", layers), ("kinds", kinds), ("languages", languages)):
            if wanted:
                keep &= np.isin(self.column(column), list(wanted))
        if paths or globs:  # decided once per file (chunks share paths), with the globs compiled into one pattern
            rows: dict[str, int] = {}
            codes = np.fromiter((rows.setdefault(p, len(rows)) for p in self.paths), dtype=np.int64, count=len(self))
            matcher = re.compile("|".join(f"(?:{fnmatch.translate(g)})" for g in globs)).match if globs else None
            allowed = np.fromiter(
                (
                    (not paths or _under_any(name, paths)) and (matcher is None or matcher(name) is not None)
                    for name in rows
                ),
                dtype=bool,
                count=len(rows),
            )
            keep &= allowed[codes]
        return keep

    def save(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        data = {name: getattr(self, name) for name in self.__dataclass_fields__}
        tmp = directory / (TABLE_FILE + ".tmp")
        tmp.write_text(json.dumps(data, separators=(",", ":")))
        tmp.replace(directory / TABLE_FILE)

    @classmethod
    def load(cls, directory: Path) -> ChunkTable | None:
        try:
            data = json.loads((directory / TABLE_FILE).read_text())
            return cls(**{name: data[name] for name in cls.__dataclass_fields__})
        except (OSError, ValueError, KeyError, TypeError):
            return None


def _under_any(path: str, prefixes: Sequence[str]) -> bool:
    for prefix in prefixes:
        if prefix in (".", "") or path == prefix or path.startswith(prefix.rstrip("/") + "/"):
            return True
    return False
