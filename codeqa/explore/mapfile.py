"""The map's file: a ``Projection`` (one point per chunk, its region and map metadata) and how it is saved and read.

One uncompressed ``.npz`` per index generation (``projection.npz``, see ``projection.py``): opening the map is a
read, not an unzip, and it is written atomically so a reader never sees half a file. Pure, no index here.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from codeqa.explore.clusters import Region

PROJECTION_VERSION = 3
_COLUMNS = ("paths", "symbols", "kinds", "layers", "languages")
_REGION_TEXT = ("folder", "place")
_ARRAYS = ("x", "y", "start_lines", "end_lines", "subsystems", "areas")


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
    drift: int = 0  # chunks added or removed since the layout was computed (placed on it, not laid out)

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
        "drift": np.asarray(projection.drift),
        "ids": np.asarray(projection.ids, dtype=str),
        **{name: getattr(projection, name) for name in _ARRAYS},
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
            columns: dict[str, Any] = {name: tuple(v) for name, v in json.loads(str(data["columns"])).items()}
            arrays: dict[str, Any] = {name: data[name] for name in _ARRAYS}
            return Projection(
                index=index,
                collection=collection,
                method=method,
                ids=tuple(data["ids"].tolist()),
                seconds=float(data["seconds"]),
                drift=int(data["drift"]) if "drift" in data.files else 0,  # written before maps followed updates
                pca_mean=data["pca_mean"],
                pca_components=data["pca_components"],
                regions=_read_regions(data),
                **arrays,
                **columns,
            )
    except (OSError, KeyError, ValueError, IndexError):
        return None
