"""False or garbled sentences on two apps in no data set (probe21: rubygems.org, a Rails app, and piggymetrics, a
Spring app of several services):

- piggymetrics' ``account-service/…/ErrorHandler.java`` (``@ControllerAdvice``) was said to handle "exceptions for
  every controller", and "where errors go" sent every error there, when the statistics, notification and auth
  services (each its own ``@SpringBootApplication`` with its own ``pom.xml``) never reach it: it is said of its own
  app now;
- ``before_action :redirect_to_signin, unless: :signed_in?, only: %i[verify authenticate]`` was said to run "before
  each action, only `unless: …, only: …`": a filter limited to some actions runs before those;
- "runs `set_error_context_user`, `set_user_tag` and 5 other for every controller": "5 others";
- "In short: when a request fails, `Api.V1.SearchesController` turns …" for a leaf controller's ``rescue_from``: it
  handles its own actions' errors, "when a request to `Api::V1::SearchesController` fails";
- "When someone pushes a new gem version, what code runs to save it?" opened on "`Pusher.save` is the closest match
  found: `return notify("There was a problem saving your gem: …", 403)`": an error answer's message counts only for a
  question about errors, as a raise's does.
"""

from __future__ import annotations

from dataclasses import replace

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.code.keylines import KeyLine, question_terms
from codeqa.answer.explanation.constructs.apppart import app_parts, own_app, part_of, parts
from codeqa.answer.explanation.constructs.candidate import Candidate
from codeqa.answer.explanation.constructs.leafscope import leaf_class
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.explain import Step
from codeqa.answer.explanation.said.phrasing import said_of
from codeqa.answer.explanation.said.quoted_line import best_line
from codeqa.chunk import chunk_file
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk, Hit, SourceFile
from codeqa.retrieve.question import Question

POM = """<project>
  <artifactId>{name}</artifactId>
  <dependencies><dependency><groupId>org.springframework.boot</groupId></dependency></dependencies>
</project>
"""
APPLICATION = """package com.piggymetrics.{name};

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class {cls}Application {{

	public static void main(String[] args) {{
		SpringApplication.run({cls}Application.class, args);
	}}
}}
"""
ERROR_HANDLER = """package com.piggymetrics.account.controller;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.ResponseStatus;

@ControllerAdvice
public class ErrorHandler {

	private final Logger log = LoggerFactory.getLogger(getClass());

	@ExceptionHandler(IllegalArgumentException.class)
	@ResponseStatus(HttpStatus.BAD_REQUEST)
	public void processValidationError(IllegalArgumentException e) {
		log.info("Returning HTTP 400 Bad Request", e);
	}
}
"""
CONTROLLER = """package com.piggymetrics.statistics.controller;

import org.springframework.web.bind.annotation.RestController;

@RestController
public class StatisticsController {

	@RequestMapping(value = "/current", method = RequestMethod.GET)
	public List<DataPoint> getCurrentAccountStatistics(Principal principal) {
		return statisticsService.findByAccountName(principal.getName());
	}
}
"""
ADVICE = "account-service/src/main/java/com/piggymetrics/account/controller/ErrorHandler.java"
QUESTION = "What happens when an API request fails?"


def _services(*names: str) -> dict[str, tuple[str, str]]:
    files = {"pom.xml": ("xml", POM.format(name="piggymetrics")), ADVICE: ("java", ERROR_HANDLER)}
    for name in names:
        cls = name.capitalize()
        files[f"{name}-service/pom.xml"] = ("xml", POM.format(name=name))
        files[f"{name}-service/src/main/java/com/piggymetrics/{name}/{cls}Application.java"] = (
            "java", APPLICATION.format(name=name, cls=cls))  # fmt: skip
    files["statistics-service/src/main/java/com/piggymetrics/statistics/controller/StatisticsController.java"] = (
        "java", CONTROLLER)  # fmt: skip
    return files


def _context(files: dict[str, tuple[str, str]]) -> tuple[list[Chunk], AnswerContext]:
    chunks = [c for path, (language, text) in files.items()
              for c in chunk_file(SourceFile(path, language, text, len(text)))]  # fmt: skip
    return chunks, AnswerContext.from_chunks(chunks, [Hit(chunk, 1.0, chunk.id) for chunk in chunks])


def _advice_phrases(files: dict[str, tuple[str, str]]) -> list[str]:
    chunks, context = _context(files)
    spring = [c for c in load_all() if c.name == "Spring"]
    found = [Candidate(Hit(c, 1.0, c.id), 0.0, matches_in(c, spring, intents(QUESTION)), 0, True)
             for c in chunks if c.path == ADVICE]  # fmt: skip
    return [m.phrase for c in own_app(context, found) for m in c.matches if "ControllerAdvice" in m.phrase]


def test_the_parts_are_the_folders_holding_a_build_file() -> None:
    held = parts(list(_services("account", "statistics")))
    assert held == ["account-service", "statistics-service"]  # the root's pom.xml makes no part
    assert part_of(ADVICE, held) == "account-service"
    assert part_of("pom.xml", held) is None


def test_a_controller_advice_in_one_service_of_several_is_said_of_its_own_app() -> None:
    files = _services("account", "statistics")
    _, context = _context(files)
    spring = next(c for c in load_all() if c.name == "Spring")
    assert app_parts(context, spring) == {"account-service", "statistics-service"}
    phrases = _advice_phrases(files)
    assert phrases == ["handles exceptions for every controller of the `account-service` app (`@ControllerAdvice`)"]


def test_a_controller_advice_of_the_one_app_is_every_controllers() -> None:
    files = _services("account")  # one service starts an app: the statistics folder has no build file
    assert _advice_phrases(files) == ["handles exceptions for every controller (`@ControllerAdvice`)"]


SESSIONS = """class SessionsController < Clearance::SessionsController
  before_action :redirect_to_signin, unless: :signed_in?, only: %i[verify webauthn_authenticate authenticate]
  before_action :webauthn_new_setup, only: :new

  def create
    do_login(two_factor_label: nil, two_factor_method: nil, authentication_method: "password")
  end
end"""
FILTERS = """class ApplicationController < ActionController::Base
  before_action :reject_null_char_param
  before_action :reject_path_params_param
  before_action :reject_null_char_cookie
  before_action :set_error_context_user
  before_action :set_user_tag
  before_action :set_current_request
end"""
LOGGING = "Where would I add logging to track user behavior?"


def _rails(path: str, text: str, question: str):
    chunk = Chunk(path, "ruby", 1, text.count("\n") + 1, text, path.split("/")[-1][:-3], "class", "api")
    return matches_in(chunk, [c for c in load_all() if c.name == "Rails"], intents(question))


def test_a_filter_with_a_test_and_an_action_list_runs_before_those_actions() -> None:
    found = " ".join(m.phrase for m in _rails("app/controllers/sessions_controller.rb", SESSIONS,
                                              "How does user authentication flow through the system?"))  # fmt: skip
    assert "before some actions (`unless: :signed_in?, only: %i[verify" in found, found
    assert "each action, only" not in found, found
    assert "before some actions (`only: :new`)" in found, found


def test_the_filters_not_named_are_counted_as_others() -> None:
    matches = _rails("app/controllers/application_controller.rb", FILTERS, LOGGING)
    said = said_of(matches, question_terms(Question.parse(LOGGING)))
    assert " and 4 others for every controller" in said, said
    assert " other for" not in said, said


def test_one_filter_not_named_is_one_other() -> None:
    question = "Where would I add logging?"  # no filter named for it: the first four are named, one is counted
    matches = _rails("app/controllers/application_controller.rb", "\n".join(FILTERS.split("\n")[:6] + ["end"]),
                     question)  # fmt: skip
    said = said_of(matches, question_terms(Question.parse(question)))
    assert said.endswith(" and 1 other for every controller (a filter in `ApplicationController`)"), said


SEARCHES = """# frozen_string_literal: true

class Api::V1::SearchesController < Api::BaseController
  before_action :set_page, only: %i[show autocomplete]

  rescue_from ElasticSearcher::SearchNotAvailableError, with: :search_not_available_error
  rescue_from ElasticSearcher::InvalidQueryError, with: :render_bad_request

  def show
    @rubygems = ElasticSearcher.new(query_params, page: @page).api_search
  end
end
"""
API_BASE = """# frozen_string_literal: true

class Api::BaseController < ApplicationController
  rescue_from(Pundit::NotAuthorizedError) do |e|
    render_forbidden(e.policy.error)
  end
  rescue_from ActiveRecord::RecordNotFound, with: :render_not_found
end
"""
RUBYGEMS = "app/controllers/api/v1/rubygems_controller.rb"
RUBYGEMS_CONTROLLER = """class Api::V1::RubygemsController < Api::BaseController
  def create
    render_forbidden(t(:api_key_insufficient_scope))
  end
end
"""


def _leaf(path: str) -> str | None:
    files = {"app/controllers/api/v1/searches_controller.rb": ("ruby", SEARCHES),
             "app/controllers/api/base_controller.rb": ("ruby", API_BASE),
             RUBYGEMS: ("ruby", RUBYGEMS_CONTROLLER)}  # fmt: skip
    chunks, context = _context(files)
    rails = [c for c in load_all() if c.name == "Rails"]
    matches = [m for c in chunks if c.path == path for m in matches_in(c, rails, intents(QUESTION))
               if "rescue_from" in m.phrase]  # fmt: skip
    assert matches
    return leaf_class(context, matches)


def test_a_leaf_controllers_rescue_from_is_its_own_requests() -> None:
    assert _leaf("app/controllers/api/v1/searches_controller.rb") == "Api::V1::SearchesController"


def test_a_base_controllers_rescue_from_is_every_requests() -> None:
    assert _leaf("app/controllers/api/base_controller.rb") is None  # `RubygemsController < Api::BaseController`


def test_a_controller_advice_is_no_leaf() -> None:
    chunks, context = _context(_services("account", "statistics"))
    spring = [c for c in load_all() if c.name == "Spring"]
    matches = [m for c in chunks if c.path == ADVICE for m in matches_in(c, spring, intents(QUESTION))]
    assert matches and leaf_class(context, matches) is None


PUSHER_SAVE = """  def save
    # Restructured so that if we fail to write the gem (ie, s3 is down)
    # can clean things up well.
    unless update
      return false if message
      return notify("There was a problem saving your gem: #{rubygem.all_errors(version)}", 403)
    end
    trace("gemcutter.pusher.write_gem") do
      write_gem @body, @spec_contents
    end
  rescue ArgumentError => e
    @version&.destroy
    Rails.error.report(e, handled: true)
    notify("There was a problem saving your gem. #{e}", 400)
  else
    after_write
    notify("Successfully registered gem: #{version.to_title}", 200)
    true
  end"""


def _opening_line(question: str) -> str:
    chunk = Chunk("app/models/pusher.rb", "ruby", 72, 90, PUSHER_SAVE, "Pusher.save", "method", "model")
    lines = [KeyLine(72 + n, line.rstrip()) for n, line in enumerate(PUSHER_SAVE.split("\n"))
             if line.strip() and not line.strip().startswith("#")]  # fmt: skip
    parsed = Question.parse(question)
    line = best_line(Step(1, Hit(chunk, 1.0, chunk.id), "method", lines, ""), question_terms(parsed), parsed.intents)
    assert line is not None
    return line.text


def test_an_error_answers_message_does_not_say_how_a_thing_is_saved() -> None:
    said = _opening_line("When someone pushes a new gem version, what code runs to save it?")
    assert "403" not in said and "400" not in said, said


def test_an_error_answers_message_still_answers_a_question_about_errors() -> None:
    said = _opening_line("What happens when saving a gem fails with an error?")
    assert "There was a problem saving your gem" in said, said


def test_every_requests_chain_is_said_in_its_own_app() -> None:
    from codeqa.answer.explanation.constructs.apppart import said_of_app

    spring = [c for c in load_all() if c.name == "Spring"]
    chunks, _ = _context(_services("account", "statistics"))
    match = next(m for c in chunks if c.path == ADVICE for m in matches_in(c, spring, intents(QUESTION)))
    owned = replace(match, phrase="adds `cors` to every request's middleware chain (run in `app.use` order)")
    apps = frozenset({"account-service", "statistics-service"})
    assert said_of_app(owned, apps).phrase == (
        "adds `cors` to every request's middleware chain in the `account-service` app (run in `app.use` order)"
    )
    assert said_of_app(owned, frozenset({"account-service"})).phrase == owned.phrase  # one app: every request
