"""The ranking signals: each turns the question into an ordered list of chunk-table rows.

Dense (cosine over the index's vectors), lexical (BM25 over code tokens), exact symbol/file-name matches, and
graph evidence (personalized PageRank from the best hits). Every signal takes the same filter mask.
"""

from __future__ import annotations

import numpy as np

from codeqa.retrieve.query import same_file
from codeqa.searchfiles.files import SearchFiles
from codeqa.searchfiles.graph import SymbolGraph

CANDIDATES = 100


def top_rows(scores: np.ndarray, n: int) -> list[int]:
    """Rows with a positive score, best first (ties by row: rankings must be deterministic)."""
    positive = np.flatnonzero(scores > 0)
    if positive.size == 0:
        return []
    best = positive[np.argsort(-scores[positive], kind="stable")[:n]]
    return best.tolist()


def symbol_matches(files: SearchFiles, names: set[str], file_names: set[str], mask: np.ndarray | None) -> list[int]:
    """Rows that define a name the question mentions, or live in a file it names."""
    rows: dict[int, float] = {}
    for name in sorted(names):  # sets iterate in a per-process order; rankings must not
        for row in files.definers.get(name, ())[:20]:
            rows[row] = rows.get(row, 0.0) + 1.0 + (0.5 if "." in name else 0.0)
    for mention in file_names:
        for row in files.rows_by_basename.get(mention.rsplit("/", 1)[-1], ()):
            if same_file(files.table.paths[row], mention):
                rows[row] = rows.get(row, 0.0) + 1.0
    if mask is not None:
        rows = {row: score for row, score in rows.items() if mask[row]}
    return sorted(rows, key=lambda row: (-rows[row], row))[:CANDIDATES]


def dense_similarity(vectors: np.ndarray, query_vector: np.ndarray, mask: np.ndarray | None) -> np.ndarray:
    """Cosine similarity of every row to the question (``-inf`` outside the mask)."""
    similarity = np.asarray(vectors @ query_vector, dtype=np.float32)
    if mask is not None:
        similarity = np.where(mask, similarity, -np.inf)
    return similarity


def dense_rows(similarity: np.ndarray, n: int) -> list[int]:
    """Exact top-n rows by similarity (a few ms at 50k chunks, filters included)."""
    n = min(n, similarity.shape[0])
    if n <= 0:
        return []
    best = np.argpartition(-similarity, n - 1)[:n]
    best = best[np.argsort(-similarity[best], kind="stable")]
    return [int(row) for row in best if np.isfinite(similarity[row])]


def add_graph_evidence(
    fused: dict[int, float], graph: SymbolGraph, mask: np.ndarray | None, weight: float, n: int
) -> None:
    """Raise the code the best hits use or are used by, in proportion to how strongly it is linked.

    Personalized PageRank from the top hits; a neighbour gains ``weight`` × the best hit's score × its rank
    relative to the best hit's own, so graph evidence brings in callers/callees and reorders close calls.
    """
    seeds = dict(sorted(fused.items(), key=lambda kv: -kv[1])[:10])
    spread = graph.personalized_pagerank(seeds)
    if mask is not None:
        spread = np.where(mask, spread, 0.0)
    best_row, best = max(seeds.items(), key=lambda kv: kv[1])
    reference = float(spread[best_row])  # how much rank the best hit itself holds
    spread[list(seeds)] = 0.0  # seeds keep their restart mass: only neighbours gain
    if reference <= 0:
        return
    for row in top_rows(spread, n):
        fused[row] = fused.get(row, 0.0) + weight * best * min(1.0, float(spread[row]) / reference)
