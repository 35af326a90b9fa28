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

from codeqa.errors import QueryError
from codeqa.evaluate.train import Query, balanced_weights, fit, fit_blocks
from codeqa.retrieve.chunks import CHUNK_FEATURES, ChunkRanker, best_of_groups
from codeqa.retrieve.features import FEATURES
from codeqa.retrieve.ranker import SECONDARY_GAP, Later, Ranker, secondary_files
from codeqa.retrieve.rerank import FIRST, STAGE2_FEATURES, TEXT_FEATURES, Reranker, reorder_head
from codeqa.retrieve.trees import TreeEnsemble

DEPTH = 10
# LightGBM's lambdarank for the trees that reorder the second stage's first ten files: small trees, slow learning.
# Chosen on the 1,767 dev questions by five folds by repository among 7 or 15 leaves, 300 or 600 trees, minimum
# leaf 50 or 100, lambdarank or binary (bench/README.md, #17).
TREE_PARAMS: dict[str, object] = {
    "objective": "lambdarank",
    "num_leaves": 7,
    "learning_rate": 0.05,
    "n_estimators": 300,
    "min_child_samples": 50,
    "colsample_bytree": 0.8,
    "lambdarank_truncation_level": 10,
    "verbose": -1,
}


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
    tree_top: int = 10  # how many of the linear order's first files the trees reorder
    tree_weight: float = 0.5  # ... by the weighted sum + tree_weight × the trees' score
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


def fit_trees(blocks: Sequence[tuple[np.ndarray, np.ndarray, float]], names: Sequence[str]) -> TreeEnsemble:
    """LightGBM lambdarank over the blocks (one per question: its files' features, which are gold, its weight)."""
    try:
        import lightgbm
    except ImportError as exc:
        raise QueryError(
            "Fitting the second stage needs LightGBM: pip install 'codeqa[train]' (or choose the linear model)."
        ) from exc
    usable = [(f, g, w) for f, g, w in blocks if g.any() and len(g) > 1]
    if not usable:
        raise QueryError("No training question has its gold file among the second stage's files.")
    mean = float(np.mean([w for _, _, w in usable]))
    model = lightgbm.LGBMRanker(**TREE_PARAMS)
    model.fit(
        np.concatenate([f for f, _, _ in usable]).astype(np.float64),
        np.concatenate([g.astype(int) for _, g, _ in usable]),
        group=[len(g) for _, g, _ in usable],
        sample_weight=np.concatenate([np.full(len(g), w / mean) for _, g, w in usable]),
    )
    return TreeEnsemble.from_lightgbm(model.booster_.dump_model(), names)


def second_scores(fitted: Fitted, matrix: np.ndarray, secondary: np.ndarray, config: StageConfig) -> np.ndarray:
    """The linear second stage's scores, its first ``tree_top`` files reordered by the trees (``reorder_head``)."""
    linear = matrix @ fitted.second - SECONDARY_GAP * secondary
    if fitted.trees is None:
        return linear
    return reorder_head(linear, linear + config.tree_weight * fitted.trees.predict(matrix), config.tree_top)


def fit_chunks(queries: Sequence[Query], config: StageConfig) -> dict[str, float]:
    """Within-file chunk weights: which chunk of a gold file holds the answering lines (questions that name them)."""
    columns = [CHUNK_FEATURES.index(name) for name in config.chunks]
    blocks = []
    for query in queries:
        if not query.key_lines or query.pool_owner is None:
            continue
        gold_owners = [o for o in np.unique(query.pool_owner) if query.gold[int(query.second[o])]]
        for owner in gold_owners:
            rows = query.pool_owner == owner
            answers = query.pool_answers[rows] > 0
            if answers.any():
                blocks.append((query.pool_features[rows][:, columns], answers, 1.0 / len(gold_owners)))
    if not blocks:
        return {"fused": 1.0, "dense": 4.0, "bm25": 1.0}
    theta = fit_blocks(blocks, config.l2_chunks, len(columns))
    return {name: float(value) for name, value in zip(config.chunks, theta, strict=True)}


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


@dataclass
class ChunkCase:
    """One question's chunk choice inputs under fitted weights (``alpha`` and ``temperature`` still open)."""

    keep: np.ndarray  # positions in the pool
    owner: np.ndarray  # file of each (0..files-1)
    file_scores: np.ndarray
    within: np.ndarray
    best: np.ndarray
    exact: list[int]


def chunk_case(query: Query, scores: dict[int, float], fitted: Fitted, config: StageConfig) -> ChunkCase:
    assert query.pool_owner is not None and query.second is not None
    candidate = query.second[query.pool_owner]
    keep = np.flatnonzero(np.isin(candidate, list(scores)))
    files = sorted({int(c) for c in candidate[keep]})
    group = {c: i for i, c in enumerate(files)}
    owner = np.asarray([group[int(c)] for c in candidate[keep]], dtype=np.int64)
    columns = [CHUNK_FEATURES.index(name) for name in config.chunks]
    weights = {name: fitted.chunk_weights.get(name, 0.0) for name in CHUNK_FEATURES}
    features = np.zeros((len(keep), len(CHUNK_FEATURES)), dtype=np.float32)
    features[:, columns] = query.pool_features[keep][:, columns]
    within = ChunkRanker(weights).within(features, owner)
    exact = [int(i) for i in np.flatnonzero(query.pool_exact)] if config.exact and query.pool_exact is not None else []
    return ChunkCase(keep, owner, np.asarray([scores[c] for c in files]), within, best_of_groups(within, owner), exact)


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
    candidate = query.second[query.pool_owner[picked]] if picked else np.zeros(0, dtype=np.int64)
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
        metrics["lines@10"] = float(query.pool_answers[picked].sum()) / query.key_lines if picked else 0.0
    return metrics


def _objective(queries: Sequence[Query], cases: dict[str, ChunkCase], alpha: float, temperature: float) -> float:
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
            cases[query.instance_id] = chunk_case(query, ranked_files(query, partial, config)[1], partial, config)
    return cases


def fit_all(queries: Sequence[Query], config: StageConfig) -> Fitted:
    first = fit(queries, config.l2_first)
    blocks = second_blocks(queries, first, config) if config.second or config.first_features else []
    second = fit_blocks(blocks, config.l2_second, len(second_names(config))) if blocks else np.zeros(0)
    trees = fit_trees(blocks, second_names(config)) if blocks and config.second_model == "trees" else None
    fitted = Fitted(first, second, fit_chunks(queries, config), 0.5, 1.0, trees)
    cases = _held_out_cases(queries, fitted, config) if trees is not None else {}
    for query in queries:  # the linear second stage, or too few repositories to hold any out
        if query.instance_id not in cases:
            cases[query.instance_id] = chunk_case(query, ranked_files(query, fitted, config)[1], fitted, config)
    best = max(
        ((a, t) for a in config.alphas for t in config.temperatures),
        key=lambda at: _objective(queries, cases, *at),
    )
    return replace(fitted, alpha=best[0], temperature=best[1])


def outcome(query: Query, fitted: Fitted, config: StageConfig) -> Outcome:
    first = _first_scores(query, fitted.first)
    first_order = np.argsort(-first, kind="stable")
    order, scores = ranked_files(query, fitted, config)
    gold_first = np.flatnonzero(query.gold[first_order])
    gold_final = [i for i, c in enumerate(order) if query.gold[c]]
    picked = chosen_chunks(chunk_case(query, scores, fitted, config), fitted.alpha, fitted.temperature)
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
