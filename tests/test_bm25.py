"""codeqa's BM25 (built from token ids with numpy, scored without numba) is bm25s's, bit for bit: the same scores
for the same documents, whichever of the two built an index, and indexes bm25s saved load as they are."""

from __future__ import annotations

import random
from pathlib import Path

import bm25s
import numpy as np
import pytest

from codeqa.searchfiles.bm25 import Bm25Index
from codeqa.searchfiles.lexical import LexicalIndex
from codeqa.tokens import code_tokens, plain_tokens
from tests.sample_repo import SAMPLE_FILES
from tests.test_interruptions import filler

TEXTS = [*SAMPLE_FILES.values(), *(filler(i, version=i % 5) for i in range(40)), "", "   ", "x"]


@pytest.mark.parametrize(("tokenize", "k1", "b"), [(code_tokens, 1.2, 0.75), (plain_tokens, 0.9, 0.4)])
def test_the_same_scores_as_bm25s(tokenize, k1: float, b: float, tmp_path: Path) -> None:
    documents = [tokenize(text) for text in TEXTS]
    reference = bm25s.BM25(k1=k1, b=b)
    reference.index([doc or ["\u2205"] for doc in documents], show_progress=False)
    reference.save(str(tmp_path / "bm25s"), show_progress=False)
    ours = LexicalIndex.build(documents, k1=k1, b=b)
    saved_by_bm25s = Bm25Index.load(tmp_path / "bm25s")
    vocabulary = sorted({token for doc in documents for token in doc})
    assert set(ours.vocabulary()) == set(reference.vocab_dict) == set(saved_by_bm25s.vocab_dict)
    rng = random.Random(7)
    for _ in range(300):
        query = list(dict.fromkeys(rng.sample(vocabulary, rng.randint(1, 8))))
        expected = np.asarray(reference.get_scores(query), dtype=np.float32)
        assert np.array_equal(ours.scores(query), expected)
        assert np.array_equal(saved_by_bm25s.get_scores(query), expected)
    assert not ours.scores(["no-such-token"]).any()


def test_an_index_saved_by_codeqa_loads_in_bm25s_and_back(tmp_path: Path) -> None:
    documents = [code_tokens(text) for text in TEXTS]
    ours = LexicalIndex.build(documents)
    ours.save(tmp_path / "ours")
    loaded = LexicalIndex.load(tmp_path / "ours")
    theirs = bm25s.BM25.load(str(tmp_path / "ours"), show_progress=False, verbosity=0)
    for query in (["password", "hash"], ["order", "subtotal", "rate"], ["discount"]):
        assert loaded is not None and np.array_equal(loaded.scores(query), ours.scores(query))
        assert np.array_equal(np.asarray(theirs.get_scores(query), dtype=np.float32), ours.scores(query))
