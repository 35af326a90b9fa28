"""Fitting the trees that reorder the second stage's first files (LightGBM, the ``train`` extra); they ship as node
arrays (``codeqa.retrieve.trees``), so ranking itself never imports LightGBM."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from codeqa.errors import QueryError
from codeqa.retrieve.trees import TreeEnsemble

# LightGBM's lambdarank for the trees that reorder the second stage's first ten files: small trees, slow learning.
# Chosen on the 1,767 dev questions by five folds by repository among 7 or 15 leaves, 300 or 600 trees, minimum
# leaf 50 or 100, lambdarank or binary (bench/README.md, #17).
TREE_PARAMS: dict[str, Any] = {
    "objective": "lambdarank",
    "num_leaves": 7,
    "learning_rate": 0.05,
    "n_estimators": 300,
    "min_child_samples": 50,
    "colsample_bytree": 0.8,
    "lambdarank_truncation_level": 10,
    "verbose": -1,
}


def fit_trees(blocks: Sequence[tuple[np.ndarray, np.ndarray, float]], names: Sequence[str]) -> TreeEnsemble:
    """LightGBM lambdarank over the blocks (one per question: its files' features, which are gold, its weight)."""
    try:
        import lightgbm
    except ImportError as exc:
        raise QueryError(
            "Fitting the second stage needs LightGBM: pip install 'codeqa[train]' (or choose the linear model)."
        ) from exc
    usable = [(f, g, w) for f, g, w in blocks if g.any() and len(g) > 1]
    if not usable:
        raise QueryError("No training question has its gold file among the second stage's files.")
    mean = float(np.mean([w for _, _, w in usable]))
    model = lightgbm.LGBMRanker(**TREE_PARAMS)
    model.fit(
        np.concatenate([f for f, _, _ in usable]).astype(np.float64),
        np.concatenate([g.astype(int) for _, g, _ in usable]),
        group=[len(g) for _, g, _ in usable],
        sample_weight=np.concatenate([np.full(len(g), w / mean) for _, g, w in usable]),
    )
    return TreeEnsemble.from_lightgbm(model.booster_.dump_model(), names)
