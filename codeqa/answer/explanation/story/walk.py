"""The flow for "how does X work / what happens when …": from the entry point, along checked calls, to the outcome.

1. The entry is where a request, command or job comes in: the lead source (the best answer) when it is in an entry
   layer (a route, a view, a controller, a CLI command), else a checked caller of it in one (the lead is then the
   second step), else the lead itself. No flow is walked from a loose match (weak evidence).
2. From there the walk follows calls in the symbol graph, each one checked by the claim checker (``claims``): for
   Python a call in the caller's own definition that resolves through imports and scopes to the callee's; other
   languages by name and import, and marked so. A callee must be on the question's topic (retrieved, or holding a
   question word in its code). A hop whose callee is not the definition that makes the next call ends the walk
   there. At most ``MAX_HOPS`` hops (four steps); of the walks found, the one that ends best (a queued
   job, a write or a response before a plain return) and then goes deepest is kept; two steps are shown only when
   they end in a response, a write or a job.
3. The outcome is a line of the last definition on the success path: the user signed in (a framework's login
   call, the user put into the session) or a token issued, a queued job, a write to the store, a
   response or a return of something (not ``return None``) — never a signature, a line inside an
   ``except``/``rescue``/``catch`` block or a branch that raises, aborts or answers 4xx/5xx (those are the error
   branches, not what happens).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.calls.byname import typed_receiver
from codeqa.answer.explanation.calls.callplace import placed_caller
from codeqa.answer.explanation.calls.claims import RESOLVED_LANGUAGES, ClaimChecker
from codeqa.answer.explanation.calls.flow import Use
from codeqa.answer.explanation.calls.selfcalls import private_self_call
from codeqa.answer.explanation.code.branches import another_end, asks_api, off_api_path
from codeqa.answer.explanation.code.keylines import Terms, evidence, question_terms
from codeqa.answer.explanation.code.named import named_for
from codeqa.answer.explanation.code.outline import display_name
from codeqa.answer.explanation.code.switches import switched_off
from codeqa.answer.explanation.sources.absence import Absence, no_central_handler
from codeqa.answer.explanation.sources.pieces import whole_definition
from codeqa.answer.explanation.story.endings import (
    FAILING_NAME,
    OUTCOME_KINDS,
    Outcome,
    definition_lines,
    ending_rank,
    outcome_of,
)
from codeqa.frameworks.intent import PLACEMENT, intents
from codeqa.records import Chunk
from codeqa.symbols import qualified_names, short_name

MAX_HOPS = 3  # four steps
BRANCHES = 3  # callees tried per step
CALLEES_LOOKED_AT = 40  # graph callees read per step (in path order), before the ones on the question's topic
WALK_FROM = 3  # the best sources a walk may start from, in order (after the first, only those of its file)
MAX_CHECKS = 40  # call claims checked per walk (the answer stays fast on a large graph)
ENTRY_LAYERS = frozenset({"api", "view", "cli"})
SKIPPED_LAYERS = frozenset({"test", "docs", "migration", "build"})
ASKS_FLOW = re.compile(
    r"\bhow (?:does|do|is|are)\b|\bwhat happens\b|\bwalk (?:me )?through\b|\btrace\b|\bstep by step\b|"
    r"\bwhat (?:does|do) .* do when\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Hop:
    """One checked call of the walk: ``caller`` (in ``chunk``) calls ``use.name`` (in ``callee``) at ``use.line``."""

    chunk: Chunk
    callee: Chunk
    use: Use
    by_name: bool  # checked by name and import only (no resolver for the language)


@dataclass
class Walk:
    """The entry, the checked hops from it and the outcome they end in."""

    entry: Chunk
    entry_name: str
    hops: list[Hop] = field(default_factory=list)
    outcome: Outcome | None = None
    response: Outcome | None = None  # the entry's own success response after the first call, when it is not the end

    @property
    def steps(self) -> int:
        return len(self.hops) + 1

    @property
    def chunks(self) -> list[Chunk]:
        """The entry and each callee: what the steps cite."""
        return [self.entry, *(hop.callee for hop in self.hops)]


def asks_flow(question: str) -> bool:
    return bool(ASKS_FLOW.search(question)) and not PLACEMENT.search(question)


def _name_of(chunk: Chunk) -> str:
    return display_name(chunk).split(" (+", 1)[0]


def _ends_somewhere(chunk: Chunk) -> bool:
    """Whether ``chunk`` holds a line of an outcome a walk ends well in (a sign-in, a token, a job, a write, a
    response): such callees are tried first, so a lookup that only returns does not take the walk's few tries."""
    return any(pattern.search(chunk.text) for verb, pattern in OUTCOME_KINDS if verb != "returns")


def _relevance(terms: Terms, chunk: Chunk) -> int:
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", f"{chunk.path} {chunk.symbol}")}
    return sum(1 for term in terms.words if any(w.startswith(term) for w in words))


class _Walker:
    def __init__(self, context: AnswerContext, checker: ClaimChecker, terms: Terms, errors: bool) -> None:
        self.context, self.checker, self.terms, self.errors = context, checker, terms, errors
        self.checks, self.api = 0, False

    def hop(self, user: Chunk, used: Chunk) -> Hop | None:
        found = self.hops(user, used)
        return found[0] if found else None

    def hops(self, user: Chunk, used: Chunk) -> list[Hop]:
        """Each checked call in ``user`` to a definition of ``used`` (a chunk may hold several: a whole class), the
        ones whose names hold a question word first; else its one checked use, when that is a call."""
        if self.checks >= MAX_CHECKS:
            return []
        self.checks += 1
        imports = self.context.imports([user.path, used.path])
        uses: list[Use] = []
        for name in self._names_by_topic(used):  # the calls to the callee's definitions on the question's topic
            use = self.checker.link(user, used, imports, names=[name])
            if use is not None and use.verb == "calls" and all(use.name != other.name for other in uses):
                uses.append(use)
        if not uses:
            use = self.checker.link(user, used, imports)
            uses = [use] if use is not None else []
        return [hop for use in uses if (hop := self._checked(user, used, use)) is not None]

    def _checked(self, user: Chunk, used: Chunk, use: Use) -> Hop | None:
        if use.verb != "calls" or short_name(use.name)[:1].isupper():
            return None  # no checked call, or a constructor (making an object is not a step of the flow)
        if not self.errors and FAILING_NAME.search(short_name(use.name)):
            return None  # an error path (``throwFailedAuthenticationException``) is not what happens
        by_name = user.language not in RESOLVED_LANGUAGES or used.language not in RESOLVED_LANGUAGES
        hierarchy = self.checker.hierarchy  # `$this->auth` of a declared class, or its interface's one implementation
        typed = by_name and typed_receiver(user, used, use, self._file(user), hierarchy)
        if by_name and not typed and not self._unique(use.name, used) and not private_self_call(user, used, use):
            return None  # by name, a method many classes define (``remove``, ``play``) may be any of them
        return Hop(user, used, use, by_name and not typed)

    def _file(self, chunk: Chunk) -> str:
        return self.checker.file_text(chunk.path)

    def _names_by_topic(self, used: Chunk) -> list[str]:
        """The definitions of ``used`` that hold a question word in their name, most first (``check_password``
        before ``find_by_email`` asked how the password is checked); at most ``BRANCHES``."""
        scored = []
        for qualified in qualified_names(used.symbol):
            name = short_name(qualified)
            words = {w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", name)}
            score = sum(1 for term in self.terms.words if any(w.startswith(term) for w in words))
            if score:
                scored.append((-score, name))
        return [name for _, name in sorted(scored)][:BRANCHES]

    def _unique(self, name: str, used: Chunk) -> bool:
        """The called name is defined in ``used`` (its symbol, or a definition its lines hold) and nowhere else in the
        index."""
        short = re.split(r"\.|::|#", name)[-1]
        return short in self.context.defined_in(used) and self.context.definitions_of(short) == 1

    def callees(self, chunk: Chunk, seen: set[str]) -> list[Chunk]:
        _, rows = self.context.neighbours(chunk)
        rows = [r for r in rows if self.context.table.layers[r] not in SKIPPED_LAYERS][:CALLEES_LOOKED_AT]
        pooled = {hit.chunk.id for hit in self.context.pool}
        pooled |= self.context.held_pieces()  # the pieces of a joined definition
        found = [c for c in self.context.chunks(rows) if c.id not in seen
                 and (c.id in pooled or evidence(self.terms, c.text) > 0)]  # on the question's topic  # fmt: skip
        found = list({c.id: c for c in (whole_definition(c, self.context) for c in found) if c.id not in seen}.values())
        found.sort(key=lambda c: (not _ends_somewhere(c), -_relevance(self.terms, c)))  # where something happens
        return found[: BRANCHES * 2]

    def longest(self, chunk: Chunk, caller: str, seen: set[str], depth: int) -> list[Hop]:
        """The best walk from ``caller`` in ``chunk``: ending in an outcome, then deepest, then the question's words."""
        best: list[Hop] = []
        best_key = (ending_rank(outcome_of(chunk, caller, api=self.api, errors=self.errors)), 0, 0)
        tried = 0
        span = definition_lines(chunk, caller) if caller else []
        for callee in self.callees(chunk, seen) if depth < MAX_HOPS else []:
            if tried >= BRANCHES:
                break
            taken = [
                hop
                for hop in self.hops(chunk, callee)
                if not (caller and hop.use.caller and hop.use.caller != caller)  # made by this definition
                and not (hop.by_name and span and not span[0][0] <= hop.use.line <= span[-1][0])
                and not (self.api and off_api_path(chunk, hop.use.line))
            ]  # asked about the API: no page's path
            tried += bool(taken)  # by name, the call must be in the lines of the definition called before
            for hop in taken:
                rest = self.longest(callee, hop.use.name, seen | {callee.id}, depth + 1)
                walk = [hop, *rest]
                end = walk[-1]
                key = (ending_rank(_ends(end, self)),
                       len(walk), sum(_relevance(self.terms, h.callee) for h in walk))  # fmt: skip
                if key > best_key:
                    best, best_key = walk, key
        return best


def _ends(hop: Hop, walker: _Walker) -> Outcome | None:
    """Where the definition a hop calls ends, in the branches the call runs (not ``if save:`` for ``save=False``)."""
    return outcome_of(hop.callee, hop.use.name, api=walker.api, errors=walker.errors, off=switched_off(hop.use.text),
                      own=walker._file(hop.callee))  # fmt: skip


def _entry(context: AnswerContext, walker: _Walker, lead: Chunk) -> tuple[Chunk, list[Hop]]:
    """The entry chunk, and the hop from it to the lead when the entry is the lead's caller: the lead itself when it
    is in an entry layer, else a caller of it in one whose call is checked, else the lead."""
    if str(lead.layer) in ENTRY_LAYERS:
        return lead, []
    callers, _ = context.neighbours(lead)
    rows = [r for r in callers if context.table.layers[r] in ENTRY_LAYERS][:BRANCHES]
    for caller in context.chunks(rows):
        hop = walker.hop(caller, lead)
        if hop is not None:
            return caller, [hop]
    return lead, []


def walk(question: str, context: AnswerContext, checker: ClaimChecker, ranked: Sequence[Chunk]) -> Walk | None:
    """The flow for ``question`` from the best sources ``ranked`` (best first): from the first of the best
    ``WALK_FROM`` (the lead, then others of its file) whose checked calls lead to an outcome; None when the question
    does not ask how something works or no walk is found."""
    if not ranked or not asks_flow(question):
        return None
    # a later source only of the lead's own file: another file's walk tells another story (signed URLs after a login);
    # and only one named for the question (not `Agent.receive!` asked how a web request to an agent is handled)
    terms = question_terms(question)
    starts = [ranked[0], *(c for c in ranked[1:WALK_FROM] if c.path == ranked[0].path and named_for(terms, c))]
    for lead in starts:
        walker = _Walker(context, checker, terms, "errors" in intents(question))
        walker.api = asks_api(question)
        found = _walk_from(context, walker, lead)
        if found is not None:
            return found
    return None


def _walk_from(context: AnswerContext, walker: _Walker, lead: Chunk) -> Walk | None:
    lead = whole_definition(lead, context)  # a split definition is walked whole
    entry, first = _entry(context, walker, lead)
    start = first[-1] if first else None
    begin, caller = (start.callee, start.use.name) if start else (entry, "")
    hops = [*first, *walker.longest(begin, caller, {entry.id, begin.id}, len(first))]
    while hops and _ends(hops[-1], walker) is None:
        hops.pop()  # a step where nothing ends says only that the calls go on: the walk ends at the last outcome
    if not hops or (len(hops) == 1 and ending_rank(_ends(hops[0], walker)) < 2):
        return None  # two steps that end in no response, write or job say no more than the lead does
    # a call found by name in a file's chunk is made by the function its lines show holding it (round 8: not
    # "`posts.js` calls `sendQueueNotification`" for `postsAPI.acceptQueuedPost`'s call)
    entry_name = hops[0].use.caller or placed_caller(hops[0].use, entry) or _name_of(entry)
    found = Walk(entry, entry_name, hops)
    last = hops[-1]
    found.outcome = _ends(last, walker)
    response = outcome_of(entry, entry_name, after=hops[0].use.line, api=walker.api)
    end = found.outcome
    if (
        response is not None
        and response.verb in ("answers with", "returns")
        and not another_end(entry, hops[0].use.line, response.line)  # one of its ends is not what follows the call
        and (end is None or (end.chunk.id, end.line) != (entry.id, response.line))
    ):
        found.response = response
    return found


def walk_for(
    question: str, topics: Sequence[str], context: AnswerContext, checker: ClaimChecker, ranked: Sequence[Chunk]
) -> tuple[Walk | None, Absence | None]:
    """The flow from the entry point (``walk``), its hops counted as call claims; for "what happens when … fails",
    whether the index has no central error handler."""
    explorer = ClaimChecker(context, checker._texts)  # the calls tried and not taken are not claims the answer makes
    found = walk(question, context, explorer, ranked)
    for hop in found.hops if found is not None else []:
        pair = (hop.chunk.id, hop.callee.id)
        checker.tally.made.add(pair)
        checker.tally.verified.add(pair)
        if hop.by_name:
            checker.tally.by_name.add(pair)
    if found is not None and "errors" in topics:
        found.response = None  # the success answer is not what a question about failing asks for
    absent = no_central_handler(context) if "errors" in topics and asks_flow(question) else None
    return found, absent
