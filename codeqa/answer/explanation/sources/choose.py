"""Which code an answer shows, and which piece opens it.

1. ``select_sources``: per top file of the retrieval, the chunk(s) whose lines answer the question best; the
   second part of the second or third file takes a weaker lower file's place, once the order is chosen.
2. ``candidates``: those, plus code that shows the *mechanism* the question is about — chunks of the pool, of their
   neighbours in the symbol graph, and of the index (by the constructs' anchors) that hold the framework's
   constructs for the question's intent (``mechanism``).
3. The code the best sources call (or are called by), where the call is resolved and checked in the code and the
   callee holds the question's words or is called on a construct's line (``follow``): the second file of a flow
   (the view and the service it calls, the error handler registration and the renderer it names).
4. Each candidate is scored by the question's words in its lines (``evidence``), by the constructs it holds, and by
   its file's retrieval rank; code that cannot explain a mechanism (migrations, seeds, SQL, tests, docs, a chunk of
   comments) is scored down. The best one opens the answer: the first file a reader sees is chosen by evidence of
   the mechanism, not by retrieval rank alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.code.keylines import (
    IMPORT,
    KeyLine,
    Terms,
    clip,
    evidence,
    key_lines,
    scored_lines,
    shown_order,
)
from codeqa.answer.explanation.code.lineroles import quiet
from codeqa.answer.explanation.code.named import named_for
from codeqa.answer.explanation.code.openers import with_entries
from codeqa.answer.explanation.code.wholebody import whole_body
from codeqa.answer.explanation.constructs.apphook import app_hooks
from codeqa.answer.explanation.constructs.basehook import hook_candidates
from codeqa.answer.explanation.constructs.candidate import CHUNK_EVIDENCE_LINES, Candidate, discount_repeats
from codeqa.answer.explanation.constructs.clientside import server_files_first, server_first
from codeqa.answer.explanation.constructs.handlers import handler_candidates
from codeqa.answer.explanation.constructs.mechanism import (
    Match,
    answers_poorly,
    convention_chunks,
    matches_in,
    mechanism_score,
)
from codeqa.answer.explanation.constructs.mounted import narrow_mounted
from codeqa.answer.explanation.sources.entry import entry_candidates, entry_topic, sign_in_handler
from codeqa.answer.explanation.sources.fileparts import (
    ALWAYS_SHOWN,
    retrieval_best,
    second_parts,
    second_parts_in_place,
    with_joined,
)
from codeqa.answer.explanation.sources.follow import follow
from codeqa.answer.explanation.sources.opener import asks_mechanism, shared_piece
from codeqa.answer.explanation.sources.pieces import join_pieces
from codeqa.frameworks.conventions import Convention
from codeqa.frameworks.intent import HOOK
from codeqa.records import Chunk, Hit

WEAK = 0.25
EXTRA_CHUNKS = (2, 2, 1)  # more chunks shown for the best files, while the answer has room
EXTRA_SHARE = 0.35  # an extra chunk needs this share of its file's best chunk weight
RETRIEVAL_FIRST = 1  # the best files whose best piece by retrieval is their first extra chunk (``retrieval_best``)
W_MECHANISM = 1.0  # a candidate's constructs (normalised) against its words (normalised)
MECHANISM_SCALE = 2.0  # constructs are normalised by the strongest candidate's weight, but at least by this
W_RANK = 1.0  # its file's retrieval rank
W_PLACE = 0.5  # code in a place the app names after the question's concept (``concept_paths``)
POOR = 0.25  # the score of code that cannot explain a mechanism is multiplied by this
MECHANISM_MIN = 1.0  # a candidate brought in for its constructs needs at least this construct weight
LEAD_MECHANISM = 1.0  # the best candidate with at least this construct weight opens the answer
MECHANISM_FIRST = 3  # ... and the next best such candidates are shown before code that only holds the words
EXTRA_MECHANISM = 3  # candidates brought in for their constructs, beyond the retrieved ones
NEIGHBOURS_OF = 4  # the best sources whose graph neighbours are looked at for constructs
NEIGHBOURS = 6
FORCED_LINES = 2  # construct lines always among a source's key lines


def select_sources(
    terms: Terms,
    context: AnswerContext,
    limit: int,
    max_files: int,
    swaps: list[tuple[Chunk, Chunk]] | None = None,
    question: str = "",
) -> list[Hit]:
    """The sources of an answer, best first: per top file, the chunk(s) whose lines answer the question best.
    ``swaps`` receives the second parts of the second and third files that take a lower file's place
    (``fileparts.second_parts``); ``candidates`` places them once the order is chosen."""
    position = {hit.chunk.id: n for n, hit in enumerate(context.pool)}
    pooled: dict[str, list[Chunk]] = {}
    for hit in context.pool:
        pooled.setdefault(hit.chunk.path, []).append(hit.chunk)
    files = [path for path in _file_order(context, question) if path in pooled or context.file_rows(path)][:max_files]
    by_file = context.file_chunks(files)
    first_in_file = {chunks[0].id for chunks in pooled.values()}

    def weight(chunk: Chunk) -> float:
        bonus = 1.0 if chunk.id in first_in_file else 0.5 if chunk.id in position else 0.0
        return max(evidence(terms, text, top=CHUNK_EVIDENCE_LINES) for text in context.part_texts(chunk)) + bonus

    ranked: dict[str, list[Chunk]] = {}
    for path in files:
        candidates = with_joined(by_file.get(path) or pooled.get(path, []), pooled.get(path, []), context.pieces)
        ranked[path] = sorted(candidates, key=lambda c: (-weight(c), position.get(c.id, len(position)), c.start_line))
    for path in files[:RETRIEVAL_FIRST]:
        ranked[path] = retrieval_best(ranked[path], pooled.get(path, []), context.pieces)
    chosen = {path: chunks[:1] for path, chunks in ranked.items() if chunks}
    spare = limit - sum(len(chunks) for chunks in chosen.values())
    for rank, path in enumerate(files[: len(EXTRA_CHUNKS)]):  # the best files may show more than one chunk
        best = weight(ranked[path][0]) if ranked.get(path) else 0.0
        extra = [c for c in ranked.get(path, [])[1 : 1 + EXTRA_CHUNKS[rank]] if weight(c) >= EXTRA_SHARE * best]
        take = extra[: max(0, spare)]
        chosen[path] = chosen.get(path, []) + take
        spare -= len(take)
    if swaps is not None:
        swaps += second_parts(files, ranked, chosen, weight)
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
    hits, joined = join_pieces([Hit(chunk, scores.get(chunk.id, 0.0), chunk.id) for chunk in picked[:limit]],
                               context.table)  # two pieces of one definition chosen apart: one source  # fmt: skip
    for whole, ids in joined.items():
        context.pieces[whole] = tuple(piece for one in ids for piece in context.pieces.get(one, (one,)))
    return hits


def _file_order(context: AnswerContext, question: str) -> list[str]:
    """Retrieval's files, the server's first for a question about the server (``clientside.server_files_first``)."""
    return server_files_first(context.files, {hit.chunk.path: hit.chunk for hit in context.pool}, question)


def _neighbour_chunks(context: AnswerContext, hits: Sequence[Hit]) -> list[Chunk]:
    rows: list[int] = []
    for hit in hits[:NEIGHBOURS_OF]:
        callers, callees = context.neighbours(hit.chunk)
        rows += [r for r in [*callees[:NEIGHBOURS], *callers[:NEIGHBOURS]] if r not in rows]
    return context.chunks(rows)


def candidates(
    terms: Terms,
    intents: Sequence[str],
    conventions: Sequence[Convention],
    context: AnswerContext,
    base: Sequence[Hit],
    swaps: Sequence[tuple[Chunk, Chunk]] = (),
    question: str = "",
) -> list[Candidate]:
    """The sources to choose from, best first (see the module docstring); ``swaps`` (``select_sources``) are
    placed last (``fileparts.second_parts_in_place``); the ``question``'s text tells a sign-up asked about."""
    file_rank = {path: n for n, path in enumerate(_file_order(context, question))}
    held = context.held_pieces()  # a piece of a definition the pool joined is read in the joined chunk
    seen = {hit.chunk.id for hit in base} | held
    found = [Candidate(hit, 0.0, matches_in(hit.chunk, conventions, intents), 0, True) for hit in base]
    hooked: list[Candidate] = []
    if intents:
        others: list[Chunk] = [hit.chunk for hit in context.pool if hit.chunk.id not in seen]
        others += _neighbour_chunks(context, base)
        others += convention_chunks(context, conventions, intents, seen | {c.id for c in others})
        hooks = hook_candidates(context) if intents[:1] == (HOOK,) else []  # the app's own base request handler
        for candidate in found:
            candidate.matches += [m for chunk, matches in hooks if chunk.id == candidate.chunk.id for m in matches]
        extra = [Candidate(Hit(chunk, 0.0, chunk.id), 0.0, matches, 0, False)
                 for chunk, matches in hooks if chunk.id not in seen]  # fmt: skip
        seen = seen | {c.chunk.id for c in extra}
        shown_files = {hit.chunk.path for hit in base}
        for chunk in {chunk.id: chunk for chunk in others if chunk.id not in seen}.values():
            matches = matches_in(chunk, conventions, intents)
            # or a weaker one named for the question beside a source (`canViewWebsite` asked who may view a site)
            named = bool(matches) and chunk.path in shown_files and named_for(terms, chunk)
            if mechanism_score(matches) >= MECHANISM_MIN or named:
                extra.append(Candidate(Hit(chunk, 0.0, chunk.id), 0.0, matches, 0, False))
        extra.sort(key=lambda c: (-c.mechanism, file_rank.get(c.chunk.path, len(file_rank))))
        found += extra[: EXTRA_MECHANISM + len(hooks)]
        for candidate in found:  # a part of the app mounted under a path elsewhere: that path's requests only
            candidate.matches = narrow_mounted(context, candidate.matches)
        hooked = app_hooks(context, conventions, found, intents) if intents[:1] == (HOOK,) else []  # none retrieved
        found += hooked
        found += handler_candidates(context, conventions, intents, found)
    entry = entry_candidates(terms, context, conventions, intents, found, question)
    found += [c for c in entry if all(c is not f for f in found)]
    found = [c for c in found if c.chunk.id not in held]
    for candidate in found:
        texts = context.part_texts(candidate.chunk)
        candidate.evidence = max(evidence(terms, text, top=CHUNK_EVIDENCE_LINES) for text in texts)
        candidate.file_rank = file_rank.get(candidate.chunk.path, len(file_rank))
    discount_repeats(found)
    top_evidence = max((c.evidence for c in found), default=0.0) or 1.0
    scale = max(MECHANISM_SCALE, max((c.mechanism for c in found), default=0.0))

    def score_of(candidate: Candidate) -> float:
        mechanism = candidate.mechanism / scale
        score = candidate.evidence / top_evidence + W_MECHANISM * mechanism + W_RANK / (1 + candidate.file_rank)
        score += W_PLACE if context.in_concept_place(candidate.chunk.path) else 0.0
        return score * (POOR if answers_poorly(candidate.chunk) else 1.0)

    for candidate in found:
        candidate.score = score_of(candidate)
    order = {id(c): n for n, c in enumerate(found)}
    ranked = sorted(found, key=lambda c: (-c.score, order[id(c)]))
    strong = [c for c in ranked if c.mechanism >= LEAD_MECHANISM and not answers_poorly(c.chunk)][:MECHANISM_FIRST]
    topic = entry_topic(terms, intents, question)
    entered = [c for c in ranked if any(c is e for e in entry)]
    lead = sign_in_handler(entered, context, topic) if topic is not None else None
    if lead is not None:  # the code the sign-in (sign-up) URL is routed to opens a question about signing in (up)
        strong = [lead, *(c for c in strong if c is not lead)]
    # the mechanism, where the framework's constructs show one, opens the answer and is shown first; a question that
    # names its own subject opens on the best code when it holds the question's words better, the mechanism next
    if strong and lead is None and not asks_mechanism(terms, intents) and ranked[0].evidence > strong[0].evidence:
        swaps = [(weakest, chunk) for weakest, chunk in swaps if weakest.id != strong[0].chunk.id]  # it stays shown
        strong = [ranked[0], *(c for c in strong if c is not ranked[0])]
    ordered = server_first([*strong, *(c for c in ranked if c not in strong)], question)  # (``clientside``)
    hooked = [c for c in hooked if any(c is f for f in found) and all(c is not lead for lead in ordered[:1])]
    ordered = [*ordered[:1], *hooked, *(c for c in ordered[1:] if all(c is not h for h in hooked))]  # it is shown
    if (shared := shared_piece(context, ordered)) is not None:  # one provider of many: the code they go through
        ordered = [shared, *(c for c in ordered if c is not shared)]
    followed = follow(terms, conventions, intents, context, ordered, score_of)
    second: list[tuple[Chunk, Candidate]] = []
    for weakest, chunk in swaps:
        if chunk.id in held:
            continue
        part = Candidate(Hit(chunk, 0.0, chunk.id), 0.0, matches_in(chunk, conventions, intents), 0, True)
        part.evidence = max(evidence(terms, text, top=CHUNK_EVIDENCE_LINES) for text in context.part_texts(chunk))
        part.file_rank = file_rank.get(chunk.path, len(file_rank))
        part.score = score_of(part)
        second.append((weakest, part))
    return second_parts_in_place(followed, second)


def source_lines(
    terms: Terms, chunk: Chunk, matches: Sequence[Match], limit: int, *, roles: bool = True
) -> list[KeyLine]:
    """A source's key lines: its best construct lines (up to ``FORCED_LINES``), then its best lines (imports only
    when nothing better is left), in file order. The statement holding most of the question's words is shown;
    the others are ranked by words and what they do (``shown_order``). ``roles=False`` ranks by the question's words
    alone, which is how sources are told apart (two handlers that differ only in the service they call repeat)."""
    if limit <= 0:
        return []
    text = chunk.text.split("\n")
    if roles and (whole := whole_body(chunk, limit)):  # a short body is shown whole (``wholebody``)
        return [KeyLine(chunk.start_line + i, clip(text[i])) for i in whole]
    forced = sorted(matches, key=lambda m: -m.weight)[: min(FORCED_LINES, limit)]
    chosen = list(dict.fromkeys(m.line - chunk.start_line for m in forced))
    by_words = [i for _, i in scored_lines(terms, chunk.text)]
    evidence_line = next((i for i in by_words if not quiet(text[i], terms.intents)), None)  # code, not a comment
    if roles and evidence_line is not None and len(chosen) < limit and evidence_line not in chosen:
        chosen.append(evidence_line)  # the statement holding most of the question's words stays: it is the evidence
    order = shown_order(terms, chunk.text) if roles else by_words
    ranked = [i for i in order if i not in chosen]
    ranked.sort(key=lambda i: bool(IMPORT.match(text[i])))  # stable: imports last, the rest by score
    fixed = len(chosen)
    chosen += ranked[: limit - len(chosen)]
    if roles:  # an opener (``BACKENDS = [``) is shown with one of its entries (``openers``)
        chosen = with_entries(chosen, text, order, fixed, limit)
    if not chosen:
        return key_lines(terms, chunk.text, chunk.start_line, limit=limit)  # the definition line stands in
    return [KeyLine(chunk.start_line + i, clip(text[i])) for i in sorted(chosen)]


def word_lines(terms: Terms, chunk: Chunk, matches: Sequence[Match], limit: int) -> list[KeyLine]:
    """A source's lines by the question's words alone: what tells sources apart (``fold.collapse``)."""
    return source_lines(terms, chunk, matches, limit, roles=False)
