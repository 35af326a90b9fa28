"""The second stage: re-rank the first stage's best ``TOP`` files with evidence the first stage does not have.

Rank 2 is where the first result is lost: behind a caller, a sibling or a hub (``__init__.py``, a package's
central module). The second stage looks at the best files side by side — which of them *defines* the names the
question uses and which only *uses* them, how each relates to the current first (does the first use it, does it
use the first), how much of the question each covers, and what the best chunks' texts say (terms close together,
terms in comments and docstrings). Its features are declared in ``STAGE2``; the first stage's score is one of
them, so with no other weight it keeps the first stage's order.

Its first ten files are then reordered by a boosted tree ensemble over the same features and the first stage's
(``trees.py``): on dev data, cross-validated by repository, the trees put the right file first more often than
the weighted sum, and reordering only the head keeps the ten files the weighted sum chose (``reorder_head``).
Weights, trees and settings: ``rerank.json`` (dev data only).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from codeqa.retrieve.evidence import QueryTerms, TextEvidence, text_evidence
from codeqa.retrieve.features import FEATURES
from codeqa.retrieve.file_signals import centrality, file_links, file_users, is_init
from codeqa.retrieve.registry import Columns, FeatureRegistry
from codeqa.retrieve.trees import TreeEnsemble
from codeqa.searchfiles.files import SearchFiles
from codeqa.symbols import IDENTIFIER
from codeqa.tokens import code_tokens

MAX_DEFINING_FILES = 20  # a name defined in more files says nothing about any one of them


@dataclass
class RerankContext(Columns):
    """The best files of one question (``numbers``, first-stage order) and what the second stage knows of them."""

    files: SearchFiles
    numbers: np.ndarray
    stage1: np.ndarray  # first-stage scores, without the secondary-role gap
    names: set[str]  # names the question mentions (lower-cased)
    query_vector: np.ndarray
    best_dense: np.ndarray  # each file's best chunk cosine
    query_tokens: frozenset[str]
    terms: QueryTerms  # the question's terms with file-level weights
    covered: np.ndarray  # (files, terms) which file contains which term
    texts: list[list[str]]  # per file: the texts of its best chunks (best first; may be empty)

    @property
    def top(self) -> int:
        return int(self.numbers[0])

    def evidence(self) -> list[list[TextEvidence]]:
        cache = self.__dict__.setdefault("_evidence", None)
        if cache is None:
            cache = [[text_evidence(text, self.terms) for text in texts] for texts in self.texts]
            self.__dict__["_evidence"] = cache
        return cache

    def best_text(self, field: str) -> np.ndarray:
        values = [max((getattr(e, field) for e in chunks), default=0.0) for chunks in self.evidence()]
        return np.asarray(values, dtype=np.float32)

    def named_files(self) -> tuple[np.ndarray, np.ndarray]:
        """Per file: share of the question's (defined somewhere) names it defines, and share it only uses."""
        cache = self.__dict__.get("_named")
        if cache is not None:
            return cache
        index = self.files.files
        names = [n for n in sorted(self.names) if IDENTIFIER.fullmatch(n)]
        defines: np.ndarray = np.zeros(len(self.numbers), dtype=np.float32)
        uses: np.ndarray = np.zeros(len(self.numbers), dtype=np.float32)
        counted = 0
        tokens, wanted = [], []
        for name in names:
            defining = {int(index.row_file[row]) for row in self.files.definers.get(name, ())}
            if not defining or len(defining) > MAX_DEFINING_FILES:
                continue
            counted += 1
            here = np.asarray([int(n) in defining for n in self.numbers], dtype=bool)
            defines += here
            tokens.append(code_tokens(name)[:1] or [name])
            wanted.append(here)
        if counted:
            found, _ = index.lexical.presence([t[0] for t in tokens], self.numbers)
            for column, here in enumerate(wanted):
                uses += found[:, column] & ~here
            defines, uses = defines / counted, uses / counted
        self.__dict__["_named"] = (defines, uses)
        return defines, uses

    def links(self) -> tuple[np.ndarray, np.ndarray]:
        """Per file: does the current first file use it (callee), does it use the first file (caller)? Computed
        once per question (five features read it)."""
        cache = self.__dict__.get("_links")
        if cache is not None:
            return cache
        top = self.top
        uses, used_by = _row(file_links(self.files), top), _row(file_users(self.files), top)
        callee = np.isin(self.numbers, uses).astype(np.float32)
        caller = np.isin(self.numbers, used_by).astype(np.float32)
        callee[0] = caller[0] = 0.0
        self.__dict__["_links"] = (callee, caller)
        return callee, caller


STAGE2 = FeatureRegistry("second stage")
RerankContext.registry = STAGE2
_add = STAGE2.add


def _row(matrix, row: int) -> np.ndarray:
    return matrix.indices[matrix.indptr[row] : matrix.indptr[row + 1]]


def _relative(values: np.ndarray) -> np.ndarray:
    best = float(values.max()) if len(values) else 0.0
    return values / best if best > 0 else np.zeros_like(values)


def _folder(path: str) -> str:
    return path.rsplit("/", 1)[0] if "/" in path else ""


def _stem_match(c: RerankContext) -> np.ndarray:
    words = _stem_words(c.files)
    out = np.zeros(len(c.numbers), dtype=np.float32)
    for i, number in enumerate(c.numbers):
        if words[int(number)]:
            out[i] = len(words[int(number)] & c.query_tokens) / len(words[int(number)])
    return out


def _stem_words(files: SearchFiles) -> list[frozenset[str]]:
    """Each file name's words (``shell_completion.py`` → shell, completion), computed once per loaded index."""
    cached = getattr(files, "_stem_words", None)
    if cached is None:
        generic = {"init", "index", "main", "mod", "lib"}
        stems = (path.rsplit("/", 1)[-1].split(".", 1)[0].replace("-", "_") for path in files.files.paths)
        cached = [frozenset(code_tokens(stem)) - generic for stem in stems]
        files._stem_words = cached  # type: ignore[attr-defined]
    return cached


def _hub(c: RerankContext) -> float:
    return max(is_init(c.files.files.paths[c.top]), float(centrality(c.files)[c.top]))


_add("stage1", lambda c: np.maximum(c.stage1 - c.stage1.max(), -20.0), "first-stage score minus the best one's")
_add("stage1_rr", lambda c: 1.0 / np.sqrt(1.0 + np.arange(len(c.numbers), dtype=np.float32)))
_add("defines_named", lambda c: c.named_files()[0], "share of the question's names the file defines")
_add("uses_named_only", lambda c: c.named_files()[1], "share it uses without defining them")
_add(
    "coverage",
    lambda c: (
        _relative(c.covered.astype(np.float32) @ np.asarray([c.terms.weights[t] for t in c.terms.terms]))
        if c.terms.terms
        else np.zeros(len(c.numbers))
    ),
    "weight of the question's terms the file contains, over the best file's",
)
_add("callee_of_first", lambda c: c.links()[0], "the first file uses a name this file defines")
_add("caller_of_first", lambda c: c.links()[1], "this file uses a name the first file defines")
_add("callee_of_hub", lambda c: c.links()[0] * _hub(c), "callee of a first file that is a hub (__init__, central)")
_add(
    "callee_dense_gap",
    lambda c: c.links()[0] * (c.best_dense - c.best_dense[0]),
    "for a callee of the first file: its best chunk's cosine minus the first's (a callee as close as its caller)",
)
_add(
    "caller_dense_gap",
    lambda c: c.links()[1] * (c.best_dense - c.best_dense[0]),
    "for a caller of the first file: its best chunk's cosine minus the first's",
)
_add(
    "sibling_of_first",
    lambda c: np.asarray(
        [i > 0 and _folder(c.files.files.paths[int(n)]) == _folder(c.files.files.paths[c.top])
         for i, n in enumerate(c.numbers)],
        dtype=np.float32,
    ),
)  # fmt: skip
_add(
    "dense_head",
    lambda c: (lambda v: v - v.max())(c.files.vectors[c.files.files.first_row[c.numbers]] @ c.query_vector),
    "cosine of the file's first chunk (its header and docstring), minus the best file's",
)
_add(
    "dense_specific",
    lambda c: (lambda best, mean: (best - mean) - (best - mean).max())(
        c.best_dense,
        c.files.files.means[c.numbers] @ c.query_vector,
    ),
    "best chunk's cosine above the file's mean vector's: one part answers, not the whole file vaguely",
)
_add("stem_match", lambda c: _stem_match(c), "share of the file name's words the question uses")
_add("proximity", lambda c: _relative(c.best_text("proximity")), "the question's terms close together in a chunk")
_add("prose_match", lambda c: _relative(c.best_text("prose")), "the question's terms in comments and docstrings")
_add("code_match", lambda c: _relative(c.best_text("code")), "the question's terms in code lines")
_add(
    "mostly_prose",
    lambda c: np.asarray([e[0].prose_share if e else 0.0 for e in c.evidence()], dtype=np.float32),
    "the best chunk is mostly comments (commented-out configuration)",
)
STAGE2_FEATURES = STAGE2.names
FIRST = "first."  # a second-stage weight on a first-stage feature
TEXT_FEATURES = ("proximity", "prose_match", "code_match", "mostly_prose")


@dataclass(frozen=True)
class Reranker:
    """Score = second-stage features · weights, plus first-stage features (``first.<name>``) re-weighed for the top
    files; the secondary-role gap is kept from the first stage. With ``trees``, the first ``tree_top`` files of that
    order are reordered by the tree ensemble (``reorder_head``)."""

    weights: dict[str, float]
    top: int = 30
    text_chunks: int = 2  # chunks per file whose text the text features read (0: no text features)
    trees: TreeEnsemble | None = None
    tree_top: int = 10
    tree_weight: float = 0.5  # the head is reordered by score + tree_weight × the trees' score

    def vector(self) -> np.ndarray:
        return np.asarray([self.weights.get(name, 0.0) for name in STAGE2_FEATURES], dtype=np.float32)

    def first_vector(self) -> np.ndarray:
        return np.asarray([self.weights.get(FIRST + name, 0.0) for name in FEATURES], dtype=np.float32)

    @property
    def features(self) -> tuple[str, ...]:
        """The features the second stage reads (second-stage names, then ``first.<name>``)."""
        linear = tuple(name for name, value in self.weights.items() if value)
        trees = self.trees.features if self.trees is not None else ()
        return tuple(dict.fromkeys([*linear, *trees]))

    @property
    def reads_text(self) -> bool:
        return self.text_chunks > 0 and any(name in TEXT_FEATURES for name in self.features)

    def score(
        self, features: np.ndarray, first_features: np.ndarray | None = None, penalty: np.ndarray | None = None
    ) -> np.ndarray:
        """The files' scores, best highest; ``penalty`` (the secondary-role gap) is subtracted before the trees
        reorder the head, so a penalized file stays behind the others."""
        features = np.asarray(features, dtype=np.float32)
        scores = features @ self.vector()
        if first_features is not None and any(name.startswith(FIRST) for name in self.weights):
            scores = scores + np.asarray(first_features, dtype=np.float32) @ self.first_vector()
        if penalty is not None:
            scores = scores - penalty
        if self.trees is None or not len(scores):
            return scores
        trees = self.trees.predict(tree_matrix(self.trees.features, features, first_features))
        return reorder_head(scores, scores + self.tree_weight * trees, self.tree_top)


def reorder_head(scores: np.ndarray, tree_scores: np.ndarray, top: int) -> np.ndarray:
    """``scores`` with their best ``top`` files put in the order of ``tree_scores`` (the weighted sum plus the
    trees'): the k-th of them in that order gets the k-th best score, so the file probabilities the chunk ranker
    reads keep the linear model's scale.

    On dev data the trees put the right file first more often than the weighted sum, but they also push right files
    from ranks 6-10 past the tenth (Acc@10 −1.2 points over 1,767 questions); reordering only the head keeps the
    first ten files the weighted sum chose (bench/README.md, #17).
    """
    scores = np.asarray(scores, dtype=np.float64)
    head = np.argsort(-scores, kind="stable")[:top]
    reordered = head[np.argsort(-np.asarray(tree_scores, dtype=np.float64)[head], kind="stable")]
    out = scores.copy()
    out[reordered] = scores[head]  # head is in descending score order
    return out


def tree_matrix(names: tuple[str, ...], features: np.ndarray, first_features: np.ndarray | None) -> np.ndarray:
    """The columns ``names`` of the second-stage features and (``first.<name>``) of the first-stage ones."""
    columns = []
    for name in names:
        if name.startswith(FIRST):
            if first_features is None:
                raise ValueError(f"the second stage reads {name} but was given no first-stage features")
            columns.append(np.asarray(first_features, dtype=np.float32)[:, FEATURES.index(name[len(FIRST) :])])
        else:
            columns.append(features[:, STAGE2_FEATURES.index(name)])
    return np.stack(columns, axis=1) if columns else np.zeros((len(features), 0), dtype=np.float32)
