"""Evidence of the mechanism: which framework an index uses, and which lines of its code are the framework's
constructs for what the question is about (the error middleware for "what happens when a request fails", the
``before_action`` filters for "how does authentication flow").

``frameworks`` reads the index once (paths and identifiers); ``matches_in`` finds the constructs on a chunk's code
lines (comments and docstrings never count: a commented-out initializer answers nothing); ``convention_chunks``
brings in code of the index that holds a construct the question needs, found through the word index, so an answer
can show the error handler even when retrieval ranked it below the routes that raise. ``answers_poorly`` says which
files cannot explain a mechanism whatever their words (migrations, seeds, SQL, lock files, tests, docs).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import PurePosixPath

from codeqa.answer.context import AnswerContext
from codeqa.answer.conventions import Construct, Convention, load_all
from codeqa.answer.keylines import COMMENT, prose_lines
from codeqa.records import Chunk
from codeqa.store.lexical import code_tokens

SECONDARY = 0.5  # a construct for the question's second or third intent counts half
DETECTED = 2.0  # detection score a framework needs: a marker path counts 2, an identifier its code uses 1
PER_CONSTRUCT = 3  # index chunks brought in per construct, at most
MAX_BROUGHT = 8
POOR_LAYERS = frozenset({"migration", "test", "docs", "build"})
POOR_PATHS = (
    "*.sql", "*seed*", "*fixtures*", "*.lock", "*lock.json", "*.min.js", "*.snap", "*.svg", "*/vendor/*",
    "db/schema.rb", "*/schema.prisma", "*.d.ts", "*/locales/*", "*/i18n/*", "*/translations/*", "*CHANGELOG*",
)  # fmt: skip
_DETECTED: OrderedDict[int, tuple[Convention, ...]] = OrderedDict()
_LOCK = threading.Lock()


@dataclass(frozen=True)
class Match:
    """A construct found on a code line of a chunk."""

    construct: Construct
    chunk: Chunk
    line: int  # 1-based line in the file
    text: str  # the line, stripped
    phrase: str  # what the construct does here (``says`` filled in)
    weight: float  # the construct's weight for this question (its intent's share included)
    handler: str = ""  # the function the construct hands control to (its ``handler`` group), if it names one


def _vocabulary(context: AnswerContext) -> set[str]:
    return set(context.identifiers())


def detect(paths: Sequence[str], words: set[str]) -> tuple[Convention, ...]:
    """The frameworks whose marker paths or identifiers an index holds (``common`` always), most evident first."""
    scored: list[tuple[float, int, Convention]] = []
    for order, convention in enumerate(load_all()):
        if not convention.detect_paths and not convention.detect_words:
            scored.append((99.0, order, convention))
            continue
        score = 2.0 * any(fnmatch(path, glob) for glob in convention.detect_paths for path in paths)
        for word in convention.detect_words:
            tokens = code_tokens(word)
            score += bool(word.lower() in words or (tokens and tokens[0] in words))
        if score >= DETECTED:
            scored.append((score, order, convention))
    return tuple(convention for _, _, convention in sorted(scored, key=lambda item: (-item[0], item[1])))


def frameworks(context: AnswerContext) -> tuple[Convention, ...]:
    """The conventions that apply to the index behind ``context`` (cached per loaded index)."""
    key = id(context.table)
    with _LOCK:
        if key in _DETECTED:
            return _DETECTED[key]
    found = detect(sorted(set(context.table.paths)), _vocabulary(context))
    with _LOCK:
        _DETECTED[key] = found
        while len(_DETECTED) > 8:
            _DETECTED.popitem(last=False)
    return found


def framework_name(conventions: Sequence[Convention]) -> str:
    """The name of the most evident real framework ("" when only the common constructs apply)."""
    return next((c.name for c in conventions if c.detect_paths or c.detect_words), "")


def intent_weight(construct: Construct, intents: Sequence[str]) -> float:
    for position, intent in enumerate(intents):
        if intent in construct.intents:
            return construct.weight * (1.0 if position == 0 else SECONDARY)
    return 0.0


def _code_lines(chunk: Chunk) -> Iterable[tuple[int, str]]:
    lines = chunk.text.split("\n")
    prose = prose_lines(lines) if '"""' in chunk.text or "'''" in chunk.text else set()
    for offset, line in enumerate(lines):
        if offset in prose or COMMENT.match(line) or not line.strip():
            continue
        yield chunk.start_line + offset, line


def matches_in(chunk: Chunk, conventions: Sequence[Convention], intents: Sequence[str]) -> list[Match]:
    """The constructs for ``intents`` on ``chunk``'s code lines: the best one per line, in line order."""
    if not intents or answers_poorly(chunk):
        return []
    constructs = [
        (construct, weight)
        for convention in conventions
        if not convention.languages or chunk.language in convention.languages
        for construct in convention.constructs
        if (weight := intent_weight(construct, intents)) > 0 and construct.applies_to(chunk.path, chunk.language)
    ]
    found: list[Match] = []
    for number, line in _code_lines(chunk):
        best: Match | None = None
        for construct, weight in constructs:
            hit = construct.pattern.search(line)
            if hit and (best is None or weight > best.weight):
                handler = (hit.groupdict().get("handler") or "").split(".")[-1]
                best = Match(construct, chunk, number, line.strip(), construct.describe(hit), weight, handler)
        if best is not None:
            found.append(best)
    return found


def mechanism_score(matches: Sequence[Match]) -> float:
    """How strongly matches show a mechanism: each construct counts once (repeats add a little)."""
    best: dict[int, float] = {}
    repeats = 0.0
    for match in matches:
        key = id(match.construct)
        if key in best:
            repeats += 0.1 * match.weight
        best[key] = max(best.get(key, 0.0), match.weight)
    return sum(best.values()) + min(repeats, 0.5)


def answers_poorly(chunk: Chunk) -> bool:
    """Code that cannot explain a mechanism, whatever words it holds: schema changes, seeds, SQL, lock files,
    tests, documentation, or a chunk whose lines are all comments (a commented-out initializer)."""
    if str(chunk.layer) in POOR_LAYERS:
        return True
    path = chunk.path.lower()
    if any(fnmatch(path, glob) for glob in POOR_PATHS) or PurePosixPath(path).name.startswith("migration"):
        return True
    code = [line for line in chunk.text.split("\n") if line.strip()]
    return bool(code) and sum(1 for line in code if COMMENT.match(line)) >= 0.8 * len(code)


def _anchor_rows(context: AnswerContext, anchor: str) -> list[int]:
    rows: list[int] | None = None
    for word in anchor.split():
        found = context.rows_mentioning(word)
        rows = found if rows is None else [row for row in rows if row in set(found)]
        if not rows:
            return []
    return rows or []


def convention_chunks(
    context: AnswerContext, conventions: Sequence[Convention], intents: Sequence[str], seen: Iterable[str] = ()
) -> list[Chunk]:
    """Chunks of the index (outside ``seen``) holding a construct for the question's first intent, found by the
    constructs' anchors: in retrieved files first, then in line with the word index's order."""
    if not intents:
        return []
    file_rank = {path: n for n, path in enumerate(context.files)}
    skip = set(seen)
    wanted: list[int] = []
    primary = intents[:1]
    for convention in conventions:
        for construct in convention.constructs:
            if not construct.anchor or intent_weight(construct, primary) <= 0:
                continue
            rows = [
                row
                for row in _anchor_rows(context, construct.anchor)[:40]
                if context.in_scope(row)
                and context.table.ids[row] not in skip
                and context.table.layers[row] not in POOR_LAYERS
                and (not convention.languages or context.table.languages[row] in convention.languages)
                and construct.applies_to(context.table.paths[row], context.table.languages[row])
            ]
            rows.sort(key=lambda r: file_rank.get(context.table.paths[r], len(file_rank)))
            wanted += [row for row in rows[:PER_CONSTRUCT] if row not in wanted]
    chunks = context.chunks(wanted[: 3 * MAX_BROUGHT])
    verified = [chunk for chunk in chunks if matches_in(chunk, conventions, primary)]
    return verified[:MAX_BROUGHT]
