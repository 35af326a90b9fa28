"""Which lines of a cited span an answer shows: the line that does the work, not the comment that holds a word.

Each case is a small piece of real-looking code and a newcomer's question; the line asserted is one that the
choice by the question's words alone cut (a comment, a log call or a line repeating a common word took its place).
"""

from __future__ import annotations

from codeqa.answer.explanation.code.keylines import question_terms, shown_order
from codeqa.answer.explanation.code.lineroles import role_of
from codeqa.answer.explanation.sources.choose import source_lines
from codeqa.records import Chunk
from codeqa.retrieve.question import Question


def _shown(question: str, code: str, limit: int, *, path: str = "app/x.py", language: str = "python") -> list[str]:
    chunk = Chunk(path, language, 10, 10 + code.count("\n"), code, "", "function", "core")
    terms = question_terms(Question.parse(question))
    return [line.text.strip() for line in source_lines(terms, chunk, [], limit)]


SENDALERTS = '''def process_one_flip(self) -> bool:
    """Find unprocessed flip, send notifications."""
    if not self.seats.acquire(timeout=1):
        return False  # Workers busy, main thread should wait a bit
    flip = Flip.objects.filter(processed=None).first()
    if flip is None:
        return False  # No work found, main thread should wait a bit
    # Mark the flip as processed so that no other process sends it
    q = Flip.objects.filter(id=flip.id, processed=None)
    num_updated = q.update(processed=now())
    if num_updated != 1:
        # Nothing got updated: another sendalerts process got there first.
        self.seats.release()
        return True
    statsd.incr("hc.sendalerts.processFlip")
    f = self.executor.submit(notify, flip)
    f.add_done_callback(self.on_notify_done)
    return True'''


def test_the_call_that_does_the_work_beats_a_comment_and_a_metric_holding_the_words() -> None:
    shown = _shown("Which long-running process sends out the alerts?", SENDALERTS, 5)
    assert "f = self.executor.submit(notify, flip)" in shown
    assert not any(line.startswith("# Nothing got updated") for line in shown)


LOGIN_GO = """func ProcessLogin(ctx *context.Context) error {
	var user *db.User
	var err error
	sess := ctx.GetSession()
	dto := &db.UserDTO{}
	if err = ctx.Bind(dto); err != nil {
		return ctx.ErrorRes(400, ctx.Tr("error.cannot-bind-data"), err)
	}
	user, err = auth.TryAuthentication(dto.Username, dto.Password)
	if err != nil {
		log.Warn().Msg("Invalid password sign-in attempt from " + ctx.RealIP())
		ctx.AddFlash(ctx.Tr("flash.auth.invalid-credentials"), "error")
		return ctx.RedirectTo("/-/login")
	}
	if hasWebauthn, hasTotp, err = user.HasMFA(); err != nil {
		return ctx.ErrorRes(500, "Cannot check for user MFA", err)
	}
	if hasWebauthn || hasTotp {
		sess.Values["mfaID"] = user.ID
		sess.Options.MaxAge = 5 * 60 // 5 minutes
		ctx.SaveSession(sess)
		return ctx.RedirectTo("/mfa")
	}
	sess.Values["user"] = user.ID
	ctx.SaveSession(sess)
	return ctx.RedirectTo("/")
}"""


def test_a_sign_in_question_sees_the_session_write_and_the_redirect_not_only_the_error_branches() -> None:
    shown = _shown(
        "When someone signs in with a password and has a second sign-in step, what happens?",
        LOGIN_GO,
        8,
        path="internal/web/handlers/auth/password.go",
        language="go",
    )
    assert 'sess.Values["mfaID"] = user.ID' in shown
    assert 'return ctx.RedirectTo("/mfa")' in shown
    assert not any(line.startswith("var ") for line in shown)


WEBHOOKS_RB = """class WebhooksController < ApplicationController
  skip_authentication

  def plaid
    webhook_body = request.body.read
    plaid_verification_header = request.headers["Plaid-Verification"]
    client = Provider::Plaid.new(Rails.application.config.plaid, region: :us)
    # The webhook is verified against the key Plaid publishes for it
    client.validate_webhook!(plaid_verification_header, webhook_body)
    PlaidItem::WebhookProcessor.new(webhook_body).process
    render json: { received: true }, status: :ok
  rescue => error
    Sentry.capture_exception(error)
    render json: { error: "Invalid webhook: #{error.message}" }, status: :bad_request
  end
end"""


def test_header_parsing_and_the_verification_call_are_shown_for_an_incoming_webhook() -> None:
    shown = _shown(
        "How are incoming webhooks verified before they are processed?",
        WEBHOOKS_RB,
        3,
        path="app/controllers/webhooks_controller.rb",
        language="ruby",
    )
    assert 'plaid_verification_header = request.headers["Plaid-Verification"]' in shown
    assert "client.validate_webhook!(plaid_verification_header, webhook_body)" in shown


APP_JS = """const app = express();
// Express configuration: every request passes through these
app.set('host', process.env.HOST || '0.0.0.0');
app.set('port', process.env.PORT || 8080);
app.set('views', path.join(__dirname, 'views'));
app.set('view engine', 'pug');
app.use(compression());
app.use(logger('dev'));
app.use(bodyParser.json());
app.use(session({ resave: true, saveUninitialized: true, secret: process.env.SESSION_SECRET }));
app.use(passport.initialize());
app.use(lusca.xframe('SAMEORIGIN'));
// Error handler: errors of every route end here
app.use((err, req, res, next) => {
  console.error(err);
  res.status(500).send('Server Error');
});"""


def test_an_error_question_sees_the_handler_registration_and_its_response_not_the_comments() -> None:
    shown = _shown("What happens when a request throws an error?", APP_JS, 4, path="app.js", language="javascript")
    assert "app.use((err, req, res, next) => {" in shown
    assert "res.status(500).send('Server Error');" in shown
    assert not any(line.startswith("//") for line in shown)


def test_a_log_call_is_quiet_unless_the_question_is_about_logging() -> None:
    code = (
        'if not user.is_active:\n    logger.info("inactive user %s tried to log in", user.id)\n    return redirect("/")'
    )
    about_login = shown_order(question_terms(Question.parse("what happens when an inactive user logs in?")), code)
    assert about_login.index(2) < about_login.index(1)  # the redirect before the log line holding three words
    about_logging = shown_order(question_terms(Question.parse("where are user actions logged?")), code)
    assert about_logging.index(1) < about_logging.index(2)


def test_line_roles_read_the_code_not_its_words() -> None:
    assert role_of("    f = self.executor.submit(notify, flip)").name == "work"  # type: ignore[union-attr]
    assert role_of("    @UseGuards(AuthGuard('jwt'), RolesGuard)").name == "registration"  # type: ignore[union-attr]
    assert role_of("    @user = User.create!(user_params)").name == "work"  # type: ignore[union-attr]
    assert role_of("    return False  # nothing to do").name == "plain outcome"  # type: ignore[union-attr]
    assert role_of("    raise MiddlewareNotUsed()").name == "error outcome"  # type: ignore[union-attr]
    assert role_of("    # raise an error here") is None
    assert role_of("import jwt") is None
    assert role_of("    console.log(user)") is None


SETTINGS_PY = """# Application definition

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.sessions",
    "hc.accounts",
    "hc.api",
]

# Every request passes through the middleware below, in order
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "hc.accounts.middleware.TeamAccessMiddleware",
]"""


def test_a_middleware_question_sees_the_listed_middleware_not_the_comment_about_it() -> None:
    shown = _shown("Which middleware does every request pass through?", SETTINGS_PY, 6, path="hc/settings.py")
    assert '"hc.accounts.middleware.TeamAccessMiddleware",' in shown
    assert not any(line.startswith("#") for line in shown)


CONTROLLER_RB = """class Api::V1::BaseController < ApplicationController
  # The API signs requests in with a token, not with the browser session
  skip_before_action :verify_authenticity_token
  before_action :authenticate_with_token!

  private

  def authenticate_with_token!
    token = request.headers["Authorization"].to_s.delete_prefix("Bearer ")
    @current_user = User.find_by(api_token: token)
    head :unauthorized unless @current_user
  end
end"""


def test_the_class_line_with_its_base_and_the_token_read_from_the_header_are_shown() -> None:
    shown = _shown(
        "How does the API know who the user is?", CONTROLLER_RB, 3, path="app/controllers/api/v1/base_controller.rb"
    )
    assert "class Api::V1::BaseController < ApplicationController" in shown
    assert 'token = request.headers["Authorization"].to_s.delete_prefix("Bearer ")' in shown


def test_the_sign_in_page_form_or_link_signs_nobody_in() -> None:
    # indico's RHLogin._process: ``form = provider.login_form()`` took the sign-in's weight from
    # ``multipass.handle_login_form(provider, form.data)``; Monica's ``Fortify::loginView(…)`` registers a page
    for line in ("form = provider.login_form()", "url = signInUrl()", "page = login_page(request)",
                 "Fortify::loginView(fn ($request) => (new LoginController)($request));"):  # fmt: skip
        role = role_of(line, ("auth",))
        assert role is None or role.name != "session", (line, role)
    for line in ("auth.login(request, user)", "await loginAsync(user)", "user.sign_in(token)",
                 "def verify_signed_user_url(url, method):", "signature = sign(payload)"):  # fmt: skip
        role = role_of(line, ("auth",))
        assert role is not None and role.name == "session", (line, role)
