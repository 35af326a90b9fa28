"""Where an index generation's local files live: one folder per Chroma collection under the data dir.

The folder holds the search files (chunk table, BM25 index, symbol graph, vectors) and the map layout; dropping
the generation removes the folder, so nothing stale can be read for a newer generation.
"""

from __future__ import annotations

from pathlib import Path

from codeqa.config import Settings


def index_dir(settings: Settings, collection: str) -> Path:
    """The folder of one index generation (named after its Chroma collection)."""
    return settings.indexes_dir / collection
