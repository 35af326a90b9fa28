"""Which branch of a definition a line is on, for outcomes told as "what happens".

An error handler often answers twice: JSON for an API request, a page for the browser
(``if is_api_request(request): return handle_rest_api_exception(…)`` and then ``return HttpResponseRedirect(…)``).
Asked what happens when an API request fails, the page is not what happens; said as the outcome, it is false. Nor is
one case of a dispatch table (``cases = { EBADCSRFTOKEN: function () { res.sendStatus(403); } }``), or a line that
hands a callback over (``$exceptions->render(static function (``).
"""

from __future__ import annotations

import re

from codeqa.answer.explanation.outline import FUNCTION_HEAD
from codeqa.records import Chunk

ASKS_API = re.compile(r"\b(?:api|apis|json|rest)\b", re.IGNORECASE)
API_CONDITION = re.compile(r"(?<![a-z])api|json|xhr|graphql", re.IGNORECASE)
BRANCH = re.compile(r"^\s*(?:\}\s*)?(?:if|elif|elsif|else\s+if|unless)\b")
NEGATED = re.compile(r"\bnot\b|!(?!=)|\bunless\b")
REGISTERS = re.compile(r"\bfunction\s*\([^)]*$|=>\s*\{?$|\bdo\s*(?:\|[^|]*\|)?$")
# the head of a loop or a test with no body on its line (``for code in {401, 403}:``) answers nothing itself
HEADER = re.compile(r"^\s*(?:for|while|if|elif|else\s+if|unless|case|switch)\b.*(?::|\{|\bdo|\bthen)\s*$")
CASE = re.compile(r"""^\s*(?:'[^']+'|"[^"]+"|[\w$-]+)\s*:\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|\w+\s*=>)""")


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip())


def asks_api(question: str) -> bool:
    return bool(ASKS_API.search(question))


def off_api_path(chunk: Chunk, line: int) -> bool:
    """Whether file line ``line`` of ``chunk`` is on the non-API path of its definition: after (or in a sibling
    branch of) the nearest ``if`` above it that tests for an API or JSON request, or inside such a test's negation."""
    lines = chunk.text.split("\n")
    position = line - chunk.start_line
    if not 0 <= position < len(lines):
        return False
    indent = _indent(lines[position])
    for above in range(position - 1, -1, -1):
        text = lines[above]
        if not text.strip():
            continue
        depth = _indent(text)
        if FUNCTION_HEAD.match(text) and depth < indent:
            return False  # the enclosing definition's head: no API test before the line
        if BRANCH.match(text) and API_CONDITION.search(text) and depth <= indent:
            inside = all(_indent(after) > depth for after in lines[above + 1 : position + 1] if after.strip())
            return inside if NEGATED.search(text) else not inside
    return False


def no_answer(chunk: Chunk, line: int, code: str) -> bool:
    """Whether file line ``line`` of ``chunk`` (its code ``code``) answers nothing by itself: it hands a callback
    over, it heads a loop or a test (``for code in {401, 403, 404}:``), or it sits in a function that is one value of
    an object literal (one case of a dispatch table)."""
    if REGISTERS.search(code.rstrip()) or HEADER.match(code):
        return True
    lines = chunk.text.split("\n")
    position = line - chunk.start_line
    if not 0 <= position < len(lines):
        return False
    indent = _indent(lines[position])
    for text in reversed(lines[:position]):
        if not text.strip() or _indent(text) >= indent:
            continue
        if CASE.match(text):
            return True
        if FUNCTION_HEAD.match(text):
            return False
        indent = _indent(text)
    return False
