"""The static model tokenizes word by word through a cache, and that changes no vector: the same floats, bit for bit,
as model2vec computes for the prepared text — on real code, on long texts it cuts and truncates, and on the Unicode,
control characters and special tokens a tokenizer treats specially."""

from __future__ import annotations

import random

import numpy as np
from model2vec import StaticModel

from codeqa.config import Settings
from codeqa.embed import PACKAGED_STATIC, StaticEmbedder, split_identifiers
from tests.sample_repo import SAMPLE_FILES
from tests.test_interruptions import filler

EDGES = [
    "", " ", "\t\n", "héllo wörld naïve café", "ΣΑΣ Σ σ ς", "中文字符 测试x", "a\x0bb c\x0cd", "x\u00a0y z\u2028w",
    "e\u0301 \u0301x (\u0301", "[UNK] x[UNK]y ([PAD]) [unk]", "a" * 300, "getUserName(user_id) " * 700, "x" * 5000,
    "ﬁ ﬀ Ⅻ （）", "\x00\x01 tab\tend", "emoji 😀 ok", "İstanbul ǅ", "\r\n\r\n", "trailing  ", "a_b_c.d[0]," * 800,
]  # fmt: skip


def model2vec_reference(texts: list[str]) -> np.ndarray:
    vectors = StaticModel.from_pretrained(str(PACKAGED_STATIC)).encode([split_identifiers(t) for t in texts])
    vectors = vectors.astype(np.float32)
    return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)


def test_word_by_word_gives_model2vecs_very_vectors(settings: Settings) -> None:
    rng = random.Random(3)
    alphabet = "ab Σé中\t\n[]_(){}.,;:\u0301\u00a0XyZ0"
    noise = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 4000))) for _ in range(120)]
    texts = [*SAMPLE_FILES.values(), *(filler(i, version=i) for i in range(30)), *EDGES, *noise]
    embedder = StaticEmbedder("static:code", settings.derived_models_dir)
    assert embedder._by_word  # the packaged model's tokenizer is one that can be cached word by word
    expected = model2vec_reference(texts)
    for _ in range(2):  # a cold cache, then a warm one
        got = np.concatenate([embedder.embed_documents(texts[i : i + 64]) for i in range(0, len(texts), 64)])
        assert np.array_equal(got, expected)
