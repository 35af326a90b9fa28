"""The functions a construct hands control to (``register_error_handler(404, render_error)``), as candidates: a
construct says who is called, the handler says what happens."""

from __future__ import annotations

from collections.abc import Sequence

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.constructs.candidate import Candidate
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.frameworks.conventions import Convention
from codeqa.records import Hit
from codeqa.symbols import defined_names, short_names

HANDLER_SHARE = 0.8  # a handler named by a construct gets this share of the construct's weight
MAX_HANDLERS = 4


def handler_candidates(
    context: AnswerContext, conventions: Sequence[Convention], intents: Sequence[str], found: Sequence[Candidate]
) -> list[Candidate]:
    """Candidates for the handlers the constructs of ``found`` name (at most ``MAX_HANDLERS``), each credited with
    ``HANDLER_SHARE`` of its construct's weight."""
    inside = {c.chunk.id for c in found}
    credit: dict[str, float] = {}
    for candidate in sorted(found, key=lambda c: -c.mechanism):
        for match in candidate.matches:
            name = match.handler.rstrip("!?").lower()
            if name and len(name) > 2:
                credit[name] = max(credit.get(name, 0.0), HANDLER_SHARE * match.weight)
    rows: list[int] = []
    for name in list(credit)[: 2 * MAX_HANDLERS]:
        named = [r for r in context.definers.get(name, []) if name in defined_names(context.table.symbols[r].lower())]
        for row in named[:2]:  # a chunk named for the handler (not a class holding it)
            if context.in_scope(row) and context.table.layers[row] not in ("test", "docs") and row not in rows:
                rows.append(row)
    handlers: list[Candidate] = []
    for chunk in context.chunks(rows):
        names = {n.rstrip("!?").lower() for n in short_names(chunk.symbol)}
        share = max((value for name, value in credit.items() if name in names), default=0.0)
        if chunk.id in inside or share <= 0:
            continue
        inside.add(chunk.id)
        handlers.append(Candidate(Hit(chunk, 0.0, chunk.id), 0.0, matches_in(chunk, conventions, intents), 0,
                                  False, credit=share))  # fmt: skip
    return sorted(handlers, key=lambda c: -c.mechanism)[:MAX_HANDLERS]
