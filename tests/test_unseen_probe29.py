"""Sentences read in answers on two apps in no data set (#35): a Rails app (dawarich) and a Phoenix app (logflare).

- "``LogflareWeb.AuthController.signin_invitee`` stores ``invite_token`` in the session on one branch only", for
  ``|> put_session(:invite_token, nil)`` on each of its three branches: a key put to nil is cleared, not stored.
- "``public_month.html.erb`` … calls ``distance_traveled`` (``app/helpers/stats_helper.rb:30-46``) and
  ``countries_visited`` (``app/models/user.rb:39-78``)" for ``<%= countries_visited(@stat) %>``: a template's bare
  name is a helper's (``StatsHelper#countries_visited``), never an instance method of the ``User`` model.
- "calls ``create_team_user`` when ``count < limit do``": Elixir's ``do`` opens the block; it is no part of the test.
- "``LogflareWeb.AuthController.handle_sign_in`` is where the app routes its sign-in URL: ``get("/login",
  AuthController, :login)``": the route names its action (``login``); the controller's private ``handle_sign_in`` was
  taken because the module was the entry and every function in it a part of it.
- "Then ``put_sources_retention_days`` stores ``Map.update!(user, :sources, fn sources ->…)``": Elixir's data modules
  return a new value; only ``Repo.update`` and its kind store.
- "``Users.ExportData.Exports.process_export`` … uses ``export`` (``app/services/users/export_data.rb:68-110``)" for
  ``def process_export(export)``: the name is the method's parameter; and ``Users::ExportData#export``, a piece of a
  class without its ``class`` line, is reached by a bare name only from that class's family.
- "``loadFamilyMembers`` … Its documentation says: “Family Members methods”": a section's title over a group of
  methods documents none of them.
- "``LogflareWeb.Endpoint`` (``endpoint.ex:1-56``) runs the ``Plug.Logger`` and 5 other plugs on every request": the
  chunker cut the module; ``Plug.Session`` and the router's plug are below. A count in a cut definition is a floor.
"""

from __future__ import annotations

from codeqa.answer.explanation.calls.byname import holds_by_name
from codeqa.answer.explanation.calls.flow import Use
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk
from tests.helpers import FileTexts

AUTH = "How does user authentication flow through the system?"
SIGNIN_INVITEE = """  def signin_invitee(conn, auth_params, team) do
    case TeamUsers.insert_or_update_team_user(team, auth_params) do
      {:ok, team_user} ->
        conn
        |> put_flash(:info, "Welcome to Logflare!")
        |> put_session(:current_email, team_user.email)
        |> put_session(:invite_token, nil)
        |> redirect(to: ~p"/dashboard")

      {:error, :limit_reached} ->
        conn
        |> put_flash(:error, "Team member limit reached.")
        |> put_session(:invite_token, nil)
        |> redirect(to: Routes.auth_path(conn, :login))
    end
  end"""


def _phrases(framework: str, language: str, path: str, text: str) -> list[str]:
    convention = [c for c in load_all() if c.name == framework]
    chunk = Chunk(path, language, 77, 77 + text.count("\n"), text, "", "function", "controller")
    return [m.phrase for m in matches_in(chunk, convention, intents(AUTH)) if "session" in m.phrase]


def test_a_session_key_put_to_nil_is_cleared_not_stored() -> None:
    said = _phrases("Phoenix", "elixir", "lib/app_web/controllers/auth_controller.ex", SIGNIN_INVITEE)
    assert not [phrase for phrase in said if "invite_token" in phrase], said
    kept = _phrases("Phoenix", "elixir", "lib/x.ex", '    |> put_session("user_token", token)')
    assert kept == ["stores `user_token` in the session"]
    assert not _phrases("Phoenix", "elixir", "lib/x.ex", '    |> put_session("user_token", nil)')
    assert not _phrases("Rails", "ruby", "app/controllers/x.rb", "    session[:otp_user_id] = nil")
    assert _phrases("Rails", "ruby", "app/controllers/x.rb", "    session[:otp_user_id] = user.id") == [
        "stores `otp_user_id` in the session"
    ]
    assert _phrases("Rails", "ruby", "app/controllers/x.rb", "    session[:nil_user] = nils.first") == [
        "stores `nil_user` in the session"  # a value that starts with "nil" is one
    ]
    assert not _phrases("Flask", "python", "app/auth.py", '    session["user_id"] = None')
    assert _phrases("Flask", "python", "app/auth.py", '    session["user_id"] = user.id') == [
        "stores `user_id` in the session"
    ]
    assert not _phrases("Go net/http", "go", "auth.go", '\tsess.Values["user_id"] = nil')


USER = """# frozen_string_literal: true

class User < ApplicationRecord
  devise :database_authenticatable, :registerable
  has_many :stats, dependent: :destroy

  def safe_settings
    Users::SafeSettings.new(settings, plan: plan)
  end

  def countries_visited
    Rails.cache.fetch("dawarich/user_#{id}_countries_visited", expires_in: 1.day) do
      countries_visited_uncached
    end
  end
end
"""
STATS_HELPER = """# frozen_string_literal: true

module StatsHelper
  def distance_traveled(user, stat)
    distance_unit = user.safe_settings.distance_unit
    value = Stat.convert_distance(stat.distance, distance_unit).round
    "#{number_with_delimiter(value)} #{distance_unit}"
  end

  def countries_visited(stat)
    stat.toponyms.count { |t| t['country'].present? && t['cities']&.any? }
  end
end
"""
APPLICATION_CONTROLLER = """class ApplicationController < ActionController::Base
  helper_method :current_user_safe_settings

  def current_user_safe_settings
    @current_user_safe_settings ||= current_user&.safe_settings
  end
end
"""
CARD_COMPONENT = """class CardComponent < ViewComponent::Base
  def initialize(stat:)
    @stat = stat
  end

  def countries_visited
    @stat.toponyms.size
  end
end
"""
PUBLIC_MONTH = """<div class="stat">
  <div class="stat-title">Countries visited</div>
  <div class="stat-value">
    <%= countries_visited(@stat) %>
  </div>
  <div class="stat-desc"><%= current_user_safe_settings.distance_unit %></div>
</div>
"""
FILES = {
    "app/models/user.rb": USER,
    "app/helpers/stats_helper.rb": STATS_HELPER,
    "app/controllers/application_controller.rb": APPLICATION_CONTROLLER,
    "app/components/card_component.rb": CARD_COMPONENT,
}


def _piece(path: str, first: str, symbol: str) -> Chunk:
    """The lines of ``path`` from the one holding ``first`` to the end: a piece without the class line above it."""
    rows = FILES[path].split("\n")
    start = next(n for n, row in enumerate(rows) if first in row)
    return Chunk(path, "ruby", start + 1, len(rows), "\n".join(rows[start:]), symbol, "method", "model")


def test_a_template_bare_name_reaches_a_helper_not_a_model_instance_method() -> None:
    for template in ("app/views/stats/public_month.html.erb", "app/components/card_component.html.erb"):
        view = Chunk(template, "erb", 1, 7, PUBLIC_MONTH, "", "module", "view")
        use = Use("countries_visited", 4, "calls", "<%= countries_visited(@stat) %>")
        model = _piece("app/models/user.rb", "def safe_settings", "User.countries_visited")
        helper = _piece("app/helpers/stats_helper.rb", "def distance_traveled", "StatsHelper.countries_visited")
        component = _piece("app/components/card_component.rb", "def countries_visited", "CardComponent")
        assert "class User" not in model.text  # the class is read in the model's file
        assert not holds_by_name(view, model, use, PUBLIC_MONTH, FileTexts(FILES))
        assert holds_by_name(view, helper, use, PUBLIC_MONTH, FileTexts(FILES))
        assert holds_by_name(view, component, use, PUBLIC_MONTH, FileTexts(FILES)) == template.startswith(
            "app/components"
        )
        exposed = _piece("app/controllers/application_controller.rb", "def current_user_safe_settings", "X")
        settings = Use("current_user_safe_settings", 6, "calls", PUBLIC_MONTH.split("\n")[5])
        assert holds_by_name(
            view, exposed, settings, PUBLIC_MONTH, FileTexts(FILES)
        )  # `helper_method` shows it to views


INSERT_OR_UPDATE = """  def insert_or_update_team_user(team, auth_params) do
    cond do
      true ->
        count = list_team_users_by(team_id: team_id) |> Enum.count()

        if count < limit do
          create_team_user(team_id, auth_params)
        else
          {:error, :limit_reached}
        end
    end
  end"""


def test_an_elixir_test_is_said_without_the_do_that_opens_its_block() -> None:
    from codeqa.answer.explanation.code.condition import IF_HEAD, condition_at

    chunk = Chunk("lib/app/team_users.ex", "elixir", 60, 60 + INSERT_OR_UPDATE.count("\n"), INSERT_OR_UPDATE,
                  "App.TeamUsers.insert_or_update_team_user", "function", "model")  # fmt: skip
    insert = 60 + INSERT_OR_UPDATE.split("\n").index("          create_team_user(team_id, auth_params)")
    assert condition_at(chunk, insert) == ("when", "count < limit")  # not "count < limit do"
    assert IF_HEAD.match("  unless Application.compile_env(:app, :sandbox) do").group("cond").endswith(":sandbox)")
    assert IF_HEAD.match("    if job.do").group("cond") == "job.do"  # a Ruby method named `do` is the test's own
    assert IF_HEAD.match("    if undo").group("cond") == "undo"


# from logflare's lib/logflare_web/router.ex and controllers/auth/auth_controller.ex
ROUTER = """defmodule LogflareWeb.Router do
  use LogflareWeb, :router

  scope "/auth", LogflareWeb do
    pipe_through(:browser)

    get("/login", AuthController, :login)
    get("/login/email", Auth.EmailController, :login)
    post("/login/email", Auth.EmailController, :send_link)
    get("/logout", AuthController, :logout)
  end
end
"""
AUTH_CONTROLLER = """defmodule LogflareWeb.AuthController do
  use LogflareWeb, :controller

  alias Logflare.Auth
  alias Logflare.Backends.Adaptor.BigQueryAdaptor
  alias Logflare.TeamUsers
  alias Logflare.Teams
  alias Logflare.Users
  alias Logflare.Vercel
  alias LogflareWeb.ErrorView

  require Logger

  def logout(conn, _params) do
    conn
    |> configure_session(drop: true)
    |> put_resp_cookie("_logflare_last_provider", "", max_age: 0)
    |> put_resp_cookie("_logflare_team_user_id", "", max_age: 0)
    |> put_resp_cookie("_logflare_user_id", "", max_age: 0)
    |> redirect(to: Routes.auth_path(conn, :login))
  end

  def login(conn, _params) do
    last_provider = conn.cookies["_logflare_last_provider"]

    user = %{provider: last_provider}

    conn
    |> maybe_flash_invite_message()
    |> maybe_flash_account_deleted()
    |> render("login.html", last_login: user)
  end

  def check_invite_token_and_signin(conn, auth_params) do
    case get_session(conn, :invite_token) do
      nil ->
        signin(conn, auth_params)

      invite_token ->
        case Auth.verify_email_token(invite_token) do
          {:ok, invited_by_team_id} ->
            invited_signin(conn, auth_params, invited_by_team_id)

          {:error, :expired} ->
            conn
            |> put_flash(:error, "That invite link is expired!")
            |> put_session(:invite_token, nil)
            |> redirect(to: Routes.auth_path(conn, :login))

          {:error, _reason} ->
            conn
            |> put_flash(
              :error,
              "There is an issue with this invite link. Get a new invite link and try again!"
            )
            |> put_session(:invite_token, nil)
            |> redirect(to: Routes.auth_path(conn, :login))
        end
    end
  end

  defp signin(conn, auth_params) do
    team_users = TeamUsers.list_team_users_by_and_preload(email: auth_params.email)
    user = Users.get_by(email: auth_params.email)
    handle_sign_in(team_users, user, conn, auth_params)
  end

  # Handles team user sign in
  defp handle_sign_in([team_user | _], nil, conn, auth_params) do
    user = Users.get(team_user.team.user_id)

    case TeamUsers.insert_or_update_team_user(team_user.team, auth_params) do
      {:ok, team_user} ->
        BigQueryAdaptor.update_iam_policy()
        BigQueryAdaptor.patch_dataset_access(user)

        conn
        |> put_flash(:info, "Welcome back!")
        |> put_session(:current_email, team_user.email)
        |> redirect(to: ~p"/dashboard")

      {:error, _} ->
        conn
        |> put_flash(
          :error,
          "There was an error signing in. Please contact support if this continues."
        )
        |> redirect(to: Routes.auth_path(conn, :login))
    end
  end

  # Handles individual sign in
  defp handle_sign_in(_, _, conn, auth_params) do
    case Users.insert_or_update_user(auth_params) do
      {:ok, user} ->
        conn
        |> put_flash(:info, "Thanks for signing up! Now create a source!")
        |> put_session(:current_email, user.email)
        |> redirect(to: Routes.source_path(conn, :new, signup: true))

      {:ok_found_user, user} ->
        BigQueryAdaptor.update_iam_policy(user)
        BigQueryAdaptor.patch_dataset_access(user)

        oauth_params = get_session(conn, :oauth_params)
        vercel_setup_params = get_session(conn, :vercel_setup)

        cond do
          oauth_params ->
            redirect_for_oauth(conn, user)

          vercel_setup_params ->
            redirect_for_vercel(conn, user)

          true ->
            conn
            |> put_flash(:info, "Welcome back!")
            |> put_session(:current_email, user.email)
            |> redirect(to: ~p"/dashboard")
        end

      {:error, reason} ->
        Logger.error("Unhandled sign in error", error_string: inspect(reason))

        message = "Error signing in. Please contact support to resolve this issue."

        conn
        |> put_flash(:error, message)
        |> redirect(to: Routes.auth_path(conn, :login))
    end
  end
end
"""
EMAIL_CONTROLLER = """defmodule LogflareWeb.Auth.EmailController do
  use LogflareWeb, :controller

  def login(conn, _params) do
    render(conn, "email_login.html")
  end
end
"""


def test_a_phoenix_route_names_its_action_not_every_function_of_the_controller() -> None:
    from codeqa.answer.context import AnswerContext
    from codeqa.answer.explanation.sources.entry import sign_in_routes
    from codeqa.chunk import chunk_file
    from codeqa.records import Hit, SourceFile
    from codeqa.symbols import qualified_names

    files = {
        "lib/logflare_web/router.ex": ROUTER,
        "lib/logflare_web/controllers/auth/auth_controller.ex": AUTH_CONTROLLER,
        "lib/logflare_web/controllers/auth/email_controller.ex": EMAIL_CONTROLLER,
    }
    chunks = [c for path, text in files.items() for c in chunk_file(SourceFile(path, "elixir", text, len(text)))]
    context = AnswerContext.from_chunks(chunks, [Hit(c, 1.0, c.id) for c in chunks], list(files))
    routes = sign_in_routes(context)
    assert [route.text for route in routes] == ['get("/login", AuthController, :login)']
    entered = {q for route in routes for row in route.rows for q in qualified_names(context.table.symbols[row])}
    assert entered == {"LogflareWeb.AuthController.login"}, entered
    assert not [q for q in entered if q.endswith(("handle_sign_in", "signin", "logout"))], entered
    assert not [q for q in entered if "EmailController" in q], entered  # `Auth.EmailController.login` is not it


def test_a_comment_over_one_clause_of_several_is_no_documentation_of_the_function() -> None:
    from codeqa.answer.explanation.code.outline import summary

    rows = AUTH_CONTROLLER.split("\n")
    start = rows.index("  # Handles team user sign in")
    end = len(rows) - 2  # the module's `end` below
    text = "\n".join(rows[start:end])
    chunk = Chunk("lib/app_web/controllers/auth_controller.ex", "elixir", start + 1, end, text,
                  "LogflareWeb.AuthController.handle_sign_in", "function", "controller")  # fmt: skip
    assert "# Handles individual sign in" in text
    assert summary(chunk) == ""  # not "Handles team user sign in": the second clause handles individual sign-in
    one = "\n".join(row for row in rows[start:end] if "# Handles individual" not in row)
    assert summary(Chunk(chunk.path, "elixir", start + 1, end, one, chunk.symbol, "function", "controller")) == (
        "Handles team user sign in"  # a comment over the first clause alone still documents it
    )


# from logflare's lib/logflare/users/users.ex
RETENTION_DAYS = """  defp put_sources_retention_days(%User{sources: []} = user), do: user

  defp put_sources_retention_days(%User{} = user) do
    plan = Billing.Cache.get_plan_by_user(user)
    put_sources_retention_days(user, plan)
  end

  defp put_sources_retention_days(%User{} = user, plan) do
    Map.update!(user, :sources, fn sources ->
      Enum.map(sources, &Sources.put_retention_days(&1, plan))
    end)
  end"""
UPDATE_SOURCE = """  def update_source(%Source{} = source, attrs) do
    source
    |> Source.update_by_user_changeset(attrs)
    |> Repo.update()
  end"""


def test_an_elixir_map_updated_in_memory_is_not_stored() -> None:
    from codeqa.answer.context import AnswerContext
    from codeqa.answer.explanation.said.extractive import extractive_answer
    from codeqa.records import Hit

    def opening(question: str, text: str, symbol: str) -> str:
        chunk = Chunk("lib/app/users/users.ex", "elixir", 139, 139 + text.count("\n"), text, symbol, "function",
                      "service")  # fmt: skip
        hits = [Hit(chunk, 1.0, chunk.id)]
        return extractive_answer(question, hits, context=AnswerContext.from_chunks([chunk], hits)).split("\n")[0]

    said = opening("What happens when a user deletes a source?", RETENTION_DAYS, "App.Users.put_sources_retention_days")
    assert "stores" not in said, said  # `Map.update!` returns a new map
    from codeqa.answer.explanation.said.outcomes import _stored

    update = Chunk(
        "lib/app/sources.ex", "elixir", 1, 5, UPDATE_SOURCE, "App.Sources.update_source", "function", "model"
    )
    assert _stored(update, "    |> Repo.update()")  # Ecto's update writes the row
    assert not _stored(update, "    Map.update!(user, :sources, fn sources ->")
    assert _stored(update, "    Repo.update!(Map.put(source, :name, name))")  # another write on the line counts


# from dawarich's app/services/users/export_data/exports.rb and app/services/users/export_data.rb
PROCESS_EXPORT = """  def process_export(export)
    Rails.logger.info "Processing export #{export.name}"

    export_hash = export.as_json(except: %w[user_id id])

    if export.file.attached?
      add_file_data_to_export(export, export_hash)
    else
      add_empty_file_data_to_export(export_hash)
    end

    export_hash
  end"""
EXPORT_DATA = """  def export
    timestamp = Time.current.strftime('%Y%m%d_%H%M%S')
    @export_directory = Rails.root.join('tmp', "export_#{timestamp}")

    export_record = user.exports.create!(name: "user_data_export_#{timestamp}.zip", file_format: :archive)
    zip_file_path = @export_directory.join('export.zip')
    create_zip_archive(@export_directory, zip_file_path)
  end"""
EXPORT_EACH = """  def call
    exports_with_files.map { |export| process_export(export) }
  end"""


def test_a_ruby_parameter_named_like_a_method_is_no_use_of_it() -> None:
    from codeqa.answer.explanation.calls.declared import declared_local

    user = Chunk("app/services/users/export_data/exports.rb", "ruby", 28, 40, PROCESS_EXPORT,
                 "Users.ExportData.Exports.process_export", "method", "service")  # fmt: skip
    used = Chunk("app/services/users/export_data.rb", "ruby", 68, 75, EXPORT_DATA, "Users.ExportData.export", "method",
                 "service")  # fmt: skip
    use = Use("export", 29, "uses", 'Rails.logger.info "Processing export #{export.name}"')
    assert not holds_by_name(user, used, use, PROCESS_EXPORT, None)  # `export` is the method's parameter
    assert declared_local(EXPORT_EACH, "export")  # a block's parameter too
    assert declared_local("def f(self, *, export=None):\n    return export.name", "export")  # Python's
    assert not declared_local("  def call\n    export.save!\n  end", "export")  # a bare call of the method
    assert not declared_local("  def call(exporter)\n    export.save!\n  end", "export")


EXPORT_DATA_FILE = (
    """# frozen_string_literal: true

class Users::ExportData
  def initialize(user)
    @user = user
  end

"""
    + EXPORT_DATA
    + """
end
"""
)
CONCERN_FILE = (
    """module Exportable
  extend ActiveSupport::Concern

"""
    + EXPORT_DATA
    + """
end
"""
)


EXPORT_FILES = {
    "app/services/users/export_data.rb": EXPORT_DATA_FILE,
    "app/models/concerns/exportable.rb": CONCERN_FILE,
}


def test_a_bare_name_reaches_a_piece_of_a_class_only_from_its_class_family() -> None:
    caller = "  def call\n    export\n  end"
    user = Chunk("app/jobs/users/export_job.rb", "ruby", 5, 7, caller, "Users.ExportJob.call", "method", "job")
    use = Use("export", 6, "uses", "export")
    piece = Chunk("app/services/users/export_data.rb", "ruby", 8, 15, EXPORT_DATA, "Users.ExportData.export", "method",
                  "service")  # fmt: skip
    assert EXPORT_DATA_FILE.split("\n")[7] == "  def export" and "class" not in piece.text
    assert not holds_by_name(
        user, piece, use, "class Users::ExportJob < ApplicationJob\n" + caller, FileTexts(EXPORT_FILES)
    )
    inherits = "class Users::FullExport < Users::ExportData\n" + caller
    assert holds_by_name(user, piece, use, inherits, FileTexts(EXPORT_FILES))
    mixed = Chunk(
        "app/models/concerns/exportable.rb", "ruby", 4, 11, EXPORT_DATA, "Exportable.export", "method", "model"
    )
    assert CONCERN_FILE.split("\n")[3] == "  def export"
    assert holds_by_name(
        user, mixed, use, "class Users::ExportJob < ApplicationJob\n" + caller, FileTexts(EXPORT_FILES)
    )


# from dawarich's app/javascript/controllers/maps/maplibre_controller.js (shortened)
FAMILY_MEMBERS = """  // Family Members methods
  async loadFamilyMembers() {
    const response = await fetch("/api/v1/families/locations", {
      headers: { Authorization: `Bearer ${this.apiKeyValue}` },
    })
    const data = await response.json()
    this.renderFamilyMembersList(data.locations)
  }"""


def test_a_section_title_over_a_group_of_methods_is_no_documentation() -> None:
    from codeqa.answer.explanation.code.outline import summary

    def said(text: str) -> str:
        return summary(Chunk("app/javascript/controllers/maps/maplibre_controller.js", "javascript", 1328,
                             1328 + text.count("\n"), text, "loadFamilyMembers", "method", "frontend"))  # fmt: skip

    assert said(FAMILY_MEMBERS) == ""  # not "Family Members methods"
    assert said(FAMILY_MEMBERS.replace("Family Members methods", "Private helpers:")) == ""
    documented = FAMILY_MEMBERS.replace("Family Members methods", "Loads the family members sharing their location")
    assert said(documented) == "Loads the family members sharing their location"


# from logflare's lib/logflare_web/endpoint.ex: the chunker cut the module after its first plugs
ENDPOINT = """defmodule LogflareWeb.Endpoint do
  use Phoenix.Endpoint, otp_app: :logflare

  plug(Plug.Static, at: "/", from: :logflare, gzip: false)
  plug(Plug.Logger, log: :debug)
  plug(LogflareWeb.Plugs.StripeWebhook, at: "/webhooks/stripe")
  plug(Plug.Parsers, parsers: [:urlencoded, :multipart], pass: ["*/*"])
  plug(Plug.MethodOverride)
  plug(Plug.Head)
"""


def test_a_count_of_plugs_in_a_module_cut_below_them_is_a_floor() -> None:
    from codeqa.answer.explanation.code.keylines import question_terms
    from codeqa.answer.explanation.code.runson import runs_on
    from codeqa.answer.explanation.said.phrasing import said_of

    question = "Where would I add logging to track user behavior?"
    phoenix = [c for c in load_all() if c.name == "Phoenix"]

    def said(text: str) -> str:
        chunk = Chunk("lib/logflare_web/endpoint.ex", "elixir", 1, text.count("\n") + 1, text, "LogflareWeb.Endpoint",
                      "module", "config")  # fmt: skip
        return said_of(matches_in(chunk, phoenix, intents(question)), question_terms(question))

    cut = said(ENDPOINT)
    assert "and at least 5 other plugs on every request" in cut, cut
    whole = said(ENDPOINT + "  plug(LogflareWeb.Router)\n\n  def secret, do: :ok\nend")
    assert "at least" not in whole and "and 6 other plugs on every request" in whole, whole
    assert not runs_on(Chunk("app/x.py", "python", 1, 2, "class A:\n    x = 1", "A", "class", "model"))
    assert runs_on(Chunk("src/x.js", "javascript", 1, 2, "class A {\n  get() {}", "A", "class", "model"))
    assert not runs_on(Chunk("src/x.js", "javascript", 1, 3, "class A {\n  get() {}\n}", "A", "class", "model"))
