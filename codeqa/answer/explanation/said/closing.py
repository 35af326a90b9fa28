"""The answer's closing sentence ("**In short:** …", issue #35 "No conclusion"): what the question asked, said once
more as one cited conclusion, composed only of claims the answer has already checked — never a new one.

- "How does X work" / "what happens when …", when a flow was walked from an entry point (a view, an API handler, a
  command) and the opening rests on more than "the closest match found": the entry, a construct on its own lines
  before its first call (it signs the user in), its checked calls in order (queued ones said so, by-name ones
  marked), the outcome they end in, and the entry's own answer after the call when that answer is on the same
  branch (not `elif type == "private": return …` after a call made when `type == "public"`).
- "What happens when a request fails", with no walk from the handler: the strongest error construct of a central
  handler's weight (``absence.CENTRAL_WEIGHT``, the bar the absence sentence searches for) and an error answer found
  in that handler's own block (not the 404 route written above it). A failing job or a refused form is not asked
  so: the request's error handler is not their answer.
- A question that asks for a place ("which tasks run every day, and where are they registered?"), with no walk:
  the lead's construct of its topic and what the opening does not say (``closing_place``); a copy is left out.
- Nothing else: a placement question ends on "Where to add it:" (the hook) and an error question on "Where errors
  go:" or the absence sentence, which are its conclusions; without these pieces a closing would be a guess.

A walk of several calls is not told twice: the closing names its first call and where the calls end ("which in the
end stores with …"), the numbered steps above it list the others.

The sentence goes after the opening and the numbered steps, before the sources: the steps are read as the story and
the sources as its evidence, so the conclusion closes the story before the evidence begins. It carries what the
"What happens:" row said, which is then left out (the answer keeps its length).
"""

from __future__ import annotations

import re

from codeqa.answer.explanation.code.branches import call_condition, condition_at
from codeqa.answer.explanation.code.saidline import said_line
from codeqa.answer.explanation.constructs.leafscope import leaf_class
from codeqa.answer.explanation.constructs.mechanism import Match
from codeqa.answer.explanation.explain import Explanation, Step
from codeqa.answer.explanation.said.closing_place import place_closing
from codeqa.answer.explanation.said.conclusion import catches_all, hook, where_errors_go
from codeqa.answer.explanation.said.holders import holders_named, registered
from codeqa.answer.explanation.said.lead import LAYER_VERBS, PHRASE_WEIGHT
from codeqa.answer.explanation.said.outcomes import outcome_lines, outcome_said_of
from codeqa.answer.explanation.said.phrasing import said_of
from codeqa.answer.explanation.said.roles_said import shows_role
from codeqa.answer.explanation.sources.absence import CENTRAL_WEIGHT
from codeqa.answer.explanation.sources.entry import routed
from codeqa.answer.explanation.story.endings import definition_lines
from codeqa.answer.explanation.story.walk import ENTRY_LAYERS, Walk
from codeqa.answer.explanation.story.walktext import outcome_under
from codeqa.answer.rendering.injection import instruction_like
from codeqa.answer.rendering.render import code_span
from codeqa.records import Chunk

LABEL = "**In short:**"
QUOTE_CHARS = 90
# "what happens when an API request fails": a request's failure, asked as such (not a reminder job that keeps failing)
ASKS_FAILED_REQUEST = re.compile(
    r"\bwhat happens\b(?=[^?]*\b(?:fail|error|exception|crash|goes wrong))(?=[^?]*\b(?:requests?|api|endpoints?|"
    r"calls?|pages?|views?|routes?)\b)",
    re.IGNORECASE,
)
# "when the PowerDNS API returns an error": a named outside service's API, which the app calls; not its own request
OUTSIDE_API = re.compile(
    r"\b(?!(?:REST|HTTP|JSON|GraphQL|Web|Public|Internal|Admin|The|An?|Our|My|This)\b)[A-Z][\w.-]*\s+API\b"
)
QUEUED = re.compile(r"\.(?:delay|apply_async)\(")  # as ``walktext``: the call hands the work to a worker
CLOSER = re.compile(r"[)}\]]|end\b")  # a block's closing line, at its head's indentation
LOCATION = re.compile(r"[\w./-]+:\d+(?:-\d+)?")


def _quote(verb: str, text: str) -> tuple[str, str]:
    """(markdown, plain) of "{verb} `line`", the line as written (``saidline.said_line``)."""
    phrase, quote = said_line(verb, text, QUOTE_CHARS)
    return f"{phrase} {code_span(quote)}", f"{phrase} {quote}"


def _entry_constructs(explanation: Explanation, found: Walk) -> list[Match]:
    """The strong constructs on lines of the walk's entry definition before its first call (what it does first)."""
    span = definition_lines(found.entry, found.entry_name) or definition_lines(found.entry, "")
    lines = {line for line, _ in span}
    first_call = found.hops[0].use.line if found.hops else max(lines, default=0) + 1
    taken = [match for step in explanation.open_steps if step.chunk.path == found.entry.path
             for match in step.matches if match.construct.weight >= 1.0 and match.line in lines
             and match.line < first_call and not instruction_like(match.text)
             and _on_path(found.entry, match.line, first_call)]  # fmt: skip
    return list({(m.line, m.phrase): m for m in taken}.values())


def _on_path(chunk: Chunk, line: int, call: int) -> bool:
    """Whether file line ``line`` of ``chunk`` is on the way to the call at line ``call``: no block holding it closes
    before the call (a preset admin's ``login_user(user=admin)`` in a side branch is not what the main path does)."""
    lines = chunk.text.split("\n")
    start, end = line - chunk.start_line, call - chunk.start_line
    if not 0 <= start < end <= len(lines):
        return False
    indent = len(lines[start]) - len(lines[start].lstrip())
    return all(len(text) - len(text.lstrip()) >= indent for text in lines[start + 1 : end] if text.strip())


def _calls(found: Walk) -> tuple[str, str, str, str, tuple[str, str] | None]:
    """The entry's checked calls as a clause, "calls `A`, which calls `B`, which answers with `…` (`path:n`)"
    (markdown, plain), the test its first call runs under ("when `c`", markdown and plain, "" for always) and that
    test as ``condition_at`` gives it (``("", "")`` always, None when it cannot be said)."""
    names, hops = [], found.hops
    if len(hops) > 1 and found.outcome is not None and not any(QUEUED.search(h.use.text) for h in hops):
        hops = hops[:1]  # the numbered steps list each call: the closing names the first and where they end
    for hop in hops:  # "calls `A`" / "queues `A` for a worker" (``.delay(…)``), as the steps say it
        mark = " (linked by name)" if hop.by_name else ""
        verb, tail = ("queues", " for a worker") if QUEUED.search(hop.use.text) else ("calls", "")
        names.append((f"{verb} {code_span(hop.use.name)}{tail}{mark}", f"{verb} {hop.use.name}{tail}{mark}"))
    dropped = found.hops[len(hops) :]  # shown as steps; a by-name link among them keeps its mark
    later = (" in the end" + (" (through calls linked by name)" if any(h.by_name for h in dropped) else "")
             if dropped else "")  # fmt: skip
    tests = [test for hop in dropped
             if (test := call_condition(hop.chunk, hop.use.line, hop.use.name, loops=True)) != ("", "")]  # fmt: skip
    if tests:  # a call made under a test (`if (isNewUser && user.isInvited)`): its end is one branch's, said so
        said_md = " and ".join(f"{t[0]} {code_span(t[1])}" if t else "" for t in tests)
        said = said_md.replace("`", "") if all(tests) else "on one branch"
        said_md = said_md if all(tests) else said
        later_md, later = f"{later}, {said_md},", f"{later}, {said},"
    else:
        later_md = later
    first = call_condition(found.entry, found.hops[0].use.line, found.hops[0].use.name)
    when_md, when = (f"{first[0]} {code_span(first[1])}", f"{first[0]} {first[1]}") if first and first[0] else ("", "")
    md, plain = ", which ".join(name for name, _ in names), ", which ".join(name for _, name in names)
    if (outcome := found.outcome) is not None:
        where, (said_md, said) = f"{outcome.chunk.path}:{outcome.line}", _quote(outcome.verb, outcome.text)
        end_md, end = outcome_under(outcome)
        md += f", which{later_md} {said_md}{end_md} ({code_span(where)})"
        plain += f", which{later} {said}{end} ({where})"
    return md, plain, when_md, when, first


def flow_closing(explanation: Explanation) -> tuple[str, str] | None:
    """ "In short: `entry` (`loc`) {does X} at `path:n`; when `c`, it calls `A`, which answers with `…` (`path:n`);
    then `entry` returns `…` (`path:m`)." from the walk; None without a walk from an entry point to an outcome."""
    found = explanation.walk
    if found is None or found.outcome is None or not found.hops or str(found.entry.layer) not in ENTRY_LAYERS:
        return None  # a walk from the middle of the code is a chain of calls, not the story of a request
    if not _grounded(explanation):
        return None  # the opening offers only "the closest match found": "In short" would overstate it
    lead = explanation.step(explanation.lead).chunk
    if not (_overlap(found.entry, lead) or _overlap(found.hops[0].callee, lead)):
        return None  # walked from another source than the lead (its own walk found nothing): another story
    md, plain = (
        f"{code_span(found.entry_name)} ({code_span(found.entry.location)})",
        f"{found.entry_name} ({found.entry.location})",
    )
    calls_md, calls, when_md, when, first = _calls(found)
    if matches := _entry_constructs(explanation, found):  # what it does before its first call
        by_line = sorted(matches, key=lambda m: m.line)  # each phrase cited at its own line
        said = " and ".join(f"{said_of([m], explanation.terms)} at {code_span(f'{found.entry.path}:{m.line}')}"
                            for m in by_line)  # fmt: skip
        md += f" {said}" + (f"; {when_md}, it " if when else " and ")
        plain += f" {said.replace('`', '')}" + (f"; {when}, it " if when else " and ")
    else:
        md, plain = md + (f", {when_md}, " if when else " "), plain + (f", {when}, " if when else " ")
    md, plain = md + calls_md, plain + calls
    response = found.response
    branch = condition_at(found.entry, response.line) if response is not None else ("", "")
    if branch != ("", "") and (branch is None or branch != first):  # unknown (a `case`'s `when`, an `else`): unsaid
        response = None  # another branch's answer (`elif type == "private": return …`) is not what follows the call
    if response is not None:
        at = f"{response.chunk.path}:{response.line}"
        said_md, said = _quote(response.verb, response.text)
        md += f"; then {code_span(found.entry_name)} {said_md} ({code_span(at)})"
        plain += f"; then {found.entry_name} {said} ({at})"
    return f"{LABEL} {md}.", f"In short: {plain}."


def _grounded(explanation: Explanation) -> bool:
    """Whether the opening rests on more than the closest match: a construct of the first sources (a sign-in, an
    error handler), the lead's role its code shows (a route's view "handles the request"), or the app's route of the
    sign-in (sign-up) URL asked about to the lead."""
    steps = explanation.best_first[:2]
    if any(m.construct.weight >= PHRASE_WEIGHT for step in steps for m in step.matches):
        return True
    context = explanation.context
    if steps and shows_role(steps[0].chunk, LAYER_VERBS, context):  # "`create_report` handles the request: …"
        return True
    return context is not None and bool(steps) and routed(steps[0].chunk, context, explanation.terms,
                                                            explanation.intents, explanation.question)  # fmt: skip


def _central_error(explanation: Explanation) -> tuple[Step, list[Match]] | None:
    """The open source with the strongest error construct of a central handler's weight, with its such matches."""
    found = [(match.construct.weight, -order, step) for order, step in enumerate(explanation.best_first)
             for match in step.matches if match.construct.kind == "error" and _central(step, match)
             and match.construct.weight >= CENTRAL_WEIGHT and not instruction_like(match.text)]  # fmt: skip
    if not found:
        return None
    weight, _, step = max(found, key=lambda item: item[:2])
    kept = [m for m in step.matches if m.construct.kind == "error" and m.construct.weight >= CENTRAL_WEIGHT]
    return step, sorted(kept, key=lambda m: m.line)


def _central(step: Step, match: Match) -> bool:
    """Whether ``match`` may stand for where a failing request goes: a handler of every error, or one of several kinds
    handled in one place (an API base controller's three ``rescue_from``), not a rate limiter's one exception."""
    typed = [m for m in step.matches if m.construct is match.construct and not catches_all(m)]
    return catches_all(match) or len(typed) >= 2


def asks_failed_request(question: str) -> bool:
    """Whether ``question`` asks what happens when the app's own request fails (not an outside service's API)."""
    return bool(ASKS_FAILED_REQUEST.search(question)) and not OUTSIDE_API.search(question)


def errors_closing(explanation: Explanation) -> tuple[str, str] | None:
    """ "In short: when a request fails, `X` (`loc`) {handles …}; `X` answers with `…` (`path:n`)." from the
    strongest central error construct and the error answer checked in its own lines; None without one."""
    if explanation.intents[:1] != ("errors",) or not asks_failed_request(explanation.question):
        return None  # "when a request fails" is what it says: a failing job or a refused form is not asked here
    central = _central_error(explanation)
    if central is None:
        return None
    step, matches = central
    if handlers := registered(step, matches):  # `rescue_from X, with: :handle_x`: the handlers run
        first, last = handlers[0][1].line, handlers[-1][1].line
        where = f"{step.chunk.path}:{first}" + (f"-{last}" if last != first else "")
        names = [h for h, _ in handlers]
        if len(names) == 1:
            named_md, named = (
                f"{code_span(names[0])} (registered at {code_span(where)})",
                f"{names[0]} (registered at {where})",
            )
        else:  # one subject for the phrase's verb: "the code at … (`a`, `b` and `c`) turns …"
            listed_md = ", ".join(code_span(n) for n in names[:-1]) + " and " + code_span(names[-1])
            listed = ", ".join(names[:-1]) + " and " + names[-1]
            named_md, named = f"the code at {code_span(where)} ({listed_md})", f"the code at {where} ({listed})"
    elif not step.chunk.symbol:  # a file's statements: the line that registers it, not the whole piece of the file
        where = f"{step.chunk.path}:{matches[0].line}"
        named_md, named = f"the code at {code_span(where)}", f"the code at {where}"
    else:
        named_md, named = holders_named(step, matches)
    said = said_of(matches, explanation.terms)
    leaf = leaf_class(explanation.context, matches)  # one controller's own handlers: its requests only
    asked = f"a request to {code_span(leaf)}" if leaf else "a request"
    md, plain = (
        f"{LABEL} when {asked} fails, {named_md} {said}",
        f"In short: when {asked.replace('`', '')} fails, {named} ",
    )
    plain += said.replace("`", "")
    found = explanation.walk
    if found is not None and found.outcome is not None and found.hops and _holds(found.entry, matches):
        calls_md, calls, when_md, when, _ = _calls(found)  # the handler's checked calls to the answer they end in
        calls_md, calls = (
            (f"{when_md}, it {calls_md}", f"{when}, it {calls}") if when else (f"it {calls_md}", f"it {calls}")
        )
        return f"{md}; {calls_md}.", f"{plain}; {calls}."
    # the lines the opening's constructs cite are not outcomes (as in ``lead``: strong constructs only)
    skip = {(s.chunk.path, m.line) for s in explanation.open_steps for m in s.matches
            if m.construct.weight >= PHRASE_WEIGHT}  # fmt: skip
    inside = set().union(*(_block(step.chunk, m.line) for m in matches))  # the handler's own lines, not a 404 above
    own = [item for item in outcome_lines(explanation, skip) if item[1] is step and item[2].line in inside]
    ending = outcome_said_of(own)
    if ending is not None:
        md += "; t" + ending[0][len("T") :].removesuffix(".")
        plain += "; t" + ending[1][len("T") :].removesuffix(".")
    return md + ".", plain + "."


def _block(chunk: Chunk, line: int) -> set[int]:
    """The file lines of the block a construct's line opens (its decorators, head and indented body): where what it
    does is written."""
    lines = [text.expandtabs(4) for text in chunk.text.split("\n")]
    head = line - chunk.start_line
    while 0 <= head < len(lines) - 1 and lines[head].lstrip().startswith(("@", "#[")):  # a decorator, an annotation
        head += 1
    if not 0 <= head < len(lines):
        return set()
    indent = len(lines[head]) - len(lines[head].lstrip())
    end = head + 1
    while end < len(lines) and (not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip()) > indent
                                or CLOSER.match(lines[end].lstrip())):  # fmt: skip
        end += 1
    return set(range(line, chunk.start_line + end))


def _overlap(one: Chunk, other: Chunk) -> bool:
    return one.path == other.path and one.start_line <= other.end_line and other.start_line <= one.end_line


def _holds(chunk: Chunk, matches: list[Match]) -> bool:
    return all(m.chunk.path == chunk.path and chunk.start_line <= m.line <= chunk.end_line for m in matches)


def closing(explanation: Explanation) -> tuple[str, str] | None:
    """The closing sentence as (markdown, plain), or None (see the module docstring)."""
    if hook(explanation) is not None or where_errors_go(explanation) is not None or explanation.absence is not None:
        return None  # the answer already ends on its conclusion
    said = flow_closing(explanation) or errors_closing(explanation) or place_closing(explanation)
    if said is None:
        return None
    paths = [path for path in dict.fromkeys(m.split(":", 1)[0] for m in LOCATION.findall(said[1]))]
    drop = explanation.evidence.drop_unbacked
    return drop(said[0], paths), drop(said[1], paths)
