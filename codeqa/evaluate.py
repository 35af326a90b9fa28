"""``codeqa eval``: file-localization quality of the real pipeline on a JSONL dataset of questions.

Each line: ``instance_id``, ``repo``, ``base_commit``, ``problem_statement``, ``gold_files``; the instance's tree is
``TREES/<owner>__<name>/<base_commit>/``. Every instance is indexed with the normal pipeline (test files left
out by SWE-bench's rule) and queried with its problem statement; chunk hits collapse to files in rank order.
``gold_files`` is read only to score.
"""

from __future__ import annotations

import json
import re
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from codeqa.config import Settings
from codeqa.errors import QueryError
from codeqa.pipeline import build_index
from codeqa.retrieve import Weights, retrieve
from codeqa.store import Store

DEFAULT_KS = (1, 5, 10)


def is_test(path: str) -> bool:
    """SWE-bench's test-file rule (``make_datasets.utils.is_test``) on a repo-relative path."""
    return any(word in ("test", "tests", "testing") for word in re.split(r" |_|/|\.", path.lower()))


@dataclass(frozen=True)
class Instance:
    instance_id: str
    repo: str
    base_commit: str
    problem_statement: str
    gold_files: tuple[str, ...]

    def tree(self, trees: Path) -> Path:
        return trees / self.repo.replace("/", "__") / self.base_commit


@dataclass
class InstanceResult:
    instance_id: str
    repo: str
    ranked_files: list[str]
    index_seconds: float
    query_seconds: float
    metrics: dict[str, float] = field(default_factory=dict)


def load_dataset(path: Path, limit: int | None = None) -> list[Instance]:
    instances = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            instances.append(
                Instance(
                    row["instance_id"],
                    row["repo"],
                    row["base_commit"],
                    row["problem_statement"],
                    tuple(row["gold_files"]),
                )
            )
        except (ValueError, KeyError) as exc:
            raise QueryError(f"{path}:{number}: not a dataset line ({exc.__class__.__name__}: {exc}).") from exc
    return instances[:limit] if limit else instances


def score(ranked: Sequence[str], gold: Sequence[str], ks: Sequence[int]) -> dict[str, float]:
    gold_set = set(gold)
    metrics = {f"acc@{k}": float(bool(set(ranked[:k]) & gold_set)) for k in ks}
    reciprocal = next((1.0 / rank for rank, path in enumerate(ranked[:10], start=1) if path in gold_set), 0.0)
    metrics["mrr@10"] = reciprocal
    return metrics


def summarize(results: Sequence[InstanceResult]) -> dict[str, dict[str, float]]:
    """Mean of every metric overall and per repository, with instance counts."""
    groups: dict[str, list[InstanceResult]] = defaultdict(list)
    for result in results:
        groups["overall"].append(result)
        groups[result.repo].append(result)
    summary: dict[str, dict[str, float]] = {}
    for group, members in groups.items():
        names = members[0].metrics.keys()
        summary[group] = {name: round(100 * sum(m.metrics[name] for m in members) / len(members), 1) for name in names}
        summary[group]["n"] = len(members)
        summary[group]["index_seconds"] = round(sum(m.index_seconds for m in members), 1)
    return summary


def run_eval(
    dataset: Path,
    trees: Path,
    settings: Settings,
    *,
    ks: Sequence[int] = DEFAULT_KS,
    limit: int | None = None,
    keep_indexes: bool = False,
    reuse_indexes: bool = False,
    weights: Weights | None = None,
    on_result: Callable[[InstanceResult], None] | None = None,
) -> list[InstanceResult]:
    instances = load_dataset(dataset, limit)
    missing = [i.instance_id for i in instances if not i.tree(trees).is_dir()]
    if missing:
        raise QueryError(f"{len(missing)} source trees are missing under {trees} (first: {missing[0]}).")
    store = Store(settings)
    indexed: dict[Path, tuple[str, float]] = {}  # tree → (index name, seconds): instances may share a tree
    results = []
    for instance in instances:
        tree = instance.tree(trees)
        if tree not in indexed:
            name = f"eval-{instance.repo.replace('/', '-')}-{instance.base_commit[:10]}"[:63]
            started = time.perf_counter()
            if not (reuse_indexes and store.exists(name)):
                build_index(str(tree), settings, name=name, exclude=is_test, store=store)
            indexed[tree] = (name, time.perf_counter() - started)
            index_seconds = indexed[tree][1]
        else:
            index_seconds = 0.0
        name = indexed[tree][0]
        started = time.perf_counter()
        retrieval = retrieve(name, instance.problem_statement, settings, k=10, store=store, weights=weights)
        query_seconds = time.perf_counter() - started
        ranked = [file.path for file in retrieval.files][:50]
        result = InstanceResult(
            instance.instance_id,
            instance.repo,
            ranked,
            round(index_seconds, 2),
            round(query_seconds, 3),
            score(ranked, instance.gold_files, ks),
        )
        results.append(result)
        if on_result:
            on_result(result)
        if not keep_indexes and not any(
            other.tree(trees) == tree for other in instances[instances.index(instance) + 1 :]
        ):
            store.remove(name)
    return results


def write_json(path: Path, results: Sequence[InstanceResult]) -> None:
    payload = {
        "summary": summarize(results),
        "instances": [
            {
                "instance_id": r.instance_id,
                "repo": r.repo,
                "ranked_files": r.ranked_files,
                "index_seconds": r.index_seconds,
                "query_seconds": r.query_seconds,
                **r.metrics,
            }
            for r in results
        ],
    }
    path.write_text(json.dumps(payload, indent=1))
