"""False and misleading on listmonk (Go Echo), pgadmin4 (Flask), DocuSeal (Rails) and Snipe-IT (Laravel), apps in no
data set, found by earlier probes and re-asked:

- listmonk, "Where would I add logging to track user behavior?": no "Where to add it" — Echo's ``e.Use(…)`` and
  ``srv.Use(func(next echo.HandlerFunc) echo.HandlerFunc {`` were not known as every request's middleware (nor was
  ``g := e.Group("", a.auth.Middleware, …)`` known as a group's), and ``e.Pre(mw)`` was said to "log every request";
- pgadmin4, how authentication flows: "``create_app.before_request`` … signs the user in (``login_user``)" — it does
  so only in desktop mode, under ``if not config.SERVER_MODE and not current_user.is_authenticated:``;
- pgadmin4: "**Where to add it:** in ``create_app.before_request`` …" without "because" whenever the reason was said
  anywhere before, of any code;
- pgadmin4: "``create_app (+2)`` … Its documentation says: “Inject a reference to the current blueprint”": the
  docstring of ``inject_blueprint``, nested in the piece of ``create_app``'s body;
- DocuSeal: "(a filter in ``ApplicationController``)" three times in one sentence; and "``McpBaseController`` …
  turns ``ActiveRecord::RecordNotFound`` into a response" when it rescues ``CanCan::AccessDenied`` too (said first
  of ``ApiBaseController``, it was left out of the second controller's phrase);
- Snipe-IT, the logging question: "Where to add it" pointed at ``$middlewareGroups`` (the web/api groups) while the
  Kernel's global ``$middleware`` list, one piece above, is what every request passes through.
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.code.branches import condition_at
from codeqa.answer.explanation.code.outline import summary
from codeqa.answer.explanation.constructs.mechanism import Match, matches_in
from codeqa.answer.explanation.explain import explain
from codeqa.answer.explanation.said.conclusion import _said_of
from codeqa.answer.explanation.said.phrasing import merged, said_whole
from codeqa.chunk import chunk_file
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk, Hit, SourceFile

LOGGING = "Where would I add logging to track user behavior?"
AUTH = "How does user authentication flow through the system?"

HANDLERS = """func initHTTPHandlers(e *echo.Echo, a *App) {
	// Configure CORS middleware if domains are configured.
	if corsOrigins := trustedURLsToCORSOrigins(a.cfg.Security.TrustedURLs); len(corsOrigins) > 0 {
		e.Use(middleware.CORSWithConfig(middleware.CORSConfig{
			AllowOrigins: corsOrigins,
		}))
	}

	// Attach a middleware to the group that checks for auth.
	g := e.Group("", a.auth.Middleware, func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			return next(c)
		}
	})
	g.Use(a.auth.Perm)
	e.Pre(middleware.RemoveTrailingSlash())
	e.Use(middleware.Recover())
}"""
SERVER = """	var srv = echo.New()
	srv.HideBanner = true

	// Register app (*App) to be injected into all HTTP handlers.
	srv.Use(func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			c.Set("app", app)
			return next(c)
		}
	})"""


def _go(text: str, start: int, symbol: str) -> dict[int, Match]:
    chunk = Chunk("cmd/handlers.go", "go", start, start + text.count("\n"), text, symbol, "function", "cli")
    return {m.line: m for m in matches_in(chunk, load_all(), intents(LOGGING))}


def test_echo_middleware_of_the_server_is_on_every_request_and_a_groups_is_not() -> None:
    found = _go(HANDLERS, 33, "initHTTPHandlers")
    cors, group, perm, pre, recover = found[36], found[42], found[47], found[48], found[49]
    assert not cors.every_request  # under `if len(corsOrigins) > 0`: said with its test
    assert cors.phrase.endswith("when `len(corsOrigins) > 0`"), cors.phrase
    assert not group.every_request and "group" in group.phrase and "`a.auth.Middleware`" in group.phrase
    assert not perm.every_request and perm.phrase == "puts `a.auth.Perm` in front of the routes (middleware)"
    assert pre.every_request and "log" not in pre.phrase  # `RemoveTrailingSlash` logs nothing
    assert recover.every_request and recover.phrase == "puts `middleware.Recover` in front of every route (middleware)"
    # a piece of a function's body past its head: a statement one tab in is the function's own
    inline = _go(SERVER, 923, "initHTTPServer")[927]
    assert inline.every_request and inline.phrase == "puts a middleware written in place in front of every route"


BEFORE_REQUEST = """    @app.before_request
    def before_request():
        \"\"\"Login the default user if running in desktop mode\"\"\"

        if not config.SERVER_MODE and not current_user.is_authenticated:
            user = user_datastore.find_user(email=config.DESKTOP_USER)
            login_user(user)
        elif config.SERVER_MODE and not current_user.is_authenticated and \\
                app.PGADMIN_EXTERNAL_AUTH_SOURCE in [KERBEROS, WEBSERVER]:
            return authenticate.login()"""


def test_signing_in_under_a_test_says_the_test() -> None:
    chunk = Chunk("web/pgadmin/__init__.py", "python", 837, 846, BEFORE_REQUEST, "create_app.before_request",
                  "function", "app")  # fmt: skip
    found = {m.line: m for m in matches_in(chunk, load_all(), intents(AUTH))}
    assert found[837].every_request and found[837].phrase == "runs before every request (`before_request`)"
    test = "`not config.SERVER_MODE and not current_user.is_authenticated`"
    assert found[843].phrase == f"signs the user in (`login_user`) when {test}"
    # a test going on below its line (`… and \\`) cannot be said from its head
    continued = BEFORE_REQUEST.replace("return authenticate.login()", "login_user(user)")
    held = Chunk("web/pgadmin/__init__.py", "python", 837, 846, continued, "create_app.before_request", "function",
                 "app")  # fmt: skip
    assert condition_at(held, 846) is None


def test_the_placement_reason_is_left_out_only_when_the_sentence_before_says_it_of_that_code() -> None:
    phrase, at = "runs before every request (before_request)", "web/pgadmin/__init__.py:837-878"
    assert _said_of(f"create_app.before_request ({at}) {phrase}.", at, phrase)
    assert not _said_of(f"hooks.py (web/hooks.py:1-9) {phrase}; x ({at})", at, phrase)  # of another piece of code
    assert not _said_of(f"create_app.before_request ({at}) calls f (web/f.py:3-9) and {phrase}.", at, phrase)


def test_the_placement_after_a_sentence_that_names_other_code_gives_its_reason() -> None:
    from codeqa.answer.explanation.said.conclusion import placement

    text = f"from flask import Flask\n\n\ndef create_app():\n    app = Flask(__name__)\n\n{BEFORE_REQUEST}\n"
    chunks = chunk_file(SourceFile("web/pgadmin/__init__.py", "python", text, len(text)))
    hits = [Hit(chunk, 1.0, chunk.id) for chunk in chunks]
    assert placement(explain(LOGGING, AnswerContext.from_chunks(chunks, hits))) is not None
    explanation = explain(LOGGING, AnswerContext.from_chunks(chunks, hits))
    said = placement(explanation, "web/other.py (web/other.py:1-9) runs before every request (before_request).")
    assert said is not None and "because it runs before every request" in said[1], said


NESTED = """    if not config.DEBUG and config.SERVER_MODE:
        from flask_compress import Compress
        Compress(app)

    @app.context_processor
    def inject_blueprint():
        \"\"\"
        Inject a reference to the current blueprint, if any.
        \"\"\"

        return {'current_app': current_app}"""


def test_a_nested_functions_docstring_is_not_the_enclosing_pieces() -> None:
    symbol = "create_app, create_app.inject_blueprint"
    assert summary(Chunk("web/pgadmin/__init__.py", "python", 948, 958, NESTED, symbol, "function", "app")) == ""
    own = Chunk("web/pgadmin/__init__.py", "python", 952, 958, NESTED.split("\n", 4)[4].lstrip("\n"),
                "create_app.inject_blueprint", "function", "app")  # fmt: skip
    assert summary(own) == "Inject a reference to the current blueprint, if any."
    bang = "  # Generate additional baseline expenses\n  def generate_regular_expenses!(family)\n    x = 1\n  end"
    named = Chunk("app/models/demo/generator.rb", "ruby", 988, 991, bang, "Demo.Generator.generate_regular_expenses!",
                  "method", "model")  # fmt: skip
    assert summary(named) == "Generate additional baseline expenses"  # a `!` ends the name, not another definition


def test_a_parenthesis_naming_code_is_said_once_per_sentence() -> None:
    tag = "(a filter in `ApplicationController`)"
    every = "for every controller, only"
    said = merged([f"runs `sign_in_for_demo` {every} `if: -> {{ Docuseal.demo? }}` {tag}",
                   f"runs `maybe_redirect_to_setup` {every} `unless: :signed_in?` {tag}",
                   f"runs `authenticate_user!` {every} `unless: :devise_controller?` {tag}"])  # fmt: skip
    assert said.count(tag) == 1 and said.index(tag) < said.index("maybe_redirect_to_setup"), said
    # a test on another line adds nothing to the same thing said without one; two tests are either, not both
    assert merged(["reports errors to an error tracker", "reports errors to an error tracker unless `dev?`"]) == (
        "reports errors to an error tracker"
    )
    assert merged(["signs the user in when `a`", "signs the user in when `b`"]) == "signs the user in when `a` or `b`"


MCP = """class McpBaseController < ActionController::API
  rescue_from CanCan::AccessDenied do
    render_error(-32_603, 'Forbidden', status: :forbidden)
  end

  rescue_from ActiveRecord::RecordNotFound do
    render_tool_error('Not found')
  end
end"""


def test_a_construct_said_of_a_second_source_is_said_whole_there() -> None:
    api = Chunk("app/controllers/api/api_base_controller.rb", "ruby", 4, 12,
                MCP.replace("McpBaseController", "ApiBaseController").split("  rescue_from ActiveRecord")[0] + "end",
                "Api.ApiBaseController", "class", "controller")  # fmt: skip
    mcp = Chunk("app/controllers/mcp/mcp_base_controller.rb", "ruby", 4, 12, MCP, "Mcp.McpBaseController", "class",
                "controller")  # fmt: skip
    question = intents("What happens when an API request fails?")
    strong = [(m.weight, n, m) for n, chunk in enumerate((api, mcp)) for m in matches_in(chunk, load_all(), question)]
    denied = next(m for _, n, m in strong if n == 1 and "AccessDenied" in m.text)
    found = next(m for _, n, m in strong if n == 1 and "RecordNotFound" in m.text)
    chosen = {0: [m for _, n, m in strong if n == 0], 1: [found]}  # AccessDenied was said of the first
    whole = said_whole(strong, chosen, [(0, id(found.construct)), (1, id(found.construct))])
    assert denied in whole[1] and found in whole[1]
    assert len(said_whole(strong, whole, [(1, id(found.construct))])[1]) == 2  # a phrase said once per source


KERNEL = """class Kernel extends HttpKernel
{
    /**
     * The application's global HTTP middleware stack.
     */
    protected $middleware = [
        \\App\\Http\\Middleware\\TrustProxies::class,
    ];

    protected $middlewareGroups = [
        'web' => [
            \\App\\Http\\Middleware\\EncryptCookies::class,
        ],
    ];
}"""


def test_laravels_global_middleware_is_every_requests_and_its_groups_are_not() -> None:
    chunk = Chunk("app/Http/Kernel.php", "php", 7, 21, KERNEL, "Kernel", "class", "api")
    found = {m.line: m for m in matches_in(chunk, load_all(), intents(LOGGING))}
    assert found[12].every_request and "global `$middleware`" in found[12].phrase
    assert 16 not in found or not found[16].every_request
    laravel = next(c for c in load_all() if c.name == "Laravel")
    assert any(c.hook_word == "HttpKernel" and c.every_request for c in laravel.constructs)
