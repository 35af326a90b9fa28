"""File-localization metrics: Acc@k (a gold file among the top k files) and MRR@10, summarized with counts."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

DEFAULT_KS = (1, 5, 10)


@dataclass
class InstanceResult:
    instance_id: str
    repo: str
    dataset: str
    ranked_files: list[str]
    index_seconds: float
    query_seconds: float
    metrics: dict[str, float] = field(default_factory=dict)


def score(ranked: Sequence[str], gold: Sequence[str], ks: Sequence[int] = DEFAULT_KS) -> dict[str, float]:
    gold_set = set(gold)
    metrics = {f"acc@{k}": float(bool(set(ranked[:k]) & gold_set)) for k in ks}
    reciprocal = next((1.0 / rank for rank, path in enumerate(ranked[:10], start=1) if path in gold_set), 0.0)
    metrics["mrr@10"] = reciprocal
    return metrics


def summarize(results: Sequence[InstanceResult]) -> dict[str, dict[str, float]]:
    """Mean of every metric (in %) overall, per dataset and per repository, with instance counts ``n``."""
    groups: dict[str, list[InstanceResult]] = defaultdict(list)
    datasets = {result.dataset for result in results}
    for result in results:
        groups["overall"].append(result)
        if len(datasets) > 1:
            groups[f"[{result.dataset}]"].append(result)
        groups[result.repo].append(result)
    summary: dict[str, dict[str, float]] = {}
    for group, members in groups.items():
        names = members[0].metrics.keys()
        summary[group] = {name: round(100 * sum(m.metrics[name] for m in members) / len(members), 1) for name in names}
        summary[group]["n"] = len(members)
        summary[group]["index_seconds"] = round(sum(m.index_seconds for m in members), 1)
    return summary


def write_json(path: Path, results: Sequence[InstanceResult], extra: dict | None = None) -> None:
    payload = {
        "summary": summarize(results),
        **(extra or {}),
        "instances": [{**{k: v for k, v in asdict(r).items() if k != "metrics"}, **r.metrics} for r in results],
    }
    Path(path).write_text(json.dumps(payload, indent=1))
