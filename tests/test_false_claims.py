"""False sentences read in real-size answers (#35), each on a few lines of the code that produced it.

- a class's "documentation" was its first method's docblock (``VaultPolicy``: "Determine whether the user can view
  any models.");
- "``POST`` calls ``createToken``" when the route calls ``createSecureToken``, the second function of the chunk;
- a function was named after the function nested in it (``get_users_to_notify._check_level``);
- a link by name stood where the caller's own file binds the name: a Vue component's ``const play``, a callback's
  ``done``, a PHP ``use Illuminate\\…\\Middleware``, a Rails association's ``family.destroy``;
- "``_add_user_id`` uses ``RHUserLogs``" for a module-level line of the chunk;
- "Then … answers with" the browser's branch when the question is about an API, a callback being registered, or a
  404 inside a string;
- canned roles: translation strings "hold the settings", Prisma queries "define the stored data", a cookie is "the
  session", ``req.session.meta`` "the signed-in user", ``ActiveStorage::Current`` the app's ``Current``.
"""

from __future__ import annotations

import pytest

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.calls.byname import holds_by_name
from codeqa.answer.explanation.calls.callplace import consistent_chain
from codeqa.answer.explanation.calls.claims import _with_holder
from codeqa.answer.explanation.calls.flow import Use
from codeqa.answer.explanation.code.branches import asks_api, no_answer, off_api_path
from codeqa.answer.explanation.code.outline import display_name, summary
from codeqa.answer.explanation.said.extractive import VERBS, extractive_answer
from codeqa.answer.explanation.said.roles_said import role_phrase
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk, Hit

POLICY = """class VaultPolicy
{
    /**
     * Determine whether the user can view any models.
     */
    public function viewAny(User $user): bool
    {
        return true;
    }
}"""
MIDDLEWARE = """/**
 * Authenticate user with Basic Authentication, with Sanctum token on password field.
 */
class AuthenticateWithTokenOnBasicAuth
{
    /**
     * Create a new middleware instance.
     */
    public function __construct(private Auth $auth) {}
}"""


def _chunk(path: str, language: str, symbol: str, text: str, layer: str = "service", kind: str = "function") -> Chunk:
    return Chunk(path, language, 1, text.count("\n") + 1, text, symbol, kind, layer)


def test_a_class_is_documented_by_its_own_docblock_not_its_first_methods() -> None:
    policy = _chunk("app/Policies/VaultPolicy.php", "php", "VaultPolicy, VaultPolicy.viewAny", POLICY, kind="class")
    middleware = _chunk("app/Http/Middleware/AuthenticateWithTokenOnBasicAuth.php", "php",
                        "AuthenticateWithTokenOnBasicAuth", MIDDLEWARE, kind="class")  # fmt: skip
    assert summary(policy) == ""
    assert summary(middleware) == "Authenticate user with Basic Authentication, with Sanctum token on password field."


def test_the_callee_is_named_as_the_call_names_it() -> None:
    jwt = _chunk("src/lib/jwt.ts", "typescript", "createToken, createSecureToken",
                 "import jwt from 'jsonwebtoken';\n\nexport function createToken(payload: any, secret: any) {\n"
                 "  return jwt.sign(payload, secret);\n}\n\n"
                 "export function createSecureToken(payload: any, secret: any) {\n"
                 "  return createToken({ secure: encrypt(payload) }, secret);\n}", layer="util")  # fmt: skip
    route = _chunk("src/app/api/auth/login/route.ts", "typescript", "POST",
                   "import { createSecureToken } from '@/lib/jwt';\n\nexport async function POST(request: Request) {\n"
                   "  const user = await getUserByUsername((await request.json()).username);\n"
                   "  const token = createSecureToken({ userId: user.id }, secret());\n"
                   "  return Response.json({ token, user });\n}", layer="api")  # fmt: skip
    hits = [Hit(route, 1.0, route.id), Hit(jwt, 0.9, jwt.id)]
    text = extractive_answer("How does user authentication flow through the system?", hits,
                             context=AnswerContext.from_chunks([route, jwt], hits))  # fmt: skip
    assert "calls `createSecureToken`" in text, text
    assert "calls `createToken`" not in text, text
    outcome = [line for line in text.split("\n") if line.startswith("2. ")]
    step = "2. `createSecureToken` (`src/lib/jwt.ts:1-9`) issues a token: `return"
    assert outcome and outcome[0].startswith(step), text


def test_a_function_is_named_itself_not_after_the_function_nested_in_it() -> None:
    outer = _chunk("taiga/notifications/services.py", "python", "get_users_to_notify, get_users_to_notify._check_level",
                   "def get_users_to_notify(obj):\n    def _check_level(user):\n        return True\n"
                   "    return set(filter(_check_level, obj.watchers))")  # fmt: skip
    module = _chunk("app/api.rb", "ruby", "Api, Api.Orders", "module Api\n  class Orders\n  end\nend")
    assert display_name(outer) == "get_users_to_notify (+1)"
    assert display_name(module) == "Api.Orders"


@pytest.mark.parametrize(
    ("user", "user_file", "used", "name", "line", "holds"),
    [
        # the component's own `const play`, not the playback service's
        (("EmbedAudioPlayer.vue", "vue", "EmbedAudioPlayer"),
         "const play = (playable) => {\n  audio.value.play()\n}\nplay(playables.value[0])",
         ("services/QueuePlaybackService.ts", "typescript", "QueuePlaybackService.play", "  public play(p) {"),
         "play", "play(playables.value[0])", False),
        (("EmbedAudioPlayer.vue", "vue", "EmbedAudioPlayer"), "const play = () => {\n  audio.value!.play()\n}",
         ("services/QueuePlaybackService.ts", "typescript", "QueuePlaybackService.play", "  public play(p) {"),
         "play", "audio.value!.play()", False),
        # a callback's parameter `done`, not another file's local `const done`
        (("src/routes/authentication.js", "javascript", "authentication.js"),
         "passport.serializeUser((user, done) => {\n\tdone(null, user.uid);\n});",
         ("src/controllers/authentication.js", "javascript", "register", "\t\tconst done = function (data) {"),
         "done", "done(null, user.uid);", False),
        (("src/routes/index.js", "javascript", "index.js"), "const { done } = require('../controllers');\ndone(x);",
         ("src/controllers/authentication.js", "javascript", "register", "\t\tconst done = function (data) {"),
         "done", "done(x);", False),
        # imported from a package
        (("src/player.js", "javascript", "start"), "import { play } from 'howler';\nplay(track);",
         ("src/services/playback.js", "javascript", "play", "export function play(track) {"),
         "play", "play(track);", False),
        # a PHP class imported from another namespace than the cited file's
        (("bootstrap/app.php", "php", "app.php"),
         "use Illuminate\\Foundation\\Configuration\\Middleware;\n->withMiddleware(static function (Middleware $m) {",
         ("app/Http/Middleware/AuthenticateAudioRequests.php", "php", "Middleware", "namespace App\\Http\\Middleware;"),
         "Middleware", "->withMiddleware(static function (Middleware $m) {", False),
        (("app/Http/Controllers/LoginController.php", "php", "LoginController.store"),
         "use App\\Services\\LoginService;\npublic function store(LoginService $service) {",
         ("app/Services/LoginService.php", "php", "LoginService", "class LoginService {"),
         "LoginService", "public function store(LoginService $service) {", True),
        # a method of the cited chunk is not a receiver's class: `family.destroy` is ActiveRecord's
        (("app/models/user.rb", "ruby", "User.deactivate"), "family.destroy",
         ("app/controllers/accounts_controller.rb", "ruby", "AccountsController.destroy, AccountsController.family",
          "  def destroy\n  end\n  def family\n    Current.family\n  end"), "destroy", "family.destroy", False),
        # `$this->author` is the caller's own: importing a model is not extending it; a trait it uses is its own
        (("app/Services/DestroyMoodTrackingEvent.php", "php", "DestroyMoodTrackingEvent.execute"),
         "use App\\Models\\ContactFeedItem;\n\nclass DestroyMoodTrackingEvent extends BaseService\n{\n"
         "    public function execute() {\n        ContactFeedItem::create(['author_id' => $this->author->id]);",
         ("app/Models/ContactFeedItem.php", "php", "ContactFeedItem.author", "    public function author(): BelongsTo"),
         "author", "ContactFeedItem::create(['author_id' => $this->author->id]);", False),
        (("app/Http/Controllers/ApiController.php", "php", "ApiController"),
         "class ApiController extends Controller\n{\n    use JsonRespondController;\n",
         ("app/Traits/JsonRespondController.php", "php", "JsonRespondController",
          "trait JsonRespondController\n{\n    public function setHTTPStatusCode(int $code): self"),
         "setHTTPStatusCode", "return $this->setHTTPStatusCode(400)", True),
        # a bare call reaches an instance method only from its own class or one that inherits or includes it
        (("app/mailers/user_mailer.rb", "ruby", "UserMailer.send_daily_triage"),
         "class UserMailer < ApplicationMailer\n  def send_daily_triage\n    mail(to: @user.email)\n  end\nend",
         ("app/models/doc_mailer_maker.rb", "ruby", "DocMailerMaker, DocMailerMaker.mail",
          "class DocMailerMaker\n  def mail\n    UserMailer.daily_docs(user: user)\n  end\nend"),
         "mail", "mail(to: @user.email)", False),
        (("app/controllers/sessions_controller.rb", "ruby", "SessionsController.create"),
         "class SessionsController < ApplicationController\n  def create\n    start_new_session_for(user)\n  end\nend",
         ("app/controllers/concerns/authentication.rb", "ruby", "Authentication, Authentication.start_new_session_for",
          "module Authentication\n  def start_new_session_for(user)\n  end\nend"),
         "start_new_session_for", "start_new_session_for(user)", True),
        (("app/Http/Controllers/MailController.php", "php", "MailController.send"), "mail($to, $subject, $body);",
         ("app/Mail/Mailer.php", "php", "Mailer, Mailer.mail",
          "class Mailer\n{\n    public function mail($to, $subject, $body) {}\n}"),
         "mail", "mail($to, $subject, $body);", False),
        # a member call whose receiver is on the line above stays a member call
        (("app/Repositories/SongRepository.php", "php", "SongRepository.countSongs"),
         "return Song::query(user: $user ?? $this->auth->user())\n            ->accessible()\n            ->count();",
         ("app/Builders/SongBuilder.php", "php", "SongBuilder.accessible",
          "class SongBuilder extends Builder\n{\n    public function accessible(): self {}\n}"),
         "accessible", "->accessible()", True),
        # still linked: an imported helper, called bare
        (("src/controllers/users.js", "javascript", "profile"), "const { escape } = require('../helpers');",
         ("src/helpers.js", "javascript", "escape", "function escape(s) {"), "escape", "return escape(name);", True),
    ],
)  # fmt: skip
def test_a_name_the_callers_own_file_binds_is_no_link(user: tuple, user_file: str, used: tuple, name: str, line: str,
                                                       holds: bool) -> None:  # fmt: skip
    caller, callee = _chunk(*user, text=line), _chunk(*used[:3], text=used[3])
    assert holds_by_name(caller, callee, Use(name, 1, "calls", line), user_file) is holds


def test_a_use_on_a_module_level_line_is_not_the_functions() -> None:
    blueprint = Chunk("indico/modules/logs/blueprint.py", "python", 34, 41,
                      "with _bp.add_prefixed_rules('/user/<int:user_id>', '/user'):\n"
                      "    _bp.add_url_rule('/logs/', 'user', RHUserLogs)\n\n\n@_bp.url_defaults\n"
                      "def _add_user_id(endpoint, values):\n    if 'user_id' not in values:\n"
                      "        values['user_id'] = request.view_args.get('user_id')", "_add_user_id", "function",
                      "api")  # fmt: skip
    module_level = Use("RHUserLogs", 35, "uses", "_bp.add_url_rule('/logs/', 'user', RHUserLogs)")
    inside = Use("request", 41, "uses", "values['user_id'] = request.view_args.get('user_id')")
    assert _with_holder(blueprint, module_level) is None
    held = _with_holder(blueprint, inside)
    assert held is not None and held.caller == "_add_user_id"


NETBOX = """    def process_exception(self, request, exception):
        if get_config().MAINTENANCE_MODE and isinstance(exception, InternalError):
            if is_api_request(request) or is_graphql_request(request):
                return handle_rest_api_exception(request, error=error_message)

            messages.error(request, error_message)
            return HttpResponseRedirect(request.path_info)
        return None"""
INDICO = """def render_error(exc, title, message, code, standalone=False):
    if _need_json_response():
        return _jsonify_error(exc, title, message, code)
    elif standalone:
        return render_template('standalone_error.html', error_message=title), code"""


def test_asked_about_an_api_the_browsers_branch_is_not_what_happens() -> None:
    netbox = _chunk("netbox/netbox/middleware.py", "python", "MaintenanceModeMiddleware.process_exception", NETBOX)
    indico = _chunk("indico/web/errors.py", "python", "render_error", INDICO)
    assert asks_api("What happens when an API request fails?") and not asks_api("What happens when a page fails?")
    assert off_api_path(netbox, 7) and not off_api_path(netbox, 4)
    assert off_api_path(indico, 5) and not off_api_path(indico, 3)
    negated = _chunk("app/errors.py", "python", "handle", "def handle(exc):\n    if not request.is_json:\n"
                     "        return render_template('error.html')\n    return jsonify(error=str(exc))")  # fmt: skip
    assert off_api_path(negated, 3) and not off_api_path(negated, 4)


_CONTEXTS: list[AnswerContext] = []


def _opening(chunk: Chunk, question: str) -> str:
    hits = [Hit(chunk, 1.0, chunk.id)]
    _CONTEXTS.append(AnswerContext.from_chunks([chunk], hits))
    return extractive_answer(question, hits, context=_CONTEXTS[-1]).split("\n")[0]


def test_an_outcome_is_on_the_path_asked_a_response_not_a_registered_callback_or_a_status_in_a_string() -> None:
    netbox = _chunk("netbox/netbox/middleware.py", "python", "MaintenanceModeMiddleware.process_exception", NETBOX,
                    layer="api")  # fmt: skip
    registers = _chunk("bootstrap/app.php", "php", "app.php",
                       "<?php\n\nuse Illuminate\\Foundation\\Application;\n"
                       "use Illuminate\\Foundation\\Configuration\\Exceptions;\n\n"
                       "return Application::configure(basePath: dirname(__DIR__))\n"
                       "    ->withExceptions(static function (Exceptions $exceptions): void {\n"
                       "        $exceptions->render(static function (\n            AuthenticationException $e,\n"
                       "            Request $request,\n        ) {\n            return redirect()->guest('/');\n"
                       "        });\n    })->create();", layer="config")  # fmt: skip
    status = _chunk("app/Services/ContactSync.php", "php", "ContactSync.deletedContacts",
                    "private function deletedContacts(): Collection\n{\n"
                    "    $contacts = $this->client->addressbookQuery('etag');\n"
                    "    $deleted = $contacts->filter(fn ($contact): bool => $contact['status'] === '404');\n"
                    "    return $deleted;\n}")  # fmt: skip
    api_fails = "What happens when an API request fails?"
    opening = _opening(netbox, api_fails)
    assert "handle_rest_api_exception" in opening and "HttpResponseRedirect" not in opening, opening
    opening = _opening(registers, api_fails)
    assert "turns exceptions into responses" in opening and "answers with `$exceptions->render" not in opening, opening
    opening = _opening(status, "What happens when a synced contact was deleted?")
    assert "deletedContacts" in opening and "answers with" not in opening, opening


def test_canned_roles_need_what_they_say() -> None:
    translations = _chunk("public/language/ar/error.json", "json", "api.master-token-no-uid",
                          '"api.master-token-no-uid": "..."', layer="config", kind="config")  # fmt: skip
    settings = _chunk("config/app.json", "json", "port", '"port": 4567', layer="config", kind="config")
    queries = _chunk("src/queries/prisma/teamUser.ts", "typescript", "createTeamUser",
                     "export async function createTeamUser(userId: string) {\n"
                     "  return prisma.client.teamUser.create({ data: { userId } });\n}", layer="model")  # fmt: skip
    schema = _chunk("prisma/schema.prisma", "prisma", "User", "model User {\n  id String @id\n}", layer="model")
    assert role_phrase(translations, VERBS, "is here") != "holds the settings"
    assert role_phrase(settings, VERBS, "is here") == "holds the settings"
    assert role_phrase(queries, VERBS, "is here") == "is a function"
    assert role_phrase(schema, VERBS, "is here") == "defines the stored data"
    guard = _chunk("CTFd/utils/decorators/__init__.py", "python", "require_authentication_if_config",
                   "def require_authentication_if_config(config_key):\n    if not current_user.authed():\n"
                   "        return redirect(url_for('auth.login', next=request.full_path))", layer="view")  # fmt: skip
    page = _chunk("CTFd/views.py", "python", "static_html", "def static_html(route):\n"
                  "    return render_template('page.html', content=page.html)", layer="view")  # fmt: skip
    assert role_phrase(guard, VERBS, "is here") == "handles the request"  # it redirects: it renders nothing
    assert role_phrase(page, VERBS, "is here") == "renders what the user sees"


def _says(framework: str, kind: str, text: str, question: str = "How does user authentication flow?") -> list[str]:
    from codeqa.answer.explanation.constructs.mechanism import matches_in

    convention = next(c for c in load_all() if c.name == framework)
    language = {"Rails": "ruby", "Django": "python"}.get(framework, "javascript")
    piece = Chunk("app/x", language, 1, text.count("\n") + 1, text, "", "function", "api")
    return [m.phrase for m in matches_in(piece, [convention], intents(question)) if m.construct.kind == kind]


def test_session_cookie_and_current_are_said_as_the_code_has_them() -> None:
    assert _says("Rails", "auth", "cookies.signed.permanent[:session_token] = { value: session.id }") == [
        "stores `session_token` in a cookie"
    ]
    assert _says("Rails", "auth", "session[:user_id] = user.id") == ["stores `user_id` in the session"]
    assert not [p for p in _says("Rails", "auth", "ActiveStorage::Current.url_options = { host: h }") if "Current" in p]
    assert _says("Rails", "auth", "Current.session = session_record") == [
        "sets `Current.session` for the rest of the request"
    ]
    assert not _says("Express", "auth", "req.session.meta = {};")
    assert _says("Express", "auth", "req.uid = uid;") == ["puts the signed-in user on the request (`req.uid`)"]


PASSES_ON = """exports.handleURIErrors = async function handleURIErrors(err, req, res, next) {
\tif (err instanceof URIError) {
\t\tres.status(400).json({ error: 'bad uri' });
\t} else {
\t\tnext(err);
\t}
};

exports.handleErrors = async function handleErrors(err, req, res, next) {
\tres.status(500).json({ error: err.message });
};"""


def test_a_construct_holds_only_where_the_definition_it_opens_does_what_it_says() -> None:
    fails = "What happens when an API request fails?"
    middleware = _says("Express", "error", PASSES_ON, fails)
    assert middleware.count("is the error middleware (four arguments): every `next(error)` ends here") == 1
    alert = "export function error(message, timeout) {\n\talert({ title: 'Error', message, type: 'danger' });\n}"
    response = "export function badRequest(error) {\n  return Response.json({ error }, { status: 400 });\n}"
    assert not _says("any framework", "error", alert, fails)
    assert "builds the `badRequest` error response" in _says("any framework", "error", response, fails)


CASES = """exports.handleErrors = async function handleErrors(err, req, res, next) {
\tconst cases = {
\t\tEBADCSRFTOKEN: function () {
\t\t\tres.sendStatus(403);
\t\t},
\t};
\tif (cases[err.code]) {
\t\treturn cases[err.code]();
\t}
\tres.status(500).json({ error: err.message });
};"""


def test_a_loop_over_status_codes_is_not_what_the_app_answers() -> None:
    text = ("def create_app(config=None):\n    app = Flask(__name__)\n    for code in {401, 403, 404, 500, 502}:\n"
            "        app.register_error_handler(code, render_error)\n    return app")  # fmt: skip
    create_app = _chunk("CTFd/__init__.py", "python", "create_app", text, layer="config")
    assert no_answer(create_app, 3, "    for code in {401, 403, 404, 500, 502}:")
    assert not no_answer(create_app, 3, "    if not user: return redirect(url_for('auth.login'))")  # a body on the line
    assert "answers with `for code" not in _opening(create_app, "What happens when an API request fails?")


def test_one_case_of_a_dispatch_table_or_a_callback_handed_over_is_no_answer() -> None:
    errors = _chunk("src/controllers/errors.js", "javascript", "handleErrors", CASES, layer="api")
    assert no_answer(errors, 4, "\t\t\tres.sendStatus(403);")
    assert not no_answer(errors, 10, "\tres.status(500).json({ error: err.message });")
    assert no_answer(errors, 1, "    $exceptions->render(static function (")


def test_a_rest_authentication_class_is_not_an_authentication_backend() -> None:
    backend = "is an authentication backend: it decides who the user is"
    assert backend in _says("Django", "auth", "    def authenticate(self, request, remote_user, remote_groups=None):")
    assert backend not in _says("Django", "auth", "    def authenticate(self, request):")


def test_a_chain_by_name_breaks_where_another_definition_of_the_chunk_makes_the_next_call() -> None:
    job = Chunk("app/jobs/send_daily_triage_email_job.rb", "ruby", 61, 68,
                "  def email_decider(user)\n    EmailRateLimit.new(user.days_since_last_clicked)\n  end\n\n"
                "  def before_email_time_of_day?(user)\n    Time.current < email_time_of_day_or_default(user)\n"
                "  end\nend", "Job.email_decider, Job.before_email_time_of_day?", "method", "service")  # fmt: skip
    caller = _chunk(
        "app/jobs/send_daily_triage_email_job.rb",
        "ruby",
        "SendDailyTriageEmailJob.reason_for_skip",
        "  def reason_for_skip(user)\n    return 'Not time' if before_email_time_of_day?(user)\n  end",
    )
    first = Use("before_email_time_of_day?", 2, "calls", "return 'Not time' if before_email_time_of_day?(user)")
    rate_limit = Use("new", 62, "calls", "EmailRateLimit.new(user.days_since_last_clicked)")
    default = Use("email_time_of_day_or_default", 66, "calls", "Time.current < email_time_of_day_or_default(user)")
    assert consistent_chain([first, rate_limit], [caller, job]) == 1
    assert consistent_chain([first, default], [caller, job]) == 2
