"""Indexing wall beside the store's floor, in one process run: `python bench/store_floor.py TREE [--name NAME]`.

1. Index TREE with codeqa into a throw-away data dir (the embedding model is loaded first, untimed): wall time,
   seconds per stage, peak RSS.
2. Read back the rows it stored, exactly as stored (ids, vectors, documents, metadata).
3. Add the same rows, in the pipeline's batch size, to a collection of a fresh ``chromadb.PersistentClient`` in
   another throw-away folder: the floor, what Chroma alone needs for these rows on this machine right now.
The ratio wall / floor is what to compare between runs (both are measured under the same load).
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

import chromadb
from chromadb.config import Settings as ChromaSettings

from codeqa.config import Settings
from codeqa.embed import get_embedder
from codeqa.index import Index

BATCH = 2000  # the pipeline's batch size for Chroma adds


def peak_rss_mb() -> float:
    """This process's peak plus the index worker's (a large write chunks and embeds in a forked worker)."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return (own + resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024


def index_tree(tree: str, settings: Settings, name: str):
    built = Index.build(tree, settings, name=name)
    return built.report, built.manifest.collection


def stored_rows(settings: Settings, collection_name: str) -> dict[str, list]:
    from codeqa.store.chroma import get_client

    collection = get_client(settings).get_collection(collection_name)
    rows: dict[str, list] = {"ids": [], "embeddings": [], "documents": [], "metadatas": []}
    total = collection.count()
    for offset in range(0, total, BATCH):
        got = collection.get(include=["embeddings", "documents", "metadatas"], limit=BATCH, offset=offset)
        for key in rows:
            rows[key].extend(list(got[key]))
    return rows


def raw_add(rows: dict[str, list], folder: Path) -> float:
    client = chromadb.PersistentClient(path=str(folder), settings=ChromaSettings(anonymized_telemetry=False))
    collection = client.create_collection("floor", configuration={"hnsw": {"space": "cosine"}})
    started = time.perf_counter()
    for start in range(0, len(rows["ids"]), BATCH):
        end = start + BATCH
        collection.add(
            ids=rows["ids"][start:end],
            embeddings=rows["embeddings"][start:end],
            documents=rows["documents"][start:end],
            metadatas=rows["metadatas"][start:end],
        )
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tree")
    parser.add_argument("--name", default="floor-bench")
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="codeqa-floor-"))
    try:
        settings = Settings(home=base / "home")
        get_embedder(settings)
        started = time.perf_counter()
        report, collection = index_tree(args.tree, settings, args.name)
        wall = time.perf_counter() - started
        rss = peak_rss_mb()
        rows = stored_rows(settings, collection)
        floor = raw_add(rows, base / "floor")
        result = {
            "tree": args.tree,
            "files": report.files,
            "lines": report.lines,
            "chunks": report.chunks,
            "index_wall_s": round(wall, 2),
            "stages_s": report.timings,
            "peak_rss_mb": round(rss, 1),
            "raw_chroma_add_s": round(floor, 2),
            "wall_over_floor": round(wall / floor, 2),
        }
        print(json.dumps(result))
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
