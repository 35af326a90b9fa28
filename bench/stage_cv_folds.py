#!/usr/bin/env python3
"""The whole shipped ranking recipe (first stage, second stage with trees, exact-name path, chunk ranker) refitted
and scored in K folds by repository over saved features: minutes where leave-one-repository-out over 80
repositories takes most of an hour. Repositories go to folds round-robin in name order, so two feature folders of
the same questions get the same folds (a feature's worth = the difference between them).

  codeqa eval --dataset A.jsonl --dataset B.jsonl … --trees DIR --keep --features FEATS
  python bench/stage_cv_folds.py FEATS A.jsonl B.jsonl … [--folds 5] [--l2 3] [--natural-weight 1] [--json OUT]

``--natural-weight N`` counts the questions that are not mined from commit history (``source_split`` other than
"history") N times in training (they are scored once).
"""

import argparse
import collections
import json
from pathlib import Path

from codeqa.evaluate.stages import StageConfig, fit_all, outcome
from codeqa.evaluate.train import load_queries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("features", type=Path)
    parser.add_argument("datasets", nargs="+", type=Path)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--l2", type=float, default=3.0)
    parser.add_argument("--natural-weight", type=int, default=1)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    dataset_of: dict[str, str] = {}
    mined: set[str] = set()
    for path in args.datasets:
        for line in path.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                dataset_of[row["instance_id"]] = path.stem
                if row.get("source_split") == "history":
                    mined.add(row["instance_id"])
    queries = load_queries(args.features, list(dataset_of))
    config = StageConfig(l2_first=args.l2)
    fold_of = {repo: n % args.folds for n, repo in enumerate(sorted({q.repo for q in queries}))}
    rows: dict[str, dict] = {}
    for fold in range(args.folds):
        train = [q for q in queries if fold_of[q.repo] != fold]
        natural = [q for q in train if q.instance_id not in mined]
        fitted = fit_all(train + natural * (args.natural_weight - 1), config)
        for query in (q for q in queries if fold_of[q.repo] == fold):
            result = outcome(query, fitted, config)
            rows[query.instance_id] = {"repo": query.repo, "language": query.language,
                                       "dataset": dataset_of[query.instance_id], "rank": result.rank}  # fmt: skip
    by_dataset: dict[str, list[dict]] = collections.defaultdict(list)
    for row in rows.values():
        by_dataset["all"].append(row)
        by_dataset[row["dataset"]].append(row)
    print(f"{'set':24} {'n':>5} {'Acc@1':>6} {'Acc@5':>6} {'Acc@10':>6} {'MRR@10':>7}")
    for name, group in sorted(by_dataset.items(), key=lambda item: item[0] != "all"):
        ranks = [row["rank"] for row in group]
        within = [sum(1 for r in ranks if r is not None and r <= k) for k in (1, 5, 10)]
        mrr = 100 * sum(1 / r for r in ranks if r is not None and r <= 10) / len(ranks)
        print(f"{name:24} {len(ranks):>5} {within[0]:>6} {within[1]:>6} {within[2]:>6} {mrr:>7.1f}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
