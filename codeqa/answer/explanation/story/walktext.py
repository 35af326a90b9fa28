"""The flow as the answer says it: numbered steps, each a checked call cited at its line, the last the outcome;
then what happens (the entry's own success answer)."""

from __future__ import annotations

import re

from codeqa.answer.explanation.calls.callplace import placed_caller
from codeqa.answer.explanation.calls.flow import Use
from codeqa.answer.explanation.code.branches import call_condition, condition_at
from codeqa.answer.explanation.code.outline import display_name
from codeqa.answer.explanation.code.saidline import said_line
from codeqa.answer.explanation.story.endings import Outcome
from codeqa.answer.explanation.story.walk import Hop, Walk
from codeqa.answer.rendering.render import code_span
from codeqa.records import Chunk


def _name_of(chunk: Chunk) -> str:
    return display_name(chunk).split(" (+", 1)[0]


def _enqueues(use: Use) -> bool:
    return bool(re.search(r"\.(?:delay|apply_async)\(", use.text))


def _cited(name: str, chunk: Chunk) -> tuple[str, str]:
    return f"{code_span(name)} ({code_span(chunk.location)})", f"{name} ({chunk.location})"


def _quote(verb: str, text: str, limit: int = 90) -> tuple[str, str]:
    """(markdown, plain) of "{verb} `line`", the line as written (``saidline.said_line``)."""
    phrase, quote = said_line(verb, text, limit)
    return f"{phrase} {code_span(quote)}", f"{phrase} {quote}"


_RECEIVER = re.compile(r"^(?:this|self|\$this|@)\W")  # ``this.service.login``: said as ``login``


def _under(hop: Hop) -> tuple[str, str]:
    """ " when `c`" for a call made under one short test (``if (isNewUser && user.isInvited)``), " on one branch" under
    tests that cannot be said so, "" for a call made every time: a step on one branch is not the whole story."""
    test = call_condition(hop.chunk, hop.use.line, hop.use.name, loops=True)
    if test == ("", ""):
        return "", ""
    return (f" {test[0]} {code_span(test[1])}", f" {test[0]} {test[1]}") if test else (" on one branch",) * 2


def _by_name_mark(hop: Hop) -> str:
    """How a call checked by name was linked: a callee in the caller's own file is reached by its name alone (ntfy's
    ``limitsNoLock`` and ``tierBasedVisitorLimits`` in ``visitor.go``); no import is involved there."""
    if not hop.by_name:
        return ""
    how = "in the same file" if hop.chunk.path == hop.callee.path else "and import"
    return f" (linked by name {how}, not resolved)"


def outcome_under(outcome: Outcome) -> tuple[str, str]:
    """ " when `c`" for an outcome its definition reaches under one short test (Misago's ``upgrade_post_content.delay``
    under ``if post_needs_content_upgrade(self.post):``), " on one branch" under tests that cannot be said so, "" for
    one reached every time: said bare, a job queued on one branch reads as queued on each call."""
    test = condition_at(outcome.chunk, outcome.line, loops=True)
    if test == ("", ""):
        return "", ""
    return (f" {test[0]} {code_span(test[1])}", f" {test[0]} {test[1]}") if test else (" on one branch",) * 2


def walk_steps(found: Walk) -> list[tuple[str, str]]:
    """The numbered steps as (markdown, plain): each hop a checked call cited at its line, the last step its outcome."""
    rows: list[tuple[str, str]] = []
    caller, chunk = found.entry_name, found.entry
    for number, hop in enumerate(found.hops, start=1):
        # a chunk of several definitions makes the call from the one its lines show (``filterRecurrences``, not
        # the chunk's first, ``setDate``)
        caller = hop.use.caller or placed_caller(hop.use, chunk) or caller
        named_md, named = _cited(caller, chunk)
        where = f"{hop.chunk.path}:{hop.use.line}"
        verb = "queues" if _enqueues(hop.use) else "calls"
        tail = " for a worker" if verb == "queues" else ""
        mark = _by_name_mark(hop)
        when_md, when = _under(hop)
        rows.append((f"{number}. {named_md} {verb} {code_span(hop.use.name)}{tail}{when_md} at {code_span(where)}"
                     f"{mark}.", f"{number}. {named} {verb} {hop.use.name}{tail}{when} at {where}{mark}."))  # fmt: skip
        caller = _name_of(hop.callee) if hop.by_name else hop.use.name  # by name: which definition calls is unsure
        chunk = hop.callee
    last = len(found.hops) + 1
    outcome = found.outcome
    # the outcome's line was found in the definition the last call names: that one says it
    said_name = caller
    if outcome is not None:
        said_name = re.split(r"\.|->|::", outcome.name)[-1] if _RECEIVER.match(outcome.name) else outcome.name
    named_md, named = _cited(said_name, chunk)
    if outcome is None:
        rows.append((f"{last}. {named_md}: the calls could be checked this far.",
                     f"{last}. {named}: the calls could be checked this far."))  # fmt: skip
    else:
        where, (said_md, said) = f"{outcome.chunk.path}:{outcome.line}", _quote(outcome.verb, outcome.text)
        when_md, when = outcome_under(outcome)
        rows.append((f"{last}. {named_md} {said_md}{when_md} ({code_span(where)}).",
                     f"{last}. {named} {said}{when} ({where})."))  # fmt: skip
    return rows


def response_sentence(found: Walk) -> tuple[str, str] | None:
    """ "What happens: `view` answers with `…` (`path:n`) once the calls above have run." (the entry's own success
    response after its first call), or None."""
    response = found.response
    if response is None:
        return None
    where = f"{response.chunk.path}:{response.line}"
    said_md, said = _quote(response.verb, response.text)
    markdown = f"**What happens:** {code_span(found.entry_name)} then {said_md} ({code_span(where)})."
    plain = f"What happens: {found.entry_name} then {said} ({where})."
    return markdown, plain
