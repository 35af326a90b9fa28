"""The store stage: Chroma collections and manifests (``Store``) plus the search files kept beside each one.

Only ``codeqa.store.chroma`` talks to Chroma; everything else gets manifests, chunks and numpy arrays.
"""

from codeqa.store import chroma_files
from codeqa.store.chroma import Store
from codeqa.store.layout import index_dir
from codeqa.store.manifest import Manifest, validate_index_name
from codeqa.store.searchfiles import SearchFiles, SearchFilesBuilder, load_search_files
from codeqa.store.table import ChunkTable

__all__ = [
    "ChunkTable",
    "Manifest",
    "SearchFiles",
    "SearchFilesBuilder",
    "Store",
    "chroma_files",
    "index_dir",
    "load_search_files",
    "validate_index_name",
]
