"""Every Chroma call codeqa makes: one collection per index generation, and a registry of manifests.

A registry collection maps an index name to its manifest; the manifest names the Chroma collection that
holds the chunks. Re-indexing writes a *new* collection and switches the registry entry only when it is
complete, so an interrupted or failed index never damages the last good one. Nothing outside this module
touches a Chroma object: the rest of codeqa gets ``Manifest``s, ``Chunk``s and numpy vectors.
"""

from __future__ import annotations

import contextlib
import shutil
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar
from urllib.parse import urlparse

import numpy as np

from codeqa.config import Settings
from codeqa.errors import IncompatibleIndexError, IndexNotFoundError, StoreError
from codeqa.locks import index_lock
from codeqa.records import Chunk
from codeqa.store.layout import index_dir
from codeqa.store.manifest import Manifest

REGISTRY = "codeqa-registry"
COLLECTION_PREFIX = "cq-"
READ_BATCH = 2000
T = TypeVar("T")


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
        self._client = client if client is not None else get_client(settings)
        self._registry = self._open_registry()
        self._collections: dict[str, Any] = {}  # collection objects by name (each lookup is a request on a server)

    def _open_registry(self) -> Any:
        """The registry collection; two processes creating it at once can collide, so retry briefly."""
        for attempt in range(5):
            try:
                return self._client.get_or_create_collection(
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
    def new_generation(self, name: str) -> str:
        """A fresh, empty collection for the next generation of index ``name``; returns its collection name."""
        collection_name = f"{COLLECTION_PREFIX}{name}-{uuid.uuid4().hex[:10]}"
        self._client.create_collection(
            collection_name,
            embedding_function=_RefuseToEmbed(),
            configuration={"hnsw": {"space": "cosine"}},
            metadata={"codeqa_index": name, "codeqa_state": "building", "created_at": time.time()},
        )
        return collection_name

    def add_chunks(self, collection_name: str, chunks: Sequence[Chunk], vectors: np.ndarray) -> None:
        collection = self._collection(collection_name)
        limit = max(1, min(self._client.get_max_batch_size(), 2000))
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
        self._collections.pop(collection_name, None)
        with contextlib.suppress(Exception):  # already gone: nothing to clean up
            self._client.delete_collection(collection_name)
        shutil.rmtree(index_dir(self.settings, collection_name), ignore_errors=True)

    def remove(self, name: str) -> Manifest:
        """Delete index ``name``; refused while another process builds it (its commit would bring it back)."""
        with index_lock(self.settings.home_dir / "locks", name):
            manifest = self.get_manifest(name)
            self._registry.delete(ids=[name])
            self.drop_collection(manifest.collection)
        return manifest

    def orphan_collections(self, name: str | None = None) -> list[str]:
        """Collections left behind by interrupted runs (for ``name``, or all), not referenced by a manifest."""
        live = {m.collection for m in self.list_manifests()}
        orphans = []
        for collection in self._client.list_collections():
            owner = (collection.metadata or {}).get("codeqa_index")
            ours = name is None or owner == name
            if collection.name.startswith(COLLECTION_PREFIX) and collection.name not in live and ours:
                orphans.append(collection.name)
        return orphans

    # -- reading -----------------------------------------------------------------------------
    def check_model(self, manifest: Manifest, model: str, dimension: int | None = None) -> None:
        """Refuse to query an index with an embedding model other than the one that built it."""
        if manifest.model != model or (dimension and manifest.dimension != dimension):
            raise IncompatibleIndexError(
                f"Index {manifest.name!r} was built with embedding model {manifest.model!r} "
                f"({manifest.dimension} dims) but {model!r} is configured. Re-index it with "
                f"`codeqa index {manifest.source} --name {manifest.name}` "
                f"or set CODEQA_EMBEDDING_MODEL={manifest.model}."
            )

    def count(self, manifest: Manifest) -> int:
        """How many chunks the index's collection holds."""
        return int(self._read(manifest, lambda collection: collection.count()))

    def chunks(self, manifest: Manifest, ids: Sequence[str] | None = None) -> list[Chunk]:
        """The chunks with these ids in the given order (missing ids skipped), or every chunk when ``ids`` is None."""
        if ids is None:
            return [chunk for _, batch, _ in self.iter_records(manifest, vectors=False) for chunk in batch]
        if not ids:
            return []
        records = self._read(manifest, lambda c: c.get(ids=list(ids), include=["documents", "metadatas"]))
        found = {
            chunk_id: chunk_from_record(doc, meta)
            for chunk_id, doc, meta in zip(
                records["ids"], records.get("documents") or [], records.get("metadatas") or [], strict=False
            )
        }
        return [found[i] for i in ids if i in found]

    def iter_records(
        self, manifest: Manifest, *, vectors: bool = True, batch: int = READ_BATCH
    ) -> Iterator[tuple[list[str], list[Chunk], np.ndarray | None]]:
        """Every stored chunk, in batches: ``(ids, chunks, vectors or None)``."""
        include = ["documents", "metadatas", *(["embeddings"] if vectors else [])]
        total = self.count(manifest)
        for offset in range(0, total, batch):
            records = self._read(manifest, lambda c, o=offset: c.get(include=include, limit=batch, offset=o))
            chunks = [
                chunk_from_record(doc, meta)
                for doc, meta in zip(records["documents"], records["metadatas"], strict=True)
            ]
            embeddings = np.asarray(records["embeddings"], dtype=np.float32) if vectors else None
            yield list(records["ids"]), chunks, embeddings

    def _read(self, manifest: Manifest, action: Callable[[Any], T]) -> T:
        """Run ``action`` on the index's collection; a missing or vanished collection is a clear ``StoreError``."""
        try:
            return action(self._collection(manifest.collection))
        except Exception as exc:
            self._collections.pop(manifest.collection, None)
            raise StoreError(
                f"The data of index {manifest.name!r} is missing from the store; re-index it with "
                f"`codeqa index {manifest.source} --name {manifest.name}`."
            ) from exc

    def _collection(self, collection_name: str) -> Any:
        if collection_name not in self._collections:
            self._collections[collection_name] = self._client.get_collection(
                collection_name, embedding_function=_RefuseToEmbed()
            )
        return self._collections[collection_name]
