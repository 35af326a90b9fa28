"""The structured extractive answer: which sources, which of their lines, in what order, linked how.

``explain`` is a pure function of the question and an ``AnswerContext`` (the retrieved pool, the ranked files and
read access to the index). It
1. picks the sources: the best files of the retrieval, and in each the chunk whose lines answer the question best
   (retrieval rank breaks ties), two chunks for the two best files;
2. takes each source's key lines (``keylines``) with their real line numbers;
3. links the sources along the symbol graph, checking each link in the code (``flow.link``), and adds the code
   outside the answer that calls them or that they call (callers first, tests last);
4. orders the steps by role (entry point → logic → data → configuration) and call order inside a role;
5. says what the question asks that no source mentions.
Rendering (markdown for the app and CLI, plain text for a prompt) is done elsewhere.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from codeqa.answer.context import AnswerContext
from codeqa.answer.flow import Use, chains, flow_order, link, role_of
from codeqa.answer.injection import instruction_like
from codeqa.answer.keylines import KeyLine, Terms, evidence, key_lines, question_terms
from codeqa.answer.outline import summary
from codeqa.answer.values import Value, values_read
from codeqa.records import Chunk, Hit
from codeqa.store.lexical import code_tokens
from codeqa.symbols import IDENTIFIER, short_names

MAX_FILES = 6
LINES_FIRST = 10  # key lines for the best three sources
LINES_OTHER = 7
RELATED_PER_STEP = 2
ALWAYS_SHOWN = 3  # the best files' chunks are shown whatever their lines; lower ones need WEAK × the best evidence
WEAK = 0.25
EXTRA_CHUNKS = (2, 2, 1)  # more chunks shown for the best files, while the answer has room
EXTRA_SHARE = 0.35  # an extra chunk needs this share of its file's best chunk weight
CHUNK_EVIDENCE_LINES = 8  # a file's chunk is chosen by its best lines: an answer spread over several lines counts
RELATED_CANDIDATES = 6
MAX_RELATED = 6
VALUES_FOR = 3  # the best sources show the values their key lines read
HIDDEN = "# (line not shown: it reads like instructions to an AI assistant; read the code itself)"
CALLED = re.compile(r"([A-Za-z_$][\w$]*)\s*\(")
NOT_CALLS = frozenset(
    """
    if elif for while switch return catch function def print super self this new typeof await async not and or in
    with except raise throw assert lambda sizeof defined require include isset empty array list dict set tuple str
    int len string bool float echo fn func match when unless get put pop push append extend replace format join
    split strip lower upper keys values items map filter reduce find then sort sorted range enumerate zip isinstance
    hasattr getattr setattr type call apply bind log debug info warn warning error trim parse tostring toString
    valueOf slice concat includes indexOf forEach length Sprintf Printf Println Errorf make cap copy delete
    byte rune int8 int16 int32 int64 uint uint8 uint16 uint32 uint64 uintptr float32 float64 error any
    """.split()  # noqa: SIM905 - a word list reads better as text
)
FILLER = frozenset(
    """
    work works working happen happens happening handle handled handles done code codebase app application way
    thing things part parts use used uses using get gets make made add added would like need needs one also after
    before first new go goes find see look someone somebody people each every kind sure mean actual actually
    exactly anything something everything place places where which who whom whose calls call called too many
    much several some any all more most less few lots lot really
    """.split()  # noqa: SIM905
)


@dataclass(frozen=True)
class Related:
    """Code outside the answer that the symbol graph links to a step (checked in the code)."""

    chunk: Chunk
    use: Use  # the use, in the caller's code
    direction: str  # "calls": the step calls it; "called_by": it calls the step


@dataclass
class Step:
    rank: int  # 1-based relevance among the sources
    hit: Hit
    role: str
    lines: list[KeyLine]
    about: str  # first sentence of its docstring or leading comment ("" when none)
    calls: list[tuple[int, Use]] = field(default_factory=list)  # (rank of the step called, use)
    called_by: list[tuple[int, Use]] = field(default_factory=list)
    related: list[Related] = field(default_factory=list)
    external_calls: list[str] = field(default_factory=list)  # names its key lines call, defined outside the answer
    values: list[Value] = field(default_factory=list)  # literal values its key lines read, set elsewhere

    @property
    def chunk(self) -> Chunk:
        return self.hit.chunk


@dataclass
class Explanation:
    question: str
    steps: list[Step]  # in flow order
    chain: list[int]  # ranks along the longest call chain (empty when nothing links)
    not_found: list[str]  # question words no source mentions
    sources: list[Hit]  # the steps by rank, then related code

    def step(self, rank: int) -> Step:
        return next(step for step in self.steps if step.rank == rank)

    @property
    def linked(self) -> bool:
        return any(step.calls or step.called_by or step.related for step in self.steps)


def select_sources(terms: Terms, context: AnswerContext, limit: int, max_files: int = MAX_FILES) -> list[Hit]:
    """The sources of an answer, best first: per top file, the chunk(s) whose lines answer the question best."""
    position = {hit.chunk.id: n for n, hit in enumerate(context.pool)}
    pooled: dict[str, list[Chunk]] = {}
    for hit in context.pool:
        pooled.setdefault(hit.chunk.path, []).append(hit.chunk)
    files = [path for path in context.files if path in pooled or context.file_rows(path)][:max_files]
    by_file = context.file_chunks(files)
    first_in_file = {chunks[0].id for chunks in pooled.values()}

    def weight(chunk: Chunk) -> float:
        bonus = 1.0 if chunk.id in first_in_file else 0.5 if chunk.id in position else 0.0
        return evidence(terms, chunk.text, top=CHUNK_EVIDENCE_LINES) + bonus

    ranked: dict[str, list[Chunk]] = {}
    for path in files:
        candidates = by_file.get(path) or pooled.get(path, [])
        ranked[path] = sorted(candidates, key=lambda c: (-weight(c), position.get(c.id, len(position)), c.start_line))
    chosen = {path: chunks[:1] for path, chunks in ranked.items() if chunks}
    spare = limit - sum(len(chunks) for chunks in chosen.values())
    for rank, path in enumerate(files[: len(EXTRA_CHUNKS)]):  # the best files may show more than one chunk
        best = weight(ranked[path][0]) if ranked.get(path) else 0.0
        extra = [c for c in ranked.get(path, [])[1 : 1 + EXTRA_CHUNKS[rank]] if weight(c) >= EXTRA_SHARE * best]
        take = extra[: max(0, spare)]
        chosen[path] = chosen.get(path, []) + take
        spare -= len(take)
    strongest = max((evidence(terms, c.text) for chunks in chosen.values() for c in chunks), default=0.0)
    picked = [
        chunk
        for rank, path in enumerate(files)
        for chunk in chosen.get(path, [])
        if rank < ALWAYS_SHOWN or evidence(terms, chunk.text) >= WEAK * strongest  # lower files must earn a place
    ]
    for hit in context.pool:  # fill the remaining places in retrieval order, with code that holds question terms
        if len(picked) >= limit:
            break
        if all(hit.chunk.id != c.id for c in picked) and evidence(terms, hit.chunk.text) >= WEAK * strongest > 0:
            picked.append(hit.chunk)
    scores = {hit.chunk.id: hit.score for hit in context.pool}
    return [Hit(chunk, scores.get(chunk.id, 0.0), chunk.id) for chunk in picked[:limit]]


def _shown(lines: list[KeyLine]) -> list[KeyLine]:
    """Key lines as shown: a line that talks to an AI assistant is replaced by a note (it is data, not advice)."""
    return [KeyLine(line.line, HIDDEN) if instruction_like(line.text) else line for line in lines]


def _external_calls(lines: Sequence[KeyLine], known: set[str]) -> list[str]:
    names: list[str] = []
    for line in lines:
        for match in CALLED.finditer(re.sub(r"\"[^\"]*\"|'[^']*'", "", line.text)):
            name = match.group(1)
            if (
                name not in NOT_CALLS
                and name.lower() not in NOT_CALLS
                and name not in known
                and len(name) > 3
                and name not in names
            ):
                names.append(name)
    return names[:4]


def missing_words(question: str, chunks: Sequence[Chunk]) -> list[str]:
    """Words of the question (not filler) that appear in none of ``chunks``, as the question spells them."""
    seen = set()
    for chunk in chunks:
        seen.update(code_tokens(chunk.text))
        seen.update(code_tokens(chunk.path))
    missing: list[str] = []
    for word in IDENTIFIER.findall(question):
        tokens = [t for t in code_tokens(word) if t not in FILLER and len(t) > 2]
        if word.lower() in FILLER or not tokens:
            continue
        found = any(t in seen or any(s.startswith(t) or t.startswith(s) for s in seen if len(s) >= 4) for t in tokens)
        if not found and word.lower() not in (m.lower() for m in missing):
            missing.append(word)
    return missing


def _related(context: AnswerContext, steps: list[Step], imports: dict[str, set[str]]) -> None:
    """Callers and callees outside the answer, checked in the code, at most ``RELATED_PER_STEP`` per step."""
    inside = {step.chunk.id for step in steps}
    total = 0
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
            use = link(user, used, imports)
            if use is not None and use.verb == "calls":  # outside the answer only calls are worth a mention
                step.related.append(Related(other, use, direction))
                total += 1


def _values(context: AnswerContext, steps: list[Step]) -> None:
    """The literal values the best sources' key lines read, set in their own file or another file of the answer."""
    best = [step for step in steps if step.rank <= VALUES_FOR]
    if not best:
        return
    paths = list(dict.fromkeys(step.chunk.path for step in steps))
    by_file = context.file_chunks(paths)
    for step in best:
        own = by_file.get(step.chunk.path, [])
        others = [chunk for path in paths if path != step.chunk.path for chunk in by_file.get(path, [])]
        values = values_read(step.lines, step.chunk, [*own, *others])
        step.values = [value for value in values if not instruction_like(value.line.text)]  # data, not advice


def explain(question: str, context: AnswerContext, *, limit: int = 8, max_files: int = MAX_FILES) -> Explanation:
    """The extractive answer to ``question`` as data (see the module docstring)."""
    terms = question_terms(question)
    sources = select_sources(terms, context, limit, max_files)
    steps = [
        Step(rank, hit, role_of(hit.chunk),
             _shown(key_lines(terms, hit.chunk.text, hit.chunk.start_line,
                              limit=LINES_FIRST if rank <= 3 else LINES_OTHER)),
             summary(hit.chunk))
        for rank, hit in enumerate(sources, start=1)
    ]  # fmt: skip
    neighbour_paths = []
    for step in steps:
        callers, callees = context.neighbours(step.chunk)
        rows = callers[:RELATED_CANDIDATES] + callees[:RELATED_CANDIDATES]
        neighbour_paths += [context.table.paths[r] for r in rows]
    imports = context.imports([*(s.chunk.path for s in steps), *neighbour_paths]) if steps else {}
    edges: set[tuple[int, int]] = set()
    calls: set[tuple[int, int]] = set()
    for a in steps:
        for b in steps:
            if a is b or a.chunk.id == b.chunk.id or not context.has_edge(a.chunk, b.chunk):
                continue
            use = link(a.chunk, b.chunk, imports)
            if use is not None:
                edges.add((a.rank - 1, b.rank - 1))
                if use.verb == "calls":
                    calls.add((a.rank - 1, b.rank - 1))
                a.calls.append((b.rank, use))
                b.called_by.append((a.rank, use))
    _related(context, steps, imports)
    known = {name for step in steps for name in short_names(step.chunk.symbol)}
    for step in steps:
        step.external_calls = _external_calls(step.lines, known | {r.use.name for r in step.related})
    _values(context, steps)
    order = flow_order([step.chunk for step in steps], edges)
    ordered = [steps[i] for i in order]
    longest = chains(order, calls)
    chain = [i + 1 for i in longest[0]] if longest else []
    related_hits = [Hit(r.chunk, 0.0, r.chunk.id) for step in steps for r in step.related]
    related_hits += [Hit(v.chunk, 0.0, v.chunk.id) for step in steps for v in step.values]
    unique_related = list({hit.chunk.id: hit for hit in related_hits}.values())
    shown = [step.chunk for step in steps]
    return Explanation(question, ordered, chain, missing_words(question, shown), [*sources, *unique_related])
