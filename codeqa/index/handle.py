"""``Index``: one opened index — its manifest, the store that holds its chunks, its search files and its embedder.

Everything that reads or writes an index goes through this handle, so one question opens the index once: the
manifest is read when the index is opened, the search files are loaded on first use (and shared by every handle on
the same generation in this process), and the embedder is checked against the model that built the index once.
A handle pins one generation: an update that commits meanwhile does not change what it reads (``refresh`` moves
to the live one). ``Index.build`` and ``index.update()`` run the one writer and return the new generation's handle.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from codeqa.config import Settings
from codeqa.embed import Embedder, get_embedder
from codeqa.errors import DamagedSearchFilesError, IndexBusyError
from codeqa.index.freshness import FileState, Freshness, check_freshness, load_state
from codeqa.index.journal import discard_collection, live_manifest, needs_recovery, recover
from codeqa.index.mend import rebuild
from codeqa.index.pipeline import run_build, run_update
from codeqa.index.report import IndexReport, ProgressCallback
from codeqa.index.target import PREVIOUS, claim_name
from codeqa.locks import index_lock
from codeqa.records import Chunk, FileTags
from codeqa.searchfiles import SearchFiles, forget_search_files, load_search_files, open_search_files
from codeqa.searchfiles.tagfile import load_tags
from codeqa.store import Manifest, Store, collection_dir, manifest_dir
from codeqa.store.chroma import get_client

_STORES: dict[str, Store] = {}
_STORES_LOCK = threading.Lock()


def shared_store(settings: Settings) -> Store:
    """One store (registry and collection handles) per location and process, opened on first use."""
    key = settings.chroma_url or str(settings.chroma_dir)
    get_client(settings)  # notices a store another process replaced (`codeqa repair`): the Store then reconnects
    with _STORES_LOCK:
        if key not in _STORES:
            _STORES[key] = Store(settings)
        return _STORES[key]


class Index:
    """An opened index generation. Cheap to make; heavy parts (search files, embedder) load lazily."""

    def __init__(self, manifest: Manifest, settings: Settings, store: Store, embedder: Embedder | None = None):
        self.manifest = manifest
        self.settings = settings
        self.store = store
        self.report: IndexReport | None = None  # set on the handle a build or an update returns
        self._embedder = embedder
        self._checked = False
        self._files: SearchFiles | None = None

    # -- opening, listing ------------------------------------------------------------------------------------------
    @classmethod
    def open(
        cls, name: str, settings: Settings, *, store: Store | None = None, embedder: Embedder | None = None
    ) -> Index:
        """The live generation of index ``name``; ``IndexNotFoundError`` when there is none. Leftovers of a killed
        update are rolled back or forward first, unless another process is writing the index right now."""
        store = store or shared_store(settings)
        manifest = live_manifest(store, settings, name)
        if needs_recovery(settings, manifest):
            with contextlib.suppress(IndexBusyError), index_lock(settings.home_dir / "locks", name):
                recover(store, settings, name)
                manifest = live_manifest(store, settings, name)
        return cls(manifest, settings, store, embedder)

    @classmethod
    def from_manifest(cls, manifest: Manifest, settings: Settings) -> Index:
        """A handle on the generation ``manifest`` names (a face that listed the indexes already has it)."""
        return cls(manifest, settings, shared_store(settings))

    @classmethod
    def all(cls, settings: Settings, *, store: Store | None = None) -> list[Index]:
        """Every index, by name (one registry read)."""
        store = store or shared_store(settings)
        return [cls(manifest, settings, store) for manifest in store.list_manifests()]

    @staticmethod
    def exists(name: str, settings: Settings, *, store: Store | None = None) -> bool:
        return (store or shared_store(settings)).exists(name)

    def refresh(self) -> Index:
        """A handle on the generation that is live now."""
        return Index.open(self.name, self.settings, store=self.store, embedder=self._embedder)

    # -- writing ---------------------------------------------------------------------------------------------------
    @classmethod
    def build(
        cls,
        source: str,
        settings: Settings,
        *,
        name: str | None = None,
        ref: str | None = None,
        token: str | None = None,
        progress: ProgressCallback | None = None,
        embedder: Embedder | None = None,
        store: Store | None = None,
        allow_local: bool = True,
        exclude: Callable[[str], bool] | None = None,
    ) -> Index:
        """Index ``source`` (URL, ``owner/repo`` or local path) as ``name``: a new generation in a new collection.
        The previous index (if any) answers until the new one is complete, and survives any failure."""
        store = store or shared_store(settings)
        report = run_build(source, settings, store, name=name, ref=ref, token=token, progress=progress,
                              embedder=embedder, allow_local=allow_local, exclude=exclude)  # fmt: skip
        return cls._built(report, settings, store, embedder)

    @staticmethod
    def claim_name(source: str, settings: Settings, *, name: str | None = None, ref: str | None = None,
                   store: Store | None = None) -> str:  # fmt: skip
        """The name ``Index.build(source, …)`` will write, checked before a clone that may take minutes: refused
        (``IndexNameTakenError``) when it holds another source's index."""
        return claim_name(source, settings, store or shared_store(settings), name=name, ref=ref)

    def update(self, *, token: str | None = None, progress: ProgressCallback | None = None) -> Index:
        """Bring the index up to date with its source: changed files are written in place, the rest kept."""
        report = run_update(self.manifest, self.settings, self.store, token=token, progress=progress,
                               embedder=self._embedder)  # fmt: skip
        return Index._built(report, self.settings, self.store, self._embedder)

    @classmethod
    def _built(cls, report: IndexReport, settings: Settings, store: Store, embedder: Embedder | None) -> Index:
        index = cls(report.manifest, settings, store, embedder)
        index.report = report
        return index

    def remove(self) -> Manifest:
        """Delete the index; refused while another process builds it (its commit would bring it back)."""
        with index_lock(self.settings.home_dir / "locks", self.name):
            recover(self.store, self.settings, self.name)
            manifest = self.store.get_manifest(self.name)
            self.store.unregister(self.name)
            discard_collection(self.store, self.settings, manifest.collection)
        return manifest

    # -- what it is ------------------------------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.manifest.name

    @property
    def key(self) -> str:
        """Names this generation of this index: anything derived from it can be cached under this key."""
        return self.manifest.key

    @property
    def folder(self) -> Path:
        """Where this generation's own files live (search files, overview, map, file states)."""
        return manifest_dir(self.settings, self.manifest)

    def path(self, filename: str) -> Path:
        """A per-index file of this generation (``overview.json``, ``projection.npz``, …)."""
        return self.folder / filename

    def shared_path(self, filename: str) -> Path:
        """A per-index file all its generations share (a cache keyed by content: an update keeps it); removed with
        the index."""
        return collection_dir(self.settings, self.manifest.collection) / filename

    def previous_path(self, filename: str) -> Path:
        """That file as the generation this one was updated from had it (``target.hand_forward``): a starting
        point for recomputing it, never current."""
        return self.folder / PREVIOUS / filename

    def file_state(self) -> FileState | None:
        return load_state(self.settings, self.manifest)

    def freshness(self) -> Freshness:
        """Has the source moved on since this generation was built? (local sources: HEAD and files)"""
        return check_freshness(self.settings, self.manifest)

    # -- reading ---------------------------------------------------------------------------------------------------
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
            self._files = self._load_files()
        return self._files

    def _load_files(self) -> SearchFiles:
        damage: DamagedSearchFilesError | None = None
        try:
            files = load_search_files(self.folder, self.manifest.dimension, keep=self.settings.open_indexes)
        except DamagedSearchFilesError as exc:  # rebuilt from the store below, like missing files
            files, damage = None, exc
        if files is None and self.store.exists(self.name):
            live = live_manifest(self.store, self.settings, self.name)  # a newer one replaced this one meanwhile
            if (live.collection, live.generation) != (self.manifest.collection, self.manifest.generation):
                self.manifest, self._checked = live, False
                files = open_search_files(self.folder, live.dimension, keep=self.settings.open_indexes)
        if files is None:  # e.g. an index built on a shared Chroma server by another machine, or a damaged file
            embedder = self._embedder or get_embedder(self.settings)
            files = rebuild(self.store, self.settings, self.manifest, embedder, damage)
        return files

    def release(self) -> None:
        """Drop what this process holds of this generation (its search files): read again from disk when next used."""
        self._files = None
        forget_search_files(self.folder)

    def tags(self) -> dict[str, FileTags]:
        """What each file defines, uses and imports, as tagged at index time (stored with the search files)."""
        _ = self.files  # written with the search files (and rebuilt with them when missing)
        return load_tags(self.folder) or {}

    def chunks(self, ids: Sequence[str] | None = None) -> list[Chunk]:
        """The chunks with these ids, in this order (missing ids skipped); every chunk when ``ids`` is None."""
        return self.store.chunks(self.manifest, ids)

    def records(self, ids: Sequence[str]) -> tuple[list[Chunk], np.ndarray]:
        """The chunks with these ids and their stored vectors (missing ids are an error)."""
        return self.store.records(self.manifest, ids)

    def count(self) -> int:
        """How many rows the index's collection holds."""
        return self.store.count(self.manifest)
