"""openstreetmap-website (a Rails app in no data set, 1,900 files), asked "How does user authentication flow through
the system?": "`auth_success` signs the user in (Devise / OmniAuth)" where only OmniAuth is declared and the line
reads the provider's answer (``request.env["omniauth.auth"]``); "`successful_login` signs the user in with
``session[:fingerprint] = user.fingerprint``" (the line above, ``session[:user] = user.id``, does); and "In short: …
then `auth_success` answers with ``redirect_to :action => "new", …``", the answer of the ``else`` (no such user:
sign up), not of the branch that calls ``successful_login``."""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.code.effects import SIGNS_IN
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.said.extractive import extractive_answer
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk, Hit

AUTH_SUCCESS = """  def auth_success
    auth_info = request.env["omniauth.auth"]
    user = User.find_by(:auth_provider => provider, :auth_uid => uid)
    if user
      case user.status
      when "active", "confirmed"
        successful_login(user, referer)
      else
        failed_login(t("sessions.new.auth failure"), user.display_name, referer)
      end
    else
      redirect_to :action => "new", :nickname => name, :email => email
    end
  end"""


def test_an_omniauth_callback_reads_the_providers_answer_and_names_omniauth_only() -> None:
    rails = [c for c in load_all() if c.name == "Rails"]
    chunk = Chunk("app/controllers/users_controller.rb", "ruby", 126, 139, AUTH_SUCCESS, "UsersController.auth_success",
                  "method", "api")  # fmt: skip
    said = {m.line: m.phrase for m in matches_in(chunk, rails, intents("How does user authentication flow?"))}
    assert said[127] == "reads the identity the OmniAuth provider returned (`omniauth.auth`)"


def test_the_session_write_that_signs_in_is_the_users_not_a_value_of_it() -> None:
    assert SIGNS_IN.search("    session[:user] = user.id")
    assert SIGNS_IN.search('    session["id"] = user.id') and SIGNS_IN.search("    session[:user_id] = @user.id")
    assert not SIGNS_IN.search("    session[:fingerprint] = user.fingerprint")


CONTROLLER = "class UsersController < ApplicationController\n  include SessionMethods\n\n" + AUTH_SUCCESS + "\nend"
SESSION_METHODS = """module SessionMethods
  extend ActiveSupport::Concern

  private

  def successful_login(user, referer = nil)
    session[:user] = user.id
    session[:fingerprint] = user.fingerprint
    redirect_to target
  end
end"""


def test_the_closing_says_no_answer_of_a_branch_not_known_to_be_the_calls() -> None:
    """The closing keeps the entry's answer after its call only where the branch is known to be the call's: the
    redirect is in the ``else`` (sign up), the call in a ``case``'s ``when``."""
    controller = Chunk("app/controllers/users_controller.rb", "ruby", 1, 1 + CONTROLLER.count("\n"), CONTROLLER,
                       "UsersController, UsersController.auth_success", "class", "api")  # fmt: skip
    concern = Chunk("app/controllers/concerns/session_methods.rb", "ruby", 1, 1 + SESSION_METHODS.count("\n"),
                    SESSION_METHODS, "SessionMethods, SessionMethods.successful_login", "module", "api")  # fmt: skip
    hits = [Hit(controller, 1.0, controller.id), Hit(concern, 0.9, concern.id)]
    answer = extractive_answer("How does user authentication flow through the system?", hits,
                               context=AnswerContext.from_chunks([controller, concern], hits))  # fmt: skip
    closing = next(line for line in answer.split("\n") if line.startswith("**In short:**"))
    assert "signs the user in with `session[:user] = user.id`" in closing, closing
    assert "redirect_to :action" not in closing, closing


def test_a_bare_raise_is_said_as_raising_the_error_again() -> None:
    """OSM, asked what happens when an API request fails: "`api_call_handle_error` raises `raise` when it rescues
    `AbstractController::ActionNotFound`" for Ruby's bare ``raise`` in a ``rescue``."""
    from codeqa.answer.explanation.code.keylines import KeyLine
    from codeqa.answer.explanation.explain import Step
    from codeqa.answer.explanation.said.outcomes import outcome_said_of

    text = """  def api_call_handle_error
    yield
  rescue ActiveRecord::RecordNotFound => e
    head :not_found
  rescue AbstractController::ActionNotFound => e
    raise
  end"""
    chunk = Chunk("app/controllers/api_controller.rb", "ruby", 127, 133, text, "ApiController.api_call_handle_error",
                  "method", "api")  # fmt: skip
    step = Step(1, Hit(chunk, 1.0, chunk.id), "handles the request", [KeyLine(132, "    raise")], "")
    markdown, plain = outcome_said_of([("raises", step, KeyLine(132, "    raise"))])
    assert "raises the error again" in plain and "raises raise" not in plain, plain
