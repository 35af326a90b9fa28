"""What a cited callee does: a source's sentence names the code it calls; for one callee per source, the line of
the callee's own definition where it ends, by the kinds the flow walk ends in (``endings.OUTCOME_KINDS``).

"`loginViaTwoFactorChallenge` … calls `decryptUserIdFromCache` (…) and `logUserIn` (…:74-87), which ends in
`return $this->tokenManager->createCompositeToken($user);` (line 76)". The line is quoted whole and said only where
the code verifies it:
- the call is a checked claim (``claims``) made by the definition the sentence names; by name (no resolver for the
  language) only when the called name is defined once in the index, so a namesake's line is never attached;
- the line is in the callee's own definition, found once by its head in the callee's lines, the definition that
  holds it is the callee (``holder_at``), and it sits at the outermost level of its body: it runs every time the
  definition does (not under a test, in a ``try``, or in a callback it passes on);
- it is the success outcome (``outcome_of``: not a guard, not an error branch, not a getter's field; asked about an
  API, not the browser's branch; asked about failing, the failure's answer first), the only way out of the callee
  but for returns that give up or hand back an error (not one ``redirect`` of three), an answer only where a
  request is answered (not ``template.render(data)`` for an email's body), a whole statement (not a docstring's
  ``:return:``, not cut before a chained ``->respondWithError(…)``), a plain return only when it computes something
  (not ``return provider``), and the callee's name is not a failing helper's (``throwFailedAuthenticationException``)
  unless the question asks about failing;
- a callee shown with its own lines, or a line the answer already shows, is not said again.
Of a source's callees, the one that ends best (a sign-in, a token, a job, a write, a response before a plain return)
and then holds most of the question's words is said; sources open in the answer only, so the answer gets no longer.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from codeqa.answer.explanation.calls.claims import RESOLVED_LANGUAGES
from codeqa.answer.explanation.calls.flow import Use, code_part
from codeqa.answer.explanation.calls.implements import Implementations
from codeqa.answer.explanation.code.branches import asks_api, condition_at
from codeqa.answer.explanation.code.keylines import COMMENT, prose_lines, term_score
from codeqa.answer.explanation.code.linenames import holder_at
from codeqa.answer.explanation.code.outline import display_name
from codeqa.answer.explanation.explain import Explanation, Step
from codeqa.answer.explanation.said.outcomes import quotable, whole
from codeqa.answer.explanation.story.continued import stands_for
from codeqa.answer.explanation.story.endings import (
    _HEAD,
    FAILING_NAME,
    Outcome,
    definition_lines,
    ending_rank,
    outcome_of,
)
from codeqa.answer.rendering.injection import instruction_like
from codeqa.answer.rendering.render import code_span
from codeqa.chunk.tags import text_of
from codeqa.records import Chunk
from codeqa.symbols import short_name

# what the callee does, by the kind of its outcome line (the line follows, quoted whole)
SAID = {
    "signs the user in with": "which signs the user in",
    "issues a token with": "which issues a token",
    "queues a job with": "which queues a job",
    "stores with": "which stores",
    "answers with": "which answers the request",
    "returns": "which ends in",
}


TYPED_LANGUAGES = frozenset({"java", "csharp"})
# a typed method's head: modifiers, a return type, the name (``public ResponseEntity<ApiError> build(ApiError e) {``)
_TYPED_HEAD = (
    r"^(\s*)(?:(?:public|private|protected|internal|static|final|abstract|override|synchronized|async|virtual|"
    r"default)\s+)+(?:<[^>]*>\s+)?(?!return\b|new\b|throw\b|await\b)[\w.]+(?:<.*>)?(?:\[\])*\??\s+{name}\s*\("
)
RETURN = re.compile(r"^\s*return\b")
# a return that gives up or hands back an error: another way out that is no other outcome
GIVES_UP = re.compile(
    r"\berr|error|exception|fail|^\s*return\s*(?:None|False|false|nil|null|undefined)?\s*;?\s*$", re.I
)
TEMPLATE_RENDER = re.compile(r"\b\w*(?:template|engine|tpl|mail)\w*\.render\s*\(", re.IGNORECASE)
# a statement that goes on below its line: a chained call (`->respondWithError(…)`, `.then(…)`), an operator, the
# rest of a ternary; the line alone would say less than the code does
CONTINUED = re.compile(r"^\s*(?:->|\?->|\.|\?\?|\?|:(?!:)|&&|\|\||[-+*/%|&^,)\]]|and\b|or\b)")
# what a returned expression computes: a call, a comparison or test, an operation (not ``return provider``,
# ``return true;``, ``return oauth_token.user``, ``return { url }``)
WORK = re.compile(r"[\w)\]]\s*\(|[=!<>]=|(?<![-=])[<>](?!=)|&&|\|\||\bin\b|\band\b|\bor\b|\bnot\b|\s[-+*/%|&]\s|\?")


@dataclass(frozen=True)
class CalleeOutcome:
    """What callee ``name`` (in ``chunk``), called by a step, does: ``outcome``."""

    name: str
    chunk: Chunk
    outcome: Outcome

    @property
    def key(self) -> tuple[str, str]:
        return self.name, self.chunk.id

    def markdown(self) -> str:
        """The clause after the callee's citation: ", which issues a token: `…` (line 76)"."""
        said = SAID[self.outcome.verb]
        colon = "" if self.outcome.verb == "returns" else ":"
        return f", {said}{colon} {code_span(self.outcome.text)} (line {self.outcome.line})"

    def plain(self) -> str:
        """The same for a model's brief, on a line of its own under the source that calls it."""
        at = f"{self.chunk.path}:{self.outcome.line}"
        return f"{self.name} ({self.chunk.location}), {SAID[self.outcome.verb]}: {self.outcome.text} ({at})"


def _callees(step: Step, explanation: Explanation) -> Iterator[tuple[Use, Chunk]]:
    """The calls a step's sentence states to code not shown with its own lines: folded sources, code outside."""
    opened = {other.chunk.id for other in explanation.open_steps}
    own = display_name(step.chunk).split(" (+", 1)[0]
    calls = [(use, explanation.step(rank).chunk) for rank, use in step.calls]
    calls += [(related.use, related.chunk) for related in step.related if related.direction == "calls"]
    for use, chunk in calls:
        # a call made by another definition of the chunk is said "… from `X`": a clause after it would read as X's
        if chunk.id not in opened and not (use.caller and use.caller != own):
            yield use, chunk


def _heads(chunk: Chunk, pattern: str, name: str) -> list[int]:
    head = re.compile(pattern.format(name=re.escape(short_name(name))))
    return [index for index, line in enumerate(chunk.text.split("\n")) if head.match(line)]


def _own(chunk: Chunk, name: str) -> tuple[Chunk, str] | None:
    """Where definition ``name`` of ``chunk`` is read: ``(chunk, name)`` when its head is found once there (two heads:
    which one is called is unsure); in a typed language, whose method heads ``endings`` does not read
    (``public String createToken(…) {``), the method's own lines as a chunk of their own, read whole (``""``)."""
    heads = _heads(chunk, _HEAD, name)
    if heads:
        return (chunk, name) if len(heads) == 1 else None
    heads = _heads(chunk, _TYPED_HEAD, name) if chunk.language in TYPED_LANGUAGES else []
    if len(heads) != 1:
        return None
    lines, index = chunk.text.split("\n"), heads[0]
    indent, end = len(lines[index]) - len(lines[index].lstrip()), index + 1
    while end < len(lines) and (not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip()) > indent
                                or lines[end].lstrip().startswith((")", "{"))):  # fmt: skip
        end += 1
    text = "\n".join(lines[index:end])
    start = chunk.start_line + index
    return Chunk(chunk.path, chunk.language, start, start + end - index - 1, text, name, "method", chunk.layer), ""


def _unique(explanation: Explanation, user: Chunk, use: Use, callee: Chunk) -> bool:
    """A call checked by name only stands for this callee as ``continued.stands_for`` decides (one definition of the
    name, a private call on the object itself, or a receiver declared as the callee's class)."""
    if user.language in RESOLVED_LANGUAGES and callee.language in RESOLVED_LANGUAGES:
        return True
    context = explanation.context
    if context is None:
        return False
    hierarchy = Implementations(context, lambda path: text_of(context.file_chunks([path], limit=None).get(path, [])))
    return stands_for(context, user, use, callee, hierarchy)


def callee_outcome(
    explanation: Explanation, user: Chunk, use: Use, callee: Chunk, shown: set[tuple[str, int]]
) -> CalleeOutcome | None:
    """What ``callee`` does when ``user`` calls it through ``use``, where the code verifies it (module docstring)."""
    name = use.name
    errors = "errors" in explanation.intents
    if use.verb != "calls" or instruction_like(name):
        return None  # (a class's name finds no function head: ``ending_line`` says nothing of a constructor call)
    if not errors and FAILING_NAME.search(short_name(name)):
        return None
    if not _unique(explanation, user, use, callee):
        return None
    outcome = ending_line(callee, name, api=asks_api(explanation.question), errors=errors)
    if outcome is None or (callee.path, outcome.line) in shown:
        return None
    return CalleeOutcome(name, callee, outcome)


def ending_line(callee: Chunk, name: str, *, api: bool = False, errors: bool = False) -> Outcome | None:
    """The line where definition ``name`` of ``callee`` ends, when the code says so for certain (module docstring):
    its success outcome (``outcome_of``), at the outermost level of its own body, a whole statement."""
    own = _own(callee, name)
    if own is None:
        return None
    chunk, head = own
    # asked about failing, the failure's answer first; else (and failing that) how the callee ends when it works:
    # either is said only at the outermost level of its body, where it runs every time the callee does
    outcome = (errors and outcome_of(chunk, head, api=api, errors=True)) or outcome_of(chunk, head, api=api)
    if outcome is None or not _top_of(chunk, head, outcome.line):
        return None
    holder = holder_at(chunk, outcome.line) if head else name  # a typed method's own lines hold only it
    if holder is None or short_name(holder) != short_name(name):
        return None
    text = outcome.text
    if not (quotable(text) and whole(text)) or condition_at(chunk, outcome.line) != ("", ""):
        return None
    if _prose_or_continued(chunk, outcome.line) or not _one_way(chunk, head, outcome.line):
        return None
    if outcome.verb == "answers with" and not _answers(callee, text):
        return None
    if outcome.verb == "returns" and not WORK.search(text.removeprefix("return")):
        return None  # a plain return is said only when it computes something (a call, a test, an operation)
    return Outcome(outcome.verb, callee, name, outcome.line, text)


def _top_of(chunk: Chunk, name: str, line: int) -> bool:
    """Whether file line ``line`` is a statement of definition ``name``'s own body, at its outermost level: not in a
    callback it passes on (``posts.filter(function (post) { return … })``), not in a block (a test, a ``try``)."""
    body = definition_lines(chunk, name)[1:]
    code = [(number, text) for number, text in body if text.strip() and not COMMENT.match(text)
            and not text.lstrip().startswith((")", "}", "{", "]"))]  # fmt: skip
    if not code:
        return False
    outer = min(len(text) - len(text.lstrip()) for _, text in code)
    return any(number == line and len(text) - len(text.lstrip()) == outer for number, text in code)


def _one_way(chunk: Chunk, name: str, line: int) -> bool:
    """Whether definition ``name`` has no other way out than through line ``line``: any other ``return`` gives up
    (``return None``, ``return false;``) or hands back an error (``return "", err``). A function that answers
    otherwise on another branch (``return redirect(next_url)`` before ``return redirect("hc-index")``) ends in more
    than one place: naming one would say less than the code does."""
    for number, text in definition_lines(chunk, name)[1:]:
        code = code_part(text)
        if number != line and RETURN.match(code) and not GIVES_UP.search(code):
            return False
    return True


def _answers(callee: Chunk, text: str) -> bool:
    """An "answers with" line that answers a request: returned, or in a controller or view (Rails' ``render json:``)
    — not a template rendered for an email's body (``emailVo.setContent(template.render(data))``)."""
    if TEMPLATE_RENDER.search(text):
        return False
    return bool(RETURN.match(text)) or str(callee.layer) in ("api", "view")


def _prose_or_continued(chunk: Chunk, line: int) -> bool:
    """Whether file line ``line`` of ``chunk`` is in a docstring (``:return: a redirect response``), or its
    statement goes on below it (``goes_on_below``)."""
    lines = chunk.text.split("\n")
    position = line - chunk.start_line
    return position in prose_lines(lines) or goes_on_below(chunk.language, lines, position)


def goes_on_below(language: str, lines: Sequence[str], position: int) -> bool:
    """Whether the statement on ``lines[position]`` goes on below it: the next code line continues it (a chained
    ``->respondWithError(…)``, an operator), or it is PHP and does not end with ``;``, a block's ``{`` or ``}``
    (``return $this->setHTTPStatusCode(500)`` goes on below). A line quoted alone would say less than the code does."""
    if language == "php" and not code_part(lines[position]).rstrip().endswith((";", "{", "}")):
        return True
    below = next((text for text in lines[position + 1 :] if text.strip() and not COMMENT.match(text)), "")
    return bool(CONTINUED.match(below))


def shown_lines(explanation: Explanation) -> set[tuple[str, int]]:
    """The (path, line) pairs an answer shows or cites at their line: the sources' key lines, the walk's steps."""
    shown = {(step.chunk.path, line.line) for step in explanation.steps for line in step.lines}
    shown |= {(one.callee.path, line.line) for one in explanation.continued.values() for line in one.lines}
    if explanation.walk is not None:
        ends = [explanation.walk.outcome, explanation.walk.response]
        shown |= {(end.chunk.path, end.line) for end in ends if end is not None}
        shown |= {(hop.chunk.path, hop.use.line) for hop in explanation.walk.hops}
    return shown


def callee_outcomes(explanation: Explanation, shown: set[tuple[str, int]] | None = None) -> dict[int, CalleeOutcome]:
    """For each open step (by rank), the callee its sentence names whose outcome is said, if any; ``shown`` (the
    answer's lines, ``shown_lines`` when not given) grows by the lines said here."""
    shown = shown_lines(explanation) if shown is None else shown
    said: dict[int, CalleeOutcome] = {}
    for step in explanation.open_steps:
        calls = _callees(step, explanation)
        tried = (callee_outcome(explanation, step.chunk, use, chunk, shown) for use, chunk in calls)
        found = [one for one in tried if one is not None and (one.chunk.path, one.outcome.line) not in shown]
        if not found:
            continue
        best = max(found, key=lambda one: (ending_rank(one.outcome), term_score(explanation.terms, one.outcome.text)))
        said[step.rank] = best
        shown.add((best.chunk.path, best.outcome.line))
    return said
