"""The static model's tokenizer, word by word through a cache: embedding costs a lookup per word it has seen before.

A static model's vector is the mean of its tokens' vectors, so all the work is tokenizing, and code repeats its
words endlessly. The model's tokenizer (BERT's: normalize, split on whitespace and punctuation, word pieces) never
looks across whitespace, so a text's ids are its whitespace-separated words' ids in order: each distinct word is
tokenized once (in batches, by the model's own tokenizer), then a text's ids are concatenated from the cache,
truncated where the tokenizer truncates, and unknown-token ids dropped as model2vec does. The ids, and so the
vectors, are the very ones ``StaticModel.tokenize`` gives.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

_WHITESPACE = re.compile(r"[ \t\n\r]+")  # whitespace to BERT's normalizer and pre-tokenizer alike
MAX_WORDS = 1_000_000


class CachedTokenizer:
    """A drop-in ``tokenize`` for a model2vec ``StaticModel`` with a BERT word-piece tokenizer."""

    def __init__(self, model: Any) -> None:
        self._model = model
        self._ids: dict[str, tuple[int, ...]] = {}

    @staticmethod
    def fits(model: Any) -> bool:
        """Only a tokenizer that never looks across whitespace can be cached word by word: BERT's normalizer and
        pre-tokenizer, word pieces, and special tokens that do not swallow the whitespace beside them."""
        import json

        try:
            spec = json.loads(model.tokenizer.to_str())
        except (AttributeError, ValueError):
            return False
        kinds = ((spec.get("normalizer") or {}).get("type"), (spec.get("pre_tokenizer") or {}).get("type"))
        model_type = (spec.get("model") or {}).get("type")
        added = spec.get("added_tokens") or []
        strips = any(token.get("lstrip") or token.get("rstrip") or " " in token.get("content", "") for token in added)
        return kinds == ("BertNormalizer", "BertPreTokenizer") and model_type == "WordPiece" and not strips

    def __call__(self, sentences: Sequence[str]) -> list[list[int]]:
        tokenizer = self._model.tokenizer
        truncation = tokenizer.truncation
        limit = truncation["max_length"] if truncation else None
        texts = [_WHITESPACE.split(sentence) for sentence in sentences]
        cache = self._ids
        unknown = list({word for words in texts for word in words if word and word not in cache})
        if unknown:
            if len(cache) + len(unknown) > MAX_WORDS:
                cache.clear()
                unknown = list({word for words in texts for word in words if word})
            for word, encoding in zip(unknown, tokenizer.encode_batch_fast(unknown, add_special_tokens=False),
                                      strict=True):  # fmt: skip
                cache[word] = tuple(encoding.ids)
        unk = self._model.unk_token_id
        out: list[list[int]] = []
        for words in texts:
            ids: list[int] = []
            for word in words:
                if word:
                    ids.extend(cache[word])
                    if limit is not None and len(ids) >= limit:
                        break
            if limit is not None:
                del ids[limit:]
            if unk is not None:
                ids = [i for i in ids if i != unk]
            out.append(ids)
        return out
