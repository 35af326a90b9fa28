"""Checked loading of the search files: each file is read defensively and validated against the others.

A search file can be damaged on disk (emptied, truncated, edited by hand, written by a bug). Each loader here reads
one file, checks its JSON types or its array's shape and dtype against the chunk table's row count and the index's
embedding dimension, checks that vectors are finite, and raises ``DamagedSearchFilesError`` naming the file and
what is wrong with it. The index handle then rebuilds the search files from the store (``rebuild_search_files``,
which writes them into ``staging`` and moves them into place); `codeqa repair` runs the same checks.

The BM25 arrays stay memory-mapped: their lengths and offsets are checked, their contents are not read here.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
from scipy import sparse

from codeqa.errors import DamagedSearchFilesError
from codeqa.searchfiles.bm25 import Bm25Index
from codeqa.searchfiles.corpus import CORPUS_FILE, VOCAB_FILE, Corpus
from codeqa.searchfiles.fileindex import (
    CARD_VECTORS_FILE,
    FILE_BM25,
    FILE_PLAIN_BM25,
    FILES_FILE,
    MEAN_VECTORS_FILE,
    FileIndex,
)
from codeqa.searchfiles.graph import GRAPH_FILE, SymbolGraph
from codeqa.searchfiles.lexical import LEXICAL_VERSION, PARAMS_FILE, LexicalIndex
from codeqa.searchfiles.table import TABLE_FILE, ChunkTable

STAGING_PREFIX = ".rebuild-"
_CHECK_ROWS = 8192  # vectors are checked for finiteness this many rows at a time (no full-size temporary)
_TEXT_COLUMNS = ("ids", "paths", "symbols", "kinds", "layers", "languages")


def damaged(path: Path, why: str) -> DamagedSearchFilesError:
    return DamagedSearchFilesError(f"The search file {path} {why}.", path, why)


@contextlib.contextmanager
def reading(path: Path) -> Iterator[None]:
    """Any failure to read or parse ``path`` becomes ``DamagedSearchFilesError`` naming it."""
    try:
        yield
    except DamagedSearchFilesError:
        raise
    except Exception as exc:  # numpy, scipy, zipfile and json raise many types for one damaged file
        raise damaged(path, _unreadable(path, exc)) from exc


def _unreadable(path: Path, exc: Exception) -> str:
    if not path.exists():
        return "is missing"
    if path.is_file() and path.stat().st_size == 0:
        return "is empty (0 bytes)"
    return f"cannot be read ({type(exc).__name__}: {' '.join(str(exc).split())[:160]})"


def _kind(value: object) -> str:
    names = {type(None): "null", list: "a list", dict: "an object", str: "a string", bool: "a boolean"}
    return names.get(type(value), f"a {type(value).__name__}")


def read_json(path: Path, kind: type, what: str) -> object:
    with reading(path):
        value = json.loads(path.read_text("utf-8"))
    if not isinstance(value, kind):
        raise damaged(path, f"holds {_kind(value)} instead of {what}")
    return value


def read_array(path: Path, *, mmap: bool = False) -> np.ndarray:
    with reading(path):
        array = np.load(path, mmap_mode="r" if mmap else None)
    if not isinstance(array, np.ndarray):
        raise damaged(path, "is not a single numpy array")
    return array


def check_vectors(path: Path, vectors: np.ndarray, rows: int, dimension: int | None) -> np.ndarray:
    """``vectors`` as ``rows`` finite float vectors of ``dimension`` numbers (any dimension when None)."""
    if vectors.ndim != 2 or not np.issubdtype(vectors.dtype, np.floating):
        raise damaged(path, f"holds a {vectors.dtype} array of shape {vectors.shape}, not a matrix of vectors")
    width = vectors.shape[1] if dimension is None else dimension
    if vectors.shape != (rows, width):
        raise damaged(path, f"has shape {vectors.shape}, expected ({rows}, {width}): {rows} vectors of {width} numbers")
    bad = sum(
        int(np.count_nonzero(~np.isfinite(vectors[start : start + _CHECK_ROWS]).all(axis=1)))
        for start in range(0, rows, _CHECK_ROWS)
    )
    if bad:
        raise damaged(path, f"holds {bad} vector(s) that are not finite (NaN or infinity)")
    return vectors


def load_vectors(path: Path, rows: int, dimension: int | None) -> np.ndarray:
    return check_vectors(path, read_array(path), rows, dimension)


def load_table(directory: Path) -> ChunkTable:
    path = directory / TABLE_FILE
    data = read_json(path, dict, "the chunk table (an object of columns)")
    assert isinstance(data, dict)
    columns = {name: data.get(name) for name in ChunkTable.__dataclass_fields__}
    for name, column in columns.items():
        if not isinstance(column, list):
            raise damaged(path, f"has no list for its column {name!r}")
    if len({len(column) for column in columns.values()}) > 1:  # type: ignore[arg-type]
        raise damaged(path, "has columns of different lengths")
    for name in _TEXT_COLUMNS:
        if not all(isinstance(value, str) for value in columns[name]):  # type: ignore[union-attr]
            raise damaged(path, f"has a value in its column {name!r} that is not text")
    for name in ("starts", "ends"):
        if not all(type(value) is int for value in columns[name]):  # type: ignore[union-attr]
            raise damaged(path, f"has a value in its column {name!r} that is not a line number")
    return ChunkTable(**columns)  # type: ignore[arg-type]


def load_lexical(directory: Path, size: int) -> LexicalIndex:
    """A BM25 index over ``size`` documents, its arrays mapped."""
    params = read_json(directory / PARAMS_FILE, dict, "the lexical index's parameters (an object)")
    assert isinstance(params, dict)
    if params.get("version") != LEXICAL_VERSION or params.get("size") != size:
        raise damaged(directory / PARAMS_FILE, f"describes {params.get('size')!r} documents of version "
                      f"{params.get('version')!r}, expected {size} of version {LEXICAL_VERSION}")  # fmt: skip
    bm25 = read_json(directory / "params.index.json", dict, "the BM25 parameters (an object)")
    vocab = read_json(directory / "vocab.index.json", dict, "the BM25 vocabulary (an object of token numbers)")
    assert isinstance(bm25, dict) and isinstance(vocab, dict)
    numbers = (bm25.get("k1"), bm25.get("b"))
    if (
        bm25.get("method", "lucene") != "lucene"
        or bm25.get("num_docs") != size
        or not all(isinstance(value, int | float) and not isinstance(value, bool) for value in numbers)
    ):
        raise damaged(directory / "params.index.json", f"does not describe a lucene BM25 index of {size} documents")
    data, indices, indptr = (read_array(directory / name, mmap=True) for name in Bm25Index.FILES)
    paths = [directory / name for name in Bm25Index.FILES]
    for path, array, kind in zip(paths, (data, indices, indptr), (np.floating, np.integer, np.integer), strict=True):
        if array.ndim != 1 or not np.issubdtype(array.dtype, kind):
            raise damaged(path, f"holds a {array.dtype} array of shape {array.shape}, not a BM25 column")
    if len(indptr) < 1 or indptr[0] != 0 or indptr[-1] != len(indices) or len(data) != len(indices):
        raise damaged(paths[2], f"does not match {paths[1].name} and {paths[0].name}")
    if np.any(np.diff(indptr) < 0):
        raise damaged(paths[2], "has offsets that go backwards")
    if not all(type(number) is int and 0 <= number < len(indptr) for number in vocab.values()):
        raise damaged(directory / "vocab.index.json", f"has token numbers outside 0..{len(indptr) - 1}")
    index = Bm25Index(data, indices, indptr, size, vocab, float(numbers[0]), float(numbers[1]))  # type: ignore[arg-type]
    return LexicalIndex(index, size)


def load_graph(directory: Path, rows: int) -> SymbolGraph:
    path = directory / GRAPH_FILE
    with reading(path):
        matrix = sparse.load_npz(path).tocsr()
    if matrix.shape != (rows, rows):
        raise damaged(path, f"links {matrix.shape[0]}×{matrix.shape[1]} chunks, expected {rows}×{rows}")
    if matrix.nnz and (matrix.indices.min() < 0 or matrix.indices.max() >= rows or not np.isfinite(matrix.data).all()):
        raise damaged(path, "has links to chunks that do not exist or weights that are not finite")
    return SymbolGraph(matrix)


def load_file_index(directory: Path, table_paths: Sequence[str], dimension: int | None) -> FileIndex:
    path = directory / FILES_FILE
    paths = read_json(path, list, "a list of file paths")
    assert isinstance(paths, list)
    if not all(isinstance(entry, str) for entry in paths) or len(set(paths)) != len(paths):
        raise damaged(path, "holds entries that are not distinct file paths")
    number = {entry: i for i, entry in enumerate(paths)}
    if set(number) != set(table_paths):
        raise damaged(path, f"lists {len(number)} files, not the {len(set(table_paths))} files of the chunk table")
    cards = load_vectors(directory / CARD_VECTORS_FILE, len(paths), dimension)
    means = load_vectors(directory / MEAN_VECTORS_FILE, len(paths), dimension)
    lexical = load_lexical(directory / FILE_BM25, len(paths))
    plain = load_lexical(directory / FILE_PLAIN_BM25, len(paths))
    row_file = np.fromiter((number[entry] for entry in table_paths), dtype=np.int32, count=len(table_paths))
    return FileIndex(paths, row_file, lexical, plain, cards, means)


def load_corpus(directory: Path, rows: int) -> Corpus:
    """The corpus an update carries rows from (``Corpus.load`` with the reason when it cannot be used)."""
    read_json(directory / VOCAB_FILE, list, "the corpus vocabulary (a list of tokens)")
    with reading(directory / CORPUS_FILE):
        np.load(directory / CORPUS_FILE).close()
    corpus = Corpus.load(directory)
    if corpus is None or len(corpus) != rows:
        raise damaged(directory / CORPUS_FILE, f"is not a corpus of {rows} rows in the vocabulary of {VOCAB_FILE}")
    return corpus


@contextlib.contextmanager
def staging(directory: Path) -> Iterator[Path]:
    """A new folder to write a generation's search files into; on success each file is moved into ``directory``
    in one rename (the chunk table, which marks the search files complete, removed first and moved in last), so a
    reader never sees a half-written file. The folder is removed either way."""
    directory.mkdir(parents=True, exist_ok=True)
    for left in directory.glob(f"{STAGING_PREFIX}*"):  # of a rebuild whose process was killed
        if not _alive(left.name.removeprefix(STAGING_PREFIX).split("-")[0]):
            shutil.rmtree(left, ignore_errors=True)
    folder = directory / f"{STAGING_PREFIX}{os.getpid()}-{uuid.uuid4().hex[:8]}"
    folder.mkdir()
    try:
        yield folder
        _make_way(directory / TABLE_FILE)
        for written in sorted(folder.rglob("*")):
            if written.is_file() and written.name != TABLE_FILE:
                target = directory / written.relative_to(folder)
                if target.parent != directory and not target.parent.is_dir():
                    _make_way(target.parent)  # a file where a folder of BM25 arrays belongs
                    target.parent.mkdir(parents=True)
                if target.is_dir():
                    _make_way(target)
                written.replace(target)
        (folder / TABLE_FILE).replace(directory / TABLE_FILE)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _alive(pid: str) -> bool:
    try:
        os.kill(int(pid), 0)
    except (ValueError, ProcessLookupError):
        return False
    except PermissionError:
        return True
    return True


def _make_way(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)


def stored_vectors_damage(vectors: np.ndarray, dimension: int) -> str | None:
    """What is wrong with vectors about to be stored or read back from the store (None: nothing)."""
    if vectors.ndim != 2 or (len(vectors) and vectors.shape[1] != dimension):
        return f"they have shape {vectors.shape}, not {dimension} numbers each"
    bad = int(np.count_nonzero(~np.isfinite(vectors).all(axis=1))) if len(vectors) else 0
    return f"{bad} of them are not finite (NaN or infinity)" if bad else None
