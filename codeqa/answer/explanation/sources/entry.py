"""The entry of sign-in: the code the app's login URL is routed to.

An app may authenticate users in several ways (a form, a header set by a proxy, an outside account, an admin acting
as someone else, an API token), and each of them can hold as many of the framework's auth constructs as the main one.
What tells the main way apart is that the app routes its sign-in URL to it: ``path('login/', LoginView.as_view())``,
``add_url_rule('/login/', 'login', RHLogin)``, ``r.POST("/-/login", auth.ProcessLogin)``,
``app.post('/login', userController.postLogin)``, ``@PostMapping("/login")`` above the method that handles it. A
line that maps a URL whose last segment is a sign-in word to a handler names the entry: the handler's definition
(found by name in the index), or, when the line names no handler defined elsewhere (a decorator or an annotation),
the code that holds the line. ``entry_rows`` finds those rows once per index; ``choose.candidates`` shows the entry
first for an auth question, the way a newcomer would follow the app from its login page.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.code.keylines import Terms
from codeqa.answer.explanation.constructs.candidate import Candidate
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.sources.entry_topics import SIGN_IN, Topic, entry_topic
from codeqa.answer.explanation.sources.route_lines import (
    DECORATOR,
    ROUTE,
    action_rows,
    handled_inline,
    handler_names,
    inline_handler_lines,
    plainest,
)
from codeqa.frameworks.conventions import Convention
from codeqa.records import Chunk, Hit
from codeqa.symbols import qualified_names

SHOWS_FORM = re.compile(r"""(?i)(?<![\w$])get(?:mapping)?\s*\(?\s*['"`]""")  # app.get('/login', …), @GetMapping
TAKES_POST = re.compile(r"""(?i)['"`]post['"`]""")  # methods=['GET', 'POST']: the route takes the form too
ROWS_READ = 400  # rows mentioning a sign-in word, read for route lines (best BM25 first)
MAX_DEFINERS = 3  # a handler name defined in more places than this is too common to be the entry
MAX_ENTRY_ROWS = 6
MAX_READ = 60  # chunks of the entry's files read for the entry's code
MAX_BROUGHT = 8  # of which at most this many are brought in as candidates
SKIP_LAYERS = ("test", "docs", "migration")
RAILS_TO = re.compile(r"""\bto:\s*["'](?P<controller>[\w/]+)#(?P<action>\w+)["']""")  # Rails: "users#create"
# a viewset's action: REST framework routes ``/auth/register`` to the method under it by the method's name
VIEWSET_ACTION = re.compile(r"^\s*@(?:list_route|detail_route|action)\b")


def _sign_in_lines(chunk: Chunk, topic: Topic = SIGN_IN) -> list[tuple[int, str]]:
    """(file line, text) of the lines of ``chunk`` that declare a route for signing in (or the ``topic``'s): a URL
    whose last segment signs in (a path, with a slash, or any under a decorator or an annotation), a route named for
    signing in, Rails' session resource."""
    lines = []
    action = False  # a viewset action's decorator is above the code line read
    for number, line in enumerate(chunk.text.splitlines(), start=chunk.start_line):
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", "//", "*", "/*", "--", "<")):
            continue
        if action and topic.action is not None and topic.action.match(line):
            lines.append((number, stripped))  # the method the action routes to: its definition line names it
        action = bool(VIEWSET_ACTION.match(line)) or (action and stripped.startswith("@"))
        declared = ROUTE.search(stripped)
        url = topic.url.match(stripped, declared.end() - 1) if declared else None
        # a URL that is a path, or under a decorator or an annotation, or given to a router's method (register)
        routed = bool(declared and url and ("/" in url.group(0) or DECORATOR.match(stripped)
                                            or stripped[: declared.start()].endswith(".")))  # fmt: skip
        named = bool(declared and topic.route_name.search(stripped))
        resource = topic.resource is not None and topic.resource.search(line)
        if routed or named or topic.registration.search(stripped) or resource:
            lines.append((number, stripped))
    return lines


def _action_rows(context: AnswerContext, line: str, topic: Topic) -> list[int]:
    """Rows of the action a route line names: Phoenix's ``get("/login", AuthController, :login)`` (that function, not
    its module's every one), Rails' ``to: "users#create"`` (the ``topic``'s): the method defined in that controller."""
    if (named := action_rows(context, line)) is not None:
        return named
    found = RAILS_TO.search(line) if topic.rails_to else None
    if found is None:
        return []
    table, controller = context.table, f"/{found.group('controller')}_controller.rb"
    rows = context.definers.get(found.group("action").lower(), [])
    return [r for r in rows if ("/" + table.paths[r]).endswith(controller) and table.layers[r] not in SKIP_LAYERS]


def _acts(line: str, topic: Topic) -> bool:
    """Whether ``line`` is the definition of a viewset action routed by its name (the code holding it handles it)."""
    return topic.action is not None and bool(topic.action.match(line))


def _definers(context: AnswerContext, qualifier: str, name: str) -> list[int]:
    """Rows defining ``name``: the ones in a file named like its qualifier (``views.login`` → ``…/views.py``,
    ``userController.postLogin`` → ``controllers/user.js``) when there are such, else all of them if they are few."""
    table = context.table
    rows = [r for r in context.definers.get(name.lower(), []) if table.layers[r] not in SKIP_LAYERS]
    parts = [p.lower() for p in re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", qualifier)]
    if not rows and parts:  # a function assigned to a module's export (``exports.postLogin = async (req, res) =>``)
        assigned = re.compile(rf"(?m)^\s*(?:[\w$]+\.)+{re.escape(name)}\s*=\s*(?:async\b\s*)?(?:function\b|\()")
        mentioning = [r for r in context.rows_mentioning(name)[:ROWS_READ] if table.layers[r] not in SKIP_LAYERS]
        near = [r for r in mentioning if all(p in table.paths[r].lower() for p in parts)]
        rows = [chunk_row for chunk in context.chunks(near) if assigned.search(chunk.text)
                and (chunk_row := context.row_of(chunk)) is not None]  # fmt: skip
    if parts:
        near = [r for r in rows if all(p in table.paths[r].lower() for p in parts)]
        if near:
            return near[:MAX_DEFINERS]
    return rows if len(rows) <= MAX_DEFINERS else []


@dataclass(frozen=True)
class Route:
    """The line that routes the sign-in URL (``path:line``, its text) to the entry's ``rows``."""

    path: str
    line: int
    text: str
    rows: tuple[int, ...]


def _routes(context: AnswerContext, topic: Topic = SIGN_IN) -> list[Route]:
    table = context.table
    rows: list[int] = []
    for word in topic.words:
        rows += [r for r in context.rows_mentioning(word)[:ROWS_READ] if r not in rows]
    rows = [r for r in rows if table.layers[r] not in SKIP_LAYERS]
    tiers: dict[int, list[int]] = {}
    routes: dict[int, list[Route]] = {}
    for chunk in context.chunks(rows):
        for number, line in _sign_in_lines(chunk, topic):
            handled = [rows for qualifier, name in handler_names(line) if (rows := _definers(context, qualifier, name))]
            named = handled[-1] if handled else []  # the last handler named: Express lists its middleware first
            named = _action_rows(context, line, topic) or named
            if (
                topic.registration.search(line)
                or _acts(line, topic)
                or (not named and DECORATOR.match(line))
                or handled_inline(line)
            ):
                # a decorator or an annotation: the code under it handles the URL; a registration: it is the entry
                row = context.row_of(chunk)
                named = [row] if row is not None else []
            entry = tiers.setdefault(_tier(line, topic), [])
            entry += [r for r in named if r not in entry]
            if named:
                routes.setdefault(_tier(line, topic), []).append(Route(chunk.path, number, line, tuple(named)))
    # the plainest word names the sign-in: a /login route is it, /auth (an OAuth callback too) only when none is
    best = min((tier for tier, entry in tiers.items() if entry), default=None)
    if best is None:
        return []
    plain = [routes[best][i] for i in plainest([(r.path, r.text) for r in routes.get(best, [])], topic.url)]
    kept = [row for row in tiers[best] if not plain or any(row in r.rows for r in plain)][:MAX_ENTRY_ROWS]
    return [Route(r.path, r.line, r.text, tuple(row for row in r.rows if row in kept)) for r in plain
            if any(row in kept for row in r.rows)] or [Route("", 0, "", tuple(kept))]  # fmt: skip


def _tier(line: str, topic: Topic = SIGN_IN) -> int:
    """How plainly a route line names signing in: /login (0) before /authenticate (2) before /auth (4); signing up:
    /register, /signup (0) before /join (4); the route that shows the form (GET) comes after the one that takes it."""
    resource = topic.resource is not None and topic.resource.search(line)
    if topic.plain.search(line) or topic.registration.search(line) or resource:
        tier = 0
    else:
        tier = 2 if re.search(r"(?i)authenticate", line) else 4
    return tier + (1 if SHOWS_FORM.search(line) and not TAKES_POST.search(line) else 0)


def sign_in_routes(context: AnswerContext, topic: Topic = SIGN_IN) -> list[Route]:
    """The lines that route the app's sign-in URL (or the ``topic``'s), with the rows of the code they route to (once
    per index)."""
    return context.table.derived(f"{topic.name} entry", lambda: _routes(context, topic))


def entry_rows(context: AnswerContext, topic: Topic = SIGN_IN) -> list[int]:
    """Rows of the code the app's sign-in URL (or the ``topic``'s) is routed to."""
    return list(dict.fromkeys(row for route in sign_in_routes(context, topic) for row in route.rows))


def route_hits(
    context: AnswerContext, leads: Sequence[Chunk], terms: Terms, intents: Sequence[str], question: str = ""
) -> list[Hit]:
    """The chunk holding the line that routes sign-in (sign-up) to the lead, as a source the opening cites (a question
    about signing in as a whole, or about signing up, only)."""
    topic = entry_topic(terms, intents, question)
    route = route_to(leads[0], context, topic) if leads and topic is not None else None
    rows = context.table.rows_by_path().get(route.path, []) if route is not None else []
    held = [c for c in context.chunks(rows) if route is not None and c.start_line <= route.line <= c.end_line]
    return [Hit(chunk, 0.0, chunk.id) for chunk in held[:1]]


def route_to(chunk: Chunk, context: AnswerContext, topic: Topic = SIGN_IN) -> Route | None:
    """The line that routes the sign-in URL (or the ``topic``'s) to ``chunk`` (the entry, or code inside it), if one
    does."""
    for route in sign_in_routes(context, topic):
        if route.path and is_entry(chunk, context, list(route.rows)):
            return route
    return None


def off_route(chunk: Chunk, line: int, context: AnswerContext | None, terms: Terms, intents: Sequence[str],
              question: str) -> bool:  # fmt: skip
    """Whether file line ``line`` of ``chunk`` lies outside the handler the app routes the sign-in URL (the asked
    topic's) to, when that handler is written on the route line inside ``chunk``: in a file of several routes, the
    OAuth callback's redirect above is not what the ``/login`` POST does."""
    topic = entry_topic(terms, intents, question)
    route = route_to(chunk, context, topic) if context is not None and topic is not None else None
    if route is None or route.path != chunk.path or not chunk.start_line <= route.line <= chunk.end_line:
        return False
    return handled_inline(route.text) and line not in inline_handler_lines(chunk.text, chunk.start_line, route.line)


def routed(chunk: Chunk, context: AnswerContext, terms: Terms, intents: Sequence[str], question: str = "") -> bool:
    """Whether the app routes the sign-in (sign-up) URL the question asks about to ``chunk``: the app's own route
    line says what it is, though no construct and no line of its holds two of the question's words."""
    topic = entry_topic(terms, intents, question)
    return topic is not None and route_to(chunk, context, topic) is not None


def _parts(qualified: str) -> list[str]:
    return [p.lower() for p in re.split(r"[.#:]+", qualified) if p]


def is_entry(chunk: Chunk, context: AnswerContext, rows: Sequence[int]) -> bool:
    """Whether ``chunk`` is (a part of) the code the sign-in URL is routed to: an entry row, a definition an entry
    row holds, or a method of a class routed to (a method routed to keeps its class's other methods out)."""
    if not rows or chunk.path not in {context.table.paths[r] for r in rows}:
        return False
    if context.row_of_location(chunk) in rows:
        return True
    defined = [_parts(q) for r in rows if context.table.paths[r] == chunk.path
               for q in qualified_names(context.table.symbols[r])]  # fmt: skip
    exact = {tuple(parts) for parts in defined if parts}
    for qualified in qualified_names(chunk.symbol):
        parts = tuple(_parts(qualified))
        if parts and any(parts[: len(entry)] == entry for entry in exact):  # the definition or one inside it
            return True
    return False


def entry_candidates(
    terms: Terms,
    context: AnswerContext,
    conventions: Sequence[Convention],
    intents: Sequence[str],
    found: Sequence[Candidate],
    question: str = "",
) -> list[Candidate]:
    """For a question about how signing in works (``about_signing_in``) or signing up (``about_signing_up``): the
    candidates that are the code the sign-in (sign-up) URL is routed to — those among ``found``, else the entry's own
    code, brought in."""
    topic = entry_topic(terms, intents, question)
    if topic is None:
        return []
    rows = entry_rows(context, topic)
    if len({context.table.paths[r] for r in rows}) != 1:
        return []  # none, or sign-in routed to several files (one per outside provider): no one entry to open on
    among = [c for c in found if is_entry(c.chunk, context, rows)]
    seen = {c.chunk.id for c in found}
    table = context.table
    # the entry's whole code: a class routed to is read method by method (``RHLogin._process``, ``AuthViewSet.create``)
    nearby = [r for path in dict.fromkeys(table.paths[r] for r in rows) for r in table.rows_by_path().get(path, [])]
    wanted = [r for r in dict.fromkeys([*rows, *nearby]) if context.in_scope(r) and table.ids[r] not in seen]
    chunks = [c for c in context.chunks(wanted[:MAX_READ]) if is_entry(c, context, rows)][:MAX_BROUGHT]
    brought = [Candidate(Hit(c, 0.0, c.id), 0.0, matches_in(c, conventions, intents), 0, False) for c in chunks]
    return [*among, *brought]


# the method of a class routed to that takes the sign-in form: DRF's and Rails' ``create``, a view's ``post``,
# Laravel's ``store``, indico's ``_process``, a single-action ``__invoke``
TAKES_THE_FORM = re.compile(r"(?i)_?(?:create|post|store|process(?:_post)?|__invoke|handle|form_valid)$")


def _after_url(line: str) -> str:
    """What a route line says after its URL (``, LoginController, :create``), where it may name the action."""
    declared = ROUTE.search(line)
    return line[declared.end() :] if declared else ""


def sign_in_handler(entered: Sequence[Candidate], context: AnswerContext, topic: Topic = SIGN_IN) -> Candidate | None:
    """Which of the entry's candidates (best first) opens the answer: the best one, unless it is the head of a class
    routed to (its permission and throttle classes), which is read method by method: the method the route line
    names, else one named for signing in, else the one that takes the sign-in form (``AuthViewSet.create``), the
    one holding more of the question's words first."""
    if not entered or entered[0].chunk.kind != "class":
        return entered[0] if entered else None
    routed = " ".join(_after_url(route.text) for route in sign_in_routes(context, topic))

    def tier(candidate: Candidate) -> int:
        first = candidate.chunk.symbol.split(",")[0]
        method = _parts(first)[-1] if "." in first and candidate.chunk.kind != "class" else ""
        if not method:
            return 3
        if re.search(rf"(?<![\w$]){re.escape(method)}(?![\w$])", routed, re.IGNORECASE):
            return 0
        return 1 if topic.named_for.search(method) else 2 if TAKES_THE_FORM.fullmatch(method) else 3

    handlers = [c for c in entered if tier(c) < 3]
    return min(handlers, key=lambda c: (tier(c), -c.evidence)) if handlers else entered[0]
