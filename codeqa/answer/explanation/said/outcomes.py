"""The outcome of the opening: the lines of the leading sources that end the story — a status code or redirect, an
exception, a write to the session or the database, a log call — each quoted whole, with the test it sits under
("when `!response.ok`"), never a signature, and an error branch only when the question is about errors.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.calls.flow import SIGNATURE, code_part
from codeqa.answer.explanation.code import branches
from codeqa.answer.explanation.code.branches import asks_api, condition_at, no_answer, off_api_path, on_error_branch
from codeqa.answer.explanation.code.effects import SELF_WRITE
from codeqa.answer.explanation.code.embedded import heredoc_lines
from codeqa.answer.explanation.code.handled import handled_type, reraised
from codeqa.answer.explanation.code.inert import built_then_saved, quotable
from codeqa.answer.explanation.code.keylines import KeyLine
from codeqa.answer.explanation.code.linenames import apart, elsewhere, name_at
from codeqa.answer.explanation.code.saidline import outcome_said, said_line
from codeqa.answer.explanation.code.toggles import ASSIGNED, toggled
from codeqa.answer.explanation.explain import Explanation, Step
from codeqa.answer.explanation.said.told import kept_on_field
from codeqa.answer.explanation.sources.entry import off_route
from codeqa.answer.explanation.story.endings import ERROR_LINE, inline_branch, own_write
from codeqa.answer.rendering.render import code_span
from codeqa.chunk.tags import text_of
from codeqa.records import Chunk

OUTCOME_LINES = 2
OUTCOME_SOURCES = 2  # the outcome is read in the lead and the next best source
RAISED = re.compile(r"^(?:raise|throw)\s+(?=\S)")
OUTCOME_CHARS = 110  # an outcome is quoted whole or not at all: a longer line is not said as one
UNFINISHED = re.compile(r"(?:[,.\\+\-*/=&|:]|=>|\bdo|\band|\bor)\s*$")  # the statement goes on below
CLOSERS = {"(": ")", "[": "]", "{": "}"}
METHOD_SIGNATURE = re.compile(  # a typed method's head (``public ResponseEntity<JWTToken> authorize(…) {``), or a
    # class method's without a keyword (JavaScript's ``log(action) {``, not a call): no answer
    r"^\s*(?:(?:public|private|protected|internal|static|final|async|override|abstract|synchronized|suspend)\s+)+"
    r"[\w<>\[\],.? ]*\w\s*\(|^\s*(?:(?:async|static|get|set)\s+)*(?!(?:if|for|while|switch|catch|with|return|else|"
    r"function|new|await|typeof|yield)\b)[A-Za-z_$][\w$]*\s*\([^()]*\)\s*(?::\s*[\w<>\[\], |.?]+)?\{\s*$"
)
OUTCOMES = (
    ("answers with", re.compile(
        r"(?<!\.)\b(?:redirect(?:_to)?|render|abort|head)\b|(?<![Tt]emplate)\.(?:redirect|render)\s*\("  # no read
        r"|\b(?:res\.(?:status|json|send|redirect)|Response\.json|NextResponse\.\w+|"
        r"HttpResponse\w*|JsonResponse|ResponseEntity|http\.Error|WriteHeader|c\.JSON|jsonify|send_resp|put_status)\b"
        # a status set to a code (`status=404`, `status: :forbidden`, `status=status.HTTP_403_FORBIDDEN`), not a
        # field named status set to a value (`status=project.us_statuses.get(…)` in an importer's create call)
        r"|\bstatus(?:_code|Code)?\s*[:=(]\s*(?::\w+|\d{3}\b|HTTP_\w+|(?:status|HTTPStatus|HttpStatus|http|Response|"
        r"StatusCodes|HttpStatusCode)\s*(?:\.|::)\s*\w+|(?:\w+\.)+status(?:_code|Code)?\b)|\b[45]\d\d\b")),
    ("raises", re.compile(r"^\s*(?:raise|throw)\b|\bthrow new\b|\bpanic\(")),
    ("stores", re.compile(
        r"\b(?:session|cookies|Current)\b[\[.][^=(]*=[^=]|\.(?:save|create|insert|update(?!\(\s*\))|commit|persist|"
        r"increment!?|update_columns?|insertOne|updateOne)!?\(|\.(?:save|create|update)!?(?:\s|$)")),
    ("logs with", re.compile(  # a call that writes a log line: not one that configures the logger (`logger.token`)
        r"\b(?:log(?:ger)?|Log|Rails\.logger|console|slog)(?:\.|::|->|\(\)->|::channel\([^()]*\)->)(?:info|warn|"
        r"warning|error|debug|log|trace|fatal|alert|emergency|"
        r"critical|exception|notice|verbose|Info|Warn|Error|Debug|Print|Printf|Println|Fatal|Fatalf)\w*\(|"
        r"\bLog\.[deiwv]\(|(?<![\w.])log\(")),
)  # fmt: skip


# Python's `set.update(…)` / `dict.update({…})` change an object in memory (`rooms.update(b.room for b in …)`,
# `app.config.update({…})`); a query's `.update(` stores, and names its fields (`q.update(processed=now())`, `**data`)
IN_MEMORY_UPDATE = re.compile(r"\.update\(\s*(?!\*\*|\w+\s*=(?!=))")
# Elixir's data modules return a new value (`Map.update!(user, :sources, fn …)`); `Repo.update(…)` stores
ELIXIR_DATA_UPDATE = re.compile(r"\b(?:Map|Keyword|MapSet|List|Tuple|Access|Enum)\.(?:update|put|merge)\w*!?\(")
# a sign-out's answer (`SessionsController#destroy`'s `redirect_to new_session_path`) is not how signing in ends
SIGN_OUT = re.compile(
    r"(?i)(?:^|[.#:_])(?:log_?out|sign_?out|log_?off|sign_?off)\w*$|sessions?(?:controller)?[.#:]+destroy$"
)
ASKS_SIGN_OUT = re.compile(
    r"(?i)\b(?:log(?:ging)?[\s-]*out|sign(?:ing)?[\s-]*(?:out|off)|log[\s-]*off|logout|signout)\b"
)
RETURN = re.compile(r"^\s*return\b")
DEFINITION_HEAD = re.compile(
    r"^\s*(?:(?:export|public|private|protected|static|async|pub)\s+)*(?:def|function|func|fn)\b"
)


# a client store's mutation (Vuex's `store.commit('setUser', u)`) is named by a string, a transaction's `commit()` not
CLIENT_COMMIT = re.compile(r"\.commit\(\s*[\"'`]")


def _stored(chunk: Chunk, code: str, context: AnswerContext | None = None) -> bool:
    """Whether ``code``, a line of ``chunk`` matching "stores", writes something that outlives the call (a call to a
    method of the chunk's own file writes only when that method does: ``endings.own_write``)."""
    pattern = dict(OUTCOMES)["stores"]
    own = (
        context.file_chunks([chunk.path], limit=None).get(chunk.path, []) if context and SELF_WRITE.search(code) else []
    )
    if own and not own_write(chunk, text_of(own), code):
        return False
    if chunk.language == "python" and IN_MEMORY_UPDATE.search(code):
        return bool(pattern.search(IN_MEMORY_UPDATE.sub(".", code)))  # another write on the line still counts
    if chunk.language == "elixir" and ELIXIR_DATA_UPDATE.search(code):
        return bool(pattern.search(ELIXIR_DATA_UPDATE.sub(" ", code)))
    if CLIENT_COMMIT.search(code):
        return bool(pattern.search(CLIENT_COMMIT.sub(".", code)))
    return not built_then_saved(chunk, code)  # the save stores it, not the `create` that built it


def signs_out(chunk: Chunk, line: int) -> bool:
    """Whether file line ``line`` of ``chunk`` is in a sign-out (``logout``, ``SessionsController.destroy``)."""
    return bool(SIGN_OUT.search(name_at(chunk, line)))


def fallback(chunk: Chunk, line: int, code: str) -> bool:
    """Whether file line ``line`` of ``chunk`` (its code ``code``) is a definition's last resort: a ``return`` after
    deeper ``return``s that answer the same way (``return new ResponseEntity<>(PageUtil.noData(), …)`` after two
    ``return new ResponseEntity<>(userService.queryAll(…), …)`` in tests above it). The answer is the earlier ones."""
    answers = dict(OUTCOMES)["answers with"]
    own = answers.search(code)
    if not RETURN.match(code) or own is None:
        return False
    lines = chunk.text.split("\n")
    position = line - chunk.start_line
    if not 0 <= position < len(lines):
        return False
    indent = len(lines[position]) - len(lines[position].lstrip())
    for above in range(position - 1, -1, -1):
        text = lines[above]
        depth = len(text) - len(text.lstrip())
        if text.strip() and depth < indent and (DEFINITION_HEAD.match(text) or METHOD_SIGNATURE.match(text)):
            return False
        earlier = code_part(text)
        same = answers.search(earlier)
        answered = depth > indent and RETURN.match(earlier) and same and same.group(0) == own.group(0)
        # a guard's early answer (`return redirect(url_for("auth.login"))` after an error) leaves the last return
        # the one that answers when it works
        if answered and not (ERROR_LINE.search(earlier) or on_error_branch(chunk, chunk.start_line + above)):
            return True
    return False


ERROR_FIELD = re.compile(r"\b(?:err|error|e|ex|exc|exception)\.status\w*\s*=[^=]")  # an error object's field: no answer
COMPARED = re.compile(r"(?:[=!]==?|[<>]=?)\s*[45]\d\d\b|\b[45]\d\d\s*(?:[=!]==?|[<>]=?)")  # a status tested: no answer


# a definition or a callback a line sits in: it runs when called (a request's exception handler), not at start-up
OPENS_FUNCTION = re.compile(r"\bdef\s|\bfunction\b|=>|\bfn\b|\blambda\b|\bfunc\b|\bdo\s*(?:\|[^|]*\|)?\s*$")


def at_start_up(chunk: Chunk, line: int) -> bool:
    """Whether file line ``line`` of ``chunk`` is a settings file's top-level code, in no definition or callback (a
    settings file's ``raise ImproperlyConfigured(…)``, not a ``->withExceptions(function (…) {`` handler's answer):
    it runs once, when the app loads its settings, and ends no request."""
    if str(chunk.layer) != "config" or str(chunk.kind) != "module":
        return False
    lines = chunk.text.split("\n")
    position = line - chunk.start_line
    if not 0 <= position < len(lines):
        return False
    indent = len(lines[position]) - len(lines[position].lstrip())
    for text in reversed(lines[:position]):
        depth = len(text) - len(text.lstrip())
        if text.strip() and depth < indent:
            if OPENS_FUNCTION.search(text):
                return False
            indent = depth
    return True


def outcome_lines(explanation: Explanation, skip: set[tuple[str, int]]) -> list[tuple[str, Step, KeyLine]]:
    """Up to ``OUTCOME_LINES`` lines of the first open sources that end the story, one per kind of outcome."""
    found: list[tuple[str, Step, KeyLine]] = []
    errors = "errors" in explanation.intents  # else an error branch is not what happens (a 400, a raise)
    api = asks_api(explanation.question)  # then the browser's branch is not what happens either
    sign_out = bool(ASKS_SIGN_OUT.search(explanation.question))  # else a sign-out's answer is not how it ends
    context = explanation.context
    asked = (context, explanation.terms, explanation.intents, explanation.question)
    for step in explanation.best_first[:OUTCOME_SOURCES]:
        # asked about failing, an error's answer (a 404, a 500) is what happens before a success redirect is
        lines = sorted(step.lines, key=lambda line: not ERROR_LINE.search(code_part(line.text)))
        lines = lines if errors else step.lines
        for verb, pattern in OUTCOMES:
            if any(verb == other for other, _, _ in found):
                continue
            line = next((line for line in lines if (step.chunk.path, line.line) not in skip
                         and pattern.search(code_part(line.text)) and quotable(line.text) and whole(line.text)
                         and not continues(step.chunk, line.line) and line.line not in heredoc_lines(step.chunk)
                         and ("config" in explanation.intents or not at_start_up(step.chunk, line.line))
                         and not (verb == "answers with" and status_kept(pattern, code_part(line.text)))
                         and not elsewhere(step.chunk, [m.line for m in step.matches], line.line)
                         and not off_route(step.chunk, line.line, *asked)
                         and condition_at(step.chunk, line.line) is not None
                         and not (api and off_api_path(step.chunk, line.line))
                         and not (verb == "answers with" and no_answer(step.chunk, line.line, code_part(line.text)))
                         and not (verb == "answers with" and kept_on_field(code_part(line.text)))
                         and not inline_branch(code_part(line.text), step.chunk.language)
                         and not (verb == "answers with" and fallback(step.chunk, line.line, code_part(line.text)))
                         and not (verb == "stores" and not _stored(step.chunk, code_part(line.text), context))
                         and not (verb == "stores" and toggled(step.chunk, line.line, code_part(line.text)))
                         and (sign_out or not signs_out(step.chunk, line.line))
                         and (errors or not (ERROR_LINE.search(code_part(line.text))
                                             or on_error_branch(step.chunk, line.line)))
                         and not (errors and not _fails(verb, step, line))
                         and not (verb == "answers with" and (COMPARED.search(code_part(line.text))
                                                              or ERROR_FIELD.search(code_part(line.text))))),
                        None)  # fmt: skip
            if line is not None:
                found.append((verb, step, line))
                skip.add((step.chunk.path, line.line))
            if len(found) >= OUTCOME_LINES:
                return found
    return found


def _fails(verb: str, step: Step, line: KeyLine) -> bool:
    """Asked about failing, an outcome is said only when it is the failure's: a raise, an error's status or name on
    the line, a line on an error branch, or the answer of an error handler (``render_error``'s ``return``) — not a
    login's success redirect, nor what a function that raises somewhere does when it does not (``raise
    AuthenticationFailed(…)`` in an ``except``, then ``api_token.save(…)`` on success), nor another function of
    the same file (``ok()``'s ``Response.json({ ok: true })`` above ``badRequest()``)."""
    code = code_part(line.text)
    answers = [match.line for match in step.matches if match.construct.kind == "error" and not RAISED.match(match.text)
               and not apart(step.chunk, match.line, line.line)]  # fmt: skip
    handler = bool(answers) and not branches.returns_before(step.chunk, line.line, answers)  # a success branch: no
    return verb == "raises" or bool(ERROR_LINE.search(code)) or on_error_branch(step.chunk, line.line) or handler


# the statement goes on below: ``UNFINISHED`` less `:` (a block's head ends there), plus an open bracket
CONTINUED = re.compile(r"(?:[(\[,=+\-*/\\]|&&|\|\||\band|\bor)\s*$")


def continues(chunk: Chunk, line: int) -> bool:
    """Whether file line ``line`` of ``chunk`` goes on with a statement begun above it (``'template.html', vars),
    500`` below ``return base.render(``): half a statement said as an outcome reads as the whole of it."""
    above = [text for text in chunk.text.split("\n")[: max(0, line - chunk.start_line)] if text.strip()]
    return bool(above) and bool(CONTINUED.search(code_part(above[-1]).rstrip()))


def status_kept(answers: re.Pattern[str], code: str) -> bool:
    """Whether ``code`` only keeps a status number in a value (``extra_vars = {'code': [500], …}``, ``const status =
    err.status || 500``): answered later, if at all, by the line that returns it."""
    assigned, found = ASSIGNED.match(code), answers.search(code)
    number = found is not None and re.fullmatch(r"[45]\d\d", found.group(0)) is not None
    target, declared = (assigned.group("target").lower(), assigned.group("declared")) if assigned else ("", None)
    return assigned is not None and (number and "status" not in target or bool(declared) and "status" in target)


def whole(line: str) -> bool:
    """A line an outcome sentence can quote whole: a statement that ends on it (not ``res.render('signup', {``, not
    ``throw new HttpException(``), short enough not to be cut, and not a definition's signature (``def
    login_webauthn(request) -> HttpResponse:`` names a response type; it answers nothing)."""
    code = code_part(line).rstrip().removesuffix(";")
    flat = " ".join(outcome_said(line).split())
    signature = SIGNATURE.match(code) or METHOD_SIGNATURE.match(code)
    return len(flat) <= OUTCOME_CHARS and not UNFINISHED.search(code) and not signature


def closed(said: str) -> str:
    """A line that opens brackets it does not close (``res.render('signup', {``) said as the call it starts:
    ``res.render('signup', {…})``; the elision is marked, never hidden."""
    stack: list[str] = []
    for char in code_part(said):
        if char in CLOSERS:
            stack.append(CLOSERS[char])
        elif stack and char == stack[-1]:
            stack.pop()
    return f"{said.rstrip()}…{''.join(reversed(stack))}" if stack else said


def outcome_said_of(found: Sequence[tuple[str, Step, KeyLine]], *, also: bool = False) -> tuple[str, str] | None:
    """ "Then `X` answers with `…` (`path:n`)" for the outcome lines ``found``, as (markdown, plain); None for none;
    ``also``: "`X` also stores `…`" (lines that run before the one said last, in order of no story)."""
    if not found:
        return None
    md, plain = [], []
    for verb, step, line in found:
        at_md = code_span(at_plain := f"{step.chunk.path}:{line.line}")
        name = name_at(step.chunk, line.line)
        text = branches.if_init(step.chunk, line.text).rstrip().removesuffix(";")  # Go's `if x := f(); c {`: `x := f()`
        phrase, said = said_line(verb, text, 10**4)  # whole (``whole``): never cut
        said, raised = closed(said), RAISED.sub("", said)  # no `;` mid-sentence; `raise e` read as `e`
        word, condition = condition_at(step.chunk, line.line) or ("", "")  # a branch's outcome, said with its test
        when_md, when = (f" {word} {code_span(condition)}", f" {word} {condition}") if word else ("", "")
        handled = handled_type(step.chunk, line.line)  # an answer given for one exception type says that type
        if handled and handled not in condition:
            article = "an" if handled[:1] in "AEIOU" else "a"
            when_md, when = f" for {article} {code_span(handled)}{when_md}", f" for {article} {handled}{when}"
        bare = verb == "raises" and reraised(step.chunk, line.line, raised)  # `raise`, `raise e` after `except … as e`
        if bare:
            done_md, done = ("raises the error again",) * 2
        elif phrase.endswith(":"):  # the test before the quote: "answers the request when `c`: `return …`"
            done_md, done = f"{phrase[:-1]}{when_md}: {code_span(said)}", f"{phrase[:-1]}{when}: {said}"
            when_md, when = "", ""
        else:
            done_md, done = f"{phrase} {code_span(said)}", f"{phrase} {said}"
        word = "also " if also else ""
        md.append(f"{code_span(name)} {word}{done_md}{when_md} ({at_md})")
        plain.append(f"{name} {word}{done}{when} ({at_plain})")
    then = "" if also else "Then "
    return then + "; ".join(md) + ".", then + "; ".join(plain) + "."
