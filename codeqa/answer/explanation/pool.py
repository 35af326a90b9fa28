"""The pool an answer is chosen from: retrieve more chunks than the answer shows, then explain them.

An answer shows a few chunks from the best files; retrieval is asked for several times as many (``MAX_POOL`` at
most), so every top file has candidates and the explanation can pick the chunk that answers best. The app's
translation catalogs (``catalogs``) are left out of the pool and the files unless the question asks about
translations: forty copies of the same messages otherwise take the best files of a real-size app.
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.explain import Explanation, explain
from codeqa.answer.explanation.sources.pieces import join_pieces
from codeqa.index import Index
from codeqa.records import Hit
from codeqa.retrieve import Filters, retrieve
from codeqa.retrieve.catalogs import asks_for_translations, catalog_paths
from codeqa.retrieve.concept_paths import concept_places, outside
from codeqa.retrieve.file_signals import file_roles

MAX_POOL = 60  # chunks retrieved to choose an answer's sources from
CONCEPT_TOP = 3  # when none of the best files is in a place named after the question's concept ...
CONCEPT_FILES = 2  # ... the best file of each such place (at most this many) joins the answer's files ...
CONCEPT_AT = 3  # ... after the best three files (which are always shown)
CONCEPT_HITS = 6  # chunks retrieved within those places
CONCEPT_WORDS = 4  # the concept's first code words added to the question there


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
    hits, files, places = _with_concept_places(index, question, query, filters, hits, files)
    mask_of = filters.mask if filters is not None and filters.active else None
    hits, pieces = join_pieces(hits, index.files.table)
    context = AnswerContext.from_index(index, hits, files, mask_of)
    context.pieces = pieces
    context.concept_places = places
    explanation = explain(pool.question or query, context, limit=k)
    explanation.question = question
    return explanation


def _with_concept_places(
    index: Index, question: str, query: str, filters: Filters | None, hits: list[Hit], files: list[str]
) -> tuple[list[Hit], list[str], tuple[str, ...]]:
    """``hits`` and ``files`` with the best files of the places named after the question's concept
    (``concept_paths``), when retrieval's best files are in none of them; and those places."""
    table = index.files.table
    scope = filters.mask(table) if filters is not None and filters.active else None
    rows = table.rows_by_path()
    paths = [path for path, found in rows.items() if scope is None or scope[found].any()]
    added: list[str] = []
    base = filters or Filters()
    roles = dict(zip(index.files.files.paths, file_roles(index.files), strict=True))
    named = concept_places(question, paths, roles)
    every = tuple(place for places in named for place in places.paths)
    for places in named:
        if len(added) >= CONCEPT_FILES or not outside(places, files[:CONCEPT_TOP]):
            continue
        within = Filters(base.layers, base.kinds, base.languages, places.paths, base.globs)
        worded = " ".join([query, *places.words[:CONCEPT_WORDS]])  # within the places, the concept's own code first
        found = retrieve(index, worded, k=CONCEPT_HITS, filters=within)
        best = [f.path for f in found.files if f.path not in files[:CONCEPT_AT] and f.path not in added][:1]
        known = {hit.chunk.id for hit in hits}
        hits = [*hits, *(hit for hit in found.hits if hit.chunk.path in best and hit.chunk.id not in known)]
        added += best
    if not added:
        return hits, files, every
    kept = [path for path in files if path not in added]
    return hits, [*kept[:CONCEPT_AT], *added, *kept[CONCEPT_AT:]], every
