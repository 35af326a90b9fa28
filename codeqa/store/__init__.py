"""Chroma persistence: the collections (``Store``), the manifests that say what each index is, and the on-disk
layout of an index's own folders (``layout``: a folder per collection, a subfolder per generation).

Only ``codeqa.store.chroma`` talks to Chroma; everything else gets manifests, chunks and numpy arrays. Who uses
what: ``codeqa.index`` (11 modules) opens, writes, mends and repairs the store; ``codeqa.searchfiles`` rebuilds
its files from a ``Store``; everything else (answer, the service, the Streamlit pages, ``codeqa.Manifest``) only
names a ``Manifest`` or checks an index name (``manifest.NAME_RE``). The search files kept beside each collection
are ``codeqa.searchfiles``.
"""

from codeqa.store import chroma_files
from codeqa.store.chroma import Store
from codeqa.store.layout import collection_dir, generation_dir, manifest_dir
from codeqa.store.manifest import Manifest, validate_index_name

__all__ = [
    "Manifest",
    "Store",
    "chroma_files",
    "collection_dir",
    "generation_dir",
    "manifest_dir",
    "validate_index_name",
]
