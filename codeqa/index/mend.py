"""Damaged search files: found by checking every file (``codeqa.searchfiles.check``), mended from the store.

The store (Chroma) holds every chunk and its vector, so an index's search files can always be written again from it
without touching the collection. The index handle does that when a file fails its check on load; `codeqa repair`
checks every index (or the one named) and does the same, so it never calls an index healthy that cannot answer.
"""

from __future__ import annotations

from pathlib import Path

from codeqa.config import Settings
from codeqa.embed import Embedder
from codeqa.errors import DamagedSearchFilesError, DiskFullError, disk_full_message, is_disk_full
from codeqa.index.freshness import load_state
from codeqa.searchfiles import SearchFiles, forget_search_files, load_search_files, rebuild_search_files
from codeqa.searchfiles.check import load_corpus
from codeqa.store import Manifest, Store, manifest_dir


def repair_hint(manifest: Manifest) -> str:
    return (
        f"Run `codeqa repair {manifest.name}` to rebuild its search files from the store (or re-index it with "
        f"`codeqa index {manifest.source} --name {manifest.name}`)."
    )


def rebuild(store: Store, settings: Settings, manifest: Manifest, embedder: Embedder,
            damage: DamagedSearchFilesError | None) -> SearchFiles:  # fmt: skip
    """Write the search files of ``manifest``'s generation again from the store, then load them (checked)."""
    folder = manifest_dir(settings, manifest)
    what = f"{damage.path} {damage.why}" if damage is not None else f"the search files in {folder} are missing"
    try:
        state = load_state(settings, manifest)  # the files it skipped: their package markers guide import resolution
        skipped = [path for path, (_, _, digest) in state.files.items() if not digest] if state is not None else []
        rebuild_search_files(store, manifest, folder, embedder, skipped)
    except OSError as exc:
        if is_disk_full(exc, settings.home_dir):
            what = f"rebuilding the search files of {manifest.name} stopped"
            raise DiskFullError(disk_full_message(settings.home_dir, what)) from exc
        raise DamagedSearchFilesError(
            f"Index {manifest.name!r} cannot answer: {what}, and writing it again failed ({exc}). "
            f"{repair_hint(manifest)}",
            damage.path if damage else folder,
            damage.why if damage else "is missing",
        ) from exc
    try:
        files = load_search_files(folder, manifest.dimension)
    except DamagedSearchFilesError as exc:
        raise DamagedSearchFilesError(
            f"Index {manifest.name!r} cannot answer: {exc.path} {exc.why} even after rebuilding it from the store. "
            f"{repair_hint(manifest)}",
            exc.path,
            exc.why,
        ) from exc
    if files is None:
        raise DamagedSearchFilesError(
            f"Index {manifest.name!r} cannot answer: its search files in {folder} could not be rebuilt. "
            f"{repair_hint(manifest)}",
            folder,
            "is missing",
        )
    return files


def damage_of(settings: Settings, manifest: Manifest) -> str | None:
    """What is wrong with the search files of ``manifest``'s generation, read again from disk (None: nothing)."""
    folder: Path = manifest_dir(settings, manifest)
    forget_search_files(folder)
    try:
        files = load_search_files(folder, manifest.dimension)
        if files is None:
            return f"its search files in {folder} are missing or from another version"
        if manifest.generation >= 1:  # what an update carries rows from
            load_corpus(folder, len(files.table))
    except DamagedSearchFilesError as exc:
        return f"{exc.path} {exc.why}"
    finally:
        forget_search_files(folder)
    return None
