"""Finding a question on the map: where its embedding falls, and which chunks answer it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from codeqa.errors import StoreError
from codeqa.explore.projection import Projection
from codeqa.index import Index

if TYPE_CHECKING:
    from codeqa.retrieve import Filters

QUERY_NEIGHBOURS = 8


def project_query(
    projection: Projection,
    vector: np.ndarray,
    *,
    neighbours: Sequence[tuple[str, float]] = (),
) -> tuple[float, float]:
    """Where a question's embedding falls on the map.

    PCA: the exact linear transform. The graph layout: the similarity-weighted mean of the question's nearest
    chunks (``neighbours`` = ``(chunk id, cosine similarity)``), which is how UMAP places new points; it needs no
    model on disk.
    """
    vector = np.asarray(vector, dtype=np.float32)
    if projection.method == "pca":
        if projection.pca_components.shape[-1] != vector.shape[-1]:
            raise StoreError("The question's embedding does not match this map's dimension; re-index the repository.")
        x, y = (vector - projection.pca_mean) @ projection.pca_components.T
        return float(x), float(y)
    where = {chunk_id: i for i, chunk_id in enumerate(projection.ids)}
    known = [(where[chunk_id], max(float(score), 0.0)) for chunk_id, score in neighbours if chunk_id in where]
    if not known:
        return float(np.mean(projection.x)), float(np.mean(projection.y))
    rows = np.asarray([i for i, _ in known])
    weights = np.asarray([w for _, w in known]) ** 4 + 1e-6  # sharpen: the closest chunks dominate
    x = np.average(projection.x[rows], weights=weights)
    return float(x), float(np.average(projection.y[rows], weights=weights))


def nearest_chunks(index: Index, vector: np.ndarray, *, k: int = QUERY_NEIGHBOURS) -> list[tuple[str, float]]:
    """``(chunk id, cosine similarity)`` of the ``k`` chunks closest to ``vector`` (unfiltered)."""
    files = index.files
    similarity = np.asarray(files.vectors @ np.asarray(vector, dtype=np.float32), dtype=np.float32)
    k = min(k, similarity.shape[0])
    if k <= 0:
        return []
    best = np.argpartition(-similarity, k - 1)[:k]
    best = best[np.argsort(-similarity[best], kind="stable")]
    return [(files.table.ids[row], float(similarity[row])) for row in best]


@dataclass(frozen=True)
class QuestionMarks:
    """Where a question lands on the map, and its best-matching chunks (their ids, best first)."""

    question: str
    hit_ids: tuple[str, ...]
    position: tuple[float, float]


def locate_question(
    index: Index, projection: Projection, question: str, *, filters: Filters | None = None, k: int = 8
) -> QuestionMarks:
    """Retrieve ``question`` once and place it on the map: its hits (within ``filters``) and its position."""
    from codeqa.retrieve import retrieve  # here: `codeqa update` prepares the map without loading retrieval

    retrieval = retrieve(index, question, k=k, filters=filters)
    vector = retrieval.query_vector
    if vector is None:  # nothing in scope: place the question by its embedding alone
        vector = index.embedder.embed_query(question)
    neighbours = [] if projection.method == "pca" else nearest_chunks(index, vector)
    position = project_query(projection, vector, neighbours=neighbours)
    return QuestionMarks(question, tuple(hit.id for hit in retrieval.hits), position)
