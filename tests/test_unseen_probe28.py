"""Misleading sentences on two apps in no data set (probe28: changelog.com, a Phoenix app, and ntfy, a Go server):

- "`ChangelogWeb.Router` … runs the `Plug.CacheControl` plug on requests piped through `:browser`, `:feed` and
  `:json_feed` (and 17 more)": the 17 are the router's other plugs, not more pipelines; the count names what it
  counts ("(and 17 more plugs)", ``phrasing``);
- "`topicSubscriber (+2)` … defines a struct; `newTopic` is called by …; it is used by `topic.subscribersCopy`": the
  "it" reads as `newTopic`, while the struct is what `subscribersCopy` uses; a clause with another subject comes
  after every "it" clause (``relsaid``);
- "`ChangelogWeb.Admin.EpisodeView.downloads_link` … handles the request" for a view helper that takes ``conn`` out of
  the template's assigns to build a link (``elixirconn``);
- "`newMailBackend` (`server/smtp_server.go:1-70`) defines a struct": the chunk opens with ``type smtpBackend struct``,
  the lines shown are the function's; named after the function, it is said as one (``roles_said.held_role``);
- "`Notifier.notify` is defined in: `lib/changelog/notifier.ex:16-16` (method `Changelog.Notifier.notify`)": Elixir
  has functions, no methods (``graphqa``);
- "No code in this index calls `handlePublish`" while ``handleInternal`` hands ``s.handlePublish`` on: the file also
  builds an ``&http.Server{…}``, and that namesake's package was taken for the receiver ``s``'s, though ``func (s
  *Server)`` declares it with the bare type (``gopackages.go_package``).
"""

from __future__ import annotations

from codeqa.answer.explanation.calls.byname import holds_by_name
from codeqa.answer.explanation.calls.flow import Use
from codeqa.answer.explanation.code.keylines import question_terms
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.said.phrasing import _noun_after, said_of
from codeqa.answer.explanation.said.relsaid import Said, said_relations
from codeqa.answer.explanation.said.roles_said import KIND_PHRASES, held_role, role_phrase
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk

ROUTER = """defmodule ChangelogWeb.Router do
  use ChangelogWeb, :router
  use ChangelogWeb.ObanWeb

  alias ChangelogWeb.Plug

  # should be used before :browser pipeline to avoid auth and cache headers
  pipeline :public do
    plug Plug.Robots
    plug Plug.Redirects
    plug Plug.VanityDomains
  end

  pipeline :admin do
    plug Plug.AdminLayoutPlug
    plug :protect_from_forgery
  end

  pipeline :browser do
    plug :accepts, ["html", "js"]
    plug :fetch_session
    plug :fetch_live_flash
    plug :put_root_layout, html: {ChangelogWeb.LayoutView, :app}
    plug :put_secure_browser_headers
    plug Plug.LoadPodcasts
    plug Plug.Authenticate, repo: Changelog.Repo
    plug Plug.AllowFraming
    # must come after Plug.Authenticate
    plug Plug.CacheControl
  end

  pipeline :feed do
    plug :accepts, ["xml"]
    plug Plug.Redirects
    plug Plug.CacheControl
  end

  pipeline :json_feed do
    plug :accepts, ["json"]
    plug Plug.CacheControl
  end

  pipeline :api do
    plug :accepts, ["json"]
  end"""


def test_the_untold_plugs_of_a_router_are_counted_as_plugs_not_as_more_pipelines() -> None:
    phoenix = [c for c in load_all() if c.name in ("Phoenix", "any framework")]
    question = "What happens when an API request fails?"
    router = Chunk("lib/changelog_web/router.ex", "elixir", 1, 1 + ROUTER.count("\n"), ROUTER, "ChangelogWeb.Router",
                   "class", "api")  # fmt: skip
    matches = matches_in(router, phoenix, intents(question))
    said = said_of(matches, question_terms(question))
    told = said.count("`Plug.") + said.count("`:")  # the plugs and pipelines it names
    assert said.endswith(" more plugs)"), said
    assert not said.endswith(" more)"), said
    assert told < len({m.phrase for m in matches})  # some are untold: the count is said


def test_the_noun_of_an_untold_count_is_the_one_after_the_handler_or_none() -> None:
    plug = "runs the `Plug.CacheControl` plug on requests piped through `:feed`"
    assert _noun_after(plug, "`Plug.CacheControl`") == "plug"
    assert _noun_after("builds the `badRequest` error response", "`badRequest`") == "error response"
    assert _noun_after("hands errors to `handle_error`", "`handle_error`") == ""  # nothing after it: a bare count
    assert _noun_after("runs `check` before each action", "`check`") == ""
    assert _noun_after("runs the `A` plug", "") == ""


def test_its_own_clauses_come_before_a_clause_naming_another_definition() -> None:
    called = [Said("`messageCache.Topics` (`server/message_cache.go:548-566`)", " for `newTopic`"),
              Said("`Server.topicsFromIDs` (`server/server.go:1623-1641`)", " for `newTopic`")]  # fmt: skip
    used = [Said("`topic.subscribersCopy` (`server/topic.go:194-207`)"),
            Said("`topic.Publish` (`server/topic.go:105-128`)", " for `subscriber`")]  # fmt: skip
    said = said_relations({"calls": [], "is called by": called, "is used by": used})
    assert said == (
        "; it is used by `topic.subscribersCopy` (`server/topic.go:194-207`)"
        "; `newTopic` is called by `messageCache.Topics` (`server/message_cache.go:548-566`) and"
        " `Server.topicsFromIDs` (`server/server.go:1623-1641`)"
        "; `subscriber` is used by `topic.Publish` (`server/topic.go:105-128`)"
    )
    clauses = said.split("; ")[1:]
    first_named = next(at for at, clause in enumerate(clauses) if not clause.startswith("it "))
    assert all(not clause.startswith("it ") for clause in clauses[first_named:])


DOWNLOADS_LINK = """  def downloads_link(label, assigns = %{downloads: downloads, conn: conn, current_user: user}) do
    count = SharedHelpers.pretty_downloads(downloads[label])
    podcast = Map.get(assigns, :podcast)

    if Policies.Admin.Page.downloads(user) do
      if podcast do
        link(count,
          to: Routes.admin_page_path(conn, :downloads, range: label, podcast: podcast.slug)
        )
      else
        link(count, to: Routes.admin_page_path(conn, :downloads, range: label))
      end
    else
      count
    end
  end"""
ACTION = """  def downloads(conn, params) do
    range = Map.get(params, "range", "now_7")
    dates = EpisodeStat.download_dates(range)

    conn
    |> assign(:dates, dates)
    |> render(:downloads)
  end"""
PLUG = """  def call(%{assigns: %{current_user: user}} = conn, _opts) do
    if user, do: conn, else: halt(conn)
  end"""


def test_an_elixir_view_helper_passing_the_connection_on_does_not_handle_the_request() -> None:
    verbs = {"api": "handles the request", "view": "renders what the user sees"}

    def role(path: str, text: str, layer: str) -> str:
        piece = Chunk(path, "elixir", 109, 109 + text.count("\n"), text, "x", "method", layer)
        return role_phrase(piece, verbs, "is here")

    assert role("lib/changelog_web/views/admin/episode_view.ex", DOWNLOADS_LINK, "view") == "is a function"
    assert role("lib/changelog_web/controllers/admin/page_controller.ex", ACTION, "api") == "handles the request"
    assert role("lib/changelog_web/plugs/require_user.ex", PLUG, "api") == "handles the request"


SMTP_SERVER = """type smtpBackend struct {
	config  *Config
	handler func(http.ResponseWriter, *http.Request)
	success int64
	failure int64
	mu      sync.Mutex
}

var _ smtp.Backend = (*smtpBackend)(nil)
var _ smtp.Session = (*smtpSession)(nil)

func newMailBackend(conf *Config, handler func(http.ResponseWriter, *http.Request)) *smtpBackend {
	return &smtpBackend{
		config:  conf,
		handler: handler,
	}
}

func (b *smtpBackend) NewSession(conn *smtp.Conn) (smtp.Session, error) {
	logem(conn).Debug("Incoming mail")
	return &smtpSession{backend: b, conn: conn}, nil
}"""


def test_a_go_function_named_in_a_chunk_that_opens_with_a_struct_is_a_function() -> None:
    piece = Chunk("server/smtp_server.go", "go", 43, 43 + SMTP_SERVER.count("\n"), SMTP_SERVER,
                  "smtpBackend, newMailBackend, smtpBackend.NewSession", "class", "service")  # fmt: skip
    role = role_phrase(piece, {}, "is here")
    assert role == "defines a struct"
    assert held_role(piece, role, "newMailBackend") == KIND_PHRASES["function"]
    assert held_role(piece, role, "smtpBackend.NewSession") == KIND_PHRASES["method"]
    assert held_role(piece, role, "smtpBackend") == "defines a struct"  # a lowercase Go type stays a type
    assert held_role(piece, role, "") == "defines a struct"


def test_an_elixir_definition_found_by_the_graph_is_a_function_not_a_method() -> None:
    from codeqa.answer.explanation.calls.graphqa import GraphAnswer, render_graph

    text = "  def notify(%NewsItem{type: :audio} = item) do\n    Task.start_link(fn -> deliver(item) end)\n  end"
    notify = Chunk(
        "lib/changelog/notifier.ex", "elixir", 48, 50, text, "Changelog.Notifier.notify", "method", "service"
    )
    shown = render_graph(GraphAnswer("definition", "Notifier.notify", [notify]))
    assert "(function `Changelog.Notifier.notify`)" in shown, shown
    assert "(method " not in shown


SERVER_GO = """package server

import (
	"net/http"

	"heckel.io/ntfy/v2/user"
)

func (s *Server) Run() error {
	s.httpServer = &http.Server{Addr: s.config.ListenHTTP, Handler: mux}
	return s.httpServer.ListenAndServe()
}

func (s *Server) handleInternal(w http.ResponseWriter, r *http.Request, v *visitor) error {
	if r.Method == http.MethodPut {
		return s.limitRequestsWithTopic(s.authorizeTopicWrite(s.handlePublish))(w, r, v)
	}
	return errHTTPNotFound
}

func (s *Server) handlePublish(w http.ResponseWriter, r *http.Request, v *visitor) error {
	m, err := s.handlePublishInternal(r, v)
	if err != nil {
		return err
	}
	return s.writeJSON(w, m)
}"""


def test_a_go_receiver_declared_with_the_bare_type_is_the_callers_package_though_the_file_builds_a_namesake() -> None:
    from codeqa.answer.explanation.calls.gopackages import go_package

    lines = SERVER_GO.split("\n")
    user = Chunk("server/server.go", "go", 14, 19, "\n".join(lines[13:19]), "Server.handleInternal", "method", "api")
    used = Chunk("server/server.go", "go", 21, 27, "\n".join(lines[20:27]), "Server.handlePublish", "method", "api")
    other = Chunk("vendor/http/server.go", "go", 1, 3, "type Server struct {\n}", "Server", "class", "service")
    assert go_package("Server", user, used, SERVER_GO, "s")  # `func (s *Server)`: this package's Server
    assert not go_package("Server", user, other, SERVER_GO, "s")
    assert not go_package("Server", user, used, SERVER_GO)  # no receiver: `http.Server` in the file is all it has
    both = SERVER_GO.replace("func (s *Server) Run() error {", "func run(s *http.Server) error {")
    assert not go_package("Server", user, used, both, "s")  # `s` is either: no line tells which
    line = lines[15].strip()
    assert holds_by_name(user, used, Use("handlePublish", 16, "uses", line), SERVER_GO)  # "Who calls handlePublish?"
    assert not holds_by_name(user, used, Use("handlePublish", 16, "uses", line), both)


LIMITS_NO_LOCK = """func (v *visitor) limitsNoLock() *visitorLimits {
	if v.user != nil && v.user.Tier != nil {
		return tierBasedVisitorLimits(v.config, v.user.Tier)
	}
	return configBasedVisitorLimits(v.config)
}"""
TIER_LIMITS = """func tierBasedVisitorLimits(conf *Config, tier *user.Tier) *visitorLimits {
	return &visitorLimits{
		EmailLimitReplenish: dailyLimitToRate(tier.EmailLimit),
	}
}"""


def test_a_step_linked_by_name_in_the_callers_own_file_names_no_import() -> None:
    from codeqa.answer.explanation.story.walk import Hop, Walk
    from codeqa.answer.explanation.story.walktext import walk_steps

    caller = Chunk("server/visitor.go", "go", 405, 410, LIMITS_NO_LOCK, "visitor.limitsNoLock", "method", "service")
    callee = Chunk("server/visitor.go", "go", 418, 422, TIER_LIMITS, "tierBasedVisitorLimits", "function", "service")
    line = "return tierBasedVisitorLimits(v.config, v.user.Tier)"
    elsewhere = Chunk("user/tier.go", "go", 418, 422, TIER_LIMITS, "tierBasedVisitorLimits", "function", "model")
    for callee_chunk, said in ((callee, "(linked by name in the same file, not resolved)"),
                               (elsewhere, "(linked by name and import, not resolved)")):  # fmt: skip
        walk = Walk(caller, "visitor.limitsNoLock", [Hop(caller, callee_chunk, Use("tierBasedVisitorLimits", 407,
                                                                                  "calls", line), True)])  # fmt: skip
        first = walk_steps(walk)[0][0]
        assert first.startswith("1. `visitor.limitsNoLock`") and said in first, first
        assert first.count("linked by name") == 1


NOTIFIER = """  async pushManager() {
    return (await this.serviceWorkerRegistration()).pushManager;
  }

  async serviceWorkerRegistration() {
    const registration = await navigator.serviceWorker.getRegistration();
    return registration;
  }

  notRequested() {
    return this.supported() && Notification.permission === "default";
  }

  supported() {
    return this.browserSupported() && this.contextSupported();
  }

  pushPossible() {
    return this.pushSupported() && this.contextSupported() && this.granted() && !this.iosSupportedButInstallRequired();
  }"""


def test_a_call_in_a_short_written_js_method_is_placed_in_that_method() -> None:
    from codeqa.answer.explanation.calls.callplace import from_clause, placed

    symbol = "Notifier.pushManager, Notifier.serviceWorkerRegistration, Notifier.notRequested, …"  # cut by the chunker
    chunk = Chunk("web/src/app/Notifier.js", "javascript", 67, 67 + NOTIFIER.count("\n"), NOTIFIER, symbol, "method",
                  "service")  # fmt: skip
    line = 67 + NOTIFIER.split("\n").index("    return this.browserSupported() && this.contextSupported();")
    assert placed(chunk, line) == "Notifier.supported"
    said = from_clause(Use("contextSupported", line, "calls", ""), "Notifier.pushManager", chunk)
    assert said == " from `Notifier.supported`"  # not "`Notifier.pushManager (+4)` … it calls `contextSupported`"
    assert placed(chunk, 68) == "Notifier.pushManager"
    typed = "  async login(user: User): Promise<void> {\n    const url = accountTokenUrl(config.base_url);\n  }"
    ts = Chunk("web/src/app/AccountApi.ts", "typescript", 40, 42, typed, "AccountApi.x, …", "method", "service")
    assert placed(ts, 41) == "AccountApi.login"
    control = "  check() {\n    if (this.ready) {\n      this.run();\n    }\n  }"
    js = Chunk("web/src/app/Check.js", "javascript", 1, 5, control, "Check.check, …", "method", "service")
    assert placed(js, 3) == "Check.check"  # `if (…) {` is no method head
