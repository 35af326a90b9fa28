"""False sentences on two apps in no data set (probe35: glific, a Phoenix chatbot platform, and Lychee, a Laravel photo
gallery):

- "`SessionOrTokenGuard.user` … calls `setUser` (`SessionOrTokenGuard.php:232-255`)" for ``parent::setUser($user)``,
  written to skip the class's own ``setUser``: a call through the parent never runs the caller's own override
  (``parentcalls.parent_misses``);
- "`Handler.report` … is called by `Handler.reportSafely`" for a bare ``report($e)``, Laravel's global helper: a PHP
  method is called through ``$this->``, never bare, in its own file too (``parentcalls.php_bare_method``);
- "`Glific.Flows.start_contact_flow` … is called by `Glific.Flows` (`flows.ex:760-764`)", a chunk holding its
  ``@doc`` and ``@spec start_contact_flow(…)``: a typespec types a function, it calls none (``flow.TYPESPEC``);
- "`Glific.log_exception` answers with an error response" for ``Appsignal.send_error(error, [], fn span -> …)``: an
  error tracker's call reports the error, it answers no request (``common.toml``);
- "`Glific.Providers.Gupshup.ApiClient` runs the `Tesla.Middleware.Logger` … plugs on each request it handles": a
  Tesla HTTP client's plugs run on the requests it sends (``phoenix.toml``);
- "… is where the app routes its sign-in URL: `post("/users/log_in", UserSessionController, :create)` … Then
  `GlificWeb.UserSessionController.new` answers with `render(conn, "new.html", error_message: nil)`": the route names
  the action ``create``; ``new``'s answer is another request's (``told.on_routed_action``).

Asked how a password is reset and how a user registers:
- "the code at `users.ex:247-267` checks who is calling before going on" for ``@spec authenticate_user_organization(…)``
  and ``defp authenticate_user_organization(`` heads: a typespec and an Elixir private head call nothing
  (``mechanism._code_lines``, ``common.toml``);
- "… signs users in and finds them on each request with Pow" for ``Pow.Plug.authenticate_user(conn, user_params)``
  after a password reset: the call signs one user in; only a ``use Pow.Plug.Base`` plug finds users on each request;
- "`VueController.check` is where the app routes its sign-up URL: `Route::get('/register', VueController::class)`":
  a route to an invokable controller runs its ``__invoke`` (``route_lines.action_rows``).

Asked who calls ``createSizeVariants``: "No code in this index calls `createSizeVariants`" for three calls
``$size_variant_factory->createSizeVariants()`` on a variable resolved from Laravel's container as the interface:
an unconfirmed mention may be a call, so no absence is said (``graphqa.render_graph``); and a variable made by ``new
X(…)`` or ``resolve(X::class)`` is declared as ``X`` (``declared.DECLARED``), which confirms those calls.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import cast

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.calls.byname import holds_by_name, typed_receiver
from codeqa.answer.explanation.calls.declared import declared_types
from codeqa.answer.explanation.calls.flow import Use, find_uses, link
from codeqa.answer.explanation.calls.graphqa import GraphAnswer, render_graph
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.sources.route_lines import action_rows, invokable
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk
from tests.helpers import extractive_text

GUARD_PATH = "app/Services/Auth/SessionOrTokenGuard.php"
# app/Services/Auth/SessionOrTokenGuard.php (cut): `user()` calls the parent's `setUser`, `$this->login`
GUARD_HEAD = """<?php

namespace App\\Services\\Auth;

use Illuminate\\Auth\\SessionGuard;

class SessionOrTokenGuard extends SessionGuard
{
"""
GUARD_USER = """\tpublic function user(): Authenticatable|null
\t{
\t\tif ($this->user !== null) {
\t\t\treturn $this->user;
\t\t}
\t\t$user_by_token = $this->getUserByToken();
\t\tif ($user_by_token !== null) {
\t\t\t// We call the parent method here to skip the additional token
\t\t\t// check added by the overwritten method of this class.
\t\t\tparent::setUser($user_by_token);
\t\t\t$this->authState = self::AUTH_STATE_STATELESS;
\t\t} elseif ($user_by_recaller !== null) {
\t\t\t$this->login($user_by_recaller, true);
\t\t}

\t\treturn $this->user;
\t}
"""
GUARD_SET_USER = """\tpublic function setUser(Authenticatable $user): static
\t{
\t\t$user_by_token = $this->getUserByToken();
\t\tif ($user_by_token !== null && $user->getAuthIdentifier() !== $user_by_token->getAuthIdentifier()) {
\t\t\tthrow new BadRequestHeaderException('Cannot set another user than the one provided by the API token');
\t\t}
\t\tparent::setUser($user);
\t\t$this->authState = self::AUTH_STATE_STATELESS;

\t\treturn $this;
\t}
"""
GUARD_LOGIN = """\tpublic function login(AuthenticatableContract $user, $remember = false): void
\t{
\t\tparent::login($user, $remember);
\t\t$this->authState = self::AUTH_STATE_STATEFUL;
\t}
}
"""


def _lines(text: str) -> int:
    return text.count("\n")


def _guard() -> tuple[str, Chunk, Chunk, Chunk]:
    file = GUARD_HEAD + GUARD_USER + "\n" + GUARD_SET_USER + "\n" + GUARD_LOGIN
    start = _lines(GUARD_HEAD) + 1
    user = Chunk(GUARD_PATH, "php", start, start + _lines(GUARD_USER) - 1, GUARD_USER.rstrip("\n"),
                 "SessionOrTokenGuard.user", "method", "service")  # fmt: skip
    start = user.end_line + 2
    set_user = Chunk(GUARD_PATH, "php", start, start + _lines(GUARD_SET_USER) - 1, GUARD_SET_USER.rstrip("\n"),
                     "SessionOrTokenGuard.setUser", "method", "service")  # fmt: skip
    start = set_user.end_line + 2
    login = Chunk(GUARD_PATH, "php", start, start + _lines(GUARD_LOGIN) - 2, GUARD_LOGIN.rstrip("\n"),
                  "SessionOrTokenGuard.login", "method", "service")  # fmt: skip
    return file, user, set_user, login


def _holds(user: Chunk, used: Chunk, file: str) -> bool:
    found = link(user, used, {})
    return found is not None and holds_by_name(user, used, found, file)


def test_a_call_through_the_parent_is_not_the_callers_own_override() -> None:
    file, user, set_user, login = _guard()
    assert file.split("\n")[user.start_line - 1].strip().startswith("public function user()")
    assert [use.text for use in find_uses(user, set_user)] == ["parent::setUser($user_by_token);"]
    assert not _holds(user, set_user, file)  # `parent::setUser`: SessionGuard's, not this class's
    assert _holds(user, login, file)  # `$this->login(…)`: this class's own
    # the parent's method, in the parent's file, is what `parent::` reaches
    base_path = "vendor-like/Auth/SessionGuard.php"
    base_text = "\tpublic function setUser(AuthenticatableContract $user)\n\t{\n\t\t$this->user = $user;\n\t}"
    base = Chunk(base_path, "php", 10, 13, base_text, "SessionGuard.setUser", "method", "service")
    use = Use("setUser", user.start_line + 9, "calls", "parent::setUser($user_by_token);")
    assert holds_by_name(user, base, use, file)


HANDLER_PATH = "app/Exceptions/Handler.php"
HANDLER = """<?php

namespace App\\Exceptions;

class Handler extends ExceptionHandler
{
\tpublic function report(\\Throwable $e): void
\t{
\t\t$e = $this->mapException($e);
\t\tLog::log($e->getMessage());
\t}

\tpublic static function reportSafely(\\Throwable $e): void
\t{
\t\ttry {
\t\t\treport($e);
\t\t} catch (\\Throwable) {
\t\t\t// Simply do nothing.
\t\t}
\t}

\tpublic function renderSafely(\\Throwable $e): void
\t{
\t\t$this->report($e);
\t}
}
"""


def _method(first: int, last: int, symbol: str) -> Chunk:
    text = "\n".join(HANDLER.split("\n")[first - 1 : last])
    return Chunk(HANDLER_PATH, "php", first, last, text, symbol, "method", "service")


def test_a_bare_call_in_its_own_file_is_not_a_php_method() -> None:
    report = _method(7, 11, "Handler.report")
    safely = _method(13, 20, "Handler.reportSafely")
    rendered = _method(22, 25, "Handler.renderSafely")
    assert report.text.strip().startswith("public function report(") and safely.text.endswith("\t}")
    assert [use.text for use in find_uses(safely, report)] == ["report($e);"]
    assert not _holds(safely, report, HANDLER)  # Laravel's global `report()` helper
    assert _holds(rendered, report, HANDLER)  # `$this->report($e)`
    helpers = Chunk("app/helpers.php", "php", 3, 6, "function report_to($e)\n{\n\treturn 1;\n}", "report_to",
                    "function", "util")  # fmt: skip
    caller = Chunk("app/helpers.php", "php", 8, 11, "function other($e)\n{\n\treturn report_to($e);\n}", "other",
                   "function", "util")  # fmt: skip
    assert _holds(caller, helpers, "<?php\n\n" + helpers.text + "\n\n" + caller.text)  # a global function, bare


# lib/glific/flows.ex:760-780: the doc and spec are a chunk of their own, above the function's clauses
FLOWS_SPEC = '''  @doc """
  Start flow for a contact and cache the result
  """
  @spec start_contact_flow(Flow.t() | integer, Contact.t(), map()) ::
          {:ok, Flow.t()} | {:error, String.t()}'''
FLOWS_START = """  def start_contact_flow(flow_id, contact, default_results \\\\ %{})

  def start_contact_flow(flow_id, %Contact{} = contact, default_results)
      when is_integer(flow_id) do
    case get_cached_flow(contact.organization_id, {:flow_id, flow_id, @status}) do
      {:ok, flow} ->
        process_contact_flow([contact], flow, default_results)
    end
  end"""
# lib/glific/flows/flow.ex: a real caller
FLOW_EXECUTE = """  def execute(flow, context) do
    contact = context.contact
    Flows.start_contact_flow(flow.id, contact, %{"parent" => context.results})
  end"""


def test_a_typespec_calls_nothing() -> None:
    path = "lib/glific/flows.ex"
    spec = Chunk(path, "elixir", 760, 764, FLOWS_SPEC, "Glific.Flows", "module", "service")
    start = Chunk(path, "elixir", 766, 774, FLOWS_START, "Glific.Flows.start_contact_flow", "function", "service")
    execute = Chunk("lib/glific/flows/flow.ex", "elixir", 694, 697, FLOW_EXECUTE, "Glific.Flows.Flow.execute",
                    "function", "service")  # fmt: skip
    assert find_uses(spec, start) == []
    assert [use.verb for use in find_uses(execute, start)] == ["calls"]
    erlang = Chunk("src/x.erl", "erlang", 1, 1, "-spec start_contact_flow(integer()) -> ok.", "x", "module", "core")
    assert find_uses(erlang, start) == []


# lib/glific.ex:534-573 (cut): logs the exception and reports it to AppSignal; it returns `:ok`
LOG_EXCEPTION = """  def log_exception(%{message: message} = error, opts) when is_binary(message) do
    Logger.error(message)

    Appsignal.send_error(error, [], fn span ->
      span
      |> apply_appsignal_namespace(Keyword.get(opts, :namespace))
    end)

    :ok
  end"""
SEND_ERROR = """  def show(conn, %{"id" => id}) do
    case Repo.get(Item, id) do
      nil -> send_error(conn, :not_found)
      item -> render(conn, "show.json", item: item)
    end
  end"""


def _said(chunk: Chunk, framework: str, question: str) -> list[str]:
    found = [c for c in load_all() if c.name.lower().startswith(framework) or c.name == "any framework"]
    return [match.phrase for match in matches_in(chunk, found, intents(question))]


def test_an_error_trackers_call_answers_no_request() -> None:
    asked = "What happens when an API request fails?"
    tracked = Chunk("lib/glific.ex", "elixir", 561, 570, LOG_EXCEPTION, "Glific.log_exception", "function", "core")
    assert "answers with an error response" not in _said(tracked, "phoenix", asked)
    answered = Chunk("lib/app_web/controllers/item_controller.ex", "elixir", 10, 15, SEND_ERROR,
                     "AppWeb.ItemController.show", "function", "api")  # fmt: skip
    assert "answers with an error response" in _said(answered, "phoenix", asked)


# lib/glific/providers/gupshup/api_client.ex:1-17: a Tesla HTTP client; lib/glific_web/router.ex: a pipeline's plugs
TESLA_CLIENT = """defmodule Glific.Providers.Gupshup.ApiClient do
  @moduledoc \"\"\"
  Https API client to interact with Gupshup
  \"\"\"
  alias Plug.Conn.Query

  use Tesla
  # you can add , log_level: :debug to the below if you want debugging info
  plug(Tesla.Middleware.Logger)

  plug(Tesla.Middleware.FormUrlencoded,
    encode: &Query.encode/1
  )"""
TESLA_PIECE = """  plug(Tesla.Middleware.FormUrlencoded,
    encode: &Query.encode/1
  )

  @partner_url "https://partner.gupshup.io/partner/account\""""
PIPELINE = """  pipeline :api do
    plug(:accepts, ["json"])
    plug(GlificWeb.APIAuthPlug, otp_app: :glific)
  end"""


def test_a_tesla_clients_plugs_handle_no_request() -> None:
    asked = "What happens when an API request fails?"
    client = Chunk("lib/glific/providers/gupshup/api_client.ex", "elixir", 1, 13, TESLA_CLIENT,
                   "Glific.Providers.Gupshup.ApiClient", "module", "service")  # fmt: skip
    piece = Chunk("lib/glific/providers/gupshup/partner/partner_api.ex", "elixir", 34, 38, TESLA_PIECE,
                  "Glific.Providers.Gupshup.PartnerAPI", "module", "service")  # fmt: skip
    assert not [phrase for phrase in _said(client, "phoenix", asked) if "plug" in phrase]
    assert not [phrase for phrase in _said(piece, "phoenix", asked) if "plug" in phrase]
    router = Chunk("lib/glific_web/router.ex", "elixir", 43, 46, PIPELINE, "GlificWeb.Router", "module", "api")
    assert any("`GlificWeb.APIAuthPlug` plug" in phrase for phrase in _said(router, "phoenix", asked))


SESSIONS: dict[str, str] = {
    "mix.exs": """defmodule Chat.MixProject do
  use Mix.Project

  def project, do: [app: :chat, deps: deps()]

  defp deps, do: [{:phoenix, "~> 1.7"}]
end
""",
    "lib/chat_web/router.ex": """defmodule ChatWeb.Router do
  use ChatWeb, :router

  import ChatWeb.UserAuth

  pipeline :browser do
    plug(:accepts, ["html"])
    plug(:fetch_session)
    plug(:fetch_current_user)
  end

  scope "/", ChatWeb do
    pipe_through([:browser, :redirect_if_user_is_authenticated])
    get("/users/log_in", UserSessionController, :new)
    post("/users/log_in", UserSessionController, :create)
  end
end
""",
    # lib/glific_web/controllers/user_session_controller.ex: the page, the sign-in, the sign-out
    "lib/chat_web/controllers/user_session_controller.ex": """defmodule ChatWeb.UserSessionController do
  @moduledoc \"\"\"
  A controller to manage user sessions.
  \"\"\"

  use ChatWeb, :controller

  alias Chat.Accounts
  alias ChatWeb.UserAuth

  def new(conn, _params) do
    render(conn, "new.html", error_message: nil)
  end

  def create(conn, %{"user" => user_params}) do
    %{"phone" => phone, "password" => password} = user_params

    if user = Accounts.get_user_by_phone_and_password(phone, password) do
      UserAuth.log_in_user(conn, user, user_params)
    else
      render(conn, "new.html", error_message: "Invalid phone or password")
    end
  end

  def delete(conn, _params) do
    conn
    |> put_flash(:info, "Logged out successfully.")
    |> UserAuth.log_out_user()
  end
end
""",
    "lib/chat_web/controllers/user_auth.ex": """defmodule ChatWeb.UserAuth do
  @moduledoc \"\"\"
  Signs users in and out.
  \"\"\"

  import Plug.Conn
  import Phoenix.Controller

  alias Chat.Accounts

  def log_in_user(conn, user, _params \\\\ %{}) do
    token = Accounts.generate_user_session_token(user)

    conn
    |> renew_session()
    |> put_session(:user_token, token)
    |> redirect(to: "/stats")
  end

  def log_out_user(conn) do
    conn
    |> renew_session()
    |> redirect(to: "/users/log_in")
  end

  def fetch_current_user(conn, _opts) do
    user_token = get_session(conn, :user_token)
    user = user_token && Accounts.get_user_by_session_token(user_token)
    assign(conn, :current_user, user)
  end

  defp renew_session(conn) do
    conn
    |> configure_session(renew: true)
    |> clear_session()
  end
end
""",
    "lib/chat/accounts.ex": """defmodule Chat.Accounts do
  @moduledoc \"\"\"
  Users and their session tokens.
  \"\"\"

  alias Chat.Repo
  alias Chat.Users.{User, UserToken}

  def get_user_by_phone_and_password(phone, password) do
    user = Repo.get_by(User, phone: phone)
    if User.valid_password?(user, password), do: user
  end

  def generate_user_session_token(user) do
    {token, user_token} = UserToken.build_session_token(user)
    Repo.insert!(user_token)
    token
  end

  def get_user_by_session_token(token) do
    {:ok, query} = UserToken.verify_session_token_query(token)
    Repo.one(query)
  end
end
""",
}

INDEXED_APPS = {"sessions": SESSIONS}  # indexed once for this module by the apps_home fixture (tests/conftest.py)


def test_the_story_of_a_routed_action_goes_on_with_that_action_only(apps_home: Path) -> None:
    text = extractive_text(apps_home, "sessions", "How does user authentication flow through the system?")
    opening = text.split("\n")[0]
    assert "routes its sign-in URL" in opening and ":create)" in opening
    assert "UserSessionController.new` answers" not in opening
    assert "UserSessionController.delete" not in opening


# lib/glific/users.ex:247-267: Pow's `authenticate` callback's helper checks a password; its spec and its `defp`
# heads check no caller
AUTHENTICATE_ORGANIZATION = """  @spec authenticate_user_organization(non_neg_integer | nil, map()) :: User.t() | nil
  defp authenticate_user_organization(nil, _params), do: nil

  defp authenticate_user_organization(
         organization_id,
         %{"phone" => phone, "password" => password}
       ) do
    User
    |> Repo.get_by(phone: phone, organization_id: organization_id)
    |> verify_password(password)
  end"""
# lib/glific_web/controllers/api/v1/registration_controller.ex:263-295 (cut): signs the user in after a reset
RESET_PASSWORD = """  defp reset_user_password(conn, %{"phone" => phone, "password" => password} = user_params) do
    {:ok, user} = Repo.fetch_by(User, %{phone: phone})
    user
    |> Users.reset_user_password(%{"password" => password})
    |> case do
      {:ok, user} ->
        APIAuthPlug.delete_user_sessions(user, conn)
        {:ok, conn} = Pow.Plug.authenticate_user(conn, user_params)
        {:ok, conn}
    end
  end"""


def test_a_spec_or_a_private_head_checks_no_caller_and_a_pow_call_signs_one_user_in() -> None:
    asked = "How does user authentication flow through the system?"
    helper = Chunk("lib/glific/users.ex", "elixir", 247, 257, AUTHENTICATE_ORGANIZATION,
                   "Glific.Users.authenticate_user_organization", "function", "service")  # fmt: skip
    said = _said(helper, "phoenix", asked)
    assert "checks who is calling before going on" not in said and "checks the password" in said
    caller = Chunk("lib/x.ex", "elixir", 1, 1, "    authenticate_user(conn, params)", "X.y", "function", "api")
    assert "checks who is calling before going on" in _said(caller, "phoenix", asked)
    reset = Chunk("lib/glific_web/controllers/api/v1/registration_controller.ex", "elixir", 263, 273, RESET_PASSWORD,
                  "GlificWeb.API.V1.RegistrationController.reset_user_password", "function", "api")  # fmt: skip
    said = _said(reset, "phoenix", asked)
    assert "signs the user in with Pow (`Pow.Plug.authenticate_user`)" in said
    assert not [phrase for phrase in said if "on each request" in phrase]
    plug = Chunk("lib/glific_web/plugs/api_auth_plug.ex", "elixir", 1, 3,
                 "defmodule GlificWeb.APIAuthPlug do\n  @moduledoc false\n  use Pow.Plug.Base", "GlificWeb.APIAuthPlug",
                 "module", "api")  # fmt: skip
    assert "signs users in and finds them on each request with Pow" in _said(plug, "phoenix", asked)


GALLERY: dict[str, str] = {
    "composer.json": '{"require": {"php": "^8.3", "laravel/framework": "^12.0"}}\n',
    "artisan": "#!/usr/bin/env php\n<?php\n",
    # routes/web_v2.php: the pages of the single-page app, each served by the invokable VueController
    "routes/web.php": """<?php

use App\\Http\\Controllers\\VueController;
use Illuminate\\Support\\Facades\\Route;

Route::get('/gallery/{album_id?}', [VueController::class, 'gallery'])->middleware(['migration:complete']);
Route::get('/register', VueController::class)->name('register')->middleware(['migration:complete']);
""",
    "routes/api.php": """<?php

use App\\Http\\Controllers\\ProfileController;
use Illuminate\\Support\\Facades\\Route;

Route::put('/Profile', [ProfileController::class, 'update']);
""",
    # app/Http/Controllers/VueController.php (cut)
    "app/Http/Controllers/VueController.php": """<?php

namespace App\\Http\\Controllers;

use App\\Exceptions\\UnauthorizedException;
use Illuminate\\Support\\Facades\\Gate;
use Illuminate\\View\\View;

/**
 * Controller responsible for the Vue front end.
 */
class VueController extends Controller
{
\tpublic function gallery(?string $album_id = null): View
\t{
\t\t$album = Album::findOrFail($album_id);
\t\tsession()->now('access', $this->check($album));

\t\treturn view('vueapp');
\t}

\t/**
\t * Simpler version of above function.
\t */
\tpublic function __invoke(): View
\t{
\t\treturn view('vueapp');
\t}

\t/**
\t * Check if user can access the album.
\t */
\tprivate function check(Album $album): bool
\t{
\t\t$result = Gate::check('access', [Album::class, $album]);

\t\treturn $result ? true : throw new UnauthorizedException();
\t}
}
""",
    "app/Http/Controllers/ProfileController.php": """<?php

namespace App\\Http\\Controllers;

use Illuminate\\Support\\Facades\\Auth;

class ProfileController extends Controller
{
\tpublic function update(UpdateProfileRequest $request): UserResource
\t{
\t\t$user = Auth::user();
\t\t$user->email = $request->email();
\t\t$user->save();

\t\treturn new UserResource($user);
\t}
}
""",
}

INDEXED_APPS["gallery"] = GALLERY


def test_a_route_to_an_invokable_controller_is_its_invoke_method(apps_home: Path) -> None:
    text = extractive_text(apps_home, "gallery", "How does a user register a new account?")
    opening = text.split("\n")[0]
    assert "routes its sign-up URL" in opening and "VueController::class" in opening
    assert "VueController.check" not in opening and "raises an exception" not in opening  # `check`: not `__invoke`


def test_an_invokable_routes_action_rows_are_its_invoke_method() -> None:
    table = SimpleNamespace(symbols=["VueController.__invoke", "RedirectController.__invoke", "VueController.check"])
    context = cast(AnswerContext, SimpleNamespace(definers={"__invoke": [0, 1], "check": [2]}, table=table))
    line = "Route::get('/register', VueController::class)->name('register')->middleware(['migration:complete']);"
    assert invokable(line) and action_rows(context, line) == [0]
    assert action_rows(context, "Route::get('/x', [VueController::class, 'gallery']);") is None  # names its method
    assert not invokable("Route::put('/Profile', [ProfileController::class, 'register'])->name('register-api');")
    assert action_rows(context, "Route::get('/login', LoginPage::class);") is None  # no `__invoke` indexed


def test_no_caller_confirmed_is_not_said_as_no_caller_when_the_name_is_mentioned() -> None:
    head = "\tpublic function createSizeVariants()"
    factory = Chunk("app/Image/SizeVariantDefaultFactory.php", "php", 113, 134, head,
                    "SizeVariantDefaultFactory.createSizeVariants", "method", "service")  # fmt: skip
    mentioned = render_graph(GraphAnswer("callers", "createSizeVariants", [factory], unchecked=3))
    assert "No code in this index calls" not in mentioned
    assert "No call of `createSizeVariants` is confirmed in the code" in mentioned
    assert "or a call on a value of unknown class" in mentioned
    unmentioned = render_graph(GraphAnswer("callers", "createSizeVariants", [factory]))
    assert "No code in this index calls `createSizeVariants`" in unmentioned


# app/Actions/Photo/Pipes/Standalone/CreateSizeVariants.php (cut): the factory is resolved from Laravel's container
# as the interface, whose one implementation is SizeVariantDefaultFactory
CREATE_SIZE_VARIANTS = """<?php

namespace App\\Actions\\Photo\\Pipes\\Standalone;

use App\\Contracts\\Models\\SizeVariantFactory;

class CreateSizeVariants implements StandalonePipe
{
\tpublic function handle(StandaloneDTO $state, \\Closure $next): StandaloneDTO
\t{
\t\t$size_variant_factory = resolve(SizeVariantFactory::class);
\t\t$size_variant_factory->init($state->photo, $state->source_image, $state->naming_strategy);
\t\t$size_variant_factory->createSizeVariants();
\t\t$provision = new \\App\\Actions\\User\\ProvisionLdapUser($service);

\t\treturn $next($state);
\t}
}
"""


def test_a_php_variable_made_or_resolved_from_the_container_is_declared_as_that_class() -> None:
    assert declared_types("size_variant_factory", "php", CREATE_SIZE_VARIANTS) == {"SizeVariantFactory"}
    assert declared_types("provision", "php", CREATE_SIZE_VARIANTS) == {"ProvisionLdapUser"}
    assert declared_types("x", "php", "$y->x = new Other();\n$other = $x;") == set()  # a property, not `$x`
    assert declared_types("config", "php", "$config = app(ConfigManager::class);") == {"ConfigManager"}
    body = "\n".join(CREATE_SIZE_VARIANTS.split("\n")[6:18])
    user = Chunk("app/Actions/Photo/Pipes/Standalone/CreateSizeVariants.php", "php", 7, 18, body,
                 "CreateSizeVariants", "class", "service")  # fmt: skip
    contract = Chunk("app/Contracts/Models/SizeVariantFactory.php", "php", 95, 96,
                     "\tpublic function createSizeVariants(): Collection;\n", "SizeVariantFactory.createSizeVariants",
                     "method", "model")  # fmt: skip
    use = Use("createSizeVariants", 13, "calls", "$size_variant_factory->createSizeVariants();")
    assert typed_receiver(user, contract, use, CREATE_SIZE_VARIANTS)
