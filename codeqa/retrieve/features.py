"""Candidate files for a question and the interpretable features the ranker scores them by.

Candidates are the union of each signal's best files (file BM25, chunk BM25, dense chunks, dense file cards,
exact symbol and file-name matches, the chunk-level fusion). Every feature is normalized *within the question*
(relative to the best candidate, or a reciprocal rank), so one set of weights carries over between repositories
of different sizes and vocabularies.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from codeqa.languages import CONFIG_LANGUAGES, DOC_LANGUAGES, MARKUP_LANGUAGES
from codeqa.retrieve.file_signals import (
    centrality,
    doc_bridge,
    file_language,
    file_roles,
    graph_spread,
    is_init,
    main_language,
    path_overlap,
    per_file_count,
    per_file_max,
    symbol_and_mention,
)
from codeqa.retrieve.query import asks_for_tests
from codeqa.retrieve.roles import PERIPHERAL, Role, roles_asked_for
from codeqa.store.lexical import code_tokens, plain_tokens
from codeqa.store.searchfiles import SearchFiles

PER_SIGNAL = 60  # best files taken from each signal
LONG_QUERY_WORDS = 60
UI_WORDS = re.compile(
    r"\b(templates?|pages?|views?|buttons?|forms?|labels?|links?|ui|screens?|displays?|displayed|shows?|shown|"
    r"render(s|ed|ing)?|html|css|styles?|icons?|modals?|menus?|themes?|layouts?|widgets?|tables?|columns?)\b",
    re.IGNORECASE,
)

SIGNAL_FEATURES = (
    "bm25_file",
    "bm25_file_rr",
    "bm25_plain",
    "bm25_plain_rr",
    "bm25_chunk",
    "bm25_chunk_rr",
    "dense_chunk",
    "dense_chunk_rr",
    "dense_card",
    "dense_card_rr",
    "dense_mean",
    "fused",
    "fused_rr",
    "symbol",
    "path_mention",
    "path_overlap",
    "hits_dense",
    "hits_bm25",
    "size",
    "centrality",
    "init_file",
    "markup",
    "minority_language",
    "doc_bridge",
    "graph",
    "ui_markup",
)
LONG_INTERACTIONS = ("bm25_file", "bm25_plain", "dense_chunk", "dense_card", "symbol", "path_mention", "fused")
NATURAL_INTERACTIONS = ("dense_chunk", "dense_card", "path_overlap", "bm25_file")
ROLE_FEATURES = tuple(f"role_{role}" for role in PERIPHERAL)
FEATURES = (
    *SIGNAL_FEATURES,
    *(f"long_{name}" for name in LONG_INTERACTIONS),
    *(f"natural_{name}" for name in NATURAL_INTERACTIONS),
    *ROLE_FEATURES,
)


@dataclass
class Candidates:
    """Candidate files of one question: file numbers (into ``SearchFiles.files``) and their feature matrix."""

    files: np.ndarray  # int file numbers
    features: np.ndarray  # (candidates, len(FEATURES)) float32

    def column(self, name: str) -> np.ndarray:
        return self.features[:, FEATURES.index(name)]


@dataclass
class ChunkSignals:
    """What the chunk-level stage computed for a question (all arrays are row-aligned with the chunk table)."""

    dense: np.ndarray  # cosine per chunk row (-inf outside the filter)
    lexical: np.ndarray  # BM25 per chunk row (0 outside the filter)
    fused: dict[int, float]  # chunk row → fused score (the chunk-level ranking)
    dense_top: list[int]
    lexical_top: list[int]
    symbol_rows: list[int]
    names: set[str]  # names the question mentions (lower-cased)
    file_names: set[str]  # file names the question mentions (lower-cased)
    doc_texts: list[str]  # texts of the best-matching documentation chunks (they name the code they describe)


def _reciprocal_rank(values: np.ndarray) -> np.ndarray:
    """1/sqrt(1 + rank) of each value among ``values`` (rank 0 = best; ties share the better rank)."""
    order = np.argsort(-values, kind="stable")
    ranks = np.empty(len(values), dtype=np.float32)
    ranks[order] = np.arange(len(values), dtype=np.float32)
    return 1.0 / np.sqrt(1.0 + ranks)


def _relative(values: np.ndarray) -> np.ndarray:
    """Scores over the best one (0..1), 0 when nothing scored."""
    best = float(values.max()) if len(values) else 0.0
    return values / best if best > 0 else np.zeros_like(values)


def _top_files(values: np.ndarray, allowed: np.ndarray, n: int) -> list[int]:
    scored = np.where(allowed, values, -np.inf)
    finite = np.flatnonzero(np.isfinite(scored) & (scored > -1e30))
    if finite.size == 0:
        return []
    best = finite[np.argsort(-scored[finite], kind="stable")[:n]]
    return best.tolist()


def file_mask(files: SearchFiles, chunk_mask: np.ndarray | None) -> np.ndarray:
    """Files with at least one chunk inside the filter."""
    if chunk_mask is None:
        return np.ones(len(files.files), dtype=bool)
    allowed = np.zeros(len(files.files), dtype=bool)
    allowed[files.files.row_file[np.asarray(chunk_mask, dtype=bool)]] = True
    return allowed


def candidate_features(
    files: SearchFiles,
    query: str,
    query_vector: np.ndarray,
    signals: ChunkSignals,
    chunk_mask: np.ndarray | None,
) -> Candidates:
    """The candidate files of ``query`` and their features (see ``FEATURES``)."""
    index = files.files
    allowed = file_mask(files, chunk_mask)
    query_tokens = code_tokens(query)
    bm25_file = np.where(allowed, index.lexical.scores(query_tokens), 0.0).astype(np.float32)
    bm25_plain = np.where(allowed, index.plain.scores(plain_tokens(query)), 0.0).astype(np.float32)
    bm25_chunk = per_file_max(files, signals.lexical, 0.0)
    dense_chunk = per_file_max(files, np.where(np.isfinite(signals.dense), signals.dense, -1.0), -1.0)
    vector = np.asarray(query_vector, dtype=np.float32)
    dense_card = np.asarray(index.cards @ vector, dtype=np.float32)
    dense_mean = np.asarray(index.means @ vector, dtype=np.float32)
    fused = np.zeros(len(index), dtype=np.float32)
    for row, score in signals.fused.items():
        number = index.row_file[row]
        fused[number] = max(fused[number], score)
    symbol, mention = symbol_and_mention(files, signals.names, signals.file_names)

    pool: dict[int, None] = {}
    for values, positive_only in (
        (bm25_file, True),
        (bm25_plain, True),
        (bm25_chunk, True),
        (dense_chunk, False),
        (dense_card, False),
        (fused, True),
        (symbol, True),
        (mention, True),
    ):
        eligible = allowed & (values > 0) if positive_only else allowed
        pool.update(dict.fromkeys(_top_files(values, eligible, PER_SIGNAL)))
    numbers = np.asarray(sorted(pool), dtype=np.int64)
    if numbers.size == 0:
        return Candidates(numbers, np.zeros((0, len(FEATURES)), dtype=np.float32))

    columns: dict[str, np.ndarray] = {}
    columns["bm25_file"] = _relative(bm25_file[numbers])
    columns["bm25_file_rr"] = _reciprocal_rank(bm25_file[numbers])
    columns["bm25_plain"] = _relative(bm25_plain[numbers])
    columns["bm25_plain_rr"] = _reciprocal_rank(bm25_plain[numbers])
    columns["bm25_chunk"] = _relative(bm25_chunk[numbers])
    columns["bm25_chunk_rr"] = _reciprocal_rank(bm25_chunk[numbers])
    dense = dense_chunk[numbers]
    columns["dense_chunk"] = dense - dense.max()
    columns["dense_chunk_rr"] = _reciprocal_rank(dense)
    cards = dense_card[numbers]
    columns["dense_card"] = cards - cards.max()
    columns["dense_card_rr"] = _reciprocal_rank(cards)
    means = dense_mean[numbers]
    columns["dense_mean"] = means - means.max()
    columns["fused"] = _relative(fused[numbers])
    columns["fused_rr"] = _reciprocal_rank(fused[numbers])
    columns["symbol"] = _relative(symbol[numbers])
    columns["path_mention"] = mention[numbers]
    columns["path_overlap"] = path_overlap(files, numbers, query_tokens)
    columns["hits_dense"] = np.log1p(per_file_count(files, signals.dense_top)[numbers])
    columns["hits_bm25"] = np.log1p(per_file_count(files, signals.lexical_top)[numbers])
    chunk_counts = np.bincount(index.row_file, minlength=len(index)).astype(np.float32)
    columns["size"] = np.log1p(chunk_counts[numbers]) / math.log(2 + chunk_counts.max())
    columns["centrality"] = centrality(files)[numbers]
    columns["init_file"] = np.asarray([is_init(index.paths[n]) for n in numbers], dtype=np.float32)
    columns["markup"] = np.asarray([file_language(files, n) in MARKUP_LANGUAGES for n in numbers], dtype=np.float32)
    main = main_language(files)
    columns["minority_language"] = np.asarray(
        [file_language(files, n) not in (main, *DOC_LANGUAGES, *CONFIG_LANGUAGES) for n in numbers], dtype=np.float32
    )
    columns["doc_bridge"] = _relative(doc_bridge(files, signals.doc_texts)[numbers])
    columns["graph"] = _relative(graph_spread(files, signals.fused)[numbers])
    columns["ui_markup"] = columns["markup"] * float(bool(UI_WORDS.search(query)))
    long_query = float(len(query.split()) > LONG_QUERY_WORDS)
    for name in LONG_INTERACTIONS:
        columns[f"long_{name}"] = columns[name] * long_query
    natural = float(not signals.names and not signals.file_names)
    for name in NATURAL_INTERACTIONS:
        columns[f"natural_{name}"] = columns[name] * natural
    asked = roles_asked_for(query)
    if asks_for_tests(query):
        asked = asked | {Role.TEST}
    all_roles = file_roles(files)
    roles = [all_roles[n] for n in numbers]
    for role in PERIPHERAL:
        flag = 0.0 if role in asked else 1.0
        columns[f"role_{role}"] = np.asarray([flag if r is role else 0.0 for r in roles], dtype=np.float32)
    matrix = np.stack([np.asarray(columns[name], dtype=np.float32) for name in FEATURES], axis=1)
    return Candidates(numbers, matrix)
