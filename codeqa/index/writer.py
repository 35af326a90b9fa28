"""The one index writer: write the next generation of an index from a scan and a carry plan.

A build is a write with nothing carried, into a new collection. An update is the same write into the live
collection with a carry plan: the files whose content did not change keep their rows (chunks, vectors, tokens and
file cards come from the previous generation's search files; their Chroma rows are not touched), the others are
chunked and embedded (the embedding cache still skips unchanged text). Rows stream through in the scan's file
order, so an update writes the same search files a build of the same tree would. Both get the same failure
handling: the previous generation survives anything, a full disk gives back what the run wrote, and leftovers of a
killed run are recovered (``journal.recover``) by the next run under the same lock.
"""

from __future__ import annotations

import time
import traceback
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np

from codeqa.chunk import CHUNKER_VERSION, chunk_file
from codeqa.config import Settings
from codeqa.embed import Embedder, EmbeddingCache, embed_chunks
from codeqa.errors import DiskFullError, IndexCancelled, disk_full_message, is_disk_full
from codeqa.index.freshness import FileState, save_state
from codeqa.index.report import IndexReport, ProgressCallback, ProgressEvent, StageClock
from codeqa.index.target import Target
from codeqa.records import Chunk, ResolvedSource, ScanResult, SourceFile
from codeqa.store import Generation, Manifest, SearchFilesBuilder, Store, chroma_files
from codeqa.version import __version__

BATCH_CHUNKS = 512


@dataclass
class CarryPlan:
    """What a write starts from: the live generation (if any) and, for an update, the files it keeps."""

    base: Manifest | None = None
    generation: Generation | None = None  # the base's search files and corpus, when rows are carried
    rows: dict[str, list[int]] = field(default_factory=dict)  # path → its rows in the base, per kept file
    in_place: bool = False  # write into the base's collection (an update) instead of a new one (a build)

    def base_ids(self) -> list[str]:
        return list(self.generation.files.table.ids) if self.generation is not None else []


@dataclass
class _Totals:
    chunks: int = 0
    embedded: int = 0
    carried: int = 0
    ids: list[str] = field(default_factory=list)


def write_generation(
    resolved: ResolvedSource,
    name: str,
    settings: Settings,
    scan: ScanResult,
    state: FileState,
    plan: CarryPlan,
    embedder: Embedder,
    store: Store,
    clock: StageClock,
    emit: ProgressCallback,
) -> IndexReport:
    """Write and commit the next generation of index ``name`` (the caller holds its lock and has recovered it)."""
    cache = EmbeddingCache(settings.cache_dir / "embeddings.sqlite")
    target = Target(store, settings, name, plan.base, plan.in_place, plan.base_ids())
    builder = SearchFilesBuilder()
    totals = _Totals()
    try:
        rows = _rows(scan.files, plan, builder, settings, embedder, cache, clock, totals)
        for fresh, vectors, done in rows:
            fraction, count = done / len(scan.files), len(scan.files)
            emit(ProgressEvent("chunk", f"{done}/{count} files chunked", fraction))
            kept = f", {totals.carried} kept" if totals.carried else ""
            emit(ProgressEvent("embed", f"{totals.chunks} chunks embedded ({totals.embedded} new{kept})", fraction))
            started = time.perf_counter()
            target.add(fresh, vectors)
            clock.add("store", started)
            emit(ProgressEvent("store", f"{totals.chunks - totals.carried} chunks stored", fraction))
        emit(ProgressEvent("store", f"{totals.chunks - totals.carried} chunks stored", 1.0))
        manifest = index_manifest(resolved, name, target.collection, embedder, scan.files, scan.skipped_by_reason())
        manifest.generation = target.generation
        manifest.counts.update(chunks=totals.chunks, embedded=totals.embedded)
        started = time.perf_counter()
        emit(ProgressEvent("store", "Building lexical index and symbol graph"))
        builder.finish(target.folder, embedder)
        save_state(target.folder, state)
        clock.add("store", started)
        manifest.timings = clock.rounded()
        target.commit(manifest, totals.ids)
    except BaseException as exc:
        _abandon(target, exc, settings, store, cache, name)
        raise
    finally:
        cache.close()
    changed = "" if not plan.in_place else f" ({totals.chunks - totals.carried} new or changed, {totals.carried} kept)"
    emit(ProgressEvent("done", f"Indexed {len(scan.files)} files into {totals.chunks} chunks{changed}", 1.0))
    return IndexReport(
        manifest=manifest,
        files=len(scan.files),
        chunks=totals.chunks,
        lines=manifest.counts["lines"],
        embedded=totals.embedded,
        skipped=manifest.skipped,
        languages=manifest.languages,
        timings=manifest.timings,
        notices=cache.notices,
        skipped_files=tuple(scan.skipped),
        carried=totals.carried,
    )


def _rows(
    files: Sequence[SourceFile],
    plan: CarryPlan,
    builder: SearchFilesBuilder,
    settings: Settings,
    embedder: Embedder,
    cache: EmbeddingCache,
    clock: StageClock,
    totals: _Totals,
) -> Iterator[tuple[list[Chunk], np.ndarray, int]]:
    """Feed ``builder`` every row in file order; yield each batch's fresh rows (to store) and the files done."""
    pending: list[tuple[list[int] | None, list[Chunk]]] = []  # per file: its kept rows, or its fresh chunks
    fresh_count = 0
    for done, file in enumerate(files, start=1):
        kept = plan.rows.get(file.path)
        chunks: list[Chunk] = []
        if kept is None:
            started = time.perf_counter()
            chunks = chunk_file(file, settings)
            clock.add("chunk", started)
            fresh_count += len(chunks)
        pending.append((kept, chunks))
        if fresh_count >= BATCH_CHUNKS or done == len(files):
            fresh, vectors = _flush(pending, plan, builder, embedder, cache, clock, totals)
            yield fresh, vectors, done
            pending, fresh_count = [], 0


def _flush(
    pending: list[tuple[list[int] | None, list[Chunk]]],
    plan: CarryPlan,
    builder: SearchFilesBuilder,
    embedder: Embedder,
    cache: EmbeddingCache,
    clock: StageClock,
    totals: _Totals,
) -> tuple[list[Chunk], np.ndarray]:
    """Embed a batch's fresh chunks at once, then hand every file's rows to the builder in order."""
    fresh = [chunk for kept, chunks in pending if kept is None for chunk in chunks]
    started = time.perf_counter()
    vectors, computed = embed_chunks(fresh, embedder, cache)
    clock.add("embed", started)
    totals.embedded += computed
    started = time.perf_counter()
    position = 0
    for kept, chunks in pending:
        if kept is not None:
            assert plan.generation is not None
            builder.carry(plan.generation, kept)
            totals.carried += len(kept)
            totals.chunks += len(kept)
            totals.ids.extend(plan.generation.files.table.ids[row] for row in kept)
        elif chunks:
            builder.add(chunks, vectors[position : position + len(chunks)])
            totals.chunks += len(chunks)
            totals.ids.extend(chunk.id for chunk in chunks)
            position += len(chunks)
    clock.add("store", started)
    return fresh, vectors


def _abandon(target: Target, exc: BaseException, settings: Settings, store: Store, cache: EmbeddingCache,
             name: str) -> None:  # fmt: skip
    """Undo an uncommitted write; on a full disk give back everything the run wrote, then say so in one line."""
    full = isinstance(exc, Exception) and not isinstance(exc, IndexCancelled) and is_disk_full(exc, settings.home_dir)
    dropped = target.abandon()
    if not full:
        return
    cache.discard_run()
    if not dropped:  # Chroma frees the space of the vector files it holds open only once it lets go
        _release_frames(exc)
        store.reopen()
        target.abandon()
    if not settings.chroma_url:
        chroma_files.reclaim(settings, rebuild=True)
    what = f"indexing {name} stopped and its partial data was removed; any previous index is unchanged"
    raise DiskFullError(disk_full_message(settings.home_dir, what)) from exc


def _release_frames(exc: BaseException | None) -> None:
    """Let go of what the failed calls' frames still hold (Chroma's open files, so their space can be freed)."""
    seen: BaseException | None = exc
    while seen is not None:
        traceback.clear_frames(seen.__traceback__)
        seen = seen.__cause__ or seen.__context__


def index_manifest(
    resolved: ResolvedSource,
    name: str,
    collection: str,
    embedder: Embedder,
    files: Sequence[SourceFile],
    skipped: dict[str, int],
) -> Manifest:
    languages = Counter(file.language for file in files)
    return Manifest(
        name=name,
        source=resolved.spec,
        collection=collection,
        model=embedder.model_id,
        model_revision=getattr(embedder, "revision", 1),
        dimension=embedder.dimension,
        chunker_version=CHUNKER_VERSION,
        codeqa_version=__version__,
        source_kind=resolved.kind,
        ref=resolved.ref,
        sha=resolved.sha,
        web_url=resolved.web_url,
        subdir=resolved.subdir,
        root=str(resolved.root),
        counts={"files": len(files), "lines": sum(file.line_count for file in files)},
        languages=dict(languages.most_common()),
        skipped=skipped,
    )
