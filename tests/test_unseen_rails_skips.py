"""False on an unseen app (probe 17's read of huginn, an app in no data set): "`ApplicationController` runs
`authenticate_user!` for every controller (a filter in `ApplicationController`)", while ``HomeController`` and
``WebRequestsController`` say ``skip_before_action :authenticate_user!`` and ``ScenariosController`` skips it for
``export``. A base controller's filter runs for every controller that does not skip it: the skipping classes are
named, each cited by its skip line.
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.constructs.candidate import Candidate
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.constructs.skipped import Skip, except_phrase, excepted
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk, Hit

APPLICATION = """class ApplicationController < ActionController::Base
  before_action :authenticate_user!
  before_action :configure_permitted_parameters, if: :devise_controller?

  helper :all
end"""
HOME = """class HomeController < ApplicationController
  skip_before_action :authenticate_user!

  before_action :upgrade_warning, only: :index

  def index
  end
end"""
WEB_REQUESTS = """class WebRequestsController < ApplicationController
  skip_before_action :verify_authenticity_token
  skip_before_action :authenticate_user!
  wrap_parameters false
end"""
SCENARIOS = """class ScenariosController < ApplicationController
  include SortableTable
  skip_before_action :authenticate_user!, only: :export
end"""
AGENTS = """class AgentsController < ApplicationController
  skip_before_action :verify_authenticity_token, raise: false
end"""


def _chunk(path: str, text: str, symbol: str) -> Chunk:
    return Chunk(path, "ruby", 1, text.count("\n") + 1, text, symbol, "class", "controller")


def _answered(question: str) -> str:
    base = _chunk("app/controllers/application_controller.rb", APPLICATION, "ApplicationController")
    others = [
        _chunk("app/controllers/home_controller.rb", HOME, "HomeController"),
        _chunk("app/controllers/web_requests_controller.rb", WEB_REQUESTS, "WebRequestsController"),
        _chunk("app/controllers/scenarios_controller.rb", SCENARIOS, "ScenariosController"),
        _chunk("app/controllers/agents_controller.rb", AGENTS, "AgentsController"),
    ]
    context = AnswerContext.from_chunks([base, *others], [Hit(base, 1.0, base.id)])
    rails = [c for c in load_all() if c.name == "Rails"]
    found = [Candidate(Hit(base, 1.0, base.id), 0.0, matches_in(base, rails, intents(question)), 0, True)]
    kept, cited = excepted(context, found)
    assert {hit.chunk.path for hit in cited} == {o.path for o in others[:3]}  # the skip lines are sources
    return " | ".join(match.phrase for match in kept[0].matches)


def test_a_skipped_filter_names_the_controllers_that_skip_it() -> None:
    said = _answered("How does user authentication flow through the system?")
    assert (
        "runs `authenticate_user!` for every controller (a filter in `ApplicationController`) except `HomeController`"
        " and `WebRequestsController` (which skip it: `app/controllers/home_controller.rb:2`,"
        " `app/controllers/web_requests_controller.rb:3`) and some actions of `ScenariosController`"
        " (`app/controllers/scenarios_controller.rb:3`)"
    ) in said
    assert "`AgentsController`" not in said  # it skips another filter


def test_a_filter_nobody_skips_still_runs_for_every_controller() -> None:
    said = _answered("Where would I add logging to track user behavior?")
    assert said.endswith(
        "runs `configure_permitted_parameters` for every controller, only `if: :devise_controller?`"
        " (a filter in `ApplicationController`)"
    )
    assert said.count("except") == 1


def test_many_skipping_controllers_are_counted() -> None:
    chunk = _chunk("app/controllers/a_controller.rb", HOME, "AController")
    skips = [Skip(f"C{n}Controller", f"app/controllers/c{n}_controller.rb", 2, False, chunk) for n in range(5)]
    said = except_phrase(skips)
    assert said.startswith("except the 5 that skip it (`app/controllers/c0_controller.rb:2`")
    assert "C4Controller" not in said
