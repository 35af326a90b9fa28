"""The search files kept beside each Chroma collection: chunk table, BM25 index, symbol graph, vectors and tags.

They are written by the index writer (``SearchFilesBuilder``: fresh chunks batch by batch as they stream through,
rows and tags of unchanged files carried from the previous generation) into one folder per generation, and loaded
once per process (``open_search_files``, cached by folder). Retrieval, the map and the overview read them instead
of Chroma; when they are missing (an index built on a shared Chroma server by another machine) they are rebuilt
from the store.
"""

from __future__ import annotations

import json
import sys
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np

from codeqa.chunk.resolve import ImportGraph
from codeqa.chunk.resolve.python import marker_tags
from codeqa.chunk.tags import tag_chunks
from codeqa.errors import DamagedSearchFilesError, StoreError
from codeqa.records import Chunk, FileTags
from codeqa.searchfiles import check as checked
from codeqa.searchfiles.bm25 import bm25_from_ids
from codeqa.searchfiles.corpus import Corpus, CorpusBuilder
from codeqa.searchfiles.defines import definers_of, load_definitions, row_defines
from codeqa.searchfiles.fileindex import FileIndex, FileIndexBuilder
from codeqa.searchfiles.graph import SymbolGraph
from codeqa.searchfiles.lexical import LexicalIndex
from codeqa.searchfiles.table import TABLE_FILE, ChunkTable
from codeqa.searchfiles.tagfile import (
    IMPORTS_FILE,
    TAGS_FILE,
    StoredTags,
    TagCollector,
    load_imports,
    load_stored_tags,
    tags_current,
)
from codeqa.store.manifest import Manifest
from codeqa.symbols import IDENTIFIER, defined_names
from codeqa.tokens import code_tokens, path_tokens, plain_tokens, tokens_of_words

if TYPE_CHECKING:
    from codeqa.store.chroma import Store

VECTORS_FILE = "vectors.npy"
META_FILE = "search-files.json"
# bump when what is written here changes: older search files are rebuilt from the store (10: Python roots by
# manage.py; 11: empty package markers the index skipped guide Python import resolution; 12: a JS/TS method's
# name is no binding of its file's)
SEARCH_FILES_VERSION = 12
CACHED_INDEXES = 3  # the default of Settings.open_indexes


class DocumentEmbedder(Protocol):
    def embed_documents(self, texts: Sequence[str]) -> np.ndarray: ...


def lexical_document(chunk: Chunk, code: list[str] | None = None) -> list[str]:
    """The BM25 tokens of a chunk: its code, its path, and its symbol name (counted twice)."""
    code = code_tokens(chunk.text) if code is None else code
    return code + path_tokens(chunk.path) + code_tokens(chunk.symbol) * 2


@dataclass
class Generation:
    """An earlier generation whose rows an update carries over: its search files, its corpus and its files' tags."""

    files: SearchFiles
    corpus: Corpus
    tags: StoredTags = field(default_factory=lambda: StoredTags({}))

    @classmethod
    def load(cls, directory: Path, files: SearchFiles) -> Generation | None:
        corpus = Corpus.load(directory)
        tags = load_stored_tags(directory)
        if corpus is None or tags is None or len(corpus) != len(files.table):
            return None
        return cls(files, corpus, tags)

    @property
    def card_of(self) -> dict[str, int]:
        return {path: number for number, path in enumerate(self.files.files.paths)}


class SearchFilesBuilder:
    """Collects what lexical search and the graph need while rows stream through the index writer: fresh chunks
    (tokenized here) and rows carried from an earlier generation (their tokens, vectors and tags copied).

    A chunk's references (the symbol graph's edges) are what its file's tag query found on its lines: a call or a
    type, not a name in a comment or a string. Text no tag query reads (docs, config, languages without a query)
    links through the identifier pattern."""

    def __init__(self) -> None:
        self.table = ChunkTable()
        self._vectors: list[np.ndarray] = []
        self._corpus = CorpusBuilder()
        self._files = FileIndexBuilder()
        self._tags = TagCollector()

    def add(self, chunks: Sequence[Chunk], vectors: np.ndarray, tags: Sequence[FileTags] = ()) -> None:
        """Fresh chunks with their vectors and the tags of their files (``chunk_and_tag``; without them a chunk is
        tagged on its own text)."""
        self._tags.add_tags(tags)
        self.table.append(chunks)
        self._vectors.append(np.asarray(vectors, dtype=np.float32))
        for chunk in chunks:
            words = IDENTIFIER.findall(chunk.text)  # once, for the chunk's tokens and the names it mentions
            code = tokens_of_words(words)
            refs = self._tags.tagged_references(chunk)
            if refs is None:
                refs = {sys.intern(word) for word in words if len(word) >= 3}  # = referenced_names(chunk.text)
            self._corpus.add(lexical_document(chunk, code), len(code), refs, plain_tokens(chunk.text))
            self._files.add(chunk.path, chunk.symbol, chunk.text)

    def carry(self, base: Generation, rows: Sequence[int]) -> None:
        """Append ``rows`` of ``base`` (whole files, in order), with their vectors, tokens and file cards."""
        if not rows:
            return
        table = base.files.table
        self.table.extend(table, rows)
        self._vectors.append(np.asarray(base.files.vectors[np.asarray(rows)], dtype=np.float32))
        self._corpus.carry(base.corpus, rows)
        card_of, cards = base.card_of, base.files.files.cards
        last = ""
        for row in rows:
            path = table.paths[row]
            self._files.add(path, table.symbols[row], None, cards[card_of[path]])
            if path != last:
                self._tags.carry(base.tags, path)
            last = path

    def add_tags(self, tags: Sequence[FileTags]) -> None:
        """Tags of files whose chunks come later (search files rebuilt from the store tag whole files first)."""
        self._tags.add_tags(tags)

    def finish(self, directory: Path, embedder: DocumentEmbedder | None = None, skipped: Sequence[str] = ()) -> None:
        """Write every search file; ``embedder`` embeds the file cards (without one, cards are the mean vectors);
        ``skipped``: the files the index left out, of which import resolution reads the package markers."""
        directory.mkdir(parents=True, exist_ok=True)
        self._tags.finish(directory, marker_tags(skipped))
        scopes = self._tags.scopes
        corpus = self._corpus.build()
        LexicalIndex(bm25_from_ids(corpus.lexical, corpus.vocab, k1=1.2, b=0.75), len(corpus)).save(directory / "bm25")
        refs, table = corpus.refs, self.table
        lines = list(zip(table.starts, table.ends, strict=True))
        graph = SymbolGraph.from_ids(
            table.symbols, refs.flat, refs.offsets, corpus.vocab, table.languages, table.paths, scopes, lines
        )
        graph.save(directory)
        dimension = self._vectors[0].shape[1] if self._vectors else 0
        vectors = np.concatenate(self._vectors) if self._vectors else np.zeros((0, dimension), np.float32)
        np.save(directory / VECTORS_FILE, vectors)
        documents = self._files.documents(corpus, self._corpus.ids)
        cards = None
        if embedder is not None:
            _, texts = self._files.cards_to_embed()
            cards = _embed_cards(embedder, texts, dimension)
        vocab = list(self._corpus.vocab)  # the file documents may have added tokens (paths, names)
        self._files.build(corpus, vocab, documents, vectors, cards).save(directory)
        corpus.save(directory)
        (directory / META_FILE).write_text(json.dumps({"version": SEARCH_FILES_VERSION}))
        self.table.save(directory)  # written last: its presence marks the search files complete


CARD_BATCH = 2048


def _embed_cards(embedder: DocumentEmbedder, texts: list[str], dimension: int) -> np.ndarray:
    """The file cards' vectors, a batch at a time (one call for 30k files' cards took 100 MB more at its peak)."""
    if not texts:
        return np.zeros((0, dimension), np.float32)
    batches = [embedder.embed_documents(texts[at : at + CARD_BATCH]) for at in range(0, len(texts), CARD_BATCH)]
    return np.concatenate(batches).astype(np.float32, copy=False)


@dataclass
class SearchFiles:
    """One index generation's search files, loaded, with the lookups retrieval derives from them."""

    table: ChunkTable
    lexical: LexicalIndex
    graph: SymbolGraph
    vectors: np.ndarray  # row-aligned with the table, L2-normalized
    files: FileIndex  # one entry per file
    definers: dict[str, list[int]]  # lower-cased name a row's symbol defines → rows
    rows_by_basename: dict[str, list[int]]  # lower-cased file name → rows, for questions that name a file
    imports: ImportGraph = field(default_factory=lambda: ImportGraph({}, {}))  # file → files it imports (resolved)
    defines: list[tuple[str, ...]] = field(default_factory=list)  # per row, every name it defines (``defines.py``)
    all_definers: dict[str, list[int]] = field(default_factory=dict)  # lower-cased name → rows (from ``defines``)


_Parts = tuple[ChunkTable, LexicalIndex, SymbolGraph, np.ndarray, FileIndex, ImportGraph]
_CACHE: OrderedDict[str, SearchFiles] = OrderedDict()
_CACHE_LOCK = threading.Lock()


def open_search_files(
    directory: Path, dimension: int | None = None, *, keep: int = CACHED_INDEXES
) -> SearchFiles | None:
    """The search files in ``directory``, loaded once per process (cached by folder: a generation's folder is never
    written again once complete; the ``keep`` most recently used stay loaded); None when they are missing,
    incomplete, from another version or damaged."""
    try:
        return load_search_files(directory, dimension, keep=keep)
    except DamagedSearchFilesError:
        return None


def load_search_files(
    directory: Path, dimension: int | None = None, *, keep: int = CACHED_INDEXES
) -> SearchFiles | None:
    """``open_search_files``, but a damaged file (checked against the table and ``dimension``, the index's embedding
    dimension) raises ``DamagedSearchFilesError`` naming it."""
    key = str(directory)
    with _CACHE_LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
    loaded = _load_files(directory, dimension)
    if loaded is None:
        return None
    table, lexical, graph, vectors, file_index, imports = loaded
    definers = definers_of([defined_names(symbol) for symbol in table.symbols])  # the symbols' names only
    defines = row_defines(table.paths, table.starts, table.ends, table.symbols, load_definitions(directory) or {})
    rows_by_basename: dict[str, list[int]] = {}
    for row, path in enumerate(table.paths):
        rows_by_basename.setdefault(path.rsplit("/", 1)[-1].lower(), []).append(row)
    files = SearchFiles(table, lexical, graph, vectors, file_index, definers, rows_by_basename, imports, defines,
                        definers_of(defines))  # fmt: skip
    with _CACHE_LOCK:
        _CACHE[key] = files
        while len(_CACHE) > max(keep, 1):
            _CACHE.popitem(last=False)
    return files


def loaded_search_files() -> list[str]:
    """The folders whose search files this process holds, least recently used first."""
    with _CACHE_LOCK:
        return list(_CACHE)


def forget_search_files(directory: Path) -> None:
    """Drop a folder's loaded search files from this process's cache (the folder is being rewritten)."""
    with _CACHE_LOCK:
        _CACHE.pop(str(directory), None)


def _load_files(directory: Path, dimension: int | None) -> _Parts | None:
    """None when the files are not there (or from another version); every file checked (``check``)."""
    try:
        meta = json.loads((directory / META_FILE).read_text())
    except (OSError, ValueError):
        return None
    current = isinstance(meta, dict) and meta.get("version") == SEARCH_FILES_VERSION
    if not current or not (directory / TABLE_FILE).exists():
        return None
    table = checked.load_table(directory)
    lexical = checked.load_lexical(directory / "bm25", len(table))
    graph = checked.load_graph(directory, len(table))
    vectors = checked.load_vectors(directory / VECTORS_FILE, len(table), dimension)  # in memory: every question uses it
    file_index = checked.load_file_index(directory, table.paths, vectors.shape[1])
    imports = load_imports(directory)
    if imports is None:
        raise checked.damaged(directory / IMPORTS_FILE, "is missing, unreadable or from another version")
    if not tags_current(directory):
        raise checked.damaged(directory / TAGS_FILE, "is missing, unreadable or from another version")
    return table, lexical, graph, vectors, file_index, imports


def rebuild_search_files(
    store: Store, manifest: Manifest, directory: Path, embedder: DocumentEmbedder, skipped: Sequence[str] = ()
) -> None:
    """Write the search files of an index from the rows its collection holds (an index built on a shared Chroma
    server by another machine has none here); ``skipped``: the files it left out (its file state's)."""
    forget_search_files(directory)
    rows: list[tuple[Chunk, np.ndarray]] = []
    for _, chunks, vectors in store.iter_records(manifest):
        assert vectors is not None
        if (why := checked.stored_vectors_damage(vectors, manifest.dimension)) is not None:
            raise StoreError(f"The vectors the store holds for index {manifest.name!r} are damaged ({why}); "
                             f"re-index it with `codeqa index {manifest.source} --name {manifest.name}`.")  # fmt: skip
        rows.extend(zip(chunks, vectors, strict=True))
    rows.sort(key=lambda row: (row[0].path, row[0].start_line, row[0].end_line))  # the order an index writes
    builder = SearchFilesBuilder()
    builder.add_tags(tag_chunks([chunk for chunk, _ in rows]))  # whole files, as indexed
    for start in range(0, len(rows), 2000):
        batch = rows[start : start + 2000]
        builder.add([chunk for chunk, _ in batch], np.asarray([vector for _, vector in batch], dtype=np.float32))
    with checked.staging(directory) as folder:  # moved into place file by file: readers never see half a file
        builder.finish(folder, embedder, skipped)
    forget_search_files(directory)
