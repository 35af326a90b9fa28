"""Where an index's own files live beside its Chroma collection: a folder per collection, a subfolder per generation.

``indexes/<collection>/g<N>/`` holds generation N's search files (chunk table, BM25 indexes, symbol graph,
vectors, file index), its file states, overview, map layout and a copy of its manifest (what `codeqa repair`
restores an index from). A build makes a new collection with generation 1; an update writes generation N+1 beside
N, so readers of N keep working until the registry names N+1. ``journal.json`` in the collection folder records
an update in progress (see ``codeqa.index.journal``). Indexes built before generations were kept (generation 0)
have their files directly in the collection folder.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from codeqa.config import Settings
from codeqa.store.manifest import Manifest

MANIFEST_COPY = "manifest.json"
LIVE_FILE = "live"  # in the collection folder: the number of its live generation (the commit point of an update)
_GENERATION = re.compile(r"^g(\d+)$")


def collection_dir(settings: Settings, collection: str) -> Path:
    return settings.indexes_dir / collection


def generation_dir(settings: Settings, collection: str, generation: int) -> Path:
    """The folder of one generation of one collection."""
    folder = collection_dir(settings, collection)
    return folder if generation == 0 else folder / f"g{generation}"


def manifest_dir(settings: Settings, manifest: Manifest) -> Path:
    return generation_dir(settings, manifest.collection, manifest.generation)


def generations(settings: Settings, collection: str) -> dict[int, Path]:
    """The generation folders a collection folder holds now, by number."""
    folder = collection_dir(settings, collection)
    found = {}
    for path in folder.iterdir() if folder.is_dir() else ():
        match = _GENERATION.match(path.name)
        if match and path.is_dir():
            found[int(match[1])] = path
    return found


PARTIAL_SUFFIX = ".partial"  # a file being written; a killed writer leaves it behind for the next open to remove


def write_atomically(path: Path, text: str, *, durable: bool = False) -> None:
    """Replace ``path`` by ``text`` in one rename (``durable``: on disk before the rename, for journals)."""
    partial = path.with_name(f"{path.name}{PARTIAL_SUFFIX}")
    with partial.open("w") as handle:
        handle.write(text)
        if durable:
            handle.flush()
            os.fsync(handle.fileno())
    partial.replace(path)


def save_manifest_copy(settings: Settings, manifest: Manifest) -> None:
    """Write the manifest beside its generation's search files, when that folder exists."""
    folder = manifest_dir(settings, manifest)
    if folder.is_dir():
        write_atomically(folder / MANIFEST_COPY, manifest.to_json())


def read_live(settings: Settings, collection: str) -> int | None:
    """The generation the collection's marker names (None: no marker, e.g. an index built on another machine)."""
    try:
        return int((collection_dir(settings, collection) / LIVE_FILE).read_text().strip())
    except (OSError, ValueError):
        return None


def write_live(settings: Settings, collection: str, generation: int) -> None:
    """Name ``generation`` the live one of ``collection``, durably, in one rename."""
    folder = collection_dir(settings, collection)
    folder.mkdir(parents=True, exist_ok=True)
    write_atomically(folder / LIVE_FILE, str(generation), durable=True)


def read_manifest_copy(settings: Settings, collection: str, generation: int) -> Manifest | None:
    try:
        manifest = Manifest.from_json((generation_dir(settings, collection, generation) / MANIFEST_COPY).read_text())
    except (OSError, ValueError, TypeError):
        return None
    return manifest if (manifest.collection, manifest.generation) == (collection, generation) else None
