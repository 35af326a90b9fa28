"""Work done once per index, right after it is built, so the app opens at once: the map and the overview.

Both are cached with the index generation (``projection.npz``, ``overview.json``, see ``Index.path``), so a
re-index or an update never shows stale ones. ``prepare`` runs after indexing — in a background thread of the app,
and after ``codeqa index`` has printed its summary — and pages fall back to computing what is missing. One lock per
index generation makes concurrent callers compute each thing once.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from codeqa.explore.overview import DirNode, FileStat, Overview, SymbolRef, load_overview
from codeqa.explore.projection import get_projection
from codeqa.index import Index

OVERVIEW_VERSION = 2  # 2: imports and references from the tags stored at index time
OVERVIEW_FILE = "overview.json"
_LOCKS: dict[str, threading.Lock] = {}
_GUARD = threading.Lock()


@dataclass(frozen=True)
class Prepared:
    """What ``prepare`` did: seconds spent on the map and on the overview (0 when they were cached)."""

    map_seconds: float
    overview_seconds: float
    points: int
    method: str


def overview_path(index: Index) -> Path:
    return index.path(OVERVIEW_FILE)


def save_overview(overview: Overview, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"version": OVERVIEW_VERSION, "overview": asdict(overview)}, separators=(",", ":")))
    tmp.replace(path)


def read_overview(path: Path) -> Overview | None:
    """The cached overview, or None when missing, unreadable or written by another version."""
    try:
        data = json.loads(path.read_text())
        if data.get("version") != OVERVIEW_VERSION:
            return None
        raw = data["overview"]
        return Overview(
            **{
                **raw,
                "directories": tuple(DirNode(**node) for node in raw["directories"]),
                "file_stats": tuple(FileStat(**stat) for stat in raw["file_stats"]),
                "top_symbols": tuple(SymbolRef(**ref) for ref in raw["top_symbols"]),
                "file_imports": {path: tuple(targets) for path, targets in raw["file_imports"].items()},
            }
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _lock(key: str) -> threading.Lock:
    with _GUARD:
        return _LOCKS.setdefault(key, threading.Lock())


def get_overview(index: Index) -> Overview:
    """The index's overview: from disk when cached, else built from the stored chunks and cached."""
    path = overview_path(index)
    cached = read_overview(path)
    if cached is not None:
        return cached
    with _lock(index.key):
        cached = read_overview(path)
        if cached is not None:
            return cached
        overview = load_overview(index)
        save_overview(overview, path)
        return overview


def prepare(index: Index) -> Prepared:
    """Compute and cache the overview and the map of a freshly built index (a no-op for what is cached)."""
    started = time.perf_counter()
    get_overview(index)
    middle = time.perf_counter()
    projection = get_projection(index, compute=True)
    map_seconds = round(time.perf_counter() - middle, 2)
    return Prepared(map_seconds, round(middle - started, 2), len(projection), projection.method)
