"""Where an index generation's local files live: one folder per Chroma collection under the data dir.

The folder holds the search files (chunk table, BM25 index, symbol graph, vectors), the map layout and a copy of
the manifest (what `codeqa repair` restores an index from when the Chroma store is damaged); dropping the
generation removes the folder, so nothing stale can be read for a newer generation.
"""

from __future__ import annotations

from pathlib import Path

from codeqa.config import Settings


def index_dir(settings: Settings, collection: str) -> Path:
    """The folder of one index generation (named after its Chroma collection)."""
    return settings.indexes_dir / collection


MANIFEST_COPY = "manifest.json"


def save_manifest_copy(directory: Path, manifest_json: str) -> None:
    """Write the manifest beside the search files (atomically), when that folder exists."""
    if directory.is_dir():
        partial = directory / f"{MANIFEST_COPY}.partial"
        partial.write_text(manifest_json)
        partial.replace(directory / MANIFEST_COPY)
