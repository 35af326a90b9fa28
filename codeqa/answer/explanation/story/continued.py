"""Where the flow goes on: the function a source calls that does what the question asks, quoted under the source.

A view often hands the asked thing to a function in another file (``const website = await fetchWebsite(id)``, and
``fetchWebsite`` is where the site is cached); the answer shows the view and names nothing of what the call does.
Under such a source, one line says where the flow goes on and quotes the callee's best lines:

    `POST` calls `fetchWebsite` (`src/lib/load.ts:6-20`) at `src/app/api/send/route.ts:116`. In `fetchWebsite`: …

Said only where the code verifies it:
- the call is a checked claim (``ClaimChecker.link``), and by name (no resolver for the language) only where the
  called name is one definition in the index or its receiver is declared as the callee's class (``stands_for``);
- it is made on one of the source's key lines or right under one (the flow the answer shows goes through it), by a
  definition the source's lines name (``holder_at``; else the one the source is named after, where its sentence
  would say so too), to a function (not a class made, not a failing helper);
- not in a closure the caller hands on (``in_callback``): the closure makes that call, later;
- the callee's own definition is found once by its head, and its lines hold the question's words (or their
  concept's) better than the call's own line does: the callee does the asked thing, the call only names it;
- neither the callee nor the lines quoted are shown already (a source, the walk's steps).
The line takes one key line's place (``explain``): the answer gets no longer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.calls.byname import typed_receiver
from codeqa.answer.explanation.calls.callplace import placed_caller, unplaced
from codeqa.answer.explanation.calls.claims import RESOLVED_LANGUAGES, ClaimChecker
from codeqa.answer.explanation.calls.flow import Use, code_part
from codeqa.answer.explanation.calls.implements import Implementations
from codeqa.answer.explanation.calls.selfcalls import private_self_call
from codeqa.answer.explanation.code.keylines import COMMENT, KeyLine, Terms, clip, line_score, prose_lines, shown_order
from codeqa.answer.explanation.code.linenames import FUNCTION_HEAD, holder_at
from codeqa.answer.explanation.code.outline import display_name
from codeqa.answer.explanation.story.endings import FAILING_NAME, definition_lines
from codeqa.answer.rendering.render import code_span
from codeqa.chunk.tags import text_of
from codeqa.records import Chunk
from codeqa.symbols import qualified_names, short_name

CALLEES_READ = 40  # graph callees read per source
MAX_CONTINUED = 2  # sources per answer whose flow is followed this way
QUOTED = 4  # the callee's lines quoted, on the one line (3 → 4: +1 dev 183 and +2 real-size dev facts)
QUOTED_CHARS = 160
SKIPPED_LAYERS = frozenset({"test", "docs", "migration", "build"})
MAX_HEAD = 12  # a signature wrapped over lines ends within this many (its parameters are not the body)
CLOSURE = re.compile(r"\bfunction\s*\(|=>\s*\{?\s*$|\bfn\s*\(|\blambda\b|\bdo\s*(?:\|[^|]*\|)?\s*$")


def in_callback(chunk: Chunk, line: int) -> bool:
    """Whether file line ``line`` of ``chunk`` is inside a closure opened in the definition that holds it: a line
    above it, less indented, that opens a function (``function ($user) {``, ``=> {``, ``do |x|``)."""
    lines = chunk.text.split("\n")
    offset = line - chunk.start_line
    indent = len(lines[offset]) - len(lines[offset].lstrip())
    for above in reversed(lines[:offset]):
        depth = len(above) - len(above.lstrip())
        if not above.strip() or depth >= indent:
            continue
        if FUNCTION_HEAD.match(above):
            return False  # the definition itself
        if CLOSURE.search(code_part(above)):
            return True
        indent = depth
    return False


@dataclass(frozen=True)
class Continuation:
    """Source ``rank``'s definition ``caller`` calls ``use.name``, whose own lines are ``callee`` (a part of the chunk
    that defines it); ``lines`` are its best lines."""

    rank: int
    caller: str
    caller_path: str
    use: Use
    callee: Chunk
    lines: tuple[KeyLine, ...]

    @property
    def name(self) -> str:
        return short_name(self.use.name)

    def markdown(self) -> str:
        where = f"{self.caller_path}:{self.use.line}"
        said = " · ".join(f"{code_span(line.text.strip())} (line {line.line})" for line in self.lines)
        return (f"{code_span(self.caller)} calls {code_span(self.name)} ({code_span(self.callee.location)}) at "
                f"{code_span(where)}. In {code_span(self.name)}: {said}")  # fmt: skip

    def plain(self) -> str:
        said = "; ".join(f"{line.line}: {line.text.strip()}" for line in self.lines)
        return (f"{self.caller} calls {self.name} ({self.callee.location}) at {self.caller_path}:{self.use.line}; "
                f"in {self.name}: {said}")  # fmt: skip


def stands_for(context: AnswerContext, user: Chunk, use: Use, callee: Chunk, hierarchy: Implementations) -> bool:
    """A call checked by name only stands for ``callee`` when no other definition in the index has the name, when it
    is a private call on the object itself, or when its receiver is declared as the callee's class; a resolved call
    (Python) always does."""
    if user.language in RESOLVED_LANGUAGES and callee.language in RESOLVED_LANGUAGES:
        return True
    short = re.split(r"\.|::|#|->", use.name)[-1]
    if short in context.defined_in(callee) and context.definitions_of(short) == 1:
        return True
    if private_self_call(user, callee, use):
        return True
    chunks = context.file_chunks([user.path], limit=None).get(user.path, [])
    return bool(chunks) and typed_receiver(user, callee, use, text_of(chunks), hierarchy)


def own_definition(callee: Chunk, name: str) -> Chunk | None:
    """Definition ``name``'s own lines in ``callee``, as a chunk of their own: found once by its head, else None."""
    lines = definition_lines(callee, name)
    if len(lines) < 2 or len(definition_lines(_after(callee, lines[-1][0]), name)) > 0:
        return None  # no function head, or a second one further down (which one is called is unsure)
    text = "\n".join(text for _, text in lines)
    return Chunk(callee.path, callee.language, lines[0][0], lines[-1][0], text, name, "function", callee.layer)


def _after(chunk: Chunk, line: int) -> Chunk:
    lines = chunk.text.split("\n")[line - chunk.start_line + 1 :]
    return Chunk(chunk.path, chunk.language, line + 1, line + max(1, len(lines)), "\n".join(lines), "", "", "")


def best_lines(terms: Terms, definition: Chunk, shown: set[tuple[str, int]]) -> tuple[list[KeyLine], float]:
    """The definition's best body lines that hold the question's words (ranked by them and by what the line does; no
    comment or docstring, none shown already), in file order, and the best one's words."""
    lines = definition.text.split("\n")
    prose = prose_lines(lines)
    opened = next((n for n, text in enumerate(lines[:MAX_HEAD]) if code_part(text).rstrip().endswith((":", "{"))), 0)
    kept: list[tuple[float, int]] = []
    for index in shown_order(terms, definition.text):
        line = definition.start_line + index
        text = lines[index]
        score = line_score(terms, text)
        if index <= opened or index in prose or COMMENT.match(text) or (definition.path, line) in shown or score <= 0:
            continue
        kept.append((score, index))
        if len(kept) >= QUOTED:
            break
    best = max((score for score, _ in kept), default=0.0)
    quoted = [KeyLine(definition.start_line + i, clip(lines[i])[:QUOTED_CHARS]) for _, i in sorted(kept, key=_index)]
    return quoted, best


def _index(item: tuple[float, int]) -> int:
    return item[1]


@dataclass(frozen=True)
class Source:
    """What a continuation is looked for from: an open source's rank, chunk and key lines."""

    rank: int
    chunk: Chunk
    lines: Sequence[KeyLine]


def continuations(
    context: AnswerContext,
    checker: ClaimChecker,
    terms: Terms,
    sources: Sequence[Source],
    shown: set[tuple[str, int]],
    shown_ids: set[str],
    errors: bool = False,
) -> dict[int, Continuation]:
    """By source rank, where its flow goes on (module docstring); at most ``MAX_CONTINUED``, the first sources first.
    The calls taken are counted on ``checker``'s tally; the ones tried and not taken are not claims."""
    explorer = ClaimChecker(context, checker._texts)
    found: dict[int, Continuation] = {}
    taken: set[str] = set()
    for source in sources:
        if len(found) >= MAX_CONTINUED:
            break
        best = _best(context, explorer, terms, source, shown, shown_ids | taken, errors)
        if best is None:
            continue
        found[source.rank] = best
        taken.add(best.callee.id)
        shown |= {(best.callee.path, line.line) for line in best.lines}
        pair = (source.chunk.id, best.callee.id)
        checker.tally.made.add(pair)
        checker.tally.verified.add(pair)
        if source.chunk.language not in RESOLVED_LANGUAGES or best.callee.language not in RESOLVED_LANGUAGES:
            checker.tally.by_name.add(pair)
    return found


def _best(
    context: AnswerContext,
    explorer: ClaimChecker,
    terms: Terms,
    source: Source,
    shown: set[tuple[str, int]],
    shown_ids: set[str],
    errors: bool,
) -> Continuation | None:
    user = source.chunk
    near = {line.line for line in source.lines} | {line.line + 1 for line in source.lines}
    _, rows = context.neighbours(user)
    rows = [r for r in rows if context.table.layers[r] not in SKIPPED_LAYERS][:CALLEES_READ]
    chunks = [c for c in context.chunks(rows) if c.id not in shown_ids and c.id != user.id]
    imports = context.imports([user.path, *(c.path for c in chunks)])
    best: tuple[float, Continuation] | None = None
    for chunk in chunks:
        use = explorer.link(user, chunk, imports)
        if use is None or use.verb != "calls" or use.line not in near:
            continue
        name = short_name(use.name)
        if name[:1].isupper() or (FAILING_NAME.search(name) and not errors):
            continue  # a class made is no step of the flow; a failing helper is not what happens
        caller = use.caller or holder_at(user, use.line) or placed_caller(use, user)
        if not caller and not unplaced(use, user) and len(qualified_names(user.symbol)) == 1:
            caller = display_name(user).split(" (+", 1)[0]  # the chunk's one definition makes the call
        if not caller or in_callback(user, use.line):
            continue  # a call in a closure the caller hands on (``Gate::define(…, function ($user) {…})``) is not its
        if short_name(caller) == name or not stands_for(context, user, use, chunk, explorer.hierarchy):
            continue
        definition = own_definition(chunk, name)
        if definition is None or any(path == definition.path and definition.start_line <= line <= definition.end_line
                                     for path, line in shown):  # fmt: skip
            continue
        lines, score = best_lines(terms, definition, shown)
        if not lines or score <= line_score(terms, use.text):
            continue  # the callee must hold the question's words better than the call that names it
        if best is None or score > best[0]:
            best = (score, Continuation(source.rank, caller, user.path, use, definition, tuple(lines)))
    return best[1] if best else None
