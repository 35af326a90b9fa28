"""``update``: bring an index up to date with its source, re-chunking and re-embedding only the files that changed.

The source is resolved again (a URL is fetched), scanned, and each file's content hash is compared with the file
state recorded when the index was built. Unchanged files keep their chunks: the records (text, metadata, vector)
are copied from the live generation, never chunked or embedded again. Changed and new files go through chunk →
embed (the embedding cache still skips unchanged text). Like ``build_index``, everything is written to a new
generation that replaces the old one only when complete, under the index lock: an interrupted update leaves the
index as it was. Local Chroma cannot fork a collection, so unchanged records are copied: texts from the store,
vectors from the search files (no model runs for them); writing them to the new collection is most of the time.

An index with no recorded file state, or built with another chunker or embedding model, is rebuilt in full.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from codeqa.chunk import CHUNKER_VERSION, chunk_and_tag
from codeqa.config import Settings
from codeqa.embed import Embedder, EmbeddingCache, embed_chunks, get_embedder
from codeqa.errors import ScanError, StoreError
from codeqa.freshness import load_state, record_state, save_state
from codeqa.locks import index_lock
from codeqa.pipeline import (
    STAGES,
    BackgroundWriter,
    IndexReport,
    ProgressCallback,
    ProgressEvent,
    StageClock,
    build_index,
    index_manifest,
)
from codeqa.records import Chunk, FileTags, ResolvedSource, ScanResult, SourceFile
from codeqa.scan import scan_repository
from codeqa.source import resolve_source
from codeqa.store import Manifest, SearchFilesBuilder, Store, index_dir, load_search_files
from codeqa.store.tagfile import load_tags

BATCH = 512

__all__ = ["STAGES", "update_index"]


def update_index(
    name: str,
    settings: Settings,
    *,
    token: str | None = None,
    progress: ProgressCallback | None = None,
    embedder: Embedder | None = None,
    store: Store | None = None,
) -> IndexReport:
    """Re-index what changed in index ``name``'s source since it was built; the old index survives any failure."""
    emit = progress or (lambda event: None)
    store = store or Store(settings)
    old = store.get_manifest(name)
    embedder = embedder or get_embedder(settings)
    state = load_state(settings, old)
    same_model = old.model == embedder.model_id and old.model_revision == getattr(embedder, "revision", 1)
    if state is None or old.chunker_version != CHUNKER_VERSION or not same_model:
        emit(ProgressEvent("clone", "Rebuilding the whole index (it has no file record or another model)"))
        ref = old.ref if old.source_kind == "git" else None
        return build_index(old.source, settings, name=name, ref=ref, token=token, progress=progress,
                           embedder=embedder, store=store)  # fmt: skip
    clock = StageClock()
    started = time.perf_counter()
    emit(ProgressEvent("clone", f"Resolving {old.source}"))
    resolved = resolve_source(
        old.source,
        settings,
        ref=old.ref if old.source_kind == "git" else None,
        token=token,
        progress=lambda message, fraction: emit(ProgressEvent("clone", message, fraction)),
    )
    clock.add("clone", started)
    with index_lock(settings.home_dir / "locks", name):
        old = store.get_manifest(name)  # it may have been re-indexed while we waited for the lock
        started = time.perf_counter()
        scan = scan_repository(resolved.root, settings, subdir=resolved.subdir)
        clock.add("scan", started)
        if not scan.files:
            raise ScanError(f"Nothing to index in {resolved.spec} any more: no source or text files found.")
        hashes = (load_state(settings, old) or state).hashes()
        search = load_search_files(settings, old, store, embedder)
        rows: dict[str, list[int]] = {}
        for row, path in enumerate(search.table.paths):
            rows.setdefault(path, []).append(row)
        keep = {f.path for f in scan.files if hashes.get(f.path) == f.hash and f.path in rows}
        emit(ProgressEvent("scan", f"{len(scan.files) - len(keep)} of {len(scan.files)} files changed or new", 1.0))
        tags = load_tags(index_dir(settings, old.collection)) or {}  # carried files keep their tags
        previous = Previous(old, search.table.ids, search.vectors, rows, tags)
        return _write(resolved, name, settings, previous, scan, keep, embedder, store, clock, emit)


@dataclass
class Previous:
    """The live generation that unchanged files are carried over from: chunk ids and vectors by table row."""

    manifest: Manifest
    ids: list[str]
    vectors: np.ndarray
    rows: dict[str, list[int]]  # path → its rows
    tags: dict[str, FileTags]  # path → what it defines, uses and imports (missing: tagged again from its chunks)

    def carry(self, store: Store, rows: list[int]) -> tuple[list[Chunk], np.ndarray]:
        """The chunks (texts from the store) and vectors (from the search files) of ``rows``, in that order."""
        chunks = store.chunks(self.manifest, [self.ids[row] for row in rows])
        if len(chunks) != len(rows):
            raise StoreError(f"Index {self.manifest.name!r} lost {len(rows) - len(chunks)} chunk(s); re-index it.")
        return chunks, np.asarray(self.vectors[rows], dtype=np.float32)


def _write(
    resolved: ResolvedSource,
    name: str,
    settings: Settings,
    previous: Previous,
    scan: ScanResult,
    keep: set[str],
    embedder: Embedder,
    store: Store,
    clock: StageClock,
    emit: ProgressCallback,
) -> IndexReport:
    """Write the new generation: unchanged files' records copied, the others chunked and embedded."""
    cache = EmbeddingCache(settings.cache_dir / "embeddings.sqlite")
    collection = store.new_generation(name)
    search_files = SearchFilesBuilder()
    writer = BackgroundWriter(store, collection, clock)
    totals = {"chunks": 0, "embedded": 0, "carried": 0}
    try:
        pending: list[tuple[SourceFile, list[int] | None]] = []
        for done, file in enumerate(scan.files, start=1):
            pending.append((file, previous.rows[file.path] if file.path in keep else None))
            size = sum(len(rows) if rows is not None else 1 for _, rows in pending)
            if size >= BATCH or done == len(scan.files):
                chunks, vectors, tags = _batch(pending, previous, settings, embedder, cache, store, clock, totals)
                writer.put(chunks, vectors)
                search_files.add(chunks, vectors, tags)
                totals["chunks"] += len(chunks)
                pending = []
                emit(ProgressEvent("embed", f"{totals['chunks']} chunks ({totals['embedded']} newly embedded, "
                                   f"{totals['carried']} carried over)", done / len(scan.files)))  # fmt: skip
        writer.close()
        manifest = index_manifest(resolved, name, collection, embedder, scan.files, scan.skipped_by_reason())
        manifest.counts.update(chunks=totals["chunks"], embedded=totals["embedded"])
        started = time.perf_counter()
        emit(ProgressEvent("store", "Building lexical index and symbol graph"))
        directory = index_dir(settings, collection)
        search_files.finish(directory, embedder)
        save_state(directory, record_state(resolved.root, scan.files, scan.skipped))
        clock.add("store", started)
        manifest.timings = {stage: round(seconds, 3) for stage, seconds in clock.seconds.items()}
        store.commit(manifest)
    except BaseException:
        writer.abandon()
        store.drop_collection(collection)
        raise
    finally:
        cache.close()
    emit(ProgressEvent("done", f"Updated {name}: {len(scan.files) - len(keep)} files re-indexed", 1.0))
    return IndexReport(manifest=manifest, files=len(scan.files), chunks=totals["chunks"],
                       lines=manifest.counts["lines"], embedded=totals["embedded"], skipped=manifest.skipped,
                       languages=manifest.languages, timings=manifest.timings, notices=cache.notices,
                       carried=totals["carried"])  # fmt: skip


def _batch(
    pending: Sequence[tuple[SourceFile, list[int] | None]],
    previous: Previous,
    settings: Settings,
    embedder: Embedder,
    cache: EmbeddingCache,
    store: Store,
    clock: StageClock,
    totals: dict[str, int],
):
    """One batch in file order: copied records for unchanged files, fresh chunks and vectors for the others."""
    carried_rows = [row for _, rows in pending if rows is not None for row in rows]
    started = time.perf_counter()
    carried, carried_vectors = previous.carry(store, carried_rows) if carried_rows else ([], None)
    clock.add("store", started)
    fresh: list[Chunk] = []
    tags = [previous.tags[file.path] for file, ids in pending if ids is not None and file.path in previous.tags]
    for file, ids in pending:
        if ids is None:
            started = time.perf_counter()
            chunks, file_tags = chunk_and_tag(file, settings)
            fresh.extend(chunks)
            tags.append(file_tags)
            clock.add("chunk", started)
    started = time.perf_counter()
    fresh_vectors, computed = embed_chunks(fresh, embedder, cache) if fresh else (None, 0)
    clock.add("embed", started)
    totals["embedded"] += computed
    totals["carried"] += len(carried)
    by_path: dict[str, list[tuple[Chunk, np.ndarray]]] = {}
    for chunk, vector in zip(carried, carried_vectors if carried_vectors is not None else [], strict=True):
        by_path.setdefault(chunk.path, []).append((chunk, vector))
    for chunk, vector in zip(fresh, fresh_vectors if fresh_vectors is not None else [], strict=True):
        by_path.setdefault(chunk.path, []).append((chunk, vector))
    ordered = [pair for file, _ in pending for pair in by_path.get(file.path, [])]  # the scan's file order
    chunks = [chunk for chunk, _ in ordered]
    dimension = embedder.dimension
    vectors = np.stack([vector for _, vector in ordered]) if ordered else np.zeros((0, dimension), np.float32)
    return chunks, vectors.astype(np.float32), tags
