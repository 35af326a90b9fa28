"""Where a step of a flow ends: the outcome line of one definition, by kind — the user signed in or a token issued, a
queued job, a write to the store, a response, a return of something — on the success path (or, asked about failing,
the failure's answer), never a signature, a getter's field, a guard's early exit or a line of an error branch.

``definition_lines`` finds a function's lines inside a chunk by its head (after any modifiers, in every language the
index chunks) and its indentation; ``outcome_of`` reads them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from codeqa.answer.explanation.calls.flow import SIGNATURE, code_part
from codeqa.answer.explanation.code.branches import off_api_path
from codeqa.answer.explanation.code.effects import ISSUES_TOKEN, QUEUES_JOB, SELF_WRITE, SIGNS_IN, STORES
from codeqa.answer.explanation.code.embedded import heredoc_lines
from codeqa.answer.explanation.code.keylines import COMMENT
from codeqa.answer.explanation.code.outline import display_name
from codeqa.answer.explanation.code.switches import switched_off_at
from codeqa.answer.explanation.story.exits import early_exit, one_of_many_cases, two_cases
from codeqa.records import Chunk
from codeqa.symbols import short_name

OUTCOME_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("signs the user in with", SIGNS_IN),
    ("issues a token with", ISSUES_TOKEN),
    ("queues a job with", QUEUES_JOB),
    ("stores with", STORES),
    ("answers with", re.compile(
        r"\b(?:redirect(?:_to)?|render_template|_?jsonify\w*|res\.(?:json|send|render|redirect)|Response\.json|"
        r"HttpResponse\w*|JsonResponse|ResponseEntity\.ok|c\.JSON|send_resp|make_response)\b|"
        # a render that answers the request (Django's ``render(request, …)``, Rails' ``render json:``, a view's
        # ``.render(…)``), not a helper rendering an email's body (``render(f"emails/{name}.html", ctx)``) nor a
        # template object's (Jinja's ``template.render(formatting)`` makes a string)
        r"\brender\s*\(\s*(?:request|req|conn)\b|\|>\s*render\b|(?:^|[\s;])render\s+[:@\w\"']|"
        r"\brender\s*\(\s*(?:json|status|plain|html|template|partial|action|view|inertia)\s*:|"
        r"(?<![Tt]emplate)(?<![Tt]mpl)[.:]render\s*\(")),
    ("returns", re.compile(r"^\s*return\b\s*\S")),
)  # fmt: skip
ERROR_LINE = re.compile(
    r"^\s*(?:raise|throw)\b|\babort\(|\b[45]\d\d\b|\b(?:error|errors|fail\w*|invalid|denied|forbidden|unauthori[sz]ed|"
    r"not_?found|NotFound|Forbidden|Unauthori[sz]ed|BadRequest)\b|"
    r"\berr\s*!=\s*nil\b",  # Go's error test: `if err != nil { return err }` is the way out on failure
    re.IGNORECASE,
)
TRIVIAL = re.compile(  # says nothing, is a getter's field, or is cut at an open bracket (the statement goes on below)
    r"^\s*return\s*(?:None|True|False|nil|null|undefined|self|this|\$this|\w{1,2})?\s*;?\s*$|^.*[\[({]\s*$|"
    r"^\s*return\s+(?:\$this->|self\.|this\.|@)\w+\s*;?\s*$"
)
# an answer or a return cut at a bracket is left out as before: which of a view's answers is the success's is read
# from whole statements (a form's re-render after its `if valid: … return` block is cut at `{` too)
ANSWERS = frozenset({"answers with", "returns"})
OPEN_AT_END = re.compile(r"([\[({])\s*$")
CLOSERS = {"(": ")", "[": "]", "{": "}"}
GUARD = re.compile(r"^\s*return\b(?!.*\belse\b).*\s(?:if|unless)\s")  # ``return nil unless ready``: an early exit
# a one-line branch, its statement on the test's line (``if (redirect) response.redirect(url);``, ``else res.send(…)``)
INLINE_BRANCH = re.compile(r"^\s*(?:\}\s*)?(?:(?:else\s+)?if\s*\(.*\)\s*[^\s{]|else\s+(?!if\b)[^\s{])")
# Ruby's ``redirect_to first_run_url if User.none?``: an answer only when its modifier holds, said without it
RUBY_MODIFIER = re.compile(r"\S\s+(?:if|unless)\s+\S")
RETURN = re.compile(r"^\s*return\b")  # a return going on below is cut short, not skipped
FAILING_NAME = re.compile(r"(?i)error|fail|exception|invalid|denied|reject|abort|throw|unauthori")
ERROR_BLOCK = re.compile(r"^\s*(?:except\b|rescue\b|catch\b|\}\s*catch\b|else\s*:|if\s+not\b|unless\b)")


NONE: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Outcome:
    verb: str  # "signs the user in with", "issues a token with", "queues a job with", "stores with", "returns", …
    chunk: Chunk
    name: str  # the definition the line is in
    line: int
    text: str


def _name_of(chunk: Chunk) -> str:
    return display_name(chunk).split(" (+", 1)[0]


# the line that defines function ``{name}``: ``def``/``function``/``func``/``fn`` after any modifiers (``export async
# function``, ``public static function``, Ruby's ``def self.``, Go's receiver), a JS function or arrow bound to a
# ``const``, or a method's shorthand head (``async login(dto) {``)
_HEAD = (
    r"^(\s*)(?:(?:export|default|public|private|protected|internal|static|async|final|abstract|override)\s+)*"
    r"(?:(?:def|function|func|fn)\s+(?:self\.|\([^)]*\)\s*)?{name}\b"
    r"|(?:const|let|var)\s+{name}\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|\(|[\w$]+\s*=>)"
    r"|{name}\s*\([^;]*\)\s*(?::\s*[^{{;]+)?\{{\s*$"
    # a method whose parameters go on below (``private async getTokensData(data: {``), after a modifier: a bare
    # ``name(`` at a line's start may be a call
    r"|(?<=[a-z]\s){name}\s*(?:<[^>]*>)?\s*\([^)]*$)"
)


def definition_lines(chunk: Chunk, name: str) -> list[tuple[int, str]]:
    """(file line, text) of the function ``name`` inside ``chunk`` (by its indentation); nothing when it is not a
    function defined there (a class: its constructor call is not where anything ends); the whole chunk for no name."""
    lines = chunk.text.split("\n")
    short = short_name(name) if name else ""
    head = re.compile(_HEAD.format(name=re.escape(short))) if short else None
    for index, line in enumerate(lines):
        found = head.match(line) if head else None
        if found is None:
            continue
        indent, body = len(found.group(1)), [(chunk.start_line + index, line)]
        for offset, after in enumerate(lines[index + 1 :], start=index + 1):
            if (
                after.strip()
                and len(after) - len(after.lstrip()) <= indent
                and not after.lstrip().startswith((")", "{", "})"))  # a signature's end: `}) {`
            ):
                break
            body.append((chunk.start_line + offset, after))
        return body
    return [] if short else [(chunk.start_line + n, line) for n, line in enumerate(lines)]


def _cut_short(text: str, code: str) -> str:
    """A statement that goes on below, said with the rest left out: ``create({`` → ``create({…})`` (the brackets
    counted on ``code``, the line without its strings and comment)."""
    unclosed: list[str] = []
    for char in code:
        if char in CLOSERS:
            unclosed.append(CLOSERS[char])
        elif unclosed and char == unclosed[-1]:
            unclosed.pop()
    return text.strip() + "…" + "".join(reversed(unclosed))


def _opens_more(code: str) -> bool:
    """Whether ``code`` (a line without its strings) opens more brackets than it closes."""
    depth = 0
    for char in code:
        depth += char in CLOSERS
        depth -= char in CLOSERS.values()
    return depth > 0


def _in_error_branch(body: Sequence[tuple[int, str]], position: int) -> bool:
    """Whether line ``position`` of ``body`` sits in a block opened by an ``except``/``catch``/``else``/``if not`` or
    in a block whose opening condition names an error (the nearest less-indented lines above it)."""
    return any(
        ERROR_BLOCK.match(head) or (re.match(r"^\s*(?:if|elif|unless)\b", head) and ERROR_LINE.search(head))
        for head in _heads_above(body, position)
    )


def _heads_above(body: Sequence[tuple[int, str]], position: int) -> Iterator[str]:
    """The heads of the blocks line ``position`` of ``body`` sits in, innermost first: each nearest line above it
    indented less than the last (blank and comment lines skipped)."""
    text = body[position][1]
    indent = len(text) - len(text.lstrip())
    for _, above in reversed(body[1:position]):
        if not above.strip() or COMMENT.match(above):
            continue
        depth = len(above) - len(above.lstrip())
        if depth < indent:
            yield above
            indent = depth


CASE_BLOCK = re.compile(r"^\s*(?:\}\s*)?(?:if|elif|elsif|else\s+if|else|case|when)\b")


SWITCH_CASE = re.compile(r"^\s*(?:case\b.*|default\s*):\s*\{?\s*$")


def _under(body: Sequence[tuple[int, str]], position: int, head: re.Pattern[str]) -> bool:
    """Whether the nearest line above ``position`` indented less than it (its block's head) matches ``head``."""
    nearest = next(_heads_above(body, position), None)
    return nearest is not None and bool(head.match(nearest))


# a function opened inside a definition: anonymous (Go's `func() (Scrobbler, bool) {`, JavaScript's `function (x) {`
# or `(x) => {`, PHP's `function ($join) use ($user) {`, Java's `x -> {`) or a local one (`def clean(row):`)
LITERAL = re.compile(r"\bfunc\s*\(|\bfunction\s*\(|=>\s*\{|->\s*\{|^\s*(?:async\s+)?(?:def|function|func|fn)\s+\w")
ELSE = re.compile(r"^\s*(?:\}\s*)?else\s*(?:\{|:)\s*$")  # the head of an `else` block (`} else {`, `else:`)


def _in_literal(body: Sequence[tuple[int, str]], position: int) -> bool:
    """Whether line ``position`` of ``body`` sits in a function opened inside the definition (a callback handed to
    a call, a local function): its ``return`` ends that function, not the definition (navidrome's
    ``refreshPluginScrobblers`` returns nothing; the loader closure it builds returns ``loader.LoadScrobbler(…)``)."""
    return any(LITERAL.search(code_part(head)) for head in _heads_above(body, position))


def _one_case_of_several(body: Sequence[tuple[int, str]], position: int) -> bool:
    """Whether line ``position`` of ``body`` is a statement written again, word for word, elsewhere in the definition
    and sits in a branch (``elif action['type'] == "createCard":``): each case's effect, not the step's."""
    code = code_part(body[position][1]).strip()
    if sum(1 for _, text in body if code_part(text).strip() == code) < 2:
        return False
    text = body[position][1]
    indent = len(text) - len(text.lstrip())
    for _, above in reversed(body[1:position]):
        if not above.strip() or COMMENT.match(above):
            continue
        if len(above) - len(above.lstrip()) < indent:
            return bool(CASE_BLOCK.match(above))
    return False


def outcome_of(
    chunk: Chunk,
    name: str,
    after: int = 0,
    *,
    api: bool = False,
    errors: bool = False,
    off: frozenset[str] = NONE,
    own: str = "",
) -> Outcome | None:
    """The success outcome in definition ``name`` of ``chunk`` (after file line ``after``): the first kind found of
    ``OUTCOME_KINDS``, its least-indented and then last line outside the error branches (and, asked about an API,
    outside the branch for a browser), never a guard's early exit. Asked about failing (``errors``), the failure's
    answer instead: a line naming an error or on an error branch, or any line of a failing helper
    (``respondWithError``). A line in a branch on a parameter the call switches ``off`` is not reached; a call to a
    method of the chunk's file (its text ``own``) writing nothing is no write (``own_write``)."""
    body = definition_lines(chunk, name)
    data = heredoc_lines(chunk)  # a heredoc's text is handed on, not run (`throw new` in a Ruby method's `<<-JS`)
    cases = two_cases(body)
    for verb, pattern in OUTCOME_KINDS:
        found = []
        for position, (number, text) in enumerate(body):
            if position == 0 or number <= after or not text.strip() or COMMENT.match(text) or number in data:
                continue
            code = code_part(text)
            if (
                not pattern.search(code)
                or SIGNATURE.match(code)
                or (code.rstrip().endswith(",") and not RETURN.match(code))
            ):
                continue  # a parameter or an item of a list (`redirect = false,` in a signature): no statement
            cut = OPEN_AT_END.search(text) if verb not in ANSWERS else None  # the call goes on below: said short
            if TRIVIAL.match(code) and cut is None:
                continue
            failing = bool(ERROR_LINE.search(code)) or _in_error_branch(body, position)
            if failing != errors and not (errors and FAILING_NAME.search(short_name(name or ""))):
                continue  # what happens when it works; asked about failing, the failure's answer (or its helper's)
            if GUARD.match(code) or inline_branch(code) or (off and switched_off_at(body, position, off)):
                continue
            if verb == "stores with" and not own_write(chunk, own, code):
                continue  # `this.update(entries)` in a class that defines `update`: its own loop over a map
            if verb not in ANSWERS and _one_case_of_several(body, position):
                continue  # a write each case repeats (`createCard`, `copyCommentCard`) is no step's outcome
            if verb == "returns" and _under(body, position, SWITCH_CASE):
                continue  # what one `case "reset":` returns is not what a call with "access" gets
            if verb == "returns" and (_in_literal(body, position) or (not errors and _under(body, position, ELSE))):
                continue  # a closure's `return` leaves the closure; an `else`'s is one ending of two (as `else:` is)
            if verb == "returns" and not errors and early_exit(body, position):
                continue  # `if ($cached) { return $cached; }` above the fetch: the definition goes on below it
            if verb == "returns" and not errors and position in cases:
                continue  # `if flat: return taxed(…)` then `return untaxed`: each one ending of two, as with `else`
            if verb == "returns" and not errors and one_of_many_cases(body, position):
                continue  # `if … elseif … else`, each returning: the test decides, no case is where it ends
            if api and off_api_path(chunk, number):
                continue
            # a return whose expression goes on below (``return group_list(query, key=…,``) is said cut short too,
            # the elision marked: half a line quoted as the answer reads as the whole of it (round 8)
            said = _cut_short(text, code) if cut or (verb in ANSWERS and _opens_more(code)) else text.strip()
            found.append((len(text) - len(text.lstrip()), -number, number, said))
        if found:
            _, _, number, text = min(found)
            return Outcome(verb, chunk, name or _name_of(chunk), number, text)
    return None


def own_write(chunk: Chunk, own: str, code: str) -> bool:
    """Whether a write-named call on the object itself (``this.update(…)``, ``self.save()``) in ``code``, a line of
    ``chunk``, writes: a method of that name in the file's text ``own`` is the one called (a class's own method, not
    a record's), and it writes only when a line of its own does. Any other line is taken as it reads."""
    called = SELF_WRITE.search(code)
    file = Chunk(chunk.path, chunk.language, 1, own.count("\n") + 1, own, "", chunk.kind, chunk.layer)
    body = definition_lines(file, called["name"]) if called and own else []
    return not body or any(STORES.search(code_part(text)) for _, text in body[1:])


def inline_branch(code: str, language: str = "") -> bool:
    """Whether ``code`` is a branch and its statement in one line: quoted as an outcome it reads "answers with `if
    (redirect) response.redirect(…)`", the test pasted into the sentence and said as if it always held."""
    if language == "ruby":
        return bool(RUBY_MODIFIER.search(code))
    return bool(INLINE_BRANCH.match(code)) and not code.rstrip().endswith("{")


def ending_rank(outcome: Outcome | None) -> int:
    """How well a walk ends: in a sign-in, a token, a queued job, a write or a response (2), in a plain return (1), in
    nothing (0)."""
    return 0 if outcome is None else 1 if outcome.verb == "returns" else 2
