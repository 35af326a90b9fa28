"""Would a second stage bring the answer's missing files? Gold precision of two candidate pools, per question.

    python bench/second_stage.py DATASET.jsonl [DATASET.jsonl ...] [--json OUT] [--deep 300]

Asks each question as ``codeqa eval --answers --backend none`` does (the eval indexes must be kept: run with
``CODEQA_HOME`` set to an eval home), then lists the files an answer does not show that a second stage could add:

- **graph**: files holding a chunk the resolved symbol graph links (caller or callee) to an open source, with how
  many open sources link to it and the best share of the question's words in a linked chunk;
- **deep**: the retrieval's files ranked 7-20, with how many of a deep retrieval's ``--deep`` chunks they hold and
  the best share of the question's words in any of their chunks.

Each pool is scored by the gold files it holds, and by the gold files of the one file per question a selector
would add (the most linked / most hit / best words, at share floors), against the gold rate of the last open
source an added file would push out. Shares are relative to the best evidence among the answer's sources.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path

from codeqa.answer import ask
from codeqa.answer.explanation.code.keylines import evidence
from codeqa.answer.explanation.constructs.candidate import CHUNK_EVIDENCE_LINES
from codeqa.answer.explanation.sources import choose
from codeqa.config import Settings
from codeqa.evaluate.data import load_dataset
from codeqa.evaluate.runner import _filters, kept_indexes
from codeqa.retrieve import retrieve

NEIGHBOURS = 300  # graph neighbours read per open source (both directions)
DEEP_RANKS = (6, 20)  # retrieval file ranks (0-based, end excluded) the deep pool reads
FLOORS = (0.0, 0.4, 0.6, 0.8)


def _candidates(instance, index, row: dict, deep_k: int) -> dict:
    seen: dict = {}
    original = choose.select_sources

    def spy(terms, context, *args):
        seen.update(context=context, terms=terms)
        return original(terms, context, *args)

    choose.select_sources = spy
    try:
        stream = ask(index, instance.problem_statement, filters=_filters(instance), backend="none", k=8)
        explanation = stream.explanation
    finally:
        choose.select_sources = original
    context, terms = seen["context"], seen["terms"]
    gold = set(row.get("gold_files") or [])
    facts = Counter(loc.rsplit(":", 1)[0] for loc in (row.get("key_fact_lines") or {}).values())
    steps = explanation.steps if explanation else []
    top = max((step.evidence for step in steps), default=0.0) or 1.0
    shown = {step.chunk.path for step in steps}
    opened = explanation.open_steps if explanation else []
    links: dict[str, set[int]] = defaultdict(set)
    words: dict[str, float] = defaultdict(float)
    for step in opened:
        callers, callees = context.neighbours(step.chunk)
        for chunk in context.chunks([*callers, *callees][:NEIGHBOURS]):
            if chunk.path not in shown:
                links[chunk.path].add(step.rank)
                share = evidence(terms, chunk.text, top=CHUNK_EVIDENCE_LINES) / top
                words[chunk.path] = max(words[chunk.path], share)
    graph = [{"path": p, "links": len(r), "share": round(words[p], 3), "gold": p in gold, "facts": facts[p]}
             for p, r in links.items()]  # fmt: skip
    deep = retrieve(index, instance.problem_statement, k=deep_k, filters=_filters(instance))
    hits = Counter(hit.chunk.path for hit in deep.hits)
    ranked = [p for p in context.files[DEEP_RANKS[0] : DEEP_RANKS[1]] if p not in shown]
    texts = context.file_chunks(ranked, limit=60)
    files = []
    for path in ranked:
        share = max((evidence(terms, c.text, top=CHUNK_EVIDENCE_LINES) for c in texts.get(path, [])), default=0.0)
        files.append({"path": path, "rank": context.files.index(path), "hits": hits[path],
                      "share": round(share / top, 3), "gold": path in gold, "facts": facts[path]})  # fmt: skip
    last = opened[-1].chunk.path if opened else ""
    return {"id": instance.instance_id, "graph": graph, "deep": files, "last_open_gold": last in gold,
            "last_open_facts": facts[last] if last else 0}  # fmt: skip


def _pick(rows: list[list[dict]], key, floor: float) -> tuple[int, int, int]:
    """(questions picked, gold files, fact lines) when the best row by ``key`` with ``share >= floor`` is added."""
    picked = gold = facts = 0
    for question in rows:
        best = max((c for c in question if c["share"] >= floor), key=key, default=None)
        if best is not None:
            picked, gold, facts = picked + 1, gold + best["gold"], facts + best["facts"]
    return picked, gold, facts


def report(questions: list[dict]) -> None:
    n = len(questions)
    last = sum(q["last_open_gold"] for q in questions)
    print(f"{n} questions; the last open source is on a gold file in {last} ({100 * last / max(n, 1):.0f}%)")
    selectors = {
        "graph": {"most links": lambda c: (c["links"], c["share"]), "best words": lambda c: (c["share"], c["links"])},
        "deep": {"best rank": lambda c: -c["rank"], "most hits": lambda c: (c["hits"], -c["rank"]),
                 "best words": lambda c: (c["share"], -c["rank"])},
    }  # fmt: skip
    for pool, keys in selectors.items():
        rows = [q[pool] for q in questions]
        size, gold = sum(len(r) for r in rows), sum(c["gold"] for r in rows for c in r)
        print(f"{pool}: {size} files outside the answer, {gold} gold ({100 * gold / max(size, 1):.1f}%)")
        for name, key in keys.items():
            cells = []
            for floor in FLOORS:
                picked, hit, facts = _pick(rows, key, floor)
                cells.append(f"share>={floor}: {hit}/{picked} gold, {facts} fact lines")
            print(f"  one per question by {name}: " + " · ".join(cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("datasets", type=Path, nargs="+")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--deep", type=int, default=300)
    args = parser.parse_args()
    rows = {}
    for dataset in args.datasets:
        for line in dataset.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                rows[row["instance_id"]] = row
    instances = [i for dataset in args.datasets for i in load_dataset(dataset)]
    kept = kept_indexes(instances, Settings())
    questions = [_candidates(instance, index, rows[instance.instance_id], args.deep) for instance, index in kept]
    if args.json:
        args.json.write_text(json.dumps(questions, indent=1))
    report(questions)


if __name__ == "__main__":
    main()
