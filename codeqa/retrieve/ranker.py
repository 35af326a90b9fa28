"""The file ranker: a linear model over the candidate features, its weights shipped with the package as data.

Files of a secondary role (tests, docs, changelogs, CI, tooling, examples, vendored, generated, translations) that
the question does not ask for are ranked after the source files, whatever their score: a CI workflow or a
changelog that repeats a question's words never outranks the code that implements it.

The weights are fitted by ``codeqa eval --train`` (a conditional-logit model: per question, a softmax over its
candidate files, maximizing the probability of the gold file) on dev data only, and chosen by leave-one-repository-
out cross-validation; ``ranker.json`` records which data and which settings produced them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from codeqa.errors import QueryError
from codeqa.retrieve.features import FEATURES
from codeqa.retrieve.roles import SECONDARY

WEIGHTS_FILE = "ranker.json"
SECONDARY_GAP = 1000.0  # far more than any score difference the weights can make
_SECONDARY_COLUMNS = [FEATURES.index(f"role_{role}") for role in SECONDARY]


@dataclass(frozen=True)
class Ranker:
    """Score = features · weights; higher is better."""

    weights: dict[str, float]
    provenance: dict[str, object] = field(default_factory=dict)

    def vector(self) -> np.ndarray:
        return np.asarray([self.weights.get(name, 0.0) for name in FEATURES], dtype=np.float32)

    def score(self, features: np.ndarray) -> np.ndarray:
        features = np.asarray(features, dtype=np.float32)
        secondary = features[:, _SECONDARY_COLUMNS].sum(axis=1) > 0 if len(features) else np.zeros(0, dtype=bool)
        return features @ self.vector() - SECONDARY_GAP * secondary

    def to_json(self) -> str:
        return json.dumps(
            {"features": list(FEATURES), "weights": self.weights, "provenance": self.provenance}, indent=1
        )

    @classmethod
    def from_file(cls, path: Path) -> Ranker:
        try:
            data = json.loads(Path(path).read_text())
            weights = {str(name): float(value) for name, value in data["weights"].items()}
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise QueryError(f"Cannot read ranker weights from {path}: {exc.__class__.__name__}: {exc}") from exc
        unknown = sorted(set(weights) - set(FEATURES))
        if unknown:
            raise QueryError(f"Ranker weights in {path} name unknown features: {', '.join(unknown)}.")
        return cls(weights, dict(data.get("provenance", {})))


@lru_cache(maxsize=1)
def default_ranker() -> Ranker:
    """The shipped weights (``codeqa/retrieve/ranker.json``)."""
    with resources.as_file(resources.files("codeqa.retrieve") / WEIGHTS_FILE) as path:
        return Ranker.from_file(path)
