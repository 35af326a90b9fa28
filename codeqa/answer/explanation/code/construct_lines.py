"""What the lines around a construct change in what it says: a loop over literal values names them (``for code in
{401, 404}:`` above ``register_error_handler(code, …)``), a Ruby filter limited to some actions runs before those
only, and one in a method's body is registered by whoever calls that method.
"""

from __future__ import annotations

import re

from codeqa.answer.explanation.code.condition import HEADS, condition_at
from codeqa.answer.rendering.render import code_span
from codeqa.records import Chunk

LOOP_HEAD = (  # a loop over a literal list that binds ``{name}``: Python, JavaScript (for … of), Ruby (each)
    r"^\s*for\s+{name}\s+in\s+[\[{(](?P<items>[^\]})]*)[\]})]\s*:",
    r"^\s*for\s*\(\s*(?:const|let|var)\s+{name}\s+of\s+\[(?P<items>[^\]]*)\]",
    r"\[(?P<items>[^\]]*)\]\.each\s+do\s*\|\s*{name}\s*\|",
    # over a named collection, which names the values (``for code in default_exceptions:``)
    r"^\s*for\s+{name}\s+in\s+(?P<items>[A-Za-z_][\w.]*)\s*:",
    r"^\s*for\s*\(\s*(?:const|let|var)\s+{name}\s+of\s+(?P<items>[A-Za-z_$][\w$.]*)\s*\)",
    r"(?<![\w.])(?P<items>[A-Za-z_@][\w.]*)\.each\s+do\s*\|\s*{name}\s*\|",
)


def looped(chunk: Chunk, number: int, what: str, phrase: str) -> str:
    """``phrase`` with a loop variable it names (```code``` in ``for code in {401, 404}:`` above the line) said as
    the values the loop gives it (```401, 404```), or as the collection it runs over (```default_exceptions```)."""
    what = what.strip()
    if not what.isidentifier() or f"`{what}`" not in phrase:
        return phrase
    lines = chunk.text.split("\n")[: number - chunk.start_line]
    patterns = [re.compile(head.replace("{name}", re.escape(what))) for head in LOOP_HEAD]
    for line in reversed(lines[-3:]):  # the loop's head is just above the line it repeats
        found = next((hit for pattern in patterns if (hit := pattern.search(line))), None)
        if found is not None:
            items = ", ".join(" ".join(item.split()) for item in found.group("items").split(",") if item.strip())
            return phrase.replace(f"`{what}`", f"`{items}`") if items else phrase
    return phrase


# a Ruby class macro (`before_action :x`, `rescue_from X`) holds for every action only at class level: one in a
# method's body (`def require_unauthenticated_access(**options)` → `before_action :restore_authentication, **options`)
# is registered by the controllers that call that method, not before each action
RUBY_MACRO = re.compile(r"^\s*(?:prepend_|append_|skip_)?(?:before|after|around)_action\b|^\s*rescue_from\b")
RUBY_DEF = re.compile(r"^\s*def\s")
RUBY_CLASS_LEVEL = re.compile(r"^\s*(?:class|module)\s|^\s*(?:included|class_methods|prepended)\s+do\b")


# a filter limited to some actions (`before_action :set_session, only: :destroy`) runs before those, not before each;
# so does a Phoenix plug with a guard (`plug :check_oauth_config when action in [:request]`)
# (also in the older hash-rocket form: redmine's `before_action :authorize, :except => [:index, :new, :create]`)
RUBY_CONDITION = re.compile(
    r"(?<![\w:])(?:only|except|if|unless):\s*\S.*|(?<![\w:]):(?:only|except|if|unless)\s*=>\s*\S.*"
)
ELIXIR_PLUG = re.compile(r"^\s*plug[\s(]")
ELIXIR_CONDITION = re.compile(r"\bwhen\s+\S.*")
RUBY_TEST = re.compile(r"(?:if|unless):|:(?:if|unless)\s*=>")
RUBY_ACTIONS = re.compile(r"(?<![\w:])(?:only|except):|(?<![\w:]):(?:only|except)\s*=>")  # `unless: …, only: …`
# a Go router's `r.Use(mw)` inside `r.Group(func(r chi.Router) {` or `r.Route("/x", func(…) {` wraps that block
GO_USE = re.compile(r"\.Use\(")
GO_ROUTE_BLOCK = re.compile(r"\b(?P<call>\w+\.(?:Group\(|Route\(\s*\"[^\"]*\",\s*))(?=func\b)")
GO_FUNC = re.compile(r"^\s*func\b")  # a function's head: its own `r.Use` (a test above it is said by ``_under_test``)
ROUTES = re.compile(r"in front of (?:the routes|every route)")
EVERY_ACTION = re.compile(r"\b(?:each action|every controller|each request(?: it handles)?)\b")
# a router's `pipeline :browser do … end`: its plugs run on the requests of the scopes that `pipe_through` it
ELIXIR_PIPELINE = re.compile(r"^\s*pipeline\s*\(?\s*:(?P<name>\w+)")


def conditioned(chunk: Chunk, number: int, line: str, phrase: str) -> str:
    """``phrase`` with "each action" / "every controller" / "each request" narrowed to the condition a Ruby filter's
    or a Phoenix plug's line puts on it, or to the router pipeline holding the plug (file line ``number``)."""
    return _on_line(chunk, number, line, phrase)


def under_test(chunk: Chunk, number: int, phrase: str) -> str:
    """``phrase`` with " when `test`" for the one short test above file line ``number`` (``if not
    config.SERVER_MODE:`` above ``login_user(user)``: it signs the user in only then; a loop repeats the line, it does
    not test it), " on one branch only" when the tests above cannot be said in a few words."""
    found = condition_at(chunk, number, loops=True)
    if found == ("", ""):
        return phrase
    if found is None:
        return f"{phrase} on one branch only"
    word, condition = found
    return f"{phrase} {word} {code_span(condition)}"


def _on_line(chunk: Chunk, number: int, line: str, phrase: str) -> str:
    if chunk.language == "elixir" and ELIXIR_PLUG.match(line) and (pipeline := _pipeline_of(chunk, number)):
        return EVERY_ACTION.sub(f"requests piped through {code_span(':' + pipeline)}", phrase, count=1)
    if chunk.language == "ruby" and RUBY_MACRO.match(line):
        condition = RUBY_CONDITION.search(line.split(" #", 1)[0])
    elif chunk.language == "elixir" and ELIXIR_PLUG.match(line):
        condition = ELIXIR_CONDITION.search(line.split(" #", 1)[0])
    else:
        return phrase
    if condition is None:
        return phrase
    said = condition.group(0).strip()
    if RUBY_TEST.match(said) and not RUBY_ACTIONS.search(said):  # `if: :devise_controller?` tests the controller
        return EVERY_ACTION.sub(lambda every: f"{every.group(0)}, only {code_span(said)}", phrase, count=1)
    return EVERY_ACTION.sub(f"some actions ({code_span(said)})", phrase, count=1)


def grouped(chunk: Chunk, number: int, line: str, phrase: str) -> str:
    """``phrase`` narrowed to the group a Go router's ``r.Use(…)`` (file line ``number``) sits in: inside
    ``r.Group(func(r chi.Router) { … })`` or ``r.Route("/x", func …)`` it wraps that block's routes, not every route."""
    if chunk.language != "go" or not GO_USE.search(line) or not ROUTES.search(phrase):
        return phrase
    lines = chunk.text.split("\n")[: number - chunk.start_line + 1]
    if (made := _group_made(lines, line)) is not None:  # `api := r.PathPrefix("/api").Subrouter()` above `api.Use`
        prefix, at = made[0], chunk.start_line + made[1]
        return _routes(phrase, f"in front of the routes of the group under {prefix} made on line {at}")
    if (mounted := _mounted(chunk, line)) is not None:  # `r.Use(mw)`, then `router.Mount("/metrics", r)`
        prefix, at = mounted
        return _routes(phrase, f"in front of the routes of the router mounted under {prefix} on line {at}")
    if "every route" not in phrase and (made_at := _router_made(lines, line)) is not None:  # mounted out of sight
        return _routes(phrase, f"in front of the routes of {made_at[0]}, made on line {chunk.start_line + made_at[1]}")
    indent = len(lines[-1]) - len(lines[-1].lstrip()) if lines else 0
    where = "in front of the routes"  # the block it sits in is not in the chunk: every route cannot be said
    for offset, text in reversed(list(enumerate(lines[:-1]))):
        depth = len(text) - len(text.lstrip())
        if text.strip() and depth < indent:
            block = GO_ROUTE_BLOCK.search(text)
            if block is None:
                return phrase if GO_FUNC.match(text) or HEADS.match(text) else _routes(phrase, where)
            call = block.group("call").rstrip()
            said = code_span(f"{call} …)" if call.endswith(",") else f"{call}…)")
            return _routes(phrase, f"in front of the routes of the {said} block on line {chunk.start_line + offset}")
    return phrase if indent == _one_level(lines) else _routes(phrase, where)  # a function body's own statement


# the router a `.Use(…)` is called on (`api.Use(`), and a line above that makes it a group under a path prefix:
# `api := r.PathPrefix("/api").Subrouter()` (gorilla/mux), `v1 := router.Group("/v1")` (gin, echo),
# `sA := r.SubGroup("/-/settings")`; a group made without a prefix (`e.Group("")`) says no path
GO_USED_ON = re.compile(r"\b(?P<recv>\w+)\.Use\(")
GO_GROUP_MADE = (
    r"^\s*(?:var\s+)?{recv}\s*:?=\s*[\w.]+\.(?:\w*Group|Subrouter|PathPrefix|Route|Mount|\w*Prefix)"
    r"\(\s*\"(?P<prefix>/[^\"]*)\""
)


def _group_made(lines: list[str], line: str) -> tuple[str, int] | None:
    """``(prefix as code, offset)`` of the line among ``lines`` (the last one excepted) that makes the router
    ``line`` calls ``.Use`` on a group under a path prefix, the nearest above; None when no line of the chunk does."""
    used = GO_USED_ON.search(line)
    if used is None:
        return None
    made = re.compile(GO_GROUP_MADE.replace("{recv}", re.escape(used.group("recv"))))
    for offset in range(len(lines) - 2, -1, -1):
        if found := made.search(lines[offset]):
            return code_span(found.group("prefix")), offset
    return None


# a router handed whole to another one under a path (chi's `router.Mount("/metrics", r)`, a mux's
# `mux.Handle("/api/", api)`): its middleware sees the requests under that path only
GO_MOUNTED = r"\b\w+\.(?:Mount|Handle)\(\s*\"(?P<prefix>/[^\"]*)\"\s*,\s*{recv}\s*\)"


def _mounted(chunk: Chunk, line: str) -> tuple[str, int] | None:
    """``(prefix as code, file line)`` where ``chunk`` mounts the router ``line`` calls ``.Use`` on under a path
    prefix; None when it does not (the root router, or one mounted out of sight)."""
    used = GO_USED_ON.search(line)
    if used is None:
        return None
    mount = re.compile(GO_MOUNTED.replace("{recv}", re.escape(used.group("recv"))))
    for offset, text in enumerate(chunk.text.split("\n")):
        if found := mount.search(text):
            return code_span(found.group("prefix")), chunk.start_line + offset
    return None


# a router made in place (`logoutRouter := chi.NewRouter()`, `api := http.NewServeMux()`): its `Use` wraps its routes
GO_ROUTER_MADE = r"^\s*(?:var\s+)?{recv}\s*:?=\s*[\w.]+\.(?:NewRouter|NewServeMux)\(\s*\)"


def _router_made(lines: list[str], line: str) -> tuple[str, int] | None:
    """``(receiver as code, offset)`` of the line among ``lines`` above ``line`` that makes the router ``line``
    calls ``.Use`` on; None when none does."""
    used = GO_USED_ON.search(line)
    if used is None:
        return None
    made = re.compile(GO_ROUTER_MADE.replace("{recv}", re.escape(used.group("recv"))))
    at = next((n for n in range(len(lines) - 2, -1, -1) if made.search(lines[n])), None)
    return None if at is None else (code_span(used.group("recv")), at)


def _one_level(lines: list[str]) -> int:
    """The indent of a statement of a Go function's body (gofmt: one tab), by the chunk's first indented line."""
    return 1 if any(line.startswith("\t") for line in lines) else 4


def _routes(phrase: str, where: str) -> str:
    found = ROUTES.search(phrase)
    return phrase[: found.start()] + where + phrase[found.end() :] if found else phrase


def in_method(chunk: Chunk, number: int) -> bool:
    """Whether file line ``number`` of a Ruby ``chunk`` sits in a method's body (a ``def`` above it, less
    indented, before any class, module or ``included do`` head)."""
    lines = chunk.text.split("\n")[: number - chunk.start_line + 1]
    if not lines:
        return False
    indent = len(lines[-1]) - len(lines[-1].lstrip())
    for text in reversed(lines[:-1]):
        depth = len(text) - len(text.lstrip())
        if not text.strip() or depth >= indent:
            continue
        if RUBY_DEF.match(text):
            return True
        if RUBY_CLASS_LEVEL.match(text):
            return False
        indent = depth
    return False


def _pipeline_of(chunk: Chunk, number: int) -> str:
    """The name of the Phoenix router ``pipeline`` whose block holds file line ``number`` of ``chunk``, "" for none."""
    lines = chunk.text.split("\n")[: number - chunk.start_line + 1]
    if not lines:
        return ""
    indent = len(lines[-1]) - len(lines[-1].lstrip())
    for text in reversed(lines[:-1]):
        depth = len(text) - len(text.lstrip())
        if text.strip() and depth < indent:
            found = ELIXIR_PIPELINE.match(text)
            return found.group("name") if found else ""
    return ""


# a part of the app mounted under a path above the line (`app.use(mount("/api", api))`, `app.use("/api", router)`;
# not a folder of static files) answers its requests itself: a middleware added after it never sees them
PATH_MOUNT = re.compile(
    r"""(?P<app>[\w$]+)\.use\(\s*(?P<mount>(?:mount\(\s*)?["'`]/[^"'`]*["'`])\s*,(?!\s*(?:express\.)?(?:static|serveStatic)\b)"""
)
USED_ON = re.compile(r"([\w$]+)\.use\(")
EVERY_CHAIN = "every request's middleware chain"


def after_mount(chunk: Chunk, number: int, phrase: str) -> str:
    """``phrase`` with "every request's middleware chain" narrowed to the requests a path mount above file line
    ``number`` leaves (Outline's ``app.use(attachCSRFToken())`` below ``app.use(mount("/api", api))``)."""
    if EVERY_CHAIN not in phrase:
        return phrase
    lines = chunk.text.split("\n")[: max(0, number - chunk.start_line + 1)]
    used = USED_ON.search(lines[-1]) if lines else None  # the same app's mounts (not a router's, another server's)
    mounts = [found.group("mount") for line in lines[:-1]
              if (found := PATH_MOUNT.search(line)) and used and found.group("app") == used.group(1)]  # fmt: skip
    if not mounts:
        return phrase
    said = ", ".join(code_span(mount.removeprefix("mount(").strip()) for mount in dict.fromkeys(mounts))
    return phrase.replace(EVERY_CHAIN, f"the middleware chain of the requests not sent to {said} above it")
