"""False sentences found on two apps codeqa had not seen: PowerDNS-Admin (Flask) and lnbits (FastAPI), issue #35.

- "``saml_login`` is where the app routes its sign-in URL": the app routes ``/login``, ``/saml/login``,
  ``/google/login`` … in one file; ``methods=['GET', 'POST']`` put ``/login`` below the others (taken for a route
  that only shows the form), and among the rest the first read won. The plainest URL is the app's own sign-in;
- "``login`` checks who is calling before going on" of ``return authenticate_user(user, 'Google OAuth')``, and
  "``authenticate_user`` checks who is calling" of its own ``def`` line: it signs the user it is given in;
- "when `'google_token' or `'github_token' in session`": two tests merged inside their code spans;
- "``authenticate_user`` calls ``User.update_profile``" said as if every time: the call is under ``if a \\`` …
  ``and b:``, and the line below ``and b:`` was taken for a piece of the test;
- "Its documentation says: “START SAML AUTHENTICATION ###”": a section's banner is no definition's documentation;
- "(and 4 more like it: …, … and 1 others)";
- "In short: when a request fails, …" of "What happens when the PowerDNS API returns an error?": an outside service's
  API answering with an error is not the app's own request failing.
"""

from __future__ import annotations

from codeqa.answer.explanation.code.condition import condition_at
from codeqa.answer.explanation.code.outline import summary
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.explain import Step
from codeqa.answer.explanation.said.closing import asks_failed_request
from codeqa.answer.explanation.said.extractive import repeats_note
from codeqa.answer.explanation.said.phrasing import merged
from codeqa.answer.explanation.sources.entry import _tier
from codeqa.answer.explanation.sources.entry_topics import SIGN_IN
from codeqa.answer.explanation.sources.route_lines import plainest
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk, Hit

# from powerdnsadmin/routes/index.py
LOGIN_VIEW = """@index_bp.route('/login', methods=['GET', 'POST'])
def login():
    if 'google_token' in session:
        user = User.query.filter_by(username=google_email).first()
        session['user_id'] = user.id
        session['authentication_type'] = 'OAuth'
        return authenticate_user(user, 'Google OAuth')

    if 'github_token' in session:
        user = User.query.filter_by(username=github_username).first()
        session['user_id'] = user.id
        session['authentication_type'] = 'OAuth'
        return authenticate_user(user, 'Github OAuth')"""

AUTHENTICATE_USER = """# Handle user login, write history and, if set, handle showing the register_otp QR code.
def authenticate_user(user, authenticator, remember=False):
    login_user(user, remember=remember)
    session.permanent = True
    signin_history(user.username, authenticator, True)
    if Setting().get('otp_force') and Setting().get('otp_field_enabled') and not user.otp_secret \\
            and session['authentication_type'] not in ['OAuth']:
        user.update_profile(enable_otp=True)
        user_id = current_user.id
        return redirect(url_for('index.welcome'))
    return redirect(url_for('index.login'))"""

# from lnbits/decorators.py: a dependency named for the check it makes
CHECK_USER_EXISTS = """async def check_user_exists(
    r: Request,
    access_token: Annotated[str | None, Depends(check_access_token)],
) -> User:
    account = await _check_account_exists(r, access_token, usr, conn=conn)
    return user"""

SAML_LOGIN = """### START SAML AUTHENTICATION ###
@index_bp.route('/saml/login')
def saml_login():
    if not current_app.config.get('SAML_ENABLED'):
        abort(400)
    return redirect(auth.login(return_to=redirect_url))"""


def _chunk(text: str, path: str, symbol: str, start: int = 1, kind: str = "function", layer: str = "view") -> Chunk:
    return Chunk(path, "python", start, start + text.count("\n"), text, symbol, kind, layer)


def _said(chunk: Chunk, question: str) -> list[str]:
    return [match.construct.says for match in matches_in(chunk, load_all(), intents(question))]


def test_a_call_a_view_hands_back_is_not_a_check_before_going_on() -> None:
    view = _chunk(LOGIN_VIEW, "powerdnsadmin/routes/index.py", "login", start=255)
    assert "checks who is calling before going on" not in _said(view, "How does user authentication work?")


def test_the_definition_of_an_authenticate_function_is_not_a_check_but_a_check_function_still_is() -> None:
    signs_in = _chunk(AUTHENTICATE_USER, "powerdnsadmin/routes/index.py", "authenticate_user", start=787)
    assert "checks who is calling before going on" not in _said(signs_in, "How does user authentication work?")
    check = _chunk(CHECK_USER_EXISTS, "lnbits/decorators.py", "check_user_exists", start=315)
    assert "checks who is calling before going on" in _said(check, "How does user authentication work?")
    guard = _chunk("def profile():\n    check_user_session(request)\n    return render()", "app/views.py", "profile")
    assert "checks who is calling before going on" in _said(guard, "How does user authentication work?")


def test_tests_merged_into_one_phrase_keep_their_code_spans_whole() -> None:
    phrases = [
        "checks who is calling before going on when `'google_token' in session`",
        "checks who is calling before going on when `'github_token' in session`",
    ]
    said = merged(phrases)
    assert "`'google_token' or" not in said
    assert said.count("`") % 2 == 0
    assert "`'google_token' in session`" in said and "`'github_token' in session`" in said
    # runs that differ inside a code span whose ends are common are still said once, with the spans whole
    assert merged(["turns `A` into a response", "turns `B` into a response"]) == "turns `A` and `B` into a response"


def test_a_line_below_a_test_continued_with_a_backslash_runs_on_its_branch_only() -> None:
    chunk = _chunk(AUTHENTICATE_USER, "powerdnsadmin/routes/index.py", "authenticate_user", start=787)
    line = chunk.start_line + next(n for n, text in enumerate(chunk.text.split("\n")) if "update_profile" in text)
    assert condition_at(chunk, line) is None  # "on one branch", not every time
    test_line = chunk.start_line + next(n for n, text in enumerate(chunk.text.split("\n")) if "and session[" in text)
    assert condition_at(chunk, test_line) == ("", "")  # a piece of the test runs whenever the test does
    assert condition_at(chunk, chunk.start_line + 2) == ("", "")  # login_user(…): every time


def test_a_section_banner_above_a_definition_is_not_its_documentation() -> None:
    banner = _chunk(SAML_LOGIN, "powerdnsadmin/routes/index.py", "saml_login", start=1274)
    assert summary(banner) == ""
    documented = _chunk(AUTHENTICATE_USER, "powerdnsadmin/routes/index.py", "authenticate_user", start=787)
    assert summary(documented).startswith("Handle user login, write history")


def test_the_plainest_sign_in_url_of_a_file_is_the_apps_own() -> None:
    lines = [
        ("powerdnsadmin/routes/index.py", "@index_bp.route('/saml/login')"),
        ("powerdnsadmin/routes/index.py", "@index_bp.route('/google/login')"),
        ("powerdnsadmin/routes/index.py", "@index_bp.route('/login', methods=['GET', 'POST'])"),
        ("app/api/auth.py", "@router.post('/api/v1/auth/login')"),  # a file of its own: kept
    ]
    assert plainest(lines, SIGN_IN.url) == [2, 3]
    # a route that takes GET and POST takes the form; only a GET route shows it
    assert _tier("@index_bp.route('/login', methods=['GET', 'POST'])") == _tier("@index_bp.route('/saml/login')")
    assert _tier("app.get('/login', showLogin)") > _tier("app.post('/login', postLogin)")


def test_one_more_source_is_one_other() -> None:
    def chunk(n: int) -> Chunk:
        return _chunk("def google_login():\n    return redirect()", "app/index.py", f"login_{n}", start=n * 10)

    step = Step(1, Hit(chunk(1), 1.0, chunk(1).id), "", [], "", repeats=[Hit(chunk(n), 1.0, chunk(n).id)
                                                                         for n in range(2, 6)])  # fmt: skip
    assert repeats_note(step).endswith("and 1 other)")


def test_an_outside_services_api_returning_an_error_is_not_the_apps_request_failing() -> None:
    assert not asks_failed_request("What happens when the PowerDNS API returns an error?")
    assert not asks_failed_request("What happens when a call to the Stripe API fails?")
    assert asks_failed_request("What happens when an API request fails?")
    assert asks_failed_request("What happens when the REST API returns an error?")
