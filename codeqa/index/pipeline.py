"""Building and updating an index: source → scan → (carry plan) → the one writer, under the index's lock.

``build`` resolves the source (a URL is cloned), scans it and writes a new generation into a new collection.
``update`` resolves the same source again, scans it, and compares each file's content hash with the file state
recorded for the live generation: unchanged files are carried, the rest are written into the live collection in
place; when nothing changed (same commit, files and skipped files), nothing is written and the live generation
stays, map and overview included. An index with no file state, corpus or tags (built by an earlier codeqa), or built
with another chunker or embedding model, is rebuilt whole instead. Both recover whatever a killed run left before
they write.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import fields

from codeqa.chunk import CHUNKER_VERSION
from codeqa.config import Settings
from codeqa.embed import Embedder, embedder_ready, get_embedder
from codeqa.errors import ScanError
from codeqa.index.clones import sweep_clones
from codeqa.index.freshness import FileState, load_state, record_state, save_state
from codeqa.index.journal import live_manifest, recover
from codeqa.index.produce import CarryPlan
from codeqa.index.report import IndexReport, ProgressCallback, ProgressEvent, StageClock
from codeqa.index.target import pick_name, refuse_other_source
from codeqa.index.writer import index_manifest, write_generation
from codeqa.locks import index_lock
from codeqa.records import ResolvedSource, ScanResult, SkippedFile, SkipReason
from codeqa.scan import scan_repository
from codeqa.searchfiles import Generation, open_search_files
from codeqa.source import resolve_source
from codeqa.store import Manifest, Store, manifest_dir


def run_build(
    source: str,
    settings: Settings,
    store: Store,
    *,
    name: str | None = None,
    ref: str | None = None,
    token: str | None = None,
    progress: ProgressCallback | None = None,
    embedder: Embedder | None = None,
    allow_local: bool = True,
    exclude: Callable[[str], bool] | None = None,
) -> IndexReport:
    """Index ``source`` (URL, ``owner/repo`` or local path) under ``name`` (``target.pick_name``); the old index
    survives failure, and another source's index is never replaced."""
    emit = progress or (lambda event: None)
    clock = StageClock()
    resolved: ResolvedSource | None = None
    try:
        # in_use: a clone stays marked in use until its index is written; tree: its folder lock, until it is read
        with contextlib.ExitStack() as in_use, contextlib.ExitStack() as tree:
            resolved = _resolve(source, settings, store, ref, token, allow_local, emit, clock, tree, in_use)
            index_name = pick_name(store.list_manifests(), resolved.spec, resolved.subdir, resolved.default_name, name)
            with index_lock(settings.home_dir / "locks", index_name):
                recover(store, settings, index_name)
                scan, state = _scan(resolved, settings, emit, clock, exclude, tree)
                base = live_manifest(store, settings, index_name) if store.exists(index_name) else None
                refuse_other_source(base, resolved.spec, resolved.subdir)  # a name never changes hands
                embedder = _embedder(settings, embedder, emit)
                plan = CarryPlan(base)
                return write_generation(resolved, index_name, settings, scan, state, plan, embedder, store, clock, emit)
    except BaseException:
        if resolved is not None and resolved.kind == "git":  # refused or failed: its clone goes unless an index owns it
            sweep_clones(settings, store, only=resolved.root)
        raise


def run_update(
    manifest: Manifest,
    settings: Settings,
    store: Store,
    *,
    token: str | None = None,
    progress: ProgressCallback | None = None,
    embedder: Embedder | None = None,
) -> IndexReport:
    """Re-index what changed in the source of ``manifest``'s index since it was built."""
    emit = progress or (lambda event: None)
    embedder = embedder or get_embedder(settings)
    ref = manifest.ref if manifest.source_kind == "git" else None
    first = _carry_from(manifest, settings, embedder)
    if first is None:
        emit(ProgressEvent("clone", "Rebuilding the whole index (it has no file record, or another model built it)"))
        return run_build(manifest.source, settings, store, name=manifest.name, ref=ref, token=token, progress=progress,
                     embedder=embedder)  # fmt: skip
    clock = StageClock()
    with contextlib.ExitStack() as in_use, contextlib.ExitStack() as tree:
        resolved = _resolve(manifest.source, settings, store, ref, token, True, emit, clock, tree, in_use)
        with index_lock(settings.home_dir / "locks", manifest.name):
            recover(store, settings, manifest.name)
            base = live_manifest(store, settings, manifest.name)  # re-indexed while we waited for the lock?
            scan, state = _scan(resolved, settings, emit, clock, None, tree)
            carried = first if base.key == manifest.key else _carry_from(base, settings, embedder)
            if carried is None:
                plan = CarryPlan(base)
                return write_generation(resolved, base.name, settings, scan, state, plan, embedder, store, clock, emit)
            generation, hashes = carried
            rows: dict[str, list[int]] = {}
            for row, path in enumerate(generation.files.table.paths):
                rows.setdefault(path, []).append(row)
            keep = {f.path: rows[f.path] for f in scan.files if hashes.get(f.path) == f.hash and f.path in rows}
            emit(ProgressEvent("scan", f"{len(scan.files) - len(keep)} of {len(scan.files)} files changed or new", 1.0))
            if len(keep) == len(scan.files) == len(rows) and _same_source(base, resolved, scan, embedder):
                return _unchanged(base, scan, state, settings, clock, emit)
            plan = CarryPlan(base, generation, keep, in_place=True)
            return write_generation(resolved, base.name, settings, scan, state, plan, embedder, store, clock, emit)


def _same_source(base: Manifest, resolved: ResolvedSource, scan: ScanResult, embedder: Embedder) -> bool:
    """Would a write record what ``base`` records (same commit, files, skipped files, model and versions)?"""
    again = index_manifest(resolved, base.name, base.collection, embedder, scan.files, scan.skipped_by_reason())
    kept = ("created_at", "collection", "counts", "timings", "generation")
    same = all(getattr(again, f.name) == getattr(base, f.name) for f in fields(Manifest) if f.name not in kept)
    return same and all(base.counts.get(key) == value for key, value in again.counts.items())


def _unchanged(base: Manifest, scan: ScanResult, state: FileState, settings: Settings, clock: StageClock,
               emit: ProgressCallback) -> IndexReport:  # fmt: skip
    """Nothing changed: the live generation stays as it is (its map and overview too); only the files' times are
    recorded again when some were touched, so a freshness check need not read them again."""
    folder = manifest_dir(settings, base)
    if load_state(settings, base) != state:
        save_state(folder, state)  # the same hashes: only the stat cache a freshness check reads moves on
    chunks = base.counts.get("chunks", 0)
    emit(ProgressEvent("done", f"Nothing changed: {len(scan.files)} files, {chunks} chunks as indexed", 1.0))
    return IndexReport(manifest=base, files=len(scan.files), chunks=chunks, lines=base.counts.get("lines", 0),
                       embedded=0, skipped=base.skipped, languages=base.languages, timings=clock.rounded(),
                       skipped_files=tuple(scan.skipped), carried=chunks)  # fmt: skip


def _carry_from(manifest: Manifest, settings: Settings, embedder: Embedder) -> tuple[Generation, dict] | None:
    """The generation an update can carry rows from, and its files' hashes (None: it must be rebuilt whole)."""
    same_model = manifest.model == embedder.model_id and manifest.model_revision == getattr(embedder, "revision", 1)
    if manifest.generation < 1 or manifest.chunker_version != CHUNKER_VERSION or not same_model:
        return None
    state = load_state(settings, manifest)
    folder = manifest_dir(settings, manifest)
    files = open_search_files(folder) if state is not None else None
    generation = Generation.load(folder, files) if files is not None else None
    if state is None or generation is None:
        return None
    return generation, state.hashes()


def _resolve(source: str, settings: Settings, store: Store, ref: str | None, token: str | None, allow_local: bool,
             emit: ProgressCallback, clock: StageClock, tree: contextlib.ExitStack,
             keep: contextlib.ExitStack) -> ResolvedSource:  # fmt: skip
    started = time.perf_counter()
    emit(ProgressEvent("clone", f"Resolving {source}"))
    sweep_clones(settings, store)  # what refused or killed runs and removed indexes left behind

    def forward(message: str, fraction: float | None) -> None:
        emit(ProgressEvent("clone", message, fraction))

    resolved = resolve_source(source, settings, ref=ref, token=token, allow_local=allow_local, hold=tree, keep=keep,
                              progress=forward)  # fmt: skip
    clock.add("clone", started)
    return resolved


def _scan(resolved: ResolvedSource, settings: Settings, emit: ProgressCallback, clock: StageClock,
          exclude: Callable[[str], bool] | None,
          tree: contextlib.ExitStack) -> tuple[ScanResult, FileState]:  # fmt: skip
    """Scan the tree and record its files' state. A clone's lock (``tree``) stays held until the write is done:
    the scan keeps no text, and each file is read again when it is chunked."""
    started = time.perf_counter()
    emit(ProgressEvent("scan", f"Scanning {resolved.root}"))
    scan = scan_repository(resolved.root, settings, subdir=resolved.subdir)
    if exclude:
        kept = [file for file in scan.files if not exclude(file.path)]
        dropped = [SkippedFile(file.path, SkipReason.EXCLUDED) for file in scan.files if exclude(file.path)]
        scan = ScanResult(files=kept, skipped=[*scan.skipped, *dropped])
    clock.add("scan", started)
    if not scan.files:
        skipped = ", ".join(f"{n} {reason}" for reason, n in scan.skipped_by_reason().items()) or "no files at all"
        raise ScanError(f"Nothing to index in {resolved.spec}: no source or text files found ({skipped}).")
    state = record_state(resolved.root, scan.files, scan.skipped)  # stat now: a later edit is seen as a change
    emit(ProgressEvent("scan", f"{len(scan.files)} files to index, {len(scan.skipped)} skipped", 1.0))
    return scan, state


def _embedder(settings: Settings, embedder: Embedder | None, emit: ProgressCallback) -> Embedder:
    if embedder is None:
        if not embedder_ready(settings):
            emit(ProgressEvent("embed", "Preparing the embedding model (first run only, about a minute)"))
        embedder = get_embedder(settings)
    return embedder
