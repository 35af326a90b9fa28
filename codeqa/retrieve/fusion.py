"""Fusing the signals: weighted reciprocal-rank fusion, demotion of docs and tests, and file aggregation."""

from __future__ import annotations

from dataclasses import dataclass

from codeqa.errors import QueryError
from codeqa.store.table import ChunkTable

RRF_K = 60


@dataclass(frozen=True)
class Weights:
    """How much each signal counts in the fusion, chosen on both public evaluation sets (bench/README.md).

    Graph evidence is off by default: on the public sets it raised issue-style localization by two
    instances but cost three on the newcomer questions. The graph still powers ``neighbors`` and the
    extractive answer's relations; ``codeqa eval --weights graph=0.3`` reproduces the comparison.
    """

    dense: float = 1.0
    lexical: float = 1.0
    symbol: float = 1.0
    graph: float = 0.0
    doc_penalty: float = 0.25  # docs (markdown, rst, changelogs) only win when code does not answer
    test_penalty: float = 0.6  # tests describe behaviour twice; the implementation is usually wanted
    # A file's score is its best chunk plus this share of each further chunk's score. Short "where/how"
    # questions are about a place, so evidence spread over a file counts; long issue-style reports name
    # specifics, and summing there favours big hub files over the one the report is about.
    file_bonus: float = 0.2
    file_bonus_long: float = 0.05
    long_query_words: float = 60

    @classmethod
    def parse(cls, text: str) -> Weights:
        """``"graph=0.2,doc_penalty=0.3"`` → Weights with those fields changed (for ``codeqa eval --weights``)."""
        values: dict[str, float] = {}
        for part in filter(None, (p.strip() for p in text.split(","))):
            key, _, value = part.partition("=")
            if key.strip() not in cls.__dataclass_fields__:
                raise QueryError(f"Unknown weight {key!r}; known: {', '.join(cls.__dataclass_fields__)}.")
            try:
                values[key.strip()] = float(value)
            except ValueError:
                raise QueryError(f"Weight {key!r} needs a number, got {value!r}.") from None
        return cls(**values)

    def file_bonus_for(self, words: int) -> float:
        long_query = words > self.long_query_words
        return self.file_bonus_long if long_query else self.file_bonus


def fuse(signals: dict[str, list[int]], weights: Weights) -> dict[int, float]:
    fused: dict[int, float] = {}
    for name, order in signals.items():
        weight = getattr(weights, name)
        for rank, row in enumerate(order):
            fused[row] = fused.get(row, 0.0) + weight / (RRF_K + rank)
    return fused


def apply_penalties(fused: dict[int, float], table: ChunkTable, wants_tests: bool, weights: Weights) -> None:
    """Demote docs and tests unless the question asks for them."""
    for row in fused:
        if table.kinds[row] == "doc":
            fused[row] *= weights.doc_penalty
        elif not wants_tests and (table.layers[row] == "test" or table.kinds[row] == "test"):
            fused[row] *= weights.test_penalty


def file_scores(table: ChunkTable, order: list[int], fused: dict[int, float], file_bonus: float) -> dict[str, float]:
    """Each file's best chunk score plus ``file_bonus`` × each further chunk's, in rank order of first appearance."""
    scores: dict[str, float] = {}
    for row in order:
        path = table.paths[row]
        if path not in scores:
            scores[path] = fused[row]
        else:
            scores[path] += file_bonus * fused[row]  # more evidence in the same file counts a little
    return scores
