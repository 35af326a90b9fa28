"""Replay the shipped ranking over features saved by ``codeqa eval --features DIR``, with some weights changed.

Usage: python bench/replay_weights.py FEATS [--set NAME=VALUE ...] [--json OUT]

The first stage (``codeqa/retrieve/ranker.json``), the second stage with its trees and the exact-name path
(``codeqa/retrieve/rerank.json``) and the chunk ranker are rebuilt from the shipped files, exactly as
``codeqa.evaluate.stages`` ranks a held-out question; nothing is fitted. ``--set construct=0.5`` changes a
first-stage weight, ``--set first.construct=1.0`` or ``--set stem_match=0.2`` a second-stage one, so one saved run
answers "what if this weight were that" in seconds instead of re-running retrieval. Prints Acc@1/@5/@10 and chunk
NDCG@10 overall, per kind of data (history, howto) and per set (the instance id's prefix), with counts.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from importlib import resources
from pathlib import Path

import numpy as np

from codeqa.evaluate.stages import Fitted, StageConfig, outcome, second_names
from codeqa.evaluate.train import load_queries
from codeqa.retrieve.features import FEATURES
from codeqa.retrieve.trees import TreeEnsemble


class _ColumnsOf:
    """The shipped trees over the columns they were fitted on (a later feature, like ``first.construct``, is a
    column of the second stage's matrix the trees never saw)."""

    def __init__(self, trees: TreeEnsemble, names: list[str]) -> None:
        missing = [name for name in trees.features if name not in names]
        if missing:
            raise SystemExit(f"the shipped trees use columns StageConfig() does not lay out: {missing}")
        self.trees, self.features = trees, trees.features
        self.columns = [names.index(name) for name in trees.features]

    def predict(self, matrix: np.ndarray) -> np.ndarray:
        return self.trees.predict(matrix[:, self.columns])


def _shipped(name: str) -> dict:
    return json.loads((resources.files("codeqa.retrieve") / name).read_text())


def shipped_fitted(changes: dict[str, float]) -> tuple[Fitted, StageConfig]:
    first, later = _shipped("ranker.json"), _shipped("rerank.json")
    second, chunks = later["second_stage"], later["chunks"]
    config = StageConfig(tree_top=int(second["tree_top"]), tree_weight=float(second["tree_weight"]))
    names = second_names(config)
    first_weights, second_weights = dict(first["weights"]), dict(second["weights"])
    for name, value in changes.items():
        if name in FEATURES:
            first_weights[name] = value
        elif name in names:
            second_weights[name] = value
        else:
            raise SystemExit(f"{name} is neither a first-stage feature nor a second-stage column")
    trees = _ColumnsOf(TreeEnsemble.from_dict(second["trees"]), names) if second.get("trees") else None
    fitted = Fitted(
        np.asarray([first_weights.get(name, 0.0) for name in FEATURES], dtype=np.float64),
        np.asarray([second_weights.get(name, 0.0) for name in names], dtype=np.float64),
        dict(chunks["weights"]),
        float(chunks["alpha"]),
        float(chunks["temperature"]),
        trees,
    )
    return fitted, config


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("features", type=Path)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    changes = {}
    for item in args.set:
        name, _, value = item.partition("=")
        changes[name.strip()] = float(value)
    fitted, config = shipped_fitted(changes)
    queries = load_queries(args.features)
    groups: dict[str, list[tuple[int | None, float]]] = defaultdict(list)
    ranks = {}
    for query in queries:
        result = outcome(query, fitted, config)
        ranks[query.instance_id] = result.rank
        for group in ("all", query.kind, query.instance_id.split("-")[0]):
            groups[group].append((result.rank, result.chunks.get("chunk_ndcg@10", 0.0)))
    for group, rows in sorted(groups.items(), key=lambda item: (item[0] != "all", item[0])):
        at = [sum(1 for rank, _ in rows if rank is not None and rank <= k) for k in (1, 5, 10)]
        ndcg = 100 * sum(value for _, value in rows) / len(rows)
        print(f"{group:<24} n={len(rows):<5} Acc@1/5/10 {at[0]} / {at[1]} / {at[2]}   chunk NDCG@10 {ndcg:.1f}")
    if args.json:
        args.json.write_text(json.dumps({"changes": changes, "ranks": ranks}, indent=1))


if __name__ == "__main__":
    main()
