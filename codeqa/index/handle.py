"""``Index``: one opened index — its manifest, the store that holds its chunks, its search files and its embedder.

Everything that reads an index goes through this handle, so one question opens the index once: the manifest is
read when the index is opened, the search files are loaded on first use (and shared by every handle on the same
generation in this process), and the embedder is checked against the model that built the index once.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from codeqa.config import Settings
from codeqa.embed import Embedder, get_embedder
from codeqa.records import Chunk
from codeqa.store import Manifest, SearchFiles, Store, index_dir, load_search_files


class Index:
    """An opened index generation. Cheap to make; heavy parts (search files, embedder) load lazily."""

    def __init__(self, manifest: Manifest, settings: Settings, store: Store, embedder: Embedder | None = None):
        self.manifest = manifest
        self.settings = settings
        self.store = store
        self._embedder = embedder
        self._checked = False
        self._files: SearchFiles | None = None

    @classmethod
    def open(
        cls, name: str, settings: Settings, *, store: Store | None = None, embedder: Embedder | None = None
    ) -> Index:
        """The live generation of index ``name``; ``IndexNotFoundError`` when there is none."""
        store = store or Store(settings)
        return cls(store.get_manifest(name), settings, store, embedder)

    @property
    def name(self) -> str:
        return self.manifest.name

    @property
    def key(self) -> str:
        """Names this generation of this index: anything derived from it can be cached under this key."""
        return self.manifest.collection

    @property
    def folder(self) -> Path:
        """Where this generation's own files live (search files, overview, map, file states)."""
        return index_dir(self.settings, self.manifest.collection)

    def path(self, filename: str) -> Path:
        """A per-index file of this generation (``overview.json``, ``projection.npz``, ``file-state.json``)."""
        return self.folder / filename

    @property
    def embedder(self) -> Embedder:
        """The configured embedder, checked once against the model that built the index."""
        if self._embedder is None:
            self._embedder = get_embedder(self.settings)
        if not self._checked:
            embedder = self._embedder
            self.manifest.check_model(embedder.model_id, embedder.dimension, getattr(embedder, "revision", 1))
            self._checked = True
        return self._embedder

    @property
    def files(self) -> SearchFiles:
        """The search files (chunk table, BM25, graph, vectors, file index), loaded once per process."""
        if self._files is None:
            self._files = load_search_files(self.settings, self.manifest, self.store, self._embedder)
        return self._files

    def chunks(self, ids: Sequence[str] | None = None) -> list[Chunk]:
        """The chunks with these ids, in this order (missing ids skipped); every chunk when ``ids`` is None."""
        return self.store.chunks(self.manifest, ids)
