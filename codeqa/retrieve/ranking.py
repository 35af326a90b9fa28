"""Ranking one question, after the signals: candidate files → first stage → second stage → exact-name path →
chunk ranker. Everything here reads the loaded search files; chunk texts come through ``fetch`` (only the few the
second stage reads and the chunks returned).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from codeqa.records import Chunk
from codeqa.retrieve.chunks import CHUNKS, chunk_pool
from codeqa.retrieve.contextual import ContextualStage
from codeqa.retrieve.evidence import QueryTerms
from codeqa.retrieve.exact import asks_only_for_the_name, exact_definitions
from codeqa.retrieve.features import ChunkSignals, candidate_features
from codeqa.retrieve.file_signals import file_roles
from codeqa.retrieve.hubs import definers_before_hubs
from codeqa.retrieve.question import Question
from codeqa.retrieve.ranker import SECONDARY_GAP, Later, Ranker, secondary_files
from codeqa.retrieve.rerank import STAGE2, RerankContext
from codeqa.searchfiles.files import SearchFiles

TRACE_TOP = 40  # files whose second-stage features evaluation saves (cross-validation re-cuts the top 30)
TRACE_CHUNKS = 40  # chunks per file it saves for the chunk ranker
MAX_NAME_FILES = 20
MAX_TERMS = 64  # the question's rarest terms the second stage looks for in each file (a long report has hundreds)

Fetch = Callable[[Sequence[int]], dict[int, Chunk]]


@dataclass
class Trace:
    """What evaluation saves to train the rankers (indices into ``candidates``)."""

    candidates: np.ndarray  # file numbers
    features: np.ndarray  # first stage, per candidate
    second: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))  # candidates re-ranked
    second_features: np.ndarray = field(default_factory=lambda: np.zeros((0, len(STAGE2.names)), np.float32))
    pool_rows: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    pool_owner: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))  # index into ``second``
    pool_features: np.ndarray = field(default_factory=lambda: np.zeros((0, len(CHUNKS.names)), np.float32))
    exact_rows: list[int] = field(default_factory=list)
    roles: tuple[str, ...] = ()  # each candidate's role
    mentioned: tuple[str, ...] = ()  # roles of the files the question names


@dataclass(frozen=True)
class Stages:
    """Which optional steps run; each can be turned off to measure what it adds (``codeqa eval --ablation``)."""

    contextual: bool | None = None  # the contextual stage (None: as the ``contextual_stage`` setting says)
    doc_votes: bool = True  # documentation pages vote for the code they point at (``doc_refs``)
    hubs: bool = True  # a re-export hub gives way to the module it takes names from (``hubs``)
    second_stage: bool = True  # the second stage's trees re-rank the best files (``rerank``)


ALL_STAGES = Stages()


@dataclass
class Ranked:
    files: list[int]  # file numbers, best first
    scores: list[float]
    rows: list[int]  # chosen chunk rows, best first
    chunk_scores: list[float]
    chunks: dict[int, Chunk]
    trace: Trace | None = None


def named_rows(files: SearchFiles, names: Iterable[str]) -> list[int]:
    """Rows defining a name the question mentions (names defined in too many files are no evidence)."""
    rows: list[int] = []
    row_file = files.files.row_file
    for name in sorted(names):
        defining = files.definers.get(name, ())
        if defining and len({int(row_file[r]) for r in defining}) <= MAX_NAME_FILES:
            rows.extend(defining)
    return rows


def rank(
    files: SearchFiles,
    question: Question,
    query_vector: np.ndarray,
    signals: ChunkSignals,
    mask: np.ndarray | None,
    fetch: Fetch,
    *,
    k: int,
    ranker: Ranker,
    later: Later,
    trace: bool = False,
    stages: Stages = ALL_STAGES,
    contextual: ContextualStage | None = None,
) -> Ranked:
    candidates = candidate_features(files, question, query_vector, signals, mask)
    if not len(candidates.files):
        return Ranked([], [], [], [], {})
    first = ranker.score(candidates.features)
    secondary = secondary_files(candidates.features)
    order = np.argsort(-first, kind="stable")
    reranker = later.reranker
    depth = max(reranker.top, TRACE_TOP) if trace else reranker.top
    top = order[:depth]
    numbers = candidates.files[top]

    pool = chunk_pool(files, signals, numbers, mask, named_rows(files, question.names))
    pool_features = CHUNKS.matrix(pool, len(pool.rows))
    within = later.chunks.within(pool_features, pool.owner)
    fetched: dict[int, Chunk] = {}
    texts: list[list[str]] = [[] for _ in numbers]
    if reranker.reads_text or trace:
        best = _best_rows(pool.rows, pool.owner, within, reranker.text_chunks or 2, len(numbers))
        fetched.update(fetch([row for rows in best for row in rows]))
        texts = [[fetched[row].text for row in rows if row in fetched] for rows in best]
    terms = files.files.lexical.rarest(list(dict.fromkeys(question.tokens)), MAX_TERMS)
    covered, counts = files.files.lexical.presence(terms, numbers)
    weights = QueryTerms.of(terms, counts, len(files.files))
    keep = [i for i, term in enumerate(terms) if term in weights.weights]
    context = RerankContext(
        files,
        numbers,
        ranker.linear(candidates.features[top]),
        set(question.names),
        np.asarray(query_vector, dtype=np.float32),
        files.files.per_file_max(np.where(np.isfinite(signals.dense), signals.dense, -1.0), -1.0)[numbers],
        frozenset(terms),
        weights,
        covered[:, keep],
        texts,
    )
    second_features = STAGE2.matrix(context, len(numbers))
    cut = min(reranker.top, len(top))
    if stages.second_stage:
        gap = SECONDARY_GAP * secondary[top[:cut]]
        second = reranker.score(second_features[:cut], candidates.features[top[:cut]], gap)
    else:
        second = first[top[:cut]]
    reordered = np.argsort(-second[:cut], kind="stable")
    final_positions = [*reordered.tolist(), *range(cut, len(top))]  # positions in ``top``
    scores = {int(top[p]): float(second[p]) for p in reordered}
    floor = min(scores.values()) if scores else 0.0
    rest = [int(i) for i in order[cut:]]
    for position, candidate in enumerate(rest):  # after the re-ranked files, in first-stage order
        scores[candidate] = floor - 1.0 - position * 1e-3

    head = [int(top[p]) for p in final_positions[:cut]]
    if stages.hubs:
        head = _reorder(head, definers_before_hubs(files, [int(candidates.files[c]) for c in head]), scores)
    if contextual is not None:
        numbers_now = [int(candidates.files[c]) for c in head]
        head = _reorder(head, contextual.order(files, question.text, query_vector, numbers_now, fetch), scores)
    roles = file_roles(files)
    exact = exact_definitions(files, question.spelled, question.words, roles, mask)
    ranked = head + rest
    chunk_file_scores = scores
    if exact:
        exact_files = {int(files.files.row_file[row]) for row in exact}
        leading = [c for c in ranked if int(candidates.files[c]) in exact_files]
        ranked = leading + [c for c in ranked if c not in leading]
        if not asks_only_for_the_name(question.words):  # the other files' chunks keep their weight beside the name
            chunk_file_scores = dict(scores)
        lead = max(scores.values()) + 1.0
        for position, candidate in enumerate(leading):
            scores[candidate] = lead - position * 1e-3

    # chunks: across the re-ranked files, each file weighed by its score
    file_score = np.asarray([chunk_file_scores[int(c)] for c in top[:cut]], dtype=np.float64)
    in_cut = pool.owner < cut
    values = np.full(len(pool.rows), -np.inf)
    values[in_cut] = later.chunks.values(file_score, pool_features[in_cut], pool.owner[in_cut])
    top_chunks = [int(i) for i in np.argsort(-values, kind="stable")[:k] if np.isfinite(values[i])]
    chosen = [int(pool.rows[i]) for i in top_chunks]
    chunk_value = {int(pool.rows[i]): float(values[i]) for i in top_chunks}
    if exact:
        front = exact if asks_only_for_the_name(question.words) else exact[:1]
        chosen = list(dict.fromkeys([*front, *chosen]))[:k]
        chunk_value.update({row: 1.0 + 1e-3 * (len(front) - i) for i, row in enumerate(front)})
    missing = [row for row in chosen if row not in fetched]
    if missing:
        fetched.update(fetch(missing))
    chosen = [row for row in chosen if row in fetched]

    result = Ranked(
        files=[int(candidates.files[c]) for c in ranked],
        scores=[scores[c] for c in ranked],
        rows=chosen,
        chunk_scores=[chunk_value.get(row, 0.0) for row in chosen],
        chunks=fetched,
    )
    if trace:
        capped = _best_rows(pool.rows, pool.owner, within, TRACE_CHUNKS, len(numbers), positions=True)
        keep_rows = np.asarray(sorted(i for group in capped for i in group), dtype=np.int64)
        result.trace = Trace(
            candidates=candidates.files,
            features=candidates.features,
            second=top,
            second_features=second_features,
            pool_rows=pool.rows[keep_rows],
            pool_owner=pool.owner[keep_rows],
            pool_features=pool_features[keep_rows],
            exact_rows=exact,
            roles=tuple(str(role) for role in candidates.roles),
            mentioned=tuple(sorted(str(role) for role in candidates.mentioned)),
        )
    return result


def _reorder(head: list[int], order: list[int], scores: dict[int, float]) -> list[int]:
    """``head`` (candidates, best first) in a new ``order`` (positions into it: ``hubs``, ``contextual``); the k-th
    file of the new order takes the k-th best score."""
    if order == list(range(len(head))):
        return head
    best = sorted((scores[c] for c in head), reverse=True)
    head = [head[i] for i in order]
    scores.update(zip(head, best, strict=True))
    return head


def _best_rows(
    rows: np.ndarray, owner: np.ndarray, values: np.ndarray, n: int, owners: int, positions: bool = False
) -> list[list[int]]:
    """Per owner (0..owners-1): its ``n`` best rows by ``values`` (or their positions in ``rows``)."""
    groups: list[list[int]] = [[] for _ in range(owners)]
    for i in np.lexsort((np.arange(len(values)), -values, owner)):
        group = groups[int(owner[i])]
        if len(group) < n:
            group.append(int(i) if positions else int(rows[i]))
    return groups
