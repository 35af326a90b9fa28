"""The corpus of a generation: every chunk's tokens as ids into one vocabulary, kept beside the search files.

The BM25 indexes (chunk and file level) and the symbol graph are built from these tokens. Keeping them lets an
update carry unchanged files' rows into the next generation without reading or tokenizing their text again: their
token ids are copied (and re-numbered into the new vocabulary), only changed files are tokenized. Per row:
- ``lexical``: the chunk's BM25 document (code tokens, then path and symbol tokens); its first ``code_len`` ids are
  the code tokens alone (what the file-level document is made of);
- ``refs``: the names the chunk mentions (edges of the symbol graph), in the order they were first collected;
- ``plain``: plain word tokens of the text (the file-level classic BM25).
"""

from __future__ import annotations

import json
import zipfile
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

CORPUS_FILE = "corpus.npz"
VOCAB_FILE = "corpus-vocab.json"


@dataclass
class Ragged:
    """Many int32 sequences in one flat array: sequence ``i`` is ``flat[offsets[i]:offsets[i + 1]]``."""

    flat: np.ndarray
    offsets: np.ndarray

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def __getitem__(self, row: int) -> np.ndarray:
        return self.flat[self.offsets[row] : self.offsets[row + 1]]

    @classmethod
    def of(cls, sequences: Sequence[np.ndarray]) -> Ragged:
        """One ``Ragged`` from int32 arrays, in order."""
        offsets = np.zeros(len(sequences) + 1, dtype=np.int64)
        np.cumsum([len(sequence) for sequence in sequences], out=offsets[1:])
        flat = np.concatenate(sequences).astype(np.int32, copy=False) if sequences else np.zeros(0, np.int32)
        return cls(flat, offsets)

    def take(self, rows: Sequence[int]) -> Ragged:
        """The sequences of ``rows``, in that order, as a new ``Ragged`` (one vectorized gather)."""
        picked = np.asarray(rows, dtype=np.int64)
        starts, ends = self.offsets[picked], self.offsets[picked + 1]
        lengths = ends - starts
        offsets = np.zeros(len(picked) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        if not len(picked) or not offsets[-1]:
            return Ragged(np.zeros(0, np.int32), offsets)
        source = np.repeat(starts - offsets[:-1], lengths) + np.arange(offsets[-1], dtype=np.int64)
        return Ragged(self.flat[source], offsets)


class RaggedBuilder:
    """Collects sequences: one at a time (fresh rows) or a ``Ragged`` block at once (carried rows)."""

    def __init__(self) -> None:
        self._flat = array("i")  # the sequences appended one at a time since the last block
        self._lengths = array("q")
        self._parts: list[tuple[np.ndarray, np.ndarray]] = []  # (flat, lengths) in order

    def append(self, ids: Iterable[int]) -> None:
        before = len(self._flat)
        self._flat.extend(ids)
        self._lengths.append(len(self._flat) - before)

    def extend(self, part: Ragged, mapping: np.ndarray) -> None:
        """Append every sequence of ``part``, its ids translated by ``mapping``."""
        self._seal()
        self._parts.append((mapping[part.flat].astype(np.int32), np.diff(part.offsets)))

    def _seal(self) -> None:
        if self._lengths:
            self._parts.append(
                (np.frombuffer(self._flat, np.int32).copy(), np.frombuffer(self._lengths, np.int64).copy())
            )
            self._flat, self._lengths = array("i"), array("q")

    def build(self) -> Ragged:
        self._seal()
        flat = np.concatenate([f for f, _ in self._parts]) if self._parts else np.zeros(0, np.int32)
        lengths = np.concatenate([n for _, n in self._parts]) if self._parts else np.zeros(0, np.int64)
        offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        return Ragged(flat.astype(np.int32, copy=False), offsets)


@dataclass
class Corpus:
    vocab: list[str]
    lexical: Ragged
    code_len: np.ndarray
    refs: Ragged
    plain: Ragged

    def __len__(self) -> int:
        return len(self.code_len)

    def save(self, directory: Path) -> None:
        np.savez(
            directory / CORPUS_FILE,
            **{
                f"{name}_{part}": getattr(getattr(self, name), part)
                for name in ("lexical", "refs", "plain")
                for part in ("flat", "offsets")
            },  # fmt: skip
            code_len=self.code_len,
        )
        (directory / VOCAB_FILE).write_text(json.dumps(self.vocab, separators=(",", ":")))

    @classmethod
    def load(cls, directory: Path) -> Corpus | None:
        """The saved corpus, or None when it is missing or damaged (an update then rebuilds the whole index)."""
        try:
            vocab = json.loads((directory / VOCAB_FILE).read_text())
            with np.load(directory / CORPUS_FILE) as data:
                parts = {key: data[key] for key in data.files}
            corpus = cls(
                vocab,
                Ragged(parts["lexical_flat"], parts["lexical_offsets"]),
                parts["code_len"],
                Ragged(parts["refs_flat"], parts["refs_offsets"]),
                Ragged(parts["plain_flat"], parts["plain_offsets"]),
            )
        except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile):
            return None
        if not isinstance(vocab, list) or not (len(corpus.lexical) == len(corpus.refs) == len(corpus.plain)):
            return None
        if len(corpus.lexical) != len(corpus.code_len):
            return None
        sequences = (corpus.lexical, corpus.refs, corpus.plain)
        return corpus if all(_well_formed(part, len(vocab)) for part in sequences) else None


def _well_formed(part: Ragged, vocabulary: int) -> bool:
    """Offsets that start at 0, never go back and end at the flat array's end; ids inside the vocabulary."""
    offsets, flat = part.offsets, part.flat
    if offsets.ndim != 1 or len(offsets) < 1 or not np.issubdtype(offsets.dtype, np.integer) or offsets[0] != 0:
        return False
    if offsets[-1] != len(flat) or np.any(np.diff(offsets) < 0) or not np.issubdtype(flat.dtype, np.integer):
        return False
    return not len(flat) or (int(flat.min()) >= 0 and int(flat.max()) < vocabulary)


class CorpusBuilder:
    """Collects rows in order: fresh ones from their tokens, carried ones from an earlier generation's corpus."""

    def __init__(self) -> None:
        self.vocab: dict[str, int] = {}
        self.lexical = RaggedBuilder()
        self.refs = RaggedBuilder()
        self.plain = RaggedBuilder()
        self._code_len = array("i")

    def ids(self, tokens: Iterable[str]) -> list[int]:
        vocab = self.vocab
        return [vocab.setdefault(token, len(vocab)) for token in tokens]

    def add(self, lexical: Sequence[str], code_len: int, refs: Iterable[str], plain: Sequence[str]) -> None:
        self.lexical.append(self.ids(lexical))
        self._code_len.append(code_len)
        self.refs.append(self.ids(refs))
        self.plain.append(self.ids(plain))

    def carry(self, corpus: Corpus, rows: Sequence[int]) -> None:
        """Append ``rows`` of an earlier generation's corpus (its ids re-numbered into this vocabulary)."""
        parts = [corpus.lexical.take(rows), corpus.refs.take(rows), corpus.plain.take(rows)]
        used = np.zeros(len(corpus.vocab), dtype=bool)
        for part in parts:
            used[part.flat] = True
        mapping = np.full(len(corpus.vocab), -1, dtype=np.int64)  # only the tokens these rows use join the vocabulary
        wanted = np.flatnonzero(used)
        mapping[wanted] = self.ids(corpus.vocab[i] for i in wanted.tolist())
        for builder, part in zip((self.lexical, self.refs, self.plain), parts, strict=True):
            builder.extend(part, mapping)
        self._code_len.extend(corpus.code_len[np.asarray(rows, dtype=np.int64)].tolist())

    def build(self) -> Corpus:
        return Corpus(
            list(self.vocab),
            self.lexical.build(),
            np.frombuffer(self._code_len, dtype=np.int32).copy(),
            self.refs.build(),
            self.plain.build(),
        )
