"""``retrieve``: the one entry point of the retrieve stage — a question in, ranked chunks and files out.

Each signal ranks chunks; ranks are fused with weighted reciprocal-rank fusion (robust to the signals' different
score scales) and docs and tests are demoted unless asked for. Files are ranked by the learned ranker over
per-file candidate features (``features.py``, ``ranker.py``); chunks follow their file's rank. The same filter
mask applies to every signal, so a scoped question never leaks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from codeqa.errors import QueryError
from codeqa.index import Index
from codeqa.records import Hit
from codeqa.retrieve.features import Candidates, ChunkSignals, candidate_features
from codeqa.retrieve.filters import Filters
from codeqa.retrieve.fusion import Weights, apply_penalties, file_scores, fuse
from codeqa.retrieve.query import asks_for_tests, query_identifiers, validate_query
from codeqa.retrieve.ranker import Ranker, default_ranker
from codeqa.retrieve.signals import (
    CANDIDATES,
    add_graph_evidence,
    dense_rows,
    dense_similarity,
    symbol_matches,
    top_rows,
)
from codeqa.store import SearchFiles
from codeqa.store.lexical import code_tokens
from codeqa.store.table import ChunkTable

DOC_BRIDGE_CHUNKS = 5  # documentation chunks whose mentioned names point at code


@dataclass
class FileHit:
    path: str
    score: float
    hits: list[Hit] = field(default_factory=list)


@dataclass
class Retrieval:
    hits: list[Hit]  # the top-k chunks, best first
    files: list[FileHit]  # every candidate file, best first (with its hits among the top-k)
    query_vector: np.ndarray | None = None  # the question's embedding (the map places the question with it)
    candidates: list[str] = field(default_factory=list)  # candidate files the ranker scored, in feature-row order
    features: np.ndarray | None = None  # their features (for evaluation and training)


def retrieve(
    index: Index,
    query: str,
    *,
    k: int = 10,
    filters: Filters | None = None,
    weights: Weights | None = None,
    ranker: Ranker | None = None,
    learned: bool = True,
) -> Retrieval:
    """Top-``k`` chunks of ``index`` for ``query`` (best first) and the files ranked, within ``filters``.

    Chunks are ranked by fusing the signals; files by the learned ranker over candidate features (``learned=False``
    ranks files by summed chunk scores instead, as before the ranker existed; kept for comparison).
    """
    query = validate_query(query)
    if k < 1:
        raise QueryError("k must be at least 1.")
    weights = weights or Weights()
    filters = filters or Filters()
    embedder = index.embedder
    files = index.files
    table = files.table
    filters.validate(table)
    mask = filters.mask(table)
    if mask is not None and not mask.any():
        return Retrieval([], [])
    allowed = len(table) if mask is None else int(mask.sum())
    n = min(CANDIDATES, allowed)

    query_vector = embedder.embed_query(query)
    names, file_names = query_identifiers(query)
    similarity = dense_similarity(files.vectors, query_vector, mask)
    lexical = files.lexical.scores(code_tokens(query), mask)
    signals = {
        "dense": dense_rows(similarity, n),
        "lexical": top_rows(lexical, n),
        "symbol": symbol_matches(files, names, file_names, mask),
    }
    fused = fuse(signals, weights)
    if weights.graph and fused:
        add_graph_evidence(fused, files.graph, mask, weights.graph, n)
    apply_penalties(fused, table, asks_for_tests(query), weights)
    order = sorted(fused, key=lambda row: (-fused[row], row))
    if not learned:
        retrieval = materialize(index, table, order, fused, k, weights.file_bonus_for(query))
        retrieval.query_vector = query_vector
        return retrieval
    doc_rows = [row for row in order if table.kinds[row] == "doc"][:DOC_BRIDGE_CHUNKS]
    doc_texts = [chunk.text for chunk in index.chunks([table.ids[row] for row in doc_rows])]
    chunk_signals = ChunkSignals(
        similarity,
        lexical,
        fused,
        signals["dense"],
        signals["lexical"],
        signals["symbol"],
        names,
        file_names,
        doc_texts,
    )
    candidates = candidate_features(files, query, query_vector, chunk_signals, mask)
    retrieval = _rank_files(index, files, candidates, fused, ranker or default_ranker(), k)
    retrieval.query_vector = query_vector
    return retrieval


def _rank_files(
    opened: Index,
    files: SearchFiles,
    candidates: Candidates,
    fused: dict[int, float],
    ranker: Ranker,
    k: int,
) -> Retrieval:
    """Files by the ranker's score; chunks by their file's rank, then by their own fused score within the file."""
    index = files.files
    scores = ranker.score(candidates.features)
    order = np.argsort(-scores, kind="stable")
    ranked = [int(candidates.files[i]) for i in order]
    file_rank = {number: rank for rank, number in enumerate(ranked)}
    best_in_file: dict[int, float] = {}
    for row, score in fused.items():
        number = int(index.row_file[row])
        best_in_file[number] = max(best_in_file.get(number, 0.0), score)
    chunk_scores = {
        row: (0.6 + 0.4 * score / best_in_file[number]) / (1 + file_rank[number])
        for row, score in fused.items()
        if (number := int(index.row_file[row])) in file_rank and best_in_file[number] > 0
    }
    rows = sorted(chunk_scores, key=lambda row: (-chunk_scores[row], row))[:k]
    by_id = {chunk.id: chunk for chunk in opened.chunks([files.table.ids[row] for row in rows])}
    hits = [
        Hit(chunk=by_id[files.table.ids[row]], score=round(chunk_scores[row], 6), id=files.table.ids[row])
        for row in rows
        if files.table.ids[row] in by_id
    ]
    file_hits: dict[str, FileHit] = {}
    for i in order:
        path = index.paths[int(candidates.files[i])]
        file_hits[path] = FileHit(path, float(scores[i]))
    for hit in hits:
        file_hits[hit.chunk.path].hits.append(hit)
    paths = [index.paths[int(number)] for number in candidates.files]
    return Retrieval(hits=hits, files=list(file_hits.values()), candidates=paths, features=candidates.features)


def materialize(
    index: Index,
    table: ChunkTable,
    order: list[int],
    fused: dict[int, float],
    k: int,
    file_bonus: float = 0.1,
) -> Retrieval:
    """Fetch the texts of the top chunks and rank files by their aggregated scores."""
    scores = file_scores(table, order, fused, file_bonus)
    files = {path: FileHit(path=path, score=score) for path, score in scores.items()}
    top = order[:k]
    by_id = {chunk.id: chunk for chunk in index.chunks([table.ids[row] for row in top])}
    hits = [
        Hit(chunk=by_id[table.ids[row]], score=round(fused[row], 6), id=table.ids[row])
        for row in top
        if table.ids[row] in by_id
    ]
    for hit in hits:
        files[hit.chunk.path].hits.append(hit)
    ranked_files = sorted(files.values(), key=lambda f: -f.score)
    return Retrieval(hits=hits, files=ranked_files)
