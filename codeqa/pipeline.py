"""Building an index: source → scan → chunk → embed → store, with progress per stage and a safe swap.

Chunks are embedded and written in batches, so memory stays bounded on large repositories; the new
collection only becomes the live index once everything is written.
"""

from __future__ import annotations

import queue
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from codeqa.chunk import CHUNKER_VERSION, chunk_file
from codeqa.config import Settings
from codeqa.embed import Embedder, EmbeddingCache, embed_chunks, embedder_ready, get_embedder
from codeqa.errors import DiskFullError, IndexCancelled, ScanError, disk_full_message, is_disk_full
from codeqa.freshness import record_state, save_state
from codeqa.locks import index_lock
from codeqa.records import Chunk, ResolvedSource, ScanResult, SkippedFile, SkipReason, SourceFile
from codeqa.scan import scan_repository
from codeqa.source import resolve_source
from codeqa.store import Manifest, SearchFilesBuilder, Store, chroma_files, index_dir, validate_index_name
from codeqa.version import __version__

STAGES = ("clone", "scan", "chunk", "embed", "store")


@dataclass(frozen=True)
class ProgressEvent:
    stage: str  # one of STAGES, or "done"
    message: str
    fraction: float | None = None  # 0..1 within the stage when known


ProgressCallback = Callable[[ProgressEvent], None]


@dataclass
class IndexReport:
    manifest: Manifest
    files: int
    chunks: int
    lines: int
    embedded: int  # computed now; the rest came from the embedding cache
    skipped: dict[str, int]
    languages: dict[str, int]
    timings: dict[str, float] = field(default_factory=dict)
    notices: list[str] = field(default_factory=list)  # e.g. a damaged embedding cache was rebuilt
    skipped_files: tuple[SkippedFile, ...] = ()  # each skipped file (a skipped folder once, path ending in "/")
    carried: int = 0  # chunks of unchanged files copied from the previous generation (``update``)


class StageClock:
    """Seconds spent per stage; stages overlap (storing runs on a thread), so they can add up to more than wall time."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {stage: 0.0 for stage in STAGES}
        self._lock = threading.Lock()

    def add(self, stage: str, started: float) -> None:
        elapsed = time.perf_counter() - started
        with self._lock:
            self.seconds[stage] += elapsed


class BackgroundWriter:
    """Writes batches to Chroma on a thread, so storing overlaps with chunking and embedding."""

    def __init__(self, store: Store, collection: str, clock: StageClock):
        self._store = store
        self._collection = collection
        self._clock = clock
        self._queue: queue.Queue = queue.Queue(maxsize=2)
        self._error: BaseException | None = None
        self.stored = 0
        self._thread = threading.Thread(target=self._run, name="codeqa-chroma-writer", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while (item := self._queue.get()) is not None:
            if self._error is not None:
                continue  # drain: the main thread will see the error
            try:
                started = time.perf_counter()
                self._store.add_chunks(self._collection, *item)
                self._clock.add("store", started)
                self.stored += len(item[0])
            except BaseException as exc:  # re-raised in the indexing thread
                self._error = exc

    def put(self, chunks: list[Chunk], vectors) -> None:
        self._raise_if_failed()
        self._queue.put((chunks, vectors))

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join()
        self._raise_if_failed()

    def abandon(self) -> None:
        """Stop after the batch in flight (used when indexing fails or is cancelled)."""
        self._error = self._error or IndexCancelled("indexing stopped")
        self._queue.put(None)  # the thread skips queued batches now, so this returns quickly
        self._thread.join()

    @property
    def error(self) -> BaseException | None:
        return self._error

    def _raise_if_failed(self) -> None:
        if self._error is not None:
            raise self._error


def _chunk_batches(
    files: Sequence[SourceFile], settings: Settings, clock: StageClock, batch_chunks: int
) -> Iterator[tuple[list[Chunk], int]]:
    """Chunks in batches of about ``batch_chunks``, with how many files have been chunked so far."""
    pending: list[Chunk] = []
    for done, file in enumerate(files, start=1):
        started = time.perf_counter()
        pending.extend(chunk_file(file, settings))
        clock.add("chunk", started)
        if len(pending) >= batch_chunks:
            yield pending, done
            pending = []
    if pending:
        yield pending, len(files)


def build_index(
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
) -> IndexReport:
    """Index ``source`` (URL, ``owner/repo`` or local path) under ``name``; the old index survives failure."""
    emit = progress or (lambda event: None)
    clock = StageClock()
    started = time.perf_counter()

    def clone_progress(message: str, fraction: float | None) -> None:
        emit(ProgressEvent("clone", message, fraction))

    emit(ProgressEvent("clone", f"Resolving {source}"))
    resolved = resolve_source(source, settings, ref=ref, token=token, progress=clone_progress, allow_local=allow_local)
    clock.add("clone", started)
    index_name = validate_index_name(name or resolved.default_name)
    with index_lock(settings.home_dir / "locks", index_name):
        return _build_locked(resolved, index_name, settings, emit, clock, embedder, store, exclude)


def _build_locked(
    resolved: ResolvedSource,
    name: str,
    settings: Settings,
    emit: ProgressCallback,
    clock: StageClock,
    embedder: Embedder | None,
    store: Store | None,
    exclude: Callable[[str], bool] | None,
) -> IndexReport:
    started = time.perf_counter()
    emit(ProgressEvent("scan", f"Scanning {resolved.root}"))
    scan = scan_repository(resolved.root, settings, subdir=resolved.subdir)
    if exclude:
        scan = _exclude(scan, exclude)
    clock.add("scan", started)
    if not scan.files:
        skipped = ", ".join(f"{n} {reason}" for reason, n in scan.skipped_by_reason().items()) or "no files at all"
        raise ScanError(f"Nothing to index in {resolved.spec}: no source or text files found ({skipped}).")
    emit(ProgressEvent("scan", f"{len(scan.files)} files to index, {len(scan.skipped)} skipped", 1.0))

    if embedder is None:
        if not embedder_ready(settings):
            emit(ProgressEvent("embed", "Preparing the embedding model (first run only, about a minute)"))
        embedder = get_embedder(settings)
    store = store or Store(settings)
    for orphan in store.orphan_collections(name):  # we hold the lock: these are from a killed run
        store.drop_collection(orphan)
    cache = EmbeddingCache(settings.cache_dir / "embeddings.sqlite")
    collection = store.new_generation(name)
    total_chunks = embedded = 0
    search_files = SearchFilesBuilder()
    writer = BackgroundWriter(store, collection, clock)
    try:
        for batch, files_done in _chunk_batches(scan.files, settings, clock, batch_chunks=512):
            emit(ProgressEvent("chunk", f"{files_done}/{len(scan.files)} files chunked", files_done / len(scan.files)))
            started = time.perf_counter()
            vectors, computed = embed_chunks(batch, embedder, cache)
            clock.add("embed", started)
            embedded += computed
            total_chunks += len(batch)
            emit(
                ProgressEvent("embed", f"{total_chunks} chunks embedded ({embedded} new)", files_done / len(scan.files))
            )
            writer.put(batch, vectors)
            started = time.perf_counter()
            search_files.add(batch, vectors)
            clock.add("store", started)
            emit(ProgressEvent("store", f"{writer.stored} chunks stored", files_done / len(scan.files)))
        writer.close()
        emit(ProgressEvent("store", f"{writer.stored} chunks stored", 1.0))
        manifest = index_manifest(resolved, name, collection, embedder, scan.files, scan.skipped_by_reason())
        manifest.counts.update(chunks=total_chunks, embedded=embedded)
        started = time.perf_counter()
        emit(ProgressEvent("store", "Building lexical index and symbol graph"))
        search_files.finish(index_dir(settings, collection), embedder)
        save_state(index_dir(settings, collection), record_state(resolved.root, scan.files, scan.skipped))
        clock.add("store", started)
        manifest.timings = {stage: round(seconds, 3) for stage, seconds in clock.seconds.items()}
        store.commit(manifest)
    except BaseException as exc:
        writer.abandon()
        full = (
            isinstance(exc, Exception) and not isinstance(exc, IndexCancelled) and is_disk_full(exc, settings.home_dir)
        )
        dropped = store.drop_collection(collection)  # its search files go first: the space the store needs to drop it
        if full:  # give back everything this run wrote, so the indexes that exist keep working
            cache.discard_run()
            if not dropped:  # Chroma frees the space of the vector files it holds open only once it lets go
                for failure in (exc, writer.error):
                    _release_frames(failure)
                store.reopen()
                store.drop_collection(collection)
            if not settings.chroma_url:
                chroma_files.reclaim(settings, rebuild=True)
            what = f"indexing {name} stopped and its partial data was removed; any previous index is unchanged"
            raise DiskFullError(disk_full_message(settings.home_dir, what)) from exc
        raise
    finally:
        cache.close()
    emit(ProgressEvent("done", f"Indexed {len(scan.files)} files into {total_chunks} chunks", 1.0))
    return IndexReport(
        manifest=manifest,
        files=len(scan.files),
        chunks=total_chunks,
        lines=manifest.counts["lines"],
        embedded=embedded,
        skipped=manifest.skipped,
        languages=manifest.languages,
        timings=manifest.timings,
        notices=cache.notices,
        skipped_files=tuple(scan.skipped),
    )


def _release_frames(exc: BaseException | None) -> None:
    """Let go of what the failed calls' frames still hold (Chroma's open files, so their space can be freed)."""
    seen: BaseException | None = exc
    while seen is not None:
        traceback.clear_frames(seen.__traceback__)
        seen = seen.__cause__ or seen.__context__


def _exclude(scan: ScanResult, exclude: Callable[[str], bool]) -> ScanResult:
    kept = [file for file in scan.files if not exclude(file.path)]
    dropped = [SkippedFile(file.path, SkipReason.EXCLUDED) for file in scan.files if exclude(file.path)]
    return ScanResult(files=kept, skipped=[*scan.skipped, *dropped])


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
