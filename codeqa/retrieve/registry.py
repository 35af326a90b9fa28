"""The ranking-feature registry: each feature declared once, by name with the function that computes it.

A ranker's weights are stored by feature name and its feature matrix is built in registration order, so a name
can never drift from its column. A feature may read other features by name (``context.column``); each is
computed once per question.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

import numpy as np

C = TypeVar("C", bound="Columns")


class Columns:
    """What a feature function receives: the question's data, and every other feature by name (computed once)."""

    registry: FeatureRegistry

    def column(self, name: str) -> np.ndarray:
        cache: dict[str, np.ndarray] = self.__dict__.setdefault("_columns", {})
        if name not in cache:
            cache[name] = np.asarray(self.registry.get(name).compute(self), dtype=np.float32)
        return cache[name]


@dataclass(frozen=True)
class Feature(Generic[C]):
    name: str
    compute: Callable[[C], np.ndarray]
    doc: str = ""


class FeatureRegistry:
    """An ordered set of features (one ranker's inputs)."""

    def __init__(self, title: str) -> None:
        self.title = title
        self._features: dict[str, Feature] = {}

    def add(self, name: str, compute: Callable, doc: str = "") -> None:
        if name in self._features:
            raise ValueError(f"{self.title}: feature {name!r} is declared twice")
        self._features[name] = Feature(name, compute, doc)

    def feature(self, name: str, doc: str = "") -> Callable[[Callable], Callable]:
        """Decorator form of ``add``."""

        def register(compute: Callable) -> Callable:
            self.add(name, compute, doc)
            return compute

        return register

    def get(self, name: str) -> Feature:
        try:
            return self._features[name]
        except KeyError:
            raise KeyError(f"{self.title}: no feature {name!r}") from None

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._features)

    def index(self, name: str) -> int:
        return self.names.index(name)

    def matrix(self, columns: Columns, rows: int) -> np.ndarray:
        """(rows, features) float32, columns in registration order."""
        if rows == 0:
            return np.zeros((0, len(self._features)), dtype=np.float32)
        return np.stack([columns.column(name) for name in self._features], axis=1).astype(np.float32)
