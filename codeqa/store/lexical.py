"""Lexical retrieval: BM25 (in bm25s's format and arithmetic, ``bm25.py``) over code-aware tokens.

Identifiers are kept whole *and* split (``getUserName`` → ``getusername``, ``get``, ``user``, ``name``), so a
question in plain words and a question that names a symbol both find it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np
import Stemmer

from codeqa.store.bm25 import Bm25Index, bm25_from_ids
from codeqa.symbols import IDENTIFIER, identifier_words

STOPWORDS = frozenset(
    """
    a an and are as at be but by for from has have how i if in into is it its of on or so that the
    their then there these this to was were what when where which who why will with would does do
    did can could should not no yes you your we our they them he she me my self cls def return
    import none true false null let var const new elif else pass end fn func function public private
    protected static void int str bool string
    """.split()  # noqa: SIM905 - a word list reads better as text
)
PARAMS_FILE = "codeqa-lexical.json"
LEXICAL_VERSION = 2
_STEMMER = Stemmer.Stemmer("english")
_PLAIN_STOPWORDS = frozenset(  # Lucene's English stopword list
    ["a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it", "no", "not", "of",
     "on", "or", "such", "that", "the", "their", "then", "there", "these", "they", "this", "to", "was", "will", "with"]
)  # fmt: skip


@lru_cache(maxsize=200_000)
def _light_stem(word: str) -> str:
    """English stemming (Snowball) so 'loaded'/'load' and 'retries'/'retry' meet; identifiers stay whole too."""
    return _STEMMER.stemWord(word)


def code_tokens(text: str) -> list[str]:
    """Lower-cased tokens of ``text``: whole identifiers plus their camelCase/snake_case parts, light-stemmed."""
    return tokens_of_words(IDENTIFIER.findall(text))


def tokens_of_words(words: Iterable[str]) -> list[str]:
    """``code_tokens`` of a text whose identifiers (``IDENTIFIER.findall``) are ``words``: the tokenizer of indexing,
    which finds a chunk's identifiers once for its tokens and its references."""
    tokens: list[str] = []
    for word in words:
        tokens.extend(_WORD_TOKENS.get(word) or _word_tokens(word))
    return tokens


_WORD_TOKENS: dict[str, tuple[str, ...]] = {}  # identifiers repeat: each is split and stemmed once per process
_WORD_TOKENS_MAX = 500_000


def _word_tokens(word: str) -> tuple[str, ...]:
    lower = word.lower()
    parts = identifier_words(word)
    tokens: list[str] = []
    if len(parts) > 1 or (parts and parts[0] != lower.strip("_")):
        if len(lower) > 2 and lower not in STOPWORDS:
            tokens.append(lower.strip("_"))
        for part in parts:
            if len(part) > 1 and part not in STOPWORDS:
                tokens.append(_light_stem(part))
    elif len(lower) > 1 and lower not in STOPWORDS:
        tokens.append(_light_stem(lower.strip("_")))
    if len(_WORD_TOKENS) >= _WORD_TOKENS_MAX:
        _WORD_TOKENS.clear()
    result = _WORD_TOKENS[word] = tuple(tokens)
    return result


_WORD = re.compile(r"(?u)\b\w\w+\b")


def plain_tokens(text: str) -> list[str]:
    """Plain BM25 tokenization (words of 2+ characters, English stopwords out, Snowball stems), identifiers whole.

    The classic file-level BM25 that issue-localization work uses as its baseline; beside ``code_tokens`` it is a
    second, differently biased lexical signal.
    """
    return [_light_stem(word) for word in _WORD.findall(text.lower()) if word not in _PLAIN_STOPWORDS]


def path_tokens(path: str) -> list[str]:
    """Tokens of a file path: directories and file stem, split like identifiers."""
    return code_tokens(re.sub(r"[/\\.\-]", " ", path))


class LexicalIndex:
    """A BM25 index over chunks (or files), addressed by position (the chunk table's row order)."""

    def __init__(self, index: Bm25Index, size: int):
        self._index = index
        self.size = size
        self._vocab = index.vocab_dict

    @classmethod
    def build(cls, documents: Iterable[Sequence[str]], *, k1: float = 1.2, b: float = 0.75) -> LexicalIndex:
        """From each document's tokens (the index writer builds from token ids: ``bm25_from_ids``)."""
        from codeqa.store.corpus import RaggedBuilder

        vocab: dict[str, int] = {}
        docs = RaggedBuilder()
        for tokens in documents:
            docs.append([vocab.setdefault(token, len(vocab)) for token in tokens])
        built = docs.build()
        return cls(bm25_from_ids(built, list(vocab), k1=k1, b=b), len(built))

    def save(self, directory: Path) -> None:
        self._index.save(directory)
        (directory / PARAMS_FILE).write_text(json.dumps({"version": LEXICAL_VERSION, "size": self.size}))

    @classmethod
    def load(cls, directory: Path) -> LexicalIndex | None:
        """The saved index (its arrays mapped, not read), or None when it is missing or from another version (the
        caller rebuilds it)."""
        try:
            params = json.loads((directory / PARAMS_FILE).read_text())
            if params.get("version") != LEXICAL_VERSION:
                return None
            index = Bm25Index.load(directory, mmap=True)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None
        return cls(index, int(params["size"]))

    def vocabulary(self) -> list[str]:
        """Every token of the index (identifiers whole and split, stemmed parts)."""
        return list(self._vocab)

    def scores(self, query_tokens: Sequence[str], mask: np.ndarray | None = None) -> np.ndarray:
        """BM25 score of every document (0 where ``mask`` is False or nothing matches)."""
        known = [token for token in dict.fromkeys(query_tokens) if token in self._vocab]
        if not known:
            return np.zeros(self.size, dtype=np.float32)
        scores = np.asarray(self._index.get_scores(known), dtype=np.float32)
        if mask is not None:
            scores = np.where(mask, scores, 0.0)
        return scores

    def presence(self, tokens: Sequence[str], documents: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Which of ``documents`` contain each token ((documents, tokens) bool), and each token's document count."""
        documents = np.asarray(documents, dtype=np.int64)
        found = np.zeros((len(documents), len(tokens)), dtype=bool)
        counts = np.zeros(len(tokens), dtype=np.float32)
        indptr, indices = self._index.indptr, self._index.indices
        for column, token in enumerate(tokens):
            token_id = self._vocab.get(token)
            if token_id is None:
                continue
            holders = indices[indptr[token_id] : indptr[token_id + 1]]  # sorted document numbers
            counts[column] = len(holders)
            if len(holders):
                at = np.minimum(np.searchsorted(holders, documents), len(holders) - 1)
                found[:, column] = holders[at] == documents
        return found, counts

    def rarest(self, tokens: Sequence[str], n: int) -> list[str]:
        """The ``n`` tokens held by the fewest documents (unknown tokens last), in their original order."""
        if len(tokens) <= n:
            return list(tokens)
        indptr = self._index.indptr
        held = [indptr[i + 1] - indptr[i] if (i := self._vocab.get(t)) is not None else self.size + 1 for t in tokens]
        keep = set(np.argsort(held, kind="stable")[:n].tolist())
        return [token for position, token in enumerate(tokens) if position in keep]
