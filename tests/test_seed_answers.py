"""The seed's three questions on small dev apps, read by hand (#35, bench/reads/seeds-small-dev-*.md): each defect class
found there, on the few lines of real code that produced it.

- "Then `oauth_redirect` answers with `redirect(url_for("auth.login"))`" (CTFd): the redirect of a branch that has
  just said an error (``error_for(…, message=size_error)``), not what happens when signing in works;
- "Then `login_webauthn` answers with `def login_webauthn(request: HttpRequest) -> HttpResponse:`" (healthchecks): a
  signature names a response type, it answers nothing;
- half a code line in a sentence: "answers with `res.render('account/signup', {`", "raises `throw new
  HttpException(`", "logs with `log.Info()….Str("method", v.Method).`";
- a branch's outcome said as if it always happened ("answers with `redirect("hc-login")`" when the 2FA session is
  only too old);
- "Where would I add logging?" answered with how one unrelated request ends ("Then `login_totp` answers with …");
- no conclusion for "What happens when an API request fails?" although the app registers one error handler for all
  (``app.register_error_handler(code, render_error)`` in a loop over ``{401, 403, 404, 500, 502}``);
- "defines how Passport checks the credentials (`it`)".
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.code.branches import condition_at, on_error_branch
from codeqa.answer.explanation.said.extractive import extractive_answer
from codeqa.answer.explanation.said.outcomes import closed as _closed
from codeqa.answer.explanation.said.outcomes import whole as _whole
from codeqa.chunk import chunk_file
from codeqa.frameworks.conventions import load_all
from codeqa.records import Chunk, Hit, SourceFile

AUTH = "How does user authentication flow through the system?"
FAILS = "What happens when an API request fails?"
LOGGING = "Where would I add logging to track user behavior?"

OAUTH = """from flask import Blueprint, redirect, url_for

auth = Blueprint("auth", __name__)


@auth.route("/redirect", methods=["GET"])
def oauth_redirect():
    user = Users.query.filter_by(email=user_email).first()
    if team_size_limit and len(team.members) >= team_size_limit:
        size_error = "Teams are limited to {limit} members.".format(limit=team_size_limit)
        error_for(endpoint="auth.login", message=size_error)
        return redirect(url_for("auth.login"))
    login_user(user)
    return redirect(url_for("challenges.listing"))
"""
WEBAUTHN = """from django.shortcuts import redirect


def login_webauthn(request: HttpRequest) -> HttpResponse:
    user_id, email, timestamp = request.session["2fa_user"]
    if timestamp + 300 < time.time():
        return redirect("hc-login")
    user = User.objects.get(id=user_id, email=email)
    auth_login(request, user, "hc.accounts.backends.EmailBackend")
"""
CREATE_APP = """from flask import Flask

from CTFd.errors import render_error


def create_app(config="CTFd.config.Config"):
    app = Flask(__name__)
    app.register_blueprint(admin)

    for code in {401, 403, 404, 500, 502}:
        app.register_error_handler(code, render_error)

    init_logs(app)
    return app
"""
BLUEPRINT_ERRORS = """from flask import Blueprint

api = Blueprint("api", __name__)


def setup(api):
    api.register_error_handler(404, render_api_error)
    return api
"""
EXPRESS_ERRORS = """const express = require('express');

const app = express();

app.use((req, res, next) => {
  res.status(404).send('Page Not Found');
});

if (process.env.NODE_ENV === 'development') {
  app.use(errorHandler());
} else {
  app.use((err, req, res, next) => {
    console.error(err);
    res.status(500).send('Server Error');
  });
}
"""
TRACKER = """from flask import Flask, session


def init_request_processors(app):
    @app.before_request
    def tracker():
        if authed():
            track = Tracking(ip=get_ip(), user_id=session["id"])
            db.session.add(track)
            db.session.commit()
        return redirect(url_for("views.static_html"))
"""


def _chunks(path: str, language: str, text: str) -> list[Chunk]:
    return chunk_file(SourceFile(path=path, language=language, text=text, size=len(text)))


def _opening(chunks: list[Chunk], question: str) -> str:
    hits = [Hit(chunk, 1.0 - n / 10, chunk.id) for n, chunk in enumerate(chunks)]
    return extractive_answer(question, hits, context=AnswerContext.from_chunks(chunks, hits)).split("\n")[0]


def _holding(chunks: list[Chunk], text: str) -> tuple[Chunk, int]:
    for chunk in chunks:
        for number, line in enumerate(chunk.text.split("\n"), start=chunk.start_line):
            if text in line:
                return chunk, number
    raise AssertionError(f"{text!r} is in no chunk")


def test_a_redirect_after_an_error_is_said_is_on_the_error_branch() -> None:
    chunks = _chunks("CTFd/auth.py", "python", OAUTH)
    failing = _holding(chunks, 'return redirect(url_for("auth.login"))')
    working = _holding(chunks, 'return redirect(url_for("challenges.listing"))')
    assert on_error_branch(*failing)
    assert not on_error_branch(*working)
    opening = _opening(chunks, AUTH)
    assert 'redirect(url_for("auth.login"))' not in opening, opening
    assert 'answers the request: `return redirect(url_for("challenges.listing"))`' in opening, opening


def test_a_signature_is_no_answer_and_a_branch_is_said_with_its_test() -> None:
    chunks = _chunks("hc/accounts/views.py", "python", WEBAUTHN)
    assert condition_at(*_holding(chunks, 'return redirect("hc-login")')) == ("when", "timestamp + 300 < time.time()")
    assert condition_at(*_holding(chunks, "auth_login(request, user")) == ("", "")
    opening = _opening(chunks, AUTH)
    assert "answers with `def " not in opening, opening
    assert 'answers the request when `timestamp + 300 < time.time()`: `return redirect("hc-login")`' in opening, opening


def test_an_outcome_is_quoted_whole_or_as_the_call_it_starts() -> None:
    assert _closed("res.render('account/signup', {") == "res.render('account/signup', {…})"
    assert _closed("new HttpException(") == "new HttpException(…)"
    assert _closed('redirect(url_for("auth.login"))') == 'redirect(url_for("auth.login"))'
    assert not _whole('log.Info().Str("uri", v.URI).Int("status", v.Status).Str("method", v.Method).')
    assert not _whole("def login_webauthn(request: HttpRequest) -> HttpResponse:")
    assert not _whole("    public ResponseEntity<JWTToken> authorize(@Valid @RequestBody LoginVM loginVM) {")
    assert _whole("        return ResponseEntity.ok(authInfo);")
    assert not _whole("redirect_to " + "user_github_omniauth_authorize_path(origin: request.fullpath) " * 2)
    assert _whole("redirect_to user_github_omniauth_authorize_path(origin: request.fullpath) unless user_signed_in?")
    signup = """exports.postSignup = async (req, res, next) => {
  const user = new User({ email: req.body.email });
  await user.save();
  return res.render('account/signup', {
    title: 'Create Account',
  });
};
"""
    opening = _opening(_chunks("controllers/user.js", "javascript", signup), "How does signup create an account?")
    assert "`return res.render('account/signup', {…})`" in opening, opening
    assert "{`" not in opening, opening


def test_a_placement_answer_says_where_not_how_one_request_ends() -> None:
    opening = _opening(_chunks("CTFd/utils/initialization/__init__.py", "python", TRACKER), LOGGING)
    assert "**Where to add it:**" in opening, opening
    assert " Then " not in opening, opening


def test_a_failure_answer_concludes_where_the_apps_errors_go() -> None:
    opening = _opening(_chunks("CTFd/__init__.py", "python", CREATE_APP), FAILS)
    assert "**Where errors go:** to `render_error` (registered at `CTFd/__init__.py:11`)" in opening, opening
    assert "`401, 403, 404, 500, 502`" in opening and "`code`" not in opening, opening
    blueprint = _opening(_chunks("CTFd/api/__init__.py", "python", BLUEPRINT_ERRORS), FAILS)
    assert "Where errors go" not in blueprint, blueprint  # a blueprint's handler is not the app's
    express = _opening(_chunks("app.js", "javascript", EXPRESS_ERRORS), FAILS)
    assert "Where errors go" not in express, express  # only in production: an ``else`` cannot be said as always


def test_a_strategy_with_no_name_is_not_called_it() -> None:
    (nest,) = [c for c in load_all() if c.name == "NestJS"]
    strategy = next(c for c in nest.constructs if "Passport checks the credentials" in c.says)
    found = strategy.pattern.search("export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {")
    assert found is not None
    assert strategy.describe(found) == "defines how Passport checks the credentials"
    named = strategy.pattern.search("passport.use(new LocalStrategy({ usernameField: 'email' }")
    assert named is not None and strategy.describe(named).endswith("(`LocalStrategy`)")


APP_WIDE_HANDLERS = """from flask import Blueprint

errors_bp = Blueprint('errors', __name__)


@errors_bp.app_errorhandler(BadData)
def handle_baddata(exc):
    return render_error(exc, 'Invalid or expired token', str(exc), 400)


@errors_bp.app_errorhandler(Exception)
def handle_exception(exc):
    logger.exception(str(exc))
    return render_error(exc, 'Something went wrong', str(exc), 500)
"""

ONE_KIND = """from flask import Flask


def setup_oauth_provider(app):
    app.register_error_handler(OAuthHTTPError, lambda exc: exc.get_response())
    auth_server.init_app(app)
"""


def test_errors_go_to_the_handler_of_every_error_not_of_one_kind() -> None:
    """indico registers app-wide handlers for `BadData` and for `Exception`: errors go to the second; a handler
    registered for one kind of error (an OAuth error) is not where the app's errors go."""
    opening = _opening(_chunks("indico/web/flask/errors.py", "python", APP_WIDE_HANDLERS), FAILS)
    assert "**Where errors go:** to the code at `indico/web/flask/errors.py:11`" in opening, opening
    assert "because it handles `Exception` errors for the whole app" in opening, opening
    one_kind = _opening(_chunks("indico/core/oauth/oauth2.py", "python", ONE_KIND), FAILS)
    assert "Where errors go" not in one_kind, one_kind
