"""The answer's opening: two to four plain sentences that say how it works, each claim citing ``path:start-end``.

They are templates filled with checked facts only:
1. the mechanism — the framework's constructs found on code lines of the sources (``runs `authenticate_user!`
   before each action``), or else what the best source is and the line that answers best;
2. the flow — the call chain the symbol graph has between the sources, each link checked in the code;
3. the outcome (``outcomes``) — the lines of the leading sources that end the story: a status code or redirect,
   an exception, a write to the session or the database, a log call (an error branch only asked about errors);
4. a value they read (``MAX_FAILED_LOGINS = 5``), set elsewhere.
When the evidence is weak (no construct, and no line holding two of the question's words) the opening says so in
one line instead of citing the nearest file. Each sentence comes as markdown and as plain text (for a prompt).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from codeqa.answer.explanation.calls.callplace import caller_name
from codeqa.answer.explanation.calls.flow import said_verb
from codeqa.answer.explanation.code.keylines import COMMENT, KeyLine, Terms, evidence
from codeqa.answer.explanation.code.linenames import held_lines, holder_at, name_at
from codeqa.answer.explanation.code.outline import display_name
from codeqa.answer.explanation.code.values import amount_read, reading_line, value_said
from codeqa.answer.explanation.constructs.mechanism import Match
from codeqa.answer.explanation.explain import Explanation, Step
from codeqa.answer.explanation.said.conclusion import placement, where_errors_go
from codeqa.answer.explanation.said.holders import holders_named, registered
from codeqa.answer.explanation.said.outcomes import closed, outcome_lines, outcome_said_of
from codeqa.answer.explanation.said.phrasing import Sentence, said_of, said_whole, then_after
from codeqa.answer.explanation.said.quoted_line import best_line, branch_of, cut_quote, quoted_holder
from codeqa.answer.explanation.said.roles_said import role_phrase
from codeqa.answer.explanation.said.told import of_named, on_routed_action, then_and_also
from codeqa.answer.explanation.sources.entry import entry_topic, route_to, routed
from codeqa.answer.explanation.sources.fold import weak_evidence
from codeqa.answer.rendering.injection import instruction_like
from codeqa.answer.rendering.render import code_span
from codeqa.symbols import short_names

MAX_SENTENCES = 4
MECHANISM_CONSTRUCTS = 3
MECHANISM_STEPS = 2
PHRASE_WEIGHT = 0.9  # constructs below this weight (a status code, a log call) are said only when no other is
QUOTE_CHARS = 90  # a quoted line longer than this is cut (the full line is in the source below)
LOCATION = re.compile(r"[\w./-]+:\d+(?:-\d+)?")  # a citation, not a name
WEAK = (
    "The code found answers this only loosely: no source holds a construct for it, and the closest one has no line "
    "naming two of the question's words. The nearest places are listed below; check them before relying on them."
)  # only the closest source's lines are weighed (``weak_evidence``): another may well name two
LAYER_VERBS = {"api": "handles the request", "cli": "runs the command", "view": "renders what the user sees",
               "service": "implements the logic", "model": "defines the stored data",
               "config": "holds the settings"}  # fmt: skip


def _quote(text: str) -> str:
    """``text`` on one line, cut at ``QUOTE_CHARS`` (``cut_quote``); a whole line's open brackets closed after ``…``."""
    flat = " ".join(text.split()).removesuffix(",")  # an item of a list or of a call's arguments, said alone
    return closed(flat) if len(flat) <= QUOTE_CHARS else cut_quote(flat, QUOTE_CHARS)


def _at(step: Step, line: int) -> tuple[str, str]:
    return code_span(where := f"{step.chunk.path}:{line}"), where


def _name(step: Step) -> str:
    return display_name(step.chunk).split(" (+", 1)[0]


def _named(step: Step, name: str | None = None, line: int = 0) -> tuple[str, str]:
    """A source named by its lines; ``name`` holding file line ``line`` (a local function) by that one's own."""
    held = held_lines(step.chunk, line, name) if name and name != _name(step) else None
    where = f"{step.chunk.path}:{held[0]}" + (f"-{held[1]}" if held[1] > held[0] else "") if held else ""
    where, name = where or step.chunk.location, name or _name(step)
    return f"{code_span(name)} ({code_span(where)})", f"{name} ({where})"


def _mechanism(explanation: Explanation) -> list[tuple[Step, list[Match]]]:
    """The strongest constructs on the open sources, grouped by source: at most ``MECHANISM_CONSTRUCTS`` constructs
    (every match of one is said together: "turns `A`, `B` and `C` into a response") from at most ``MECHANISM_STEPS``
    sources, the lead's first. Weak constructs (a status code, a log call) are said only when nothing stronger is."""
    steps = explanation.best_first
    found = [(match.weight, position, match) for position, step in enumerate(steps) for match in step.matches
             if not instruction_like(match.text)]  # fmt: skip
    strong = [item for item in found if item[2].construct.weight >= PHRASE_WEIGHT] or found
    strong.sort(key=lambda item: (item[1] != 0, -item[0], item[1], item[2].line))  # the lead's constructs first
    chosen: dict[int, list[Match]] = {}
    constructs: list[tuple[int, int]] = []  # (position, id of the construct)
    for _, position, match in strong:
        key = (position, id(match.construct))
        if any(match.phrase in (m.phrase for m in ms) for p, ms in chosen.items() if p != position):
            continue  # said already, of another source
        if key not in constructs:
            if len(constructs) >= MECHANISM_CONSTRUCTS or (position not in chosen and len(chosen) >= MECHANISM_STEPS):
                continue
            constructs.append(key)
        if match.phrase not in (m.phrase for m in chosen.get(position, [])):
            chosen.setdefault(position, []).append(match)
    chosen = said_whole(strong, chosen, constructs)
    order = sorted(chosen, key=lambda position: _handing_over(steps, chosen, position))
    return [(steps[position], sorted(chosen[position], key=lambda m: m.line)) for position in order]


def hands_to(matches: Sequence[Match], step: Step) -> bool:
    """Whether one of ``matches`` names ``step`` as the function it hands control to (``with: :handle_not_found``,
    ``register_error_handler(404, render_error)``)."""
    names = {name.rstrip("!?").lower() for name in short_names(step.chunk.symbol)}
    return any(match.handler and match.handler.rstrip("!?").lower() in names for match in matches)


def _handing_over(steps: Sequence[Step], chosen: dict[int, list[Match]], position: int) -> tuple[int, int]:
    """Sort key: a source whose construct hands control to the lead is said just before it; otherwise the lead
    first, then the better sources."""
    hands_over = position != 0 and bool(steps) and hands_to(chosen[position], steps[0])
    return (-1 if hands_over else 0 if position == 0 else 1, position)


def _mechanism_sentence(explanation: Explanation, chosen: Sequence[tuple[Step, list[Match]]]) -> Sentence:
    parts_md, parts_plain = [], []
    terms = explanation.terms
    for step, matches in chosen:
        if handlers := registered(step, matches):  # app.before_request(track): `track` runs, not its caller
            for handler, match in handlers:
                at_md, at_plain = _at(step, match.line)
                phrase = said_of([match], terms)
                parts_md.append(f"{code_span(handler)} (registered at {at_md}) {phrase}")
                parts_plain.append(f"{handler} (registered at {at_plain}) {phrase.replace('`', '')}")
            continue
        named_md, named_plain = holders_named(step, matches)
        said = said_of(matches, terms)
        parts_md.append(f"{named_md} {said}")
        parts_plain.append(f"{named_plain} {said.replace('`', '')}")
    return Sentence("; ".join(parts_md) + ".", "; ".join(parts_plain) + ".")


def _lead_sentence(explanation: Explanation, step: Step) -> Sentence:
    named_md, named_plain = _named(step)
    context = explanation.context
    topic = entry_topic(explanation.terms, explanation.intents, explanation.question)
    route = route_to(step.chunk, context, topic) if context and topic is not None else None
    if route is not None and topic is not None:  # the app's own line says it: its sign-in (sign-up) URL leads here
        where = f"{route.path}:{route.line}"
        if route.path == step.chunk.path:  # `@web.route("/signin/")` decorates `signin`, not the chunk's first name
            named_md, named_plain = _named(step, holder_at(step.chunk, route.line), route.line)
        said = f"is where the app routes its {topic.name} URL: {code_span(_quote(route.text))} ({code_span(where)})"
        return Sentence(f"{named_md} {said}.", f"{named_plain} is where the app routes its {topic.name} URL: "
                                                f"{_quote(route.text)} ({where}).")  # fmt: skip
    role = role_phrase(step.chunk, LAYER_VERBS, "", context)  # its code's role: a view's admin action handles the
    shown = role in LAYER_VERBS.values()  # request (renders nothing); a Vue mixin renders nothing either
    verb = role if shown else "is the closest match found"
    line = best_line(step, explanation.terms, explanation.intents)
    holder = quoted_holder(step.chunk, line) if line is not None and not shown else None
    if holder:  # the match is the line shown, so it is the definition holding that line (not the chunk's first)
        named_md, named_plain = _named(step, holder, line.line)
    text_md, text_plain = f"{named_md} {verb}", f"{named_plain} {verb}"
    if line is not None:  # an answer under a test is said with it (``branch_of``)
        (at_md, at_plain), (when_md, when) = _at(step, line.line), branch_of(step.chunk, line)
        text_md += f": {code_span(_quote(line.text))} ({at_md}){when_md}"
        text_plain += f": {_quote(line.text)} ({at_plain}){when}"
    return Sentence(text_md + ".", text_plain + ".")


def _flow_sentence(explanation: Explanation) -> Sentence | None:
    """The call chain between the open sources (checked links), or the lead's checked calls outside them."""
    hops = [explanation.step(rank) for rank in explanation.chain]
    if len(hops) >= 2:
        names = [_name(step) for step in hops]  # each hop as the checked call names it: caller, then callee
        for n, use in enumerate(explanation.chain_uses):  # the callee is what the call names, not the chunk's first
            names[n], names[n + 1] = caller_name(use, hops[n].chunk) or names[n], use.name
        md = [f"{code_span(name)} ({code_span(step.chunk.location)})" for name, step in zip(names, hops, strict=True)]
        plain = [f"{name} ({step.chunk.location})" for name, step in zip(names, hops, strict=True)]
        verbs = [*map(said_verb, explanation.chain_uses), *["calls"] * len(hops)]  # a raise is said as thrown
        joined = [", which ".join(f"{verbs[n]} {part}" for n, part in enumerate(parts[1:])) for parts in (md, plain)]
        return Sentence(f"{md[0]} {joined[0]}.", f"{plain[0]} {joined[1]}.", (explanation.chain_uses[0].line,))
    lead, terms = explanation.step(explanation.lead), explanation.terms
    related = [r for r in lead.related if r.direction == "calls" and said_verb(r.use) == "calls"]  # not a throw
    spoken = [(evidence(terms, r.chunk.text), r) for r in related]
    ranked = [r for _, r in sorted(spoken, key=lambda item: -item[0]) if _speaks(terms, r.chunk.text)]
    calls = [r for n, r in enumerate(ranked) if all(s.use.name != r.use.name for s in ranked[:n])][:2]  # each once
    if not calls:
        return None
    name = caller_name(calls[0].use, lead.chunk) or _name(lead)  # who makes the calls, not the chunk's first name
    calls = [r for r in calls if (caller_name(r.use, lead.chunk) or _name(lead)) == name]
    md = " and ".join(f"{code_span(r.use.name)} ({code_span(r.chunk.location)})" for r in calls)
    plain = " and ".join(f"{r.use.name} ({r.chunk.location})" for r in calls)
    return Sentence(f"{code_span(name)} calls {md}.", f"{name} calls {plain}.", tuple(r.use.line for r in calls))


def _speaks(terms: Terms, text: str) -> bool:
    """Whether a callee's code (not its comments) holds a word of the question: the lead's call of a time formatter
    whose comment says "Convert a duration" is not how the server converts audio."""
    return evidence(terms, "\n".join(line for line in text.split("\n") if not COMMENT.match(line))) > 0


def _outcome_sentence(found: Sequence[tuple[str, Step, KeyLine]], *, also: bool = False) -> Sentence | None:
    said = outcome_said_of(found, also=also)
    return Sentence(*said) if said else None


def _value_sentence(explanation: Explanation) -> Sentence | None:
    """ "`check_if_project_can_be_created_or_updated` reads `ERROR_… = '…'`": the reader named, since the sentence
    before may be about another source (an "It" after "`exception_handler` calls …" said the handler read it)."""
    for step in explanation.best_first[:2]:
        value = amount_read(step.values)
        if value is None:
            continue
        line = reading_line(value, step.lines)
        said = value_said([value], QUOTE_CHARS, name_at(step.chunk, line.line) if line else _name(step))
        return Sentence(*said) if said else None
    return None


def weak(explanation: Explanation) -> bool:
    """No construct on any open source, and no line of the leading source holding two of the question's words (nor
    a route line of the app's that sends the sign-in or sign-up URL asked about to it): as judged when the sources
    were ordered (on the lines they are compared on; the fewer lines shown may miss the line that holds two)."""
    if explanation.loose is not None:
        return explanation.loose
    context, steps = explanation.context, explanation.best_first
    entered = context is not None and bool(steps) and routed(steps[0].chunk, context, explanation.terms,
                                                             explanation.intents, explanation.question)  # fmt: skip
    return weak_evidence(explanation.terms, steps) and not entered


def lead_sentences(explanation: Explanation) -> list[Sentence]:
    """The opening sentences (see the module docstring); one honest line when the evidence is weak."""
    if weak(explanation):
        return [Sentence(WEAK, WEAK)]
    chosen = _mechanism(explanation)
    lead = explanation.step(explanation.lead)
    sentences: list[Sentence] = []
    skip = {(step.chunk.path, match.line) for step, matches in chosen for match in matches}
    handed, quoted = bool(chosen) and chosen[0][0] is not lead and hands_to(chosen[0][1], lead), None
    if not chosen or (chosen[0][0] is not lead and not handed):  # the opening cites the lead source first ...
        sentences.append(_lead_sentence(explanation, lead))  # ... unless a construct hands control to it
        quoted = best_line(lead, explanation.terms, explanation.intents)
        skip |= {(lead.chunk.path, quoted.line)} if quoted else set()
    if chosen:
        sentences.append(_mechanism_sentence(explanation, chosen))
    flow = None if explanation.walk is not None else _flow_sentence(explanation)  # the steps below say it
    if flow is not None and _said_together(flow, sentences):  # "`A` calls `B`" after a sentence naming both
        flow = None
    advice = placement(explanation)
    # asked where to add something, how one request ends ("Then `login_totp` answers with …") is not the answer
    said, found = " ".join(s.plain for s in sentences), [] if advice is not None else outcome_lines(explanation, skip)
    found = on_routed_action(found, lead, explanation)  # the action the route line names, not its siblings
    after, before = then_and_also(of_named(explanation.best_first, found, said), lead, quoted, said, chosen)
    outcome, also = _outcome_sentence(after), _outcome_sentence(before, also=True)
    for extra in (*then_after(flow, outcome), also, _value_sentence(explanation)):
        if extra is not None and len(sentences) < MAX_SENTENCES:
            sentences.append(extra)
    sentences = [_framework_checked(explanation, sentence) for sentence in sentences]
    cited = _cited(explanation, sentences[0])
    prefix = explanation.evidence.opening(*cited[0], _head_of(explanation, cited[0][0])) if cited else ""  # once
    first = sentences[0]
    if prefix:
        sentences[0] = Sentence(prefix + first.markdown, prefix + first.plain)
    sentences = [  # "the code at …" opening a sentence
        Sentence("T" + each.markdown[1:], "T" + each.plain[1:]) if each.plain.startswith("the ") else each
        for each in sentences
    ]
    if advice is not None:  # "where would I add …": the hook, last, as the conclusion (its reason not said twice)
        advice = placement(explanation, sentences[-1].plain) or advice
        sentences.append(_framework_checked(explanation, Sentence(*advice)))
    elif (ending := where_errors_go(explanation)) is not None:  # "what happens when … fails": where errors go
        sentences.append(_framework_checked(explanation, Sentence(*ending)))
    return sentences


def _head_of(explanation: Explanation, path: str) -> str | None:
    """The first piece of file ``path`` (where its imports are), None when the index is not at hand."""
    context = explanation.context
    rows = sorted(context.file_rows(path), key=lambda row: context.table.starts[row]) if context else []
    chunks = context.chunks(rows[:1]) if context and rows else []
    return chunks[0].text if chunks else None


def _said_together(sentence: Sentence, before: Sequence[Sentence]) -> bool:
    """Every definition ``sentence`` names is already named in one sentence before it (which says how they meet)."""
    names = {name for name in re.findall(r"`([^`]+)`", sentence.markdown) if not LOCATION.fullmatch(name)}
    return bool(names) and any(all(f"`{name}`" in earlier.markdown for name in names) for earlier in before)


def _cited(explanation: Explanation, sentence: Sentence) -> list[tuple[str, str]]:
    """(path, language) of the sources ``sentence`` cites, in the order it cites them."""
    languages = {hit.chunk.path: hit.chunk.language for hit in explanation.sources}
    at = {path: re.search(rf"(?<![\w./-]){re.escape(path)}:\d", sentence.plain) for path in languages}
    found = {path: match.start() for path, match in at.items() if match}  # not "app.py" inside "web/app.py"
    return [(path, languages[path]) for path in sorted(found, key=found.__getitem__)]


def _framework_checked(explanation: Explanation, sentence: Sentence) -> Sentence:
    """``sentence`` without the framework names the app's manifests and imports do not back for the code it cites
    (the name is dropped, the rest of the claim stays)."""
    paths = [path for path, _ in _cited(explanation, sentence)]
    drop = explanation.evidence.drop_unbacked
    return Sentence(drop(sentence.markdown, paths), drop(sentence.plain, paths))
