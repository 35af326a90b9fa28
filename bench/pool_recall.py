"""Where the gold files of an answers eval stand in retrieval, and whether the answer cites them.

    python bench/pool_recall.py DATASET.jsonl EVAL.json ANSWERS_DIR [--json OUT.json] [-v]

For each question: the rank of each gold file in ``retrieve()``'s file list (as the answer asks it: ``explain_index``'s
pool size for k=8), and whether the answer (ANSWERS_DIR/<id>.md) cites it. Each key fact that is not shown is put in
a class: its file cited, or not cited and ranked 1-6 (the answer's source files), 7-10, 11-30, 31-60, below 60 or not
a candidate at all. Uses the kept eval indexes under CODEQA_HOME (run after ``codeqa eval --answers --keep``).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path

from codeqa.config import Settings
from codeqa.evaluate.data import load_dataset
from codeqa.evaluate.runner import kept_indexes
from codeqa.retrieve import retrieve

BANDS = ((6, "1-6"), (10, "7-10"), (30, "11-30"), (60, "31-60"), (10**9, ">60"))
POOL_K = 24  # explain_index's pool for k=8: min(MAX_POOL, max(3 * k, 24))


def band(rank: int | None) -> str:
    if rank is None:
        return "absent"
    return next(name for depth, name in BANDS if rank <= depth)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dataset", type=Path)
    parser.add_argument("eval_json", type=Path)
    parser.add_argument("answers_dir", type=Path)
    parser.add_argument("--json", type=Path)
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    settings = Settings()
    results = {i["instance_id"]: i for i in json.loads(args.eval_json.read_text())["instances"]}
    raw = {json.loads(line)["instance_id"]: json.loads(line) for line in args.dataset.read_text().splitlines() if line}
    facts: Counter[str] = Counter()
    by_group: dict[str, Counter[str]] = defaultdict(Counter)
    rows = []
    for instance, index in kept_indexes(load_dataset(args.dataset), settings):
        result = results.get(instance.instance_id)
        if result is None:
            continue
        if index is None:
            print(f"no index for {instance.instance_id}")
            continue
        pool = retrieve(index, instance.problem_statement, k=POOL_K)
        ranks = {f.path: n for n, f in enumerate(pool.files, start=1)}
        pooled = {hit.chunk.path for hit in pool.hits}
        answer = (args.answers_dir / f"{instance.instance_id}.md").read_text()
        row = raw[instance.instance_id]
        category = row.get("category", "other")
        gold = {
            path: {"rank": ranks.get(path), "pooled": path in pooled, "cited": path in answer}
            for path in instance.gold_files
        }
        shown = set(result["shown"])
        lost = []
        for fact, location in (row.get("key_fact_lines") or {}).items():
            path = location.rsplit(":", 1)[0]
            info = gold.get(path) or {"rank": ranks.get(path), "pooled": path in pooled, "cited": path in answer}
            where = "shown" if fact in shown else "cited" if info["cited"] else band(info["rank"])
            facts[where] += 1
            by_group[category][where] += 1
            by_group[instance.repo.split("/")[1]][where] += 1
            if where != "shown":
                lost.append((where, location, fact))
        rows.append({"id": instance.instance_id, "category": category, "gold": gold, "lost": lost})
        if args.verbose:
            print(instance.instance_id, category, instance.problem_statement[:80])
            for path, info in gold.items():
                print(f"   {'C' if info['cited'] else '-'} {'P' if info['pooled'] else '-'} {info['rank']!s:>5} {path}")
            for where, location, fact in lost:
                print(f"      lost {where:6s} {location} {fact[:60]}")
    order = ["shown", "cited", *(name for _, name in BANDS), "absent"]
    print("facts: " + " · ".join(f"{name} {facts[name]}" for name in order))
    for group, counts in sorted(by_group.items()):
        print(f"  {group:14s} " + " · ".join(f"{name} {counts[name]}" for name in order))
    if args.json:
        args.json.write_text(json.dumps({"facts": facts, "groups": by_group, "questions": rows}, indent=1))


if __name__ == "__main__":
    main()
