"""Which outcomes an opening may tell after its first sentences: "Then `X` stores `…`" goes on the story those
sentences began, so it is said only of code that story is about, never of an unrelated route beside it."""

from __future__ import annotations

import re
from collections.abc import Sequence

from codeqa.answer.explanation.code.branches import returns_before
from codeqa.answer.explanation.code.condition import exclusive
from codeqa.answer.explanation.code.keylines import KeyLine
from codeqa.answer.explanation.code.linenames import DECORATOR, holder_at, name_at, same_function
from codeqa.answer.explanation.code.toggles import ASSIGNED
from codeqa.answer.explanation.code.wrappers import CONTAINER
from codeqa.answer.explanation.constructs.mechanism import Match
from codeqa.answer.explanation.explain import Explanation, Step
from codeqa.answer.explanation.sources.entry import entry_topic, route_to
from codeqa.answer.explanation.sources.route_lines import invokable
from codeqa.records import Chunk
from codeqa.symbols import short_name


def of_named(best_first: Sequence[Step], found: list[tuple[str, Step, KeyLine]],
             said: str) -> list[tuple[str, Step, KeyLine]]:  # fmt: skip
    """The outcomes ``found`` of the leading source, and of a next one that source calls (or is called by) or the
    sentences ``said`` before cite already: "Then …; `index.ts` stores `userRepository.save(…)`" of a route the
    opening never named links unrelated code. A source cited only for what is written on its class (NestJS's
    ``@UseGuards(JwtAuthGuard)`` above ``class UserController``) lends no method's outcome: the guard covers every
    route of the class, and ``updateUser``'s ``return this.userService.update(…)`` is not how a sign-in goes on."""
    first = best_first[0] if best_first else None
    linked = {rank for rank, _ in first.calls} | {rank for rank, _ in first.called_by} if first else set()

    def called_by_first(step: Step, line: int) -> bool:  # a Ruby concern's `create_session_for(user)`, unresolved
        name = name_at(step.chunk, line).rsplit(".", 1)[-1]
        called = re.compile(rf"(?<![\w$.]){re.escape(name)}\(")
        return first is not None and len(name) > 3 and bool(called.search(first.chunk.text))

    def cited(step: Step, line: int) -> bool:
        at = re.findall(rf"(?<![\w./-]){re.escape(step.chunk.path)}:(\d+)", said)
        inside = any(step.chunk.start_line <= int(n) <= step.chunk.end_line for n in at)
        return inside and not class_wide(step, line)

    return [item for item in found if item[1] is first or item[1].rank in linked
            or called_by_first(item[1], item[2].line) or cited(item[1], item[2].line)]  # fmt: skip


def on_routed_action(found: list[tuple[str, Step, KeyLine]], lead: Step,
                     explanation: Explanation) -> list[tuple[str, Step, KeyLine]]:  # fmt: skip
    """The outcomes ``found`` less the ``lead``'s outside the action the app routes the URL asked about to, when its
    route line names that action: glific's ``post("/users/log_in", UserSessionController, :create)`` goes on with
    what ``create`` does, not with "Then `UserSessionController.new` answers with `render(conn, "new.html", …)`",
    another action of the same controller; Laravel's ``Route::get('/register', VueController::class)`` with what
    ``__invoke`` does, not with "Then `VueController.check` raises an exception"."""
    context, chunk = explanation.context, lead.chunk
    topic = entry_topic(explanation.terms, explanation.intents, explanation.question) if context else None
    route = route_to(chunk, context, topic) if context is not None and topic is not None else None
    if route is None:
        return found
    holders = {holder_at(chunk, n) for n in range(chunk.start_line, chunk.end_line + 1)} - {None}
    # the action named as a symbol or a string (`:create`, `'login'`, `"sessions#create"`, `@create`), not a path
    named = {h for h in holders if h and (re.search(rf"[:'\"#@]{re.escape(short_name(h))}\b", route.text)
                                          or short_name(h) == "__invoke" and invokable(route.text))}  # fmt: skip
    if not named:
        return found
    return [item for item in found if item[1] is not lead or holder_at(chunk, item[2].line) in named]


def after_quote(found: list[tuple[str, Step, KeyLine]], lead: Step,
                quoted: KeyLine | None) -> list[tuple[str, Step, KeyLine]]:  # fmt: skip
    """The outcomes ``found`` that may follow the opening's quote of the ``lead`` source: "Then `X` stores …" reads as
    what comes after the line quoted, so a line of the same definition above it is not said (saleor: "… is the
    closest match found: `payment, … = complete_checkout_pre_payment_part(…)` (line 1859). Then it stores
    `checkout.save(…)` (line 1850)")."""
    if quoted is None:
        return found
    holder = holder_at(lead.chunk, quoted.line)
    return [item for item in found if not (item[1] is lead and item[2].line < quoted.line
                                           and holder_at(lead.chunk, item[2].line) == holder)]  # fmt: skip


def _called_apart(step: Step, lead: Step, quoted: int) -> bool:
    """Whether every call of ``step`` the ``lead`` makes lies on another branch of a test than the lead's ``quoted``
    line: "`register` handles the request: `@user.login = …` (line 153). Then `register_automatically` stores …" tells
    as following the line quoted a call made under the test's ``else``, which that run never reaches."""
    calls = [use.line for rank, use in lead.calls if rank == step.rank and use.verb == "calls"]
    return step is not lead and bool(calls) and all(exclusive(lead.chunk, quoted, line) for line in calls)


def before_quoted(found: list[tuple[str, Step, KeyLine]],
                  said: str) -> tuple[list[tuple[str, Step, KeyLine]], list[tuple[str, Step, KeyLine]]]:  # fmt: skip
    """The outcomes ``found`` split in two: those that may come after the lines the sentences ``said`` cite
    (``path:line``), and those that run above one of them in the same function. "Then" goes on from the line cited:
    "`Delivery.create` is the closest match found: `delivery.send_webhooks` (line 20). Then `Delivery.create` stores
    `… insert("deliveries", …)` (line 16)" tells the store as coming after the webhooks it comes before; it is said
    as what the function also does (a range cited, ``path:1-67``, fixes no order)."""

    def runs_before(step: Step, line: int) -> bool:
        chunk = step.chunk
        at = [int(n) for n in re.findall(rf"(?<![\w./-]){re.escape(chunk.path)}:(\d+)(?![\d-])", said)]
        return any(same_function(chunk, line, n) for n in at if line < n <= chunk.end_line)

    before = [item for item in found if runs_before(item[1], item[2].line)]
    return [item for item in found if item not in before], before


def in_line_order(found: list[tuple[str, Step, KeyLine]]) -> list[tuple[str, Step, KeyLine]]:
    """The outcomes ``found`` with each source's in the order of its lines (the sources in their order): not "Then
    `UsersController.create` answers with `redirect_to root_url` (line 14); `UsersController.create` stores
    `@user = User.create!(user_params)` (line 12)"."""
    first = {id(step): n for n, (_, step, _) in reversed(list(enumerate(found)))}
    return sorted(found, key=lambda item: (first[id(item[1])], item[2].line))


def then_and_also(found: list[tuple[str, Step, KeyLine]], lead: Step, quoted: KeyLine | None, said: str,
                  told: Sequence[tuple[Step, Sequence[Match]]] = ()
                  ) -> tuple[list[tuple[str, Step, KeyLine]], list[tuple[str, Step, KeyLine]]]:  # fmt: skip
    """The outcomes ``found`` said with "Then" (what may follow the lines cited so far), and those said as what a
    function also does (above the ``lead``'s ``quoted`` line, or a line the sentences ``said`` cite, or where a run
    through a construct ``told`` already never goes on to), each in the order of their lines."""
    if quoted is not None:  # a callee reached on another branch than the line quoted goes on no story told
        found = [item for item in found if not _called_apart(item[1], lead, quoted.line)]
    kept = after_quote(found, lead, quoted)
    after, before = before_quoted(kept, said)
    cut = [item for item in after if _cut_off(item[1], item[2].line, told) or _above_told(item[1], item[2].line, told)]
    after = [item for item in after if item not in cut]
    return in_line_order(after), in_line_order([item for item in found if item not in kept] + before + cut)


def _cut_off(step: Step, line: int, told: Sequence[tuple[Step, Sequence[Match]]]) -> bool:
    """Whether a run through a construct ``told`` of ``step`` never reaches its file line ``line``: the construct's
    block returns first (redmine's ``lost_password`` stores the token in the session, redirects and returns; its
    ``render`` below is another request's), or the two lie in two branches of one test."""
    marks = [match.line for each, matches in told if each is step for match in matches if match.line < line]
    chunk = step.chunk
    apart = [mark for mark in marks if returns_before(chunk, mark, [line]) or exclusive(chunk, mark, line)]
    return any(same_function(chunk, mark, line) for mark in apart)


def _above_told(step: Step, line: int, told: Sequence[tuple[Step, Sequence[Match]]]) -> bool:
    """Whether file line ``line`` of ``step`` runs above a construct ``told`` of the same function: "`A` puts `mw` in
    front of the routes … (line 94). Then `A` logs with `slog.Info(…)` (line 91)" tells as coming after the
    construct a line that runs before it; it is what the function also does."""
    marks = [match.line for each, matches in told if each is step for match in matches if match.line > line]
    return any(same_function(step.chunk, line, mark) for mark in marks)


def class_wide(step: Step, line: int) -> bool:
    """Whether every construct ``step`` shows is written on a class (a decorator above its head, or the head), and
    file line ``line`` lies in that class's body: in one of its members, which the class-wide construct does not
    single out."""
    heads = [_class_head(step.chunk, match.line) for match in step.matches]
    return bool(heads) and all(head is not None and head < line for head in heads)


def _class_head(chunk: Chunk, line: int) -> int | None:
    """The file line of the class head that file line ``line`` of ``chunk`` is (or decorates, with the decorators
    between), None when it is no part of a class's head."""
    lines = chunk.text.split("\n")
    for at in range(max(0, line - chunk.start_line), len(lines)):
        if CONTAINER.match(lines[at]):
            return chunk.start_line + at
        if not DECORATOR.match(lines[at]):
            return None
    return None


# what a handler answers through: a field set on one of these is the response's (Koa's `ctx.body = await render(…)`,
# Node's `res.statusCode = 404`)
RESPONSE_HOLDERS = frozenset({"ctx", "context", "res", "response", "resp", "reply", "this", "self", "c", "w", "conn"})


def kept_on_field(code: str) -> bool:
    """Whether ``code`` keeps a value on another object's field (docmost's ``message.html = await
    render(message.template, {…})``: an e-mail's body, rendered to be sent): no answer to a request, though it
    renders."""
    assigned = ASSIGNED.match(code)
    target = assigned.group("target") if assigned else ""
    root = target.split(".", 1)[0].lstrip("@$").lower()
    return "." in target and root not in RESPONSE_HOLDERS and "status" not in target.lower()
