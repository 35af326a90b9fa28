"""What was false on thechangelog's changelog.com, a Phoenix app (1,240 files) in no data set, read as a user does:
- "`ChangelogWeb.Router` runs the `Plug.Authenticate` and 13 other plugs on each request": a router pipeline's plug
  runs on the requests of the scopes piped through that pipeline, and the others were other pipelines' plugs;
- "`EpisodeRequestController` calls `action_name` (`shared_helpers.ex:29-43`)": the controller only aliases
  ``SharedHelpers``; its bare ``action_name(conn)`` is Phoenix's (an ``alias`` imports nothing);
- "Then `MiniPlayer.canPlay` logs with `log(action) {…}`": a JavaScript class method's head is no logging call;
- "`ChangelogWeb.Router` (`router.ex:128-219`) defines a class": Elixir has modules and functions.
"""

from __future__ import annotations

from codeqa.answer.explanation.calls.byname import holds_by_name
from codeqa.answer.explanation.calls.flow import Use
from codeqa.answer.explanation.code.keylines import question_terms
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.said.outcomes import whole
from codeqa.answer.explanation.said.phrasing import said_of
from codeqa.answer.explanation.said.roles_said import role_phrase
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk

AUTH = "How does user authentication flow through the system?"
ROUTER = """defmodule ChangelogWeb.Router do
  use ChangelogWeb, :router

  pipeline :public do
    plug Plug.Robots
    plug Plug.Redirects
  end

  pipeline :browser do
    plug :accepts, ["html", "js"]
    plug :fetch_session
    plug :put_secure_browser_headers
    plug Plug.LoadPodcasts
    plug Plug.Authenticate, repo: Changelog.Repo
    plug Plug.CacheControl
  end

  pipeline :api do
    plug :accepts, ["json"]
  end"""
CONTROLLER = """defmodule ChangelogWeb.Admin.EpisodeRequestController do
  use ChangelogWeb, :controller

  alias ChangelogWeb.Helpers.SharedHelpers

  def action(conn, _) do
    arg_list = [conn, conn.params, conn.assigns.podcast]
    apply(__MODULE__, action_name(conn), arg_list)
  end
end"""
HELPERS = """  def action_name(conn), do: Controller.action_name(conn)"""


def _chunk(path: str, text: str, symbol: str = "", language: str = "elixir") -> Chunk:
    return Chunk(path, language, 1, 1 + text.count("\n"), text, symbol, "class", "api")


def _plugs() -> list:
    phoenix = [c for c in load_all() if c.name in ("Phoenix", "any framework")]
    router = _chunk("lib/changelog_web/router.ex", ROUTER, "ChangelogWeb.Router")
    return [m for m in matches_in(router, phoenix, intents(AUTH)) if "plug" in m.phrase]


def test_a_pipelines_plug_runs_on_the_requests_piped_through_it():
    phrases = {m.line: m.phrase for m in _plugs()}
    assert phrases[14] == "runs the `Plug.Authenticate` plug on requests piped through `:browser`"
    assert phrases[5] == "runs the `Plug.Robots` plug on requests piped through `:public`"
    assert not [phrase for phrase in phrases.values() if "each request" in phrase]


def test_plugs_of_several_pipelines_are_not_counted_as_one_pipelines():
    said = said_of(_plugs(), question_terms(AUTH))
    assert "Plug.Authenticate" in said and "each request" not in said
    assert "other plugs" not in said  # they belong to other pipelines: counted apart, not said to run with it


class Files:
    """The app's files as the claim checker reads them."""

    def __init__(self, texts: dict[str, str]) -> None:
        self.texts = texts

    def file_text(self, path: str) -> str:
        return self.texts.get(path, "")

    def imported_files(self, path: str) -> tuple[str, ...]:
        return tuple(self.texts)  # every other file given is one the caller's `use`/`alias` lines resolve to

    def reaches(self, *_args: object) -> bool:
        return False

    def overloaded(self, *_args: object) -> bool:
        return False

    def definitions(self, _name: str) -> int:
        return 1

    def returns(self, _owner: str, _method: str) -> str | None:
        return None


WEB = """defmodule ChangelogWeb do
  def controller do
    quote do
      use Phoenix.Controller, formats: [html: "View", json: "View"]
      alias ChangelogWeb.Helpers.{SharedHelpers}
    end
  end
end"""


def test_a_bare_call_reaches_another_modules_function_only_through_an_import():
    controller = _chunk("lib/changelog_web/controllers/admin/episode_request_controller.ex", CONTROLLER,
                        "ChangelogWeb.Admin.EpisodeRequestController.action")  # fmt: skip
    helpers = _chunk("lib/changelog_web/helpers/shared_helpers.ex", HELPERS,
                     "ChangelogWeb.Helpers.SharedHelpers.action_name")  # fmt: skip
    use = Use("action_name", 8, "calls", "apply(__MODULE__, action_name(conn), arg_list)")
    files = Files({"lib/changelog_web/web.ex": WEB})
    assert not holds_by_name(controller, helpers, use, CONTROLLER, files)  # aliased, here and in the `use`d module
    imported = CONTROLLER.replace(
        "alias ChangelogWeb.Helpers.SharedHelpers", "import ChangelogWeb.Helpers.SharedHelpers"
    )
    assert holds_by_name(controller, helpers, use, imported, files)
    through_use = Files({"lib/changelog_web/web.ex": WEB.replace("alias ChangelogWeb.Helpers.{SharedHelpers}",
                                                             "import ChangelogWeb.Helpers.SharedHelpers")})  # fmt: skip
    assert holds_by_name(controller, helpers, use, CONTROLLER, through_use)  # `use ChangelogWeb` imports it
    group = "import ChangelogWeb.Helpers.{AdminHelpers, SharedHelpers}"
    grouped = Files({"lib/changelog_web/web.ex": WEB.replace("alias ChangelogWeb.Helpers.{SharedHelpers}", group)})
    assert holds_by_name(controller, helpers, use, CONTROLLER, grouped)


def test_a_javascript_class_methods_head_is_no_outcome():
    assert not whole("  log(action) {")
    assert not whole("  async load(url: string): Promise<void> {")
    assert whole('  Log.track("Mini Player", {action: action, audio: this.title});')
    assert whole("  if (!this.audio) return;")


def test_elixir_code_is_said_as_modules_and_functions():
    def kind_of(text: str, kind: str) -> str:
        piece = Chunk("lib/changelog/schema/news.ex", "elixir", 1, 1 + text.count("\n"), text, "Changelog.News", kind,
                      "service")  # fmt: skip
        return role_phrase(piece, {}, "is here")

    assert kind_of("defmodule Changelog.News do\n  use Changelog.Schema\nend", "class") == "defines a module"
    assert kind_of('  scope "/admin" do\n    get "/", PageController, :index\n  end', "class") == "is part of a module"
    assert kind_of("  def add_email(user, params) do\n    user\n  end", "method") == "is a function"
