"""The project stage: a 2-D map of an index's chunk embeddings (UMAP, with PCA for tiny repos or as a preview).

The layout is computed once per index generation and cached next to the index as
``indexes_dir/<collection>/projection.npz``. A re-index writes a new collection, so its map is a new file and a
stale map can never be shown; dropping a collection removes its folder, map included. No Streamlit here.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from codeqa.config import Settings
from codeqa.records import Chunk
from codeqa.retrieve import Filters
from codeqa.store import Manifest, Store, index_dir, load_search_files

PROJECTION_VERSION = 1
UMAP_MIN_POINTS = 50  # below this UMAP's neighbourhood graph is meaningless: PCA is the honest picture
_COLUMNS = ("paths", "symbols", "kinds", "layers", "languages")


@dataclass(frozen=True)
class Projection:
    """One point per chunk: its 2-D position and the metadata a map needs for colour and hover."""

    index: str
    collection: str
    method: str  # "umap" or "pca"
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

    def __len__(self) -> int:
        return len(self.ids)

    def location(self, i: int) -> str:
        return f"{self.paths[i]}:{int(self.start_lines[i])}-{int(self.end_lines[i])}"

    @property
    def top_dirs(self) -> tuple[str, ...]:
        """First path component (``"(root)"`` for files at the top level): a coarse colouring."""
        return tuple(path.split("/", 1)[0] if "/" in path else "(root)" for path in self.paths)

    def field_values(self, name: str) -> tuple[str, ...]:
        """Values of a colouring field: ``layer``, ``kind``, ``language`` or ``directory``."""
        columns = {"layer": self.layers, "kind": self.kinds, "language": self.languages, "directory": self.top_dirs}
        if name not in columns:
            raise ValueError(f"Unknown map colouring {name!r}; choose one of {', '.join(columns)}.")
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


def projection_path(settings: Settings, manifest: Manifest) -> Path:
    return index_dir(settings, manifest.collection) / "projection.npz"


def load_vectors(settings: Settings, manifest: Manifest, store: Store | None = None) -> IndexVectors:
    """The index's vectors and metadata, row-aligned with its chunk table (from the local search files)."""
    files = load_search_files(settings, manifest, store or Store(settings))
    table = files.table
    metadatas = [
        {
            "path": table.paths[row],
            "symbol": table.symbols[row],
            "kind": table.kinds[row],
            "layer": table.layers[row],
            "language": table.languages[row],
            "start_line": table.starts[row],
            "end_line": table.ends[row],
        }
        for row in range(len(table))
    ]
    vectors = np.asarray(files.vectors, dtype=np.float32).reshape(len(table), -1)
    return IndexVectors(ids=list(table.ids), vectors=vectors, metadatas=metadatas)


def _pca(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """2-D PCA via SVD: (coords, mean, components); degenerate inputs get a zero second axis."""
    mean = vectors.mean(axis=0) if len(vectors) else np.zeros(vectors.shape[1], dtype=np.float32)
    centered = vectors - mean
    if len(vectors) < 2:
        components = np.zeros((2, vectors.shape[1]), dtype=np.float32)
    else:
        _, _, vt = np.linalg.svd(centered, full_matrices=False)
        components = np.zeros((2, vectors.shape[1]), dtype=np.float32)
        components[: min(2, len(vt))] = vt[:2]
    return (centered @ components.T).astype(np.float32), mean.astype(np.float32), components


def _umap(vectors: np.ndarray, seed: int) -> np.ndarray:
    import umap  # first import compiles with numba (~10 s): keep it out of module import

    reducer = umap.UMAP(
        n_components=2,
        n_neighbors=min(15, len(vectors) - 1),
        min_dist=0.1,
        metric="euclidean",  # on normalized vectors this orders pairs like cosine, without another JIT compile
        n_epochs=150,
        init="pca",
        random_state=seed,  # reproducible layouts (UMAP then runs single-threaded)
        n_jobs=1,
        low_memory=True,
    )
    return np.asarray(reducer.fit_transform(vectors), dtype=np.float32)


def compute_projection(data: IndexVectors, manifest: Manifest, *, method: str = "auto", seed: int = 42) -> Projection:
    """Lay out ``data`` in 2-D. ``auto`` = UMAP unless there are fewer than ``UMAP_MIN_POINTS`` chunks."""
    if method not in ("auto", "umap", "pca"):
        raise ValueError(f"Unknown projection method {method!r}; use 'auto', 'umap' or 'pca'.")
    started = time.perf_counter()
    coords, mean, components = _pca(data.vectors)
    chosen = "pca"
    if method != "pca" and len(data.ids) >= UMAP_MIN_POINTS:
        coords, chosen = _umap(data.vectors, seed), "umap"
    metas = data.metadatas
    return Projection(
        index=manifest.name,
        collection=manifest.collection,
        method=chosen,
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
        pca_mean=mean,
        pca_components=components,
    )


def save_projection(projection: Projection, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    arrays: dict[str, Any] = {
        "version": np.asarray(PROJECTION_VERSION),
        "meta": np.asarray([projection.index, projection.collection, projection.method]),
        "seconds": np.asarray(projection.seconds),
        "ids": np.asarray(projection.ids, dtype=str),
        "x": projection.x,
        "y": projection.y,
        "start_lines": projection.start_lines,
        "end_lines": projection.end_lines,
        "pca_mean": projection.pca_mean,
        "pca_components": projection.pca_components,
    }
    arrays.update({name: np.asarray(getattr(projection, name), dtype=str) for name in _COLUMNS})
    with open(tmp, "wb") as handle:
        np.savez_compressed(handle, **arrays)
    tmp.replace(path)  # atomic: a reader never sees half a file


def read_projection(path: Path) -> Projection | None:
    """The cached projection at ``path``, or None when missing, unreadable or from another version."""
    try:
        with np.load(path, allow_pickle=False) as data:
            if int(data["version"]) != PROJECTION_VERSION:
                return None
            index, collection, method = (str(v) for v in data["meta"])
            columns = {name: tuple(str(v) for v in data[name]) for name in _COLUMNS}
            return Projection(
                index=index,
                collection=collection,
                method=method,
                ids=tuple(str(v) for v in data["ids"]),
                x=data["x"],
                y=data["y"],
                start_lines=data["start_lines"],
                end_lines=data["end_lines"],
                seconds=float(data["seconds"]),
                pca_mean=data["pca_mean"],
                pca_components=data["pca_components"],
                **columns,
            )
    except (OSError, KeyError, ValueError):
        return None


def cached_projection(settings: Settings, manifest: Manifest) -> Projection | None:
    projection = read_projection(projection_path(settings, manifest))
    return projection if projection and projection.collection == manifest.collection else None


def is_final(projection: Projection) -> bool:
    """True for a UMAP layout, or a PCA one of an index too small for UMAP; False for a PCA preview."""
    return projection.method == "umap" or len(projection) < UMAP_MIN_POINTS


def get_projection(
    settings: Settings, manifest: Manifest, *, store: Store | None = None, compute: bool = True
) -> Projection:
    """The final map of an index: from disk when cached; else computed (``compute``) and cached, or a PCA preview.

    With ``compute=False`` a missing UMAP layout is not computed; a PCA preview is returned (not cached) so a page
    can draw something at once while UMAP runs elsewhere.
    """
    cached = cached_projection(settings, manifest)
    if cached is not None:
        return cached
    data = load_vectors(settings, manifest, store)
    if not compute and len(data.ids) >= UMAP_MIN_POINTS:
        return compute_projection(data, manifest, method="pca")
    projection = compute_projection(data, manifest, method="auto")
    save_projection(projection, projection_path(settings, manifest))
    return projection


def chunks_by_id(settings: Settings, manifest: Manifest, ids: Sequence[str], store: Store | None = None) -> list[Chunk]:
    """The chunks with these ids, in the given order (missing ids are skipped)."""
    return (store or Store(settings)).chunks(manifest, ids)


def filter_mask(
    settings: Settings, manifest: Manifest, projection: Projection, filters: Filters, store: Store | None = None
) -> np.ndarray:
    """Which points of the map pass ``filters`` — the very mask retrieval applies, mapped onto the map's points."""
    if not filters.active:
        return np.ones(len(projection), dtype=bool)
    table = load_search_files(settings, manifest, store or Store(settings)).table
    mask = filters.mask(table)
    if mask is None:
        return np.ones(len(projection), dtype=bool)
    if tuple(table.ids) == projection.ids:
        return np.asarray(mask, dtype=bool)
    row_of = {chunk_id: row for row, chunk_id in enumerate(table.ids)}
    return np.asarray([bool(mask[row_of[i]]) if i in row_of else False for i in projection.ids], dtype=bool)
