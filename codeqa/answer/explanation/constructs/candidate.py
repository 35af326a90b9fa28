"""A piece of code an answer may show, with what speaks for it (``choose`` scores it, ``follow`` adds more)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from codeqa.answer.explanation.constructs.mechanism import Match, mechanism_score
from codeqa.records import Chunk, Hit

CHUNK_EVIDENCE_LINES = 8  # a file's chunk is chosen by its best lines: an answer spread over several lines counts


@dataclass
class Candidate:
    hit: Hit
    evidence: float
    matches: list[Match]
    file_rank: int  # position of its file among the retrieved files (len(files) when not retrieved)
    retrieved: bool  # among the sources retrieval and ``select_sources`` chose
    score: float = 0.0
    credit: float = 0.0  # a handler a construct names (``before_action :authenticate_user!``) shares its weight

    @property
    def chunk(self) -> Chunk:
        return self.hit.chunk

    @property
    def mechanism(self) -> float:
        return mechanism_score(self.matches) + self.credit


def discount_repeats(found: Sequence[Candidate]) -> None:
    """A construct said in many files (``before_action :authenticate_user!`` in every controller) is a use of the
    mechanism, not the mechanism: each match weighs 1/sqrt(files saying the same - 1) — the place that sets it
    up, said once or twice, keeps its weight."""
    files: dict[str, set[str]] = {}
    for candidate in found:
        for match in candidate.matches:
            files.setdefault(match.phrase, set()).add(candidate.chunk.path)
    for candidate in found:
        candidate.matches = [
            replace(match, weight=match.weight / math.sqrt(max(1, len(files[match.phrase]) - 1)))
            for match in candidate.matches
        ]  # said in two places (the setting and its use) is no repeat; from three on it is
