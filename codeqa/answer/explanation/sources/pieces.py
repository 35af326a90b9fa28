"""A definition the chunker split is one source: the pool's adjacent pieces of one named function or class are
joined before the answer chooses from them (a file's top-level code is not one definition: pieces of it, such as a
module's ``exports.a = function …`` and ``exports.b = function …``, stay apart).

A long function is cut into chunks of a few dozen lines. When retrieval brings two pieces of it, the answer used to
show them as two sources ("[2] `ScriptJob.run_script` (`jobs.py:54-98`)" and "[6] `ScriptJob.run_script`
(`jobs.py:30-53`)"), each with its own few lines: the head piece's `with transaction.atomic(…)` fell to a folded
source. Joined, the definition is cited once and its best lines are chosen over the whole of it.

Only pieces that are both in the pool are joined (retrieval found each worth reading), only where nothing but blank
lines lies between them in the file (chunks hold every non-blank line, so the joined text is exact), and only up to
``MAX_JOINED_LINES``: a source is read at a glance.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.constructs.candidate import Candidate
from codeqa.records import Chunk, Hit
from codeqa.searchfiles.table import ChunkTable

MAX_JOINED_LINES = 150
MAX_GAP = 3  # blank lines between two pieces


def join_pieces(hits: Sequence[Hit], table: ChunkTable) -> tuple[list[Hit], dict[str, tuple[str, ...]]]:
    """The pool with each run of adjacent pieces of one definition joined into one chunk, placed where its best
    piece was, with the best piece's score; and the joined chunks' ids → the ids of the pieces they hold."""
    by_path: dict[str, list[Hit]] = {}
    for hit in hits:
        by_path.setdefault(hit.chunk.path, []).append(hit)
    joined_of: dict[str, Hit] = {}  # a piece's id → the joined hit that holds it
    pieces: dict[str, tuple[str, ...]] = {}
    for path, found in by_path.items():
        if len(found) < 2:
            continue
        starts = sorted(table.starts[row] for row in table.rows_by_path().get(path, []))
        run: list[Hit] = []
        for hit in sorted(found, key=lambda h: h.chunk.start_line):
            if run and _continues(run[-1].chunk, hit.chunk, run[0].chunk, starts):
                run.append(hit)
                continue
            _close(run, joined_of, pieces)
            run = [hit]
        _close(run, joined_of, pieces)
    if not pieces:
        return list(hits), {}
    result: list[Hit] = []
    placed: set[str] = set()
    for hit in hits:
        joined = joined_of.get(hit.chunk.id)
        if joined is None:
            result.append(hit)
        elif joined.chunk.id not in placed:
            placed.add(joined.chunk.id)
            result.append(joined)
    return result, pieces


def _continues(before: Chunk, after: Chunk, first: Chunk, starts: Sequence[int]) -> bool:
    """Whether ``after`` goes on where ``before`` ends in one definition: the same symbol, only blank lines between
    (no indexed chunk starts there), the run from ``first`` short enough to read."""
    gap = after.start_line - before.end_line - 1
    if (
        not 0 <= gap <= MAX_GAP
        or not after.symbol
        or after.symbol != before.symbol
        or after.language != before.language
    ):
        return False
    if any(before.end_line < start < after.start_line for start in starts):
        return False
    return after.end_line - first.start_line + 1 <= MAX_JOINED_LINES


def _close(run: list[Hit], joined_of: dict[str, Hit], pieces: dict[str, tuple[str, ...]]) -> None:
    if len(run) < 2:
        return
    first, last = run[0].chunk, run[-1].chunk
    lines: list[str] = []
    for hit in run:
        lines.extend([""] * (hit.chunk.start_line - first.start_line - len(lines)))
        lines.extend(hit.chunk.text.split("\n"))
    chunk = Chunk(first.path, first.language, first.start_line, last.end_line, "\n".join(lines), first.symbol,
                  first.kind, first.layer)  # fmt: skip
    joined = Hit(chunk, max(hit.score for hit in run), chunk.id)
    pieces[chunk.id] = tuple(hit.chunk.id for hit in run)
    for hit in run:
        joined_of[hit.chunk.id] = joined


def whole_definition(chunk: Chunk, context: AnswerContext) -> Chunk:
    """``chunk`` with the other pieces of the definition the chunker split it from (``definition_rows``), joined as the
    pool joins them: a walk reads ``RHLogin._process`` whole, not the head piece that stops before the form is
    checked. ``chunk`` itself when it is no piece, or already joined."""
    if not chunk.symbol or chunk.id in context.pieces:
        return chunk
    row = context.row_of(chunk)
    rows = context.definition_rows(row) if row is not None else []
    if len(rows) < 2:
        return chunk
    pieces = context.chunks(rows)
    joined, held = join_pieces([Hit(piece, 0.0, piece.id) for piece in pieces], context.table)
    whole = next((hit.chunk for hit in joined if chunk.id in held.get(hit.chunk.id, ())), None)
    if whole is None:
        return chunk
    context.pieces[whole.id] = held[whole.id]
    return whole


def whole_candidates(found: Sequence[Candidate], context: AnswerContext) -> list[Candidate]:
    """``found`` with each piece of a split definition shown as the whole definition, once (the better placed)."""
    out: list[Candidate] = []
    seen: set[str] = set()
    for candidate in found:
        whole = whole_definition(candidate.chunk, context)
        if whole.id not in seen:
            seen.add(whole.id)
            joined = Hit(whole, candidate.hit.score, whole.id)
            out.append(candidate if whole is candidate.chunk else replace(candidate, hit=joined))
    return out
