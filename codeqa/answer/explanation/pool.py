"""The pool an answer is chosen from: retrieve more chunks than the answer shows, then explain them.

An answer shows a few chunks from the best files; retrieval is asked for several times as many (``MAX_POOL`` at
most), so every top file has candidates and the explanation can pick the chunk that answers best. The app's
translation catalogs (``catalogs``) are left out of the pool and the files unless the question asks about
translations: forty copies of the same messages otherwise take the best files of a real-size app.
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.explain import Explanation, explain
from codeqa.answer.explanation.pieces import join_pieces
from codeqa.index import Index
from codeqa.retrieve import Filters, retrieve
from codeqa.retrieve.catalogs import asks_for_translations, catalog_paths

MAX_POOL = 60  # chunks retrieved to choose an answer's sources from


def explain_index(index: Index, question: str, query: str, filters: Filters | None, k: int) -> Explanation | None:
    """Retrieve a pool of chunks for ``query`` and build the extractive explanation from it (None: nothing matched)."""
    pool = retrieve(index, query, k=min(MAX_POOL, max(3 * k, 24)), filters=filters)
    hits, files = pool.hits, [f.path for f in pool.files]
    if not asks_for_translations(question):
        table = index.files.table
        catalogs = table.derived("translation catalogs", lambda: catalog_paths(table.rows_by_path()))
        kept_hits = [hit for hit in hits if hit.chunk.path not in catalogs]
        kept_files = [path for path in files if path not in catalogs]
        if kept_files:  # the answer reads the best other files even when catalogs filled the whole pool
            hits, files = kept_hits, kept_files
    if not files:
        return None
    mask_of = filters.mask if filters is not None and filters.active else None
    hits, pieces = join_pieces(hits, index.files.table)
    context = AnswerContext.from_index(index, hits, files, mask_of)
    context.pieces = pieces
    explanation = explain(pool.question or query, context, limit=k)
    explanation.question = question
    return explanation
