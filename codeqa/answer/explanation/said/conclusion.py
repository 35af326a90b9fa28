"""The answer's conclusion for "where would I add …?" (the hook every request passes through, said as advice) and for
"what happens when … fails?" (the one place the whole app's errors go, when its code has one).

A placement question about a concern every request meets (logging, auth: ``intent.HOOK`` leads its intents) wants
one place, not a list. The place is a construct found on a code line of an open source that is on the path of every
request of the app (``Construct.every_request``: global middleware, an app-wide ``before_request``, a filter in
``ApplicationController``) — so the reason ("it sees every request") is the construct's own, checked, phrase. When
no open source holds such a construct, nothing is recommended: a guess would read as advice.

For errors, the place is an error construct whose matched line shows it is registered for the whole app
(``Construct.app_wide``: ``app.register_error_handler``, an ``app.use`` error middleware, ``useGlobalFilters``), not
a blueprint's or a router's; when no open source holds one, nothing is concluded here (the absence, when the whole
index was searched, is said by ``absence``).
"""

from __future__ import annotations

import re

from codeqa.answer.explanation.code.branches import condition_at
from codeqa.answer.explanation.code.keylines import term_score
from codeqa.answer.explanation.code.linenames import DECORATOR, holder_at
from codeqa.answer.explanation.code.outline import display_name
from codeqa.answer.explanation.constructs.listedlog import logger_entries, named_for_logging
from codeqa.answer.explanation.constructs.mechanism import Match
from codeqa.answer.explanation.explain import Explanation, Step
from codeqa.answer.rendering.render import code_span
from codeqa.frameworks.intent import HOOK, PLACEMENT
from codeqa.symbols import qualified_names, short_names

ERRORS = "errors"
LOGGING = "logging"
# what a handler registered for one kind of error must name to be where errors go (not `BadData`, not an OAuth error)
CATCH_ALL = re.compile(r"\b(?:Exception|BaseException|Throwable|StandardError|HTTPException|Error|500)\b")


def hook(explanation: Explanation) -> tuple[Step, Match] | None:
    """The strongest construct on every request's path among the open sources, with its source; None when the
    question is not a placement question or no such construct is there."""
    if explanation.intents[:1] != (HOOK,):
        return None
    terms = explanation.terms
    logs = LOGGING in explanation.intents
    found = [(_unguarded(step, match), logs and (match.construct.kind == LOGGING or _logs_requests(step)), match.weight,
              term_score(terms, match.text), -order, -match.line, step, match)
             for order, step in enumerate(explanation.best_first)
             for match in step.matches if match.every_request]  # fmt: skip
    if not found:
        return None
    # unguarded; for logging, the request logger the app already has; the strongest; of equals, the one named
    *_, step, match = max(found, key=lambda item: item[:6])
    return step, match


def _logs_requests(step: Step) -> bool:
    """The step is the code of a middleware named for logging (``RequestLoggerMiddleware.__call__``)."""
    return any(named_for_logging(name) for name in qualified_names(step.chunk.symbol)[:1] for name in name.split("."))


def _listed_logger(explanation: Explanation, step: Step, match: Match) -> tuple[Step, int] | None:
    """The open step that is a logging middleware the list at ``match`` names, with the list's line naming it."""
    entries = logger_entries(step.chunk, match)
    for other in explanation.best_first:
        names = {part for name in qualified_names(other.chunk.symbol) for part in name.split(".")}
        line = next((line for line, name in entries if name in names), None)
        if other is not step and line is not None:
            return other, line
    return None


def _unguarded(step: Step, match: Match) -> bool:
    """Whether ``match`` is on every request's path, not under a test (``if (isDev) { app.use(…) }``)."""
    return condition_at(step.chunk, match.line) == ("", "")


def placement(explanation: Explanation, said: str = "") -> tuple[str, str] | None:
    """``(markdown, plain)``: "Where to add it: in `X` (`path:a-b`), because it runs before every request, at
    `path:n`.". The reason is left out when ``said`` (the plain text of the sentence before it) already gives it, of
    the same code."""
    found = hook(explanation)
    if found is None:
        return None
    step, match = found
    where = f"{step.chunk.path}:{match.line}"
    phrase = match.phrase.replace("`", "")
    listed = _listed_logger(explanation, step, match) if LOGGING in explanation.intents else None
    if listed is not None:  # the list names the app's logging middleware: that is where its requests are logged
        logger, listed_at = listed
        name, named_at = display_name(logger.chunk).split(" (+", 1)[0], f"{step.chunk.path}:{listed_at}"
        file = display_name(step.chunk).split(" (+", 1)[0]
        return (f"**Where to add it:** in {code_span(name)} ({code_span(logger.chunk.location)}): {code_span(file)} "
                f"{match.phrase} and names this logging middleware at {code_span(named_at)}.",
                f"Where to add it: in {name} ({logger.chunk.location}): {file} {phrase} and names this logging "
                f"middleware at {named_at}.")  # fmt: skip
    repeated = _said_of(said, step.chunk.location, phrase)
    line = step.chunk.text.split("\n")[match.line - step.chunk.start_line]
    if match.handler and match.handler not in match.phrase and not DECORATOR.match(line):  # app.after_request(f)
        name = match.handler
        if repeated:
            return (f"**Where to add it:** in {code_span(name)} (registered at {code_span(where)}).",
                    f"Where to add it: in {name} (registered at {where}).")  # fmt: skip
        markdown = (f"**Where to add it:** in {code_span(name)} (registered at {code_span(where)}), because it "
                    f"{match.phrase}.")  # fmt: skip
        return markdown, f"Where to add it: in {name} (registered at {where}), because it {phrase}."
    held = holder_at(step.chunk, match.line) if step.chunk.symbol else display_name(step.chunk).split(" (+", 1)[0]
    if held is None:  # the line is outside every definition of the chunk: cite the line itself
        if repeated:
            return f"**Where to add it:** at {code_span(where)}.", f"Where to add it: at {where}."
        markdown = f"**Where to add it:** at {code_span(where)}, because the code there {match.phrase}."
        return markdown, f"Where to add it: at {where}, because the code there {phrase}."
    if repeated:
        return (f"**Where to add it:** in {code_span(held)} ({code_span(step.chunk.location)}), at {code_span(where)}.",
                f"Where to add it: in {held} ({step.chunk.location}), at {where}.")  # fmt: skip
    markdown = (f"**Where to add it:** in {code_span(held)} ({code_span(step.chunk.location)}), because it "
                f"{match.phrase}, at {code_span(where)}.")  # fmt: skip
    plain = f"Where to add it: in {held} ({step.chunk.location}), because it {phrase}, at {where}."
    return markdown, plain


CITED = re.compile(r"[\w./-]+:\d+")


def _said_of(said: str, location: str, phrase: str) -> bool:
    """Whether ``said`` says ``phrase`` of the code at ``location``: after citing it, before citing anything else."""
    at = said.find(location)
    if at < 0:
        return False
    rest = said[at + len(location) :]
    found = rest.find(phrase)
    return found >= 0 and not CITED.search(rest[:found])


def errors_end(explanation: Explanation) -> tuple[Step, Match] | None:
    """The strongest app-wide error construct among the open sources, with its source; None when the question is not
    about errors (or asks where to add something) or no open source holds one."""
    if explanation.intents[:1] != (ERRORS,) or PLACEMENT.search(explanation.question):
        return None
    found = [(_breadth(match), match.weight, -order, -match.line, step, match)
             for order, step in enumerate(explanation.best_first) for match in step.matches
             if match.construct.kind == "error" and match.construct.app_wide is not None
             and match.construct.app_wide.search(match.text) and catches_all(match)
             and condition_at(step.chunk, match.line, loops=True) == ("", "")]  # always: no ``else``  # fmt: skip
    if not found:
        return None
    *_, step, match = max(found, key=lambda item: item[:4])
    return step, match


def _breadth(match: Match) -> int:
    """How many errors a handler takes: every one (``Exception``, a 500, no kind named) before a family of them
    (``HTTPException``: Flask's ``errorhandler(Exception)`` beside it takes the rest)."""
    return 0 if re.search(r"\bHTTPException\b", match.phrase) else 1


def catches_all(match: Match) -> bool:
    """A handler registered for a kind of error (``{what}`` in its construct) is where errors go only when that kind
    is every error (``Exception``, a 500, a loop over codes with 500); one with no kind (an error middleware, a
    ``@ControllerAdvice``) is."""
    return "what" not in match.construct.pattern.groupindex or bool(CATCH_ALL.search(match.phrase))


def where_errors_go(explanation: Explanation) -> tuple[str, str] | None:
    """``(markdown, plain)``: "Where errors go: to `render_error` (registered at `path:n`), because the code there
    sends … to `render_error`; an error a handler answers itself never gets there."."""
    found = errors_end(explanation)
    if found is None:
        return None
    step, match = found
    where = f"{step.chunk.path}:{match.line}"
    phrase = match.phrase.replace("`", "")
    tail = "; an error a handler answers itself never gets there."
    if match.handler:
        defined = sorted((s.chunk for s in explanation.best_first if match.handler in short_names(s.chunk.symbol)),
                         key=lambda chunk: chunk.start_line)  # fmt: skip
        at_md, at = f"registered at {code_span(where)}", f"registered at {where}"
        if defined:  # the handler's own code is shown: cite it, the registration after it
            at_md, at = f"{code_span(defined[0].location)}, {at_md}", f"{defined[0].location}, {at}"
        markdown = (f"**Where errors go:** to {code_span(match.handler)} ({at_md}), because "
                    f"the code there {match.phrase}{tail}")  # fmt: skip
        plain = f"Where errors go: to {match.handler} ({at}), because the code there {phrase}{tail}"
        return markdown, plain
    markdown = f"**Where errors go:** to the code at {code_span(where)}, because it {match.phrase}{tail}"
    return markdown, f"Where errors go: to the code at {where}, because it {phrase}{tail}"
