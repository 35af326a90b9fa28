"""BM25 indexes in bm25s's format and arithmetic, built from token ids with numpy, scored without numba.

bm25s (``BM25(method="lucene")``, float32 scores) counts term and document frequencies with a Python loop per
token; on a large repository that is seconds per index, and an update would have to turn every carried row back
into strings first. ``bm25_from_ids`` computes the same per-(document, term) scores with the same float operations
in a few vectorized passes. ``Bm25Index`` saves and loads bm25s's files (indexes written by either read the same)
and scores a query as bm25s does, the sum of each query term's column in the query's order, without importing
bm25s (which imports numba, then compiles its scorer on the first query of a process). The vocabulary's order
differs from bm25s's (which follows a set), which changes no score.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

import numpy as np

from codeqa.searchfiles.corpus import Ragged

EMPTY_DOCUMENT = "\u2205"  # bm25s needs at least one token per document


class Bm25Index:
    """A BM25 score matrix (CSC: one column per term) and its vocabulary, as bm25s keeps them."""

    FILES = ("data.csc.index.npy", "indices.csc.index.npy", "indptr.csc.index.npy")

    def __init__(self, data: np.ndarray, indices: np.ndarray, indptr: np.ndarray, num_docs: int,
                 vocab: dict[str, int], k1: float, b: float) -> None:  # fmt: skip
        self.data, self.indices, self.indptr, self.num_docs = data, indices, indptr, num_docs
        self.vocab_dict, self.k1, self.b = vocab, k1, b

    def get_scores(self, tokens: Sequence[str]) -> np.ndarray:
        """Every document's score for ``tokens`` (terms not in the vocabulary add nothing)."""
        scores = np.zeros(self.num_docs, dtype=np.float32)
        for term in (self.vocab_dict[token] for token in tokens if token in self.vocab_dict):
            start, end = self.indptr[term], self.indptr[term + 1]
            np.add.at(scores, self.indices[start:end], self.data[start:end])  # bm25s's own accumulation, in order
        return scores

    def save(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        for name, array in zip(self.FILES, (self.data, self.indices, self.indptr), strict=True):
            np.save(directory / name, array)
        (directory / "vocab.index.json").write_text(json.dumps(self.vocab_dict, ensure_ascii=False), "utf-8")
        params = {"k1": self.k1, "b": self.b, "delta": 0.5, "method": "lucene", "idf_method": "lucene",
                  "dtype": "float32", "int_dtype": "int32", "num_docs": self.num_docs, "backend": "numpy"}  # fmt: skip
        (directory / "params.index.json").write_text(json.dumps(params, indent=4))

    @classmethod
    def load(cls, directory: Path, *, mmap: bool = False) -> Bm25Index:
        """``OSError``/``ValueError`` when the files are missing or damaged."""
        mode: Literal["r"] | None = "r" if mmap else None
        data, indices, indptr = (np.load(directory / name, mmap_mode=mode) for name in cls.FILES)
        vocab = json.loads((directory / "vocab.index.json").read_text("utf-8"))
        params = json.loads((directory / "params.index.json").read_text())
        if params.get("method", "lucene") != "lucene" or not isinstance(vocab, dict):
            raise ValueError(f"not a lucene BM25 index: {directory}")
        return cls(data, indices, indptr, int(params["num_docs"]), vocab, float(params["k1"]), float(params["b"]))


def bm25_from_ids(documents: Ragged, vocab: Sequence[str], *, k1: float, b: float) -> Bm25Index:
    """The index over ``documents`` (token ids into ``vocab``) that ``bm25s.BM25.index`` builds from the strings."""
    lengths = np.diff(documents.offsets)
    flat = documents.flat.astype(np.int64)
    used = np.zeros(len(vocab) + 1, dtype=bool)
    used[flat] = True
    empty = lengths == 0
    if empty.any():  # an empty document holds the one token EMPTY_DOCUMENT instead
        used[len(vocab)] = True
        flat, lengths = _fill_empty(flat, lengths, len(vocab))
    wanted = np.flatnonzero(used)
    local = np.full(len(vocab) + 1, -1, dtype=np.int64)
    local[wanted] = np.arange(len(wanted))
    terms = local[flat]
    words = [vocab[i] if i < len(vocab) else EMPTY_DOCUMENT for i in wanted.tolist()]
    n_docs, n_terms = len(lengths), len(words)

    doc_of = np.repeat(np.arange(n_docs, dtype=np.int64), lengths)
    pairs, tf = np.unique(doc_of * max(n_terms, 1) + terms, return_counts=True)
    pair_doc, pair_term = pairs // max(n_terms, 1), pairs % max(n_terms, 1)
    df = np.bincount(pair_term, minlength=n_terms)
    counts, position = np.unique(df, return_inverse=True)  # few distinct frequencies: math.log once for each
    idf = np.array([math.log(1 + (n_docs - f + 0.5) / (f + 0.5)) for f in counts.tolist()], dtype=np.float32)[position]
    avg_doc_len = np.array(lengths.tolist()).mean()
    tf_array = tf.astype(np.float32)
    l_d = lengths[pair_doc]
    tfc = tf_array / (k1 * ((1 - b) + b * l_d / avg_doc_len) + tf_array)  # bm25s's _score_tfc_robertson
    scores = np.empty(len(pairs), dtype=np.float32)
    scores[:] = idf[pair_term] * tfc

    # bm25s's CSC layout: columns by term, rows (documents) ascending within a column
    order = np.argsort((pair_term.astype(np.int64) << 32) | pair_doc.astype(np.int64), kind="stable")
    indptr = np.zeros(n_terms + 1, dtype=np.int64)
    np.cumsum(np.bincount(pair_term, minlength=n_terms), out=indptr[1:])
    vocab_dict = {word: i for i, word in enumerate(words)}
    if "" not in vocab_dict:  # bm25s adds an empty token to every vocabulary it builds
        vocab_dict[""] = len(vocab_dict)
    data = scores[order]
    return Bm25Index(data, pair_doc.astype(np.int32)[order], indptr, n_docs, vocab_dict, k1, b)


def _fill_empty(flat: np.ndarray, lengths: np.ndarray, token: int) -> tuple[np.ndarray, np.ndarray]:
    """Give each empty document the single token ``token``."""
    new_lengths = np.where(lengths == 0, 1, lengths)
    out = np.empty(int(new_lengths.sum()), dtype=np.int64)
    starts = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(new_lengths, out=starts[1:])
    fill = np.ones(len(out), dtype=bool)
    fill[starts[:-1][lengths == 0]] = False
    out[fill] = flat
    out[~fill] = token
    return out, new_lengths
