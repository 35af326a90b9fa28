"""Hybrid retrieval: dense (Chroma) + lexical (BM25) + exact symbol/path matches + the symbol graph.

Each signal ranks chunks; ranks are fused with weighted reciprocal-rank fusion (robust to the signals'
different score scales), then the symbol graph spreads evidence from the best hits to the code they use
and are used by. The same filter mask applies to every signal, so a scoped question never leaks.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from codeqa.config import Settings
from codeqa.embed import Embedder, get_embedder
from codeqa.errors import QueryError, StoreError
from codeqa.graph import SymbolGraph, defined_names, referenced_names
from codeqa.lexical import LexicalIndex, code_tokens, path_tokens
from codeqa.records import Chunk, Hit
from codeqa.store import Manifest, Store, chunk_from_record
from codeqa.table import ChunkTable

VECTORS_FILE = "vectors.npy"
RRF_K = 60
CANDIDATES = 100


@dataclass(frozen=True)
class Weights:
    """How much each signal counts in the fusion, chosen on both public evaluation sets (bench/README.md).

    Graph evidence is off by default: on the public sets it raised issue-style localization by two
    instances but cost three on the newcomer questions. The graph still powers ``neighbors`` and the
    extractive answer's relations; ``codeqa eval --weights graph=0.3`` reproduces the comparison.
    """

    dense: float = 1.0
    lexical: float = 1.0
    symbol: float = 1.0
    graph: float = 0.0
    doc_penalty: float = 0.25  # docs (markdown, rst, changelogs) only win when code does not answer
    test_penalty: float = 0.6  # tests describe behaviour twice; the implementation is usually wanted
    # A file's score is its best chunk plus this share of each further chunk's score. Short "where/how"
    # questions are about a place, so evidence spread over a file counts; long issue-style reports name
    # specifics, and summing there favours big hub files over the one the report is about.
    file_bonus: float = 0.2
    file_bonus_long: float = 0.05
    long_query_words: float = 60

    @classmethod
    def parse(cls, text: str) -> Weights:
        """``"graph=0.2,doc_penalty=0.3"`` → Weights with those fields changed (for ``codeqa eval --weights``)."""
        values: dict[str, float] = {}
        for part in filter(None, (p.strip() for p in text.split(","))):
            key, _, value = part.partition("=")
            if key.strip() not in cls.__dataclass_fields__:
                raise QueryError(f"Unknown weight {key!r}; known: {', '.join(cls.__dataclass_fields__)}.")
            try:
                values[key.strip()] = float(value)
            except ValueError:
                raise QueryError(f"Weight {key!r} needs a number, got {value!r}.") from None
        return cls(**values)


@dataclass
class FileHit:
    path: str
    score: float
    hits: list[Hit] = field(default_factory=list)


@dataclass
class Retrieval:
    hits: list[Hit]
    files: list[FileHit]


# -- artifacts built at index time -------------------------------------------------------------


def artifacts_dir(settings: Settings, manifest: Manifest) -> Path:
    return settings.indexes_dir / manifest.collection


def lexical_document(chunk: Chunk) -> list[str]:
    return code_tokens(chunk.text) + path_tokens(chunk.path) + code_tokens(chunk.symbol) * 2


class ArtifactBuilder:
    """Collects what lexical search and the graph need while chunks stream through the index pipeline."""

    def __init__(self) -> None:
        self.table = ChunkTable()
        self._documents: list[list[str]] = []
        self._references: list[set[str]] = []
        self._vectors: list[np.ndarray] = []

    def add(self, chunks: Sequence[Chunk], vectors: np.ndarray) -> None:
        self.table.append(chunks)
        self._vectors.append(np.asarray(vectors, dtype=np.float32))
        for chunk in chunks:
            self._documents.append([_intern(t) for t in lexical_document(chunk)])
            self._references.append(referenced_names(chunk.text))

    def finish(self, directory: Path) -> None:
        LexicalIndex.build(self._documents).save(directory / "bm25")
        SymbolGraph.build(self.table.symbols, self._references).save(directory)
        dimension = self._vectors[0].shape[1] if self._vectors else 0
        vectors = np.concatenate(self._vectors) if self._vectors else np.zeros((0, dimension), np.float32)
        np.save(directory / VECTORS_FILE, vectors)
        self.table.save(directory)  # written last: its presence marks the artifacts complete


_INTERNED: dict[str, str] = {}


def _intern(token: str) -> str:
    return _INTERNED.setdefault(token, token)


@dataclass
class Artifacts:
    table: ChunkTable
    lexical: LexicalIndex
    graph: SymbolGraph
    vectors: np.ndarray  # row-aligned with the table, L2-normalized
    definers: dict[str, list[int]]
    rows_by_basename: dict[str, list[int]]  # lower-cased file name → rows, for questions that name a file


_CACHE: OrderedDict[str, Artifacts] = OrderedDict()
_CACHE_LOCK = threading.Lock()


def load_artifacts(settings: Settings, manifest: Manifest, store: Store) -> Artifacts:
    """The index's table, BM25 index and graph; rebuilt from Chroma when missing (e.g. a shared server)."""
    key = manifest.collection
    with _CACHE_LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
    directory = artifacts_dir(settings, manifest)
    loaded = _load_files(directory)
    if loaded is None:
        _rebuild_from_store(store, manifest, directory)
        loaded = _load_files(directory)
        if loaded is None:
            raise StoreError(f"Could not rebuild the search files of index {manifest.name!r} in {directory}.")
    table, lexical, graph, vectors = loaded
    definers: dict[str, list[int]] = {}
    for row, symbol in enumerate(table.symbols):
        for name in defined_names(symbol):
            definers.setdefault(name.lower(), []).append(row)
    rows_by_basename: dict[str, list[int]] = {}
    for row, path in enumerate(table.paths):
        rows_by_basename.setdefault(path.rsplit("/", 1)[-1].lower(), []).append(row)
    artifacts = Artifacts(table, lexical, graph, vectors, definers, rows_by_basename)
    with _CACHE_LOCK:
        _CACHE[key] = artifacts
        while len(_CACHE) > 8:
            _CACHE.popitem(last=False)
    return artifacts


def _load_files(directory: Path) -> tuple[ChunkTable, LexicalIndex, SymbolGraph, np.ndarray] | None:
    table = ChunkTable.load(directory)
    if table is None:
        return None
    lexical = LexicalIndex.load(directory / "bm25")
    graph = SymbolGraph.load(directory)
    try:
        vectors = np.load(directory / VECTORS_FILE, mmap_mode="r")
    except (OSError, ValueError):
        return None
    if lexical is None or graph is None or lexical.size != len(table) or vectors.shape[0] != len(table):
        return None
    return table, lexical, graph, vectors


def _rebuild_from_store(store: Store, manifest: Manifest, directory: Path) -> None:
    collection = store.open_collection(manifest)
    builder = ArtifactBuilder()
    total = collection.count()
    for offset in range(0, total, 2000):
        batch = collection.get(include=["documents", "metadatas", "embeddings"], limit=2000, offset=offset)
        chunks = [
            chunk_from_record(doc, meta) for doc, meta in zip(batch["documents"], batch["metadatas"], strict=True)
        ]
        builder.add(chunks, np.asarray(batch["embeddings"], dtype=np.float32))
    builder.finish(directory)


# -- query understanding -----------------------------------------------------------------------

CODE_LIKE = re.compile(
    r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+"  # dotted: module.func, obj.attr
    r"|[A-Za-z_]\w*(?=\()"  # call: name(
    r"|[A-Za-z]\w*_\w+|_\w+"  # snake_case / _private
    r"|[a-z]+[A-Z]\w*|[A-Z][a-z0-9]+[A-Z]\w*"  # camelCase / PascalCase
    r"|`[^`\n]{2,60}`"  # inline code
)
FILE_LIKE = re.compile(
    r"[\w./-]+\.(?:py|js|jsx|ts|tsx|rb|go|java|rs|c|h|cc|cpp|hpp|cs|php|kt|swift|scala|md|rst|yaml|yml|toml|json)\b"
)


def query_identifiers(query: str) -> tuple[set[str], set[str]]:
    """Names (lower-cased, each dotted part too) and file names a question mentions."""
    names: set[str] = set()
    for raw in CODE_LIKE.findall(query):
        raw = raw.strip("`").strip()
        for part in re.split(r"[.\s()]+", raw):
            if len(part) > 2:
                names.add(part.lower())
        names.add(raw.lower())
    files = {match.lower().lstrip("./") for match in FILE_LIKE.findall(query)}
    return names, files


# -- retrieval ---------------------------------------------------------------------------------


def _ranks(order: Sequence[int]) -> dict[int, int]:
    return {row: rank for rank, row in enumerate(order)}


def _top(scores: np.ndarray, n: int) -> list[int]:
    positive = np.flatnonzero(scores > 0)
    if positive.size == 0:
        return []
    best = positive[np.argsort(-scores[positive], kind="stable")[:n]]
    return best.tolist()


def _symbol_matches(artifacts: Artifacts, names: set[str], files: set[str], mask: np.ndarray | None) -> list[int]:
    """Rows that define a name the question mentions, or live in a file it names."""
    rows: dict[int, float] = {}
    for name in sorted(names):  # sets iterate in a per-process order; rankings must not
        for row in artifacts.definers.get(name, ())[:20]:
            rows[row] = rows.get(row, 0.0) + 1.0 + (0.5 if "." in name else 0.0)
    for mention in files:
        for row in artifacts.rows_by_basename.get(mention.rsplit("/", 1)[-1], ()):
            lower = artifacts.table.paths[row].lower()
            if lower == mention or lower.endswith("/" + mention):
                rows[row] = rows.get(row, 0.0) + 1.0
    if mask is not None:
        rows = {row: score for row, score in rows.items() if mask[row]}
    return sorted(rows, key=lambda row: (-rows[row], row))[:CANDIDATES]


def _dense_rows(vectors: np.ndarray, query_vector: np.ndarray, mask: np.ndarray | None, n: int) -> list[int]:
    """Exact cosine top-n over the index's vectors (a few ms at 50k chunks, filters included)."""
    similarity = np.asarray(vectors @ query_vector, dtype=np.float32)
    if mask is not None:
        similarity = np.where(mask, similarity, -np.inf)
    n = min(n, similarity.shape[0])
    best = np.argpartition(-similarity, n - 1)[:n]
    best = best[np.argsort(-similarity[best], kind="stable")]
    return [int(row) for row in best if np.isfinite(similarity[row])]


def fuse(signals: dict[str, list[int]], weights: Weights) -> dict[int, float]:
    fused: dict[int, float] = {}
    for name, order in signals.items():
        weight = getattr(weights, name)
        for rank, row in enumerate(order):
            fused[row] = fused.get(row, 0.0) + weight / (RRF_K + rank)
    return fused


def retrieve(
    name: str,
    query: str,
    settings: Settings,
    *,
    k: int = 10,
    filters=None,
    embedder: Embedder | None = None,
    store: Store | None = None,
    weights: Weights | None = None,
) -> Retrieval:
    from codeqa.search import Filters, validate_query

    query = validate_query(query)
    weights = weights or Weights()
    filters = filters or Filters()
    store = store or Store(settings)
    manifest = store.get_manifest(name)
    embedder = embedder or get_embedder(settings)
    collection = store.open_collection(manifest, model=embedder.model_id, dimension=embedder.dimension)
    artifacts = load_artifacts(settings, manifest, store)
    table = artifacts.table
    mask = filters.mask(table)
    if mask is not None and not mask.any():
        return Retrieval([], [])
    allowed = len(table) if mask is None else int(mask.sum())
    n = min(CANDIDATES, allowed)

    names, files = query_identifiers(query)
    signals = {
        "dense": _dense_rows(artifacts.vectors, embedder.embed_query(query), mask, n),
        "lexical": _top(artifacts.lexical.scores(code_tokens(query), mask), n),
        "symbol": _symbol_matches(artifacts, names, files, mask),
    }
    fused = fuse(signals, weights)
    if weights.graph and fused:
        _add_graph_evidence(fused, artifacts.graph, mask, weights.graph, n)
    _apply_penalties(fused, table, query, weights)
    order = sorted(fused, key=lambda row: (-fused[row], row))
    long_query = len(query.split()) > weights.long_query_words
    return _materialize(
        collection, table, order, fused, k, weights.file_bonus_long if long_query else weights.file_bonus
    )


def _add_graph_evidence(
    fused: dict[int, float], graph: SymbolGraph, mask: np.ndarray | None, weight: float, n: int
) -> None:
    """Raise the code the best hits use or are used by, in proportion to how strongly it is linked.

    Personalized PageRank from the top hits; a neighbour gains ``weight`` × the best hit's score × its rank
    relative to the best hit's own, so graph evidence brings in callers/callees and reorders close calls.
    """
    seeds = dict(sorted(fused.items(), key=lambda kv: -kv[1])[:10])
    spread = graph.personalized_pagerank(seeds)
    if mask is not None:
        spread = np.where(mask, spread, 0.0)
    best_row, best = max(seeds.items(), key=lambda kv: kv[1])
    reference = float(spread[best_row])  # how much rank the best hit itself holds
    spread[list(seeds)] = 0.0  # seeds keep their restart mass: only neighbours gain
    if reference <= 0:
        return
    for row in _top(spread, n):
        fused[row] = fused.get(row, 0.0) + weight * best * min(1.0, float(spread[row]) / reference)


TEST_WORDS = re.compile(r"\btest(s|ing|ed)?\b|\bspec\b|\bfixture", re.IGNORECASE)


def _apply_penalties(fused: dict[int, float], table: ChunkTable, query: str, weights: Weights) -> None:
    """Demote docs and tests unless the question asks for them."""
    wants_tests = bool(TEST_WORDS.search(query))
    for row in fused:
        if table.kinds[row] == "doc":
            fused[row] *= weights.doc_penalty
        elif not wants_tests and (table.layers[row] == "test" or table.kinds[row] == "test"):
            fused[row] *= weights.test_penalty


def _materialize(
    collection, table: ChunkTable, order: list[int], fused: dict[int, float], k: int, file_bonus: float = 0.1
) -> Retrieval:
    """Fetch texts for the top chunks and aggregate scores per file."""
    files: dict[str, FileHit] = {}
    for row in order:
        path = table.paths[row]
        if path not in files:
            files[path] = FileHit(path=path, score=fused[row])
        else:
            files[path].score += file_bonus * fused[row]  # more evidence in the same file counts a little
    top_rows = order[:k]
    ids = [table.ids[row] for row in top_rows]
    records = collection.get(ids=ids, include=["documents", "metadatas"]) if ids else {"ids": []}
    by_id = {
        chunk_id: chunk_from_record(doc, meta)
        for chunk_id, doc, meta in zip(
            records["ids"], records.get("documents") or [], records.get("metadatas") or [], strict=False
        )
    }
    hits = [
        Hit(chunk=by_id[table.ids[row]], score=round(fused[row], 6), id=table.ids[row])
        for row in top_rows
        if table.ids[row] in by_id
    ]
    for hit in hits:
        files[hit.chunk.path].hits.append(hit)
    ranked_files = sorted(files.values(), key=lambda f: -f.score)
    return Retrieval(hits=hits, files=ranked_files)


@dataclass
class Neighbors:
    """Where a symbol is defined, what uses it and what it uses (from the symbol graph)."""

    definitions: list[Hit]
    callers: list[Hit]
    callees: list[Hit]


def neighbors(name: str, symbol: str, settings: Settings, *, store: Store | None = None, limit: int = 20) -> Neighbors:
    """The graph around ``symbol`` (``"SessionStore.login"`` or just ``"login"``) in index ``name``."""
    store = store or Store(settings)
    manifest = store.get_manifest(name)
    artifacts = load_artifacts(settings, manifest, store)
    rows = artifacts.definers.get(symbol.lower(), [])
    callers = list(dict.fromkeys(r for row in rows for r in artifacts.graph.callers(row) if r not in rows))
    callees = list(dict.fromkeys(r for row in rows for r in artifacts.graph.callees(row) if r not in rows))
    collection = store.open_collection(manifest)

    def as_hits(selected: list[int]) -> list[Hit]:
        selected = selected[:limit]
        return _materialize(collection, artifacts.table, selected, {row: 1.0 for row in selected}, len(selected)).hits

    return Neighbors(as_hits(rows), as_hits(callers), as_hits(callees))
