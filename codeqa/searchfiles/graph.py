"""The symbol graph: which chunk uses a name that another chunk defines.

Edges come from identifiers: chunk A references chunk B when A's text mentions a name B defines (a function,
class or method name; ``Class.method`` defines ``Class.method`` and ``method``). That catches calls, imports,
inheritance and type uses in every language we parse, without a resolver per language. Names defined in many
places (``get``, ``run``) are too ambiguous to be evidence and are ignored. A name links only within a runtime
(``languages.RUNTIMES``): Elixir's ``Logger`` is not the TypeScript class ``Logger`` of the same app's front end.
Where a file's names are resolved (``scopes``: Python and JS/TS, ``resolve.scope.NameScope``), a name links to
another file only if the file can mean it there: a name ``from m import name`` (``import {name} from './m'``,
``const {name} = require('./m')``) binds links to m only (to nothing when m is an external package), a name the
file defines itself (``login = LoginManager()``) to nothing elsewhere, any other name (an attribute, a method on an
object) only to files the file imports.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy import sparse

from codeqa.chunk.resolve.scope import NameScope
from codeqa.languages import runtime
from codeqa.symbols import defined_names, qualified_names

GRAPH_FILE = "graph.npz"
MAX_DEFINITIONS = 4  # a name defined in more places than this is not evidence of a link
COMMON_NAMES = frozenset({"__init__", "main", "run", "get", "set", "setup", "call", "init", "new", "test", "self"})


@dataclass
class SymbolGraph:
    """Sparse chunk-to-chunk adjacency: ``matrix[a, b] > 0`` when chunk a uses a name chunk b defines."""

    matrix: sparse.csr_matrix

    @classmethod
    def build(
        cls,
        symbols: Sequence[str],
        references: Iterable[Iterable[str]],
        languages: Sequence[str] | None = None,
        paths: Sequence[str] | None = None,
        scopes: Mapping[str, NameScope] | None = None,
        lines: Sequence[tuple[int, int]] | None = None,
    ) -> SymbolGraph:
        """From each chunk's symbol and the names it mentions (strings), and each chunk's language, file and lines."""
        vocab: dict[str, int] = {}
        ids = [[vocab.setdefault(name, len(vocab)) for name in names] for names in references]
        flat = np.fromiter((i for row in ids for i in row), dtype=np.int64)
        offsets = np.zeros(len(ids) + 1, dtype=np.int64)
        np.cumsum([len(row) for row in ids], out=offsets[1:])
        return cls.from_ids(symbols, flat, offsets, list(vocab), languages, paths, scopes, lines)

    @classmethod
    def from_ids(
        cls,
        symbols: Sequence[str],
        flat: np.ndarray,
        offsets: np.ndarray,
        vocab: Sequence[str],
        languages: Sequence[str] | None = None,
        paths: Sequence[str] | None = None,
        scopes: Mapping[str, NameScope] | None = None,
        lines: Sequence[tuple[int, int]] | None = None,
    ) -> SymbolGraph:
        """From each chunk's symbol and the names it mentions as ids into ``vocab`` (row ``r``'s names are
        ``flat[offsets[r]:offsets[r + 1]]``, in the order they were collected), and each chunk's language.

        A name links only to definitions its chunk's code could call: in the same runtime (``languages.runtime``),
        or in a neutral language (docs, configuration, schemas). How ambiguous a name is, is counted there too.
        A name its own file defines means that definition (``enabled?()`` in a module that has one), not the
        namesakes elsewhere. With ``scopes`` (path → how that file binds names), a link to another file is kept only
        where the file's scope reaches it (see the module docstring); ``lines`` (each chunk's first and last) let
        a name bound within a function (JS ``const { f } = module``) mean that binding there.
        """
        size = len(symbols)
        runtime_of = [runtime(language) for language in languages] if languages is not None else [None] * size
        number = {name: i for i, name in enumerate(vocab)}
        definers: dict[str | None, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
        for row, symbol in enumerate(symbols):
            for name in defined_names(symbol):
                if name not in COMMON_NAMES and name in number:
                    definers[runtime_of[row]][number[name]].append(row)
        flat = np.asarray(flat, dtype=np.int64)
        row_of = np.repeat(np.arange(size, dtype=np.int64), np.diff(offsets))
        code = {shared: i for i, shared in enumerate(dict.fromkeys(runtime_of))}
        code_of_row = np.fromiter((code[shared] for shared in runtime_of), dtype=np.int64, count=size)
        file_numbers: dict[str, int] = {}
        file_of = np.fromiter(
            (file_numbers.setdefault(path, len(file_numbers)) for path in paths) if paths is not None else range(size),
            dtype=np.int64,
            count=size,
        )
        # the pieces of one long definition (its file and its name) in a file whose scope checks the links it adds
        scoped = [paths[row] in scopes for row in range(size)] if scopes and paths is not None else [False] * size
        definitions: dict[tuple[int, str], int] = {}
        definition_of = np.fromiter(
            (definitions.setdefault((int(file_of[row]), symbol if scoped[row] else f"#{row}"), len(definitions))
             for row, symbol in enumerate(symbols)),
            dtype=np.int64,
            count=size,
        )  # fmt: skip
        parts = []
        for shared, number_of_runtime in code.items():
            # docs and configuration name code of every runtime; code calls its own runtime and neutral languages
            callable_here = list(definers.values()) if shared is None else [definers[shared], definers[None]]
            useful: dict[int, list[int]] = defaultdict(list)
            for by_name in callable_here:
                for i, rows in by_name.items():
                    useful[i].extend(rows)
            useful = {i: sorted(rows) for i, rows in useful.items() if len(rows) <= MAX_DEFINITIONS}
            here = code_of_row[row_of] == number_of_runtime
            found = _expand(row_of[here], flat[here], useful, len(vocab), file_of, definition_of)
            if scopes and paths is not None:
                found = _in_scope(found, scopes, paths, symbols, vocab, lines)
            parts.append(_weighted(*found))
        if not parts:
            return cls(sparse.csr_matrix((size, size), dtype=np.float32))
        source, target, weight = (np.concatenate([part[k] for part in parts]) for k in range(3))
        keep = source != target
        matrix = sparse.csr_matrix(
            (weight[keep].astype(np.float64), (source[keep], target[keep])), shape=(size, size), dtype=np.float32
        )
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


Edges = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # sources, targets, (row, name) pair, name


def _expand(
    rows: np.ndarray,
    names: np.ndarray,
    useful: dict[int, list[int]],
    vocab_size: int,
    file_of: np.ndarray,
    definition_of: np.ndarray,
) -> Edges:
    """Every (row, mentioned name) pair whose name has useful definers, one edge per definer; a pair whose own file
    holds another definer keeps only the definers in that file. Another piece of the row's own definition is no other
    definer: the end of a long resolver method ``updateUserSessions`` calling ``this.userService.updateUserSessions``
    means the service's method, not the resolver method's first piece alone."""
    first = np.zeros(vocab_size + 1, dtype=np.int64)
    count = np.zeros(vocab_size + 1, dtype=np.int64)
    targets_of = np.fromiter((r for i in sorted(useful) for r in useful[i]), dtype=np.int64)
    position = 0
    for i in sorted(useful):
        first[i], count[i] = position, len(useful[i])
        position += len(useful[i])
    mentions = count[names]
    sources = np.repeat(rows, mentions)
    within = np.arange(int(mentions.sum()), dtype=np.int64) - np.repeat(np.cumsum(mentions) - mentions, mentions)
    targets = targets_of[np.repeat(first[names], mentions) + within] if len(sources) else sources
    pair = np.repeat(np.arange(len(mentions), dtype=np.int64), mentions)
    local = (file_of[sources] == file_of[targets]) & (sources != targets)
    other = local & (definition_of[sources] != definition_of[targets])  # not a piece of the row's own definition
    has_local = np.bincount(pair, weights=other, minlength=len(mentions)) > 0
    keep = local | ~has_local[pair]
    return sources[keep], targets[keep], pair[keep], names[pair[keep]]


def _in_scope(
    edges: Edges,
    scopes: Mapping[str, NameScope],
    paths: Sequence[str],
    symbols: Sequence[str],
    vocab: Sequence[str],
    lines: Sequence[tuple[int, int]] | None = None,
) -> Edges:
    """The edges whose source file's scope reaches the target's definition (edges within a file, and from files
    without a scope, all stay)."""
    sources, targets, pair, names = edges
    scoped = np.fromiter((path in scopes for path in paths), dtype=bool, count=len(paths))
    keep = np.ones(len(sources), dtype=bool)
    for n in np.flatnonzero(scoped[sources]).tolist():
        here, there, name = paths[sources[n]], paths[targets[n]], vocab[names[n]]
        if here != there:
            top_level = name in qualified_names(symbols[targets[n]])  # a function or class, not a method
            span = lines[sources[n]] if lines is not None else None
            keep[n] = scopes[here].reaches(name, there, top_level=top_level, lines=span)
    return sources[keep], targets[keep], pair[keep], names[keep]


def _weighted(sources: np.ndarray, targets: np.ndarray, pair: np.ndarray, _names: np.ndarray) -> tuple:
    """Each (row, name) pair's edges weighted 1/its definers kept."""
    kept = np.bincount(pair, minlength=int(pair.max()) + 1 if len(pair) else 0)
    weights = (1.0 / kept[pair]).astype(np.float64) if len(pair) else np.zeros(0, dtype=np.float64)
    return sources, targets, weights
