"""BM25 over code-aware tokens (``codeqa.tokens``), in bm25s' format and arithmetic (``bm25.py``)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from codeqa.searchfiles.bm25 import Bm25Index, bm25_from_ids

PARAMS_FILE = "codeqa-lexical.json"
LEXICAL_VERSION = 2


class LexicalIndex:
    """A BM25 index over chunks (or files), addressed by position (the chunk table's row order)."""

    def __init__(self, index: Bm25Index, size: int):
        self._index = index
        self.size = size
        self._vocab = index.vocab_dict

    @classmethod
    def build(cls, documents: Iterable[Sequence[str]], *, k1: float = 1.2, b: float = 0.75) -> LexicalIndex:
        """From each document's tokens (the index writer builds from token ids: ``bm25_from_ids``)."""
        from codeqa.searchfiles.corpus import RaggedBuilder

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
