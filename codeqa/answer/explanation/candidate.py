"""A piece of code an answer may show, with what speaks for it (``choose`` scores it, ``follow`` adds more)."""

from __future__ import annotations

from dataclasses import dataclass

from codeqa.answer.explanation.mechanism import Match, mechanism_score
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
