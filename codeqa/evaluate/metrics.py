"""Retrieval metrics, summarized with counts.

Files: Acc@k (a gold file among the top k files), MRR@10, NDCG@10. Chunks (what ``codeqa search``, an MCP agent
and an answer's prompt see): over the top ten chunks, NDCG@10 of the gold files (a chunk counts when its file is
gold and no earlier chunk came from that file, so ten chunks of one file earn one file's worth), recall of the
gold files, how many distinct files they show, and, where a question names the lines that answer it
(``key_fact_lines``), the share of those lines the chunks contain.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

DEFAULT_KS = (1, 5, 10)
CHUNK_DEPTH = 10
COUNT_METRICS = ("files@10",)  # reported as means, not percentages


@dataclass
class InstanceResult:
    instance_id: str
    repo: str
    dataset: str
    ranked_files: list[str]
    index_seconds: float
    query_seconds: float
    metrics: dict[str, float] = field(default_factory=dict)
    ranked_chunks: list[str] = field(default_factory=list)  # "path:start-end" of the top chunks
    language: str = ""


def _ndcg(relevant: Sequence[bool], ideal: int) -> float:
    if ideal <= 0:
        return 0.0
    gain = sum(1.0 / math.log2(rank + 2) for rank, hit in enumerate(relevant) if hit)
    return gain / sum(1.0 / math.log2(rank + 2) for rank in range(ideal))


def score(ranked: Sequence[str], gold: Sequence[str], ks: Sequence[int] = DEFAULT_KS) -> dict[str, float]:
    gold_set = set(gold)
    metrics = {f"acc@{k}": float(bool(set(ranked[:k]) & gold_set)) for k in ks}
    reciprocal = next((1.0 / rank for rank, path in enumerate(ranked[:10], start=1) if path in gold_set), 0.0)
    metrics["mrr@10"] = reciprocal
    return metrics


def file_ndcg(ranked: Sequence[str], gold: Sequence[str], depth: int = 10) -> float:
    gold_set = set(gold)
    return _ndcg([path in gold_set for path in ranked[:depth]], min(len(gold_set), depth))


def chunk_score(
    chunks: Sequence[tuple[str, int, int]],
    gold: Sequence[str],
    key_lines: Sequence[tuple[str, int]] = (),
    depth: int = CHUNK_DEPTH,
) -> dict[str, float]:
    """Chunk-level metrics of the top ``depth`` chunks, each ``(path, start_line, end_line)``."""
    gold_set = set(gold)
    top = list(chunks[:depth])
    seen: set[str] = set()
    first_of_gold_file = []
    for path, _, _ in top:
        first_of_gold_file.append(path in gold_set and path not in seen)
        seen.add(path)
    metrics = {
        "chunk_ndcg@10": _ndcg(first_of_gold_file, min(len(gold_set), depth)),
        "chunk_recall@10": len(gold_set & seen) / len(gold_set) if gold_set else 0.0,
        "files@10": float(len(seen)),
        "chunk_precision@10": sum(path in gold_set for path, _, _ in top) / len(top) if top else 0.0,
    }
    if key_lines:
        covered = sum(any(p == path and s <= line <= e for p, s, e in top) for path, line in key_lines)
        metrics["lines@10"] = covered / len(key_lines)
    return metrics


def summarize(results: Sequence[InstanceResult]) -> dict[str, dict[str, float]]:
    """Mean of every metric (in %, counts as means) overall, per dataset, per language and per repository, with
    instance counts ``n`` (and ``n_lines``: questions that name their answering lines)."""
    groups: dict[str, list[InstanceResult]] = defaultdict(list)
    datasets = {result.dataset for result in results}
    languages = {result.language for result in results}
    for result in results:
        groups["overall"].append(result)
        if len(datasets) > 1:
            groups[f"[{result.dataset}]"].append(result)
        if len(languages) > 1 and result.language:
            groups[f"<{result.language}>"].append(result)
        groups[result.repo].append(result)
    summary: dict[str, dict[str, float]] = {}
    for group, members in groups.items():
        names = dict.fromkeys(name for m in members for name in m.metrics)
        row: dict[str, float] = {}
        for name in names:
            values = [m.metrics[name] for m in members if name in m.metrics]
            mean = sum(values) / len(values)
            row[name] = round(mean, 2) if name in COUNT_METRICS else round(100 * mean, 1)
        row["n"] = len(members)
        row["n_lines"] = sum(1 for m in members if "lines@10" in m.metrics)
        row["index_seconds"] = round(sum(m.index_seconds for m in members), 1)
        summary[group] = row
    return summary


def by_language(summary: dict[str, dict[str, float]]) -> dict[str, dict[str, float]]:
    """The per-language rows of a summary (its ``<language>`` groups), keyed by the bare language name."""
    return {group[1:-1]: row for group, row in sorted(summary.items()) if group.startswith("<") and group.endswith(">")}


def write_json(path: Path, results: Sequence[InstanceResult], extra: dict | None = None) -> None:
    summary = summarize(results)
    payload = {
        "summary": summary,
        "languages": by_language(summary),
        **(extra or {}),
        "instances": [{**{k: v for k, v in asdict(r).items() if k != "metrics"}, **r.metrics} for r in results],
    }
    Path(path).write_text(json.dumps(payload, indent=1))
