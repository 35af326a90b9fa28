"""Which branch of a definition a line is on, for outcomes told as "what happens".

An error handler often answers twice: JSON for an API request, a page for the browser
(``if is_api_request(request): return handle_rest_api_exception(…)`` and then ``return HttpResponseRedirect(…)``).
Asked what happens when an API request fails, the page is not what happens; said as the outcome, it is false. Nor is
one case of a dispatch table (``cases = { EBADCSRFTOKEN: function () { res.sendStatus(403); } }``), or a line that
hands a callback over (``$exceptions->render(static function (``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from codeqa.answer.explanation.code.condition import condition_at
from codeqa.answer.explanation.code.linenames import FUNCTION_HEAD
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


# a block that is itself the failure path: an except/rescue/catch, an ``else:``, a negated test
# (Rails' ``rescue_from Pagy::RangeError do`` block answers for that error only, as a ``rescue`` does)
ERROR_HEAD = re.compile(
    r"^\s*(?:\}\s*)?(?:except\b|rescue(?:_from)?\b|catch\b|\}?\s*catch\b|else\s*:|if\s+not\b|unless\b)"
)
SAYS_ERROR = re.compile(r"(?i)error|fail|exception|invalid|denied|reject|abort|unauthori|forbidden|not_?found")
BLOCK_HEAD = re.compile(r"^\s*(?:\}\s*)?(?:if|elif|elsif|else|unless|when|case)\b")


def on_error_branch(chunk: Chunk, line: int) -> bool:
    """Whether file line ``line`` of ``chunk`` is on a failure path of its definition: in an ``except``/``rescue``/
    ``catch``/``else:``/``if not`` block, in a test that names an error, or in a test's block whose earlier lines
    say one (``error_for(…, message=size_error)`` then ``return redirect(url_for("auth.login"))``: the redirect is the
    error's answer, not what happens when it works)."""
    lines = chunk.text.split("\n")
    position = line - chunk.start_line
    if not 0 <= position < len(lines):
        return False
    indent = _indent(lines[position])
    siblings_say = False  # a line of the line's own block, before it, names an error
    innermost = True
    for text in reversed(lines[:position]):
        if not text.strip():
            continue
        depth = _indent(text)
        if depth >= indent:
            siblings_say |= innermost and depth == indent and bool(SAYS_ERROR.search(text))
            continue
        if FUNCTION_HEAD.match(text):
            return False
        if ERROR_HEAD.match(text) or (BRANCH.match(text) and SAYS_ERROR.search(text)):
            return True
        if innermost and siblings_say and BLOCK_HEAD.match(text):
            return True
        innermost, indent = False, depth
    return False


RETURNS = re.compile(r"^\s*return\b")


def returns_before(chunk: Chunk, line: int, later: Sequence[int]) -> bool:
    """Whether file line ``line`` of ``chunk`` sits in a test's block that returns before it reaches any of the lines
    ``later``: a login's ``if ($this->attemptLogin($request)) { Log::…('has been logged in'); return …; }`` above
    ``$this->sendFailedLoginResponse($request)`` is the success branch, not what the failure does."""
    lines = chunk.text.split("\n")
    position = line - chunk.start_line
    if not later or not 0 <= position < len(lines):
        return False
    indent = _indent(lines[position])
    head = next((above for above in range(position - 1, -1, -1)
                 if lines[above].strip() and _indent(lines[above]) < indent), None)  # fmt: skip
    if head is None or not BRANCH.match(lines[head]):
        return False
    depth = _indent(lines[head])
    end = next((after for after in range(position + 1, len(lines))
                if lines[after].strip() and _indent(lines[after]) <= depth), len(lines))  # fmt: skip
    returned = any(RETURNS.match(text) and _indent(text) == indent for text in lines[position + 1 : end])
    return returned and all(number >= chunk.start_line + end for number in later)


# Go's `if err = b.save(key, comment); err != nil {`: the head runs a statement before its test
GO_IF_INIT = re.compile(r"^\s*(?:\}\s*else\s+)?if\s+(?P<init>.+?);\s*[^;]+?\s*\{\s*$")


def if_init(chunk: Chunk, text: str) -> str:
    """The statement a Go ``if`` head runs before its test (``err = b.save(postBkt, comment.ID, comment)``), which is
    what the line does; ``text`` itself for any other line (an ``if`` head said whole reads as code in a sentence)."""
    found = GO_IF_INIT.match(text) if chunk.language == "go" else None
    return found.group("init").strip() if found else text


ELSE_HEAD = re.compile(r"^\s*(?:\}\s*)?(?:elif|elsif|elseif|else\s+if|else)\b")
LAST_ELSE = re.compile(r"^\s*(?:\}\s*)?else\s*(?::|\{)?\s*$")
IF_START = re.compile(r"^\s*(?:if|unless)\b")
LONE_CLOSER = re.compile(r"^\s*\}\s*$")


def _chain(lines: list[str], head: int) -> list[tuple[int, int]] | None:
    """The branches (first and last line index of each body) of the ``if``/``elsif``/``else`` chain whose head (or
    one of whose heads) is line index ``head``; None when the chain has no plain ``else`` (a path that takes none)."""
    depth = _indent(lines[head])
    start = head
    while not IF_START.match(lines[start]):
        above = next((i for i in range(start - 1, -1, -1) if lines[i].strip() and _indent(lines[i]) <= depth), None)
        if above is None or _indent(lines[above]) < depth:
            return None
        if not (ELSE_HEAD.match(lines[above]) or IF_START.match(lines[above]) or LONE_CLOSER.match(lines[above])):
            return None
        start = above
    heads, last_else = [start], False
    for index in range(start + 1, len(lines)):
        text = lines[index]
        if not text.strip() or _indent(text) > depth or LONE_CLOSER.match(text):
            continue
        if _indent(text) < depth or not ELSE_HEAD.match(text):
            break
        heads.append(index)
        last_else = bool(LAST_ELSE.match(text))
    else:
        index = len(lines)
    ends = [*heads[1:], index]
    return [(first + 1, end - 1) for first, end in zip(heads, ends, strict=True)] if last_else else None


def call_condition(chunk: Chunk, line: int, name: str, *, loops: bool = False) -> tuple[str, str] | None:
    """As ``condition_at`` for a call of ``name`` at file line ``line``, but ``("", "")`` when every branch of the
    ``if``/``else`` holding the call calls ``name`` too and that ``if`` runs every time: huginn's ``Agent.receive!``
    calls ``async_receive`` once per event ``if agent.no_bulk_receive?`` and once for all of them ``else``; "calls
    `async_receive` when `agent.no_bulk_receive?`" said a condition the call does not have."""
    test = condition_at(chunk, line, loops=loops)
    if test == ("", "") or not name:
        return test
    lines = chunk.text.split("\n")
    position = line - chunk.start_line
    if not 0 <= position < len(lines):
        return test
    indent = _indent(lines[position])
    head = next((i for i in range(position - 1, -1, -1) if lines[i].strip() and _indent(lines[i]) < indent), None)
    if head is None or not (IF_START.match(lines[head]) or ELSE_HEAD.match(lines[head])):
        return test
    branches = _chain(lines, head)
    if branches is None or condition_at(chunk, chunk.start_line + branches[0][0] - 1, loops=loops) != ("", ""):
        return test
    called = re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")
    if all(_calls_directly(lines[first : last + 1], called) for first, last in branches):
        return "", ""
    return test


def _calls_directly(body: list[str], called: re.Pattern[str]) -> bool:
    """Whether a branch's body makes the call on its own level, not inside a test or loop nested in it."""
    code = [text for text in body if text.strip() and not LONE_CLOSER.match(text)]
    depth = min((_indent(text) for text in code), default=0)
    return any(_indent(text) == depth and called.search(text) for text in code)


RETURN_VALUE = re.compile(r"^\s*(?:\}\s*)?return\b(?P<value>.*)$")
# a return that says the work failed or was refused: a guard's early exit, not another way the work ends well
FAILED_RETURN = re.compile(
    r"^\s*(?:\(?\s*(?:false|null|None|nil|undefined|Command::FAILURE)?\s*\)?\s*;?\s*$)|error|fail|abort|den(?:y|ied)|"
    r"forbidden|unauthori|not_?found|invalid|\b[45]\d\d\b|Exception|redirect",
    re.IGNORECASE,
)


def another_end(chunk: Chunk, call: int, line: int) -> bool:
    """Whether the definition in ``chunk`` returns something else that is no failure between file lines ``call`` and
    ``line``: kimai's ``TimesheetVoter.voteOnAttribute`` returns the ``_own_timesheet`` permission for one's own
    timesheet before the ``_other_timesheet`` one at its end; "then ends in" the last return tells one case as all."""
    lines = chunk.text.split("\n")
    first, last = call - chunk.start_line + 1, line - chunk.start_line
    for text in lines[max(first, 0) : max(last, 0)]:
        found = RETURN_VALUE.match(text)
        if found and not FAILED_RETURN.search(found.group("value")):
            return True
    return False
