"""``retrieve``: the one entry point of the retrieve stage — a question in, ranked chunks and files out.

Each signal ranks chunks; ranks are fused with weighted reciprocal-rank fusion (robust to the signals' different
score scales) and docs and tests are demoted unless asked for. Files are ranked by the learned ranker over
per-file candidate features (``features.py``, ``ranker.py``), then the best of them again by the second stage
(``rerank.py``) and, when turned on, by the contextual stage (``contextual.py``); a short question naming a defined
symbol gets its definition first (``exact.py``); the chunks are chosen across the best files by the chunk ranker
(``chunks.py``); ``ranking.py`` runs those steps. The same filter mask applies to every signal, so a scoped
question never leaks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from codeqa.errors import QueryError
from codeqa.index import Index
from codeqa.records import Chunk, Hit
from codeqa.retrieve.contextual import contextual_stage
from codeqa.retrieve.features import ChunkSignals
from codeqa.retrieve.filters import Filters
from codeqa.retrieve.fusion import Weights, apply_penalties, file_scores, fuse
from codeqa.retrieve.question import Question
from codeqa.retrieve.ranker import Later, Ranker, default_later, default_ranker
from codeqa.retrieve.ranking import Stages, Trace, rank
from codeqa.retrieve.roles import Role
from codeqa.retrieve.signals import (
    CANDIDATES,
    add_graph_evidence,
    dense_rows,
    dense_similarity,
    symbol_matches,
    top_rows,
)
from codeqa.retrieve.thesaurus import with_code_words
from codeqa.searchfiles.table import ChunkTable

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
    question: Question | None = None  # the question as parsed (the answer reads it from here)
    candidates: list[str] = field(default_factory=list)  # with ``trace``: candidate files, in feature-row order
    features: np.ndarray | None = None  # with ``trace``: their first-stage features
    trace: Trace | None = None  # with ``trace``: what evaluation saves to train the rankers


def retrieve(
    index: Index,
    query: str,
    *,
    k: int = 10,
    filters: Filters | None = None,
    weights: Weights | None = None,
    ranker: Ranker | None = None,
    later: Later | None = None,
    learned: bool = True,
    trace: bool = False,
    stages: Stages | None = None,
) -> Retrieval:
    """Top-``k`` chunks of ``index`` for ``query`` (best first) and the files ranked, within ``filters``.

    Files are ranked by the learned rankers over candidate features, chunks by the chunk ranker across the best
    files (``learned=False`` ranks chunks by their fused score and files by summed chunk scores instead, as
    before the rankers existed; kept for comparison). ``trace`` keeps what evaluation needs to train them;
    ``stages`` turns optional steps off (the ablation).
    """
    question = Question.parse(query)
    query = question.text
    stages = stages or Stages()
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
        return Retrieval([], [], question=question)
    allowed = len(table) if mask is None else int(mask.sum())
    n = min(CANDIDATES, allowed)

    query_vector = embedder.embed_query(query)
    similarity = dense_similarity(files.vectors, query_vector, mask)
    lexical, _ = with_code_words(files.lexical, question.tokens, question.expansion, mask)
    signals = {
        "dense": dense_rows(similarity, n),
        "lexical": top_rows(lexical, n),
        "symbol": symbol_matches(files, set(question.names), set(question.file_names), mask),
    }
    fused = fuse(signals, weights)
    if weights.graph and fused:
        add_graph_evidence(fused, files.graph, mask, weights.graph, n)
    apply_penalties(fused, table, Role.TEST in question.asks_for, weights)
    order = sorted(fused, key=lambda row: (-fused[row], row))
    if not learned:
        retrieval = materialize(index, table, order, fused, k, weights.file_bonus_for(question.words))
        retrieval.query_vector, retrieval.question = query_vector, question
        return retrieval
    doc_rows = [row for row in order if table.kinds[row] == "doc"][: DOC_BRIDGE_CHUNKS if stages.doc_votes else 0]
    doc_texts = [chunk.text for chunk in index.chunks([table.ids[row] for row in doc_rows])]
    chunk_signals = ChunkSignals(
        dense=similarity,
        lexical=lexical,
        fused=fused,
        dense_top=signals["dense"],
        lexical_top=signals["lexical"],
        symbol_rows=signals["symbol"],
        doc_texts=doc_texts,
    )

    def fetch(rows: Sequence[int]) -> dict[int, Chunk]:
        by_id = {table.ids[row]: row for row in rows}
        return {by_id[chunk.id]: chunk for chunk in index.chunks(list(by_id)) if chunk.id in by_id}

    ranked = rank(
        files,
        question,
        query_vector,
        chunk_signals,
        mask,
        fetch,
        k=k,
        ranker=ranker or default_ranker(),
        later=later or default_later(),
        trace=trace,
        stages=stages,
        contextual=contextual_stage(index, enabled=stages.contextual),
    )
    paths = files.files.paths
    hits = [
        Hit(chunk=ranked.chunks[row], score=round(score, 6), id=table.ids[row])
        for row, score in zip(ranked.rows, ranked.chunk_scores, strict=True)
    ]
    file_hits = {paths[n]: FileHit(paths[n], score) for n, score in zip(ranked.files, ranked.scores, strict=True)}
    for hit in hits:
        if hit.chunk.path in file_hits:
            file_hits[hit.chunk.path].hits.append(hit)
    traced = ranked.trace
    return Retrieval(
        hits=hits,
        files=list(file_hits.values()),
        query_vector=query_vector,
        question=question,
        candidates=[paths[int(n)] for n in traced.candidates] if traced is not None else [],
        features=traced.features if traced is not None else None,
        trace=traced,
    )


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
