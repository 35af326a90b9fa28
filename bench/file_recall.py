"""Where the key facts' files stand in ``retrieve()``'s file list: in the top 6 / 10 / 30, a candidate at all.

    python bench/file_recall.py DATASET.jsonl [--json OUT.json] [--only SUBSTRING]

Per key fact, the rank of its file (``path:line`` of ``key_fact_lines``) among ``retrieve()``'s files (every
candidate, best first; k=24 as the answer asks for k=8); per question, file Acc@1/5/10 (a gold file in the top k).
Needs no answers eval: it reads the kept eval indexes under CODEQA_HOME (``codeqa eval --answers --keep``).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from codeqa.config import Settings
from codeqa.evaluate.data import load_dataset
from codeqa.evaluate.runner import kept_indexes
from codeqa.retrieve import retrieve

POOL_K = 24
DEPTHS = (6, 10, 30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dataset", type=Path)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    settings = Settings()
    raw = {json.loads(line)["instance_id"]: json.loads(line) for line in args.dataset.read_text().splitlines() if line}
    facts = dict.fromkeys([*map(str, DEPTHS), "candidate", "all"], 0)
    acc = dict.fromkeys((1, 5, 10), 0)
    rows = []
    seconds = 0.0
    chosen = (instance for instance in load_dataset(args.dataset) if args.only in instance.instance_id)
    for instance, index in kept_indexes(chosen, settings):
        if index is None:
            print(f"no index for {instance.instance_id}")
            continue
        start = time.perf_counter()
        pool = retrieve(index, instance.problem_statement, k=POOL_K)
        seconds += time.perf_counter() - start
        ranks = {f.path: n for n, f in enumerate(pool.files, start=1)}
        gold = [ranks.get(path) for path in instance.gold_files]
        for k in acc:
            acc[k] += any(r is not None and r <= k for r in gold)
        fact_ranks = []
        for location in (raw[instance.instance_id].get("key_fact_lines") or {}).values():
            rank = ranks.get(location.rsplit(":", 1)[0])
            fact_ranks.append(rank)
            facts["all"] += 1
            if rank is not None:
                facts["candidate"] += 1
                for depth in DEPTHS:
                    facts[str(depth)] += rank <= depth
        rows.append(
            {"id": instance.instance_id, "gold": dict(zip(instance.gold_files, gold, strict=True)), "facts": fact_ranks}
        )
    print(
        f"facts top 6/10/30/candidates: {facts['6']}/{facts['10']}/{facts['30']}/{facts['candidate']} of {facts['all']}"
        f" · file Acc@1/5/10 {acc[1]}/{acc[5]}/{acc[10]} of {len(rows)} · retrieve {seconds / max(len(rows), 1):.2f} s"
    )
    if args.json:
        args.json.write_text(json.dumps({"facts": facts, "acc": acc, "questions": rows}, indent=1))


if __name__ == "__main__":
    main()
