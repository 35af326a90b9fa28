"""The values each filter can take in one index, with chunk counts: what the filter widgets offer."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from codeqa.index import Index
from codeqa.records import ancestor_directories
from codeqa.searchfiles.table import ChunkTable


@dataclass(frozen=True)
class Facets:
    """The values a filter can take in one index, with chunk counts (most common first)."""

    layers: dict[str, int]
    kinds: dict[str, int]
    languages: dict[str, int]
    directories: dict[str, int]  # every ancestor directory → chunks under it


def facets_of(table: ChunkTable) -> Facets:
    directories: Counter[str] = Counter()
    for path in table.paths:
        directories.update(ancestor_directories(path))
    return Facets(
        layers=dict(Counter(table.layers).most_common()),
        kinds=dict(Counter(table.kinds).most_common()),
        languages=dict(Counter(table.languages).most_common()),
        directories=dict(sorted(directories.items())),
    )


def load_facets(index: Index) -> Facets:
    """From the chunk table alone (a page's sidebar needs no BM25 index); all search files when it is missing."""
    table = ChunkTable.load(index.folder)
    return facets_of(table if table is not None else index.files.table)
