"""Evidence of the mechanism: which framework an index uses, and which lines of its code are the framework's
constructs for what the question is about (the error middleware for "what happens when a request fails", the
``before_action`` filters for "how does authentication flow").

``evidence`` reads which frameworks the index's manifests declare and its code imports, part by part (what an
answer may name); ``frameworks`` the conventions whose constructs to look for (marker paths and identifiers, less
the frameworks the evidence contradicts); both read the index once. ``matches_in`` finds the constructs on a
chunk's code lines (comments and docstrings never count: a commented-out initializer answers nothing);
``convention_chunks`` brings in code of the index that holds a construct the question needs, found through the word
index, so an answer can show the error handler even when retrieval ranked it below the routes that raise.
``answers_poorly`` says which files cannot explain a mechanism whatever their words (migrations, seeds, SQL, lock
files, tests, docs).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.calls.flow import TYPESPEC
from codeqa.answer.explanation.code.construct_lines import (
    RUBY_MACRO,
    after_mount,
    conditioned,
    grouped,
    in_method,
    looped,
    under_test,
)
from codeqa.answer.explanation.code.keylines import COMMENT, prose_lines
from codeqa.answer.explanation.code.passthrough import NOT_FOUND_PHRASE as NOT_FOUND
from codeqa.answer.explanation.code.passthrough import answers_not_found, narrowed_phrase, passes_on_when
from codeqa.answer.explanation.code.poorcode import POOR_LAYERS, answers_poorly
from codeqa.answer.explanation.code.scopes import scoped
from codeqa.frameworks.conventions import Construct, Convention, anchor_rows, load_all
from codeqa.frameworks.detection import detect
from codeqa.frameworks.evidence import Code, Evidence, ecosystems, gather
from codeqa.frameworks.intent import HOOK, intents
from codeqa.records import Chunk

TESTED = frozenset({"auth", "filter"})  # kinds said with the test above their line (``under_test``)
HANDED_ON = 0.5  # the weight kept by a middleware that hands the requests it does not act on straight on
OTHER_CONSTRUCTS = 0.3  # share of a chunk's other constructs in its mechanism score
PER_CONSTRUCT = 3  # index chunks brought in per construct, at most
CHECKED_PER_CONSTRUCT = 12  # ... chosen among this many that hold its anchor, checked in the code
ANCHOR_ROWS = 200
MAX_BROUGHT = 8
# data holds no code that runs: a scanner's report quoting `jwt.sign(user, 'secret')` issues no token
DATA_LANGUAGES = frozenset({"json", "csv"})
EVIDENCE_ROWS = 40  # chunks checked for a framework's import lines, per module it names


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
    narrowed: bool = False  # its line or the block around it narrows it (a filter ``only:`` some actions, ``r.Use``
    # in a router group, a test above it): it runs on some requests

    @property
    def every_request(self) -> bool:
        """On the path of every request: the construct is (global middleware …) and nothing around it narrows it."""
        return self.construct.every_request and not self.narrowed


def evidence(context: AnswerContext) -> Evidence:
    """The frameworks the index's manifests declare and its code imports, each with its part (cached per index)."""
    table = context.table
    rows_by_path = table.rows_by_path()

    def read(paths: list[str]) -> dict[str, str]:
        chunks = context.chunks([row for path in paths for row in rows_by_path.get(path, [])])
        return {path: _file_text([c for c in chunks if c.path == path]) for path in paths}

    def lookup(wanted: Sequence[tuple[str, tuple[str, ...]]]) -> dict[tuple[str, tuple[str, ...]], list[Code]]:
        rows = {
            key: [row for row in context.rows_mentioning(key[0]) if table.languages[row] in key[1]][:EVIDENCE_ROWS]
            for key in wanted
        }
        fetched = {
            chunk.id: chunk for chunk in context.chunks(list(dict.fromkeys(r for rs in rows.values() for r in rs)))
        }
        chunks = {key: [fetched[table.ids[r]] for r in rs if table.ids[r] in fetched] for key, rs in rows.items()}
        return {key: [(c.path, c.language, c.text) for c in found] for key, found in chunks.items()}

    return table.derived("framework evidence", lambda: gather(sorted(rows_by_path), read, lookup))


def _file_text(chunks: Sequence[Chunk]) -> str:
    """A file's text put back together from its chunks, each at its own lines."""
    lines: list[str] = []
    for chunk in sorted(chunks, key=lambda c: c.start_line):
        lines += [""] * (chunk.start_line - 1 - len(lines))
        lines[chunk.start_line - 1 :] = chunk.text.split("\n")
    return "\n".join(lines)


def frameworks(context: AnswerContext) -> tuple[Convention, ...]:
    """The conventions whose constructs apply to the index behind ``context`` (cached per loaded index): those its
    paths and identifiers suggest, less a framework the evidence contradicts (the manifests and imports show another
    one of its languages, and none of it), plus one the evidence shows that its words missed."""

    def holds(word: str, languages: Sequence[str]) -> bool:
        rows = context.rows_mentioning(word)[:200]
        return any(not languages or context.table.languages[row] in languages for row in rows)

    def make() -> tuple[Convention, ...]:
        suggested = detect(sorted(set(context.table.paths)), holds, context.table.languages)
        shown = evidence(context).frameworks()
        by_name = {c.name: c for c in load_all()}
        shown_ecosystems = {e for name in shown if name in by_name for e in ecosystems(by_name[name])}
        kept = [c for c in suggested if c.common or c.name in shown or not ecosystems(c) & shown_ecosystems]
        kept += [by_name[name] for name in shown if by_name[name] not in kept and by_name[name].constructs]
        return tuple(_backed(convention, evidence(context)) for convention in kept)

    return context.table.derived("frameworks", make)


def _backed(convention: Convention, found: Evidence) -> Convention:
    """``convention`` with each construct that names a library (Devise) said only where a manifest declares it:
    elsewhere it says ``says_unbacked`` or does not apply (``has_many :changes, as: :trackable`` is no Devise)."""
    constructs = [
        construct if not construct.packages or found.declares(construct.packages)
        else replace(construct, says=construct.says_unbacked, packages=())
        for construct in convention.constructs
        if not construct.packages or construct.says_unbacked or found.declares(construct.packages)
    ]  # fmt: skip
    return replace(convention, constructs=tuple(constructs))


# the keyword an anonymous function opens with, where a construct expects a handler's name
ANONYMOUS = frozenset({"func", "function", "lambda", "fn", "proc", "async"})


# an import that binds a name (`import org.springframework.security.web.SecurityFilterChain;`, `from x import y`,
# `import { a } from "b"`): naming a type sets nothing up (a side-effect `import "dotenv/config"` does run)
BINDING_IMPORT = re.compile(
    r"^\s*(?:import\s+(?:static\s+)?[\w.]+(?:\.\*)?(?:\s+as\s+\w+)?\s*;?\s*$|from\s+\S+\s+import\b|"
    r"import\s+(?:type\s+)?[\w${},*\s]+\s+from\s+['\"])"
)


def _code_lines(chunk: Chunk) -> Iterable[tuple[int, str]]:
    lines = chunk.text.split("\n")
    prose = prose_lines(lines) if any(mark in chunk.text for mark in ('"""', "'''", "/*")) else set()
    for offset, line in enumerate(lines):
        if offset in prose or COMMENT.match(line) or not line.strip() or BINDING_IMPORT.match(line):
            continue
        if TYPESPEC.match(line):  # `@spec authenticate_user(…) :: …` types a function: it checks no one
            continue
        yield chunk.start_line + offset, line


def _opened(chunk: Chunk, number: int) -> str:
    """The lines of the definition that file line ``number`` opens: to the next line indented no deeper (past a body's
    brace alone on the line below its head, PSR-12's ``{`` under ``public function handle(…)``)."""
    lines = chunk.text.split("\n")[number - chunk.start_line :]
    indent = len(lines[0]) - len(lines[0].lstrip())
    end = next((n for n, line in enumerate(lines[1:], 1) if line.strip() and len(line) - len(line.lstrip()) <= indent
                and not (n == 1 and line.strip() == "{")), len(lines))  # fmt: skip
    return "\n".join(lines[:end])


def matches_in(chunk: Chunk, conventions: Sequence[Convention], intents: Sequence[str]) -> list[Match]:
    """The constructs for ``intents`` on ``chunk``'s code lines: the best one per line, in line order."""
    if not intents or answers_poorly(chunk) or chunk.language in DATA_LANGUAGES:
        return []
    constructs = [
        (construct, weight)
        for convention in conventions
        if not convention.languages or chunk.language in convention.languages
        for construct in convention.constructs
        if (weight := construct.weight_for(intents)) > 0
        and construct.applies_to(chunk.path, chunk.language)
        and not (construct.not_in is not None and construct.not_in.search(chunk.text))
    ]
    found: list[Match] = []
    for number, line in _code_lines(chunk):
        if chunk.language == "ruby" and RUBY_MACRO.match(line) and in_method(chunk, number):
            continue  # registered where the method is called, not for every action
        best: Match | None = None
        for construct, weight in constructs:
            hit = construct.pattern.search(line)
            if hit and (best is None or weight > best.weight) and construct.holds_in(_opened(chunk, number)):
                where = scoped(construct.scope, chunk, number, hit) if construct.scope else ""
                if where is None:
                    continue  # a wrapped handler not shown served, `forRoutes` not read: its scope unknown
                handler = (hit.groupdict().get("handler") or "").split(".")[-1]
                handler = "" if handler in ANONYMOUS else handler  # `e.HTTPErrorHandler = func(…`: no name to give
                phrase = looped(chunk, number, hit.groupdict().get("what") or "", construct.describe(hit) + where)
                narrowed = grouped(chunk, number, line, conditioned(chunk, number, line, phrase))
                narrowed = after_mount(chunk, number, narrowed)
                # who is signed in, which middleware runs: said with the test it runs under (a log line or an error
                # answer is on a branch by nature; its test says no more than it)
                narrowed = under_test(chunk, number, narrowed) if construct.kind in TESTED else narrowed
                weighs = weight
                middleware = construct.every_request or construct.wraps
                if middleware and answers_not_found(chunk, number):
                    narrowed, weighs = NOT_FOUND, weight * HANDED_ON  # the last stop of unanswered requests
                elif middleware and (test := passes_on_when(chunk, number)) is not None:
                    narrowed = narrowed_phrase(narrowed, test)  # it acts on some requests: no place that sees all
                    weighs = weight * HANDED_ON if intents[:1] == (HOOK,) else weight
                best = Match(construct, chunk, number, line.strip(), narrowed, weighs, handler, narrowed != phrase)
        if best is not None:
            found.append(best)
    return found


def mechanism_score(matches: Sequence[Match]) -> float:
    """How strongly matches show a mechanism: the strongest construct, and a share of the other kinds (a file that
    lists everything, like a settings file, does not outweigh the one construct that does the work)."""
    best: dict[int, float] = {}
    for match in matches:
        best[id(match.construct)] = max(best.get(id(match.construct), 0.0), match.weight)
    weights = sorted(best.values(), reverse=True)
    return weights[0] + OTHER_CONSTRUCTS * sum(weights[1:]) if weights else 0.0


def _literal_paths(construct: Construct) -> list[str]:
    """The construct's paths that name one file (``app/models/current.rb``): its file can be looked at directly."""
    return [path for path in construct.paths if not any(ch in path for ch in "*?[")]


def _anchor_rows(context: AnswerContext, anchor: str) -> list[int]:
    return anchor_rows(anchor, context.rows_mentioning)


def convention_chunks(
    context: AnswerContext, conventions: Sequence[Convention], intents: Sequence[str], seen: Iterable[str] = ()
) -> list[Chunk]:
    """Chunks of the index (outside ``seen``) holding a construct for the question's first intent, found by the
    constructs' anchors and checked in the code: in retrieved files first, the strongest constructs first."""
    if not intents:
        return []
    file_rank = {path: n for n, path in enumerate(context.files)}
    skip = set(seen)
    primary = intents[:1]
    wanted: dict[int, list[int]] = {}  # construct index -> candidate rows
    anchored = [c for convention in conventions for c in convention.constructs
                if (c.anchor or _literal_paths(c)) and c.weight_for(primary) > 0]  # fmt: skip
    anchored.sort(key=lambda c: -c.weight)
    for index, construct in enumerate(anchored):
        languages = next(v.languages for v in conventions if construct in v.constructs)
        found_rows = _anchor_rows(context, construct.anchor)[:ANCHOR_ROWS] if construct.anchor else []
        found_rows += [row for path in _literal_paths(construct) for row in context.file_rows(path)]
        rows = [
            row
            for row in dict.fromkeys(found_rows)
            if context.in_scope(row)
            and context.table.ids[row] not in skip
            and context.table.layers[row] not in POOR_LAYERS
            and (not languages or context.table.languages[row] in languages)
            and construct.applies_to(context.table.paths[row], context.table.languages[row])
        ]
        rows.sort(key=lambda r: file_rank.get(context.table.paths[r], len(file_rank)))
        wanted[index] = rows[:CHECKED_PER_CONSTRUCT]
    fetched = {c.id: c for c in context.chunks(list(dict.fromkeys(r for rows in wanted.values() for r in rows)))}
    found: list[Chunk] = []
    for index, rows in wanted.items():
        construct = anchored[index]
        kept = 0
        for row in rows:
            chunk = fetched.get(context.table.ids[row])
            if chunk is None or chunk in found or answers_poorly(chunk):
                continue
            if any(construct.pattern.search(line) for _, line in _code_lines(chunk)):
                found.append(chunk)
                kept += 1
            if kept >= PER_CONSTRUCT:
                break
    return found[:MAX_BROUGHT]


def construct_weights(context: AnswerContext, question: str, chunks: Sequence[Chunk]) -> dict[str, float]:
    """For ranking (retrieval may use it as a feature): how strongly each chunk holds the framework's constructs
    for what ``question`` is about, by chunk id (0 for none)."""
    conventions, topics = frameworks(context), intents(question)
    return {chunk.id: mechanism_score(matches_in(chunk, conventions, topics)) for chunk in chunks}
