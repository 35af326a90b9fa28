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
from codeqa.retrieve.chunks import CHUNK_FEATURES, ChunkRanker
from codeqa.retrieve.features import FEATURES
from codeqa.retrieve.rerank import FIRST, STAGE2_FEATURES, Reranker
from codeqa.retrieve.roles import SECONDARY
from codeqa.retrieve.trees import TreeEnsemble

WEIGHTS_FILE = "ranker.json"
RERANK_FILE = "rerank.json"
_TREES = "<trees>"  # where ``Later.to_json`` writes the tree arrays
SECONDARY_GAP = 1000.0  # far more than any score difference the weights can make
_SECONDARY_COLUMNS = [FEATURES.index(f"role_{role}") for role in SECONDARY]


@dataclass(frozen=True)
class Ranker:
    """Score = features · weights; higher is better."""

    weights: dict[str, float]
    provenance: dict[str, object] = field(default_factory=dict)

    def vector(self) -> np.ndarray:
        return np.asarray([self.weights.get(name, 0.0) for name in FEATURES], dtype=np.float32)

    def linear(self, features: np.ndarray) -> np.ndarray:
        """features · weights, without the secondary-role gap."""
        return np.asarray(features, dtype=np.float32) @ self.vector()

    def score(self, features: np.ndarray) -> np.ndarray:
        return self.linear(features) - SECONDARY_GAP * secondary_files(features)

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


def secondary_files(features: np.ndarray) -> np.ndarray:
    """Candidates of a secondary role the question does not ask for (they rank after every source file)."""
    features = np.asarray(features, dtype=np.float32)
    if not len(features):
        return np.zeros(0, dtype=bool)
    return features[:, _SECONDARY_COLUMNS].sum(axis=1) > 0


@lru_cache(maxsize=1)
def default_ranker() -> Ranker:
    """The shipped weights (``codeqa/retrieve/ranker.json``)."""
    with resources.as_file(resources.files("codeqa.retrieve") / WEIGHTS_FILE) as path:
        return Ranker.from_file(path)


@dataclass(frozen=True)
class Later:
    """The stages after the file ranker: the second stage and the chunk ranker, with where their settings came from."""

    reranker: Reranker
    chunks: ChunkRanker
    provenance: dict[str, object] = field(default_factory=dict)

    def to_json(self) -> str:
        trees = self.reranker.trees
        text = json.dumps(
            {
                "second_stage": {
                    "features": list(STAGE2_FEATURES),
                    "weights": self.reranker.weights,
                    "top": self.reranker.top,
                    "text_chunks": self.reranker.text_chunks,
                    **(
                        {"tree_top": self.reranker.tree_top, "tree_weight": self.reranker.tree_weight, "trees": _TREES}
                        if trees is not None
                        else {}
                    ),
                },
                "chunks": {
                    "features": list(CHUNK_FEATURES),
                    "weights": self.chunks.weights,
                    "alpha": self.chunks.alpha,
                    "temperature": self.chunks.temperature,
                },
                "provenance": self.provenance,
            },
            indent=1,
        )
        if trees is None:
            return text
        # thousands of node values: one line per array, not one per number
        lines = ",\n   ".join(f"{json.dumps(key)}: {json.dumps(value)}" for key, value in trees.to_dict().items())
        return text.replace(json.dumps(_TREES), "{\n   " + lines + "\n  }")

    @classmethod
    def from_file(cls, path: Path) -> Later:
        try:
            data = json.loads(Path(path).read_text())
            second, chunks = data["second_stage"], data["chunks"]
            reranker = Reranker(
                {str(k): float(v) for k, v in second["weights"].items()},
                int(second.get("top", 30)),
                int(second.get("text_chunks", 2)),
                TreeEnsemble.from_dict(second["trees"]) if second.get("trees") else None,
                int(second.get("tree_top", Reranker.tree_top)),
                float(second.get("tree_weight", Reranker.tree_weight)),
            )
            chunk_ranker = ChunkRanker(
                {str(k): float(v) for k, v in chunks["weights"].items()},
                float(chunks["alpha"]),
                float(chunks["temperature"]),
            )
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise QueryError(f"Cannot read re-ranking settings from {path}: {exc.__class__.__name__}: {exc}") from exc
        known = {*STAGE2_FEATURES, *(FIRST + name for name in FEATURES)}
        unknown = sorted({*reranker.weights, *reranker.features} - known)
        unknown += sorted(set(chunk_ranker.weights) - set(CHUNK_FEATURES))
        if unknown:
            raise QueryError(f"Re-ranking settings in {path} name unknown features: {', '.join(unknown)}.")
        return cls(reranker, chunk_ranker, dict(data.get("provenance", {})))


@lru_cache(maxsize=1)
def default_later() -> Later:
    """The shipped second stage and chunk ranker (``codeqa/retrieve/rerank.json``)."""
    with resources.as_file(resources.files("codeqa.retrieve") / RERANK_FILE) as path:
        return Later.from_file(path)
