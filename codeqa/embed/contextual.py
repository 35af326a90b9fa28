"""The contextual encoder: a small transformer that reads the question and a file's text (the retrieve stage's
contextual step, ``codeqa.retrieve.contextual``), unlike the static model that only averages word vectors.

``contextual_model`` names it: ``packaged`` (the packaged all-MiniLM-L6-v2, 128 tokens) or a folder holding a
compact encoder cut from it (``contextual.json`` + ``layers.safetensors``: the first K layers, their weights in
fp16, without the word embeddings, which come from the packaged model). One encoder per setting and process. A
missing package or a broken folder is reported once (a warning) and the stage is skipped: retrieval still works.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from codeqa.config import PACKAGED_MODEL, Settings
from codeqa.errors import EmbeddingError

log = logging.getLogger(__name__)

PACKAGED = "packaged"
CONFIG_FILE = "contextual.json"
WEIGHTS_FILE = "layers.safetensors"
PACKAGED_TOKENS = 128
MAY_BE_MISSING = {"embeddings.word_embeddings.weight"}  # shared with the packaged model, not saved in a folder


@dataclass(frozen=True)
class EncoderSpec:
    """What ``contextual.json`` says about a compact encoder."""

    base: str
    layers: int
    max_tokens: int
    pooling: str
    normalize: bool
    revision: str

    @classmethod
    def read(cls, folder: Path) -> EncoderSpec:
        try:
            raw = json.loads((folder / CONFIG_FILE).read_text())
            spec = cls(
                base=str(raw["base"]),
                layers=int(raw["layers"]),
                max_tokens=int(raw["max_tokens"]),
                pooling=str(raw.get("pooling", "mean")),
                normalize=bool(raw.get("normalize", True)),
                revision=str(raw.get("revision", "")),
            )
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise EmbeddingError(f"{folder / CONFIG_FILE} is missing or not valid: {exc}") from exc
        if spec.base != PACKAGED_MODEL:
            raise EmbeddingError(f"{folder / CONFIG_FILE}: base must be {PACKAGED_MODEL!r}, got {spec.base!r}")
        if spec.pooling != "mean" or not 1 <= spec.layers <= 6 or not 8 <= spec.max_tokens <= 512:
            raise EmbeddingError(f"{folder / CONFIG_FILE}: needs mean pooling, 1–6 layers and 8–512 tokens")
        return spec


class ContextualEncoder:
    """A sentence-transformers bi-encoder: texts → L2-normalized float32 vectors."""

    def __init__(self, model: Any, model_id: str):
        self._model = model
        self.model_id = model_id
        self.dimension = int(model.get_embedding_dimension())
        self._lock = threading.Lock()  # torch models are not safe to call from two threads at once

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        with self._lock:
            vectors = self._model.encode(list(texts), batch_size=16, normalize_embeddings=True, show_progress_bar=False)
        return np.asarray(vectors, dtype=np.float32)


def _packaged_model() -> Any:
    from sentence_transformers import SentenceTransformer

    from codeqa.embed.embedders import _quiet_transformers, _resolve_model_path

    _quiet_transformers()
    return SentenceTransformer(_resolve_model_path(PACKAGED_MODEL), device="cpu", local_files_only=True)


def _cut(model: Any, folder: Path, spec: EncoderSpec) -> None:
    """Keep the first ``spec.layers`` layers of the packaged model and load the folder's weights into them."""
    import torch
    from safetensors.torch import load_file

    try:
        state = {name: tensor.to(torch.float32) for name, tensor in load_file(str(folder / WEIGHTS_FILE)).items()}
    except Exception as exc:
        raise EmbeddingError(f"{folder / WEIGHTS_FILE} cannot be read ({exc.__class__.__name__}: {exc})") from exc
    bert = model[0].auto_model
    bert.encoder.layer = bert.encoder.layer[: spec.layers]
    bert.config.num_hidden_layers = spec.layers
    try:
        result = bert.load_state_dict(state, strict=False)
    except RuntimeError as exc:  # a tensor of another shape
        raise EmbeddingError(f"{folder / WEIGHTS_FILE} does not fit a {spec.layers}-layer MiniLM: {exc}") from exc
    missing = set(result.missing_keys) - MAY_BE_MISSING
    if missing or result.unexpected_keys:
        raise EmbeddingError(
            f"{folder / WEIGHTS_FILE} does not fit a {spec.layers}-layer MiniLM: "
            f"missing {sorted(missing)[:3]}, unexpected {sorted(result.unexpected_keys)[:3]}"
        )


def build_encoder(name: str) -> ContextualEncoder:
    """The encoder ``name`` names (``packaged`` or a folder); ``EmbeddingError`` saying what is wrong."""
    if name == PACKAGED:
        model = _packaged_model()
        model.max_seq_length = PACKAGED_TOKENS
        return ContextualEncoder(model, f"{PACKAGED_MODEL}@{PACKAGED_TOKENS}")
    folder = Path(name).expanduser()
    if not folder.is_dir():
        raise EmbeddingError(f"contextual_model {name!r} is neither 'packaged' nor a folder")
    spec = EncoderSpec.read(folder)
    model = _packaged_model()
    _cut(model, folder, spec)
    model.max_seq_length = spec.max_tokens
    return ContextualEncoder(model, f"{folder.name}:{spec.revision}:{spec.layers}x{spec.max_tokens}")


_ENCODERS: dict[str, ContextualEncoder | None] = {}
_LOCK = threading.Lock()


def load_contextual_encoder(settings: Settings) -> ContextualEncoder | None:
    """The configured encoder, loaded once per process; None (after one warning) when it cannot be loaded."""
    name = settings.contextual_model
    with _LOCK:
        if name not in _ENCODERS:
            try:
                _ENCODERS[name] = build_encoder(name)
            except (EmbeddingError, ImportError, OSError) as exc:
                log.warning(
                    "The contextual stage is skipped: %s. Set CODEQA_CONTEXTUAL_MODEL=packaged, or "
                    "CODEQA_CONTEXTUAL_STAGE=false to turn the stage off.",
                    exc,
                )
                _ENCODERS[name] = None
        return _ENCODERS[name]
