"""How the answer's opening says what several constructs do, in one phrase: runs that differ in one part are said
once ("turns `A`, `B` and `C` into a response"), and a construct found on many lines (a router's plugs) names the
ones the question is about and counts the rest."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from codeqa.answer.explanation.code.keylines import Terms, term_score
from codeqa.answer.explanation.code.runson import runs_on
from codeqa.answer.explanation.constructs.mechanism import Match

MATCHES_SAID = 4  # a construct on more lines than this (a router's plugs) names the ones the question is about
PLURALS = {"plug": "plugs", "error": "errors", "filter": "filters", "hook": "hooks", "handler": "handlers"}
COMPOUND_HEADS = {"response": "responses", "page": "pages", "message": "messages", "handler": "handlers"}  # "error …"
CODE_SPAN = re.compile(r"`[^`]+`")
# a noun after the handler ("`A` and 7 other plugs"); a preposition or a tag there wants "7 others for every …"
NOUN_AFTER = re.compile(r"\s+(?!(?:for|before|after|on|in|to|of|at|when|with|from|by)\b)[a-z]")
NOUN = re.compile(r"[a-z]+")  # a plain word: a code span, a comma or a parenthesis ends the noun
STOP = re.compile(r"for|before|after|on|in|to|of|at|when|with|from|by|and|or|unless|if|that|which")
BRANCH_ONLY = " on one branch only"  # ``construct_lines.under_test``'s word for tests it cannot say


class Said(Protocol):
    markdown: str


@dataclass(frozen=True)
class Sentence:
    """One sentence of an answer's opening, in markdown and plain; a flow sentence ("`A` calls `B`") also keeps the
    file lines of the calls it states in `A` (``at``), so that what `A` itself does is told in their order."""

    markdown: str
    plain: str
    at: tuple[int, ...] = ()


T = TypeVar("T", bound=Said)
TAG = re.compile(r"\((?:[^()`]|`[^`]*`)*`[^`]*`(?:[^()`]|`[^`]*`)*\)")  # a parenthesis holding a code span


def said_of(matches: Sequence[Match], terms: Terms) -> str:
    """What ``matches`` (one source's, in line order) do, in one phrase. A construct found on more than
    ``MATCHES_SAID`` lines names those holding the question's words (else its first ones) and counts the rest:
    "runs the `APIAuthPlug`, `EnsureUserEnabledPlug` and 7 other plugs on each request"."""
    by_construct: dict[int, list[Match]] = {}
    for match in matches:
        by_construct.setdefault(id(match.construct), []).append(match)
    phrases: list[tuple[int, int, str]] = []  # (line, order, phrase)
    untold, floors = 0, False
    nouns: set[str] = set()  # what the untold are ("plug"), one per construct with some untold
    for group in by_construct.values():
        distinct = list({match.phrase: match for match in group}.values())
        about = distinct
        if len(distinct) > MATCHES_SAID:
            scored = sorted(distinct, key=lambda match: -term_score(terms, match.text))
            about = [match for match in scored[:MATCHES_SAID] if term_score(terms, match.text) > 0]
            about = sorted(about or distinct[:MATCHES_SAID], key=lambda match: match.line)
        phrases.extend((match.line, 0, match.phrase) for match in about)
        rest = len(distinct) - len(about)
        last = about[-1]
        named = next((span for span in CODE_SPAN.findall(last.phrase) if last.handler and last.handler in span), "")
        if rest and named and len({_shape_of(match) for match in distinct}) == 1:  # "`A` and 7 other plugs" where
            # the others differ in their handler only (not plugs of other router pipelines)
            noun = rest == 1 or NOUN_AFTER.match(last.phrase.split(named, 1)[1])  # else "and 5 others for …"
            other = "other" if noun else "others"
            floor = "at least " if runs_on(last.chunk) else ""  # the definition goes on below: more of them there
            phrases.append((last.line, 1, last.phrase.replace(named, f"{floor}{rest} {other}", 1)))
        elif rest:
            untold += rest
            floors = floors or runs_on(last.chunk)
            nouns.add(_noun_after(last.phrase, named))
    said = merged([phrase for _, _, phrase in sorted(phrases)])
    if not untold:
        return said
    counted = nouns.pop() if len(nouns) == 1 else ""  # one noun for all the rest: it says what they are
    if counted and untold > 1:
        *head, tail = counted.split()
        counted = " ".join([*head, PLURALS.get(tail, f"{tail}s")])
    more = f"at least {untold} more" if floors else f"{untold} more"
    return f"{said} (and {more} {counted})" if counted else f"{said} (and {more})"


def _noun_after(phrase: str, named: str) -> str:
    """The noun after the handler's code span ``named`` in ``phrase`` ("plug" in "runs the `A` plug on requests piped
    through `:browser`"), up to two words before a preposition; "" when none follows. The count of the untold then
    says what it counts: after "… piped through `:browser`, `:feed` and `:json_feed`", a bare "(and 17 more)" reads
    as 17 more pipelines."""
    if not named:
        return ""
    words: list[str] = []
    for word in phrase.split(named, 1)[1].split():
        if not NOUN.fullmatch(word) or STOP.fullmatch(word):
            break
        words.append(word)
    return " ".join(words) if 0 < len(words) <= 2 else ""


def _shape_of(match: Match) -> str:
    """A match's phrase with its handler's code span taken out."""
    span = next((span for span in CODE_SPAN.findall(match.phrase) if match.handler and match.handler in span), "")
    return match.phrase.replace(span, "", 1) if span else match.phrase


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _or(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def merged(phrases: Sequence[str]) -> str:
    """Phrases joined with "and"; runs that differ in one part only are said once ("turns `A`, `B` and `C` into a
    response") — their common words before and after the part that differs are kept once."""
    groups: list[list[list[str]]] = []
    unique = list(dict.fromkeys(phrases))
    # "reports errors to an error tracker" said, the same under a test on another line ("… unless `X`") adds nothing
    unique = [phrase for phrase in unique if not any(phrase.startswith(f"{other} ") for other in unique)]
    # nor does "X on one branch only" beside "X when `a`": the branch it names is one already (Laravel's `auth()`
    # twice in one `if`, "uses `Auth` when `0 === count($guards)` and uses `Auth` on one branch only")
    unique = [phrase for phrase in unique if not _branch_said(phrase, unique)]
    for phrase in unique:
        words = phrase.split()
        group = next((g for g in groups if _shape(g[0], words) is not None), None)
        if group is None:
            groups.append([words])
        else:
            group.append(words)
    said = []
    for group in groups:
        if len(group) == 1:
            said.append(" ".join(group[0]))
            continue
        head, tail = _shape(group[0], group[1]) or (0, 0)
        before = group[0][head - 1] if head else ""
        if before in ("unless", "if"):  # "X unless `a`" and "X unless `b`" are two paths: no one test says both
            said.extend(" ".join(words) for words in group)
            continue
        middles = [" ".join(words[head : len(words) - tail]) for words in group]
        if not tail and any(re.search(r" (?:when|unless|if|on one branch) ", f" {middle} ") for middle in middles):
            if (tested := _bracketed_with_tests(middles)) is not None:  # "(`a`, and `b` when `c`)": each its own
                said.append(" ".join([*group[0][:head], tested]))
                continue
            said.extend(" ".join(words) for words in group)  # "(`a`) and (`b`) when `c`" says neither whole
            continue
        if all(middle.startswith("(") and middle.endswith(")") for middle in middles):  # "(`a`) and (`b`)"
            middles = [f"({_and([middle[1:-1] for middle in middles])})"]
        after = group[0][len(group[0]) - tail :]
        if head and group[0][head - 1] == "the" and after and after[0] in PLURALS:
            if len(after) > 1 and after[1] in COMPOUND_HEADS:  # "the `A` and `B` error responses"
                after = [after[0], COMPOUND_HEADS[after[1]], *after[2:]]
            else:
                after = [PLURALS[after[0]], *after[1:]]  # "the `A` and `B` plugs"
        joined = _or(middles) if before == "when" else _and(middles)  # "signs the user in when `a` or `b`"
        said.append(" ".join([*group[0][:head], joined, *after]))
    return _and_after_tests(_tagged_once(said))


BRACKETED = re.compile(r"\((?P<name>`[^`]+`)\)(?P<test> (?:when|unless|if) `[^`]*`| on one branch(?: only)?)?")
CONDITIONED = re.compile(r" (?:when|unless|if) `[^`]*`\S*$| on one branch(?: only)?$")


def _and_after_tests(items: Sequence[str]) -> str:
    """``items`` joined with "and", and a comma before it when the item before ends in its own test: "signs the user
    in when `valid_otp_attempt?(user)`, and stores `otp_user_id` in the session" (the test is not the storing's)."""
    if len(items) > 1 and CONDITIONED.search(items[-2]):
        return ", ".join(items[:-1]) + ", and " + items[-1]
    return _and(items)


def _bracketed_with_tests(middles: Sequence[str]) -> str | None:
    """Runs that differ in a bracketed name each, some with a test after it ("(`passport.use`)",
    "(`passport.authenticate`) when `strategy.url`"), said in one bracket with each test beside its own name:
    "(`passport.use`, and `passport.authenticate` when `strategy.url`)"; None when a run is more than that."""
    items = []
    for middle in middles:
        found = BRACKETED.fullmatch(middle)
        if found is None or "(" in found["name"] or ")" in found["name"]:
            return None
        items.append(found["name"] + (found["test"] or ""))
    return "(" + ", ".join(items[:-1]) + ", and " + items[-1] + ")"


def _branch_said(phrase: str, phrases: Sequence[str]) -> bool:
    """Whether ``phrase`` is "X on one branch only" and another of ``phrases`` says X under a test it names."""
    base = phrase.removesuffix(BRANCH_ONLY)
    return base != phrase and any(other != phrase and other.startswith(f"{base} ") for other in phrases)


def _tagged_once(phrases: Sequence[str]) -> list[str]:
    """``phrases`` with a parenthesis naming code (``(a filter in `ApplicationController`)``, ``(`rescue_from`)``)
    said with the first phrase that has it only: the ones after it read as the same kind of thing."""
    seen: set[str] = set()
    kept = []
    for phrase in phrases:
        for tag in TAG.findall(phrase):
            if tag in seen:
                phrase = phrase.replace(f" {tag}", "", 1)
            seen.add(tag)
        kept.append(phrase)
    return kept


def _shape(a: list[str], b: list[str]) -> tuple[int, int] | None:
    """(common leading words, common trailing words) when ``a`` and ``b`` differ in one run only, else None."""
    if a == b:
        return None
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    while (tail or head) and not (_closed(a[head : len(a) - tail]) and _closed(b[head : len(b) - tail])):
        # the run that differs opens a bracket the common words close ("(:a, …)" and "(:b, …)"): the bracket is
        # said with each, never "(:a, and (:b, …)"
        tail, head = (tail - 1, head) if tail else (tail, head - 1)
    return (head, tail) if head + tail >= 2 and head + tail >= min(len(a), len(b)) - 2 else None


def _closed(words: list[str]) -> bool:
    """Whether ``words`` close every bracket and code span they open (a run cut inside `` `'a' in session` `` would
    be said "when `'a' or `'b' in session`")."""
    text = " ".join(words)
    brackets = all(text.count(opening) == text.count(closing) for opening, closing in ("()", "[]", "{}"))
    return brackets and text.count("`") % 2 == 0


def said_whole(strong: Sequence[tuple[float, int, Match]], chosen: dict[int, list[Match]],
               constructs: Sequence[tuple[int, int]]) -> dict[int, list[Match]]:  # fmt: skip
    """``chosen`` with each construct said of a source said whole there: a controller turns `AccessDenied` and
    `RecordNotFound` into a response, though another source said first turns `AccessDenied` too."""
    for _, position, match in strong:
        said = [m.phrase for m in chosen.get(position, [])]
        if (position, id(match.construct)) in constructs and match.phrase not in said:
            chosen[position].append(match)
    return chosen


OUTCOME_NAMES = re.compile(r"(?:^Then |; )`([^`]+)`")


def then_after(flow: Sentence | None, outcome: Sentence | None) -> tuple[Sentence | None, Sentence | None]:
    """The flow and outcome sentences in the order they read true: "Then `X` answers with …" right after "`A` calls
    `B`" reads as what the call to `B` ends in, so it goes there only when the flow names `X`; else it goes first,
    after the opening (ghostfolio: a data provider's `fetch` call, then the snapshot filter's 503). When `X` is `A`
    itself, its line must come after the calls (redmine's ``create`` stores ``if @issue.save`` at line 158, above
    its calls of ``render_validation_errors``): else it goes first."""
    if flow is None or outcome is None:
        return flow, outcome
    spans = re.findall(r"`([^`]+)`", flow.markdown)
    named = {name.rsplit(".", 1)[-1] for name in spans}
    said = [name.rsplit(".", 1)[-1] for name in OUTCOME_NAMES.findall(outcome.markdown)]
    caller = spans[0].rsplit(".", 1)[-1] if spans else ""
    first = re.search(r"`[^`\s]+:(\d+)`", outcome.markdown)  # the line of the outcome said first, of `said[0]`
    before = first is not None and bool(flow.at) and said[:1] == [caller] and int(first.group(1)) < max(flow.at)
    callee = any(name in named and name != caller for name in said)
    return (flow, outcome) if callee or (caller in said and not before) else (outcome, flow)
