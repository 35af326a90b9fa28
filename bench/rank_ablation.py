"""Ablations of the ranking on saved traces (dev data only): leave-one-repository-out, one line per setting.

    python bench/rank_ablation.py FEATURES_DIR [FEATURES_DIR ...] [--only second|chunks|all]

FEATURES_DIR holds the ``.npz`` files ``codeqa eval --features DIR`` saved (with traces). Each line is the whole
ranking cross-validated by repository (``codeqa.evaluate.stages``) with one thing changed: the second stage off,
one second-stage feature dropped, one chunk feature dropped, the exact-name path off, fixed chunk settings;
``--only roles``: other role settings (which roles rank after source files, when a long text asks for a role),
recomputed from each candidate's saved role.
Counts are questions; "lines" is over the questions that name their answering lines.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from codeqa.evaluate.stages import StageConfig, cross_validate_stages  # noqa: E402
from codeqa.evaluate.train import Query, balanced_weights, load_queries  # noqa: E402
from codeqa.retrieve import ranker as ranker_module  # noqa: E402
from codeqa.retrieve.features import FEATURES  # noqa: E402
from codeqa.retrieve.roles import ASK_RATE, PERIPHERAL, ROLE_WORDS, SECONDARY, SHORT_QUESTION_WORDS  # noqa: E402


def with_roles(queries: list[Query], secondary: list[str], ask_rate: float, short_words: int) -> list[Query]:
    """The queries as they would be with other role settings (which roles rank after source files, when a role
    counts as asked for): role features recomputed from each candidate's saved role (dev-time experiments)."""
    ranker_module._SECONDARY_COLUMNS = [FEATURES.index(f"role_{role}") for role in secondary]
    changed = []
    for query in queries:
        if not query.roles:
            changed.append(query)
            continue
        asked = set(query.mentioned_roles)
        for role, count in zip(ROLE_WORDS, query.role_mentions, strict=True):
            if count and (query.query_words <= short_words or count >= max(2.0, query.query_words / ask_rate)):
                asked.add(str(role))
        features = query.features.copy()
        for role in PERIPHERAL:
            column = FEATURES.index(f"role_{role}")
            features[:, column] = [float(r == str(role) and str(role) not in asked) for r in query.roles]
        changed.append(replace(query, features=features))
    return changed


def summary(queries: list[Query], config: StageConfig) -> str:
    outcomes, folds = cross_validate_stages(queries, config)
    n = len(queries)
    at = {k: sum(1 for q in queries if (r := outcomes[q.instance_id].rank) is not None and r <= k) for k in (1, 5, 10)}
    first = sum(1 for q in queries if outcomes[q.instance_id].first_rank == 1)
    mrr = sum(1.0 / r for q in queries if (r := outcomes[q.instance_id].rank) is not None and r <= 10) / n
    ndcg = sum(outcomes[q.instance_id].chunks["chunk_ndcg@10"] for q in queries) / n
    lined = [q for q in queries if "lines@10" in outcomes[q.instance_id].chunks]
    lines = sum(outcomes[q.instance_id].chunks["lines@10"] for q in lined) / max(1, len(lined))
    files = sum(outcomes[q.instance_id].chunks["files@10"] for q in queries) / n
    weights = balanced_weights(queries)
    balanced = (
        sum(
            w
            for q, w in zip(queries, weights, strict=True)
            if (r := outcomes[q.instance_id].rank) is not None and r == 1
        )
        / weights.sum()
    )
    alphas = sorted({(f.alpha, f.temperature) for f in folds})
    return (
        f"Acc@1 {100 * at[1] / n:5.1f} ({at[1]:3d}) [first stage {first:3d}]  Acc@5 {100 * at[5] / n:5.1f} ({at[5]:3d})"
        f"  Acc@10 {100 * at[10] / n:5.1f}  MRR {100 * mrr:5.1f}  balanced Acc@1 {100 * balanced:5.1f}"
        f"  | chunks NDCG {100 * ndcg:5.1f}  lines {100 * lines:5.1f} (n={len(lined)})  files {files:4.2f}"
        f"  alpha/T {alphas[:3]}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dirs", nargs="+", type=Path)
    parser.add_argument("--only", default="all", choices=["all", "second", "chunks", "base", "roles"])
    parser.add_argument("--l2", type=float, default=1.0)
    args = parser.parse_args()
    queries = [q for directory in args.dirs for q in load_queries(directory)]
    base = StageConfig(l2_first=args.l2)
    print(f"{len(queries)} questions, {len({q.repo for q in queries})} repositories", flush=True)
    print(f"{'all features':<34} {summary(queries, base)}", flush=True)
    if args.only == "base":
        return
    if args.only == "roles":
        default = [str(r) for r in SECONDARY]
        variants = [
            ("asked: any mention", default, ASK_RATE, 10**9),
            ("asked: twice, 1 per 100 words", default, 100, SHORT_QUESTION_WORDS),
            ("asked: twice, 1 per 25 words", default, 25, SHORT_QUESTION_WORDS),
            ("config not secondary", [r for r in default if r != "config"], ASK_RATE, SHORT_QUESTION_WORDS),
            ("migration secondary", [*default, "migration"], ASK_RATE, SHORT_QUESTION_WORDS),
            ("example not secondary", [r for r in default if r != "example"], ASK_RATE, SHORT_QUESTION_WORDS),
        ]
        for label, secondary, rate, short in variants:
            print(f"{label:<34} {summary(with_roles(queries, secondary, rate, short), base)}", flush=True)
        with_roles(queries, default, ASK_RATE, SHORT_QUESTION_WORDS)
        return
    if args.only in ("all", "second"):
        print(f"{'no second stage':<34} {summary(queries, replace(base, second=(), first_features=()))}", flush=True)
        print(f"{'no exact-name path':<34} {summary(queries, replace(base, exact=False))}", flush=True)
        for name in base.second:
            if name == "stage1":
                continue
            config = replace(base, second=tuple(n for n in base.second if n != name))
            print(f"{'second without ' + name:<34} {summary(queries, config)}", flush=True)
    if args.only in ("all", "chunks"):
        for name in base.chunks:
            config = replace(base, chunks=tuple(n for n in base.chunks if n != name))
            print(f"{'chunks without ' + name:<34} {summary(queries, config)}", flush=True)
        for alpha in (0.0, 0.5, 1.0):
            config = replace(base, alphas=(alpha,))
            print(f"{'chunks alpha fixed ' + str(alpha):<34} {summary(queries, config)}", flush=True)


if __name__ == "__main__":
    main()
