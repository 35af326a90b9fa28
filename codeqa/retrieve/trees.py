"""A boosted tree ensemble evaluated with numpy: the second stage's model, shipped as data in ``rerank.json``.

The trees are fitted by LightGBM (``codeqa eval --rerank-out``, the ``train`` extra) and stored as flat node
arrays, so that ranking needs neither LightGBM nor its native library at run time. ``predict`` follows LightGBM's
numerical decision rule (``<=`` threshold, default direction for missing values) and its sum of leaf values;
``tests/test_trees.py`` checks it against LightGBM's own predictions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

_MISSING = {"None": 0, "Zero": 1, "NaN": 2}
_ZERO = 1e-35  # LightGBM's kZeroThreshold


@dataclass(frozen=True, eq=False)
class TreeEnsemble:
    """Trees over the named features; node arrays are global across trees (``roots`` holds each tree's first).

    A leaf has ``feature == -1`` and its output in ``value``.
    """

    features: tuple[str, ...]
    roots: np.ndarray
    feature: np.ndarray
    threshold: np.ndarray
    left: np.ndarray
    right: np.ndarray
    default_left: np.ndarray
    missing: np.ndarray
    value: np.ndarray
    depth: int

    def predict(self, matrix: np.ndarray) -> np.ndarray:
        """Sum of the trees' leaf values for each row of ``matrix`` (columns in ``features`` order)."""
        x = np.asarray(matrix, dtype=np.float64)
        if x.ndim != 2 or x.shape[1] != len(self.features):
            raise ValueError(f"expected rows of {len(self.features)} features, got shape {x.shape}")
        if not len(x) or not len(self.roots):
            return np.zeros(len(x))
        rows = np.arange(len(x))[None, :]
        node = np.repeat(self.roots[:, None], len(x), axis=1)
        for _ in range(self.depth):
            feature = self.feature[node]
            inner = feature >= 0
            if not inner.any():
                break
            values = x[rows, np.where(inner, feature, 0)]
            missing = self.missing[node]
            nan = np.isnan(values)
            values = np.where(nan & (missing != 2), 0.0, values)
            by_default = ((missing == 1) & (np.abs(values) <= _ZERO)) | ((missing == 2) & nan)
            go_left = np.where(by_default, self.default_left[node], values <= self.threshold[node])
            node = np.where(inner, np.where(go_left, self.left[node], self.right[node]), node)
        return self.value[node].sum(axis=0)

    def to_dict(self) -> dict[str, object]:
        return {
            "features": list(self.features),
            "roots": self.roots.tolist(),
            "feature": self.feature.tolist(),
            "threshold": self.threshold.tolist(),
            "left": self.left.tolist(),
            "right": self.right.tolist(),
            "default_left": self.default_left.astype(int).tolist(),
            "missing": self.missing.tolist(),
            "value": self.value.tolist(),
            "depth": self.depth,
        }

    @classmethod
    def from_dict(cls, data: dict) -> TreeEnsemble:
        ensemble = cls(
            tuple(str(name) for name in data["features"]),
            np.asarray(data["roots"], dtype=np.int64),
            np.asarray(data["feature"], dtype=np.int64),
            np.asarray(data["threshold"], dtype=np.float64),
            np.asarray(data["left"], dtype=np.int64),
            np.asarray(data["right"], dtype=np.int64),
            np.asarray(data["default_left"], dtype=bool),
            np.asarray(data["missing"], dtype=np.int8),
            np.asarray(data["value"], dtype=np.float64),
            int(data["depth"]),
        )
        sizes = {len(ensemble.feature), len(ensemble.threshold), len(ensemble.left), len(ensemble.right),
                 len(ensemble.default_left), len(ensemble.missing), len(ensemble.value)}  # fmt: skip
        if len(sizes) != 1:
            raise ValueError("tree node arrays differ in length")
        nodes = len(ensemble.feature)
        for array in (ensemble.roots, ensemble.left, ensemble.right):
            if len(array) and (array.min() < 0 or array.max() >= nodes):
                raise ValueError("a tree points at a node that does not exist")
        if len(ensemble.feature) and ensemble.feature.max() >= len(ensemble.features):
            raise ValueError("a tree splits on a feature it does not name")
        return ensemble

    @classmethod
    def from_lightgbm(cls, dump: dict, features: Sequence[str]) -> TreeEnsemble:
        """From ``Booster.dump_model()`` of a model trained on columns named ``features``."""
        arrays: dict[str, list] = {k: [] for k in ("feature", "threshold", "left", "right", "default_left",
                                                   "missing", "value")}  # fmt: skip
        roots: list[int] = []
        depth = 0

        def add(node: dict, level: int) -> int:
            nonlocal depth
            depth = max(depth, level)
            index = len(arrays["feature"])
            for values in arrays.values():
                values.append(0)
            if "leaf_value" in node or "split_feature" not in node:
                arrays["feature"][index] = -1
                arrays["value"][index] = float(node.get("leaf_value", 0.0))
                arrays["left"][index] = arrays["right"][index] = index
                return index
            if node.get("decision_type", "<=") != "<=":
                raise ValueError(f"unsupported split {node.get('decision_type')!r} (categorical features?)")
            arrays["feature"][index] = int(node["split_feature"])
            arrays["threshold"][index] = float(node["threshold"])
            arrays["default_left"][index] = bool(node.get("default_left", True))
            arrays["missing"][index] = _MISSING[str(node.get("missing_type", "None"))]
            arrays["left"][index] = add(node["left_child"], level + 1)
            arrays["right"][index] = add(node["right_child"], level + 1)
            return index

        for tree in dump["tree_info"]:
            roots.append(add(tree["tree_structure"], 0))
        return cls.from_dict({"features": list(features), "roots": roots, "depth": depth, **arrays})
