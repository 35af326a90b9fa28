"""The values each filter can take in one index, with chunk counts: what the filter widgets offer."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from codeqa.config import Settings
from codeqa.records import ancestor_directories
from codeqa.store import ChunkTable, Manifest, Store, index_dir, load_search_files


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


def load_facets(settings: Settings, manifest: Manifest, store: Store | None = None) -> Facets:
    """From the chunk table alone (a page's sidebar needs no BM25 index); all search files when it is missing."""
    table = ChunkTable.load(index_dir(settings, manifest.collection))
    return facets_of(
        table if table is not None else load_search_files(settings, manifest, store or Store(settings)).table
    )
