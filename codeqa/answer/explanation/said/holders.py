"""Who does what a cited line shows: the definition that holds the line, not the chunk's first name.

A chunk is named after its first definition, and several small ones share a chunk: four Flask error handlers in one,
a Rails class's ``rescue_from`` lines after a method. An answer that says "`handle_baddata` handles `IndicoError`"
or "`add_handlers` runs before every request" (it registers the hooks, once) is false. So the subject of a construct
sentence is the one definition holding every matched line (``outline.holder_at``), the handler a call registers
(``app.after_request(track)``: `track` runs), or else the cited lines themselves.
"""

from __future__ import annotations

from collections.abc import Sequence

from codeqa.answer.explanation.code.linenames import DECORATOR, holder_at
from codeqa.answer.explanation.code.outline import display_name
from codeqa.answer.explanation.constructs.mechanism import Match
from codeqa.answer.explanation.explain import Step
from codeqa.answer.rendering.render import code_span


def _named(step: Step) -> tuple[str, str]:
    name = display_name(step.chunk).split(" (+", 1)[0]
    return f"{code_span(name)} ({code_span(step.chunk.location)})", f"{name} ({step.chunk.location})"


def registered(step: Step, matches: Sequence[Match]) -> list[tuple[str, Match]]:
    """Each match's registered handler, when every match registers one by a call (``app.after_request(track)``)
    and its phrase does not name it: what runs is the handler, not the function that registers it."""
    lines = step.chunk.text.split("\n")
    found = [(m.handler, m) for m in matches if m.handler and m.handler not in m.phrase
             and not DECORATOR.match(lines[m.line - step.chunk.start_line])]  # fmt: skip
    return list({handler: (handler, m) for handler, m in found}.values()) if len(found) == len(matches) else []


def holders_named(step: Step, matches: Sequence[Match]) -> tuple[str, str]:
    """Who does what ``matches`` show: the one definition holding every matched line, else the cited lines themselves
    (a chunk of four error handlers is not its first handler; a class-level ``rescue_from`` is not the method above
    it). A chunk with no name of its own (a module's statements) keeps its display name."""
    if not step.chunk.symbol:
        return _named(step)
    holders = {holder_at(step.chunk, match.line) for match in matches}
    outer = [h for h in holders if h and all(o and (o == h or o.startswith(f"{h}.")) for o in holders)]
    holders = {outer[0]} if outer else holders  # a class and its methods (`@ControllerAdvice`, `@ExceptionHandler`s)
    if len(holders) == 1 and None not in holders:
        name = holders.pop() or display_name(step.chunk).split(" (+", 1)[0]
        return f"{code_span(name)} ({code_span(step.chunk.location)})", f"{name} ({step.chunk.location})"
    return f"the code at {code_span(step.chunk.location)}", f"the code at {step.chunk.location}"
