"""Retrieval latency of an existing index: p50/p95 over many questions, with and without filters.

Usage: python bench/query_bench.py INDEX_NAME [--questions FILE.jsonl] [--n 200] [--contextual [--cold]]
Questions come from a JSONL file (`problem_statement` or `question` field) or a built-in list.
The query embedding is included (it is part of every search); the first query (loading) is reported apart.
``--contextual`` turns the contextual stage on (``--cold``: its text-vector cache for this index is removed first, so
each question's first pass shows what encoding new files costs; the scenarios after it run warm).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter
from pathlib import Path

from codeqa.config import Settings
from codeqa.index import Index
from codeqa.retrieve import Filters, retrieve
from codeqa.retrieve.contextual import cache_path, contextual_stage

DEFAULT_QUESTIONS = [
    "where is the configuration loaded?",
    "how are errors from the network handled?",
    "what happens when a request times out?",
    "where would I add logging for user actions?",
    "how is authentication checked?",
    "which function parses the input file?",
]


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("name")
    parser.add_argument("--questions", type=Path)
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--legacy", action="store_true", help="rank files by summed chunk scores (no ranker)")
    parser.add_argument("--contextual", action="store_true", help="with the contextual stage on")
    parser.add_argument("--cold", action="store_true", help="with --contextual: start from an empty vector cache")
    args = parser.parse_args()
    settings = Settings(contextual_stage=True) if args.contextual else Settings()
    index = Index.open(args.name, settings)
    manifest = index.manifest
    questions = DEFAULT_QUESTIONS
    if args.questions:
        rows = [json.loads(line) for line in args.questions.read_text().splitlines() if line.strip()]
        questions = [row.get("problem_statement") or row["question"] for row in rows]
    stage = contextual_stage(index) if args.contextual else None
    if args.contextual and stage is None:
        raise SystemExit("the contextual encoder did not load")
    if stage is not None and args.cold:
        cache_path(index, stage.encoder.model_id).unlink(missing_ok=True)
        stage = contextual_stage(index)
        stage.vectors._vectors.clear()  # type: ignore[union-attr]
    started = time.perf_counter()
    artifacts = index.files
    retrieve(index, questions[0])
    print(
        f"index {args.name}: {manifest.counts.get('chunks')} chunks; "
        f"first query incl. loading {time.perf_counter() - started:.2f}s"
    )
    if stage is not None:
        cold = []
        for question in questions[1:]:  # each question once: the texts of files not seen before are encoded
            before, started, started_cpu = stage.vectors.encoded, time.perf_counter(), time.process_time()
            retrieve(index, question, k=10)
            cold.append(
                (
                    (time.perf_counter() - started) * 1000,
                    (time.process_time() - started_cpu) * 1000,
                    stage.vectors.encoded - before,
                )
            )
        timings, cpu = [ms for ms, _, _ in cold], [ms for _, ms, _ in cold]
        print(
            f"{'first pass (cache filling)':<28} p50 {statistics.median(timings):7.1f} ms   p95 "
            f"{percentile(timings, 95):7.1f} ms   max {max(timings):7.1f} ms   (n={len(cold)}, "
            f"{sum(n for _, _, n in cold) / len(cold):.1f} new texts per question; CPU time p50 "
            f"{statistics.median(cpu):.1f} ms, p95 {percentile(cpu, 95):.1f} ms)"
        )
    top_dir = (Counter(p.split("/")[0] for p in artifacts.table.paths if "/" in p).most_common(1) or [(".", 0)])[0][0]
    top_language = Counter(artifacts.table.languages).most_common(1)[0][0]
    scenarios = {
        "no filter": Filters(),
        f"path={top_dir}": Filters(paths=(top_dir,)),
        f"language={top_language}": Filters(languages=(top_language,)),
        "layer=test,kind=function": Filters(layers=("test",), kinds=("function",)),
    }
    if stage is not None:  # filters would reach files not seen yet: the warm numbers are for the unfiltered search
        scenarios = {"no filter, warm cache": Filters()}
    for label, filters in scenarios.items():
        timings, cpu = [], []
        for i in range(args.n):
            started, started_cpu = time.perf_counter(), time.process_time()
            question = questions[i % len(questions)]
            retrieve(index, question, k=10, filters=filters, learned=not args.legacy)
            timings.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - started_cpu) * 1000)
        print(
            f"{label:<28} p50 {statistics.median(timings):7.1f} ms   p95 {percentile(timings, 95):7.1f} ms   "
            f"max {max(timings):7.1f} ms   (n={args.n}; CPU time p50 {statistics.median(cpu):.1f} ms, "
            f"p95 {percentile(cpu, 95):.1f} ms)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
