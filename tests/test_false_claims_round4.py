"""False or misleading sentences read in the seed answers on real-size apps (#35, round 4), each on the lines that
made it.

- "Then ``app.php`` answers with ``response()->json(['error' => 'Unauthenticated.'], 401)`` when
  ``$request->expectsJson()``": the closure renders an ``AuthenticationException`` only, the sentence dropped it;
- "``SessionsController.destroy`` answers with ``redirect_to new_session_path, notice: …logout_successful``" as how
  signing in ends: a sign-out's answer;
- "Then ``authentication.js`` stores ``req.session.meta.reAuthAt = now;`` when ``req.session.forceLogin``": a flag
  its ``else`` deletes again, not what signing in does;
- "``UserMailer`` turns ``AbortDeliveryError`` into a response (``rescue_from``)": a mailer answers no request;
- "runs ``require_authentication`` and ``restore_authentication`` before each action": the second ``before_action``
  is in a method's body, registered only by the controllers that call it.
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.code.outline import display_name
from codeqa.answer.explanation.said.extractive import extractive_answer
from codeqa.answer.explanation.said.roles_said import role_phrase
from codeqa.records import Chunk, Hit

KOEL_IMPORTS = """<?php

use Illuminate\\Auth\\AuthenticationException;
use Illuminate\\Foundation\\Application;
use Illuminate\\Foundation\\Configuration\\Exceptions;
use Illuminate\\Http\\JsonResponse;
use Illuminate\\Http\\Request;"""
KOEL_EXCEPTIONS = """    ->withExceptions(static function (Exceptions $exceptions): void {
        $exceptions->render(static function (
            AuthenticationException $e,
            Request $request,
        ): JsonResponse|RedirectResponse {
            if ($request->expectsJson()) {
                return response()->json(['error' => 'Unauthenticated.'], 401);
            }

            return redirect()->guest('/');
        });
    })
    ->create();"""
SESSIONS = """class SessionsController < ApplicationController
  before_action :set_session, only: :destroy
  skip_authentication only: %i[new create]

  def create
    if user = User.authenticate_by(email: params[:email], password: params[:password])
      @session = create_session_for(user)
      redirect_to root_path
    else
      flash.now[:alert] = t(".invalid_credentials")
      render :new, status: :unprocessable_entity
    end
  end

  def destroy
    @session.destroy
    redirect_to new_session_path, notice: t(".logout_successful")
  end
end"""
ROUTES = """Auth.reloadRoutes = async function (params) {
	loginStrategies.length = 0;
	const { router } = params;

	// Local Logins
	if (plugins.hooks.hasListeners('action:auth.overrideLogin')) {
		winston.warn('[authentication] Login override detected, skipping local login strategy.');
		plugins.hooks.fire('action:auth.overrideLogin');
	} else {
		passport.use(new passportLocal({ passReqToCallback: true }, controllers.authentication.localLogin));
	}
};"""
ON_LOGIN = """	try {
		req.uid = uid;
		await user.logIP(uid, req.ip);
		const now = Date.now();
		if (req.session.forceLogin) {
			req.session.meta.reAuthAt = now;
		} else {
			delete req.session.meta.reAuthAt;
		}
		await Promise.all([
			trackSession ? user.auth.addSession(uid, req.sessionID) : undefined,
		]);
	} catch (err) {
		req.session.destroy();
		throw err;
	}
};"""
MAILER = """class UserMailer < ActionMailer::Base
  class AbortDeliveryError < StandardError; end

  default from: "CodeTriage <noreply@codetriage.com>"

  rescue_from AbortDeliveryError, with: -> {}
end"""
APPLICATION = """class ApplicationController < ActionController::Base
  include ActionView::Helpers::NumberHelper

  protect_from_forgery

  before_action do
    if current_user
      Sentry.set_user(email: current_user.email, id: current_user.id, username: current_user.github)
    end
  end
end"""
CAMPFIRE_APPLICATION = """class ApplicationController < ActionController::Base
  include AllowBrowser, Authentication, Authorization, BlockBannedRequests, SetCurrentRequest, SetPlatform
end"""
MAYBE_AUTH = """module Authentication
  extend ActiveSupport::Concern

  included do
    before_action :authenticate_user!
  end

  private
    def authenticate_user!
      if session_record = find_session_by_cookie
        Current.session = session_record
      else
        redirect_to new_session_url
      end
    end

    def create_session_for(user)
      session = user.sessions.create!
      cookies.signed.permanent[:session_token] = { value: session.id, httponly: true }
      session
    end
end"""
CAMPFIRE = """module Authentication
  extend ActiveSupport::Concern
  include SessionLookup

  included do
    before_action :require_authentication
    before_action :deny_bots
    helper_method :signed_in?

    protect_from_forgery with: :exception, unless: -> { authenticated_by.bot_key? }
  end

  class_methods do
    def allow_unauthenticated_access(**options)
      skip_before_action :require_authentication, **options
    end

    def allow_bot_access(**options)
      skip_before_action :deny_bots, **options
    end

    def require_unauthenticated_access(**options)
      skip_before_action :require_authentication, **options
      before_action :restore_authentication, :redirect_signed_in_user_to_root, **options
    end
  end

  private
    def signed_in?
      Current.user.present?
    end

    def require_authentication
      restore_authentication || bot_authentication || request_authentication
    end

    def restore_authentication
      if session = find_session_by_cookie
        resume_session session
      end
    end

    def bot_authentication
      if params[:bot_key].present? && bot = User.authenticate_bot(params[:bot_key].strip)
        Current.user = bot
        set_authenticated_by(:bot_key)
      end
    end

    def request_authentication
      session[:return_to_after_authenticating] = request.url
      redirect_to new_session_url
    end

end"""
AUTH = "How does user authentication flow through the system?"
FAILS = "What happens when an API request fails?"


def _chunk(path: str, language: str, symbol: str, text: str, layer: str, kind: str, start: int = 1) -> Chunk:
    return Chunk(path, language, start, start + text.count("\n"), text, symbol, kind, layer)


def _opening(question: str, *chunks: Chunk) -> str:
    hits = [Hit(chunk, 1.0 - n / 10, chunk.id) for n, chunk in enumerate(chunks)]
    return extractive_answer(question, hits, context=AnswerContext.from_chunks(list(chunks), hits)).split("\n")[0]


def test_an_answer_for_one_exception_type_says_the_type() -> None:
    app = _chunk("bootstrap/app.php", "php", "", KOEL_EXCEPTIONS, "config", "module", start=66)
    imports = _chunk("bootstrap/app.php", "php", "", KOEL_IMPORTS, "config", "module")
    opening = _opening(FAILS, app, imports)
    assert "Unauthenticated." in opening, opening  # the answer is still said ...
    assert "for an `AuthenticationException` when `$request->expectsJson()`" in opening, opening  # ... for its type


def test_a_sign_out_is_not_how_signing_in_ends() -> None:
    concern = _chunk("app/controllers/concerns/authentication.rb", "ruby", "Authentication", MAYBE_AUTH, "api",
                     "module")  # fmt: skip
    sessions = _chunk("app/controllers/sessions_controller.rb", "ruby", "SessionsController", SESSIONS, "api", "class")
    opening = _opening(AUTH, concern, sessions)
    assert "logout_successful" not in opening, opening


def test_a_flag_its_else_takes_away_is_not_stored() -> None:
    login = _chunk("src/controllers/authentication.js", "javascript", "", ON_LOGIN, "api", "module", start=354)
    routes = _chunk("src/routes/authentication.js", "javascript", "", ROUTES, "api", "module", start=66)
    opening = _opening(AUTH, login, routes)
    assert "reAuthAt" not in opening, opening


def test_a_mailers_rescue_from_answers_no_request() -> None:
    mailer = _chunk("app/mailers/user_mailer.rb", "ruby", "UserMailer", MAILER, "service", "class", start=3)
    application = _chunk("app/controllers/application_controller.rb", "ruby", "ApplicationController", APPLICATION,
                         "api", "class")  # fmt: skip
    opening = _opening(FAILS, mailer, application)
    assert "into a response" not in opening, opening


def test_a_filter_registered_in_a_method_body_is_not_before_each_action() -> None:
    concern = _chunk("app/controllers/concerns/authentication.rb", "ruby", "Authentication", CAMPFIRE, "api", "module")
    application = _chunk("app/controllers/application_controller.rb", "ruby", "ApplicationController",
                         CAMPFIRE_APPLICATION, "api", "class")  # fmt: skip
    opening = _opening(AUTH, concern, application)
    assert "`require_authentication`" in opening, opening  # the class-level filter is still said
    assert "restore_authentication` before each action" not in opening, opening


HANDLE_ERRORS = """exports.handleErrors = async function handleErrors(err, req, res, next) {
	const cases = {
		'blacklisted-ip': function () {
			res.status(403).type('text/plain').send(err.message);
		},
	};

	const notFoundHandler = () => {
		const controllers = require('.');
		controllers['404'].handle404(req, res);
	};"""


def test_a_piece_of_a_function_is_named_after_it_not_after_a_local_in_it() -> None:
    piece = _chunk("src/controllers/errors.js", "javascript", "notFoundHandler", HANDLE_ERRORS, "api", "function", 42)
    assert display_name(piece) == "handleErrors (+1)"
    local = _chunk("src/controllers/errors.js", "javascript", "notBuiltHandler",
                   "\tconst notBuiltHandler = async () => {\n\t\tres.status(500).send(file);\n\t};", "api", "function",
                   58)  # fmt: skip
    assert display_name(local) == "notBuiltHandler"  # a chunk that opens the local is named after it


def test_a_function_assigned_at_the_top_of_a_file_is_named_after_what_it_is_assigned_to() -> None:
    """The chunker names no definition in ``authenticationController.login = async (…) => {`` (a file's top-level
    code): the answer names it after the assignment, not the file, and says it is a function — but only when the
    chunk holds that one function: a chunk of five is not its first."""
    login = _chunk("src/controllers/authentication.js", "javascript", "",
                   "authenticationController.login = async (req, res, next) => {\n"
                   "\tconst strategy = req.body.strategy || 'local';\n"
                   "\treturn continueLogin(strategy, req, res, next);\n"
                   "};", "api", "module", 225)  # fmt: skip
    assert display_name(login) == "authenticationController.login"
    assert role_phrase(login, {}, "") == "is a function"
    exported = _chunk("controllers/user.js", "javascript", "",
                      "/**\n * POST /login\n */\nexports.postLogin = async (req, res, next) => {\n\tnext();\n};",
                      "api", "module")  # fmt: skip
    assert display_name(exported) == "postLogin"
    several = _chunk("src/logger.js", "javascript", "",
                     "Logger.open = function (value) {\n\treturn value;\n};\n\n"
                     "Logger.expressLogger = function (req, res, next) {\n\tnext();\n};",
                     "core", "module", 72)  # fmt: skip
    assert display_name(several) == "logger.js"
    assert role_phrase(several, {}, "") == "is the file's top-level code"
    nested = _chunk("src/app.js", "javascript", "", "\tapp.handler = (req, res) => {\n\t\tres.end();\n\t};", "api",
                    "module")  # fmt: skip
    assert display_name(nested) == "app.handler"  # one level into a wrapper (AMD `define(…, function () {`): its own
    deeper = _chunk("src/app.js", "javascript", "", "\t\tapp.handler = (req, res) => {\n\t\t\tres.end();\n\t\t};",
                    "api", "module")  # fmt: skip
    assert display_name(deeper) == "app.js"  # a piece of something bigger: a function's local
    spilled = _chunk("src/app.js", "javascript", "", "\tapp.handler = (req, res) => {\n\t\tres.end();\n\t};\n});",
                     "api", "module")  # fmt: skip
    assert display_name(spilled) == "app.js"  # the chunk goes on past the block it starts in
