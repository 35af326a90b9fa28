#!/usr/bin/env python3
"""Would more dev data change the shipped ranking? All stages (first, second, exact-name path, chunk ranker)
over saved features, split into the repositories the shipped weights were fitted on ("old", from
``codeqa/retrieve/ranker.json``'s provenance) and the rest ("new"), every question scored out of fold:

- the shipped recipe: fit on the old questions, score the new ones; leave-one-repository-out within the old;
- the refit: leave-one-repository-out over old + new together.

  codeqa eval --dataset … --trees DIR --features FEATS   # once per set, same FEATS folder
  python bench/stage_cv_subsets.py FEATS [--l2 3] [--json OUT]
"""

import argparse
import json
from pathlib import Path

from codeqa.evaluate.metrics import summarize
from codeqa.evaluate.stages import StageConfig, cross_validate_stages, fit_all, outcome, outcome_results
from codeqa.evaluate.train import load_queries

RANKER = Path(__file__).resolve().parent.parent / "codeqa" / "retrieve" / "ranker.json"
COLUMNS = ("acc@1", "acc@5", "acc@10", "mrr@10", "chunk_ndcg@10")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("features", type=Path)
    ap.add_argument("--l2", type=float, default=3.0, help="first-stage L2 (the shipped one)")
    ap.add_argument("--json", type=Path, help="write the overall and per-language rows here")
    args = ap.parse_args()
    fitted = set(json.loads(RANKER.read_text())["provenance"]["repositories"])
    queries = load_queries(args.features)
    old = [q for q in queries if q.repo in fitted]
    new = [q for q in queries if q.repo not in fitted]
    config = StageConfig(l2_first=args.l2)
    report = {}

    def row(tag, subset, outcomes):
        summary = summarize(outcome_results(subset, outcomes))
        report[tag] = {k: v for k, v in summary.items() if k == "overall" or k.startswith("<")}
        overall = summary["overall"]
        count = round(overall["acc@1"] * overall["n"] / 100)
        print(f"{tag:<28} n={overall['n']:<5} Acc@1 count {count:<4}", *(f"{c} {overall[c]}" for c in COLUMNS))

    shipped = fit_all(old, config)
    row("shipped recipe, new", new, {q.instance_id: outcome(q, shipped, config) for q in new})
    row("shipped recipe, old (CV)", old, cross_validate_stages(old, config)[0])
    pooled = cross_validate_stages(queries, config)[0]
    row("refit (CV), new", new, pooled)
    row("refit (CV), old", old, pooled)
    row("refit (CV), all", queries, pooled)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
