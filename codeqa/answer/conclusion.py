"""The answer's conclusion for "where would I add …?": the hook every request passes through, said as advice.

A placement question about a concern every request meets (logging, auth: ``intent.HOOK`` leads its intents) wants
one place, not a list. The place is a construct found on a code line of an open source that is on the path of every
request of the app (``Construct.every_request``: global middleware, an app-wide ``before_request``, a filter in
``ApplicationController``) — so the reason ("it sees every request") is the construct's own, checked, phrase. When
no open source holds such a construct, nothing is recommended: a guess would read as advice.
"""

from __future__ import annotations

from codeqa.answer.explain import Explanation, Step
from codeqa.answer.keylines import term_score
from codeqa.answer.mechanism import Match
from codeqa.answer.outline import display_name
from codeqa.answer.render import code_span
from codeqa.frameworks.intent import HOOK


def hook(explanation: Explanation) -> tuple[Step, Match] | None:
    """The strongest construct on every request's path among the open sources, with its source; None when the
    question is not a placement question or no such construct is there."""
    if explanation.intents[:1] != (HOOK,):
        return None
    terms = explanation.terms
    found = [(match.weight, term_score(terms, match.text), -order, -match.line, step, match)
             for order, step in enumerate(explanation.best_first)
             for match in step.matches if match.construct.every_request]  # fmt: skip
    if not found:
        return None
    *_, step, match = max(found, key=lambda item: item[:4])  # the strongest; of equals, the one the question names
    return step, match


def placement(explanation: Explanation) -> tuple[str, str] | None:
    """``(markdown, plain)``: "Where to add it: in `X` (`path:a-b`), because it runs before every request, at
    `path:n`."."""
    found = hook(explanation)
    if found is None:
        return None
    step, match = found
    name = display_name(step.chunk).split(" (+", 1)[0]
    where = f"{step.chunk.path}:{match.line}"
    markdown = (f"**Where to add it:** in {code_span(name)} ({code_span(step.chunk.location)}), because it "
                f"{match.phrase}, at {code_span(where)}.")  # fmt: skip
    phrase = match.phrase.replace("`", "")
    plain = f"Where to add it: in {name} ({step.chunk.location}), because it {phrase}, at {where}."
    return markdown, plain
