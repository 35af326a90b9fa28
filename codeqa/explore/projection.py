"""The project stage: a 2-D map of an index's chunks, with named regions, computed once and cached with the index.

The layout (``layout.py``: the neighbour graph of the embeddings plus the folder structure; PCA for tiny indexes or
as a quick preview) and its regions (``clusters.py``) are cached as ``projection.npz`` in the index generation's
folder (``Index.path``). A re-index or an update writes a new generation, so its map is a new file and a stale map
can never be shown; dropping a generation removes its folder, map included. An update hands the previous map
forward, and the new one follows it when the change is small (``follow.py``): the untouched chunks keep their
places. The file format is ``mapfile.py``. Points are row-aligned with the index's chunk table, so the retrieval
filter mask is the map's mask. No Streamlit here.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from codeqa.explore.clusters import Region, regions
from codeqa.explore.follow import follow
from codeqa.explore.layout import layout, principal_axes, umap_layout
from codeqa.explore.mapfile import PROJECTION_VERSION, Projection, read_projection, save_projection
from codeqa.index import Index
from codeqa.records import Chunk

if TYPE_CHECKING:  # retrieval is not needed to lay out or read a map (`codeqa update` starts without it)
    from codeqa.retrieve import Filters

__all__ = ["PROJECTION_VERSION", "IndexVectors", "Projection", "get_projection", "read_projection", "save_projection"]
PROJECTION_FILE = "projection.npz"
LAYOUT_MIN_POINTS = 50  # below this a neighbour graph is meaningless: PCA is the honest picture
_LOCKS: dict[str, threading.Lock] = {}
_LOCKS_GUARD = threading.Lock()


@dataclass(frozen=True)
class IndexVectors:
    """Everything stored for an index: ids, normalized embeddings, metadata."""

    ids: list[str]
    vectors: np.ndarray
    metadatas: list[dict[str, Any]]


def projection_path(index: Index) -> Path:
    return index.path(PROJECTION_FILE)


def load_vectors(index: Index) -> IndexVectors:
    """The index's vectors and metadata, row-aligned with its chunk table (from the local search files)."""
    files = index.files
    table = files.table
    keys = ("path", "symbol", "kind", "layer", "language", "start_line", "end_line")
    columns = (table.paths, table.symbols, table.kinds, table.layers, table.languages, table.starts, table.ends)
    metadatas = [dict(zip(keys, row, strict=True)) for row in zip(*columns, strict=True)]
    vectors = np.asarray(files.vectors, dtype=np.float32).reshape(len(table), -1)
    return IndexVectors(ids=list(table.ids), vectors=vectors, metadatas=metadatas)


def _pca(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """2-D PCA: (coords, mean, components); degenerate inputs get zero axes."""
    components = np.zeros((2, vectors.shape[1]), dtype=np.float32)
    if len(vectors) < 2:
        mean = vectors.mean(axis=0) if len(vectors) else np.zeros(vectors.shape[1], dtype=np.float32)
        return np.zeros((len(vectors), 2), dtype=np.float32), mean.astype(np.float32), components
    mean, axes = principal_axes(vectors, 2)
    components[: len(axes)] = axes
    return ((vectors - mean) @ components.T).astype(np.float32), mean, components


def compute_projection(data: IndexVectors, index: Index, *, method: str = "auto", seed: int = 42) -> Projection:
    """Lay out ``data`` in 2-D and name its regions.

    ``auto`` = the graph layout unless the index is tiny; ``umap`` = the reference implementation (umap-learn), for
    those who prefer it over a faster first map (``CODEQA_MAP_LAYOUT=umap``).
    """
    if method not in ("auto", "graph", "umap", "pca"):
        raise ValueError(f"Unknown projection method {method!r}; use 'auto', 'graph', 'umap' or 'pca'.")
    started = time.perf_counter()
    paths = tuple(str(m.get("path", "")) for m in data.metadatas)
    symbols = tuple(str(m.get("symbol", "") or "") for m in data.metadatas)
    coords, mean, components = _pca(data.vectors)
    chosen = "pca"
    if method == "umap" and len(data.ids) >= LAYOUT_MIN_POINTS:
        coords, chosen = umap_layout(data.vectors, seed=seed), "umap"
    elif method == "graph" or (method == "auto" and len(data.ids) >= LAYOUT_MIN_POINTS):
        coords, chosen = layout(data.vectors, paths, seed=seed), "graph"
    subsystems, areas, named = regions(coords, paths, symbols, seed=seed)
    return _assemble(
        data, index, chosen, coords, subsystems, areas, tuple(named), started=started, pca=(mean, components)
    )


def _assemble(data: IndexVectors, index: Index, method: str, coords: np.ndarray, subsystems: np.ndarray,
              areas: np.ndarray, named: tuple[Region, ...], *, started: float, pca: tuple[np.ndarray, np.ndarray],
              drift: int = 0) -> Projection:  # fmt: skip
    metas = data.metadatas
    return Projection(
        index=index.name,
        collection=index.key,
        method=method,
        ids=tuple(data.ids),
        x=coords[:, 0].copy() if len(coords) else np.zeros(0, dtype=np.float32),
        y=coords[:, 1].copy() if len(coords) else np.zeros(0, dtype=np.float32),
        paths=tuple(str(m.get("path", "")) for m in metas),
        symbols=tuple(str(m.get("symbol", "") or "") for m in metas),
        kinds=tuple(str(m.get("kind", "other")) for m in metas),
        layers=tuple(str(m.get("layer", "core")) for m in metas),
        languages=tuple(str(m.get("language", "text")) for m in metas),
        start_lines=np.asarray([int(m.get("start_line", 0)) for m in metas], dtype=np.int32),
        end_lines=np.asarray([int(m.get("end_line", 0)) for m in metas], dtype=np.int32),
        seconds=round(time.perf_counter() - started, 3),
        pca_mean=pca[0],
        pca_components=pca[1],
        subsystems=subsystems.astype(np.int32),
        areas=areas.astype(np.int32),
        regions=named,
        drift=drift,
    )


def follow_update(index: Index, data: IndexVectors, method: str = "auto") -> Projection | None:
    """The map of the generation this one was updated from, followed to this one (``follow.py``); None when there
    is none, it is of another kind than ``method`` asks for, or the change is too large to follow."""
    previous = read_projection(index.previous_path(PROJECTION_FILE))
    wanted = "umap" if method == "umap" else "graph"
    if previous is None or previous.method != wanted or len(data.ids) < LAYOUT_MIN_POINTS:
        return None  # a PCA map (a tiny index) is recomputed: it costs less than following it
    started = time.perf_counter()
    followed = follow(previous, data.ids, data.vectors, [str(m.get("path", "")) for m in data.metadatas])
    if followed is None:
        return None
    return _assemble(data, index, previous.method, followed.coords, followed.subsystems, followed.areas,
                     followed.regions, started=started, pca=(previous.pca_mean, previous.pca_components),
                     drift=followed.drift)  # fmt: skip


def cached_projection(index: Index) -> Projection | None:
    projection = read_projection(projection_path(index))
    return projection if projection and projection.collection == index.key else None


def is_final(projection: Projection) -> bool:
    """True for the graph layout, or a PCA one of an index too small for it; False for a PCA preview."""
    return projection.method != "pca" or len(projection) < LAYOUT_MIN_POINTS


def _lock(collection: str) -> threading.Lock:
    with _LOCKS_GUARD:
        return _LOCKS.setdefault(collection, threading.Lock())


def get_projection(index: Index, *, compute: bool = True) -> Projection:
    """The final map of an index: from disk when cached; else computed (``compute``) and cached, or a PCA preview.

    After an update the previous generation's map is followed when the change is small (``follow.py``): quick, so
    even ``compute=False`` does it. Otherwise, with ``compute=False`` a missing layout is not computed; a PCA preview
    is returned (not cached) so a page can draw something at once while the layout runs elsewhere. Two threads
    asking at once compute it once.
    """
    cached = cached_projection(index)
    if cached is not None:
        return cached
    method = "umap" if index.settings.map_layout == "umap" else "auto"
    if not compute:
        data = load_vectors(index)
        followed = follow_update(index, data, method)  # as quick as a preview, and final
        if followed is not None:
            save_projection(followed, projection_path(index))
            return followed
        if len(data.ids) >= LAYOUT_MIN_POINTS:
            return compute_projection(data, index, method="pca")
    with _lock(index.key):
        cached = cached_projection(index)  # computed by another thread while we waited
        if cached is not None:
            return cached
        data = load_vectors(index)
        projection = follow_update(index, data, method) or compute_projection(data, index, method=method)
        save_projection(projection, projection_path(index))
        return projection


def chunks_by_id(index: Index, ids: Sequence[str]) -> list[Chunk]:
    """The chunks with these ids, in the given order (missing ids are skipped)."""
    return index.chunks(ids)


def filter_mask(index: Index, projection: Projection, filters: Filters) -> np.ndarray:
    """Which points of the map pass ``filters`` — the very mask retrieval applies (the map is row-aligned)."""
    if not filters.active:
        return np.ones(len(projection), dtype=bool)
    table = index.files.table
    mask = filters.mask(table)
    if mask is None:
        return np.ones(len(projection), dtype=bool)
    if tuple(table.ids) == projection.ids:
        return np.asarray(mask, dtype=bool)
    row_of = {chunk_id: row for row, chunk_id in enumerate(table.ids)}
    return np.asarray([bool(mask[row_of[i]]) if i in row_of else False for i in projection.ids], dtype=bool)
