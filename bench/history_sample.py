#!/usr/bin/env python3
"""A bounded, reproducible sample of the multi-language history dev set, for a per-language check that fits in
minutes: for every repository, its busiest tree (the snapshot most of its questions use; ties: the smaller
commit id) and from it ``--per-repo`` questions drawn with ``random.Random(seed)`` (all of them when fewer). One
tree per repository keeps indexing to 65 trees.

Two files, so that ``codeqa eval`` reports them as two datasets: ``history_sample_new.jsonl`` (repositories the
shipped ranker was NOT fitted on: a fair dev check) and ``history_sample_fitted.jsonl`` (the repositories named
in ``codeqa/retrieve/ranker.json``'s provenance: in-sample).

  python3 bench/history_sample.py --out DIR [--per-repo 8] [--seed 0]
"""

import argparse
import collections
import glob
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
RANKER = os.path.join(HERE, "..", "codeqa", "retrieve", "ranker.json")


def sample(rows: list[dict], per_repo: int, seed: int) -> list[dict]:
    by_tree = collections.Counter(row["tree"] for row in rows)
    busiest = min(by_tree, key=lambda tree: (-by_tree[tree], tree))
    pool = sorted((row for row in rows if row["tree"] == busiest), key=lambda row: row["instance_id"])
    chosen = pool if len(pool) <= per_repo else random.Random(seed).sample(pool, per_repo)
    return sorted(chosen, key=lambda row: row["instance_id"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=os.path.join(HERE, "data", "history"))
    ap.add_argument("--out", required=True, help="folder for the two sample files")
    ap.add_argument("--per-repo", type=int, default=8)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    with open(RANKER) as f:
        fitted = set(json.load(f)["provenance"]["repositories"])
    chosen: dict[str, list[dict]] = {"new": [], "fitted": []}
    for path in sorted(glob.glob(os.path.join(args.data, "*.jsonl"))):
        with open(path) as f:
            rows = [json.loads(line) for line in f if line.strip()]
        chosen["fitted" if rows[0]["repo"] in fitted else "new"].extend(sample(rows, args.per_repo, args.seed))
    os.makedirs(args.out, exist_ok=True)
    for name, rows in chosen.items():
        with open(os.path.join(args.out, f"history_sample_{name}.jsonl"), "w") as f:
            f.writelines(json.dumps(row) + "\n" for row in rows)
        languages = collections.Counter(row["language"] for row in rows)
        print(f"history_sample_{name}.jsonl: {len(rows)} questions, {len({r['repo'] for r in rows})} repositories,"
              f" {dict(sorted(languages.items()))}")  # fmt: skip


if __name__ == "__main__":
    main()
