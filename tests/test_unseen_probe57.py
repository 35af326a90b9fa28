"""Sentences read in the lead's own answers of stop 57 (#35), each on the few lines that made it.

- "It reads ``const OAuth2Strategy = require('passport-oauth2');``" (hackathon-starter's ``config/passport.js``): a
  module loaded by ``require`` is no value the strategy's settings read, though its name holds a digit.
- "`app.js` (`app.js:279-299`) handles the request" for a run of ``app.get('/api', apiController.getApi);`` lines: a
  table of routes sends requests to the handlers it names; it handles none itself.
- "builds the `badRequest`, `unauthorized` and `forbidden` errors response" (Umami's ``src/lib/response.ts``): a
  compound noun is plural at its head, "error responses".
"""

from __future__ import annotations

from codeqa.answer.explanation.code.keylines import KeyLine
from codeqa.answer.explanation.code.values import values_read
from codeqa.records import Chunk

IMPORTS = """const passport = require('passport');
const OAuthStrategy = require('passport-oauth1');
const OAuth2Strategy = require('passport-oauth2');
const LINKEDIN_SCOPE = 'openid profile email';
const TOKEN_DAYS = 30;
"""
LINKEDIN = """const linkedinStrategyConfig = new OAuth2Strategy(
  {
    authorizationURL: 'https://www.linkedin.com/oauth/v2/authorization',
    scope: LINKEDIN_SCOPE,
    maxAge: TOKEN_DAYS,
    passReqToCallback: true,
  },"""


def _chunk(text: str, start: int, symbol: str = "") -> Chunk:
    return Chunk("config/passport.js", "javascript", start, start + text.count("\n"), text, symbol, "module", "config")


def test_a_module_loaded_by_require_is_no_value_read() -> None:
    head, config = _chunk(IMPORTS, 1), _chunk(LINKEDIN, 431, "linkedinStrategyConfig")
    lines = [KeyLine(431 + n, text) for n, text in enumerate(LINKEDIN.split("\n"))]
    read = values_read(lines, config, [head])
    assert [value.name for value in read] == ["LINKEDIN_SCOPE", "TOKEN_DAYS"]  # not OAuth2Strategy


APP_ROUTES = """app.post('/account/delete', passportConfig.isAuthenticated, userController.postDeleteAccount);
app.get('/account/unlink/:provider', passportConfig.isAuthenticated, userController.getOauthUnlink);
app.get('/account/webauthn/register', (req, res) => res.redirect('/account')); // a POST starts it

/**
 * API examples routes.
 */
app.get('/api', apiController.getApi);
app.get('/api/lastfm', apiController.getLastfm);
app.post('/api/stripe', apiController.postStripe);"""
APP_USE = """app.use((req, res, next) => {
  if (req.method !== 'GET') {
    return next();
  }
  req.session.returnTo = req.originalUrl;
  next();
});
app.get('/', homeController.index);
app.get('/login', userController.getLogin);
app.post('/login', userController.postLogin);"""
FLASK_VIEWS = """@bp.route("/login", methods=["GET", "POST"])
def login():
    return render_template("auth/login.html")

@bp.route("/logout")
def logout():
    return redirect(url_for("index"))"""


def test_a_table_of_routes_routes_urls_and_handles_no_request() -> None:
    from codeqa.answer.explanation.said.extractive import VERBS
    from codeqa.answer.explanation.said.roles_said import role_phrase
    from codeqa.answer.explanation.said.routetable import ROUTES

    def role(path: str, language: str, text: str) -> str:
        return role_phrase(Chunk(path, language, 1, 1 + text.count("\n"), text, "", "module", "api"), VERBS, "is here")

    assert role("app.js", "javascript", APP_ROUTES) == ROUTES  # not "handles the request"
    assert role("app.js", "javascript", APP_USE) == VERBS["api"]  # a handler written out in it handles requests
    assert role("app/auth.py", "python", FLASK_VIEWS) == VERBS["api"]  # decorated views are no table


def test_a_compound_noun_is_plural_at_its_head() -> None:
    from codeqa.answer.explanation.said.phrasing import merged

    said = merged([f"builds the `{name}` error response" for name in ("badRequest", "unauthorized", "forbidden")])
    assert said == "builds the `badRequest`, `unauthorized` and `forbidden` error responses"
    assert merged(["runs the `a` plug", "runs the `b` plug"]) == "runs the `a` and `b` plugs"


def test_a_phrase_with_its_own_test_is_set_apart_from_the_next() -> None:
    """Diaspora's sign-in (probe26): "signs the user in (Devise) when `valid_otp_attempt?(user)` and stores
    `otp_user_id` in the session" read as if the test held for the storing too."""
    from codeqa.answer.explanation.said.phrasing import merged

    said = merged(["signs the user in (Devise) when `valid_otp_attempt?(user)`", "stores `otp_user_id` in the session"])
    assert said == "signs the user in (Devise) when `valid_otp_attempt?(user)`, and stores `otp_user_id` in the session"
    assert merged(["runs `a`", "runs `b` on one branch only", "stores `c`"]) == (
        "runs `a`, runs `b` on one branch only, and stores `c`"
    )
    assert merged(["stores `a` in the session", "signs the user in when `x`"]) == (
        "stores `a` in the session and signs the user in when `x`"  # the last one's test is its own already
    )
