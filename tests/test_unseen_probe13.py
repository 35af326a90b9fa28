"""False and misleading on paperless-ngx (Django), Firefly III (Laravel) and Outline (Koa), apps in no data set,
read as a newcomer (probe 13):

- Outline, how authentication flows: "``token`` (``plugins/oidc/server/auth/oidcRouter.ts:89-148``) checks the
  token" of ``const decoded = JWT.decode(params.id_token);``: jsonwebtoken's ``decode`` checks no signature;
- paperless-ngx: "``AutoLoginMiddleware.process_request`` … is middleware: Django runs it on every request", though
  the settings insert it into ``MIDDLEWARE`` only ``if AUTO_LOGIN_USERNAME:``;
- Firefly III: "``Authenticate.authenticate`` uses Laravel's ``Auth`` (who is signed in) when ``0 === count($guards)``
  and uses Laravel's ``Auth`` (who is signed in) on one branch only": the same phrase twice, the second saying less;
- Firefly III, "What happens when an API request fails?": "Then ``LoginController.login`` logs with
  ``Log::channel('audit')->info(sprintf('User "%s" has been logged in.', …))`` when ``$this->attemptLogin($request)``"
  — the success branch, which returns before the failure's ``$this->sendFailedLoginResponse($request)``;
- Outline: "In short: ``discord.ts`` … calls ``accountProvisioner``, which in the end … stores with
  ``this.create(…)``": that store is an event written only ``if (isNewUser && user.isInvited)``;
- Outline, the logging question: "Where to add it: at ``server/services/web.ts:94``, because the code there adds
  ``attachCSRFToken`` to every request's middleware chain", below ``app.use(mount("/api", api))``; then a part
  (``server/routes/auth/index.ts``) taken for the root app, and "(and 1 more like it: <the same lines>)";
- paperless-ngx: "``ProfileView`` … chooses the permission checks API requests must pass" of the view's own
  ``permission_classes``; "``parse_w_workflow_placeholders`` answers with ``rendered_template =
  template.render(formatting)``" (a Jinja template's text, no response);
- Firefly III: outcomes quoted with their statement's ``;`` mid-sentence ("… 404); when …").
"""

from __future__ import annotations

from codeqa.answer.explanation.calls.flow import Use
from codeqa.answer.explanation.code.branches import returns_before
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.said.phrasing import merged
from codeqa.answer.explanation.story.walk import Hop
from codeqa.answer.explanation.story.walktext import _under
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk

AUTH = "How does user authentication flow through the system?"

OIDC = """            const token = (() => {
              try {
                const decoded = JWT.decode(params.id_token);

                if (!decoded || typeof decoded !== "object") {
                  Logger.warn("Decoded id_token is not a valid object");
                  return {};
                }"""

AUTO_LOGIN = """class AutoLoginMiddleware(MiddlewareMixin):
    def process_request(self, request: HttpRequest) -> None:
        # Dont use auto-login with token request
        if request.path.startswith("/api/token/") and request.method == "POST":
            return None
        try:
            request.user = User.objects.get(username=settings.AUTO_LOGIN_USERNAME)"""

LOGIN = """    public function login(Request $request)
    {
        Log::debug('Login data is present.');

        // Copied directly from AuthenticatesUsers, but with logging added:
        if ($this->attemptLogin($request)) {
            Log::channel('audit')->info(sprintf('User "%s" has been logged in.', $request->get($this->username())));
            Log::debug(sprintf('Redirect after login is %s.', $this->redirectPath()));

            event(new UserSuccessfullyLoggedIn($this->guard()->user()));

            return $this->sendLoginResponse($request);
        }
        Log::warning('Login attempt failed.');
        $this->incrementLoginAttempts($request);
        Log::channel('audit')->warning(sprintf('Login failed for "%s".', $request->get($this->username())));

        $this->sendFailedLoginResponse($request);

        // @noinspection PhpUnreachableStatementInspection
        return response()->json();
    }"""

PROVISIONER = """  const { isNewUser, user } = result;

  if (isNewUser && user.isInvited) {
    await Event.createFromContext(ctx, {
      name: "users.invite_accepted",
      userId: user.id,
    });
  }"""


def _phrases(text: str, path: str, language: str, start: int, symbol: str) -> dict[int, str]:
    chunk = Chunk(path, language, start, start + text.count("\n"), text, symbol, "function", "api")
    return {m.line: m.phrase for m in matches_in(chunk, load_all(), intents(AUTH))}


def test_a_javascript_jwt_decode_is_no_check_of_the_token() -> None:
    found = _phrases(OIDC, "plugins/oidc/server/auth/oidcRouter.ts", "typescript", 102, "createOIDCRouter")
    assert "checks the token" not in found.get(104, ""), found
    assert found[104] == "reads the token's claims without checking its signature (`jwt.decode`)"
    python = _phrases("    claims = jwt.decode(token, key, algorithms=['HS256'])", "app/auth.py", "python", 9, "f")
    assert python[9] == "checks the token"  # PyJWT's decode checks the signature


def test_a_django_middleware_class_runs_on_every_request_only_once_listed() -> None:
    found = _phrases(AUTO_LOGIN, "src/paperless/auth.py", "python", 16, "AutoLoginMiddleware")
    assert found[17] == "is middleware: once `MIDDLEWARE` lists it, Django runs it on every request", found


def test_one_phrase_on_one_branch_is_not_said_again_beside_its_test() -> None:
    auth = "uses Laravel's `Auth` (who is signed in)"
    said = merged([f"{auth} when `0 === count($guards)`", f"{auth} on one branch only"])
    assert said == f"{auth} when `0 === count($guards)`", said
    other = merged(["signs the user in when `a`", "checks the password on one branch only"])
    assert other == "signs the user in when `a`, and checks the password on one branch only"


def test_a_success_branch_that_returns_is_not_what_the_failure_does() -> None:
    chunk = Chunk("app/Http/Controllers/Auth/LoginController.php", "php", 82, 82 + LOGIN.count("\n"), LOGIN,
                  "LoginController.login", "method", "controller")  # fmt: skip
    failed = 82 + LOGIN.split("\n").index("        $this->sendFailedLoginResponse($request);")
    assert returns_before(chunk, 88, [failed])  # `Log::channel('audit')->info(… has been logged in …)`
    assert not returns_before(chunk, 97, [failed])  # `Log::…->warning('Login failed …')`: on the way to it
    assert not returns_before(chunk, 88, [89])  # an answer inside the same branch


def test_a_step_made_under_a_test_says_the_test() -> None:
    caller = Chunk("server/commands/accountProvisioner.ts", "typescript", 203, 210, PROVISIONER, "accountProvisioner",
                   "function", "service")  # fmt: skip
    callee = Chunk("server/models/Event.ts", "typescript", 161, 191, "", "Event.createFromContext", "method", "model")
    use = Use("createFromContext", 206, "calls", "await Event.createFromContext(ctx, {")
    assert _under(Hop(caller, callee, use, True)) == (
        " when `isNewUser && user.isInvited`",
        " when isNewUser && user.isInvited",
    )
    first = Use("createFromContext", 203, "calls", "const { isNewUser, user } = result;")
    assert _under(Hop(caller, callee, first, True)) == ("", "")


WEB = """  app.use(compress());

  app.use(mount("/api", api));
  app.use(mount("/mcp", mcp));

  // Generate and attach a CSRF token to the session on non-API requests
  app.use(attachCSRFToken());
  app.use(express.static("/assets"));"""


def test_a_middleware_added_after_a_path_mount_is_not_on_every_request() -> None:
    """Outline, "Where would I add logging to track user behavior?": "Where to add it: at `server/services/web.ts:94`,
    because the code there adds `attachCSRFToken` to every request's middleware chain" — below `app.use(mount("/api",
    api))`, whose requests never reach it."""
    chunk = Chunk("server/services/web.ts", "typescript", 72, 72 + WEB.count("\n"), WEB, "init", "function", "config")
    found = {m.line: m for m in matches_in(chunk, load_all(), intents("Where would I add logging?"))}
    assert found[72].every_request  # `compress()`, above the mounts
    csrf = found[78]
    assert not csrf.every_request, csrf.phrase
    assert csrf.phrase == (
        'adds `attachCSRFToken` to the middleware chain of the requests not sent to `"/api"`, `"/mcp"` above it '
        "(run in `app.use` order)"
    ), csrf.phrase


PROFILE = '''class ProfileView(GenericAPIView[Any]):
    """
    User profile view, only available when logged in
    """

    permission_classes = [IsAuthenticated]
    serializer_class = ProfileSerializer'''


def test_a_views_permission_classes_hold_for_that_view_only() -> None:
    """paperless-ngx: "``ProfileView`` … chooses the permission checks API requests must pass (REST framework)" of
    the view's own ``permission_classes = [IsAuthenticated]``; the setting ``DEFAULT_PERMISSION_CLASSES`` does that."""
    found = _phrases(PROFILE, "src/paperless/views.py", "python", 244, "ProfileView")
    assert found[249] == "chooses the permission checks requests to this view must pass (REST framework)", found
    setting = _phrases('    "DEFAULT_PERMISSION_CLASSES": [', "src/paperless/settings.py", "python", 5, "REST")
    assert setting[5] == "chooses the permission checks API requests must pass (REST framework)"


def test_a_routers_own_sub_routes_are_no_mount_of_the_apps_parts() -> None:
    """Outline: the logging question's "Where to add it" went to ``server/routes/auth/index.ts``, a part whose
    ``router.use("/", authMiddleware(…), resolvedRouter.routes())`` was taken for the root app's mounts, over
    ``server/services/web.ts`` (``app.use(mount("/api", api))``, in another chunk than its every-request hooks)."""
    from codeqa.answer.explanation.constructs.apphook import MOUNTS

    assert not MOUNTS.search('      router.use(\n        "/",\n        authMiddleware({ optional: true }),')
    assert MOUNTS.search('  app.use(mount("/api", api));')
    assert MOUNTS.search("app.use('/api', apiRouter);")


def test_the_same_code_reached_twice_is_shown_once_not_as_a_repeat_of_itself() -> None:
    """Outline: "``init`` (``server/services/web.ts:28-88``) is a function (and 1 more like it:
    ``server/services/web.ts:28-88``)"."""
    from dataclasses import dataclass

    from codeqa.answer.explanation.code.keylines import KeyLine
    from codeqa.answer.explanation.sources.fold import collapse

    @dataclass
    class Seen:
        chunk: Chunk
        lines: list[KeyLine]

    init = Chunk("server/services/web.ts", "typescript", 28, 33, WEB, "init", "function", "config")
    lines = [KeyLine(72, "  app.use(compress());"), KeyLine(74, '  app.use(mount("/api", api));')]
    kept, repeats = collapse([Seen(init, lines), Seen(init, list(lines))])
    assert len(kept) == 1 and repeats == {}


HANDLER = """    public function render($request, Throwable $e): Response
    {
        $expectsJson = $request->expectsJson();

        Log::debug('Now in Handler::render()');

        if ($e instanceof NotFoundHttpException && $expectsJson) {
            return response()->json(['message' => 'Resource not found'], 404);
        }"""


def test_an_outcome_is_quoted_without_the_statements_semicolon() -> None:
    """Firefly III: "Then ``Handler.render`` answers with ``response()->json([…], 404);`` when ``$e instanceof
    NotFoundHttpException && $expectsJson``": the ``;`` ends the code, not the sentence."""
    from codeqa.answer.explanation.code.keylines import KeyLine
    from codeqa.answer.explanation.explain import Step
    from codeqa.answer.explanation.said.outcomes import outcome_said_of
    from codeqa.records import Hit

    chunk = Chunk("app/Exceptions/Handler.php", "php", 94, 102, HANDLER, "Handler.render", "method", "api")
    answer, log = KeyLine(101, HANDLER.split("\n")[7]), KeyLine(98, HANDLER.split("\n")[4])
    step = Step(1, Hit(chunk, 1.0, chunk.id), "is a method", [log, answer], "")
    _, plain = outcome_said_of([("answers with", step, answer), ("logs with", step, log)])
    said = "answers the request when $e instanceof NotFoundHttpException && $expectsJson: return response()->json("
    assert said in plain, plain
    assert "404) (app/" in plain and "Handler::render()') (app/" in plain, plain
    assert "404);" not in plain and "render()');" not in plain, plain


def test_a_templates_render_makes_a_string_it_answers_no_request() -> None:
    """paperless-ngx, how tags are assigned: "``parse_w_workflow_placeholders`` answers with ``rendered_template =
    template.render(formatting)``" — Jinja's ``Template.render`` returns the text; the function returns it."""
    from codeqa.answer.explanation.said.outcomes import OUTCOMES
    from codeqa.answer.explanation.story.endings import OUTCOME_KINDS

    for table in (dict(OUTCOME_KINDS), dict(OUTCOMES)):
        answers = table["answers with"]
        assert not answers.search("        rendered_template = template.render(formatting)")
        assert answers.search("    return res.render('index', { user })")
        assert answers.search("        return reply.render('login.html')")
