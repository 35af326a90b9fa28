"""The contextual stage: the best files of today's ranking re-scored by a small transformer that reads the question
and each file's text, then fused with today's order.

Each of the first ``top`` files is read as two texts: its best chunk by the static model's cosine (``path``,
symbol, code) and its card (path and defined names; ``searchfiles.fileindex.card_text`` without the opening lines,
as the card the weights were fitted with). The fused
score is a linear function of the file's place (1/√place, log place) and the two cosines relative to the best
file's, with weights fitted on dev data by ``bench/contextual_bench.py fit`` (``contextual.json`` says which data
and what leave-one-repository-out gave). Text vectors are cached per index beside it (``TextVectors``), so only files
not seen before cost encoder time. ``contextual_stage(index)`` is None when the setting is off or the encoder cannot
be loaded: retrieval then runs as without the stage.
"""

from __future__ import annotations

import functools
import json
import os
import tempfile
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from codeqa.embed.contextual import ContextualEncoder, load_contextual_encoder
from codeqa.records import Chunk, content_hash
from codeqa.searchfiles.fileindex import card_text
from codeqa.searchfiles.files import SearchFiles

if TYPE_CHECKING:
    from codeqa.index import Index

WEIGHTS_FILE = Path(__file__).with_name("contextual.json")
CACHE_PREFIX = "contextual-"

Fetch = Callable[[Sequence[int]], dict[int, Chunk]]
TextsOf = Callable[[list[int]], list[str]]  # positions of keys → their texts


@dataclass(frozen=True)
class Fusion:
    """How the encoder's scores and today's place are combined (``contextual.json``)."""

    top: int
    place_rr: float
    log_place: float
    chunk: float
    card: float

    @classmethod
    @functools.cache
    def shipped(cls) -> Fusion:
        data = json.loads(WEIGHTS_FILE.read_text())
        weights = data["weights"]
        return cls(int(data["top"]), weights["place_rr"], weights["log_place"], weights["chunk1"], weights["card"])

    def scores(self, chunk: np.ndarray, card: np.ndarray) -> np.ndarray:
        """Fused scores of files in today's order (place 1, 2, …), from their chunk and card cosines."""
        place = np.arange(1, len(chunk) + 1, dtype=np.float64)
        return (
            self.place_rr / np.sqrt(place)
            + self.log_place * np.log(place)
            + self.chunk * (chunk - chunk.max())
            + self.card * (card - card.max())
        )


class TextVectors:
    """The encoder's vectors of file texts, by key, kept in one ``.npz`` per index and model; written atomically
    after a question added any, read back by the next process; removed with the index's folder."""

    def __init__(self, path: Path, model_id: str):
        self.path = path
        self.model_id = model_id
        self._vectors: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()
        self.encoded = 0  # texts this process encoded (the rest came from the cache)
        self._load()

    def _load(self) -> None:
        try:
            with np.load(self.path, allow_pickle=False) as data:
                if str(data["model_id"]) != self.model_id:
                    return
                self._vectors = dict(zip(data["keys"].tolist(), data["vectors"], strict=True))
        except (OSError, KeyError, ValueError):  # missing or damaged: computed again as needed
            self._vectors = {}

    def get(self, keys: Sequence[str], texts: TextsOf, encoder: ContextualEncoder) -> np.ndarray:
        """Vectors for ``keys``; ``texts(positions)`` gives the texts of the keys not cached yet."""
        with self._lock:
            todo = [i for i, key in enumerate(keys) if key not in self._vectors]
        if todo:
            fresh = encoder.encode(texts(todo))
            with self._lock:
                self._vectors.update(zip((keys[i] for i in todo), fresh.astype(np.float16), strict=True))
                self.encoded += len(todo)
                self._save()
        with self._lock:
            return np.stack([self._vectors[key] for key in keys]).astype(np.float32)

    def _save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        keys = list(self._vectors)
        handle, partial = tempfile.mkstemp(prefix=self.path.name, suffix=".partial.npz", dir=self.path.parent)
        os.close(handle)
        np.savez(
            partial,
            model_id=np.asarray(self.model_id),
            keys=np.asarray(keys, dtype=str),
            vectors=np.stack([self._vectors[key] for key in keys]).astype(np.float16),
        )
        os.replace(partial, self.path)


@dataclass
class ContextualStage:
    encoder: ContextualEncoder
    vectors: TextVectors
    fusion: Fusion

    def order(
        self, files: SearchFiles, question: str, query_vector: np.ndarray, numbers: Sequence[int], fetch: Fetch
    ) -> list[int]:
        """A new order (positions into ``numbers``, file numbers best first) of the first ``fusion.top`` files."""
        head = [int(n) for n in numbers[: self.fusion.top]]
        if len(head) < 2:
            return list(range(len(numbers)))
        table, rows_of = files.table, _file_rows(files)
        best = [_best_row(files, rows_of[n], query_vector) for n in head]
        names = [[table.symbols[r] for r in rows_of[n] if table.symbols[r]] for n in head]
        paths = [files.files.paths[n] for n in head]
        chunk_keys = [content_hash(f"chunk\0{table.ids[row]}\0{table.symbols[row]}") for row in best]
        card_keys = [content_hash(f"card\0{path}\0{' '.join(named)}") for path, named in zip(paths, names, strict=True)]

        def texts(positions: list[int]) -> list[str]:
            chunks = fetch([best[p] for p in positions if p < len(head)])
            out = []
            for p in positions:
                if p >= len(head):
                    out.append(card_text(paths[p - len(head)], names[p - len(head)], ""))
                    continue
                chunk = chunks.get(best[p])
                out.append(f"{paths[p]}\n{table.symbols[best[p]]}\n{chunk.text if chunk else ''}")
            return out

        vectors = self.vectors.get([*chunk_keys, *card_keys], texts, self.encoder)
        asked = self.encoder.encode([question])[0]
        cosine = (vectors @ asked).astype(np.float64)
        fused = self.fusion.scores(cosine[: len(head)], cosine[len(head) :])
        return [*np.argsort(-fused, kind="stable").tolist(), *range(len(head), len(numbers))]


def _file_rows(files: SearchFiles) -> list[list[int]]:
    """Each file's chunk rows; cached per loaded index."""
    cached = getattr(files, "_file_rows", None)
    if cached is None:
        cached = [[] for _ in range(len(files.files))]
        for row, number in enumerate(files.files.row_file.tolist()):
            cached[number].append(row)
        files._file_rows = cached  # type: ignore[attr-defined]
    return cached


def _best_row(files: SearchFiles, rows: list[int], query_vector: np.ndarray) -> int:
    """The file's chunk closest to the question by the static model (the first of equals)."""
    cosine = files.vectors[rows] @ query_vector
    return rows[int(np.argmax(cosine))]


_STAGES: dict[tuple[str, str], TextVectors] = {}
_STAGES_LOCK = threading.Lock()


def cache_path(index: Index, model_id: str) -> Path:
    """Where an index keeps the encoder's text vectors: beside its generations, so an update keeps them."""
    return index.shared_path(f"{CACHE_PREFIX}{content_hash(model_id)[:12]}.npz")


def contextual_stage(index: Index, *, enabled: bool | None = None) -> ContextualStage | None:
    """The stage for ``index`` when the setting (or ``enabled``) turns it on and its encoder loads; else None."""
    if not (index.settings.contextual_stage if enabled is None else enabled):
        return None
    encoder = load_contextual_encoder(index.settings)
    if encoder is None:
        return None
    path = cache_path(index, encoder.model_id)
    with _STAGES_LOCK:
        key = (str(path), encoder.model_id)
        if key not in _STAGES:
            if len(_STAGES) >= 8:
                _STAGES.pop(next(iter(_STAGES)))
            _STAGES[key] = TextVectors(path, encoder.model_id)
        vectors = _STAGES[key]
    return ContextualStage(encoder, vectors, Fusion.shipped())
