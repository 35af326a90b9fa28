"""Key lines: the few lines of a chunk that carry the answer to a question, so an answer shows *why* code matters.

A line scores by the question's terms it holds — matched as code tokens (``getUserName`` matches "user name"),
by stem and by stem prefix ("expire" finds ``expiry``) — and, more weakly, by the terms' expansions from the
concept vocabulary ("signs in" finds ``authenticate``). Lines that *do* something weigh more than lines that only
mention a term: calls, raises and returns, conditions, HTTP status codes, assignments of a value. Comments and
imports weigh less. A question that asks for an amount ("how long does a session last?", "what happens after several
wrong attempts?") also wants the lines that set one — a literal number in an assignment, return or call
(``saltRounds = 10``, ``time.NewTicker(62 * time.Second)``) — even when they hold none of its words. Chosen lines
come back in file order with their real line numbers; ties go to the earlier line. When no line holds a term, the
definition line (usually the signature) stands in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from codeqa.answer.explanation.vocabulary import EXPANSION_WEIGHT, expansions
from codeqa.retrieve.question import Question
from codeqa.tokens import code_tokens

MAX_KEY_LINES = 5
MAX_LINE_CHARS = 200
PREFIX_MIN = 4  # a stem this long or longer also matches words it begins ("expir" → "expiri")
CALL = re.compile(  # a name called, dotted or chained (`.then(`); each match starts once, so a line is read once
    r"(?<![\w.])[A-Za-z_][\w.]*\s*\(|\.\s*[A-Za-z_]\w*\s*\("
)
RAISE_RETURN = re.compile(r"^\s*(?:return|raise|throw|abort|yield|panic|fail|reject|redirect)\b|\bthrow\s+new\b")
CONDITION = re.compile(r"^\s*(?:if|elif|else\s+if|unless|while|when|case|catch|except|rescue|guard|switch)\b|\?\s")
STATUS = re.compile(r"(?<![\w.])(?:[1-5]\d\d)(?![\w.])|\b(?:HTTP_\d{3}|Status[A-Z]\w+|status\s*[:=(])")
ASSIGNMENT = re.compile(r"^\s*[\w.\[\]'\"]+\s*(?:[+\-*/|]?=|:=|=>)\s*\S|^\s*(?:const|let|var)\s+\w+\s*=")
COMMENT = re.compile(r"^\s*(?:#|//|/\*|\*|--|<!--|\"\"\"|''')")
IMPORT = re.compile(r"^\s*(?:import|from\s+\S+\s+import|require|use|using|include|#include)\b")
DEFINITION = re.compile(
    r"^\s*(?:(?:export|public|private|protected|static|async|default|abstract|final|override|pub)\s+)*"
    r"(?:def|class|function|func|fn|interface|struct|module|type)\b"
)
DOCSTRING = re.compile(r'^\s*[rRuUbBfF]?("""|\'\'\')')
PROSE_WEIGHT = 0.4  # docstring lines: they say what the code is for, the code lines show it
QUANTITY_QUESTION = re.compile(
    r"\bhow\s+(?:long|many|much|often|big|large|fast|soon)\b|\b(?:limit|limits|maximum|minimum|max|min|expire|expires|"
    r"expiry|expiration|timeout|timeouts|interval|every|several|retry|retries|attempts?|duration|lifetime|ttl|size|"
    r"rate|schedule|scheduled|frequency|delay|until|after)\b",
    re.IGNORECASE,
)
NUMBER = re.compile(r"(?<![\w.$#])(?:[2-9]|\d{2,})(?:\.\d+)?(?![\w.])")
VALUE_WEIGHT = 0.6  # a number-setting line without the question's words: below a line that holds one
TRIVIAL = re.compile(r"^\s*[{}()\[\];,]*\s*$|^\s*(?:end|else|try|begin|do|pass|\}\s*else\s*\{)\s*[:{]?\s*$")


@dataclass(frozen=True)
class KeyLine:
    line: int  # 1-based line number in the file
    text: str  # the line, right-stripped and cut to MAX_LINE_CHARS


@dataclass(frozen=True)
class Terms:
    """A question's search terms: its own code tokens (stemmed) and their concept expansions."""

    words: frozenset[str]
    expanded: frozenset[str]
    quantity: bool = False  # the question asks for an amount: lines that set a number count

    def __bool__(self) -> bool:
        return bool(self.words)


def question_terms(question: str | Question) -> Terms:
    """The search terms of a question (a parsed one brings its tokens: the text is not read again)."""
    if isinstance(question, Question):
        return _terms(question.tokens, question.text)
    return _terms(tuple(code_tokens(question)), question)


@lru_cache(maxsize=256)
def _terms(tokens: tuple[str, ...], text: str) -> Terms:
    words = frozenset(tokens)
    return Terms(words, expansions(words), bool(QUANTITY_QUESTION.search(text)))


def _matches(term: str, tokens: set[str]) -> bool:
    if term in tokens:
        return True
    if len(term) < PREFIX_MIN:
        return False
    return any(
        (token.startswith(term) or (len(token) >= PREFIX_MIN and term.startswith(token))) and len(token) > 2
        for token in tokens
    )


def term_score(terms: Terms, line: str) -> float:
    """Distinct question terms in ``line`` (1 each) plus expansions (``EXPANSION_WEIGHT`` each, at most 1.5)."""
    tokens = set(code_tokens(line))
    if not tokens:
        return 0.0
    direct = sum(1.0 for term in terms.words if _matches(term, tokens))
    expanded = sum(EXPANSION_WEIGHT for term in terms.expanded if term in tokens)
    return direct + min(expanded, 1.5)


def action_score(line: str) -> float:
    """How much a line *does*: calls, raises/returns, conditions, status codes, assigned values."""
    score = 0.0
    if CALL.search(line):
        score += 0.3
    if RAISE_RETURN.search(line):
        score += 0.3
    if CONDITION.search(line):
        score += 0.25
    if STATUS.search(line):
        score += 0.35
    if ASSIGNMENT.search(line):
        score += 0.15
    return score


def sets_a_number(line: str) -> bool:
    """An assignment, return or call with a literal amount in it (not 0 or 1, not part of a name or a version)."""
    return bool(NUMBER.search(line)) and bool(ASSIGNMENT.search(line) or RAISE_RETURN.search(line) or CALL.search(line))


def line_score(terms: Terms, line: str) -> float:
    """A line's weight for the question: 0 unless it holds a term (or, for a question about an amount, sets a
    number); actions weigh in; comments and imports less."""
    if not line.strip() or TRIVIAL.match(line):
        return 0.0
    matched = term_score(terms, line)
    amount = terms.quantity and not COMMENT.match(line) and sets_a_number(line)
    if matched <= 0 and not amount:
        return 0.0
    score = (matched + (VALUE_WEIGHT if amount else 0.0)) * (1.0 + action_score(line))
    if IMPORT.match(line):
        score *= 0.3
    elif COMMENT.match(line):
        score *= 0.5
    return score


def prose_lines(lines: list[str]) -> set[int]:
    """Indexes of lines inside Python docstrings (triple-quoted blocks): prose about the code, not the code."""
    inside: set[int] = set()
    quote: str | None = None
    for index, line in enumerate(lines):
        if quote is not None:
            inside.add(index)
            if quote in line:
                quote = None
            continue
        opened = DOCSTRING.match(line)
        if opened:
            inside.add(index)
            rest = line[opened.end() :]
            if opened.group(1) not in rest:
                quote = opened.group(1)
    return inside


def scored_lines(question: str | Terms, text: str) -> list[tuple[float, int]]:
    """``(score, index)`` of every line of ``text`` that holds a question term, best first."""
    terms = question if isinstance(question, Terms) else question_terms(question)
    if not terms:
        return []
    lines = text.split("\n")
    prose = prose_lines(lines) if '"""' in text or "'''" in text else set()
    scored = [
        (line_score(terms, line) * (PROSE_WEIGHT if index in prose else 1.0), index) for index, line in enumerate(lines)
    ]
    return sorted(((s, i) for s, i in scored if s > 0), key=lambda item: (-item[0], item[1]))


def key_lines(question: str | Terms, text: str, start_line: int = 1, *, limit: int = MAX_KEY_LINES) -> list[KeyLine]:
    """Up to ``limit`` lines of ``text`` (starting at ``start_line``) that best answer ``question``, in file order."""
    lines = text.split("\n")
    chosen = sorted(index for _, index in scored_lines(question, text)[: max(0, limit)])
    if not chosen and limit > 0:
        definition = next((i for i, line in enumerate(lines[:40]) if DEFINITION.match(line)), None)
        first = next((i for i, line in enumerate(lines) if line.strip()), None)
        chosen = [i for i in [definition if definition is not None else first] if i is not None]
    return [KeyLine(start_line + index, clip(lines[index])) for index in chosen]


def evidence(question: str | Terms, text: str, top: int = 4) -> float:
    """How strongly a chunk answers the question: the sum of its best ``top`` line scores."""
    return sum(score for score, _ in scored_lines(question, text)[:top])


def clip(line: str) -> str:
    line = line.rstrip()
    return line if len(line) <= MAX_LINE_CHARS else line[: MAX_LINE_CHARS - 1] + "…"
