"""The closing for a question that asks for a place or a holder ("who may edit a song, and where is that rule
written?", "which tasks run every day, and where are they registered?", "where is it checked that …", "how are
requests authorized?") when no flow was walked: the construct the leading source holds for the question's own topic,
said as the answer with what the opening does not say: the lines it is written on, or a checked call that reaches
it or that it makes. Composed only of what the answer already checked:

- the construct is one the opening's mechanism sentence can say (weight ``PHRASE_WEIGHT`` or more), of the
  question's first topic (a policy for "who may", a schedule for "which tasks run every day"), on the lead's code,
  and it declares a place (a policy, a filter, middleware, a schedule), not a step of a sign-in ("checks the
  password" on a model's lines, "hands sign-in to Passport" for a question about a code sent by e-mail: read in
  dev answers, such steps restated the opening's off-question or wrong claim);
- the lines are the construct's own matched lines (not a definition's head: `class SongPolicy` says nothing);
- the call is a link the claim checker verified (a step that calls the lead, else the lead's call of code that
  holds a question word, as the opening's flow sentence chooses it).

When neither piece adds to the opening, none is said: the same sentence again under "In short" is a copy, not a
conclusion (as a walk's closing names its first call and where the calls end, not every step again).

Not for errors and logging (their conclusions are "Where errors go:" and "Where to add it:"), a placement question,
a walked flow, a question that asks for no place ("what tracks whether a refresh is stuck?": a job construct near
the question is not its answer), or a loose or closest-match opening: restated, a guess would read as the answer.
"""

from __future__ import annotations

import re

from codeqa.answer.explanation.calls.callplace import caller_name
from codeqa.answer.explanation.code.condition import IF_HEAD
from codeqa.answer.explanation.code.keylines import evidence
from codeqa.answer.explanation.code.outline import display_name
from codeqa.answer.explanation.constructs.mechanism import Match
from codeqa.answer.explanation.explain import Explanation, Step
from codeqa.answer.explanation.said.holders import holders_named, registered
from codeqa.answer.explanation.said.lead import PHRASE_WEIGHT, lead_sentences, weak
from codeqa.answer.explanation.said.phrasing import said_of
from codeqa.answer.explanation.said.quoted_line import _head_only, cut_quote
from codeqa.answer.rendering.injection import instruction_like
from codeqa.answer.rendering.render import code_span
from codeqa.frameworks.intent import PLACEMENT

LABEL = "**In short:**"
QUOTE_CHARS = 90
CLASS_HEAD = re.compile(r"^\s*(?:(?:abstract|final|export|default|public)\s+)*(?:class|module|interface|trait)\s+\w")
TOPICS = frozenset({"access", "auth", "signup", "jobs", "config", "entry"})  # errors, logging: their own endings
# asked for a place or a holder ("where is it checked", "which tasks", "who may"), or how something is decided
ASKS_PLACE = re.compile(
    r"\b(?:where|which|who)\b|\bhow (?:is|are|does|do)\b[^?]*\b(?:decid|check|authori[sz]|allow|verif|regist|schedul)",
    re.IGNORECASE,
)


def _gate(match: Match) -> bool:
    """A construct that declares where something is decided (a policy, a filter or middleware, a schedule, a
    route), not a step of a sign-in ("checks the password", "hands sign-in to Passport"): a step, restated as the
    conclusion without the walk that places it, overstates it."""
    return match.construct.kind != "auth" or "access" in match.construct.intents


def _topic_matches(explanation: Explanation, step: Step) -> list[Match]:
    """The lead's constructs of the question's topic. Settings are a topic of every kind of thing: a construct
    answers "where is X configured?" only on a line that names X (Kiwi TCMS's ``MIDDLEWARE = [`` is not where the
    database is configured; its ``DATABASES = {`` would be)."""
    topic = explanation.intents[0]
    found = [m for m in step.matches if m.construct.weight >= PHRASE_WEIGHT and topic in m.construct.intents
             and m.weight > 0 and not instruction_like(m.text) and _gate(m)
             and (topic != "config" or evidence(explanation.terms, m.text) > 0)]  # fmt: skip
    return sorted({(m.line, m.phrase): m for m in found}.values(), key=lambda m: m.line)


def _call(explanation: Explanation, step: Step) -> tuple[str, str, str] | None:
    """The checked call into the lead from another step ("`B` calls `A` (`loc`)"), else the lead's checked call of
    another step or of code outside the answer that holds a question word ("`A` calls `B` (`loc`)"), as (markdown,
    plain, and where the other end is); None without one."""
    for rank, use in step.called_by:
        caller = explanation.step(rank)
        if use.verb == "calls" and caller.chunk.id != step.chunk.id:
            name = caller_name(use, caller.chunk) or display_name(caller.chunk).split(" (+", 1)[0]
            return (f"{code_span(name)} (`{caller.chunk.location}`) calls {code_span(use.name)}",
                    f"{name} ({caller.chunk.location}) calls {use.name}", caller.chunk.location)  # fmt: skip
    calls = [(explanation.step(rank).chunk, use) for rank, use in step.calls if use.verb == "calls"]
    calls += [(r.chunk, r.use) for r in step.related if r.direction == "calls"]
    calls = [
        (chunk, use) for chunk, use in calls if chunk.id != step.chunk.id and evidence(explanation.terms, chunk.text)
    ]
    if not calls:
        return None
    callee, use = calls[0]
    name = caller_name(use, step.chunk) or display_name(step.chunk).split(" (+", 1)[0]
    return (f"{code_span(name)} calls {code_span(use.name)} (`{callee.location}`)",
            f"{name} calls {use.name} ({callee.location})", callee.location)  # fmt: skip


def _lines(step: Step, matches: list[Match]) -> tuple[str, str] | None:
    """Where the construct is written, when its lines show it ("at `routes/console.php:6-11`:
    `Schedule::job(…)->daily()` and 5 more like it"); None when they are definition heads (`class SongPolicy`)."""
    shown = [m for m in matches if not (_head_only(m.text) or CLASS_HEAD.match(m.text))]
    if not shown:
        return None
    first, last = shown[0].line, shown[-1].line
    where = f"{step.chunk.path}:{first}" + (f"-{last}" if last != first else "")
    more = f" and {len(shown) - 1} more like it" if len(shown) > 1 else ""
    head = IF_HEAD.match(shown[0].text)
    if head and head.group("cond"):  # an `if` head is no statement: its test is said ("when `X` succeeds")
        return _tested(where, head.group("word"), head.group("cond"), f" ({more.strip()})" if more else "")
    quoted = _quote(shown[0].text)
    return f"at {code_span(where)}: {code_span(quoted)}{more}", f"at {where}: {quoted}{more}"


def _tested(where: str, word: str, condition: str, more: str) -> tuple[str, str]:
    """ "at `loc`: when `X` succeeds" for a construct written as the test of an ``if`` (``unless``: "fails"); a test
    that calls nothing is said as it is ("when `user.admin?`")."""
    test = condition.strip()
    if test.startswith("(") and _closes_at_end(test):
        test = test[1:-1].strip()  # `if (x) {`: the test inside the brackets
    test = _quote(test)
    outcome = (" fails" if word == "unless" else " succeeds") if _a_call(test) else ""
    when = "when" if outcome or word == "if" else "unless"
    return (f"at {code_span(where)}: {when} {code_span(test)}{outcome}{more}",
            f"at {where}: {when} {test}{outcome}{more}")  # fmt: skip


def _closes_at_end(text: str) -> bool:
    """Whether the bracket ``text`` opens with closes at its end (`(a(b))`, not `(a) && (b)`)."""
    depth = 0
    for at, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0:
            return at == len(text) - 1
    return False


def _a_call(text: str) -> bool:
    """Whether ``text`` is a call (`Job.perform_later(time)`): its last bracket closes one that follows a name."""
    depth = 0
    for at in range(len(text) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(text[at], 0)
        if depth == 0:
            return text.endswith(")") and at > 0 and (text[at - 1].isalnum() or text[at - 1] in "_?!")
    return False


def _quote(text: str) -> str:
    """A statement said in prose, without its closing ``;`` (``…websiteCreate);`; `canCreateWebsite` calls …`` read
    as "; ;"), as the outcomes are said."""
    flat = " ".join(text.split()).removesuffix(";")
    return flat if len(flat) <= QUOTE_CHARS else cut_quote(flat, QUOTE_CHARS)  # never half a name


def place_closing(explanation: Explanation) -> tuple[str, str] | None:
    """ "In short: `console.php` (`loc`) runs in the background or on a schedule: at `routes/console.php:6-11`:
    `Schedule::job(…)->daily()` and 5 more like it." — None without the pieces (see the module docstring), and None
    when it would only say again what the opening says."""
    intents, question = explanation.intents, explanation.question
    if explanation.walk is not None or not intents or intents[0] not in TOPICS or not ASKS_PLACE.search(question):
        return None  # a walked flow closes on its walk; errors and logging on their own endings
    if PLACEMENT.search(question) or not explanation.open_steps or weak(explanation):
        return None
    step = explanation.step(explanation.lead)
    matches = _topic_matches(explanation, step)
    if not matches or registered(step, matches):
        return None
    opening = " ".join(sentence.plain for sentence in lead_sentences(explanation))
    call = _call(explanation, step)
    new = [piece for piece in (_lines(step, matches),) if piece is not None]
    new += [call[:2]] if call is not None and call[2] not in opening else []  # a call the opening names is said
    if not new:
        return None  # the opening says it all: said again as "In short" it is a copy, not a conclusion
    named_md, named = holders_named(step, matches)
    said = said_of(matches, explanation.terms)
    md = f"{LABEL} {named_md} {said}: " + "; ".join(piece[0] for piece in new)
    plain = f"In short: {named} {said.replace('`', '')}: " + "; ".join(piece[1] for piece in new)
    return md + ".", plain + "."
