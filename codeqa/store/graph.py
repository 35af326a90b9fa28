"""The symbol graph: which chunk uses a name that another chunk defines.

Edges come from identifiers: chunk A references chunk B when A's text mentions a name B defines (a function,
class or method name; ``Class.method`` defines ``Class.method`` and ``method``). That catches calls, imports,
inheritance and type uses in every language we parse, without a resolver per language. Names defined in many
places (``get``, ``run``) are too ambiguous to be evidence and are ignored.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy import sparse

from codeqa.symbols import defined_names

GRAPH_FILE = "graph.npz"
MAX_DEFINITIONS = 4  # a name defined in more places than this is not evidence of a link
COMMON_NAMES = frozenset({"__init__", "main", "run", "get", "set", "setup", "call", "init", "new", "test", "self"})


@dataclass
class SymbolGraph:
    """Sparse chunk-to-chunk adjacency: ``matrix[a, b] > 0`` when chunk a uses a name chunk b defines."""

    matrix: sparse.csr_matrix

    @classmethod
    def build(cls, symbols: Sequence[str], references: Iterable[set[str]]) -> SymbolGraph:
        definers: dict[str, list[int]] = defaultdict(list)
        for row, symbol in enumerate(symbols):
            for name in defined_names(symbol):
                if name not in COMMON_NAMES:
                    definers[name].append(row)
        useful = {name: rows for name, rows in definers.items() if len(rows) <= MAX_DEFINITIONS}
        sources: list[int] = []
        targets: list[int] = []
        weights: list[float] = []
        for row, names in enumerate(references):
            for name in names:
                rows = useful.get(name)
                if not rows:
                    continue
                for target in rows:
                    if target != row:
                        sources.append(row)
                        targets.append(target)
                        weights.append(1.0 / len(rows))
        size = len(symbols)
        matrix = sparse.csr_matrix((weights, (sources, targets)), shape=(size, size), dtype=np.float32)
        matrix.sum_duplicates()
        return cls(matrix)

    def save(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        sparse.save_npz(directory / GRAPH_FILE, self.matrix)

    @classmethod
    def load(cls, directory: Path) -> SymbolGraph | None:
        try:
            return cls(sparse.load_npz(directory / GRAPH_FILE).tocsr())
        except (OSError, ValueError):
            return None

    def callees(self, row: int) -> list[int]:
        """Chunks whose names ``row`` uses (what it calls, imports, extends)."""
        return self.matrix.indices[self.matrix.indptr[row] : self.matrix.indptr[row + 1]].tolist()

    def callers(self, row: int) -> list[int]:
        """Chunks that use a name ``row`` defines."""
        return self.matrix.getcol(row).nonzero()[0].tolist()

    def personalized_pagerank(
        self, seeds: dict[int, float], *, alpha: float = 0.85, iterations: int = 20
    ) -> np.ndarray:
        """Scores that spread from ``seeds`` along edges both ways (uses and used-by), restarting at the seeds.

        Callers mask the result: evidence may flow through out-of-scope code, but only in-scope rows are ranked.
        """
        size = self.matrix.shape[0]
        if not seeds or size == 0:
            return np.zeros(size, dtype=np.float32)
        transition = self._transition()
        restart = np.zeros(size, dtype=np.float32)
        for row, weight in seeds.items():
            restart[row] = weight
        restart /= restart.sum()
        scores = restart.copy()
        for _ in range(iterations):
            scores = (1 - alpha) * restart + alpha * (transition @ scores)
        return scores.astype(np.float32)

    def _transition(self) -> sparse.csr_matrix:
        """Column-stochastic matrix of the undirected graph, computed once per loaded graph."""
        if getattr(self, "_transition_matrix", None) is None:
            undirected = (self.matrix + self.matrix.T).tocsr()
            degree = np.asarray(undirected.sum(axis=1)).ravel()
            degree[degree == 0] = 1.0
            self._transition_matrix = (undirected @ sparse.diags(1.0 / degree)).tocsr().astype(np.float32)
        return self._transition_matrix
