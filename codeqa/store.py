"""The store stage: Chroma collections, one per indexed repository, and the manifests that describe them.

A registry collection maps an index name to its manifest; the manifest names the Chroma collection that
holds the chunks. Re-indexing writes a *new* collection and switches the registry entry only when it is
complete, so an interrupted or failed index never damages the last good one.
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import threading
import time
import uuid
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any
from urllib.parse import urlparse

import numpy as np

from codeqa.config import Settings
from codeqa.errors import IncompatibleIndexError, IndexNotFoundError, QueryError, StoreError
from codeqa.records import Chunk

REGISTRY = "codeqa-registry"
COLLECTION_PREFIX = "cq-"
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$")


@dataclass
class Manifest:
    """Everything needed to trust, reopen and describe an index."""

    name: str
    source: str
    collection: str
    model: str
    dimension: int
    chunker_version: str
    codeqa_version: str
    source_kind: str = "local-dir"
    ref: str | None = None
    sha: str | None = None
    web_url: str | None = None
    subdir: str = ""
    root: str = ""
    created_at: float = field(default_factory=time.time)
    counts: dict[str, int] = field(default_factory=dict)
    languages: dict[str, int] = field(default_factory=dict)
    skipped: dict[str, int] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Manifest:
        data = json.loads(text)
        known = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in data.items() if k in known})


def validate_index_name(name: str) -> str:
    if not NAME_RE.match(name or ""):
        raise QueryError(
            f"Invalid index name {name!r}: use 1-63 letters, digits, '.', '_' or '-', starting with a letter or digit."
        )
    return name


class _RefuseToEmbed:
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
    def build_from_config(config: dict[str, Any]) -> _RefuseToEmbed:
        return _RefuseToEmbed()

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
        "kind": chunk.kind,
        "layer": chunk.layer,
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


_CLIENTS: dict[str, Any] = {}
_CLIENTS_LOCK = threading.Lock()


def _make_client(settings: Settings) -> Any:
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    chroma_settings = ChromaSettings(anonymized_telemetry=False, allow_reset=False)
    if settings.chroma_url:
        url = urlparse(settings.chroma_url)
        if url.scheme not in ("http", "https") or not url.hostname:
            raise StoreError(f"CODEQA_CHROMA_URL must look like http://host:8000, got {settings.chroma_url!r}")
        try:
            client = chromadb.HttpClient(
                host=url.hostname,
                port=url.port or (443 if url.scheme == "https" else 8000),
                ssl=url.scheme == "https",
                settings=chroma_settings,
            )
            client.heartbeat()
        except Exception as exc:
            raise StoreError(
                f"Chroma server at {settings.chroma_url} is not reachable ({exc.__class__.__name__}). "
                "Start it with `chroma run --path DIR --host 127.0.0.1 --port 8000` or unset CODEQA_CHROMA_URL "
                "to use the embedded store."
            ) from exc
        return client
    settings.chroma_dir.mkdir(parents=True, exist_ok=True)
    return chromadb.PersistentClient(path=str(settings.chroma_dir), settings=chroma_settings)


def get_client(settings: Settings) -> Any:
    """One Chroma client per location and process (Chroma itself expects that)."""
    key = settings.chroma_url or str(settings.chroma_dir)
    with _CLIENTS_LOCK:
        if key not in _CLIENTS:
            _CLIENTS[key] = _make_client(settings)
        return _CLIENTS[key]


class Store:
    """Index registry and chunk collections on top of one Chroma client."""

    def __init__(self, settings: Settings, client: Any | None = None):
        self.settings = settings
        self.client = client if client is not None else get_client(settings)
        self._registry = self._open_registry()

    def _open_registry(self) -> Any:
        """The registry collection; two processes creating it at once can collide, so retry briefly."""
        for attempt in range(5):
            try:
                return self.client.get_or_create_collection(
                    REGISTRY, embedding_function=_RefuseToEmbed(), configuration={"hnsw": {"space": "cosine"}}
                )
            except Exception as exc:
                if attempt == 4:
                    where = self.settings.chroma_url or self.settings.chroma_dir
                    raise StoreError(
                        f"Cannot open the codeqa registry in the Chroma store at {where} "
                        f"({exc.__class__.__name__}: {exc}). If the store is damaged, move it aside and re-index."
                    ) from exc
                time.sleep(0.2 * (attempt + 1))
        raise AssertionError("unreachable")

    # -- registry ----------------------------------------------------------------------------
    def list_manifests(self) -> list[Manifest]:
        records = self._registry.get(include=["documents"])
        manifests = [Manifest.from_json(doc) for doc in records["documents"] or []]
        return sorted(manifests, key=lambda m: m.name)

    def get_manifest(self, name: str) -> Manifest:
        records = self._registry.get(ids=[name], include=["documents"])
        if not records["ids"]:
            known = ", ".join(m.name for m in self.list_manifests()) or "none yet"
            raise IndexNotFoundError(f"No index named {name!r} (indexes: {known}). Create it with `codeqa index`.")
        return Manifest.from_json(records["documents"][0])

    def exists(self, name: str) -> bool:
        return bool(self._registry.get(ids=[name], include=[])["ids"])

    # -- writing -----------------------------------------------------------------------------
    def new_collection(self, name: str) -> Any:
        """A fresh, empty collection for the next generation of index ``name``."""
        collection_name = f"{COLLECTION_PREFIX}{name}-{uuid.uuid4().hex[:10]}"
        return self.client.create_collection(
            collection_name,
            embedding_function=_RefuseToEmbed(),
            configuration={"hnsw": {"space": "cosine"}},
            metadata={"codeqa_index": name, "codeqa_state": "building", "created_at": time.time()},
        )

    def add_chunks(self, collection: Any, chunks: Sequence[Chunk], vectors: np.ndarray) -> None:
        limit = max(1, min(self.client.get_max_batch_size(), 2000))
        for start in range(0, len(chunks), limit):
            batch = chunks[start : start + limit]
            collection.add(
                ids=[chunk.id for chunk in batch],
                embeddings=vectors[start : start + limit],
                documents=[chunk.text for chunk in batch],
                metadatas=[chunk_metadata(chunk) for chunk in batch],
            )

    def commit(self, manifest: Manifest) -> None:
        """Make ``manifest.collection`` the live index for ``manifest.name``, then drop the old one."""
        previous = self.get_manifest(manifest.name) if self.exists(manifest.name) else None
        self._registry.upsert(
            ids=[manifest.name],
            embeddings=[[1.0]],
            documents=[manifest.to_json()],
            metadatas=[{"collection": manifest.collection}],
        )
        if previous and previous.collection != manifest.collection:
            self.drop_collection(previous.collection)

    def drop_collection(self, collection_name: str) -> None:
        """Delete a generation: its Chroma collection and its local search files."""
        with contextlib.suppress(Exception):  # already gone: nothing to clean up
            self.client.delete_collection(collection_name)
        shutil.rmtree(self.settings.indexes_dir / collection_name, ignore_errors=True)

    def remove(self, name: str) -> Manifest:
        manifest = self.get_manifest(name)
        self._registry.delete(ids=[name])
        self.drop_collection(manifest.collection)
        return manifest

    def orphan_collections(self, name: str | None = None) -> list[str]:
        """Collections left behind by interrupted runs (for ``name``, or all), not referenced by a manifest."""
        live = {m.collection for m in self.list_manifests()}
        orphans = []
        for collection in self.client.list_collections():
            owner = (collection.metadata or {}).get("codeqa_index")
            ours = name is None or owner == name
            if collection.name.startswith(COLLECTION_PREFIX) and collection.name not in live and ours:
                orphans.append(collection.name)
        return orphans

    # -- reading -----------------------------------------------------------------------------
    def open_collection(self, manifest: Manifest, *, model: str | None = None, dimension: int | None = None) -> Any:
        if model is not None and (manifest.model != model or (dimension and manifest.dimension != dimension)):
            raise IncompatibleIndexError(
                f"Index {manifest.name!r} was built with embedding model {manifest.model!r} "
                f"({manifest.dimension} dims) but {model!r} is configured. Re-index it with "
                f"`codeqa index {manifest.source} --name {manifest.name}` "
                f"or set CODEQA_EMBEDDING_MODEL={manifest.model}."
            )
        try:
            return self.client.get_collection(manifest.collection, embedding_function=_RefuseToEmbed())
        except Exception as exc:
            raise StoreError(
                f"The data of index {manifest.name!r} is missing from the store; re-index it with "
                f"`codeqa index {manifest.source} --name {manifest.name}`."
            ) from exc
