"""The chunk ranker: the top-k chunks across the best files — the chunks that answer, not one file's chunks.

Each of the best files has a probability of being the one the question is about (a softmax over the file
ranker's scores, ``temperature``), and each of its chunks a probability of being the part that answers, given the
file (a softmax within the file over the chunk features in ``CHUNKS``). A chunk's value is

    P(file) × (alpha × [it is the file's best chunk] + (1 − alpha) × P(chunk | file))

so a second file that may well be the answer shows its best chunk before the first file's fifth, while a file
that is clearly the answer keeps most places. The weights, ``alpha`` and ``temperature`` are fitted on dev data
(``codeqa.evaluate.chunk_fit``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from codeqa.retrieve.features import ChunkSignals
from codeqa.retrieve.registry import Columns, FeatureRegistry
from codeqa.searchfiles.files import SearchFiles


@dataclass
class ChunkContext(Columns):
    """The chunks of the best files: rows of the chunk table, which of the files (0..files-1) owns each, and the
    chunk-level evidence at those rows."""

    rows: np.ndarray
    owner: np.ndarray
    fused: np.ndarray
    dense: np.ndarray
    lexical: np.ndarray
    kinds: np.ndarray  # object array of kind names
    lines: np.ndarray
    named: np.ndarray  # defines a name the question mentions

    def within_max(self, values: np.ndarray) -> np.ndarray:
        """Each row's file's largest value."""
        best = np.full(int(self.owner.max()) + 1 if len(self.owner) else 0, -np.inf, dtype=np.float32)
        np.maximum.at(best, self.owner, values)
        return best[self.owner]

    def kind(self, *wanted: str) -> np.ndarray:
        return np.isin(self.kinds, wanted).astype(np.float32)

    def subset(self, keep: np.ndarray) -> ChunkContext:
        return ChunkContext(*(getattr(self, name)[keep] for name in self.__dataclass_fields__))


CHUNKS = FeatureRegistry("chunk ranker")
ChunkContext.registry = CHUNKS


def _over_file_best(values: np.ndarray, context: ChunkContext) -> np.ndarray:
    best = context.within_max(values)
    return np.where(best > 0, values / np.maximum(best, 1e-9), 0.0)


CHUNKS.add("fused", lambda c: _over_file_best(c.fused, c), "fused score over the file's best chunk's")
CHUNKS.add("dense", lambda c: c.dense - c.within_max(c.dense), "cosine minus the file's best chunk's")
CHUNKS.add("bm25", lambda c: _over_file_best(c.lexical, c), "BM25 over the file's best chunk's")
CHUNKS.add("dense_all", lambda c: c.dense - c.dense.max(), "cosine minus the best chunk's of all the files")
CHUNKS.add("bm25_all", lambda c: c.lexical / c.lexical.max() if c.lexical.max() > 0 else c.lexical)
CHUNKS.add("named", lambda c: c.named, "defines a name the question mentions")
CHUNKS.add("doc_chunk", lambda c: c.kind("doc"))
CHUNKS.add("test_chunk", lambda c: c.kind("test"))
CHUNKS.add("config_chunk", lambda c: c.kind("config"))
CHUNKS.add("lines", lambda c: np.log1p(c.lines) / np.log(200.0), "log line count")
CHUNK_FEATURES = CHUNKS.names


@dataclass(frozen=True)
class ChunkRanker:
    """Chooses the top-k chunks across files (see the module docstring)."""

    weights: dict[str, float] = field(default_factory=lambda: {"fused": 1.0, "dense": 4.0, "bm25": 1.0})
    alpha: float = 0.5
    temperature: float = 1.0

    def within(self, features: np.ndarray, owner: np.ndarray) -> np.ndarray:
        """P(chunk | its file): a softmax of the chunk scores within each file."""
        scores = np.asarray(features, dtype=np.float64) @ np.asarray(
            [self.weights.get(name, 0.0) for name in CHUNK_FEATURES], dtype=np.float64
        )
        return grouped_softmax(scores, owner)

    def values(self, file_scores: np.ndarray, features: np.ndarray, owner: np.ndarray) -> np.ndarray:
        """Each chunk's value; ``file_scores`` are the owning files' ranker scores (index = owner)."""
        if not len(owner):
            return np.zeros(0)
        scaled = np.asarray(file_scores, dtype=np.float64) / max(self.temperature, 1e-6)
        file_probability = np.exp(scaled - scaled.max())
        file_probability /= file_probability.sum()
        within = self.within(features, owner)
        return file_probability[owner] * (self.alpha * best_of_groups(within, owner) + (1.0 - self.alpha) * within)


def best_of_groups(values: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """True at each group's largest value (the first one on ties)."""
    best = np.zeros(len(values), dtype=bool)
    if len(values):
        order = np.lexsort((np.arange(len(values)), -values, groups))
        first = np.r_[True, groups[order][1:] != groups[order][:-1]]
        best[order[first]] = True
    return best


def grouped_softmax(scores: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """A softmax of ``scores`` within each group (groups numbered 0..n-1)."""
    if not len(scores):
        return np.zeros(0)
    size = int(groups.max()) + 1
    top = np.full(size, -np.inf)
    np.maximum.at(top, groups, scores)
    exp = np.exp(scores - top[groups])
    total = np.zeros(size)
    np.add.at(total, groups, exp)
    return exp / total[groups]


def file_rows(files: SearchFiles) -> list[np.ndarray]:
    """Each file's chunk rows (cached per loaded index)."""
    cached = getattr(files, "_file_rows", None)
    if cached is None:
        row_file = files.files.row_file
        order = np.argsort(row_file, kind="stable")
        bounds = np.searchsorted(row_file[order], np.arange(len(files.files) + 1))
        cached = [order[bounds[i] : bounds[i + 1]] for i in range(len(files.files))]
        files._file_rows = cached  # type: ignore[attr-defined]
    return cached


def chunk_pool(
    files: SearchFiles,
    signals: ChunkSignals,
    numbers: Sequence[int] | np.ndarray,
    mask: np.ndarray | None,
    named_rows: Sequence[int] = (),
) -> ChunkContext:
    """Every chunk (inside the filter) of the files ``numbers``, with its evidence, for ``CHUNKS``."""
    per_file = file_rows(files)
    parts = [per_file[int(number)] for number in numbers]
    if mask is not None:
        parts = [part[mask[part]] for part in parts]
    rows = np.concatenate(parts).astype(np.int64) if parts else np.zeros(0, dtype=np.int64)
    owner = np.repeat(np.arange(len(parts)), [len(part) for part in parts]).astype(np.int64)
    fused = np.zeros(len(files.table), dtype=np.float32)
    if signals.fused:
        fused[np.fromiter(signals.fused, dtype=np.int64)] = np.fromiter(signals.fused.values(), dtype=np.float32)
    dense = signals.dense[rows]
    starts, ends = _line_columns(files)
    named = np.isin(rows, np.asarray(list(named_rows), dtype=np.int64)).astype(np.float32)
    return ChunkContext(
        rows=rows,
        owner=owner,
        fused=fused[rows],
        dense=np.where(np.isfinite(dense), dense, -1.0).astype(np.float32),
        lexical=np.asarray(signals.lexical[rows], dtype=np.float32),
        kinds=files.table.column("kinds")[rows],
        lines=(ends[rows] - starts[rows] + 1).astype(np.float32),
        named=named,
    )


def _line_columns(files: SearchFiles) -> tuple[np.ndarray, np.ndarray]:
    cached = getattr(files, "_line_columns", None)
    if cached is None:
        cached = (np.asarray(files.table.starts, dtype=np.int64), np.asarray(files.table.ends, dtype=np.int64))
        files._line_columns = cached  # type: ignore[attr-defined]
    return cached
