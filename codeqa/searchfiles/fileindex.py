"""File-level search files: one BM25 document and two vectors per file, beside the chunk-level ones.

Questions are about files as much as about chunks ("where is X?"), and a file's evidence is spread over its
chunks. So each file gets
- a BM25 document: its code tokens, its path (twice) and the names it defines (BM25F-style field weighting by
  repetition), scored with the Lucene parameters that suit whole files (k1=0.9, b=0.4);
- a *card* vector: the embedding of its path, defined names and opening lines (what the file is about);
- a *mean* vector: the normalized mean of its chunks' vectors (what it contains).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from codeqa.searchfiles.bm25 import bm25_from_ids
from codeqa.searchfiles.corpus import Corpus, Ragged
from codeqa.searchfiles.lexical import LexicalIndex
from codeqa.symbols import short_names
from codeqa.tokens import code_tokens, path_tokens, plain_tokens

FILES_FILE = "files.json"
CARD_VECTORS_FILE = "file_cards.npy"
MEAN_VECTORS_FILE = "file_means.npy"
FILE_BM25 = "files-bm25"
FILE_PLAIN_BM25 = "files-bm25-plain"
CARD_HEAD_LINES = 6
CARD_MAX_NAMES = 40


def card_text(path: str, names: Sequence[str], head: str) -> str:
    """What a file is about, as one short text: path, the names it defines, its first meaningful lines."""
    shown = " ".join(dict.fromkeys(names))[:600]
    lines = [line.strip() for line in head.split("\n") if line.strip()][:CARD_HEAD_LINES]
    return f"{path}\n{shown}\n" + "\n".join(lines)[:600]


@dataclass
class FileIndex:
    """Per-file search structures, addressed by file number (order of first appearance in the chunk table)."""

    paths: list[str]
    row_file: np.ndarray  # chunk row → file number
    lexical: LexicalIndex
    plain: LexicalIndex  # classic BM25 over "path + text" with plain word tokens
    cards: np.ndarray  # (files, dim), L2-normalized
    means: np.ndarray  # (files, dim), L2-normalized

    @property
    def first_row(self) -> np.ndarray:
        """Each file's first chunk row (where its language and path can be read)."""
        cached = getattr(self, "_first_row", None)
        if cached is None:
            cached = np.full(len(self.paths), len(self.row_file), dtype=np.int64)
            np.minimum.at(cached, self.row_file, np.arange(len(self.row_file)))
            self._first_row = cached
        return cached

    def __len__(self) -> int:
        return len(self.paths)

    def per_file_max(self, values: np.ndarray, floor: float) -> np.ndarray:
        """The largest of each file's chunk values (``floor`` for a file without chunks)."""
        values = np.asarray(values, dtype=np.float32)
        starts = self._segments()
        if starts is not None and len(values):  # chunks are grouped by file (the usual case): one vectorized pass
            out = np.full(len(self.paths), floor, dtype=np.float32)
            out[self.row_file[starts]] = np.maximum.reduceat(values, starts)
            return np.maximum(out, floor)
        out = np.full(len(self.paths), floor, dtype=np.float32)
        np.maximum.at(out, self.row_file, values)
        return out

    def _segments(self) -> np.ndarray | None:
        """Start rows of each file's run of chunks when every file's chunks are contiguous, else None (cached)."""
        if not hasattr(self, "_starts"):
            starts = (
                np.flatnonzero(np.r_[True, self.row_file[1:] != self.row_file[:-1]]) if len(self.row_file) else None
            )
            contiguous = starts is not None and len(starts) == len(set(self.row_file[starts].tolist()))
            self._starts = starts if contiguous else None
        return self._starts

    def save(self, directory: Path) -> None:
        self.lexical.save(directory / FILE_BM25)
        self.plain.save(directory / FILE_PLAIN_BM25)
        np.save(directory / CARD_VECTORS_FILE, self.cards)
        np.save(directory / MEAN_VECTORS_FILE, self.means)
        (directory / FILES_FILE).write_text(json.dumps(self.paths))

    @classmethod
    def load(cls, directory: Path, table_paths: Sequence[str]) -> FileIndex | None:
        try:
            paths = json.loads((directory / FILES_FILE).read_text())
            cards = np.load(directory / CARD_VECTORS_FILE)
            means = np.load(directory / MEAN_VECTORS_FILE)
        except (OSError, ValueError):
            return None
        lexical = LexicalIndex.load(directory / FILE_BM25)
        plain = LexicalIndex.load(directory / FILE_PLAIN_BM25)
        number = {path: i for i, path in enumerate(paths)}
        if plain is None or plain.size != len(paths):
            return None
        if lexical is None or lexical.size != len(paths) or len(cards) != len(paths) or len(means) != len(paths):
            return None
        if any(path not in number for path in table_paths):
            return None
        row_file = np.fromiter((number[path] for path in table_paths), dtype=np.int32, count=len(table_paths))
        return cls(paths, row_file, lexical, plain, cards, means)


class FileIndexBuilder:
    """Collects each file's names and opening lines (or its card, carried from an earlier generation) while chunks
    stream through the pipeline; the files' token documents are assembled from the corpus at the end."""

    def __init__(self) -> None:
        self._number: dict[str, int] = {}
        self._names: list[list[str]] = []
        self._heads: list[str | None] = []
        self._cards: dict[int, np.ndarray] = {}  # carried card vectors by file number
        self.row_file: list[int] = []

    def add(self, path: str, symbol: str, head: str | None, card: np.ndarray | None = None) -> None:
        """One chunk (in row order): ``head`` is its text (the first chunk's opening is the file's card), or
        ``card`` the file's card vector kept from an earlier generation."""
        number = self._number.get(path)
        if number is None:
            number = self._number[path] = len(self._names)
            self._names.append([])
            self._heads.append(head[:2000] if head is not None else None)
            if card is not None:
                self._cards[number] = card
        if len(self._names[number]) < CARD_MAX_NAMES:
            self._names[number].extend(short_names(symbol))
        self.row_file.append(number)

    @property
    def paths(self) -> list[str]:
        return list(self._number)

    def cards_to_embed(self) -> tuple[list[int], list[str]]:
        """The files whose card must be embedded now (every file without a carried card), and their card texts."""
        numbers = [i for i in range(len(self._names)) if i not in self._cards]
        return numbers, [card_text(self.paths[i], self._names[i], self._heads[i] or "") for i in numbers]

    def documents(self, corpus: Corpus, ids: Callable[[Iterable[str]], list[int]]) -> tuple[Ragged, Ragged]:
        """Each file's BM25 document (its chunks' code tokens, its path twice, its names) and plain document (its
        path's words, then its chunks' words), as token ids (``ids`` numbers new tokens)."""
        rows_of: list[list[int]] = [[] for _ in self._names]
        for row, number in enumerate(self.row_file):
            rows_of[number].append(row)
        lexical: list[np.ndarray] = []
        plain: list[np.ndarray] = []
        for number, path in enumerate(self.paths):
            code = [corpus.lexical[row][: corpus.code_len[row]] for row in rows_of[number]]
            words = path_tokens(path)
            extra = np.asarray(ids([*words, *words, *code_tokens(" ".join(self._names[number]))]), dtype=np.int32)
            lexical.append(np.concatenate([*code, extra]))
            head = np.asarray(ids(plain_tokens(path)), dtype=np.int32)
            plain.append(np.concatenate([head, *(corpus.plain[row] for row in rows_of[number])]))
        return Ragged.of(lexical), Ragged.of(plain)

    def build(self, corpus: Corpus, vocab: Sequence[str], documents: tuple[Ragged, Ragged],
              chunk_vectors: np.ndarray, card_vectors: np.ndarray | None) -> FileIndex:  # fmt: skip
        """The file index; ``card_vectors`` are the embedded cards of ``cards_to_embed`` (None: use the means)."""
        paths = self.paths
        lexical = LexicalIndex(bm25_from_ids(documents[0], vocab, k1=0.9, b=0.4), len(paths))
        plain = LexicalIndex(bm25_from_ids(documents[1], vocab, k1=0.9, b=0.4), len(paths))
        row_file = np.asarray(self.row_file, dtype=np.int32)
        means = np.zeros((len(paths), chunk_vectors.shape[1] if chunk_vectors.ndim == 2 else 0), dtype=np.float32)
        if len(row_file):
            np.add.at(means, row_file, np.asarray(chunk_vectors, dtype=np.float32))
        means /= np.maximum(np.linalg.norm(means, axis=1, keepdims=True), 1e-12)
        if card_vectors is None:
            return FileIndex(paths, row_file, lexical, plain, means, means)
        cards = np.zeros_like(means)
        for number, vector in self._cards.items():
            cards[number] = vector
        numbers, _ = self.cards_to_embed()
        if numbers:
            cards[numbers] = np.asarray(card_vectors, dtype=np.float32).reshape(len(numbers), -1)
        return FileIndex(paths, row_file, lexical, plain, cards, means)
