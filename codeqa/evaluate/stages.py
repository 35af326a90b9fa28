"""Cross-validating the whole ranking on saved traces: first stage → second stage → exact-name path → chunks.

Leave-one-repository-out, nested: for each held-out repository the first stage is fitted on the other
repositories, the second stage on the other repositories' best ``top`` files as that first stage ranks them, the
chunk ranker's weights on the other repositories' questions that name their answering lines, and its ``alpha``
and ``temperature`` chosen on the other repositories too; then the held-out questions are ranked by all of it.
Every per-question outcome is what the product would have returned for it without having seen its repository.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from codeqa.evaluate.chunk_fit import ChunkCase, chosen_chunks, chunk_case, chunk_metrics, chunk_objective, fit_chunks
from codeqa.evaluate.train import Query, balanced_weights, fit, fit_blocks
from codeqa.evaluate.tree_fit import fit_trees
from codeqa.retrieve.chunks import CHUNK_FEATURES, ChunkRanker
from codeqa.retrieve.features import FEATURES
from codeqa.retrieve.ranker import SECONDARY_GAP, Later, Ranker, secondary_files
from codeqa.retrieve.rerank import FIRST, STAGE2_FEATURES, TEXT_FEATURES, Reranker, reorder_head
from codeqa.retrieve.trees import TreeEnsemble


@dataclass(frozen=True)
class StageConfig:
    """What the ranking is fitted with; the defaults are the shipped choice (``bench/README.md``, issue 17)."""

    l2_first: float = 1.0
    l2_second: float = 10.0
    l2_chunks: float = 1.0
    top: int = 30
    second: tuple[str, ...] = tuple(name for name in STAGE2_FEATURES if name not in TEXT_FEATURES)  # () = none
    chunks: tuple[str, ...] = CHUNK_FEATURES
    alphas: tuple[float, ...] = (0.0, 0.25, 0.5, 0.75, 1.0)
    temperatures: tuple[float, ...] = (0.5, 1.0, 2.0, 4.0)
    exact: bool = True
    second_model: str = "trees"  # the linear order's head reordered by trees, or "linear" alone
    tree_top: int = Reranker.tree_top  # how many of the linear order's first files the trees reorder
    tree_weight: float = Reranker.tree_weight  # ... by the weighted sum + tree_weight × the trees' score
    inner_folds: int = 3  # alpha and temperature are chosen on orders the trees give questions they did not see
    # first-stage features the second stage weighs again, on the top files only (role flags stay with the gap)
    first_features: tuple[str, ...] = tuple(name for name in FEATURES if not name.startswith("role_"))


@dataclass
class Outcome:
    first_rank: int | None
    rank: int | None
    chunks: dict[str, float] = field(default_factory=dict)


@dataclass
class Fitted:
    first: np.ndarray
    second: np.ndarray
    chunk_weights: dict[str, float]
    alpha: float
    temperature: float
    trees: TreeEnsemble | None = None


def _first_scores(query: Query, theta: np.ndarray) -> np.ndarray:
    return Ranker(dict(zip(FEATURES, theta.tolist(), strict=True))).score(query.features)


def _linear(query: Query, theta: np.ndarray) -> np.ndarray:
    return query.features @ theta


def second_block(query: Query, theta: np.ndarray, config: StageConfig) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The top files under ``theta`` that have saved second-stage features: candidate indices, their features
    (columns of ``config.second``; first-stage score and rank recomputed under ``theta``), secondary flags."""
    assert query.second is not None and query.second_features is not None
    first = _first_scores(query, theta)
    saved = {int(c): i for i, c in enumerate(query.second)}
    order = [int(c) for c in np.argsort(-first, kind="stable") if int(c) in saved][: config.top]
    top = np.asarray(order, dtype=np.int64)
    matrix = query.second_features[[saved[c] for c in order]].copy()
    linear = _linear(query, theta)[top]
    matrix[:, STAGE2_FEATURES.index("stage1")] = np.maximum(linear - linear.max(), -20.0) if len(top) else 0.0
    matrix[:, STAGE2_FEATURES.index("stage1_rr")] = 1.0 / np.sqrt(1.0 + np.arange(len(top)))
    columns = [STAGE2_FEATURES.index(name) for name in config.second]
    matrix = matrix[:, columns]
    if config.first_features:
        matrix = np.concatenate([matrix, query.features[top][:, [FEATURES.index(n) for n in config.first_features]]], 1)
    return top, matrix, secondary_files(query.features[top])


def second_names(config: StageConfig) -> list[str]:
    """The second stage's columns as ``second_block`` lays them out."""
    return [*config.second, *(FIRST + name for name in config.first_features)]


def second_blocks(
    queries: Sequence[Query], theta: np.ndarray, config: StageConfig
) -> list[tuple[np.ndarray, np.ndarray, float]]:
    """Per question: its best files' second-stage features, which are gold, its weight (secondary files left out)."""
    blocks = []
    for query, weight in zip(queries, balanced_weights(queries), strict=True):
        top, matrix, secondary = second_block(query, theta, config)
        keep = ~secondary
        blocks.append((matrix[keep], query.gold[top][keep], weight))
    return blocks


def fit_second(queries: Sequence[Query], theta: np.ndarray, config: StageConfig) -> np.ndarray:
    return fit_blocks(second_blocks(queries, theta, config), config.l2_second, len(second_names(config)))


def second_scores(fitted: Fitted, matrix: np.ndarray, secondary: np.ndarray, config: StageConfig) -> np.ndarray:
    """The linear second stage's scores, its first ``tree_top`` files reordered by the trees (``reorder_head``)."""
    linear = matrix @ fitted.second - SECONDARY_GAP * secondary
    if fitted.trees is None:
        return linear
    return reorder_head(linear, linear + config.tree_weight * fitted.trees.predict(matrix), config.tree_top)


def ranked_files(query: Query, fitted: Fitted, config: StageConfig) -> tuple[list[int], dict[int, float]]:
    """Candidate indices, best first, and the re-ranked files' scores."""
    first = _first_scores(query, fitted.first)
    order = [int(c) for c in np.argsort(-first, kind="stable")]
    scores: dict[int, float] = {}
    if (config.second or config.first_features) and query.second is not None:
        top, matrix, secondary = second_block(query, fitted.first, config)
        second = second_scores(fitted, matrix, secondary, config)
        reordered = [int(top[i]) for i in np.argsort(-second, kind="stable")]
        scores = {int(c): float(s) for c, s in zip(top, second, strict=True)}
        order = reordered + [c for c in order if c not in scores]
    else:
        saved = set(query.second.tolist()) if query.second is not None else set()
        scores = {c: float(first[c]) for c in order[: config.top] if c in saved}
    if config.exact and query.exact_files is not None and len(query.exact_files):
        leading = [c for c in order if c in set(query.exact_files.tolist())]
        order = leading + [c for c in order if c not in leading]
        lead = max(scores.values(), default=0.0) + 1.0
        scores.update({c: lead - i * 1e-3 for i, c in enumerate(leading) if c in scores})
    return order, scores


def _case(query: Query, scores: dict[int, float], fitted: Fitted, config: StageConfig) -> ChunkCase:
    return chunk_case(query, scores, fitted.chunk_weights, config.chunks, config.exact)


def _held_out_cases(queries: Sequence[Query], fitted: Fitted, config: StageConfig) -> dict[str, ChunkCase]:
    """Chunk cases under the orders trees give questions they were not fitted on.

    Trees order their own training questions far better than new ones; ``alpha`` and ``temperature`` chosen on
    those orders heap the chunks on the first file (five folds by repository on dev: 2.7 files in ten chunks,
    chunk NDCG 56.9, against 4.7 and 65.1 this way). So the training repositories are split into ``inner_folds``
    groups, and each group's questions are ordered by trees fitted on the other groups.
    """
    repos = sorted({q.repo for q in queries})
    if config.inner_folds < 2 or len(repos) < 2:
        return {}
    group = {repo: i % config.inner_folds for i, repo in enumerate(repos)}
    cases: dict[str, ChunkCase] = {}
    for fold in range(config.inner_folds):
        inside = [q for q in queries if group[q.repo] != fold]
        outside = [q for q in queries if group[q.repo] == fold]
        if not inside or not outside:
            continue
        trees = fit_trees(second_blocks(inside, fitted.first, config), second_names(config))
        partial = replace(fitted, trees=trees)
        for query in outside:
            cases[query.instance_id] = _case(query, ranked_files(query, partial, config)[1], partial, config)
    return cases


def fit_all(queries: Sequence[Query], config: StageConfig) -> Fitted:
    first = fit(queries, config.l2_first)
    blocks = second_blocks(queries, first, config) if config.second or config.first_features else []
    second = fit_blocks(blocks, config.l2_second, len(second_names(config))) if blocks else np.zeros(0)
    trees = fit_trees(blocks, second_names(config)) if blocks and config.second_model == "trees" else None
    fitted = Fitted(first, second, fit_chunks(queries, config.chunks, config.l2_chunks), 0.5, 1.0, trees)
    cases = _held_out_cases(queries, fitted, config) if trees is not None else {}
    for query in queries:  # the linear second stage, or too few repositories to hold any out
        if query.instance_id not in cases:
            cases[query.instance_id] = _case(query, ranked_files(query, fitted, config)[1], fitted, config)
    best = max(
        ((a, t) for a in config.alphas for t in config.temperatures),
        key=lambda at: chunk_objective(queries, cases, *at),
    )
    return replace(fitted, alpha=best[0], temperature=best[1])


def outcome(query: Query, fitted: Fitted, config: StageConfig) -> Outcome:
    first = _first_scores(query, fitted.first)
    first_order = np.argsort(-first, kind="stable")
    order, scores = ranked_files(query, fitted, config)
    gold_first = np.flatnonzero(query.gold[first_order])
    gold_final = [i for i, c in enumerate(order) if query.gold[c]]
    picked = chosen_chunks(_case(query, scores, fitted, config), fitted.alpha, fitted.temperature)
    return Outcome(
        int(gold_first[0]) + 1 if len(gold_first) else None,
        gold_final[0] + 1 if gold_final else None,
        chunk_metrics(query, picked),
    )


def cross_validate_stages(queries: Sequence[Query], config: StageConfig) -> tuple[dict[str, Outcome], list[Fitted]]:
    """Leave-one-repository-out outcomes of the whole ranking (see the module docstring)."""
    outcomes: dict[str, Outcome] = {}
    folds = []
    for repo in sorted({q.repo for q in queries}):
        train = [q for q in queries if q.repo != repo]
        fitted = fit_all(train, config)
        folds.append(fitted)
        for query in queries:
            if query.repo == repo:
                outcomes[query.instance_id] = outcome(query, fitted, config)
    return outcomes, folds


def later_from(fitted: Fitted, config: StageConfig, provenance: dict[str, object]) -> Later:
    names = second_names(config)
    chunks = ChunkRanker(
        {k: round(v, 5) for k, v in fitted.chunk_weights.items() if abs(v) > 1e-6},
        fitted.alpha,
        fitted.temperature,
    )
    second = dict(zip(names, (round(float(v), 5) for v in fitted.second), strict=True))
    if not names:
        second = {"stage1": 1.0}
    uses_text = any(second.get(name) for name in TEXT_FEATURES)
    uses_text |= fitted.trees is not None and any(name in TEXT_FEATURES for name in fitted.trees.features)
    weights = {k: v for k, v in second.items() if abs(v) > 1e-6}
    reranker = Reranker(weights, config.top, 2 if uses_text else 0, fitted.trees, config.tree_top, config.tree_weight)
    return Later(reranker, chunks, provenance)


def outcome_results(
    queries: Sequence[Query], outcomes: dict[str, Outcome], final: bool = True, datasets: dict[str, str] | None = None
) -> list:
    """``InstanceResult``s of the cross-validated outcomes (``final=False``: the first stage's file ranks), grouped
    by ``datasets`` (instance id → its dataset; history files together) when given, else by kind of data."""
    from codeqa.evaluate.metrics import InstanceResult

    results = []
    for query in queries:
        result = outcomes[query.instance_id]
        rank = result.rank if final else result.first_rank
        metrics = {f"acc@{k}": float(rank is not None and rank <= k) for k in (1, 5, 10)}
        metrics["mrr@10"] = 1.0 / rank if rank is not None and rank <= 10 else 0.0
        metrics["ndcg@10"] = 1.0 / math.log2(rank + 1) if rank is not None and rank <= 10 else 0.0
        if final:
            metrics.update(result.chunks)
        group = query.kind if datasets is None or query.kind == "history" else datasets[query.instance_id]
        results.append(
            InstanceResult(query.instance_id, query.repo, group, [], 0.0, 0.0, metrics, language=query.language)
        )
    return results
