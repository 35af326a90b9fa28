"""BM25 indexes built from token ids with numpy: the index bm25s builds from token strings, without its Python loops.

bm25s (``BM25(method="lucene")``, float32 scores) counts term and document frequencies with a Python loop per
token; on a large repository that is seconds per index, and an update would have to turn every carried row back
into strings first. This computes the same per-(document, term) scores with the same float operations, in a few
vectorized passes, and hands them to a ``bm25s.BM25`` object, so saving, loading and querying stay bm25s's own.
The vocabulary's order differs from bm25s's (which follows a set), which changes no score: a document's score is
the sum of its entries for the query's terms, in the query's order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from codeqa.store.corpus import Ragged

EMPTY_DOCUMENT = "\u2205"  # bm25s needs at least one token per document


def bm25_from_ids(documents: Ragged, vocab: Sequence[str], *, k1: float, b: float):
    """A ``bm25s.BM25`` over ``documents`` (token ids into ``vocab``), scoring like ``BM25.index`` on the strings."""
    import bm25s

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
    idf = np.array([math.log(1 + (n_docs - f + 0.5) / (f + 0.5)) for f in df.tolist()], dtype=np.float32)
    avg_doc_len = np.array(lengths.tolist()).mean()
    tf_array = tf.astype(np.float32)
    l_d = lengths[pair_doc]
    tfc = tf_array / (k1 * ((1 - b) + b * l_d / avg_doc_len) + tf_array)  # bm25s's _score_tfc_robertson
    scores = np.empty(len(pairs), dtype=np.float32)
    scores[:] = idf[pair_term] * tfc

    retriever = bm25s.BM25(k1=k1, b=b)
    data, indices, indptr = retriever._np_csc(
        data=scores, rows=pair_doc.astype(np.int32), cols=pair_term.astype(np.int32), shape=(n_docs, n_terms)
    )
    retriever.scores = {"data": data.astype(np.float32), "indices": indices, "indptr": indptr, "num_docs": n_docs}
    vocab_dict = {word: i for i, word in enumerate(words)}
    if "" not in vocab_dict:  # bm25s adds an empty token to every vocabulary it builds
        vocab_dict[""] = max(vocab_dict.values(), default=-1) + 1
    retriever.vocab_dict = vocab_dict
    retriever.unique_token_ids_set = set(vocab_dict.values())
    retriever.nonoccurrence_array = None
    return retriever


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
