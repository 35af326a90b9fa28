"""The project stage: a 2-D map of an index's chunks, with named regions, computed once and cached with the index.

The layout (``layout.py``: the neighbour graph of the embeddings plus the folder structure; PCA for tiny
indexes or as a quick preview) and its regions (``clusters.py``) are cached as
``projection.npz`` in the index generation's folder (``Index.path``). A re-index or an update writes a new
generation, so its map is a new file and a stale map can never be shown; dropping a generation removes its folder,
map included. Points are row-aligned with the index's chunk table, so the retrieval filter mask is the map's mask.
No Streamlit here.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from codeqa.explore.clusters import Region, regions
from codeqa.explore.layout import layout, principal_axes, umap_layout
from codeqa.index import Index
from codeqa.records import Chunk
from codeqa.retrieve import Filters

PROJECTION_VERSION = 3
PROJECTION_FILE = "projection.npz"
LAYOUT_MIN_POINTS = 50  # below this a neighbour graph is meaningless: PCA is the honest picture
_COLUMNS = ("paths", "symbols", "kinds", "layers", "languages")
_REGION_TEXT = ("folder", "place")
_LOCKS: dict[str, threading.Lock] = {}
_LOCKS_GUARD = threading.Lock()


@dataclass(frozen=True)
class Projection:
    """One point per chunk (row-aligned with the chunk table): its position, region and map metadata."""

    index: str
    collection: str
    method: str  # "graph" (the final layout) or "pca"
    ids: tuple[str, ...]
    x: np.ndarray
    y: np.ndarray
    paths: tuple[str, ...]
    symbols: tuple[str, ...]
    kinds: tuple[str, ...]
    layers: tuple[str, ...]
    languages: tuple[str, ...]
    start_lines: np.ndarray
    end_lines: np.ndarray
    seconds: float = 0.0  # time the layout took to compute
    pca_mean: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.float32))
    pca_components: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.float32))
    subsystems: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int32))  # region id per point
    areas: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int32))
    regions: tuple[Region, ...] = ()

    def __len__(self) -> int:
        return len(self.ids)

    def location(self, i: int) -> str:
        return f"{self.paths[i]}:{int(self.start_lines[i])}-{int(self.end_lines[i])}"

    @property
    def top_dirs(self) -> tuple[str, ...]:
        """First path component (``"(root)"`` for files at the top level): a coarse colouring."""
        return tuple(path.split("/", 1)[0] if "/" in path else "(root)" for path in self.paths)

    def level(self, level: int) -> tuple[Region, ...]:
        return tuple(region for region in self.regions if region.level == level)

    def field_values(self, name: str) -> tuple[str, ...]:
        """Values of a colouring field: ``region``, ``layer``, ``kind``, ``language`` or ``directory``."""
        if name == "region":
            titles = {r.id: r.title for r in self.level(0)}
            return tuple(titles.get(int(i), "other") for i in self.subsystems)
        columns = {"layer": self.layers, "kind": self.kinds, "language": self.languages, "directory": self.top_dirs}
        if name not in columns:
            raise ValueError(f"Unknown map colouring {name!r}; choose one of region, {', '.join(columns)}.")
        return columns[name]

    def positions(self, ids: Sequence[str]) -> dict[str, tuple[float, float]]:
        where = {chunk_id: i for i, chunk_id in enumerate(self.ids)}
        return {i: (float(self.x[where[i]]), float(self.y[where[i]])) for i in ids if i in where}


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
    metas = data.metadatas
    paths = tuple(str(m.get("path", "")) for m in metas)
    symbols = tuple(str(m.get("symbol", "") or "") for m in metas)
    coords, mean, components = _pca(data.vectors)
    chosen = "pca"
    if method == "umap" and len(data.ids) >= LAYOUT_MIN_POINTS:
        coords, chosen = umap_layout(data.vectors, seed=seed), "umap"
    elif method == "graph" or (method == "auto" and len(data.ids) >= LAYOUT_MIN_POINTS):
        coords, chosen = layout(data.vectors, paths, seed=seed), "graph"
    subsystems, areas, named = regions(coords, paths, symbols, seed=seed)
    return Projection(
        index=index.name,
        collection=index.key,
        method=chosen,
        ids=tuple(data.ids),
        x=coords[:, 0].copy() if len(coords) else np.zeros(0, dtype=np.float32),
        y=coords[:, 1].copy() if len(coords) else np.zeros(0, dtype=np.float32),
        paths=paths,
        symbols=symbols,
        kinds=tuple(str(m.get("kind", "other")) for m in metas),
        layers=tuple(str(m.get("layer", "core")) for m in metas),
        languages=tuple(str(m.get("language", "text")) for m in metas),
        start_lines=np.asarray([int(m.get("start_line", 0)) for m in metas], dtype=np.int32),
        end_lines=np.asarray([int(m.get("end_line", 0)) for m in metas], dtype=np.int32),
        seconds=round(time.perf_counter() - started, 3),
        pca_mean=mean,
        pca_components=components,
        subsystems=subsystems.astype(np.int32),
        areas=areas.astype(np.int32),
        regions=tuple(named),
    )


def _region_arrays(found: Sequence[Region]) -> dict[str, np.ndarray]:
    return {
        "region_numbers": np.asarray([[r.level, r.id, r.parent, r.size] for r in found], dtype=np.int64).reshape(-1, 4),
        "region_coords": np.asarray([[r.x, r.y, *r.bounds] for r in found], dtype=np.float64).reshape(-1, 6),
        **{f"region_{name}": np.asarray([getattr(r, name) for r in found], dtype=str) for name in _REGION_TEXT},
        "region_terms": np.asarray(["\x1f".join(r.terms) for r in found], dtype=str),
    }


def _read_regions(data: Any) -> tuple[Region, ...]:
    numbers, coords = data["region_numbers"], data["region_coords"]
    folders, places, terms = data["region_folder"], data["region_place"], data["region_terms"]
    return tuple(
        Region(
            int(level),
            int(number),
            int(parent),
            str(folders[i]),
            str(places[i]),
            tuple(t for t in str(terms[i]).split("\x1f") if t),
            int(size),
            float(coords[i, 0]),
            float(coords[i, 1]),
            tuple(float(v) for v in coords[i, 2:6]),  # type: ignore[arg-type]
        )  # fmt: skip
        for i, (level, number, parent, size) in enumerate(numbers)
    )


def save_projection(projection: Projection, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    arrays: dict[str, Any] = {
        "version": np.asarray(PROJECTION_VERSION),
        "meta": np.asarray([projection.index, projection.collection, projection.method]),
        "seconds": np.asarray(projection.seconds),
        "ids": np.asarray(projection.ids, dtype=str),
        **{name: getattr(projection, name) for name in ("x", "y", "start_lines", "end_lines", "subsystems", "areas")},
        "pca_mean": projection.pca_mean,
        "pca_components": projection.pca_components,
        **_region_arrays(projection.regions),
    }
    columns = {name: list(getattr(projection, name)) for name in _COLUMNS}
    arrays["columns"] = np.asarray(json.dumps(columns, separators=(",", ":")))  # one string: no fixed-width padding
    with open(tmp, "wb") as handle:
        np.savez(handle, **arrays)  # uncompressed: opening the map is a read, not an unzip
    tmp.replace(path)  # atomic: a reader never sees half a file


def read_projection(path: Path) -> Projection | None:
    """The cached projection at ``path``, or None when missing, unreadable or from another version."""
    try:
        with np.load(path, allow_pickle=False) as data:
            if int(data["version"]) != PROJECTION_VERSION:
                return None
            index, collection, method = (str(v) for v in data["meta"])
            columns = {name: tuple(values) for name, values in json.loads(str(data["columns"])).items()}
            arrays = {name: data[name] for name in ("x", "y", "start_lines", "end_lines", "subsystems", "areas")}
            return Projection(
                index=index,
                collection=collection,
                method=method,
                ids=tuple(data["ids"].tolist()),
                seconds=float(data["seconds"]),
                pca_mean=data["pca_mean"],
                pca_components=data["pca_components"],
                regions=_read_regions(data),
                **arrays,
                **columns,
            )
    except (OSError, KeyError, ValueError, IndexError):
        return None


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

    With ``compute=False`` a missing layout is not computed; a PCA preview is returned (not cached) so a page can
    draw something at once while the layout runs elsewhere. Two threads asking at once compute it once.
    """
    cached = cached_projection(index)
    if cached is not None:
        return cached
    if not compute:
        data = load_vectors(index)
        if len(data.ids) >= LAYOUT_MIN_POINTS:
            return compute_projection(data, index, method="pca")
    with _lock(index.key):
        cached = cached_projection(index)  # computed by another thread while we waited
        if cached is not None:
            return cached
        method = "umap" if index.settings.map_layout == "umap" else "auto"
        projection = compute_projection(load_vectors(index), index, method=method)
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
