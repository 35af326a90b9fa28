"""Small helpers shared by several test modules: the library by index name, as the faces use it (a face opens the
index its user names; a question is checked before the index is opened, so a bad one is said first)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from codeqa.answer import AnswerStream, ask
from codeqa.config import Settings
from codeqa.index import Index, IndexReport
from codeqa.records import Hit
from codeqa.retrieve import Retrieval, retrieve, validate_query
from codeqa.searchfiles.files import SearchFiles


def build_index(source: str, settings: Any, **options: Any) -> IndexReport:
    """``Index.build`` and its report (what ``codeqa index`` prints)."""
    report = Index.build(source, settings, **options).report
    assert report is not None
    return report


def retrieve_named(
    name: str, query: str, settings: Any, *, store: Any = None, embedder: Any = None, **options: Any
) -> Retrieval:
    query = validate_query(query)
    return retrieve(Index.open(name, settings, store=store, embedder=embedder), query, **options)


def ask_named(name: str, question: str, settings: Any, **options: Any) -> AnswerStream:
    question = validate_query(question)
    return ask(Index.open(name, settings), question, **options)


def search_hits(name: str, query: str, settings: Any, **options: Any) -> list[Hit]:
    """The top chunks of a retrieval (what ``codeqa search`` prints)."""
    return retrieve_named(name, query, settings, **options).hits


def extractive_text(home: Path, name: str, question: str) -> str:
    """The answer to ``question`` from index ``name`` in data dir ``home``, with no language model."""
    return ask_named(name, question, Settings(home=home), backend="none").result().text


def growth(work: Callable[[int], object], size: int, factor: int = 8, repeats: int = 3) -> float:
    """How many times the CPU time of ``work(size)`` ``work(size * factor)`` takes (best of ``repeats`` each): about
    ``factor`` when the work is linear in ``size``, ``factor ** 2`` when it rescans the rest of its input at each
    position. CPU time of this process, so other processes on a loaded machine do not count; a ratio, so a slow
    machine does not either. Speed itself is for bench/; this says how the work grows."""

    def cost(n: int) -> float:
        best = float("inf")
        for _ in range(repeats):
            began = time.process_time()
            work(n)
            best = min(best, time.process_time() - began)
        return best

    return cost(size * factor) / max(cost(size), 1e-6)


def links(files: SearchFiles) -> set[tuple[str, str]]:
    """The graph's links as (caller file:symbol, callee file:symbol)."""
    table, matrix = files.table, files.graph.matrix
    sources, targets = matrix.nonzero()
    name = lambda row: f"{table.paths[row]}:{table.symbols[row]}"  # noqa: E731
    return {(name(a), name(b)) for a, b in zip(sources.tolist(), targets.tolist(), strict=True)}


class FileTexts:
    """The files a claim checker reads (``claims.ClaimChecker.file_text``), from ``files``; nothing is reached,
    overloaded or imported besides (the stand-in for ``Implementations`` in ``holds_by_name``); each name is defined
    once in the index unless ``definitions`` counts it, and no method's return type is known but ``returns``'."""

    def __init__(
        self, files: dict[str, str], definitions: dict[str, int] | None = None, returns: dict[str, str] | None = None
    ) -> None:
        self.files = files
        self.counts = definitions or {}
        self.declared = returns or {}

    def file_text(self, path: str) -> str:
        return self.files[path]

    def reaches(self, *args: object) -> bool:
        return False

    def overloaded(self, method: str, used: object) -> bool:
        return False

    def imported_files(self, path: str) -> tuple[str, ...]:
        return ()

    def definitions(self, name: str) -> int:
        return self.counts.get(name, 1)

    def returns(self, owner: str, method: str) -> str | None:
        return self.declared.get(f"{owner}.{method}")
