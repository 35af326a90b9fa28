"""Fit and cross-validate the file ranker on saved candidate features (dev data only).

The model is a conditional logit: for each question, a softmax over its candidate files; training maximizes the
probability of the gold file(s), with an L2 penalty. Questions are weighted so that each kind of data (issue
reports, history-mined commit messages, newcomer questions) counts equally, and each repository equally within a
kind: no single repository or kind decides the weights. Cross-validation holds out one repository at a time.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.optimize import minimize

from codeqa.errors import QueryError
from codeqa.retrieve.chunks import CHUNK_FEATURES
from codeqa.retrieve.features import FEATURES
from codeqa.retrieve.ranker import Ranker
from codeqa.retrieve.rerank import STAGE2_FEATURES

KS = (1, 5, 10)


@dataclass
class Query:
    """One saved question: its candidates' features and which candidates are gold; with a saved trace also the
    second stage's candidates (indices into the candidates) and features, and the chunk ranker's pool."""

    instance_id: str
    repo: str
    kind: str
    features: np.ndarray
    gold: np.ndarray
    language: str = ""
    second: np.ndarray | None = None
    second_features: np.ndarray | None = None
    pool_owner: np.ndarray | None = None  # index into ``second``
    pool_features: np.ndarray | None = None
    pool_answers: np.ndarray | None = None  # key lines each pooled chunk holds
    pool_exact: np.ndarray | None = None
    exact_files: np.ndarray | None = None  # candidates the exact-name path puts first
    key_lines: int = 0
    gold_count: int = 1  # gold files of the question (some may not be candidates)
    roles: tuple[str, ...] = ()  # each candidate's role
    mentioned_roles: tuple[str, ...] = ()  # roles of the files the question names
    role_mentions: tuple[int, ...] = ()  # how often the question names each role (``ROLE_WORDS`` order)
    query_words: int = 0

    @property
    def answerable(self) -> bool:
        return bool(self.gold.any())


def kind_of(dataset: str, instance_id: str) -> str:
    """Which kind of data a question is, for weighting: history-mined, newcomer questions, or issue reports."""
    if instance_id.startswith("hist") or dataset.startswith("history") or "__" in dataset:
        return "history"
    if any(word in dataset or instance_id.startswith(word) for word in ("howto", "answers", "newcomer")):
        return "howto"  # newcomer questions (the answers sets are the how-to questions with their answering lines)
    return dataset


def load_queries(directory: Path, instance_ids: Sequence[str] | None = None) -> list[Query]:
    wanted = set(instance_ids) if instance_ids is not None else None
    queries = []
    for path in sorted(Path(directory).glob("*.npz")):
        with np.load(path, allow_pickle=False) as data:
            if tuple(str(n) for n in data["names"]) != FEATURES:
                raise QueryError(f"{path} was saved with other features; run the evaluation again to refresh it.")
            instance_id, repo, dataset = (str(v) for v in data["meta"][:3])
            if wanted is not None and instance_id not in wanted:
                continue
            query = Query(instance_id, repo, kind_of(dataset, instance_id), data["features"], data["gold"])
            query.language = str(data["meta"][4]) if len(data["meta"]) > 4 else ""
            if "second" in data.files:
                if (
                    tuple(str(n) for n in data["second_names"]) != STAGE2_FEATURES
                    or tuple(str(n) for n in data["pool_names"]) != CHUNK_FEATURES
                ):
                    raise QueryError(f"{path} was saved with other features; run the evaluation again to refresh it.")
                query.second, query.second_features = data["second"], data["second_features"]
                query.pool_owner, query.pool_features = data["pool_owner"], data["pool_features"]
                query.pool_answers, query.pool_exact = data["pool_answers"], data["pool_exact"]
                query.key_lines = int(data["key_lines"])
                query.exact_files = data["exact_files"]
                query.gold_count = int(data["gold_count"])
                query.roles = tuple(str(r) for r in data["candidate_roles"])
                query.mentioned_roles = tuple(str(r) for r in data["mentioned_roles"])
                query.role_mentions = tuple(int(n) for n in data["role_mentions"])
                query.query_words = int(data["query_words"])
            queries.append(query)
    return queries


def balanced_weights(queries: Sequence[Query]) -> np.ndarray:
    """Each kind weighs the same in total, and each repository the same within its kind."""
    per_kind_repo: dict[tuple[str, str], int] = defaultdict(int)
    repos_per_kind: dict[str, set[str]] = defaultdict(set)
    for query in queries:
        per_kind_repo[(query.kind, query.repo)] += 1
        repos_per_kind[query.kind].add(query.repo)
    kinds = len(repos_per_kind)
    return np.asarray(
        [1.0 / (kinds * len(repos_per_kind[q.kind]) * per_kind_repo[(q.kind, q.repo)]) for q in queries],
        dtype=np.float64,
    )


def fit(queries: Sequence[Query], l2: float = 1.0, weights: np.ndarray | None = None) -> np.ndarray:
    """First-stage feature weights maximizing the weighted log-probability of the gold candidates."""
    weights = balanced_weights(queries) if weights is None else weights
    blocks = [(q.features, q.gold, w) for q, w in zip(queries, weights, strict=True)]
    return fit_blocks(blocks, l2, len(FEATURES))


def fit_blocks(blocks: Sequence[tuple[np.ndarray, np.ndarray, float]], l2: float, size: int) -> np.ndarray:
    """A conditional logit: per block (candidates' features, which are gold, weight), a softmax over the
    candidates; maximizes the weighted log-probability of the gold ones, L2-penalized (features standardized)."""
    usable = [(f, g, w) for f, g, w in blocks if g.any() and len(g) > 1]
    if not usable:
        raise QueryError("No training question has its gold file among the candidates.")
    stacked = np.concatenate([f for f, _, _ in usable]).astype(np.float64)
    scale = stacked.std(axis=0)
    scale[scale < 1e-6] = 1.0
    scaled = [(f.astype(np.float64) / scale, g, w) for f, g, w in usable]
    total = sum(w for _, _, w in scaled)

    def objective(theta: np.ndarray) -> tuple[float, np.ndarray]:
        loss = 0.5 * l2 * float(theta @ theta)
        grad = l2 * theta
        for features, gold, weight in scaled:
            scores = features @ theta
            scores -= scores.max()
            probabilities = np.exp(scores)
            probabilities /= probabilities.sum()
            gold_mass = probabilities[gold].sum()
            loss -= weight / total * np.log(max(gold_mass, 1e-300))
            target = np.where(gold, probabilities, 0.0) / max(gold_mass, 1e-300)
            grad -= weight / total * (features.T @ (target - probabilities))
        return loss, grad

    result = minimize(objective, np.zeros(size), jac=True, method="L-BFGS-B", options={"maxiter": 500})
    return result.x / scale


def gold_rank(query: Query, theta: np.ndarray) -> int | None:
    """1-based rank of the first gold candidate under ``theta`` as the ranker ranks (None: no gold candidate)."""
    if not query.answerable:
        return None
    order = np.argsort(-Ranker(dict(zip(FEATURES, theta.tolist(), strict=True))).score(query.features), kind="stable")
    return int(np.flatnonzero(query.gold[order])[0]) + 1


def metrics(ranks: Sequence[int | None]) -> dict[str, float]:
    n = len(ranks)
    out = {f"acc@{k}": 100.0 * sum(1 for r in ranks if r is not None and r <= k) / n for k in KS}
    out["mrr@10"] = 100.0 * sum(1.0 / r for r in ranks if r is not None and r <= 10) / n
    out["n"] = n
    return out


def cross_validate(queries: Sequence[Query], l2: float) -> dict[str, int | None]:
    """Leave-one-repository-out: each question ranked by weights fitted without its repository."""
    ranks: dict[str, int | None] = {}
    for repo in sorted({q.repo for q in queries}):
        train = [q for q in queries if q.repo != repo]
        theta = fit(train, l2)
        for query in queries:
            if query.repo == repo:
                ranks[query.instance_id] = gold_rank(query, theta)
    return ranks


def ranker_from(theta: np.ndarray, provenance: dict[str, object]) -> Ranker:
    weights = {name: round(float(value), 5) for name, value in zip(FEATURES, theta, strict=True) if abs(value) > 1e-6}
    return Ranker(weights, provenance)
