"""Candidate files for a question and the interpretable features the ranker scores them by.

Candidates are the union of each signal's best files (file BM25, chunk BM25, dense chunks, dense file cards,
exact symbol and file-name matches, the chunk-level fusion, the code words the thesaurus gives for the question's
lay words). Every feature is normalized *within the question*
(relative to the best candidate, or a reciprocal rank), so one set of weights carries over between repositories
of different sizes and vocabularies. Features are declared in ``STAGE1`` (a ``FeatureRegistry``): name and
function in one place, the column order is the declaration order.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import numpy as np

from codeqa.languages import CONFIG_LANGUAGES, DOC_LANGUAGES, MARKUP_LANGUAGES
from codeqa.retrieve.constructs import construct_evidence
from codeqa.retrieve.file_signals import (
    centrality,
    doc_bridge,
    file_language,
    file_roles,
    graph_spread,
    is_init,
    main_language,
    module_paths,
    path_overlap,
    per_file_count,
    per_file_max,
    symbol_and_mention,
)
from codeqa.retrieve.question import Question
from codeqa.retrieve.registry import Columns, FeatureRegistry
from codeqa.retrieve.roles import PERIPHERAL, Role
from codeqa.retrieve.thesaurus import with_code_words
from codeqa.searchfiles.files import SearchFiles

PER_SIGNAL = 60  # best files taken from each signal
LONG_QUERY_WORDS = 60
UI_WORDS = re.compile(
    r"\b(templates?|pages?|views?|buttons?|forms?|labels?|links?|ui|screens?|displays?|displayed|shows?|shown|"
    r"render(s|ed|ing)?|html|css|styles?|icons?|modals?|menus?|themes?|layouts?|widgets?|tables?|columns?)\b",
    re.IGNORECASE,
)

LONG_INTERACTIONS = ("bm25_file", "bm25_plain", "dense_chunk", "dense_card", "symbol", "path_mention", "fused")
NATURAL_INTERACTIONS = ("dense_chunk", "dense_card", "path_overlap", "bm25_file")


@dataclass(frozen=True, kw_only=True)
class ChunkSignals:
    """What the chunk-level stage computed for a question (all arrays are row-aligned with the chunk table)."""

    dense: np.ndarray  # cosine per chunk row (-inf outside the filter)
    lexical: np.ndarray  # BM25 per chunk row (0 outside the filter)
    fused: dict[int, float]  # chunk row → fused score (the chunk-level ranking)
    dense_top: list[int]
    lexical_top: list[int]
    symbol_rows: list[int]
    doc_texts: list[str] = field(default_factory=list)  # best documentation chunks' texts (they name code)


@dataclass(frozen=True)
class Candidates:
    """Candidate files of one question: file numbers (into ``SearchFiles.files``) and their feature matrix."""

    files: np.ndarray  # int file numbers
    features: np.ndarray  # (candidates, len(FEATURES)) float32
    roles: tuple[Role, ...] = ()  # each candidate's role
    mentioned: frozenset[Role] = frozenset()  # roles of the files the question names

    def column(self, name: str) -> np.ndarray:
        return self.features[:, FEATURES.index(name)]


@dataclass
class FileContext(Columns):
    """One question's per-file evidence (whole-index arrays, numbered as ``SearchFiles.files``) and its candidates."""

    files: SearchFiles
    question: Question
    signals: ChunkSignals
    numbers: np.ndarray  # candidate file numbers
    per_file: dict[str, np.ndarray]
    asked: frozenset[Role]

    def of(self, name: str) -> np.ndarray:
        """A whole-index per-file array, at the candidates."""
        return self.per_file[name][self.numbers]

    def flags(self, predicate) -> np.ndarray:
        return np.asarray([bool(predicate(int(n))) for n in self.numbers], dtype=np.float32)


STAGE1 = FeatureRegistry("file ranker")
FileContext.registry = STAGE1
_add = STAGE1.add


def _relative_of(name: str):
    return lambda c: _relative(c.of(name))


def _rank_of(name: str):
    return lambda c: _reciprocal_rank(c.of(name))


def _below_best(name: str):
    return lambda c: c.of(name) - c.of(name).max()


_add("bm25_file", _relative_of("bm25_file"), "file BM25 (code tokens, path, defined names) over the best")
_add("bm25_file_rr", _rank_of("bm25_file"))
_add("bm25_plain", _relative_of("bm25_plain"), "classic BM25 over path + text, plain words")
_add("bm25_plain_rr", _rank_of("bm25_plain"))
_add("bm25_chunk", _relative_of("bm25_chunk"), "the file's best chunk BM25")
_add("bm25_chunk_rr", _rank_of("bm25_chunk"))
_add("dense_chunk", _below_best("dense_chunk"), "the file's best chunk cosine, minus the best file's")
_add("dense_chunk_rr", _rank_of("dense_chunk"))
_add("dense_card", _below_best("dense_card"), "the file card's cosine (path, names, opening lines)")
_add("dense_card_rr", _rank_of("dense_card"))
_add("dense_mean", _below_best("dense_mean"), "the mean chunk vector's cosine")
_add("fused", _relative_of("fused"), "the file's best chunk in the chunk-level fusion")
_add("fused_rr", _rank_of("fused"))
_add("symbol", _relative_of("symbol"), "names the question mentions that the file defines (rarer weigh more)")
_add("path_mention", lambda c: c.of("mention"), "the question names the file")
_add("module_path", lambda c: c.of("module_path"), "the question names the file's module (Commands.Register)")
_add("path_overlap", lambda c: path_overlap(c.files, c.numbers, c.question.tokens), "share of path words asked")
_add("hits_dense", lambda c: np.log1p(per_file_count(c.files, c.signals.dense_top)[c.numbers]))
_add("hits_bm25", lambda c: np.log1p(per_file_count(c.files, c.signals.lexical_top)[c.numbers]))
_add("size", lambda c: c.of("size"), "log chunk count over the largest file's")
_add("centrality", lambda c: centrality(c.files)[c.numbers], "how much other code uses the file")
_add("init_file", lambda c: c.flags(lambda n: is_init(c.files.files.paths[n])), "__init__.py, index.ts, mod.rs …")
_add("markup", lambda c: c.flags(lambda n: file_language(c.files, n) in MARKUP_LANGUAGES))
_add(
    "minority_language",
    lambda c: c.flags(
        lambda n: file_language(c.files, n) not in (main_language(c.files), *DOC_LANGUAGES, *CONFIG_LANGUAGES)
    ),
)
_add("doc_bridge", lambda c: _relative(doc_bridge(c.files, c.signals.doc_texts)[c.numbers]))
_add("graph", lambda c: _relative(graph_spread(c.files, c.signals.fused)[c.numbers]), "spread from the best chunks")
_add("ui_markup", lambda c: c.column("markup") * float(bool(UI_WORDS.search(c.question.text))))
_add("construct", lambda c: c.of("construct"), "the file's code holds a framework construct for the question's topic")


def _interaction(name: str, condition):
    return lambda c: c.column(name) * float(condition(c))


def _long(c: FileContext) -> bool:
    return c.question.words > LONG_QUERY_WORDS


def _natural(c: FileContext) -> bool:
    return not c.question.names_code


for _name in LONG_INTERACTIONS:
    _add(f"long_{_name}", _interaction(_name, _long))
for _name in NATURAL_INTERACTIONS:
    _add(f"natural_{_name}", _interaction(_name, _natural))


def _role_flag(role: Role):
    """1 for candidates of ``role`` unless the question asks for it."""

    def compute(c: FileContext) -> np.ndarray:
        if role in c.asked:
            return np.zeros(len(c.numbers), dtype=np.float32)
        roles = file_roles(c.files)
        return c.flags(lambda n: roles[n] is role)

    return compute


for _role in PERIPHERAL:
    _add(f"role_{_role}", _role_flag(_role))

FEATURES = STAGE1.names
ROLE_FEATURES = tuple(f"role_{role}" for role in PERIPHERAL)


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


def per_file_evidence(
    files: SearchFiles, question: Question, query_vector: np.ndarray, signals: ChunkSignals, allowed: np.ndarray
) -> dict[str, np.ndarray]:
    """Whole-index per-file arrays the features and the candidate pool are made of."""
    index = files.files
    vector = np.asarray(query_vector, dtype=np.float32)
    fused = np.zeros(len(index), dtype=np.float32)
    for row, score in signals.fused.items():
        number = index.row_file[row]
        fused[number] = max(fused[number], score)
    symbol, mention = symbol_and_mention(files, question.names, question.file_names)
    chunk_counts = np.bincount(index.row_file, minlength=len(index)).astype(np.float32)
    bm25_file, implied = with_code_words(index.lexical, question.tokens, question.expansion)
    return {
        "bm25_file": np.where(allowed, bm25_file, 0.0).astype(np.float32),
        "code_words": np.where(allowed, implied if implied is not None else 0.0, 0.0).astype(np.float32),
        "bm25_plain": np.where(allowed, index.plain.scores(list(question.plain)), 0.0).astype(np.float32),
        "bm25_chunk": per_file_max(files, signals.lexical, 0.0),
        "dense_chunk": per_file_max(files, np.where(np.isfinite(signals.dense), signals.dense, -1.0), -1.0),
        "dense_card": np.asarray(index.cards @ vector, dtype=np.float32),
        "dense_mean": np.asarray(index.means @ vector, dtype=np.float32),
        "fused": fused,
        "symbol": symbol,
        "mention": mention,
        "module_path": np.where(allowed, module_paths(files, question.qualified), 0.0).astype(np.float32),
        "size": np.log1p(chunk_counts) / math.log(2 + chunk_counts.max()),
        "construct": np.where(allowed, construct_evidence(files, question.intents), 0.0).astype(np.float32),
    }


POOL_SIGNALS = (
    ("bm25_file", True),
    ("bm25_plain", True),
    ("bm25_chunk", True),
    ("dense_chunk", False),
    ("dense_card", False),
    ("fused", True),
    ("symbol", True),
    ("mention", True),
    ("module_path", True),
    ("construct", True),
    ("code_words", True),  # the code's words for the concepts the question names (``thesaurus``); not a feature
)  # fmt: skip  (signal, only files that scored)


def candidate_features(
    files: SearchFiles,
    question: Question,
    query_vector: np.ndarray,
    signals: ChunkSignals,
    chunk_mask: np.ndarray | None,
) -> Candidates:
    """The candidate files of ``question`` and their features (see ``FEATURES``)."""
    allowed = file_mask(files, chunk_mask)
    per_file = per_file_evidence(files, question, query_vector, signals, allowed)
    pool: dict[int, None] = {}
    for name, positive_only in POOL_SIGNALS:
        values = per_file[name]
        eligible = allowed & (values > 0) if positive_only else allowed
        pool.update(dict.fromkeys(_top_files(values, eligible, PER_SIGNAL)))
    numbers = np.asarray(sorted(pool), dtype=np.int64)
    if numbers.size == 0:
        return Candidates(numbers, np.zeros((0, len(FEATURES)), dtype=np.float32))
    roles = file_roles(files)
    mentioned = {roles[int(n)] for n in np.flatnonzero(per_file["mention"] > 0)}
    context = FileContext(files, question, signals, numbers, per_file, question.roles_asked(mentioned))
    candidate_roles = tuple(roles[int(n)] for n in numbers)
    return Candidates(numbers, STAGE1.matrix(context, len(numbers)), candidate_roles, frozenset(mentioned))
