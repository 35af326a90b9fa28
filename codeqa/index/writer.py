"""The one index writer: write the next generation of an index from a scan and a carry plan.

A build is a write with nothing carried, into a new collection. An update is the same write into the live
collection with a carry plan: the files whose content did not change keep their rows (chunks, vectors, tokens and
file cards come from the previous generation's search files; their Chroma rows are not touched), the others are
chunked and embedded (the embedding cache still skips unchanged text). Rows stream through in the scan's file
order, so an update writes the same search files a build of the same tree would. The rows and search files are
produced here or, for a large write with a model that can be forked, in a worker process while this one stores
(Chroma's writes hold the GIL: only a second process overlaps with them). Both kinds of write get the same failure
handling: the previous generation survives anything, a full disk gives back what the run wrote, and leftovers of a
killed run are recovered (``journal.recover``) by the next run under the same lock.
"""

from __future__ import annotations

import time
import traceback
from collections import Counter
from collections.abc import Sequence

from codeqa.chunk import CHUNKER_VERSION
from codeqa.config import Settings
from codeqa.embed import Embedder
from codeqa.errors import DiskFullError, IndexCancelled, disk_full_message, is_disk_full
from codeqa.index.freshness import FileState
from codeqa.index.produce import FINISHING, Batch, CarryPlan, Produced, Producer
from codeqa.index.report import IndexReport, ProgressCallback, ProgressEvent, StageClock
from codeqa.index.target import Target
from codeqa.index.worker import WorkerProducer
from codeqa.records import ResolvedSource, ScannedFile, ScanResult
from codeqa.store import Manifest, Store, chroma_files
from codeqa.version import __version__

__all__ = ["CarryPlan", "write_generation"]


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
    target = Target(store, settings, name, plan.base, plan.in_place, plan.base_ids())
    producer = Producer(scan.files, plan, settings, embedder, target.folder, state, resolved.root)
    elsewhere = getattr(embedder, "fork_safe", False) and 0 <= settings.index_worker_min_bytes <= producer.fresh_bytes
    source: Producer | WorkerProducer = producer
    produced: Produced | None = None
    try:
        source = WorkerProducer(producer) if elsewhere else producer
        for item in source.items():
            if isinstance(item, Batch):
                _store_batch(item, target, clock, emit, len(scan.files))
            elif isinstance(item, Produced):
                produced = item
            elif item == FINISHING:
                emit(ProgressEvent("store", f"{target.stored} chunks stored", 1.0))
                emit(ProgressEvent("store", "Building lexical index and symbol graph"))
        assert produced is not None, "the producer ended without its search files"
        for stage, seconds in produced.seconds.items():
            clock.seconds[stage] += seconds
        manifest = index_manifest(resolved, name, target.collection, embedder, scan.files, scan.skipped_by_reason())
        manifest.generation = target.generation
        manifest.counts.update(chunks=produced.chunks, embedded=produced.embedded)
        manifest.timings = clock.rounded()
        target.commit(manifest, produced.ids)
    except BaseException as exc:
        _abandon(target, source, exc, settings, store, name)
        raise
    source.close()
    kept = f" ({produced.chunks - produced.carried} new or changed, {produced.carried} kept)" if plan.in_place else ""
    emit(ProgressEvent("done", f"Indexed {len(scan.files)} files into {produced.chunks} chunks{kept}", 1.0))
    return IndexReport(
        manifest=manifest,
        files=len(scan.files),
        chunks=produced.chunks,
        lines=manifest.counts["lines"],
        embedded=produced.embedded,
        skipped=manifest.skipped,
        languages=manifest.languages,
        timings=manifest.timings,
        notices=produced.notices,
        skipped_files=tuple(scan.skipped),
        carried=produced.carried,
    )


def _store_batch(batch: Batch, target: Target, clock: StageClock, emit: ProgressCallback, files: int) -> None:
    fraction = batch.files_done / files
    emit(ProgressEvent("chunk", f"{batch.files_done}/{files} files chunked", fraction))
    kept = f", {batch.carried} kept" if batch.carried else ""
    emit(ProgressEvent("embed", f"{batch.chunks} chunks embedded ({batch.embedded} new{kept})", fraction))
    started = time.perf_counter()
    target.add_rows(batch.ids, batch.documents, batch.metadatas, batch.vectors)
    clock.add("store", started)
    emit(ProgressEvent("store", f"{target.stored} chunks stored", fraction))


def _abandon(target: Target, source: Producer | WorkerProducer, exc: BaseException, settings: Settings,
             store: Store, name: str) -> None:  # fmt: skip
    """Undo an uncommitted write; on a full disk give back everything the run wrote, then say so in one line."""
    full = isinstance(exc, Exception) and not isinstance(exc, IndexCancelled) and is_disk_full(exc, settings.home_dir)
    source.close(discard=full)
    dropped = target.abandon()
    if not full:
        return
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
    files: Sequence[ScannedFile],
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
