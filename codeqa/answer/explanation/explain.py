"""The structured extractive answer: which sources, which of their lines, in what order, linked how.

``explain`` is a pure function of the question and an ``AnswerContext`` (the retrieved pool, the ranked files and
read access to the index). It 1. chooses the sources (``choose``): the best chunks of the retrieval's best files,
plus code that holds the framework's constructs for what the question is about; the best of them opens the answer;
2. takes each source's key lines (``keylines``, construct lines first) with their real line numbers;
3. collapses near-identical sources, opens at most five and folds the rest (``fold``);
4. links the sources along the symbol graph, checking each link in the code (``flow.link``), and adds the code
   outside the answer that calls them or that they call (callers first, tests last), and the line routing sign-in;
5. orders the open sources for reading (the lead first, then callers before callees) and numbers them so;
6. says what the question names that the index does not hold. Rendering (markdown, a prompt's text) is elsewhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.calls.callplace import consistent_chain
from codeqa.answer.explanation.calls.claims import ClaimChecker, ClaimTally
from codeqa.answer.explanation.calls.flow import Use, chains, role_of
from codeqa.answer.explanation.code.docprose import prose_only
from codeqa.answer.explanation.code.keylines import KeyLine, Terms, question_terms
from codeqa.answer.explanation.code.outline import summary
from codeqa.answer.explanation.code.values import Value, values_read
from codeqa.answer.explanation.constructs.apppart import own_app
from codeqa.answer.explanation.constructs.mechanism import Match, evidence, frameworks
from codeqa.answer.explanation.constructs.skipped import excepted
from codeqa.answer.explanation.sources import choose
from codeqa.answer.explanation.sources.absence import Absence, errors_answered
from codeqa.answer.explanation.sources.budget import allocate_lines
from codeqa.answer.explanation.sources.entry import route_hits, routed
from codeqa.answer.explanation.sources.fold import collapse, folded_lines, reading_order, split_open, weak_evidence
from codeqa.answer.explanation.sources.missing import missing_words
from codeqa.answer.explanation.sources.pieces import whole_candidates
from codeqa.answer.explanation.story.continued import Continuation, Source, continuations
from codeqa.answer.explanation.story.walk import Walk, walk_for
from codeqa.answer.rendering.injection import instruction_like
from codeqa.chunk.tags import text_of
from codeqa.frameworks.evidence import Evidence
from codeqa.records import Chunk, Hit
from codeqa.retrieve.question import Question

MAX_FILES = 6
# chosen on dev 183 (answers_dev + newcomer_dev): KEY_LINES 38 -> 40 with LINES_MOST 12 -> 14 showed 5 more facts for
# 2 more lines (median 59 -> 61); 42 showed 8 more for 4 (median 63). 39 put dev's and real-size's medians exactly at
# the 60 lines #35 holds to, and the public test set at 61; 38 keeps a line of margin (dev and real-size 59) for 3
# dev facts fewer
KEY_LINES = 38  # key lines shown across the open sources (the answer stays within about 60 lines)
LINES_LEAST = (6, 5, 4, 3, 3)  # the best sources are sure of more lines; the rest go to the best lines anywhere
LINES_MOST = 14  # a long lead source (a 40-line sign-in handler) shows its decision as well as its calls
LINES_OPEN = 10  # lines a source is compared on before the answer is folded
LINES_FOLDED = 5  # a folded source's best lines on its one line (dev 183: 3 → 4 +3 facts, 4 → 5 +5)
LINES_BRIEF = 8  # ... and gives a model's brief this many
MAX_FOLDED = 5
RELATED_PER_STEP = 2
RELATED_CANDIDATES = 6
MAX_RELATED = 6
VALUES_FOR = 3  # the best sources show the values their key lines read
HIDDEN = "# (line not shown: it may contain instructions aimed at an AI assistant; read the code itself)"


@dataclass(frozen=True)
class Related:
    """Code outside the answer that the symbol graph links to a step (checked in the code)."""

    chunk: Chunk
    use: Use  # the use, in the caller's code
    direction: str  # "calls": the step calls it; "called_by": it calls the step


@dataclass
class Step:
    rank: int  # 1-based position in reading order (the number the answer shows)
    hit: Hit
    role: str
    lines: list[KeyLine]
    about: str  # first sentence of its docstring or leading comment ("" when none)
    matches: list[Match] = field(default_factory=list)  # the framework constructs on its code lines
    score: float = 0.0  # how well it answers (``choose.candidates``)
    evidence: float = 0.0  # the question's words in its best lines
    score_mechanism: float = 0.0  # the weight of its constructs (``choose.Candidate.mechanism``)
    repeats: list[Hit] = field(default_factory=list)  # near-identical sources collapsed into this one
    brief_lines: list[KeyLine] = field(default_factory=list)  # a folded source's key lines for a model's brief
    calls: list[tuple[int, Use]] = field(default_factory=list)  # (rank of the step called, use)
    called_by: list[tuple[int, Use]] = field(default_factory=list)
    related: list[Related] = field(default_factory=list)
    values: list[Value] = field(default_factory=list)  # literal values its key lines read, set elsewhere

    @property
    def chunk(self) -> Chunk:
        return self.hit.chunk


@dataclass
class Explanation:
    question: str
    steps: list[Step]  # in reading order: the open ones, then the folded ones
    chain: list[int]  # ranks along the longest call chain (empty when nothing links)
    not_found: list[str]  # question words the index does not hold
    sources: list[Hit]  # the steps in order, then their repeats, then related code
    opened: int = 0  # how many of ``steps`` are shown with their key lines
    framework: str = ""  # the most evident framework of the app's manifests and imports ("" when none)
    intents: tuple[str, ...] = ()
    terms: Terms = field(default_factory=lambda: Terms(frozenset(), frozenset()))  # the question's search terms
    lead: int = 1  # rank of the source that answers best (the lead sentences cite it first)
    evidence: Evidence = field(default_factory=Evidence)  # the frameworks of the app's parts (what may be named)
    chain_uses: list[Use] = field(default_factory=list)  # the checked call of each hop of ``chain``
    claims: ClaimTally = field(default_factory=ClaimTally)  # the call claims made, verified and dropped
    walk: Walk | None = None  # "how does X work / what happens when": entry → checked calls → outcome
    absence: Absence | None = None  # "what happens when … fails" and no central error handler is in the index
    loose: bool | None = None  # the evidence is weak (``fold.weak_evidence``), judged when the sources were ordered
    own_errors: list[tuple[str, str]] = field(default_factory=list)  # (line, path:line): errors answered in place
    context: AnswerContext | None = None  # what it was built from (a model's claims are checked against it)
    continued: dict[int, Continuation] = field(default_factory=dict)  # by rank: the callee its flow goes on in

    @property
    def open_steps(self) -> list[Step]:
        return self.steps[: self.opened]

    @property
    def folded_steps(self) -> list[Step]:
        return self.steps[self.opened :]

    @property
    def best_first(self) -> list[Step]:
        """The open steps by how well they answer, the lead first."""
        return sorted(self.open_steps, key=lambda step: (step.rank != self.lead, -step.score, step.rank))

    def step(self, rank: int) -> Step:
        return next(step for step in self.steps if step.rank == rank)

    @property
    def linked(self) -> bool:
        return any(step.calls or step.called_by or step.related for step in self.steps)


def _shown(lines: list[KeyLine]) -> list[KeyLine]:
    """Key lines as shown: a line that talks to an AI assistant is replaced by a note (it is data, not advice)."""
    return [KeyLine(line.line, HIDDEN) if instruction_like(line.text) else line for line in lines]


def _related(
    checker: ClaimChecker, steps: list[Step], imports: dict[str, set[str]], shown: Sequence[Step] = ()
) -> None:
    """Callers and callees outside the answer, checked in the code, at most ``RELATED_PER_STEP`` per step."""
    inside, context, total = {step.chunk.id for step in [*steps, *shown]}, checker.context, 0
    inside |= {piece for one in list(inside) for piece in context.pieces.get(one, ())}  # a joined definition's
    for step in sorted(steps, key=lambda s: s.rank):
        callers, callees = context.neighbours(step.chunk)
        rows = [("called_by", r) for r in callers[:RELATED_CANDIDATES]]
        rows += [("calls", r) for r in callees[:RELATED_CANDIDATES]]
        chunks = {chunk.id: chunk for chunk in context.chunks([r for _, r in rows])}
        for direction, row in rows:
            if total >= MAX_RELATED or len(step.related) >= RELATED_PER_STEP:
                break
            other = chunks.get(context.table.ids[row])
            if other is None or other.id in inside or any(r.chunk.id == other.id for r in step.related):
                continue
            user, used = (other, step.chunk) if direction == "called_by" else (step.chunk, other)
            use = checker.link(user, used, imports)
            if use is not None and use.verb == "calls":  # outside the answer only calls are worth a mention
                step.related.append(Related(other, use, direction))
                total += 1


def _values(context: AnswerContext, steps: list[Step]) -> None:
    """The literal values the best sources' key lines read, set in their own file or another file of the answer."""
    if not (best := [step for step in steps if step.rank <= VALUES_FOR and step.lines]):
        return
    paths = list(dict.fromkeys(step.chunk.path for step in steps))
    by_file = context.file_chunks(paths)
    for step in best:
        own = by_file.get(step.chunk.path, [])
        others = [chunk for path in paths if path != step.chunk.path for chunk in by_file.get(path, [])]
        values = values_read(step.lines, step.chunk, [*own, *others], text_of(own))  # kept: data, not advice
        step.values = [value for value in values if not instruction_like(value.line.text)]


def _steps(terms: Terms, found: Sequence[choose.Candidate]) -> list[Step]:
    return [
        Step(n, c.hit, role_of(c.chunk), _shown(choose.word_lines(terms, c.chunk, c.matches, LINES_OPEN)),
             summary(c.chunk), matches=c.matches, score=c.score, evidence=c.evidence, score_mechanism=c.mechanism)
        for n, c in enumerate(found, start=1)
    ]  # fmt: skip


def _link(steps: list[Step], checker: ClaimChecker, imports: dict[str, set[str]]) -> tuple[set, set]:
    """Checked symbol-graph links between the steps: (edges, calls) as index pairs into ``steps``."""
    context = checker.context
    edges: set[tuple[int, int]] = set()
    calls: set[tuple[int, int]] = set()
    for i, a in enumerate(steps):
        for j, b in enumerate(steps):
            if a is b or a.chunk.id == b.chunk.id or not context.has_edge(a.chunk, b.chunk):
                continue
            use = checker.link(a.chunk, b.chunk, imports)
            if use is not None:
                edges.add((i, j))
                if use.verb == "calls":
                    calls.add((i, j))
                a.calls.append((b.rank, use))
                b.called_by.append((a.rank, use))
    return edges, calls


def _chain(ordered: list[Step], longest: list[list[int]]) -> tuple[list[int], list[Use]]:
    """The longest call chain as ranks with the call of each hop, cut where the callee is not the next caller."""
    path = longest[0] if longest else []
    hops = [next(use for rank, use in ordered[a].calls if rank == ordered[b].rank and use.verb == "calls")
            for a, b in zip(path, path[1:], strict=False)]  # fmt: skip
    kept = consistent_chain(hops, [ordered[i].chunk for i in path])
    return ([i + 1 for i in path[: kept + 1]], hops[:kept]) if kept else ([], [])


def _imports(context: AnswerContext, steps: Sequence[Step]) -> dict[str, set[str]]:
    neighbour_paths = []
    for step in steps:
        callers, callees = context.neighbours(step.chunk)
        neighbour_paths += [context.table.paths[r] for r in callers[:RELATED_CANDIDATES] + callees[:RELATED_CANDIDATES]]
    return context.imports([*(s.chunk.path for s in steps), *neighbour_paths]) if steps else {}


def explain(
    question: str | Question, context: AnswerContext, *, limit: int = 8, max_files: int = MAX_FILES
) -> Explanation:
    """The extractive answer to ``question`` as data (see the module docstring); a parsed ``Question``, its intents."""
    parsed = question if isinstance(question, Question) else Question.parse(question)
    question = question.text if isinstance(question, Question) else question
    terms, topics, conventions = question_terms(parsed), parsed.intents, frameworks(context)
    swaps: list[tuple[Chunk, Chunk]] = []  # second parts of the second and third files, placed once ordered
    chosen = choose.select_sources(terms, context, limit, max_files, swaps, question)
    found = whole_candidates(choose.candidates(terms, topics, conventions, context, chosen, swaps, question), context)
    found = [c for c in found if not prose_only(c.chunk, context)]  # a docstring's prose is no source
    found, skipping = excepted(context, found)  # "every controller except the ones that skip the filter"
    found = own_app(context, found)  # "every controller of the `account-service` app" (one app of several)
    kept, repeats = collapse(_steps(terms, found))
    for index, step in enumerate(kept):
        step.repeats = [other.hit for other in repeats.get(index, [])]
    opened, folded = split_open(kept)
    folded = folded[:MAX_FOLDED]
    imports, checker = _imports(context, [*opened, *folded]), ClaimChecker(context)
    edges, calls = _link(opened, checker, imports)
    strong = next((n for n, step in enumerate(opened) if step.score_mechanism < choose.LEAD_MECHANISM), len(opened))
    # a loose match, unless the app routes the sign-in (sign-up) URL asked about to the lead
    loose = weak_evidence(terms, opened) and not (opened and routed(opened[0].chunk, context, terms, topics, question))
    ordered = [*(reading_order(opened, edges, calls, strong) if not loose else opened), *folded]
    for number, step in enumerate(ordered, start=1):  # numbering follows reading order
        step.rank = number
        step.calls, step.called_by = [], []
    ranked = [opened[0], *sorted(opened[1:], key=lambda s: (-s.score, s.rank))] if opened else []  # ``best_first``
    chunks = [step.chunk for step in ranked] if not loose else []  # a loose match: no flow
    found_walk, absence = walk_for(question, topics, context, checker, chunks)
    block = (1 + found_walk.steps + (found_walk.response is not None) if found_walk else 0) + (absence is not None)
    inside = {step.chunk.id for step in ordered} | {chunk.id for chunk in (found_walk.chunks if found_walk else [])}
    said = {(step.chunk.path, line.line) for step in ordered for line in step.lines}
    going = [Source(step.rank, step.chunk, step.lines) for step in ordered[: len(opened)]] if not loose else []
    continued = continuations(context, checker, terms, going, said, inside, "errors" in topics)
    key_lines = KEY_LINES - block - len(continued)  # the steps take the place of key lines: the answer stays as long
    counts = allocate_lines(terms, [(s.chunk, s.matches) for s in opened], key_lines, LINES_LEAST, LINES_MOST)
    allotted = {id(step): count for step, count in zip(opened, counts, strict=True)}
    for step in ordered:  # the best lines across the open sources are shown; a folded source shows its best one
        if id(step) in allotted:
            step.lines = _shown(choose.source_lines(terms, step.chunk, step.matches, allotted[id(step)]))
        else:
            step.lines = _shown(folded_lines(choose.source_lines(terms, step.chunk, step.matches, LINES_FOLDED)))
        if id(step) not in allotted:  # a model reads more of a folded source than the answer shows
            step.brief_lines = _shown(choose.source_lines(terms, step.chunk, step.matches, LINES_BRIEF))
    _link(ordered, checker, imports)  # what the sentences say: calls between all the sources shown
    edges, calls = _link(ordered[: len(opened)], checker, imports)  # the chain: between the open ones
    for step in ordered:  # the second pass doubled the links between open steps
        step.calls = list(dict.fromkeys(step.calls))
        step.called_by = list(dict.fromkeys(step.called_by))
    _related(checker, ordered[: len(opened)], imports, ordered)
    _values(context, ordered[: len(opened)])
    chain, hops = _chain(ordered, chains(list(range(len(opened))), calls))
    extra = [hit for step in ordered for hit in step.repeats]
    extra += [Hit(r.chunk, 0.0, r.chunk.id) for step in ordered for r in step.related]
    extra += [Hit(v.chunk, 0.0, v.chunk.id) for step in ordered for v in step.values]
    extra += [Hit(chunk, 0.0, chunk.id) for chunk in (found_walk.chunks if found_walk else [])]  # the steps cite
    extra += skipping  # the skip lines the sentences cite
    extra += [Hit(one.callee, 0.0, one.callee.id) for one in continued.values()]
    extra += route_hits(context, [step.chunk for step in opened[:1]], terms, topics, question)  # the lead's route
    shown_ids = {step.chunk.id for step in ordered}
    unique = [hit for hit in {hit.chunk.id: hit for hit in extra}.values() if hit.chunk.id not in shown_ids]
    missing = missing_words(question, [step.chunk for step in ordered], context)
    sources = [*(step.hit for step in ordered), *unique]
    lead = opened[0].rank if opened else 1
    shown = evidence(context)
    main = next(iter(shown.frameworks()), "")
    explanation = Explanation(question, ordered, chain, missing, sources, len(opened), main)
    explanation.intents, explanation.terms, explanation.lead, explanation.evidence = topics, terms, lead, shown
    explanation.chain_uses, explanation.claims, explanation.context = hops, checker.tally, context
    explanation.walk, explanation.absence, explanation.loose = found_walk, absence, loose
    explanation.continued = continued
    explanation.own_errors = errors_answered(explanation.best_first) if absence is not None else []
    return explanation
