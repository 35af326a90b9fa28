r"""What is absent, said only from the evidence searched: "there is no central error handler".

A "what happens when … fails" answer is incomplete without saying where errors go; when nothing catches them
centrally, that is the answer's most useful sentence ("each view answers with its own 4xx"). A false absence is
worse than none, so it is said only when
- the app's frameworks (``mechanism.frameworks``) define what a central handler looks like: their ``error``
  constructs of weight ≥ ``CENTRAL_WEIGHT`` (``errorhandler``, ``register_error_handler``, ``rescue_from``,
  ``@ControllerAdvice``, error middleware, ``process_exception``, …);
- every one of them can be searched for in the whole index through its anchor (``searchable``: each alternative of
  its pattern names an anchor word as a whole identifier — ``\w*exception_handler`` or ``(?:Rest)?ControllerAdvice``
  could hide inside a longer name the word index does not hold), and no more than ``MAX_ROWS`` chunks hold an
  anchor (each is read and checked);
- and no code line of the index names any of their anchors (not only in the construct's own form: a handler
  registered some other way still names it).
The sentence names what was searched, and cites the error answers it found in the open sources.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.calls.flow import code_part
from codeqa.answer.explanation.code.keylines import prose_lines
from codeqa.answer.explanation.constructs.mechanism import frameworks
from codeqa.answer.rendering.render import code_span
from codeqa.frameworks.conventions import Construct, anchor_rows

CENTRAL_WEIGHT = 1.4
MAX_ROWS = 400
BOUNDED_BEFORE = ("_)?", "\\b", "\\.", "@", "\\s*", "\\s+", "^", "|", "(?:", "(", "'", '"', "]", ">", ":", " ")


@dataclass(frozen=True)
class Absence:
    searched: tuple[str, ...]  # the anchors searched for, as written in code (``errorhandler``)
    frameworks: tuple[str, ...]


def central_handlers(context: AnswerContext) -> tuple[list[Construct], list[str]]:
    """The central error-handler constructs of the app's frameworks, and the frameworks' names."""
    found: list[Construct] = []
    names: list[str] = []
    for convention in frameworks(context):
        mine = [c for c in convention.constructs if c.kind == "error" and c.weight >= CENTRAL_WEIGHT]
        if mine:
            found += mine
            names.append(convention.name)
    return found, names


def _alternatives(pattern: str) -> list[str]:
    """The top-level ``|`` alternatives of a regular expression's source."""
    parts, depth, start, escaped = [], 0, 0, False
    for index, char in enumerate(pattern):
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif char == "|" and depth == 0:
            parts.append(pattern[start:index])
            start = index + 1
    return [*parts, pattern[start:]]


def searchable(construct: Construct) -> bool:
    """Whether every line the construct matches holds one of its anchor words as a whole identifier."""
    words = [w.strip() for w in construct.anchor.split("|")]
    if not words or any(not w.isidentifier() for w in words):
        return False

    def names(alternative: str, word: str) -> bool:
        for found in re.finditer(re.escape(word), alternative):
            before, after = alternative[: found.start()], alternative[found.end() :]
            if (not before or before.endswith(BOUNDED_BEFORE)) and not re.match(r"[A-Za-z0-9_]|\\w", after):
                return True
        return False

    return all(
        any(names(alternative, word) for word in words) for alternative in _alternatives(construct.pattern.pattern)
    )


def _code_lines(text: str) -> list[str]:
    return [line for line in text.split("\n") if line.strip() and not line.lstrip().startswith(("#", "//", "*"))]


def no_central_handler(context: AnswerContext) -> Absence | None:
    """An ``Absence`` when the whole index was searched for every central error handler its frameworks know and none
    is there; None when one is there, or when the search could not be complete."""
    constructs, names = central_handlers(context)
    if not constructs or not all(searchable(c) for c in constructs):
        return None
    rows_of = {c.anchor: anchor_rows(c.anchor, context.rows_mentioning) for c in constructs}
    rows = list(dict.fromkeys(row for found in rows_of.values() for row in found))
    if len(rows) > MAX_ROWS:
        return None
    chunks = context.chunks(rows)
    if len(chunks) < len(rows):
        return None  # a chunk could not be read: the search is not complete
    anchors = sorted({part.strip() for c in constructs for part in c.anchor.split("|") if part.strip()})
    written = re.compile("|".join(map(re.escape, anchors)), re.IGNORECASE)
    for chunk in chunks:  # any code line naming one (not only the construct's form) and nothing is said
        if any(written.search(line) for line in _code_lines(chunk.text)):
            return None
    return Absence(tuple(anchors), tuple(names))


def absence_sentence(absence: Absence, errors: Sequence[tuple[str, str]]) -> tuple[str, str]:
    """(markdown, plain): the absence, what was searched, and the errors answered where they happen
    (``errors``: (line text, ``path:line``))."""
    searched_md = ", ".join(code_span(anchor) for anchor in absence.searched[:6])
    searched = ", ".join(absence.searched[:6])
    said = "the app's code defines no central error handler — no code line of the index uses"
    names = " and ".join(absence.frameworks)
    markdown = f"**What is absent:** {said} {searched_md} ({names})"
    plain = f"What is absent: {said} {searched} ({names})"
    if errors:
        cited_md = "; ".join(f"{code_span(text)} ({code_span(where)})" for text, where in errors[:2])
        cited = "; ".join(f"{text} ({where})" for text, where in errors[:2])
        markdown += f", so each place answers its own error: {cited_md}"
        plain += f", so each place answers its own error: {cited}"
    return markdown + ".", plain + "."


OWN_ERROR = re.compile(r"\babort\(|\b[45]\d\d\b|^\s*(?:raise|throw)\b")  # an error answered where it happens


def errors_answered(steps: Sequence[Any]) -> list[tuple[str, str]]:
    """(line, ``path:line``) of up to two key lines of ``steps`` (``explain.Step``) that answer an error in place:
    by their code, not a docstring or a string that mentions a 404."""
    found = []
    for step in steps:
        prose = prose_lines(step.chunk.text.split("\n"))
        found += [(" ".join(line.text.split()), f"{step.chunk.path}:{line.line}") for line in step.lines
                  if line.line - step.chunk.start_line not in prose
                  and OWN_ERROR.search(code_part(line.text))]  # fmt: skip
    return found[:2]
