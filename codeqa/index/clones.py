"""Which clones the indexes own, and the sweep that deletes the others (``codeqa.source.leftovers``).

An index owns the folder its manifest names as root. Both the store's manifests and the manifest copies kept beside
the search files count: ``codeqa repair`` restores an index from its copy and the clone's files, so a clone must
outlive a damaged store. Run at the start of every build and update and by ``codeqa repair``.
"""

from __future__ import annotations

from pathlib import Path

from codeqa.config import Settings
from codeqa.errors import CodeqaError
from codeqa.source.leftovers import remove_unowned
from codeqa.store import Manifest, Store
from codeqa.store.layout import MANIFEST_COPY


def owned_clones(settings: Settings, store: Store) -> set[Path]:
    """The roots of every index, from the store and from the saved manifest copies (resolved paths)."""
    roots = {manifest.root for manifest in store.list_manifests()}
    indexes = settings.indexes_dir
    for copy in [*indexes.glob(f"*/{MANIFEST_COPY}"), *indexes.glob(f"*/g*/{MANIFEST_COPY}")]:
        try:
            roots.add(Manifest.from_json(copy.read_text()).root)
        except (OSError, ValueError, TypeError):
            continue
    return {Path(root).resolve() for root in roots if root}


def sweep_clones(settings: Settings, store: Store, only: Path | None = None) -> list[Path]:
    """Delete the clones (or clone ``only``) that no index owns and no run is using; an unreadable store sweeps
    nothing (who owns what is unknown then)."""
    try:
        locks = settings.home_dir / "locks"
        return remove_unowned(settings.clones_dir, locks, lambda: owned_clones(settings, store), only)
    except CodeqaError:
        return []
