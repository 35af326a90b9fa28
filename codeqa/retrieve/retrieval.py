"""``retrieve``: the one entry point of the retrieve stage — a question in, ranked chunks and files out.

Each signal ranks chunks; ranks are fused with weighted reciprocal-rank fusion (robust to the signals' different
score scales), docs and tests are demoted unless asked for, and chunk scores are aggregated per file. The same
filter mask applies to every signal, so a scoped question never leaks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from codeqa.config import Settings
from codeqa.embed import Embedder, get_embedder
from codeqa.errors import QueryError
from codeqa.records import Hit
from codeqa.retrieve.filters import Filters
from codeqa.retrieve.fusion import Weights, apply_penalties, file_scores, fuse
from codeqa.retrieve.query import asks_for_tests, query_identifiers, validate_query
from codeqa.retrieve.signals import (
    CANDIDATES,
    add_graph_evidence,
    dense_rows,
    dense_similarity,
    symbol_matches,
    top_rows,
)
from codeqa.store import Manifest, Store, load_search_files
from codeqa.store.lexical import code_tokens
from codeqa.store.table import ChunkTable


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


def retrieve(
    name: str,
    query: str,
    settings: Settings,
    *,
    k: int = 10,
    filters: Filters | None = None,
    embedder: Embedder | None = None,
    store: Store | None = None,
    weights: Weights | None = None,
) -> Retrieval:
    """Top-``k`` chunks of index ``name`` for ``query`` (best first) and the files ranked, within ``filters``."""
    query = validate_query(query)
    if k < 1:
        raise QueryError("k must be at least 1.")
    weights = weights or Weights()
    filters = filters or Filters()
    store = store or Store(settings)
    manifest = store.get_manifest(name)
    embedder = embedder or get_embedder(settings)
    store.check_model(manifest, embedder.model_id, embedder.dimension)
    files = load_search_files(settings, manifest, store)
    table = files.table
    filters.validate(table)
    mask = filters.mask(table)
    if mask is not None and not mask.any():
        return Retrieval([], [])
    allowed = len(table) if mask is None else int(mask.sum())
    n = min(CANDIDATES, allowed)

    query_vector = embedder.embed_query(query)
    names, file_names = query_identifiers(query)
    signals = {
        "dense": dense_rows(dense_similarity(files.vectors, query_vector, mask), n),
        "lexical": top_rows(files.lexical.scores(code_tokens(query), mask), n),
        "symbol": symbol_matches(files, names, file_names, mask),
    }
    fused = fuse(signals, weights)
    if weights.graph and fused:
        add_graph_evidence(fused, files.graph, mask, weights.graph, n)
    apply_penalties(fused, table, asks_for_tests(query), weights)
    order = sorted(fused, key=lambda row: (-fused[row], row))
    retrieval = materialize(store, manifest, table, order, fused, k, weights.file_bonus_for(query))
    retrieval.query_vector = query_vector
    return retrieval


def materialize(
    store: Store,
    manifest: Manifest,
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
    by_id = {chunk.id: chunk for chunk in store.chunks(manifest, [table.ids[row] for row in top])}
    hits = [
        Hit(chunk=by_id[table.ids[row]], score=round(fused[row], 6), id=table.ids[row])
        for row in top
        if table.ids[row] in by_id
    ]
    for hit in hits:
        files[hit.chunk.path].hits.append(hit)
    ranked_files = sorted(files.values(), key=lambda f: -f.score)
    return Retrieval(hits=hits, files=ranked_files)
