"""Fitting the chunk ranker on saved traces: its within-file weights, and the ``alpha`` and ``temperature`` that
choose ten chunks across the ranked files (``codeqa.retrieve.chunks``), scored as the product would show them."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from codeqa.evaluate.train import Query, balanced_weights, fit_blocks
from codeqa.retrieve.chunks import CHUNK_FEATURES, ChunkRanker, best_of_groups

DEPTH = 10


def fit_chunks(queries: Sequence[Query], names: Sequence[str], l2: float) -> dict[str, float]:
    """Within-file chunk weights: which chunk of a gold file holds the answering lines (questions that name them)."""
    columns = [CHUNK_FEATURES.index(name) for name in names]
    blocks = []
    for query in queries:
        if not query.key_lines or query.pool_owner is None:
            continue
        assert query.second is not None and query.pool_answers is not None and query.pool_features is not None
        gold_owners = [o for o in np.unique(query.pool_owner) if query.gold[int(query.second[o])]]
        for owner in gold_owners:
            rows = query.pool_owner == owner
            answers = query.pool_answers[rows] > 0
            if answers.any():
                blocks.append((query.pool_features[rows][:, columns], answers, 1.0 / len(gold_owners)))
    if not blocks:
        return {"fused": 1.0, "dense": 4.0, "bm25": 1.0}
    theta = fit_blocks(blocks, l2, len(columns))
    return {name: float(value) for name, value in zip(names, theta, strict=True)}


@dataclass
class ChunkCase:
    """One question's chunk choice inputs under fitted weights (``alpha`` and ``temperature`` still open)."""

    keep: np.ndarray  # positions in the pool
    owner: np.ndarray  # file of each (0..files-1)
    file_scores: np.ndarray
    within: np.ndarray
    best: np.ndarray
    exact: list[int]


def chunk_case(
    query: Query, scores: dict[int, float], chunk_weights: dict[str, float], names: Sequence[str], exact: bool
) -> ChunkCase:
    """The pooled chunks of the scored files, their within-file probabilities under ``chunk_weights`` (columns
    ``names``), and the chunks the exact-name path puts first (``exact``)."""
    assert query.pool_owner is not None and query.second is not None and query.pool_features is not None
    candidate = query.second[query.pool_owner]
    keep = np.flatnonzero(np.isin(candidate, list(scores)))
    files = sorted({int(c) for c in candidate[keep]})
    group = {c: i for i, c in enumerate(files)}
    owner = np.asarray([group[int(c)] for c in candidate[keep]], dtype=np.int64)
    columns = [CHUNK_FEATURES.index(name) for name in names]
    weights = {name: chunk_weights.get(name, 0.0) for name in CHUNK_FEATURES}
    features = np.zeros((len(keep), len(CHUNK_FEATURES)), dtype=np.float32)
    features[:, columns] = query.pool_features[keep][:, columns]
    within = ChunkRanker(weights).within(features, owner)
    exact_rows = [int(i) for i in np.flatnonzero(query.pool_exact)] if exact and query.pool_exact is not None else []
    return ChunkCase(
        keep, owner, np.asarray([scores[c] for c in files]), within, best_of_groups(within, owner), exact_rows
    )


def chosen_chunks(case: ChunkCase, alpha: float, temperature: float) -> list[int]:
    """Positions in the pool of the top ``DEPTH`` chunks (what ``ChunkRanker.values`` and ``ranking`` choose)."""
    if not len(case.keep):
        return case.exact[:DEPTH]
    scaled = case.file_scores / max(temperature, 1e-6)
    probability = np.exp(scaled - scaled.max())
    probability /= probability.sum()
    values = probability[case.owner] * (alpha * case.best + (1.0 - alpha) * case.within)
    picked = [int(case.keep[i]) for i in np.argsort(-values, kind="stable")[:DEPTH]]
    return list(dict.fromkeys([*case.exact, *picked]))[:DEPTH]


def chunk_metrics(query: Query, picked: list[int]) -> dict[str, float]:
    owner, answers = query.pool_owner, query.pool_answers  # saved together: both there whenever a chunk is picked
    second = query.second
    candidate = second[owner[picked]] if picked and owner is not None and second is not None else np.zeros(0, np.int64)
    seen: set[int] = set()
    gain = 0.0
    for rank, c in enumerate(candidate.tolist()):
        if query.gold[c] and c not in seen:
            gain += 1.0 / math.log2(rank + 2)
        seen.add(c)
    ideal = sum(1.0 / math.log2(r + 2) for r in range(min(max(query.gold_count, 1), DEPTH)))
    metrics = {
        "chunk_ndcg@10": gain / ideal,
        "chunk_recall@10": sum(1 for c in seen if query.gold[c]) / max(query.gold_count, 1),
        "files@10": float(len(seen)),
        "chunk_precision@10": float(query.gold[candidate].sum()) / len(picked) if picked else 0.0,
    }
    if query.key_lines:
        metrics["lines@10"] = float(answers[picked].sum()) / query.key_lines if picked and answers is not None else 0.0
    return metrics


def chunk_objective(queries: Sequence[Query], cases: dict[str, ChunkCase], alpha: float, temperature: float) -> float:
    """Chunk NDCG@10 of the gold files (all questions), the share of the ten chunks that come from them, and the
    share of answering lines shown (the questions that name them): covering the right files, not filling the list
    with files that do not answer, and showing the lines that answer count the same. Without the middle term the
    objective is blind to a list that shows one chunk of each of ten files, the right two among them."""
    weights = balanced_weights(queries)
    ndcg = precision = lines = lined = 0.0
    for query, weight in zip(queries, weights, strict=True):
        metrics = chunk_metrics(query, chosen_chunks(cases[query.instance_id], alpha, temperature))
        ndcg += weight * metrics["chunk_ndcg@10"]
        precision += weight * metrics["chunk_precision@10"]
        if "lines@10" in metrics:
            lines += metrics["lines@10"]
            lined += 1
    return (ndcg + precision) / weights.sum() + (lines / lined if lined else 0.0)
