"""What an answer may say a chunk *is*, from the chunk's own code rather than from the folder it sits in.

A chunk's layer comes from its path (``chunk.layers``): everything under ``api/`` is "api", everything under
``models/`` "model". Said as a role — "handles the request", "defines the stored data" — that guess turned false on
real-size apps: a lookup helper in an API module "handled the request", an abstract request class did too. So a role
is said only where the chunk's lines show it (a route decorator, a request parameter, a response; a column or an
association; a template), and otherwise the answer says what the parser knows for sure: a function, a method, a class.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from codeqa.answer.explanation.code.jsopened import JS_LANGUAGES, opened_definition
from codeqa.answer.explanation.code.outline import is_class_piece, wrapped_class
from codeqa.answer.explanation.said import elixirconn
from codeqa.answer.explanation.said.commands_said import ARGUMENTS, ARGUMENTS_HEAD, COMMAND
from codeqa.answer.explanation.said.markup_said import marked_up
from codeqa.answer.explanation.said.routetable import ROUTES, route_table
from codeqa.languages import CONFIG_LANGUAGES
from codeqa.records import Chunk

if TYPE_CHECKING:
    from codeqa.answer.context import AnswerContext

TEMPLATE_LANGUAGES = frozenset({"html", "erb", "haml", "slim", "pug", "vue", "svelte", "twig", "blade", "jinja"})
# a template the scanner reads as its host language (a Blade view is PHP to it): its `@action(…)`, `@include(…)` are
# template directives, no route decorators
TEMPLATE_SUFFIXES = (".blade.php",)


def template(chunk: Chunk) -> bool:
    """Whether ``chunk`` is a template's (by its language, or by a suffix whose language is the host's)."""
    return chunk.language in TEMPLATE_LANGUAGES or chunk.path.endswith(TEMPLATE_SUFFIXES)


_HANDLES = re.compile(
    r"^\s*@(?:[\w.]+\.)?(?:route|get|post|put|patch|delete|api_view|action|websocket)(?=\s*(?:\(|$))"
    r"|^\s*@(?:Get|Post|Put|Patch|Delete|Request)Mapping\b|^\s*@(?:Get|Post|Put|Patch|Delete|All)\("
    r"|\b(?:router|app|api|bp|blueprint|route)\.(?:get|post|put|patch|delete|all|route)\s*\("
    r"|\bdef \w+\(\s*(?:self,\s*)?request\b|\(\s*req\s*,\s*res\b|\$request\b|\bHttpServletRequest\b|\bconn\s*,\s*%?\{?"
    r"|\bhttp\.ResponseWriter\b|\*gin\.Context\b|\becho\.Context\b|\bfiber\.Ctx\b"
    # a response, not a route file's redirect (Laravel's `Route::redirect(…)`, Rails' `to: redirect(…)`), nor an
    # options key (`useStaticAssets(dir, { redirect: false })`): `render :json`, `Response::json(…)` are answers
    r"|(?<!Route::)(?<!to: )\b(?:render|redirect_to|redirect|respond_to|render_template|jsonify|JsonResponse|"
    r"HttpResponse\w*|ResponseEntity|NextResponse|Response)\b(?:\s*[(.]|\s*:(?=[\w:]))|\bres\.(?:json|send|status|render|redirect)\(|\bhead\s+:\w+",
    re.MULTILINE,
)
# a Go function handed a router (`func hr(r chi.Router, path string, f handlerRaw)`) registers a handler it builds; the
# closure inside takes the request, the function does not handle one
_REGISTERS_ROUTES = re.compile(
    r"\s*func\s*(?:\([^)]*\)\s*)?\w*\((?=[^)]*\b(?:chi\.Router|mux\.Router|http\.ServeMux|gin\.IRoutes|gin\.IRouter|"
    r"gin\.RouterGroup|gin\.Engine|echo\.Echo|echo\.Group|fiber\.Router)\b)(?![^)]*\bhttp\.ResponseWriter\b)"
)
# a Go function literal (gofmt writes `func(`; a named function or method has `func Name(` or `func (r *T) Name(`), and
# a head whose results name a handler or middleware type
_GO_LITERAL = re.compile(r"\bfunc\(")
_GO_RESULTS = re.compile(r"^\s*func\s*(?:\([^)]*\)\s*)?\w+\([^)]*\)(?P<results>[^{]*)")
# (a handler's or middleware's type: `http.Handler`, `echo.MiddlewareFunc`, `func(http.Handler) http.Handler`; not a
# pointer to a struct named so, which a builder returns: wakapi's `WithOptionalFor(…) *AuthenticateMiddleware`)
_HANDLER_TYPE = re.compile(r"(?<![*\w.])(?:\w+\.)?\w*(?:Handler|Middleware)")
# a route's handler by its own head: a route decorator, or a Go handler's signature (`func (a *App) X(c echo.Context)
# error`, `func X(w http.ResponseWriter, r *http.Request)`); a helper handed the request (`getID(c)`) is none
_ROUTED = re.compile(
    r"^\s*@(?:[\w.]+\.)?(?:route|get|post|put|patch|delete|api_view|websocket)\s*\(|^\s*@(?:Get|Post|Put|Patch|Delete|"
    r"Request)Mapping\b|^func\s*(?:\([^)]*\)\s*)?\w+\(\s*\w+\s+(?:echo\.Context|\*gin\.Context|\*fiber\.Ctx)\s*\)\s*error\b|"
    r"^func\s*(?:\([^)]*\)\s*)?\w+\(\s*\w+\s+http\.ResponseWriter\s*,\s*\w+\s+\*http\.Request\s*\)|"
    # an Express-style route with its handler in place: `emailAuth.post('/login', parser, function (req, res, next) {`
    r"^\s*[\w$]+\.(?:get|post|put|patch|delete|all)\(\s*['\"`]/[^'\"`]*['\"`]\s*,.*\(\s*(?:req|request|ctx)\b",
    re.MULTILINE,
)
_REQUEST_PARAMETER = re.compile(r"\bdef \w+\(\s*(?:self,\s*)?request\b")
# a PHP method handed the request: a route's action answers it, a helper that returns a bool or an array (kimai's
# ``ApiRequestMatcher::matches(Request $request): bool``, ``private function getCredentials(Request $request): array``)
# only reads it
_PHP_REQUEST_HEAD = re.compile(
    r"^\s*(?P<mods>(?:(?:public|private|protected|static|final|abstract)\s+)*)function\s+(?P<name>\w+)\s*"
    r"\((?P<params>[^)]*\$request\b[^)]*)\)\s*(?::\s*(?P<returns>\??[\w\\|]+))?",
    re.MULTILINE,
)
_SCALAR = frozenset({"bool", "array", "string", "int", "float", "iterable", "void", "null", "false", "true"})
_PYTHON_DEF = re.compile(r"^\s*(?:async\s+)?def\s")
_SELF = re.compile(r"\(\s*self\b")
_RESPONSE = re.compile(r"\w*Response\w*\s*\(|\b(?:render|redirect)\w*\s*\(|\braise\s+Http404\b")
_RENDERS = re.compile(r"\b(?:render|render_template|TemplateResponse|view)\s*\(|^\s*return\s*\(?\s*<[A-Za-z]", re.M)
# (a SQLAlchemy `class User(db.Model):`, not gorm's query `db.Model(&gist).Update(…)`; a model's base, not a method
# opening a transaction on it: `ActiveRecord::Base.transaction do`)
_STORED = re.compile(
    r"\b(?:models\.Model|db\.Model\b(?!\s*\()|declarative_base|Base\)|SQLModel|Column\(|mapped_column\(|models\.\w+Field\(|"
    r"belongs_to|has_many|has_one|has_and_belongs_to_many|(?:ApplicationRecord|ActiveRecord::Base)\b(?!\s*\.)|@Entity\b|"
    r"@Table\b|@Column\b|extends\s+(?:Model|Authenticatable|Pivot)\b|\$fillable|\$casts|mongoose\.(?:model|Schema)|"
    r"new\s+Schema\(|@Schema\(|Ecto\.Schema|schema\s+\"|gorm\.Model|^\s*model\s+\w+\s*\{|sequelize\.define|DataTypes\.|"
    r"@Document\b|@Embeddable\b)",
    re.MULTILINE,
)
# a class wrapping one table (`class Article { static save(f) { db('articles').insert(f) … } }`) is the app's model of
# it; a method that queries one (`User.refreshToken`'s `knex('users').where(…).update(…)`) defines nothing
_TABLE = re.compile(r"\b(?:db|knex|sql)\(\s*['\"]\w+['\"]\s*\)")
# translation catalogues (`public/language/ar/error.json`, `locales/de.yml`): strings shown to users, not settings
_TRANSLATIONS = re.compile(r"(?:^|/)(?:locales?|lang|languages?|i18n|l10n|intl|translations?)/")
# a setting: an UPPER_CASE name given a value, a read of the environment, a value set on a config object (Rails'
# `config.action_mailer.delivery_method = :smtp`, Flask's `app.config["SECRET_KEY"]`); not a local variable named
# `config` (an API resource's `config = dict(spec["cfg"])` for a malware configuration)
_SETTINGS = re.compile(
    r"^\s*[A-Z][A-Z0-9_]{2,}\s*[:=]|\b(?:env|getenv|os\.environ)\b"
    r"|(?:^\s*|\.)config\.[\w.]+\s*=(?!=)|\.config(?:\[|\.from_\w+\()",
    re.M,
)
# a REST framework permission class (`class CanContributeExercises(BasePermission)`) is handed the request to say yes
# or no: it decides whether the request goes on, it does not answer it
_PERMISSION_CHECK = re.compile(r"^\s*def\s+has_(?:object_)?permission\s*\(\s*self\s*,\s*request\b", re.MULTILINE)
_HANDED_REQUEST = re.compile(r"^\s*(?:async\s+)?def\s+\w+\s*\(\s*self\s*,\s*request\b", re.MULTILINE)
PERMISSION = "decides whether a request may go on (a permission check)"
KIND_PHRASES = {"function": "is a function", "method": "is a method", "class": "defines a class",
                "module": "is the file's top-level code",
                "piece": "starts inside a block that opens above it"}  # fmt: skip
_CODE_LINE = re.compile(r"^(?!\s*(?:#|//|/\*|\*|--|<!--))\s*\S")
_DEFMODULE = re.compile(r"^\s*defmodule\s", re.MULTILINE)
# a named scope the chunk opens (Ruby `module JobsHelper`, Rust `pub mod auth {`): a module, not the file's top level
# the chunk's first type declaration: what kind of type it defines
_DECLARES = re.compile(
    r"^\s*(?:export\s+)?(?:(?:public|private|protected|internal|abstract|final|sealed|static|default|readonly|"
    r"pub(?:\([\w:]+\))?)\s+)*"
    r"(interface|class|trait|enum|record|struct)\s+\w",
    re.MULTILINE,
)
_GO_TYPE = re.compile(r"^\s*type\s+\w+(?:\[[^\]]*\])?\s+(struct|interface)?", re.MULTILINE)
_NAMED_MODULE = re.compile(r"^\s*(?:module\s+[A-Z]|(?:pub(?:\([\w:]+\))?\s+)?mod\s+\w+\s*\{)", re.MULTILINE)


def starts_inside(chunk: Chunk) -> bool:
    """Whether a chunk of no definition starts indented, inside a block opened above it (``\ttry {`` in the middle
    of ``authenticationController.onSuccessfulLogin``; gofmt indents nothing at Go's top level, so a Go chunk opening
    on ``\tdata := insights.Data{`` is the rest of a ``sync.OnceValue(func() …`` above it): not the top-level code."""
    if chunk.language not in JS_LANGUAGES and chunk.language != "go":  # a PHP config's `return [` array, a
        return False  # `->withExceptions(…)` chain: the top
    first = next((line for line in chunk.text.split("\n") if _CODE_LINE.match(line)), "")
    return first[:1].isspace() and not first.lstrip().startswith((".", "->", "?."))


def _code(text: str) -> str:
    """``text`` with its comment lines blanked: a comment's words (halo's ``/** Custom template descriptors grouped by
    the content type they render. */`` over a ``@Data`` class) show no role, the code does."""
    return "\n".join(line if not line.strip() or _CODE_LINE.match(line) else "" for line in text.split("\n"))


def _head(text: str) -> str:
    """The first code line of a chunk (a definition's head)."""
    return next((line for line in text.split("\n") if _CODE_LINE.match(line)), "")


def _handles_request(chunk: Chunk) -> bool:
    """Whether ``chunk``'s code shows it handles a request. A Python ``request`` parameter alone shows that only in
    the head of the definition the chunk is (not a closure it registers: ``register_debug_handler(app)``'s
    ``async def validation_exception_handler(request, exc)``), and of a function only with a response to give (not
    ``is_api_request(request)``, which returns a bool)."""
    text = _code(chunk.text)
    found = [match.group(0) for match in _HANDLES.finditer(text)] if not template(chunk) else []
    if not found or _REGISTERS_ROUTES.match(_head(text)):
        return False
    if chunk.language == "go" and not _go_handles(text):
        return False
    if chunk.language == "elixir" and not elixirconn.answers(text, found):
        return False
    if all(match == "$request" for match in found) and not _php_answers(text):
        return False
    if not all(_REQUEST_PARAMETER.search(match) for match in found) or str(chunk.kind) == "class":
        return True  # a route, a response; or a class's methods handed the request (a Django view's `get`)
    head = next((line for line in text.split("\n") if _PYTHON_DEF.match(line)), "")  # below its decorators
    return bool(_REQUEST_PARAMETER.search(head)) and (bool(_SELF.search(head)) or bool(_RESPONSE.search(text)))


def _go_handles(text: str) -> bool:
    """Whether a Go chunk's request is its own: a sign of one outside every function literal it opens, or a head that
    returns a handler (a middleware factory: ``func spaFallbackMiddleware(fs fs.FS) echo.MiddlewareFunc {``). memos'
    ``NewServer`` registers ``echoServer.GET("/healthz", func(c *echo.Context) error {…})``: the literal handles that
    request, the function builds the server."""
    lines = text.split("\n")
    inside: set[int] = set()
    for at, line in enumerate(lines):
        if not _GO_LITERAL.search(line) or at in inside:
            continue
        indent = len(line) - len(line.lstrip())
        end = next((n for n in range(at + 1, len(lines)) if lines[n].strip().startswith("}")
                    and len(lines[n]) - len(lines[n].lstrip()) <= indent), len(lines) - 1)  # fmt: skip
        inside |= set(range(at, end + 1))
    own = [at for at, line in enumerate(lines) if at not in inside and _HANDLES.search(line)]
    results = _GO_RESULTS.match(_head(text))
    return bool(own) or (results is not None and bool(_HANDLER_TYPE.search(results.group("results"))))


def _php_answers(text: str) -> bool:
    """Whether a PHP chunk whose only sign of a request is ``$request`` shows a method that answers it: one handed
    ``$request`` that is public (or returns a response), not a constructor, and returns no bool, array or string.
    With no such head in view (a method's body cut from its head), the request is taken as handled."""
    heads = [head for head in _PHP_REQUEST_HEAD.finditer(text) if head.group("name") != "__construct"]
    if not heads:
        return not _PHP_REQUEST_HEAD.search(text)
    for head in heads:
        returns = (head.group("returns") or "").lstrip("?").lower()
        hidden = re.search(r"\b(?:private|protected)\b", head.group("mods"))
        if "response" in returns or not (hidden or returns and set(returns.split("|")) <= _SCALAR):
            return True
    return False


def role_phrase(chunk: Chunk, layer_verbs: dict[str, str], fallback: str, context: AnswerContext | None = None) -> str:
    """The verb phrase for ``chunk``: its layer's role where its code (or its file, in ``context``) shows that role,
    else what it is."""
    layer, text = str(chunk.layer), _code(chunk.text)
    shown = {
        "api": lambda: _handles_request(chunk),
        "view": lambda: (template(chunk) and marked_up(chunk, context)) or bool(_RENDERS.search(text)),
        "model": lambda: bool(_STORED.search(text)) or (str(chunk.kind) == "class" and bool(_TABLE.search(text))),
        "cli": lambda: bool(COMMAND.search(text)),
        "config": lambda: (
            not _TRANSLATIONS.search(chunk.path)
            and (chunk.language in CONFIG_LANGUAGES or bool(_SETTINGS.search(text)))
        ),
    }
    kind = "function" if opened_definition(chunk) else str(chunk.kind)  # ``Groups.getMembers = async function (``
    if kind == "module" and starts_inside(chunk):
        kind = "piece"  # not "the file's top-level code": a function body's rest, a `define(…)` wrapper's functions
    if layer == "cli" and ARGUMENTS_HEAD.match(_head(text)):
        return ARGUMENTS
    if chunk.language == "python" and _checks_permission(text):
        return PERMISSION
    if layer in ("service", "core"):  # "implements the logic": of what was asked, nothing shows
        return _kind_phrase(chunk, kind, fallback)
    if layer in ("util", "cli") and "api" in layer_verbs and not shown["cli"]() and _ROUTED.search(text):
        return layer_verbs["api"]  # a route's handler in a `tools/` or `cmd/` folder: not "a helper"
    if "api" in layer_verbs and route_table(chunk):  # `app.get('/api', apiController.getApi)` and more like it
        return ROUTES
    if layer in layer_verbs and (layer not in shown or shown[layer]()):
        return layer_verbs[layer]
    if layer == "view" and "api" in layer_verbs and shown["api"]():  # a redirect handles the request, renders nothing
        return layer_verbs["api"]
    return _kind_phrase(chunk, kind, fallback)


def _checks_permission(text: str) -> bool:
    """Whether every method of ``text`` handed the request is a permission check (``has_permission``)."""
    handed = _HANDED_REQUEST.findall(text)
    return bool(handed) and all(_PERMISSION_CHECK.match(head) for head in handed)


def _kind_phrase(chunk: Chunk, kind: str, fallback: str) -> str:
    """What kind of definition ``chunk`` is; Elixir has modules and functions, no classes or methods."""
    if chunk.language == "elixir" and kind == "class":
        return "defines a module" if _DEFMODULE.search(chunk.text) else "is part of a module"
    if chunk.language == "elixir" and kind == "method":
        return KIND_PHRASES["function"]
    if kind == "module" and wrapped_class(chunk):  # `module Api` / `class Orders`: the class the chunk is named after
        return KIND_PHRASES["class"]
    if kind == "module" and chunk.symbol and _NAMED_MODULE.search(chunk.text):
        return "defines a module"
    declared = _DECLARES.search(chunk.text) if kind == "class" else None
    if declared is not None and declared.group(1) == "interface":  # a PHP, Java or TypeScript interface: no class
        return "defines an interface"
    if kind == "class" and chunk.language == "go":  # Go has no classes: `type Campaigns []Campaign`, a struct
        typed = _GO_TYPE.search(chunk.text)
        return {"struct": "defines a struct", "interface": "defines an interface"}.get(
            typed.group(1) if typed else "", "defines a type"
        )
    if declared is not None and chunk.language == "rust":  # Rust has no classes: `pub enum ApiError`, a struct, a trait
        return {"enum": "defines an enum", "struct": "defines a struct", "trait": "defines a trait"}.get(
            declared.group(1), KIND_PHRASES[kind]
        )
    return KIND_PHRASES.get(kind, fallback)


def shows_role(chunk: Chunk, layer_verbs: dict[str, str], context: AnswerContext | None = None) -> bool:
    """Whether ``role_phrase`` says a role of ``chunk`` (not only what kind of definition it is)."""
    return role_phrase(chunk, layer_verbs, "", context) in layer_verbs.values()


def held_role(chunk: Chunk, role: str, holder: str | None) -> str:
    """``role`` as said of the definition the answer names the chunk after: a method's piece of its class is "part of
    the class"; a chunk the chunker took for its class but whose lines are all one method's (huginn's ``private def
    extract_emitted_events!``, named after that ``holder``) is a method, not "defines a class"."""
    if role == KIND_PHRASES["method"] and is_class_piece(chunk):
        return "is part of the class"
    if holder and role == KIND_PHRASES["class"] and holder.rpartition(".")[2][:1].islower():
        return KIND_PHRASES["method"] if "." in holder else KIND_PHRASES["function"]
    if holder and role in TYPE_PHRASES:  # Go's `type smtpBackend struct` above `func newMailBackend(…)`: the lines
        # shown are the function's, named after it; it defines no struct (a Go or Rust type may be lowercase too)
        head = re.compile(_FUNCTION_HEAD.replace("{name}", re.escape(holder.rpartition(".")[2])), re.MULTILINE)
        if (found := head.search(chunk.text)) is not None:
            return KIND_PHRASES["method"] if found.group("receiver") or "." in holder else KIND_PHRASES["function"]
    return role


TYPE_PHRASES = frozenset({"defines a struct", "defines an interface", "defines a type", "defines an enum",
                          "defines a trait"})  # fmt: skip
# a Go `func (b *smtpBackend) NewSession(` or `func newMailBackend(`, a Rust `pub async fn name(`
_FUNCTION_HEAD = (
    r"^\s*(?:func\s+(?P<receiver>\([^)]*\)\s*)?|(?:pub(?:\([\w:]+\))?\s+)?(?:const\s+)?(?:async\s+)?"
    r"(?:unsafe\s+)?fn\s+){name}\s*[(<\[]"
)
