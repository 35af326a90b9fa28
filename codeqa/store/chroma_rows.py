"""How codeqa's records are stored in Chroma: chunk metadata, and an embedding function that never embeds.

Plain data and a protocol stub, no ``chromadb`` import: ``codeqa.store.chroma`` is the only module that calls Chroma.
"""

from __future__ import annotations

from typing import Any

from codeqa.errors import StoreError
from codeqa.records import Chunk


class RefuseToEmbed:
    """Collection embedding function that never downloads a model: we always pass vectors ourselves."""

    def __init__(self) -> None:
        pass

    def __call__(self, input: Any) -> Any:  # noqa: A002 - Chroma's protocol names it so
        raise StoreError("codeqa passes embeddings explicitly; this collection cannot embed text itself.")

    @staticmethod
    def name() -> str:
        return "codeqa-explicit"

    def get_config(self) -> dict[str, Any]:
        return {}

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> RefuseToEmbed:
        return RefuseToEmbed()

    def is_legacy(self) -> bool:
        return False

    def default_space(self) -> str:
        return "cosine"

    def supported_spaces(self) -> list[str]:
        return ["cosine"]

    def embed_query(self, input: Any) -> Any:  # noqa: A002
        return self(input)


def chunk_metadata(chunk: Chunk) -> dict[str, Any]:
    return {
        "path": chunk.path,
        "directory": chunk.directory,
        "dirs": [".", *chunk.ancestors],  # Chroma rejects empty lists; "." = repository root
        "language": chunk.language,
        "start_line": chunk.start_line,
        "end_line": chunk.end_line,
        "symbol": chunk.symbol,
        "kind": str(chunk.kind),
        "layer": str(chunk.layer),
        "hash": chunk.hash,
    }


def chunk_from_record(document: str, meta: dict[str, Any]) -> Chunk:
    return Chunk(
        path=meta["path"],
        language=meta["language"],
        start_line=int(meta["start_line"]),
        end_line=int(meta["end_line"]),
        text=document,
        symbol=meta.get("symbol", ""),
        kind=meta.get("kind", "other"),
        layer=meta.get("layer", "core"),
    )
