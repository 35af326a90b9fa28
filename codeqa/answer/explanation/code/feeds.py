"""The line that makes what a span hands back: ``data = get_token(request.DATA)`` before ``return response.Ok(data)``.

A snippet that shows the return but not the line that made ``data`` leaves the reader asking where the answer came
from; that line often holds none of the question's words (it is the call that signs in, issues the token, builds the
error body). ``fed_lines`` finds, for each outcome line (a return, a render, a response written), the
assignments in the same span of the local names it reads — every one before it, since each branch may set the
value — and ``with_makers`` lifts them by ``FEED_SHARE`` of the outcome's score, to just below the outcome: a maker
is shown with its outcome, never instead of it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from collections.abc import Set as AbstractSet

from codeqa.answer.explanation.code.lineroles import role_of

# not "error outcome": a raise or an error response reads the error value, and lifting every ``x, err := f()`` above
# the other error answers of an error question hides them (dev 183: the same facts, 6 answers fewer changed)
OUTCOMES = frozenset({"outcome"})
NAME = re.compile(r"(?<![\w$.>:])\$?[A-Za-z_]\w*")  # a name read on its own, not an attribute (``.Ok``, ``->x``)
ASSIGNED = re.compile(  # ``data = …``, ``const data = …``, ``$data = …``, ``data, err := …`` (not ``==``, not ``+=``)
    r"^\s*(?:(?:const|let|var|val|final|auto)\s+)?(\$?[A-Za-z_]\w*(?:\s*,\s*\$?[A-Za-z_]\w*)*)"
    r"\s*(?::\s*[\w<>\[\]|. ]+)?\s*(?::=|=)(?![=>~])"
)
KEYWORDS = frozenset(
    """return yield render redirect redirect_to raise throw new await null nil None True False true false this self
    undefined status json""".split()  # noqa: SIM905
)
# chosen on answers_dev + newcomer_dev (183 questions) among 0 / 0.25 / 0.5 / 1.0: key facts shown 245 / 247 / 248 /
# 248 (1.0 changes 10 answers more); leave-one-repository-out, 17 of 18 held-out repositories chose 0.5
FEED_SHARE = 0.5  # an assignment that makes what an outcome line hands back, against that line's score
FEED_GAP = 0.01  # ... and stays below it
MAX_FED = 3  # assignments of one name lifted for one outcome (each branch's)
DEFINES = re.compile(  # a definition's first line: a maker of the outcome's name is after it (a span may hold several)
    r"^(\s*)(?:(?:export|public|private|protected|static|async|pub|override)\s+)*(?:def|function|func|fn|sub)\b"
)


def assigned_names(line: str) -> tuple[str, ...]:
    """The local names ``line`` assigns (empty when it assigns none, or when the line only opens the value:
    ``$token = [`` says nothing of what makes it)."""
    match = ASSIGNED.match(line)
    if not match or re.fullmatch(r"\s*[\[{(]?\s*", line[match.end() :]):
        return ()
    return tuple(name.strip().lstrip("$") for name in match.group(1).split(","))


def read_names(line: str) -> set[str]:
    """The names ``line`` reads on their own (not attributes, not keywords)."""
    return {name.lstrip("$") for name in NAME.findall(line)} - KEYWORDS


def fed_lines(lines: Sequence[str], intents: tuple[str, ...] = ()) -> dict[int, list[int]]:
    """For each outcome line's index, the indexes of the assignments before it of the names it reads."""
    fed: dict[int, list[int]] = {}
    assigns = [assigned_names(line) if "=" in line else () for line in lines]
    for index, line in enumerate(lines):
        role = role_of(line, intents)
        if role is None or role.name not in OUTCOMES or assigns[index]:
            continue
        names = read_names(line)
        if not names:
            continue
        start = _scope_start(lines, index)
        sources: list[int] = []
        for name in names:
            makers = [j for j in range(index) if name in assigns[j] and (j >= start or _module_level(lines[j]))]
            sources += makers[-MAX_FED:]
        if sources:
            fed[index] = sorted(set(sources))
    return fed


def _scope_start(lines: Sequence[str], index: int) -> int:
    """The first line of the definition ``lines[index]`` is in (0 when none is seen): ``s = Signer(secret)`` in
    ``sign`` makes the ``s`` that ``sign`` returns, not ``s = URLSafeTimedSerializer(secret)`` in the function above
    (a module-level assignment before it still may: ``_local = threading.local()``)."""
    indent = len(lines[index]) - len(lines[index].lstrip())
    for j in range(index - 1, -1, -1):
        match = DEFINES.match(lines[j])
        if match and len(match.group(1)) < indent:
            return j
    return 0


def _module_level(line: str) -> bool:
    return bool(line) and not line[0].isspace()


def with_makers(
    scored: list[tuple[float, int]], lines: list[str], topics: tuple[str, ...], prose: AbstractSet[int]
) -> list[tuple[float, int]]:
    """``scored`` (``(score, index)``) with the makers of each outcome raised by ``FEED_SHARE`` of the outcome's
    score, to just below it; docstring lines (``prose``) neither feed nor are fed."""
    if FEED_SHARE <= 0:
        return scored
    score_of = {index: score for score, index in scored}
    raised = dict(score_of)
    for outcome, makers in fed_lines(lines, topics).items():
        ceiling = score_of.get(outcome, 0.0)  # the maker follows its outcome: shown with it, not instead of it
        if outcome in prose or ceiling <= 0:
            continue
        for maker in (m for m in makers if m not in prose and raised.get(m, 0.0) < ceiling - FEED_GAP):
            raised[maker] = min(raised.get(maker, 0.0) + FEED_SHARE * ceiling, ceiling - FEED_GAP)
    return [(score, index) for index, score in raised.items() if score > 0]
