"""Run the real pipeline over a dataset: index each instance's tree once, ask its question, score the file ranking.

Test files are left out of every index by SWE-bench's rule. With ``features_dir`` each instance's candidate files
and their ranker features are saved (``<instance_id>.npz``), so rankers can be trained and cross-validated
without querying again (``codeqa.evaluate.train``).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from codeqa.chunk import CHUNKER_VERSION
from codeqa.config import Settings
from codeqa.embed import get_embedder
from codeqa.errors import QueryError
from codeqa.evaluate.data import Instance, is_test
from codeqa.evaluate.metrics import DEFAULT_KS, InstanceResult, chunk_score, file_ndcg, score
from codeqa.index import Index
from codeqa.retrieve import Filters, Weights, retrieve
from codeqa.retrieve.chunks import CHUNK_FEATURES
from codeqa.retrieve.features import FEATURES
from codeqa.retrieve.file_signals import NOT_CODE, file_language, file_roles, main_language
from codeqa.retrieve.ranker import Ranker
from codeqa.retrieve.ranking import Trace
from codeqa.retrieve.rerank import STAGE2_FEATURES
from codeqa.retrieve.roles import ROLE_WORDS, Role, role_mentions
from codeqa.searchfiles.table import ChunkTable


def save_features(
    path: Path,
    instance: Instance,
    candidates: Sequence[str],
    features: np.ndarray | None,
    language: str = "",
    trace: Trace | None = None,
    table: ChunkTable | None = None,
) -> None:
    """One question's saved evidence: candidate files and their first-stage features, and (with ``trace``) the
    second stage's files and features and the chunk ranker's pool (each chunk's features, place and whether it
    holds a line that answers)."""
    gold = set(instance.gold_files)
    matrix = features if features is not None else np.zeros((0, len(FEATURES)), dtype=np.float32)
    extra: dict[str, Any] = {}
    if trace is not None and table is not None:
        rows = trace.pool_rows.tolist()
        paths = [table.paths[row] for row in rows]
        starts = [table.starts[row] for row in rows]
        ends = [table.ends[row] for row in rows]
        key = instance.key_lines
        exact = set(trace.exact_rows)
        extra = {
            "second": trace.second.astype(np.int64),
            "second_features": trace.second_features.astype(np.float32),
            "second_names": np.asarray(STAGE2_FEATURES),
            "pool_owner": trace.pool_owner.astype(np.int64),
            "pool_features": trace.pool_features.astype(np.float32),
            "pool_names": np.asarray(CHUNK_FEATURES),
            "pool_path": np.asarray(paths, dtype=str),
            "pool_start": np.asarray(starts, dtype=np.int64),
            "pool_end": np.asarray(ends, dtype=np.int64),
            "pool_answers": np.asarray(
                [
                    sum(p == path and s <= line <= e for p, line in key)
                    for path, s, e in zip(paths, starts, ends, strict=True)
                ],
                dtype=np.int64,
            ),
            "pool_exact": np.asarray([row in exact for row in rows], dtype=bool),
            "exact_files": np.asarray(
                [i for i, c in enumerate(candidates) if c in {table.paths[row] for row in exact}], dtype=np.int64
            ),
            "candidate_roles": np.asarray(trace.roles, dtype=str),
            "mentioned_roles": np.asarray(trace.mentioned, dtype=str),
            "role_mentions": np.asarray([role_mentions(instance.problem_statement)[role] for role in ROLE_WORDS]),
            "query_words": np.asarray(len(instance.problem_statement.split())),
            "key_lines": np.asarray(len(key)),
            "gold_count": np.asarray(len(gold)),
        }
    np.savez_compressed(
        path,
        features=matrix.astype(np.float32),
        names=np.asarray(FEATURES),
        candidates=np.asarray(list(candidates), dtype=str),
        gold=np.asarray([c in gold for c in candidates], dtype=bool),
        meta=np.asarray(
            [instance.instance_id, instance.repo, instance.dataset, str(len(instance.problem_statement)), language]
        ),
        **extra,
    )


def _filters(instance: Instance) -> Filters | None:
    raw = instance.filters
    if not raw:
        return None
    return Filters(
        layers=tuple(raw.get("layers", ())),
        kinds=tuple(raw.get("kinds", ())),
        languages=tuple(raw.get("languages", ())),
        paths=tuple(raw.get("paths", ())),
        globs=tuple(raw.get("globs", ())),
    )


def _reusable(name: str, settings: Settings) -> Index | None:
    """A kept index can be reused when it exists and was built by the configured embedding model and revision, and
    by this chunker (a kept index cut by an older one would measure that chunker)."""
    if not Index.exists(name, settings):
        return None
    embedder = get_embedder(settings)
    index = Index.open(name, settings)
    same = index.manifest.model == embedder.model_id and index.manifest.model_revision == getattr(
        embedder, "revision", 1
    )
    return index if same and index.manifest.chunker_version == CHUNKER_VERSION else None


def kept_indexes(instances: Iterable[Instance], settings: Settings) -> Iterator[tuple[Instance, Index | None]]:
    """Each instance with its kept eval index (``codeqa eval --keep``), opened once per index; None where no index
    built by the configured embedding model is kept."""
    opened: dict[str, Index | None] = {}
    for instance in instances:
        if instance.index_name not in opened:
            opened[instance.index_name] = _reusable(instance.index_name, settings)
        yield instance, opened[instance.index_name]


def indexed_in_turn(
    instances: Sequence[Instance],
    trees: Path,
    settings: Settings,
    keep_indexes: bool = False,
    reuse_indexes: bool = False,
) -> Iterator[tuple[Instance, Index, float]]:
    """Each instance with its index and the seconds its tree took to index (0.0 after its tree's first one). A tree is
    indexed once; its index is removed after its last instance unless ``keep_indexes``; ``reuse_indexes`` takes a
    kept index built with the same embedding model instead of indexing again."""
    missing = [i.instance_id for i in instances if not i.tree(trees).is_dir()]
    if missing:
        raise QueryError(f"{len(missing)} source trees are missing under {trees} (first: {missing[0]}).")
    last_use = {instance.tree(trees): position for position, instance in enumerate(instances)}
    indexed: dict[Path, Index] = {}
    for position, instance in enumerate(instances):
        tree = instance.tree(trees)
        index_seconds = 0.0
        if tree not in indexed:
            started = time.perf_counter()
            reused = _reusable(instance.index_name, settings) if reuse_indexes else None
            indexed[tree] = reused or Index.build(str(tree), settings, name=instance.index_name, exclude=is_test)
            index_seconds = time.perf_counter() - started
        yield instance, indexed[tree], index_seconds
        if not keep_indexes and last_use[tree] == position:
            indexed[tree].remove()


LANGUAGE_GROUPS = {"tsx": "typescript", "jsx": "javascript"}  # one report group per language


def _dominant_language(index: Index) -> str:
    """The repository's main programming language: the most common among its source files (not vendored code,
    tests, docs, configuration or markup)."""
    files = index.files
    roles = file_roles(files)
    counts = Counter(
        file_language(files, number)
        for number in range(len(files.files))
        if roles[number] is Role.SOURCE and file_language(files, number) not in NOT_CODE
    )
    language = counts.most_common(1)[0][0] if counts else main_language(files)
    return LANGUAGE_GROUPS.get(language, language)


def run_eval(
    instances: Sequence[Instance],
    trees: Path,
    settings: Settings,
    *,
    ks: Sequence[int] = DEFAULT_KS,
    keep_indexes: bool = False,
    reuse_indexes: bool = False,
    weights: Weights | None = None,
    ranker: Ranker | None = None,
    learned: bool = True,
    features_dir: Path | None = None,
    on_result: Callable[[InstanceResult], None] | None = None,
) -> list[InstanceResult]:
    if features_dir is not None:
        features_dir.mkdir(parents=True, exist_ok=True)
    results = []
    for instance, index, index_seconds in indexed_in_turn(instances, trees, settings, keep_indexes, reuse_indexes):
        started = time.perf_counter()
        retrieval = retrieve(
            index,
            instance.problem_statement,
            k=10,
            filters=_filters(instance),
            weights=weights,
            ranker=ranker,
            learned=learned,
            trace=features_dir is not None,
        )
        query_seconds = time.perf_counter() - started
        ranked = [file.path for file in retrieval.files][:50]
        chunks = [(hit.chunk.path, hit.chunk.start_line, hit.chunk.end_line) for hit in retrieval.hits]
        metrics = score(ranked, instance.gold_files, ks)
        metrics["ndcg@10"] = file_ndcg(ranked, instance.gold_files)
        metrics.update(chunk_score(chunks, instance.gold_files, instance.key_lines))
        result = InstanceResult(
            instance.instance_id,
            instance.repo,
            instance.dataset,
            ranked,
            round(index_seconds, 2),
            round(query_seconds, 3),
            metrics,
            [f"{path}:{start}-{end}" for path, start, end in chunks],
            instance.language or _dominant_language(index),
        )
        if features_dir is not None and learned:
            save_features(
                features_dir / f"{instance.instance_id}.npz",
                instance,
                retrieval.candidates,
                retrieval.features,
                result.language,
                retrieval.trace,
                index.files.table,
            )
        results.append(result)
        if on_result:
            on_result(result)
    return results
