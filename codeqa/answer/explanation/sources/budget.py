"""How many key lines each open source of an answer shows: the best sources are sure of some, the rest of the
budget goes to the best-scoring lines anywhere, and a short body takes exactly its code lines (``wholebody``)."""

from __future__ import annotations

from collections.abc import Sequence

from codeqa.answer.explanation.code.keylines import Terms, shown_scores
from codeqa.answer.explanation.code.wholebody import whole_body
from codeqa.answer.explanation.constructs.mechanism import Match
from codeqa.answer.explanation.sources.choose import FORCED_LINES
from codeqa.records import Chunk


def allocate_lines(
    terms: Terms, sources: Sequence[tuple[Chunk, Sequence[Match]]], total: int, least: Sequence[int], most: int
) -> list[int]:
    """How many key lines each source shows (sources best first): at least ``least[n]`` for the n-th, then the rest
    of ``total`` to the best-scoring lines across the sources (construct lines count as the best), ``most`` each."""
    ranked: list[list[float]] = []
    for chunk, matches in sources:
        forced = [100.0 + m.weight for m in sorted(matches, key=lambda m: -m.weight)[:FORCED_LINES]]
        scores = [score for score, _ in shown_scores(terms, chunk.text)]
        ranked.append(sorted([*forced, *scores], reverse=True))
    whole = [len(whole_body(chunk)) for chunk, _ in sources]  # a short body takes its lines, no more
    counts = [whole[n] or min(least[min(n, len(least) - 1)], len(scores) or 1) for n, scores in enumerate(ranked)]
    spare = total - sum(counts)
    while spare > 0:
        best, pick = 0.0, None
        for n, scores in enumerate(ranked):
            if not whole[n] and counts[n] < min(most, len(scores)) and scores[counts[n]] > best:
                best, pick = scores[counts[n]], n
        if pick is None:
            break
        counts[pick] += 1
        spare -= 1
    return counts
