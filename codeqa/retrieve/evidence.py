"""Evidence inside a chunk's text, for the second stage: where the question's words sit, and in what.

- *proximity*: the question's terms found close together (within a window of ``WINDOW`` code tokens) are evidence
  that the chunk is about them, not that it happens to contain them all somewhere;
- *comments and docstrings*: the question's terms in the prose a developer wrote about the code (a newcomer's
  words meet the docstring's), as opposed to only in the code — or only in commented-out code.

Terms are weighted by their inverse document frequency, so a rare word counts more than ``data``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from codeqa.tokens import code_tokens

if TYPE_CHECKING:
    import numpy as np

WINDOW = 24  # code tokens
_LINE_COMMENT = re.compile(r"^\s*(#|//|--|;|%|\*|/\*|<!--|\{\{!|\{#)")
_DOCSTRING = re.compile(r'^\s*[rbuRBU]?("""|\'\'\')')


@dataclass(frozen=True)
class QueryTerms:
    """The question's distinct code tokens and their weights (IDF over the index's chunks)."""

    terms: tuple[str, ...]
    weights: dict[str, float]

    @property
    def total(self) -> float:
        return sum(self.weights.values())

    @classmethod
    def of(cls, terms: Sequence[str], document_counts: Sequence[float] | np.ndarray, documents: int) -> QueryTerms:
        """``terms`` weighted by ``log(1 + (documents - count + 0.5) / (count + 0.5))``; unknown terms dropped."""
        weights = {}
        for term, count in zip(terms, document_counts, strict=True):
            if count > 0:
                weights[term] = math.log(1.0 + (documents - count + 0.5) / (count + 0.5))
        return cls(tuple(t for t in terms if t in weights), weights)


def prose_lines(text: str) -> list[bool]:
    """Per line: is it a comment or inside a docstring / block comment (any common language's syntax)?"""
    flags = []
    block: str | None = None
    for line in text.split("\n"):
        if block is not None:
            flags.append(True)
            if block in line:
                block = None
            continue
        docstring = _DOCSTRING.match(line)
        if docstring:
            quote = docstring.group(1)
            flags.append(True)
            if line.count(quote) == 1:
                block = quote
            continue
        stripped = line.lstrip()
        if stripped.startswith("/*") and "*/" not in stripped:
            block = "*/"
            flags.append(True)
            continue
        if stripped.startswith("{-") and "-}" not in stripped:
            block = "-}"
            flags.append(True)
            continue
        flags.append(bool(_LINE_COMMENT.match(line)))
    return flags


@dataclass(frozen=True)
class TextEvidence:
    proximity: float  # weight of the distinct terms in the best window, over all terms' weight
    prose: float  # weight of the distinct terms found in comments / docstrings, over all terms' weight
    code: float  # weight of the distinct terms found in code lines, over all terms' weight
    prose_share: float  # lines that are comments or docstrings


def text_evidence(text: str, terms: QueryTerms) -> TextEvidence:
    total = terms.total
    if total <= 0 or not text:
        return TextEvidence(0.0, 0.0, 0.0, 0.0)
    lines = text.split("\n")
    prose = prose_lines(text)
    in_prose: set[str] = set()
    in_code: set[str] = set()
    stream: list[str] = []
    for line, is_prose in zip(lines, prose, strict=True):
        tokens = [t if t in terms.weights else "" for t in code_tokens(line)]
        (in_prose if is_prose else in_code).update(t for t in tokens if t)
        stream.extend(tokens)
        stream.append("")  # a line break is one position: lines apart are further apart
    return TextEvidence(
        proximity=_best_window(stream, terms.weights) / total,
        prose=sum(terms.weights[t] for t in in_prose) / total,
        code=sum(terms.weights[t] for t in in_code) / total,
        prose_share=sum(prose) / max(1, len(prose)),
    )


def _best_window(stream: list[str], weights: dict[str, float]) -> float:
    """The largest weight of distinct terms inside any ``WINDOW`` consecutive positions of ``stream``."""
    positions = [(i, t) for i, t in enumerate(stream) if t]
    best = 0.0
    counts: dict[str, int] = {}
    weight = 0.0
    start = 0
    for i, term in positions:
        counts[term] = counts.get(term, 0) + 1
        if counts[term] == 1:
            weight += weights[term]
        while positions[start][0] <= i - WINDOW:
            old = positions[start][1]
            counts[old] -= 1
            if counts[old] == 0:
                weight -= weights[old]
            start += 1
        best = max(best, weight)
    return best
