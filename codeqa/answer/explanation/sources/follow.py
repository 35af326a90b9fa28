"""The second file of a flow: after each of the best sources, the code a checked call links it to.

A view and the service it calls, an error handler's registration and the renderer it names: retrieval often finds
one and not the other. The call is resolved and checked in the code (``ClaimChecker.link``) and must run the code
(a call, ``new X``, or a container's ``app(X::class)->run()``), never a name alone. The code called on the source's
line that holds most of the question's words is the next step too (``worded``), whatever its own words: the
service a login view hands the credentials to says "token", not "log in"; it may be in the source's own file
when it is the lead's (``register`` → ``_public_register``), after a call into the next file. A test
(``if is_api_request(…)``) decides and a one-line delegate (``return this.repo.findByEmail(email)``) only passes
on: neither is that step.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.calls.claims import ClaimChecker
from codeqa.answer.explanation.calls.flow import Use
from codeqa.answer.explanation.code.keylines import Terms, evidence, scored_lines
from codeqa.answer.explanation.constructs.candidate import CHUNK_EVIDENCE_LINES, Candidate
from codeqa.answer.explanation.constructs.mechanism import answers_poorly, matches_in
from codeqa.answer.explanation.sources.fold import OPEN
from codeqa.frameworks.conventions import Convention
from codeqa.records import Chunk, Hit

FOLLOW_FROM = 2  # the best sources whose checked calls are followed into the code they call or are called by
FOLLOW_NEIGHBOURS = 40  # graph neighbours looked at per source, each way
FOLLOW_SHARE = 0.4  # a followed chunk needs this share of the best evidence, unless a construct's line calls it
HANDED_SHARE = 0.2  # ... and then this share
MAX_FOLLOWED = 2
SAME_FILE = 0.5  # what a worded call into the source's own file weighs against one into the next file
WORDED_LINES = 3  # the source's lines holding most of the question's words whose calls are followed
DECIDES = re.compile(r"^\s*(?:\}\s*)?(?:(?:else\s*)?if|elif|elsif|unless|while|until|case|switch|when)\b")
HEAD = re.compile(
    r"^\s*(?:(?:export|async|public|private|protected|static|final|override|abstract)\s+)*"
    r"(?:def|defp|function|func|fn|sub)\b|^\s*(?:(?:public|private|protected|static|async)\s+)*"
    r"[A-Za-z_$][\w$]*\s*(?:<[^>]*>)?\([^;]*\)\s*(?::\s*[^{;]+)?\{\s*$"
)
HOLDER = re.compile(r"^\s*(?:(?:export|default|abstract|public|final)\s+)*(?:class|module|object|trait|impl)\b")
DOCSTRING = re.compile(r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'')
CLOSING = re.compile(r"^\s*(?:[})\]];?,?|end)\s*$")
COMMENTED = re.compile(r"^\s*(?:#|//|/\*|\*|--)")


def follow(
    terms: Terms,
    conventions: Sequence[Convention],
    intents: Sequence[str],
    context: AnswerContext,
    ordered: Sequence[Candidate],
    score_of: Callable[[Candidate], float],
) -> list[Candidate]:
    """``ordered`` with, right after each of the best sources, the code a checked call links it to (a callee or a
    caller) that holds the question's words, or that a construct's line hands control to: the next step of the
    flow. A candidate already further down is moved up; one shown before the source stays. Unless a construct
    hands control to it, it must hold the question's words at least as well as the source it pushes out of the
    open ones."""
    top_evidence = max((c.evidence for c in ordered), default=0.0) or 1.0
    pushed_out = ordered[OPEN - 1].evidence if len(ordered) >= OPEN else 0.0  # the last open source's words
    checker = ClaimChecker(context)  # a separate tally: choosing code is not a claim the answer makes
    position = {c.chunk.id: n for n, c in enumerate(ordered)}
    file_rank = {path: n for n, path in enumerate(context.files)}
    followers: dict[int, Candidate] = {}  # position of the source → the code it leads to
    moved: set[int] = set()

    for source in [c for c in ordered if not answers_poorly(c.chunk)][:FOLLOW_FROM]:
        here = position[source.chunk.id]
        callers, callees = context.neighbours(source.chunk)
        directions = [
            *((r, True) for r in callees[:FOLLOW_NEIGHBOURS]),
            *((r, False) for r in callers[:FOLLOW_NEIGHBOURS]),
        ]
        chunks = {chunk.id: chunk for chunk in context.chunks([r for r, _ in directions])}
        construct_lines = {match.line for match in source.matches}
        worded = {source.chunk.start_line + i for _, i in scored_lines(terms, source.chunk.text)[:WORDED_LINES]}
        best: list[tuple[float, Candidate]] = []
        for row, calls in directions:
            other = chunks.get(context.table.ids[row])
            if other is None or (other.path == source.chunk.path and not calls) or answers_poorly(other):
                continue  # a file's other chunks are chosen with it (``select_sources``); this is the next file
            if position.get(other.id, len(ordered)) <= here + 1:
                continue
            if position.get(other.id) in moved or any(f.chunk.id == other.id for f in followers.values()):
                continue
            share = evidence(terms, other.text, top=CHUNK_EVIDENCE_LINES) / top_evidence
            if share < HANDED_SHARE or (share < FOLLOW_SHARE and not (calls and (construct_lines or worded))):
                continue
            user, used = (source.chunk, other) if calls else (other, source.chunk)
            use = checker.link(user, used, context.imports([user.path, used.path]))
            if use is None or not _runs(use):
                continue
            worded_call = calls and use.line in worded and _does(use, other)
            if other.path == source.chunk.path and not (worded_call and here == 0):
                continue  # ... unless the lead's worded line calls it: the step its words do not say
            handed = calls and (use.line in construct_lines or worded_call)
            if not handed and (share < FOLLOW_SHARE or share * top_evidence < pushed_out):
                continue  # it must hold the question's words as well as the source it pushes out of the open ones
            known = position.get(other.id)
            follower = ordered[known] if known is not None else Candidate(
                Hit(other, 0.0, other.id), share * top_evidence, matches_in(other, conventions, intents),
                file_rank.get(other.path, len(file_rank)), False)  # fmt: skip
            follower.score = follower.score if known is not None else score_of(follower)
            own_file = other.path == source.chunk.path  # the next file comes before the same file's next step
            best.append((share + (0.0 if not handed else SAME_FILE if own_file else 1.0), follower))
        if best:
            follower = max(best, key=lambda pair: pair[0])[1]
            followers[here] = follower
            if follower.chunk.id in position:
                moved.add(position[follower.chunk.id])
        if len(followers) >= MAX_FOLLOWED:
            break
    result: list[Candidate] = []
    for n, candidate in enumerate(ordered):
        if n not in moved:
            result.append(candidate)
        if n in followers:
            result.append(followers[n])
    return result


def _does(use: Use, callee: Chunk) -> bool:
    """The call on a worded line is the next step: not a test that decides (``if is_api_request(request):``),
    and the callee does more than pass the call on (one statement per definition; a class's own line is neither)."""
    if DECIDES.match(use.text):
        return False
    lines = DOCSTRING.sub("", callee.text).split("\n")
    code = [line for line in lines if line.strip() and not COMMENTED.match(line) and not HOLDER.match(line)]
    heads = sum(1 for line in code if HEAD.match(line))
    statements = sum(1 for line in code if not HEAD.match(line) and not CLOSING.match(line))
    return statements > max(1, heads)


def _runs(use: Use) -> bool:
    """The use runs the used code: a call, an instance made of it (``(new SignupHelper)->isEnabled()``), or an
    instance the container makes and calls (``app(SignupHelper::class)->isEnabled()``)."""
    bare = re.escape(use.name.split("@", 1)[0].split(".")[0])
    made = rf"\bnew\s+(?:[\w\\]+\\)?{bare}\b|\b{bare}::class\s*[\])]\s*->\s*\w+\s*\("
    return use.verb == "calls" or re.search(made, use.text) is not None
