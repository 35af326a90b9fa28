"""What an index run tells its caller: progress events per stage while it runs, and a report when it is done."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from codeqa.records import SkippedFile
from codeqa.store import Manifest

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
    carried: int = 0  # chunks of unchanged files kept from the previous generation (``update``)


class StageClock:
    """Seconds spent per stage; stages overlap (storing runs beside chunking and embedding), so they can add up to
    more than the wall time."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {stage: 0.0 for stage in STAGES}
        self._lock = threading.Lock()

    def add(self, stage: str, started: float) -> None:
        elapsed = time.perf_counter() - started
        with self._lock:
            self.seconds[stage] += elapsed

    def rounded(self) -> dict[str, float]:
        return {stage: round(seconds, 3) for stage, seconds in self.seconds.items()}
