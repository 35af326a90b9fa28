"""Key lines: the few lines of a chunk that best match a question, so a result list can show *why* it matched.

Lines are scored by how many distinct question terms they contain, with the same code-aware tokens as lexical
search (``getUserName`` matches "user name"); ties go to the earlier line. The chosen lines come back in file
order with their real line numbers. When no line shares a term, the first non-blank line (usually the
signature) stands in, so every result has something to show.
"""

from __future__ import annotations

from dataclasses import dataclass

from codeqa.store.lexical import code_tokens

MAX_KEY_LINES = 5
MAX_LINE_CHARS = 200


@dataclass(frozen=True)
class KeyLine:
    line: int  # 1-based line number in the file
    text: str  # the line, right-stripped and cut to MAX_LINE_CHARS


def key_lines(question: str, text: str, start_line: int = 1, *, limit: int = MAX_KEY_LINES) -> list[KeyLine]:
    """Up to ``limit`` lines of ``text`` (starting at ``start_line``) sharing the most terms with ``question``."""
    terms = set(code_tokens(question))
    lines = text.split("\n")
    scored: list[tuple[int, int]] = []  # (-score, index)
    if terms:
        for index, line in enumerate(lines):
            score = len(terms.intersection(code_tokens(line))) if line.strip() else 0
            if score:
                scored.append((-score, index))
    chosen = sorted(index for _, index in sorted(scored)[: max(0, limit)])
    if not chosen and limit > 0:
        chosen = next(([index] for index, line in enumerate(lines) if line.strip()), [])
    return [KeyLine(start_line + index, _clip(lines[index])) for index in chosen]


def _clip(line: str) -> str:
    line = line.rstrip()
    return line if len(line) <= MAX_LINE_CHARS else line[: MAX_LINE_CHARS - 1] + "…"
