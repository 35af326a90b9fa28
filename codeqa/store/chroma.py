"""Every Chroma call codeqa makes: one collection per index, and a registry of manifests.

A registry collection maps an index name to its manifest; the manifest names the Chroma collection that holds the
chunks and the generation of the search files that describe them. When and what to write is ``codeqa.index``'s
business (a build fills a new collection, an update changes rows of the live one); this module only does it.
Nothing outside this module touches a Chroma object: the rest of codeqa gets ``Manifest``s, ``Chunk``s and numpy
vectors.
"""

from __future__ import annotations

import contextlib
import gc
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar
from urllib.parse import urlparse

import numpy as np

from codeqa.config import Settings
from codeqa.errors import CodeqaError, IndexNotFoundError, StoreError
from codeqa.records import Chunk
from codeqa.store import chroma_files
from codeqa.store.chroma_rows import RefuseToEmbed, chunk_from_record, chunk_metadata
from codeqa.store.manifest import NAME_RE, Manifest

REGISTRY = "codeqa-registry"
COLLECTION_PREFIX = "cq-"
READ_BATCH = 2000
T = TypeVar("T")


_CLIENTS: dict[str, Any] = {}
_IDENTITY: dict[str, tuple[int, int] | None] = {}  # which database file each embedded client opened
_CLIENTS_LOCK = threading.Lock()
_GENERATION = [0]  # bumped when this process's clients are dropped: every Store reconnects on its next call


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
    with chroma_files.opening(settings):
        chroma_files.ready(settings)  # one line naming the file when it is damaged; a new store is prepared
        try:
            return chromadb.PersistentClient(path=str(settings.chroma_dir), settings=chroma_settings)
        except Exception as exc:
            raise chroma_files.failure(settings, exc) from exc


def forget_client(settings: Settings) -> None:
    """Close this process's Chroma clients and the vector files they hold open (a full disk; `codeqa repair`)."""
    with _CLIENTS_LOCK:  # clearing Chroma's system cache below stops every client of this process anyway
        _CLIENTS.clear()
        _IDENTITY.clear()
        _GENERATION[0] += 1
    with contextlib.suppress(Exception):
        from chromadb.api.shared_system_client import SharedSystemClient

        SharedSystemClient.clear_system_cache()
        gc.collect()  # the Rust side closes its files when its objects are freed


def get_client(settings: Settings) -> Any:
    """One Chroma client per location and process (Chroma itself expects that)."""
    key = settings.chroma_url or str(settings.chroma_dir)
    if not settings.chroma_url and key in _IDENTITY and _IDENTITY[key] != chroma_files.identity(settings):
        forget_client(settings)  # another process (`codeqa repair`) replaced the store's files: reopen them
    with _CLIENTS_LOCK:
        if key not in _CLIENTS:
            _CLIENTS[key] = _make_client(settings)
            _IDENTITY[key] = None if settings.chroma_url else chroma_files.identity(settings)
        return _CLIENTS[key]


class Store:
    """Index registry and chunk collections on top of one Chroma client."""

    def __init__(self, settings: Settings, client: Any | None = None):
        self.settings = settings
        self._given = client
        self._connect()

    def _connect(self) -> None:
        self._generation = _GENERATION[0]
        self._client = self._given if self._given is not None else get_client(self.settings)
        self._registry = self._open_registry()
        self._collections: dict[str, Any] = {}  # collection objects by name (each lookup is a request on a server)

    def _current(self) -> None:
        if self._generation != _GENERATION[0] and self._given is None:
            self._connect()

    def reopen(self) -> None:
        """Close and reopen the store (Chroma keeps the files of a dropped collection open until then)."""
        self._client = self._registry = None
        self._collections = {}
        forget_client(self.settings)
        self._current()

    def _open_registry(self) -> Any:
        """The registry collection; two processes creating it at once can collide, so retry briefly."""
        for attempt in range(5):
            try:
                return self._client.get_or_create_collection(
                    REGISTRY, embedding_function=RefuseToEmbed(), configuration={"hnsw": {"space": "cosine"}}
                )
            except Exception as exc:
                if attempt == 4:
                    raise chroma_files.failure(self.settings, exc) from exc
                time.sleep(0.2 * (attempt + 1))
        raise AssertionError("unreachable")

    def _guard(self, action: Callable[[], T]) -> T:
        """Run a registry or collection call; anything unexpected becomes one actionable ``StoreError``."""
        self._current()
        try:
            return action()
        except CodeqaError:
            raise
        except Exception as exc:
            raise chroma_files.failure(self.settings, exc) from exc

    # -- registry ----------------------------------------------------------------------------
    def list_manifests(self) -> list[Manifest]:
        records = self._guard(lambda: self._registry.get(include=["documents"]))
        manifests = [self._guard(lambda doc=doc: Manifest.from_json(doc)) for doc in records["documents"] or []]  # type: ignore[misc]
        return sorted(manifests, key=lambda m: m.name)

    def get_manifest(self, name: str) -> Manifest:
        found = NAME_RE.match(name) and self._guard(lambda: self._registry.get(ids=[name], include=["documents"]))
        if not found or not found["ids"]:  # a name no index can have is not looked up (the store would choke on it)
            known = ", ".join(m.name for m in self.list_manifests()) or "none yet"
            raise IndexNotFoundError(f"No index named {name!r} (indexes: {known}). Create it with `codeqa index`.")
        return self._guard(lambda: Manifest.from_json(found["documents"][0]))

    def exists(self, name: str) -> bool:
        found = NAME_RE.match(name) and self._guard(lambda: self._registry.get(ids=[name], include=[]))
        return bool(found and found["ids"])

    # -- writing -----------------------------------------------------------------------------
    def new_collection(self, name: str, collection_name: str | None = None) -> str:
        """A fresh, empty collection for a new build of index ``name`` (``codeqa repair`` reuses a name)."""
        collection_name = collection_name or f"{COLLECTION_PREFIX}{name}-{uuid.uuid4().hex[:10]}"
        self._guard(
            lambda: self._client.create_collection(
                collection_name,
                embedding_function=RefuseToEmbed(),
                configuration={"hnsw": {"space": "cosine"}},
                metadata={"codeqa_index": name, "codeqa_state": "building", "created_at": time.time()},
            )
        )
        return collection_name

    def add_chunks(self, collection_name: str, chunks: Sequence[Chunk], vectors: np.ndarray) -> None:
        rows = [chunk.id for chunk in chunks], [chunk.text for chunk in chunks], [chunk_metadata(c) for c in chunks]
        self.add_rows(collection_name, *rows, vectors)

    def add_rows(self, collection_name: str, ids: Sequence[str], documents: Sequence[str],
                 metadatas: Sequence[dict[str, Any]], vectors: np.ndarray) -> None:  # fmt: skip
        """Add rows as ``chunk_rows`` makes them (ids, texts, metadata) with their vectors (never a NaN: Chroma's
        index fails on one, and every later search would rank it at random)."""
        finite = np.isfinite(np.asarray(vectors, dtype=np.float32)).all(axis=1) if len(ids) else np.ones(0, bool)
        if not finite.all():
            raise StoreError(
                f"Refused to store {int((~finite).sum())} vector(s) that are not finite (NaN or infinity), the first "
                f"for chunk {ids[int(np.argmin(finite))]}: the embedding cache or a search file is damaged. "
                "Nothing of this write is kept; run `codeqa repair`, then index again."
            )
        collection = self._collection(collection_name)
        limit = max(1, min(self._client.get_max_batch_size(), 2000))
        for start in range(0, len(ids), limit):
            end = start + limit
            collection.add(ids=list(ids[start:end]), embeddings=vectors[start:end],
                           documents=list(documents[start:end]), metadatas=list(metadatas[start:end]))  # fmt: skip

    def delete_chunks(self, collection_name: str, ids: Sequence[str]) -> None:
        """Delete these rows from a collection (ids it does not hold are ignored)."""
        collection = self._collection(collection_name)
        ids = list(ids)
        limit = max(1, min(self._client.get_max_batch_size(), 2000))
        for start in range(0, len(ids), limit):
            self._guard(lambda batch=ids[start : start + limit]: collection.delete(ids=batch))  # type: ignore[misc]

    def commit(self, manifest: Manifest) -> Manifest | None:
        """Make ``manifest`` (its collection and generation) the live index for ``manifest.name``; returns the
        manifest it replaced (the caller drops what that one no longer shares with the new one)."""
        previous = self.get_manifest(manifest.name) if self.exists(manifest.name) else None
        self._guard(
            lambda: self._registry.upsert(
                ids=[manifest.name],
                embeddings=[[1.0]],
                documents=[manifest.to_json()],
                metadatas=[{"collection": manifest.collection}],
            )
        )
        return previous

    def unregister(self, name: str) -> None:
        """Take index ``name`` out of the registry (its collection is then an orphan, dropped by the caller)."""
        self._guard(lambda: self._registry.delete(ids=[name]))

    def drop_collection(self, collection_name: str) -> bool:
        """Delete a collection: its vector folders first, then the collection itself (on a full disk, the space of
        the folders is what the deletion needs). False when it could not be deleted."""
        self._current()
        self._collections.pop(collection_name, None)
        with contextlib.suppress(Exception):
            if not self.settings.chroma_url:
                collection_id = self._client.get_collection(collection_name, embedding_function=RefuseToEmbed()).id
                chroma_files.drop_vector_folders(self.settings, str(collection_id))
        with contextlib.suppress(Exception):  # already gone, or the store cannot write right now
            self._client.delete_collection(collection_name)
        if not self.settings.chroma_url:
            chroma_files.reclaim(self.settings)  # folders Chroma leaves behind, and free pages
        try:
            return all(collection.name != collection_name for collection in self._client.list_collections())
        except Exception:
            return False

    def reclaim(self, *, merge: bool = True) -> None:
        """Give back the space of deleted rows (the embedded store; a server looks after its own files)."""
        if not self.settings.chroma_url:
            chroma_files.reclaim(self.settings, merge=merge)

    def orphan_collections(self, name: str | None = None) -> list[str]:
        """Collections left behind by interrupted runs (for ``name``, or all), not referenced by a manifest."""
        live = {m.collection for m in self.list_manifests()}
        orphans = []
        for collection in self._guard(self._client.list_collections):
            owner = (collection.metadata or {}).get("codeqa_index")
            ours = name is None or owner == name
            if collection.name.startswith(COLLECTION_PREFIX) and collection.name not in live and ours:
                orphans.append(collection.name)
        return orphans

    # -- reading -----------------------------------------------------------------------------
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

    def records(self, manifest: Manifest, ids: Sequence[str]) -> tuple[list[Chunk], np.ndarray]:
        """The chunks with these ids and their stored vectors, in the given order (missing ids are an error)."""
        include = ["documents", "metadatas", "embeddings"]
        got = self._read(manifest, lambda c: c.get(ids=list(ids), include=include))
        rows = {i: n for n, i in enumerate(got["ids"])}
        if len(rows) != len(set(ids)):
            raise StoreError(f"Index {manifest.name!r} lost {len(set(ids)) - len(rows)} chunk(s); re-index it.")
        order = [rows[i] for i in ids]
        chunks = [chunk_from_record(got["documents"][n], got["metadatas"][n]) for n in order]
        return chunks, np.asarray(got["embeddings"], dtype=np.float32)[order]

    def iter_records(
        self, manifest: Manifest, *, vectors: bool = True, batch: int = READ_BATCH
    ) -> Iterator[tuple[list[str], list[Chunk], np.ndarray | None]]:
        """Every stored chunk, in batches: ``(ids, chunks, vectors or None)``."""
        include = ["documents", "metadatas", *(["embeddings"] if vectors else [])]
        total = self.count(manifest)
        for offset in range(0, total, batch):
            records = self._read(
                manifest,
                lambda c, o=offset: c.get(include=include, limit=batch, offset=o),  # type: ignore[misc]
            )
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
        self._current()
        if collection_name not in self._collections:
            self._collections[collection_name] = self._client.get_collection(
                collection_name, embedding_function=RefuseToEmbed()
            )
        return self._collections[collection_name]
