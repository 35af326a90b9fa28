"""How a route line names its URL and its handler: ``path('login/', views.LoginView.as_view())``,
``Route::post('login', [AuthController::class, 'login'])``, ``app.post('/login', userController.postLogin)``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.sources.entry_topics import SESSION_RESOURCE
from codeqa.symbols import IDENTIFIER, qualified_names

# a route declared with a URL first: path('login/', …), add_url_rule('/login/', …), app.post('/login', …),
# r.POST("/-/login", …), @Post('email/login'), @PostMapping(value = "/login"), get "/login", LoginController
_DECLARED = (r"(?i)(?<![\w$])(?:path|re_path|url|route|add_url_rule|get|post|any|match|handle|handlefunc|register|"
             r"\w*mapping)"
             r"""(?:\s*\(\s*(?:value\s*=\s*|path\s*=\s*)?|\s+)[rRbBuUfF]?['"`]""")  # fmt: skip
ROUTE = re.compile(_DECLARED)
DECORATOR = re.compile(r"@[\w.]+\s*\(")  # @Post('login'), @PostMapping("/login"), @auth.route("/login")
STRING = re.compile(r"""(['"`])(?:\\.|(?!\1).)*\1""")
# a handler written on the route line: `async (req, res, next) => {`, `function (req, res) {`, `lambda r:`, `fn () =>`
INLINE_HANDLER = re.compile(
    r"(?:\basync\s*)?(?:\bfunction\b\s*\w*\s*\(|\([^()]*\)\s*(?::\s*[\w<>\[\], |]+)?\s*=>|(?<![\w$.])\w+\s*=>|"
    r"\blambda\b|\bfn\s*\()"
)
# names on a route line that are the framework's plumbing, not the handler
PLUMBING = frozenset(
    {
        "as_view", "name", "methods", "method", "view", "views", "path", "re_path", "url", "route", "router",
        "get", "post", "put", "patch", "delete", "any", "match", "class", "app", "self", "this", "add_url_rule",
        "include", "uses", "middleware", "to", "as", "function", "async", "return", "new", "req", "res", "null",
        "none", "true", "false", "show", "create", "index", "value",
    }
)  # fmt: skip


def handler_names(line: str) -> list[tuple[str, str]]:
    """(qualifier, name) of the identifiers a route line names after its URL, outside strings and not called (a
    call makes the handler: ``views.LoginView.as_view()`` → ``LoginView``; ``[AuthController::class, 'login']`` →
    ``AuthController``; ``userController.postLogin`` → ``postLogin`` in ``userController``); Rails' ``resource
    :session`` names the sessions controller."""
    if SESSION_RESOURCE.search(line):
        return [("", "SessionsController")]
    declared = ROUTE.search(line)
    rest = STRING.sub(" ", line[declared.end() - 1 :] if declared else line)
    inline = INLINE_HANDLER.search(rest)
    rest = rest[: inline.start()] if inline else rest  # its parameters (`next`) name no handler: it is one
    named = []
    previous, previous_end = "", -1
    for found in IDENTIFIER.finditer(rest):
        name = found.group(0)
        joined = re.fullmatch(r"\s*(?:\.|::|->)\s*", rest[previous_end : found.start()]) if previous else None
        qualifier = previous if joined else ""
        previous, previous_end = name, found.end()
        called = re.match(r"\s*\(", rest[found.end() :]) is not None
        if name.lower() in PLUMBING or len(name) <= 2 or called or rest[: found.start()].rstrip().endswith(":"):
            continue
        named.append((qualifier, name))
    return named


# a Phoenix route names its controller and the action that handles it (`get("/login", AuthController, :login)`);
# a LiveView's (`live "/login", LoginLive, :index`) is a live action, no function
PHOENIX_ACTION = re.compile(r",\s*(?P<controller>(?:[A-Z]\w*\.)*[A-Z]\w*Controller)\s*,\s*:(?P<action>\w+[?!]?)")


# a Laravel route to an invokable controller (`Route::get('/register', VueController::class)`) runs its `__invoke`,
# none of its other methods (lychee's `VueController::check` is a private helper of another action)
LARAVEL_INVOKABLE = re.compile(r"^\s*Route::\w+\(\s*[^,()]+,\s*\\?(?:[\w\\]+\\)?(?P<controller>[A-Z]\w*)::class\s*\)")


def invokable(line: str) -> bool:
    """Whether a route line routes to an invokable controller (Laravel's ``VueController::class``): its ``__invoke``."""
    return LARAVEL_INVOKABLE.search(STRING.sub(" ", line)) is not None


def action_rows(context: AnswerContext, line: str) -> list[int] | None:
    """Rows defining the action a route line names after its URL: Phoenix's (``Auth.EmailController, :login``: a
    function ``….Auth.EmailController.login``), a Laravel invokable controller's ``__invoke``; None for a line that
    names none (or an invokable controller whose ``__invoke`` the index does not hold)."""
    code = STRING.sub(" ", line)
    found = PHOENIX_ACTION.search(code)
    invokable = LARAVEL_INVOKABLE.search(code) if found is None else None
    if found is not None:
        controller, action = found.group("controller"), found.group("action")
    elif invokable is not None:
        controller, action = invokable.group("controller"), "__invoke"
    else:
        return None
    named = f".{controller}.{action}"
    rows = context.definers.get(action.lower(), [])
    rows = [r for r in rows if any(f".{q}".endswith(named) for q in qualified_names(context.table.symbols[r]))]
    return rows if found or rows else None


def handled_inline(line: str) -> bool:
    """Whether a route line writes its handler itself, after its URL (``router.post('/login', limit, async (req,
    res) => {``): the code holding the line is the entry, not a name it lists first."""
    declared = ROUTE.search(line)
    return declared is not None and INLINE_HANDLER.search(STRING.sub(" ", line[declared.end() - 1 :])) is not None


def inline_handler_lines(text: str, start: int, line: int) -> set[int]:
    """The file lines of the route statement at file line ``line`` of a chunk (``text`` from file line ``start``):
    its line and what is indented under it, through the closer at its own indent (``})``)."""
    lines = [piece.expandtabs(4) for piece in text.split("\n")]
    head = line - start
    if not 0 <= head < len(lines):
        return set()
    indent = len(lines[head]) - len(lines[head].lstrip())
    end = head + 1
    while end < len(lines) and (not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip()) > indent):
        end += 1
    if end < len(lines) and lines[end].lstrip()[:1] in ")]}":
        end += 1  # its closer
    return set(range(line, start + end))


def plainest(lines: Sequence[tuple[str, str]], url: re.Pattern[str]) -> list[int]:
    """Indexes of the ``(path, route line)`` pairs to keep: in a file routing several sign-in URLs (``/login``,
    ``/saml/login``, ``/google/login``), the one with the fewest segments before its sign-in word is the app's own;
    the others sign in through an outside provider. Lines in files of their own are all kept."""
    depths = [_depth(text, url) for _, text in lines]
    least: dict[str, int] = {}
    for (path, _), depth in zip(lines, depths, strict=True):
        least[path] = min(depth, least.get(path, depth))
    return [i for i, ((path, _), depth) in enumerate(zip(lines, depths, strict=True)) if depth == least[path]]


def _depth(line: str, url: re.Pattern[str]) -> int:
    """How many segments a route line's URL has before its last one (``'/saml/login'``: 1, ``'/login'``: 0)."""
    found = url.search(line)
    segments = [part for part in found.group(0).strip("'\"`$").split("/") if part] if found else []
    return max(len(segments) - 1, 0)
