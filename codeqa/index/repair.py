"""``codeqa repair``: move a damaged Chroma store aside and restore every index from what is left on disk.

What survives a damaged ``chroma.sqlite3``: each index's search files (chunk table and vectors) and the copy of its
manifest under ``indexes/``, the clones under ``repos/``, the files of local sources and the embedding cache. The
chunk texts are read back from the files, and an index is restored only when every chunk's content still matches
(a chunk's id is derived from its content); otherwise the report names the ``codeqa index`` command that rebuilds
it, which is quick because the embedding cache is kept. Nothing is embedded again and no index is deleted: the
damaged store is renamed, so it can still be inspected (and removed by hand). Clones that no index owns and no run is
using (a refused or killed run's, a removed index's) are deleted last.

Then the search files of every index in the store (or of the one named) are checked file by file
(``codeqa.index.mend``), and damaged ones are written again from the store; only their file cards are embedded.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from codeqa.config import Settings
from codeqa.embed import Embedder, get_embedder
from codeqa.errors import CodeqaError, DamagedSearchFilesError, StoreError
from codeqa.index.clones import sweep_clones
from codeqa.index.journal import live_manifest
from codeqa.index.mend import damage_of, rebuild
from codeqa.locks import index_lock
from codeqa.records import Chunk
from codeqa.scan import read_source
from codeqa.searchfiles.check import load_table, load_vectors
from codeqa.searchfiles.files import VECTORS_FILE
from codeqa.store import Manifest, Store, chroma_files
from codeqa.store.chroma import forget_client
from codeqa.store.layout import MANIFEST_COPY, manifest_dir

BATCH = 2000


def store_database(settings: Settings) -> Path:
    """The embedded store's database file (what `codeqa repair` checks)."""
    return chroma_files.database(settings)


@dataclass
class RepairReport:
    damage: str | None  # why the store was set aside (None: it was healthy)
    moved_to: Path | None = None
    restored: list[str] = field(default_factory=list)
    lost: list[tuple[str, str, str]] = field(default_factory=list)  # (name, why, command that rebuilds it)
    mended: list[tuple[str, str]] = field(default_factory=list)  # (name, what was wrong): search files rebuilt
    unmended: list[tuple[str, str]] = field(default_factory=list)  # (name, why they could not be rebuilt)
    checked: int = 0  # how many indexes' search files were checked
    removed_clones: list[Path] = field(default_factory=list)  # clones no index owned and no run was using

    @property
    def healthy(self) -> bool:
        return self.damage is None and not (self.restored or self.lost or self.mended or self.unmended)


def store_damage(settings: Settings) -> str | None:
    """Why the embedded store cannot be used as it is (None when it opens and its registry reads)."""
    reason = chroma_files.damage(settings)
    path = chroma_files.database(settings)
    if reason or not path.exists():
        return reason
    check = chroma_files.quick_check(path)
    if check.startswith("SQLite cannot read it"):
        return check
    if check != "ok":
        return f"SQLite found damage: {check}"
    try:
        Store(settings).list_manifests()
    except CodeqaError as exc:
        return str(exc)
    return None


def repair(settings: Settings, name: str | None = None) -> RepairReport:
    """Set a damaged store aside, restore each index that is missing from the store from its files, then check the
    search files of every index (or of index ``name``) and rebuild the damaged ones from the store."""
    if settings.chroma_url:
        raise StoreError("`codeqa repair` works on the embedded store; a Chroma server is repaired with its own tools.")
    report = RepairReport(store_damage(settings))
    if report.damage is not None:
        forget_client(settings)
        if settings.chroma_dir.exists():
            report.moved_to = chroma_files.move_aside(settings)
    store = Store(settings)
    for manifest, directory in _saved_indexes(settings):
        if store.exists(manifest.name):
            continue
        why = _restore(store, settings, manifest, directory)
        if why is None:
            report.restored.append(manifest.name)
        else:
            report.lost.append((manifest.name, why, f"codeqa index {manifest.source} --name {manifest.name}"))
    lost = {lost_name for lost_name, _, _ in report.lost}
    manifests = store.list_manifests() if name is None else [] if name in lost else [store.get_manifest(name)]
    _mend_search_files(store, settings, manifests, report)
    report.removed_clones = sweep_clones(settings, store)  # after the restores: they read the clones' files
    return report


def _mend_search_files(store: Store, settings: Settings, manifests: list[Manifest], report: RepairReport) -> None:
    embedder: Embedder | None = None
    for listed in manifests:
        report.checked += 1
        why = damage_of(settings, listed)
        if why is None:
            continue
        try:
            embedder = embedder or get_embedder(settings)
            with index_lock(settings.home_dir / "locks", listed.name):
                manifest = live_manifest(store, settings, listed.name)  # an update may have committed meanwhile
                why = damage_of(settings, manifest)
                if why is not None:
                    rebuild(store, settings, manifest, embedder, None)
        except CodeqaError as exc:
            report.unmended.append((listed.name, f"{why}; rebuilding failed: {exc}"))
        else:
            if why is not None:
                report.mended.append((listed.name, why))


def _saved_indexes(settings: Settings) -> Iterator[tuple[Manifest, Path]]:
    """The newest generation of each index that left a manifest copy beside its search files."""
    newest: dict[str, tuple[Manifest, Path]] = {}
    folders = sorted(settings.indexes_dir.iterdir()) if settings.indexes_dir.is_dir() else []
    for directory in [folder for collection in folders for folder in (collection, *sorted(collection.glob("g*")))]:
        try:
            manifest = Manifest.from_json((directory / MANIFEST_COPY).read_text())
        except (OSError, ValueError, TypeError):
            continue
        newer = manifest.name not in newest or (manifest.created_at, manifest.generation) > (
            newest[manifest.name][0].created_at,
            newest[manifest.name][0].generation,
        )
        if manifest_dir(settings, manifest) == directory and newer:
            newest[manifest.name] = (manifest, directory)
    yield from sorted(newest.values(), key=lambda item: item[0].name)


def _restore(store: Store, settings: Settings, manifest: Manifest, directory: Path) -> str | None:
    """Put one index back into the store; returns why it could not be (None when it was)."""
    try:
        table = load_table(directory)
        vectors = load_vectors(directory / VECTORS_FILE, len(table), manifest.dimension)
    except DamagedSearchFilesError as exc:
        return f"its search files are damaged ({exc.path} {exc.why})"
    root = Path(manifest.root)
    if not manifest.root or not root.is_dir():
        return f"its files are gone ({manifest.root or 'no folder recorded'})"
    store.drop_collection(manifest.collection)  # a half-restored one from an earlier attempt (files are kept)
    collection = store.new_collection(manifest.name, manifest.collection)
    lines: dict[str, list[str] | None] = {}
    try:
        for start in range(0, len(table), BATCH):
            chunks: list[Chunk] = []
            for row in range(start, min(start + BATCH, len(table))):
                path = table.paths[row]
                if path not in lines:
                    source = read_source(root, path, settings)
                    lines[path] = source.text.split("\n") if source else None
                text = lines[path]
                first, last = table.starts[row], table.ends[row]
                chunk = Chunk(path, table.languages[row], first, last, "\n".join((text or [])[first - 1 : last]),
                              table.symbols[row], table.kinds[row], table.layers[row])  # fmt: skip
                if text is None or chunk.id != table.ids[row]:
                    store.drop_collection(collection)
                    return f"{path} changed or is gone since it was indexed"
                chunks.append(chunk)
            store.add_chunks(collection, chunks, np.asarray(vectors[start : start + len(chunks)], dtype=np.float32))
        store.commit(manifest)
    except BaseException:
        store.drop_collection(collection)
        raise
    return None
