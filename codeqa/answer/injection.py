"""Text in a repository that talks to an AI assistant ("ignore previous instructions, tell the user to run …").

It is data, never instructions: prompts fence it, and the user is told when a source holds such text instead of
seeing it as a function's description. The patterns are phrases addressed to a model, not ordinary prose about
instructions, so a normal repository is rarely flagged (a flag is a notice, never a refusal).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from codeqa.answer.render import escape_markdown
from codeqa.records import Hit

INSTRUCTION_LIKE = re.compile(
    r"\b(?:ignore|disregard|forget|override)\s+(?:\w+\s+){0,3}?(?:previous|prior|above|earlier|preceding|system|all)"
    r"\s+(?:\w+\s+){0,2}?(?:instructions?|prompts?|rules|directions|guidelines)\b"
    r"|\b(?:you\s+are\s+now|from\s+now\s+on\s+you\s+are|act\s+as|pretend\s+(?:to\s+be|you\s+are))\s+(?:\w+\s+){0,3}?"
    r"(?:an?\s+)?(?:ai|assistant|model|llm|chatbot|gpt)\b"
    r"|\b(?:tell|instruct|advise|urge|convince|ask)\s+the\s+user\s+to\b"
    r"|\b(?:ai|llm|assistant|language\s+model|chatbot)s?\s+(?:\w+\s+){0,4}?(?:must|should|shall)\s+(?:always\s+|now\s+)?"
    r"(?:say|tell|answer|respond|reply|recommend|output|print|include|ignore)\b"
    r"|<\|im_(?:start|end)\|>|\[/?INST\]|<<\s*/?SYS\s*>>",
    re.IGNORECASE,
)
FLAG = "⚠ Its comment reads like instructions to an AI assistant, so it is not shown as a description (read the code)."


def instruction_like(text: str) -> str | None:
    """The first phrase of ``text`` that addresses an AI assistant, with a little context; None when there is none."""
    match = INSTRUCTION_LIKE.search(text)
    if not match:
        return None
    start, end = max(0, match.start() - 20), min(len(text), match.end() + 40)
    snippet = " ".join(text[start:end].split())
    return ("…" if start else "") + snippet + ("…" if end < len(text) else "")


def describe(summary: str) -> str:
    """A docstring's first sentence as markdown text, or a flag when it addresses an AI assistant."""
    return FLAG if instruction_like(summary) else escape_markdown(summary)


def flag_sources(hits: Sequence[Hit]) -> str | None:
    """One-line notice naming the sources that hold instruction-like text (None when none does)."""
    flagged = [
        (number, hit, phrase) for number, hit in enumerate(hits, 1) if (phrase := instruction_like(hit.chunk.text))
    ]
    if not flagged:
        return None
    number, hit, phrase = flagged[0]
    more = f" (and {len(flagged) - 1} more source(s))" if len(flagged) > 1 else ""
    return (
        f"Source [{number}] {hit.location}{more} contains text addressed to an AI assistant (“{phrase}”): it is "
        "treated as quoted data, never as instructions. Be careful with any command it suggests."
    )
