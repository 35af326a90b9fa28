"""False and misleading sentences read in 30 whole answers of main (#35, round 7: 18 real-size, 12 of dev 183's
small apps), each class on the few real lines that made it (bench/reads/whole-answers-round7-before.md).

- A: an Elixir link found by name to another module's ``error`` where the caller's module defines its own
  (``defp error(stage, code)``), and a variable bound by a pattern (``%Error{} = error``) said to use that function;
- B: a framework sentence said of a line it does not fit: a DTO's ``apiError.setStatus(status)`` "answers requests
  that are not signed in or not allowed", a Phoenix ``plug :check_oauth_config when action in [:request]`` run "on
  each request", a Laravel ``$middleware->alias([...])`` that "adds middleware to every request of the app";
- C: a call made on a decorator line said "from" the class around it (``@materialize_iterable()`` above
  ``def _entries``);
- D: a Go chunk holding two ``toEcho`` methods, each line named after the first one (``Handler.toEcho``);
- E: a call in a JavaScript module wrapper named after its file (``membership.js`` calls, ``posts.js`` calls), where
  the function assigned in the wrapper makes it (``Groups.isMember``, ``User.isReadyToPost``);
- F: ``self.get_data()`` linked to the base class's ``raise NotImplementedError`` stub;
- H: a gorm query (``db.Model(&gist).Update(…)``) read as a model's definition: "defines the stored data";
- I: the redirect of an Elixir function's failure clause said as what it answers with ("Then ``callback`` answers
  with ``|> redirect(to: ~p"/login")``": only when ``ueberauth_failure`` matched);
- G (a known risk): a name read in one file (``time.time()``) linked to a literal another file sets
  (``time = 'time'``) with no import between them.
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.calls.callplace import from_clause, placed_caller
from codeqa.answer.explanation.calls.claims import ClaimChecker
from codeqa.answer.explanation.calls.flow import Use
from codeqa.answer.explanation.code.keylines import KeyLine
from codeqa.answer.explanation.code.linenames import holder_at, name_at
from codeqa.answer.explanation.code.values import values_read
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk, Hit

AUTH_ERROR = """  def error(conn, error) do
    case error do
      {:error, :missing} ->
        unauthorized(conn, "missing authentication information")
"""
TOKEN_ERROR = """  defp token_error(%Error{} = error, _ref), do: {:error, error}

  defp token_error({:http_error, _status, _body}, _ref),
    do: error(:token, :token_endpoint_rejected_request)

  defp token_error(:invalid_content_type, _ref), do: error(:token, :invalid_content_type)"""
OIDCC_TAIL = """  defp valid_provider_email?(_email), do: false

  defp error(stage, code), do: {:error, %Error{stage: stage, code: code}}
end"""
RECORD_FAILURE = """  defp do_record_failure(%Connection{} = connection, %Error{} = error, user) do
    code = stable_failure_code(error.code)"""
API_ERROR = """    public static ApiError error(Integer status, String message){
        ApiError apiError = new ApiError();
        apiError.setStatus(status);
        apiError.setMessage(message);
        return apiError;
    }"""
ACCESS_DENIED = """   public void handle(HttpServletRequest request, HttpServletResponse response, AccessDeniedException accessDeniedException) throws IOException {
      response.setStatus(HttpStatus.FORBIDDEN.value());"""  # noqa: E501
AUTH_CONTROLLER = """defmodule HexpmWeb.AuthController do
  use HexpmWeb, :controller
  plug :check_oauth_config when action in [:request]
  plug Ueberauth

  alias Hexpm.Accounts.{Auth, Users, UserProviders}"""
KOEL_APP = """    ->withMiddleware(static function (Middleware $middleware): void {
        $middleware->api(prepend: [
            AddRequestContextForLogging::class,
        ]);

        $middleware->alias([
            'audio.auth' => AuthenticateAudioRequests::class,
            'os.auth' => ObjectStorageAuthenticate::class,
            'embeds.enabled' => EnsureEmbedsEnabled::class,
        ]);"""
RESCHEDULE_HEAD = """from werkzeug.exceptions import BadRequest
from werkzeug.utils import cached_property

from indico.core.errors import NoReportError, UserValueError
from indico.util.iterables import materialize_iterable, window"""
RESCHEDULER = '''class Rescheduler:
    """
    Compact the the schedule of an event day by either adjusting
    start times or durations of timetable entries.
    """'''
ENTRIES = """    @cached_property
    @materialize_iterable()
    def _entries(self):
        if self.session_block:
            # if we have a session block we reschedule the entries inside that block
            for entry in self.session_block.timetable_entry.children:
                yield entry"""
MATERIALIZE = '''def materialize_iterable(type_=list):
    """Decorator that materializes an iterable."""

    def decorator(fn):
        @wraps(fn)
        def wrapper(*args, **kwargs):
            return type_(fn(*args, **kwargs))

        return wrapper

    return decorator'''
HANDLER_GO = """package server

import (
	"github.com/labstack/echo/v4"
	"github.com/thomiceli/opengist/internal/web/context"
)

type Handler func(ctx *context.Context) error
type Middleware func(next Handler) Handler

func (h Handler) toEcho() echo.HandlerFunc {
	return func(c echo.Context) error {
		return h(c.(*context.Context))
	}
}

func (m Middleware) toEcho() echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return m(func(c *context.Context) error {
			return next(c)
		}).toEcho()
	}
}"""
MEMBERSHIP = """'use strict';

const _ = require('lodash');

const db = require('../database');
const user = require('../user');
const cache = require('../cache');

module.exports = function (Groups) {
	Groups.getMembers = async function (groupName, start, stop) {
		return await db.getSortedSetRevRange(`group:${groupName}:members`, start, stop);
	};

	Groups.isMember = async function (uid, groupName) {
		if (!uid || parseInt(uid, 10) <= 0 || !groupName) {
			return isMemberOfEphemeralGroup(uid, groupName);
		}
		return await db.isSortedSetMember(`group:${groupName}:members`, uid);
	};"""
USER_POSTS = """'use strict';

const db = require('../database');
const meta = require('../meta');

module.exports = function (User) {
	User.isReadyToPost = async function (uid, cid) {
		await isReady(uid, cid, 'lastposttime');
	};

	User.isReadyToQueue = async function (uid, cid) {
		await isReady(uid, cid, 'lastqueuetime');
	};"""
PUSH_BASE = """class BasePushEventHook(BaseEventHook):
    def get_data(self):
        raise NotImplementedError"""
STATUS_COMMENT = """    def generate_status_change_comment(self, **kwargs):
        if kwargs.get("user_url", None) is None:
            user_text = kwargs.get("user_name", _("unknown user"))
        return user_text"""
PROCESS_EVENT = """    def process_event(self):
        if self.ignore():
            return
        data = self.get_data()

        for commit in data:
            comment = self.generate_status_change_comment(src_status=1, dst_status=2, **commit)"""
BENCHMARK_HEAD = """import time
from math import isinf

import click"""
BENCHMARK = """    def start(self):
        self._start_time = time.time()
        return self

    def stop(self):
        self._end_time = time.time()"""
RESCHEDULE_MODE = """class RescheduleMode(str, RichEnum):
    __titles__ = {'none': 'Fit blocks', 'time': 'Start times', 'duration': 'Durations'}
    none = 'none'  # no action, just fit blocks..
    time = 'time'
    duration = 'duration'"""


def _chunk(path: str, language: str, start: int, text: str, symbol: str, kind: str, layer: str) -> Chunk:
    return Chunk(path, language, start, start + text.count("\n"), text, symbol, kind, layer)


def test_an_elixir_modules_own_function_and_a_pattern_variable_are_not_another_modules() -> None:
    helpers = _chunk("lib/hexpm_web/auth_helpers.ex", "elixir", 156, AUTH_ERROR, "HexpmWeb.AuthHelpers.error",
                     "method", "api")  # fmt: skip
    oidcc = "lib/hexpm/accounts/sso/oidc/oidcc.ex"
    token = _chunk(oidcc, "elixir", 243, TOKEN_ERROR, "Hexpm.Accounts.SSO.OIDC.Oidcc.token_error", "method", "service")
    tail = _chunk(oidcc, "elixir", 490, OIDCC_TAIL,
                  "Hexpm.Accounts.SSO.OIDC.Oidcc.valid_provider_email?, Hexpm.Accounts.SSO.OIDC.Oidcc.error", "method",
                  "service")  # fmt: skip
    failure = _chunk("lib/hexpm/accounts/sso.ex", "elixir", 1051, RECORD_FAILURE,
                     "Hexpm.Accounts.SSO.do_record_failure", "method", "service")  # fmt: skip
    context = AnswerContext.from_chunks(
        [helpers, token, tail, failure], [Hit(helpers, 1.0, helpers.id), Hit(token, 0.9, token.id)]
    )
    checker = ClaimChecker(context)
    assert checker.link(token, helpers, context.imports([helpers.path])) is None  # its own `defp error` (492)
    assert checker.link(failure, helpers, context.imports([helpers.path])) is None  # `%Error{} = error`


def test_a_framework_sentence_fits_the_line_it_is_said_of() -> None:
    spring = next(c for c in load_all() if c.name.lower().startswith("spring"))
    asked = intents("What happens when an API request fails?")
    dto = _chunk("eladmin-common/src/main/java/me/zhengjie/exception/handler/ApiError.java", "java", 37, API_ERROR,
                 "ApiError.error", "method", "api")  # fmt: skip
    assert not [m.phrase for m in matches_in(dto, [spring], asked)]
    denied = _chunk("eladmin-system/src/main/java/me/zhengjie/modules/security/security/JwtAccessDeniedHandler.java",
                    "java", 35, ACCESS_DENIED, "JwtAccessDeniedHandler.handle", "method", "api")  # fmt: skip
    assert "answers requests that are not signed in or not allowed" in [
        m.phrase for m in matches_in(denied, [spring], asked)
    ]
    phoenix = next(c for c in load_all() if c.name.lower().startswith("phoenix"))
    controller = _chunk("lib/hexpm_web/controllers/auth_controller.ex", "elixir", 1, AUTH_CONTROLLER,
                        "HexpmWeb.AuthController", "class", "api")  # fmt: skip
    said = [m.phrase for m in matches_in(controller, [phoenix], intents("How does user authentication flow?"))]
    assert "runs the `check_oauth_config` plug on some actions (`when action in [:request]`)" in said
    assert "runs the `Ueberauth` plug on each request it handles" in said  # the controller's requests (scope2)
    laravel = next(c for c in load_all() if c.name.lower().startswith("laravel"))
    app = _chunk("bootstrap/app.php", "php", 35, KOEL_APP, "", "module", "config")
    found = {m.line: m.phrase for m in matches_in(app, [laravel], intents("How does user authentication flow?"))}
    assert found.get(40) == "names middleware that routes can ask for"  # `$middleware->alias([`, not every request
    assert "every request" not in found.get(35, "")  # `->withMiddleware(`: groups and aliases too
    # `$middleware->api(prepend: [`: the `api` route group's middleware, not every request's (scope2)
    assert found.get(36) == "adds middleware to the `api` routes only (a route group's middleware)"


def test_a_decorators_call_is_the_decorated_definitions() -> None:
    path = "indico/modules/events/timetable/reschedule.py"
    head = _chunk(path, "python", 12, RESCHEDULE_HEAD, "", "module", "service")
    rescheduler = _chunk(path, "python", 38, RESCHEDULER, "Rescheduler", "class", "service")  # (docstring cut)
    entries = _chunk(path, "python", 120, ENTRIES, "Rescheduler._entries", "method", "service")
    helper = _chunk("indico/util/iterables.py", "python", 34, MATERIALIZE, "materialize_iterable", "function", "util")
    context = AnswerContext.from_chunks([head, rescheduler, entries, helper], [Hit(entries, 1.0, entries.id)])
    use = ClaimChecker(context).link(entries, helper, context.imports([entries.path, helper.path]))
    assert use is not None and use.line == 121 and use.caller == "Rescheduler._entries"  # not the class body
    assert from_clause(use, "Rescheduler._entries", entries) == ""  # not "from `Rescheduler`"


def test_two_methods_of_one_name_are_told_apart_by_their_receiver() -> None:
    handler = _chunk("internal/web/server/handler.go", "go", 1, HANDLER_GO,
                     "Handler, Middleware, Handler.toEcho, Middleware.toEcho", "function", "api")  # fmt: skip
    assert holder_at(handler, 17) == "Middleware.toEcho"  # `func (m Middleware) toEcho() echo.MiddlewareFunc {`
    assert name_at(handler, 18) == "Middleware.toEcho"
    assert holder_at(handler, 11) == "Handler.toEcho"


def test_a_call_in_a_module_wrapper_named_after_its_file_is_placed_in_its_function() -> None:
    membership = _chunk("src/groups/membership.js", "javascript", 1, MEMBERSHIP, "", "module", "service")
    call = Use("isMemberOfEphemeralGroup", 16, "calls", "return isMemberOfEphemeralGroup(uid, groupName);")
    assert from_clause(call, "membership.js", membership) == " from `Groups.isMember`"
    posts = _chunk("src/user/posts.js", "javascript", 1, USER_POSTS, "", "module", "service")
    assert placed_caller(Use("isReady", 8, "calls", "await isReady(uid, cid, 'lastposttime');"), posts) == (
        "User.isReadyToPost"
    )


def test_a_self_call_is_not_linked_to_a_stub_that_only_raises_not_implemented() -> None:
    path = "taiga/hooks/event_hooks.py"
    base = _chunk(path, "python", 285, PUSH_BASE, "BasePushEventHook, BasePushEventHook.get_data", "class", "service")
    comment = _chunk(path, "python", 289, STATUS_COMMENT, "BasePushEventHook.generate_status_change_comment",
                     "method", "service")  # fmt: skip
    process = _chunk(path, "python", 373, PROCESS_EVENT, "BasePushEventHook.process_event", "method", "service")
    context = AnswerContext.from_chunks([base, comment, process], [Hit(process, 1.0, process.id)])
    checker = ClaimChecker(context)
    assert checker.link(process, base, context.imports([path])) is None  # a subclass's `get_data` runs
    kept = checker.link(process, comment, context.imports([path]))
    assert kept is not None and kept.name == "BasePushEventHook.generate_status_change_comment"


def test_a_value_set_in_another_file_is_read_only_through_an_import() -> None:
    bench = "indico/util/benchmark.py"
    head = _chunk(bench, "python", 8, BENCHMARK_HEAD, "", "module", "util")
    methods = _chunk(bench, "python", 30, BENCHMARK, "Benchmark.start, Benchmark.stop", "class", "util")
    mode = _chunk("indico/modules/events/timetable/reschedule.py", "python", 26, RESCHEDULE_MODE, "RescheduleMode",
                  "class", "service")  # fmt: skip
    read = [KeyLine(31, "        self._start_time = time.time()")]
    assert values_read(read, methods, [head, mode], head.text) == []  # `time` is the module `import time` binds
    imported = "from indico.modules.events.timetable.reschedule import RescheduleMode, time"
    assert [v.name for v in values_read(read, methods, [head, mode], imported)] == ["time"]


FORK_COUNT = """func (gist *Gist) IncrementForkCount() error {
	return db.Model(&gist).Omit("updated_at").Update("nb_forks", gist.NbForks+1).Error
}"""
NOTIFICATIONS = """class Notifications(db.Model):
    __tablename__ = "notifications"
    id = db.Column(db.Integer, primary_key=True)"""


def test_a_gorm_query_does_not_define_the_stored_data() -> None:
    from codeqa.answer.explanation.said.extractive import VERBS
    from codeqa.answer.explanation.said.roles_said import role_phrase

    query = _chunk("internal/db/gist.go", "go", 657, FORK_COUNT, "Gist.IncrementForkCount", "method", "model")
    assert role_phrase(query, VERBS, "is here") != "defines the stored data"  # `db.Model(&gist)` is a query
    model = _chunk("CTFd/models/__init__.py", "python", 55, NOTIFICATIONS, "Notifications", "class", "model")
    assert role_phrase(model, VERBS, "is here") == "defines the stored data"


CALLBACK = """  def callback(%{assigns: %{ueberauth_failure: _fails}} = conn, _params) do
    conn
    |> put_flash(:error, "Failed to authenticate with GitHub.")
    |> redirect(to: ~p"/login")
  end

  def callback(%{assigns: %{ueberauth_auth: auth}} = conn, _params) do
    provider = to_string(auth.provider)
    provider_uid = to_string(auth.uid)"""
LOGIN_CREATE = """  def create(conn, %{"username" => username, "password" => password}) do
    case password_auth(username, password) do"""


def test_a_line_of_one_elixir_clause_of_several_does_not_run_every_time() -> None:
    from codeqa.answer.explanation.code.branches import condition_at

    path = "lib/hexpm_web/controllers/auth_controller.ex"
    callback = _chunk(path, "elixir", 33, CALLBACK, "HexpmWeb.AuthController.callback", "method", "api")
    assert condition_at(callback, 36) is None  # `|> redirect(to: ~p"/login")` only on `ueberauth_failure`
    create = _chunk("lib/hexpm_web/controllers/login_controller.ex", "elixir", 17, LOGIN_CREATE,
                    "HexpmWeb.LoginController.create", "method", "api")  # fmt: skip
    assert condition_at(create, 18) == ("", "")  # one clause: it runs every time
