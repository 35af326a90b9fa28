"""The search files kept beside each Chroma collection: chunk table, BM25 indexes and their corpus, symbol graph,
file index, vectors and tags, one folder per generation (``codeqa.store.layout``).

``files`` writes them (``SearchFilesBuilder``), loads them once per process and rebuilds them from the store;
``check`` reads each one defensively. Who uses what: ``codeqa.index`` (5 modules) opens, writes and mends them;
retrieve (12 modules), answer (``context``), explore and ``evaluate.runner`` read what an ``Index`` hands out — the
loaded ``SearchFiles`` and its parts (``ChunkTable``, ``LexicalIndex``, ``SymbolGraph``, the tag file's
references); ``evaluate.graphcheck`` builds a ``SymbolGraph`` of its own to measure it. The tokenizer they are built
with is ``codeqa.tokens``.
"""

from codeqa.searchfiles.corpus import Corpus
from codeqa.searchfiles.files import (
    Generation,
    SearchFiles,
    SearchFilesBuilder,
    forget_search_files,
    load_search_files,
    loaded_search_files,
    open_search_files,
    rebuild_search_files,
)
from codeqa.searchfiles.table import ChunkTable

__all__ = [
    "ChunkTable",
    "Corpus",
    "Generation",
    "SearchFiles",
    "SearchFilesBuilder",
    "forget_search_files",
    "load_search_files",
    "loaded_search_files",
    "open_search_files",
    "rebuild_search_files",
]
