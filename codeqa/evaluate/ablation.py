"""What each retrieval stage adds (``codeqa eval --ablation``): the same questions ranked with every stage, then with
one stage turned off at a time, and by BM25 alone; files Acc@k with counts per language group.

The contextual stage is on in the full variant whatever the setting says (the ablation measures it); when its
encoder cannot be loaded, the full variant equals "without the contextual stage" and the run says so.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from codeqa.config import Settings
from codeqa.embed.contextual import load_contextual_encoder
from codeqa.evaluate.data import Instance
from codeqa.evaluate.metrics import DEFAULT_KS, score
from codeqa.evaluate.runner import _dominant_language, _filters, indexed_in_turn
from codeqa.retrieve import Weights, retrieve
from codeqa.retrieve.ranking import Stages


@dataclass(frozen=True)
class Variant:
    name: str
    stages: Stages = Stages(contextual=True)
    learned: bool = True
    weights: Weights | None = None


VARIANTS = (
    Variant("full (contextual on)"),
    Variant("− contextual stage", Stages(contextual=False)),
    Variant("− doc-to-code votes", Stages(contextual=True, doc_votes=False)),
    Variant("− hub evidence", Stages(contextual=True, hubs=False)),
    Variant("− second stage (trees)", Stages(contextual=True, second_stage=False)),
    Variant("BM25 alone", Stages(contextual=False), learned=False, weights=Weights(dense=0.0, symbol=0.0)),
)

LANGUAGE_GROUPS = {
    "python": "Python",
    "javascript": "JS/TS",
    "typescript": "JS/TS",
    "tsx": "JS/TS",
    "jsx": "JS/TS",
    "java": "Java/Kotlin",
    "kotlin": "Java/Kotlin",
    "go": "Go",
    "ruby": "Ruby",
    "php": "PHP",
    "c": "C/C++",
    "cpp": "C/C++",
}
GROUPS = ("Python", "JS/TS", "Java/Kotlin", "Go", "Ruby", "PHP", "C/C++", "other")


def language_group(language: str) -> str:
    return LANGUAGE_GROUPS.get(language.lower(), "other")


@dataclass
class AblationResult:
    ks: tuple[int, ...]
    contextual_loaded: bool
    # per variant, per instance: {acc@k: 0/1}; and each instance's language group
    hits: dict[str, list[dict[str, float]]] = field(default_factory=lambda: defaultdict(list))
    groups: list[str] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=lambda: defaultdict(float))

    def table(self) -> dict[str, dict[str, dict[str, float]]]:
        """Per variant, per group (and "all"): n and Acc@k in % and as counts."""
        out: dict[str, dict[str, dict[str, float]]] = {}
        for variant, rows in self.hits.items():
            cells: dict[str, dict[str, float]] = {}
            for group in (*GROUPS, "all"):
                members = [r for r, g in zip(rows, self.groups, strict=True) if group in ("all", g)]
                if not members:
                    continue
                cell: dict[str, float] = {"n": len(members)}
                for k in self.ks:
                    count = sum(int(m[f"acc@{k}"]) for m in members)
                    cell[f"acc@{k}"] = round(100 * count / len(members), 1)
                    cell[f"hits@{k}"] = count
                cells[group] = cell
            out[variant] = cells
        return out


def run_ablation(
    instances: Sequence[Instance],
    trees: Path,
    settings: Settings,
    *,
    ks: Sequence[int] = DEFAULT_KS,
    keep_indexes: bool = False,
    reuse_indexes: bool = False,
    variants: Sequence[Variant] = VARIANTS,
    on_instance: Callable[[Instance, dict[str, dict[str, float]]], None] | None = None,
) -> AblationResult:
    result = AblationResult(tuple(ks), load_contextual_encoder(settings) is not None)
    for instance, index, _ in indexed_in_turn(instances, trees, settings, keep_indexes, reuse_indexes):
        result.groups.append(language_group(instance.language or _dominant_language(index)))
        got: dict[str, dict[str, float]] = {}
        for variant in variants:
            started = time.perf_counter()
            retrieval = retrieve(
                index,
                instance.problem_statement,
                k=10,
                filters=_filters(instance),
                weights=variant.weights,
                learned=variant.learned,
                stages=variant.stages,
            )
            result.seconds[variant.name] += time.perf_counter() - started
            got[variant.name] = score([f.path for f in retrieval.files][:50], instance.gold_files, ks)
            result.hits[variant.name].append(got[variant.name])
        if on_instance:
            on_instance(instance, got)
    return result
