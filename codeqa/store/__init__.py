"""The store stage: Chroma collections and manifests (``Store``) plus the search files kept beside each one.

Only ``codeqa.store.chroma`` talks to Chroma; everything else gets manifests, chunks and numpy arrays. Only
``codeqa.index`` (and the store itself) uses this package: everything else reads an index through ``codeqa.index``.
"""

from codeqa.store import chroma_files
from codeqa.store.chroma import Store
from codeqa.store.corpus import Corpus
from codeqa.store.layout import collection_dir, generation_dir, manifest_dir
from codeqa.store.manifest import Manifest, validate_index_name
from codeqa.store.searchfiles import (
    Generation,
    SearchFiles,
    SearchFilesBuilder,
    forget_search_files,
    load_search_files,
    loaded_search_files,
    open_search_files,
    rebuild_search_files,
)
from codeqa.store.table import ChunkTable

__all__ = [
    "ChunkTable",
    "Corpus",
    "Generation",
    "Manifest",
    "SearchFiles",
    "SearchFilesBuilder",
    "Store",
    "chroma_files",
    "collection_dir",
    "forget_search_files",
    "generation_dir",
    "load_search_files",
    "loaded_search_files",
    "manifest_dir",
    "open_search_files",
    "rebuild_search_files",
    "validate_index_name",
]
