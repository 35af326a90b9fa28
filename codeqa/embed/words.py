"""The static model's tokenizer, word by word through a cache: embedding costs a lookup per word it has seen before.

A static model's vector is the mean of its tokens' vectors, so all the work is preparing and tokenizing the text,
and code repeats its words endlessly. What the model is given is ``prepare(text)`` (identifiers split into words)
cut at ``max_length × median_token_length`` characters; its tokenizer (BERT's: normalize, split at whitespace and
punctuation, word pieces) never looks across whitespace, and neither does ``prepare``. So a text's ids are its
whitespace-separated words' ids, in order: each distinct raw word is prepared and tokenized once (in batches, by the
model's own tokenizer, piece by piece: it splits at every ASCII punctuation mark too) and cached with its prepared
length; a text's ids are concatenated from the cache, cut where
the characters run out (the one word across the cut is tokenized as cut), truncated at ``max_length`` tokens, and
unknown-token ids dropped as model2vec does. The ids, and so the vectors, are the very ones model2vec computes for
``prepare(text)``: install with ``encode(texts, max_length=None)`` so model2vec neither cuts nor truncates itself.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from itertools import chain
from operator import itemgetter
from typing import Any

_WORD = re.compile(r"[^ \t\n\r]+")  # whitespace to BERT's normalizer and pre-tokenizer alike is [ \t\n\r]
_SPACED_WORD = re.compile(r"([ \t\n\r]*)([^ \t\n\r]+)")
_ASCII_PUNCTUATION = re.escape(
    "".join(chr(c) for c in [*range(33, 48), *range(58, 65), *range(91, 97), *range(123, 127)])
)
_PIECE = re.compile(rf"[{_ASCII_PUNCTUATION}]|[^ {_ASCII_PUNCTUATION}]+")  # prepared words hold spaces, no other ws
MAX_WORDS = 1_000_000
_IDS, _LENGTH = itemgetter(1), itemgetter(0)


class WordTokenizer:
    """A drop-in ``tokenize`` for a model2vec ``StaticModel`` with a BERT word-piece tokenizer, given raw texts."""

    def __init__(self, model: Any, prepare: Callable[[str], str]) -> None:
        self._model = model
        self._prepare = prepare
        self._words: dict[str, tuple[int, tuple[int, ...]]] = {}  # raw word → (length prepared, ids)
        self._pieces: dict[str, tuple[int, ...]] = {}  # piece of a prepared word → ids
        spec = json.loads(model.tokenizer.to_str())
        self._special = [token["content"] for token in spec.get("added_tokens") or [] if token.get("content")]

    @staticmethod
    def fits(model: Any) -> bool:
        """Only a tokenizer that never looks across whitespace can be cached word by word: BERT's normalizer and
        pre-tokenizer, word pieces, and special tokens that do not swallow the whitespace beside them."""
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
        model = self._model
        limit = model.max_length
        chars = limit * model.median_token_length if limit is not None else None
        texts = [_WORD.findall(sentence) for sentence in sentences]
        self._learn(set(chain.from_iterable(texts)))
        lookup, unk = self._words.__getitem__, model.unk_token_id
        out: list[list[int]] = []
        for sentence, words in zip(sentences, texts, strict=True):
            entries = list(map(lookup, words))
            spaces = len(sentence) - sum(map(len, words))  # whitespace is kept as it is by ``prepare``
            if chars is not None and sum(map(_LENGTH, entries)) + spaces > chars:
                ids = self._cut(sentence, chars, limit)
            else:
                ids = list(chain.from_iterable(map(_IDS, entries)))
            if limit is not None:
                del ids[limit:]
            if unk is not None and unk in ids:
                ids = [i for i in ids if i != unk]
            out.append(ids)
        return out

    def _learn(self, words: set[str]) -> None:
        """Prepare the words not in the cache and tokenize them, piece by piece: BERT's pre-tokenizer also splits at
        each ASCII punctuation mark, so code's many distinct words (``x.shape[0],``) share few distinct pieces."""
        unknown = [word for word in words if word not in self._words]
        if not unknown:
            return
        if len(self._words) + len(unknown) > MAX_WORDS:
            self._words.clear()
            self._pieces.clear()
            unknown = list(words)
        prepared = [self._prepare(word) for word in unknown]
        split = [self._split(text) for text in prepared]
        fresh = {piece for pieces in split for piece in pieces if piece not in self._pieces}
        if fresh:
            ordered = list(fresh)
            self._pieces.update(zip(ordered, self._ids(ordered), strict=True))
        pieces = self._pieces
        for word, text, parts in zip(unknown, prepared, split, strict=True):
            self._words[word] = (len(text), tuple(chain.from_iterable(pieces[part] for part in parts)))

    def _split(self, prepared: str) -> list[str]:
        """The pieces the tokenizer's pre-tokenizer is sure to split ``prepared`` into (the whole of it when it holds
        a special token's text, which the tokenizer matches before it splits)."""
        if any(token in prepared for token in self._special):
            return [prepared]
        return _PIECE.findall(prepared)

    def _cut(self, sentence: str, chars: int, limit: int | None) -> list[int]:
        """The ids of ``prepare(sentence)[:chars]``, word by word (the word across the cut tokenized as cut)."""
        ids: list[int] = []
        position = 0
        for match in _SPACED_WORD.finditer(sentence):
            position += len(match.group(1))
            if position >= chars or (limit is not None and len(ids) >= limit):
                break
            length, word_ids = self._words[match.group(2)]
            if position + length > chars:
                ids.extend(self._ids([self._prepare(match.group(2))[: chars - position]])[0])
                break
            ids.extend(word_ids)
            position += length
        return ids

    def _ids(self, texts: list[str]) -> list[tuple[int, ...]]:
        encodings = self._model.tokenizer.encode_batch_fast(texts, add_special_tokens=False)
        return [tuple(encoding.ids) for encoding in encodings]
