"""Where a cited caller calls: a source's sentence names the code that calls (or uses) it; for one caller per
source, the caller's own line that makes the call is quoted after its citation.

"`authenticateUser` … is called by `handle` (`app/Actions/AttemptToAuthenticateSocialite.php:39-59`), in
`$user = $this->authenticateUser($request, $driver, $provider->user());` (line 49)". The caller is cited by its
span, which shows no lines of its own when it is not an open source; the line that links it to the source is the
one a reader looks for there. The line is the checked use itself (``claims``: the call the symbol graph verified,
in the caller's file), quoted whole as the code has it, so the clause says only what the code holds:
- a line the answer already shows (a source's key lines, a step of the walk, a callee's ending) is not said again;
- only a call's line (not a type's or a base class's use) of the definition the sentence names, a whole statement
  (begun and ended on the line, but for the block it opens), never one that reads like an instruction;
- only a line on the question's topic: it plays a role its intents ask for (``lineroles``), not a generic one;
- of a source's callers, the one whose line holds most of the question's words, then does most (``lineroles``),
  is said; a line is quoted once in an answer. The answer gets no more lines, only that clause.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from codeqa.answer.explanation.calls.flow import Use, code_part
from codeqa.answer.explanation.code.keylines import COMMENT, MAX_LINE_CHARS, Terms, term_score
from codeqa.answer.explanation.code.lineroles import role_of, role_weight
from codeqa.answer.explanation.code.outline import display_name
from codeqa.answer.explanation.explain import Explanation, Step
from codeqa.answer.explanation.said.callees import CONTINUED, goes_on_below
from codeqa.answer.explanation.said.outcomes import UNFINISHED
from codeqa.answer.rendering.injection import instruction_like
from codeqa.answer.rendering.render import code_span
from codeqa.records import Chunk
from codeqa.symbols import short_name

GENERIC = frozenset({"work", "call", "state", "value"})  # roles any line of code plays: no sign of the topic
BLOCK_OPENER = re.compile(r"\s*(?:\{|:|\bdo(?:\s*\|[^|]*\|)?|\bthen)$")  # the block a line opens: not a cut statement


@dataclass(frozen=True)
class CallSite:
    """The line of ``chunk`` (the caller) where it uses the source: ``use``."""

    chunk: Chunk
    use: Use

    @property
    def key(self) -> tuple[str, int]:
        return self.chunk.path, self.use.line

    def markdown(self) -> str:
        """The clause after the caller's citation: ", in `…` (line 49)"."""
        return f", in {code_span(self.use.text)} (line {self.use.line})"


def _callers(step: Step, explanation: Explanation) -> Iterator[tuple[Chunk, Use]]:
    for rank, use in step.called_by:
        yield explanation.step(rank).chunk, use
    for related in step.related:
        if related.direction == "called_by":
            yield related.chunk, related.use


def on_topic(terms: Terms, text: str) -> bool:
    """A line plays a role the question's intents ask for, not a generic one: a sign-in asked about signing in, an
    error's answer asked about failing, not any call whose result is kept asked about jobs. A question's word alone
    is too weak a sign: measured on realsize + dev 183 (263 answers), words quoted 202 call lines to show 3 more key
    lines; intents' roles 32 lines for the same 3; without the generic roles, 23."""
    role = role_of(text, terms.intents)
    return role is not None and role.name not in GENERIC and role_weight(text, terms.intents) > role_weight(text)


def quotable_call(chunk: Chunk, use: Use, own: str) -> bool:
    """Whether caller ``chunk``'s line of ``use`` can be quoted after a sentence about definition ``own``."""
    text = use.text.strip()
    if use.verb != "calls" or not text or text != use.text or len(text) > MAX_LINE_CHARS:
        return False  # a use (a type, a base class, an include) is no line a reader looks for
    if COMMENT.match(text) or CONTINUED.match(text) or instruction_like(text):
        return False  # a comment, the rest of a statement begun above (`? $this->forcesync()`), an instruction
    if not use.caller and short_name(use.name) != short_name(own):
        return False  # the line calls another definition of the source's chunk than the one its sentence names
    # the use's line is the caller's own line: its file holds that text at that line
    position = use.line - chunk.start_line
    lines = chunk.text.split("\n")
    return 0 <= position < len(lines) and lines[position].strip() == text and _ends_here(chunk, lines, position)


def _ends_here(chunk: Chunk, lines: list[str], position: int) -> bool:
    """Whether the statement on line ``position`` ends there, but for the block it may open (``if …:``, ``if (…) {``):
    its brackets close, it does not end in an operator, the next code line does not go on with it (a chained
    ``->respondWithError(…)``), and a PHP statement ends with ``;``. A cut statement says less than the code does."""
    code = BLOCK_OPENER.sub("", code_part(lines[position]).rstrip())
    if UNFINISHED.search(code) or any(code.count(a) != code.count(b) for a, b in (("(", ")"), ("[", "]"), ("{", "}"))):
        return False
    return not goes_on_below(chunk.language, lines, position)


def call_sites(explanation: Explanation, shown: set[tuple[str, int]]) -> dict[int, CallSite]:
    """For each open step (by rank), the caller whose calling line its sentence quotes, if any; ``shown`` holds the
    (path, line) pairs the answer already shows, and grows by the lines said here."""
    said: dict[int, CallSite] = {}
    terms = explanation.terms
    for step in explanation.open_steps:
        own = display_name(step.chunk).split(" (+", 1)[0]
        found = [
            CallSite(chunk, use)
            for chunk, use in _callers(step, explanation)
            if (chunk.path, use.line) not in shown and quotable_call(chunk, use, own) and on_topic(terms, use.text)
        ]
        if not found:
            continue
        best = max(found, key=lambda site: (term_score(terms, site.use.text), role_weight(site.use.text)))
        said[step.rank] = best
        shown.add(best.key)
    return said
