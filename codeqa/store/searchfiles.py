"""The search files kept beside each Chroma collection: chunk table, BM25 index, symbol graph and vectors.

They are written at index time (``SearchFilesBuilder``, fed batch by batch as chunks stream through the
pipeline) and loaded once per process (``load_search_files``, cached). Retrieval, the map and the overview read
them instead of Chroma; when they are missing (an index built on a shared Chroma server by another machine)
they are rebuilt from the store.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np

from codeqa.chunk.resolve import ImportGraph
from codeqa.chunk.tags import tag_chunks
from codeqa.config import Settings
from codeqa.errors import StoreError
from codeqa.records import Chunk, FileTags
from codeqa.store.fileindex import FileIndex, FileIndexBuilder
from codeqa.store.graph import SymbolGraph
from codeqa.store.layout import index_dir
from codeqa.store.lexical import LexicalIndex, code_tokens, path_tokens
from codeqa.store.manifest import Manifest
from codeqa.store.table import ChunkTable
from codeqa.store.tagfile import TagCollector, load_imports
from codeqa.symbols import defined_names

if TYPE_CHECKING:
    from codeqa.store.chroma import Store

VECTORS_FILE = "vectors.npy"
META_FILE = "search-files.json"
SEARCH_FILES_VERSION = 4  # bump when what is written here changes: older search files are rebuilt from the store
CACHED_INDEXES = 8


class DocumentEmbedder(Protocol):
    def embed_documents(self, texts: Sequence[str]) -> np.ndarray: ...


def lexical_document(chunk: Chunk, code: list[str] | None = None) -> list[str]:
    """The BM25 tokens of a chunk: its code, its path, and its symbol name (counted twice)."""
    code = code_tokens(chunk.text) if code is None else code
    return code + path_tokens(chunk.path) + code_tokens(chunk.symbol) * 2


class SearchFilesBuilder:
    """Collects what lexical search and the graph need while chunks stream through the index pipeline."""

    def __init__(self) -> None:
        self.table = ChunkTable()
        self._documents: list[list[str]] = []
        self._references: list[set[str]] = []
        self._vectors: list[np.ndarray] = []
        self._files = FileIndexBuilder()
        self._tags = TagCollector()

    def add(self, chunks: Sequence[Chunk], vectors: np.ndarray, tags: Sequence[FileTags] = ()) -> None:
        """One batch of chunks with their vectors and the tags of their files (``chunk_and_tag``; without them a
        chunk is tagged on its own text)."""
        self._tags.add_tags(tags)
        self.table.append(chunks)
        self._vectors.append(np.asarray(vectors, dtype=np.float32))
        for chunk in chunks:
            code = [_intern(t) for t in code_tokens(chunk.text)]
            self._documents.append([_intern(t) for t in lexical_document(chunk, code)])
            self._references.append(self._tags.references(chunk))
            self._files.add(chunk.path, chunk.symbol, chunk.text, code)

    def add_tags(self, tags: Sequence[FileTags]) -> None:
        """Tags of files whose chunks come later (carried over from an earlier generation, rebuilt from the store)."""
        self._tags.add_tags(tags)

    def finish(self, directory: Path, embedder: DocumentEmbedder | None = None) -> None:
        """Write every search file; ``embedder`` embeds the file cards (without one, cards are the mean vectors)."""
        directory.mkdir(parents=True, exist_ok=True)
        self._tags.finish(directory)
        LexicalIndex.build(self._documents).save(directory / "bm25")
        SymbolGraph.build(self.table.symbols, self._references).save(directory)
        dimension = self._vectors[0].shape[1] if self._vectors else 0
        vectors = np.concatenate(self._vectors) if self._vectors else np.zeros((0, dimension), np.float32)
        np.save(directory / VECTORS_FILE, vectors)
        cards = embedder.embed_documents(self._files.cards()) if embedder is not None else None
        files = self._files.build(vectors, cards if cards is not None else np.zeros((0, dimension), np.float32))
        if cards is None:
            files.cards = files.means
        files.save(directory)
        (directory / META_FILE).write_text(json.dumps({"version": SEARCH_FILES_VERSION}))
        self.table.save(directory)  # written last: its presence marks the search files complete


_INTERNED: dict[str, str] = {}


def _intern(token: str) -> str:
    return _INTERNED.setdefault(token, token)


@dataclass
class SearchFiles:
    """One index generation's search files, loaded, with the lookups retrieval derives from them."""

    table: ChunkTable
    lexical: LexicalIndex
    graph: SymbolGraph
    vectors: np.ndarray  # row-aligned with the table, L2-normalized
    files: FileIndex  # one entry per file
    definers: dict[str, list[int]]  # lower-cased defined name → rows
    rows_by_basename: dict[str, list[int]]  # lower-cased file name → rows, for questions that name a file
    imports: ImportGraph = field(default_factory=lambda: ImportGraph({}, {}))  # file → files it imports (resolved)


_CACHE: OrderedDict[str, SearchFiles] = OrderedDict()
_CACHE_LOCK = threading.Lock()


def load_search_files(
    settings: Settings, manifest: Manifest, store: Store, embedder: DocumentEmbedder | None = None
) -> SearchFiles:
    """The index's table, BM25 index, graph and vectors; rebuilt from the store when missing (e.g. a shared server)."""
    key = manifest.collection
    with _CACHE_LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
    directory = index_dir(settings, manifest.collection)
    loaded = _load_files(directory)
    if loaded is None:
        if embedder is None:
            from codeqa.embed import get_embedder

            embedder = get_embedder(settings)
        _rebuild_from_store(store, manifest, directory, embedder)
        loaded = _load_files(directory)
        if loaded is None:
            raise StoreError(f"Could not rebuild the search files of index {manifest.name!r} in {directory}.")
    table, lexical, graph, vectors, file_index, imports = loaded
    definers: dict[str, list[int]] = {}
    for row, symbol in enumerate(table.symbols):
        for name in defined_names(symbol):
            definers.setdefault(name.lower(), []).append(row)
    rows_by_basename: dict[str, list[int]] = {}
    for row, path in enumerate(table.paths):
        rows_by_basename.setdefault(path.rsplit("/", 1)[-1].lower(), []).append(row)
    files = SearchFiles(table, lexical, graph, vectors, file_index, definers, rows_by_basename, imports)
    with _CACHE_LOCK:
        _CACHE[key] = files
        while len(_CACHE) > CACHED_INDEXES:
            _CACHE.popitem(last=False)
    return files


def _load_files(
    directory: Path,
) -> tuple[ChunkTable, LexicalIndex, SymbolGraph, np.ndarray, FileIndex, ImportGraph] | None:
    try:
        if json.loads((directory / META_FILE).read_text()).get("version") != SEARCH_FILES_VERSION:
            return None
    except (OSError, ValueError, AttributeError):
        return None
    table = ChunkTable.load(directory)
    if table is None:
        return None
    lexical = LexicalIndex.load(directory / "bm25")
    graph = SymbolGraph.load(directory)
    try:
        vectors = np.load(directory / VECTORS_FILE)  # in memory: every question multiplies all of it
    except (OSError, ValueError):
        return None
    if lexical is None or graph is None or lexical.size != len(table) or vectors.shape[0] != len(table):
        return None
    file_index = FileIndex.load(directory, table.paths)
    imports = load_imports(directory)
    if file_index is None or imports is None:
        return None
    return table, lexical, graph, vectors, file_index, imports


def _rebuild_from_store(store: Store, manifest: Manifest, directory: Path, embedder: DocumentEmbedder) -> None:
    builder = SearchFilesBuilder()
    batches = [(chunks, vectors) for _, chunks, vectors in store.iter_records(manifest)]
    builder.add_tags(tag_chunks([chunk for chunks, _ in batches for chunk in chunks]))  # whole files, as indexed
    for chunks, vectors in batches:
        assert vectors is not None
        builder.add(chunks, vectors)
    builder.finish(directory, embedder)
