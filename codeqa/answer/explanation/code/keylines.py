"""Key lines: the few lines of a chunk that carry the answer to a question, so an answer shows *why* code matters.

A line scores by the question's terms it holds — matched as code tokens (``getUserName`` matches "user name"),
by stem and by stem prefix ("expire" finds ``expiry``) — and, more weakly, by their expansions ("signs in" finds
``authenticate``) and the thesaurus's code words for a concept it names ("outside services told": ``webhook``).
Lines that *do* something weigh more than lines that only mention a term: calls, raises and returns, conditions,
HTTP status codes, assignments of a value. Comments and imports weigh less. A question that asks for an amount
("how long does a session last?", "what happens after several wrong attempts?") also wants the lines that set one —
a literal number in an assignment, return or call (``saltRounds = 10``, ``time.NewTicker(62 * time.Second)``) — even
when they hold none of its words. Chosen lines come back in file order with their real line numbers; ties go to the
earlier line. When no line holds a term, the definition line (usually the signature) stands in.

An answer's snippets rank a span's lines with ``shown_scores`` instead: the words as above (a word on many lines of
the span weighs less there), plus what the line does (``lineroles``: the outcome, the call that does the work, the
registration, the session write, the decision, the class and its base), raised by the question's intents, so the
key line of a cited span is not cut for a comment or a log call that holds a word. ``evidence`` (which chunk an
answer cites) stays on the words alone.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import lru_cache

from codeqa.answer.explanation.code.bounds import bound_score
from codeqa.answer.explanation.code.described import comment_words
from codeqa.answer.explanation.code.docstrings import prose_lines
from codeqa.answer.explanation.code.feeds import with_makers
from codeqa.answer.explanation.code.lineroles import LOGGING_INTENTS, quiet, role_weight
from codeqa.answer.explanation.code.logargs import log_continuations
from codeqa.answer.explanation.code.vocabulary import EXPANSION_WEIGHT, expansions, sign_in_read, signed_in_code
from codeqa.frameworks.intent import intents
from codeqa.retrieve.question import Question
from codeqa.retrieve.thesaurus import expand
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
# an import, also a JS ``const OTPAuth = require('otpauth');`` (of a fixed path: ``require(`./${db}`)`` chooses the
# module at run time)
IMPORT = re.compile(
    r"^\s*(?:import|from\s+\S+\s+import|require|use|using|include|#include)\b|"
    r"^\s*(?:const|let|var)\s+[\w${},:\s]+=\s*require\(\s*['\"`][^'\"`$]+['\"`]\s*\)[\w.]*;?\s*$"
)
DEFINITION = re.compile(
    r"^\s*(?:(?:export|public|private|protected|static|async|default|abstract|final|override|pub)\s+)*"
    r"(?:def|class|function|func|fn|interface|struct|module|type)\b"
)
# a Python docstring, or an Elixir documentation heredoc (`@moduledoc """`, `@doc ~S"""`)
PROSE_WEIGHT = 0.4  # docstring lines: they say what the code is for, the code lines show it
QUANTITY_QUESTION = re.compile(
    r"\bhow\s+(?:long|many|much|often|big|large|fast|soon)\b|\b(?:limit|limits|maximum|minimum|max|min|expire|expires|"
    r"expiry|expiration|timeout|timeouts|interval|every|several|retry|retries|attempts?|duration|lifetime|ttl|size|"
    r"rate|schedule|scheduled|frequency|delay|until|after)\b",
    re.IGNORECASE,
)
NUMBER = re.compile(r"(?<![\w.$#])(?:[2-9]|\d{2,})(?:\.\d+)?(?![\w.])")
VALUE_WEIGHT = 0.6  # a number-setting line without the question's words: below a line that holds one
# ``shown_scores``: chosen on answers_dev + newcomer_dev (183 questions) by leave-one-repository-out over the line
# choice with each source's line count fixed (ROLE_WEIGHT 0/0.6/1/1.5/2.5, QUIET_WEIGHT 1/0.5/0.25, SPREAD_LINES
# 1/2/4/off); 17 of 18 held-out repositories chose 1.0 / 0.25 (held-out fact lines shown 187 → 200 of 294)
ROLE_WEIGHT = 1.0  # what a line does (``lineroles``), against one question word in it
SPREAD_LINES = 2  # a question term on more lines of a span than this weighs less there
QUIET_WEIGHT = 0.25  # a comment's, an import's or a log call's words, against the same words in a statement
REPEAT_WEIGHT = 0.25  # a line that says again what a better line of the span said (the same text): it adds nothing
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
    intents: tuple[str, ...] = ()  # what it is about (``Question.intents``): which lines a snippet keeps

    def __bool__(self) -> bool:
        return bool(self.words)


def question_terms(question: str | Question) -> Terms:
    """The search terms of a question (a parsed one brings its tokens: the text is not read again)."""
    if isinstance(question, Question):
        return _terms(question.tokens, question.text, question.intents)
    return _terms(tuple(code_tokens(question)), question, intents(question))


@lru_cache(maxsize=256)
def _terms(tokens: tuple[str, ...], text: str, topics: tuple[str, ...]) -> Terms:
    words = sign_in_read(frozenset(tokens), text)
    return Terms(words, expansions(words) | set(expand(text).tokens), bool(QUANTITY_QUESTION.search(text)), topics)


def _matches(term: str, tokens: AbstractSet[str]) -> bool:
    if term in tokens:
        return True
    if len(term) < PREFIX_MIN:
        return False
    return any(
        (token.startswith(term) or (len(token) >= PREFIX_MIN and term.startswith(token))) and len(token) > 2
        for token in tokens
    )


def term_score(terms: Terms, line: str, spread: Mapping[str, float] | None = None) -> float:
    """Distinct question terms in ``line`` (1 each) plus expansions (``EXPANSION_WEIGHT`` each, at most 1.5);
    ``spread`` weighs a term down where it is on many lines of the span (``span_weights``)."""
    tokens = line_tokens(line)
    if not tokens:
        return 0.0
    weight = spread.get if spread is not None else lambda term, default: default
    direct = sum(weight(term, 1.0) for term in terms.words if _matches(term, tokens))
    expanded = sum(EXPANSION_WEIGHT * weight(term, 1.0) for term in terms.expanded if term in tokens)
    return direct + min(expanded, 1.5)


@lru_cache(maxsize=16384)  # an answer reads the same lines several times (choice, allocation, the brief)
def line_tokens(line: str) -> frozenset[str]:
    return frozenset(code_tokens(signed_in_code(line)))


def span_weights(terms: Terms, lines: Sequence[str]) -> dict[str, float]:
    """Each question term's weight within one span: 1 on up to ``SPREAD_LINES`` lines, less the more lines hold it
    ("user" on every line of a login function tells the lines apart less than "password" on two)."""
    token_sets = [line_tokens(line) for line in lines]
    weights: dict[str, float] = {}
    for term in terms.words:
        held = sum(1 for tokens in token_sets if tokens and _matches(term, tokens))
        weights[term] = min(1.0, math.sqrt(SPREAD_LINES / held)) if held else 1.0
    for term in terms.expanded:
        held = sum(1 for tokens in token_sets if term in tokens)
        weights.setdefault(term, min(1.0, math.sqrt(SPREAD_LINES / held)) if held else 1.0)
    return weights


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


def line_score(terms: Terms, line: str, spread: Mapping[str, float] | None = None) -> float:
    """A line's weight for the question: 0 unless it holds a term (or, for a question about an amount, sets a
    number); actions weigh in; comments and imports less."""
    if not line.strip() or TRIVIAL.match(line):
        return 0.0
    matched = term_score(terms, line, spread)
    amount = terms.quantity and not COMMENT.match(line) and sets_a_number(line)
    if matched <= 0 and not amount:
        return 0.0
    score = (matched + (VALUE_WEIGHT if amount else 0.0)) * (1.0 + action_score(line))
    if IMPORT.match(line):
        score *= 0.3
    elif COMMENT.match(line):
        score *= 0.5
    return score


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


def shown_order(terms: Terms, text: str) -> list[int]:
    """Indexes of the lines of ``text`` in the order a snippet shows them, best first (``shown_scores``)."""
    return [index for _, index in shown_scores(terms, text)]


@lru_cache(maxsize=512)  # a source's lines are ranked for its choice, the allocation and the brief
def shown_scores(terms: Terms, text: str) -> tuple[tuple[float, int], ...]:
    """``(score, index)`` of the lines of ``text`` a snippet may show, best first: the question's words
    (``line_score``) plus what the line does (``lineroles``: the outcome, the call that does the work, the
    registration, the decision), so a span's key line is not cut for a comment that holds a word. Lines that hold
    no word and play no role are left out; docstrings only on their words. A line the span says twice weighs less
    the second time."""
    lines = text.split("\n")
    prose = prose_lines(lines) if '"""' in text or "'''" in text else set()
    spread = span_weights(terms, lines) if terms else {}
    logged = log_continuations(lines) if LOGGING_INTENTS.isdisjoint(terms.intents) else frozenset()
    noted = comment_words(lines, lambda line: line_score(terms, line, spread)) if terms else {}  # (``described``)
    scored = []
    for index, line in enumerate(lines):
        if index in logged:  # a log call's argument line: quiet, as the call is (``logargs``)
            score = line_score(terms, line, spread) * QUIET_WEIGHT if terms else 0.0
        elif index in prose:
            score = line_score(terms, line, spread) * PROSE_WEIGHT if terms else 0.0
        else:
            words = (
                line_score(terms, line, spread) * (QUIET_WEIGHT if quiet(line, terms.intents) else 1.0)
                if terms
                else 0.0
            )
            score = words + noted.get(index, 0.0) + ROLE_WEIGHT * role_weight(line, terms.intents)
            score += bound_score(terms.quantity, line)
        if score > 0:
            scored.append((score, index))
    scored = with_makers(scored, lines, terms.intents, prose)
    said: set[str] = set()
    once: list[tuple[float, int]] = []
    for score, index in sorted(scored, key=lambda item: (-item[0], item[1])):
        text = lines[index].strip()  # ``times = now() - start`` on the success and the failure branch: shown once
        once.append((score * REPEAT_WEIGHT if text in said else score, index))
        said.add(text)
    return tuple(sorted(once, key=lambda item: (-item[0], item[1])))


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
