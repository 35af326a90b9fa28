"""Small helpers shared by several test modules: the library by index name, as the faces use it (a face opens the
index its user names; a question is checked before the index is opened, so a bad one is said first)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from codeqa.answer import AnswerStream, ask
from codeqa.config import Settings
from codeqa.index import Index, IndexReport
from codeqa.records import Hit
from codeqa.retrieve import Retrieval, retrieve, validate_query


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
