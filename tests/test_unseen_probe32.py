"""False and misleading sentences on two apps in no data set (probe32: Kiwi TCMS, a Django test-case manager with a
JSON-RPC API, and Redmine, a Rails issue tracker):

- "`account_pending` signs the user in with ``session[:registered_user_id] = user.id``": the session keeps a user who
  registered and awaits activation, so that the activation email can be sent again; the sign-in is
  ``session[:user_id] = user.id`` elsewhere. A session key naming another user than the signed-in one
  (``registered_user_id``, ``mfa_user_id``, ``2fa_user``, ``login_as_orig_user``) signs no one in
  (``effects.SIGNS_IN``).
"""

from __future__ import annotations

from codeqa.answer.explanation.code.effects import SIGNS_IN
from codeqa.answer.explanation.story.endings import outcome_of
from codeqa.records import Chunk

ACCOUNT_PENDING = """  def account_pending(user, redirect_path=signin_path)
    if Setting.self_registration == '1'
      flash[:error] = l(:notice_account_not_activated_yet, :url => activation_email_path)
      session[:registered_user_id] = user.id
    else
      flash[:error] = l(:notice_account_pending)
    end
    redirect_to redirect_path
  end"""
START_USER_SESSION = """  def start_user_session(user)
    session[:user_id] = user.id
    session[:tk] = user.generate_session_token
    if user.must_change_password?
      session[:pwd] = '1'
    end
  end"""


def _method(path: str, start: int, symbol: str, text: str) -> Chunk:
    return Chunk(path, "ruby", start, start + text.count("\n"), text, symbol, "method", "api")


def test_a_user_kept_in_the_session_for_a_later_step_is_not_signed_in() -> None:
    pending = _method("app/controllers/account_controller.rb", 431, "AccountController.account_pending",
                      ACCOUNT_PENDING)  # fmt: skip
    found = outcome_of(pending, "account_pending")
    assert found is None or not found.verb.startswith("signs the user in"), found
    started = _method("app/controllers/application_controller.rb", 104, "ApplicationController.start_user_session",
                      START_USER_SESSION)  # fmt: skip
    found = outcome_of(started, "start_user_session")
    assert found is not None and (found.verb, found.line) == ("signs the user in with", 105), found
    for held in ("        session[:mfa_user_id] = user.id", '    request.session["2fa_user"] = [user.id, user.email]',
                 "    session['login_as_orig_user'] = {", "    session[:user_return_to] = request.fullpath",
                 "    req.session.pendingUser = user;"):  # fmt: skip
        assert not SIGNS_IN.search(held), held
    for signed in ("    session[:current_user_id] = user.id", "    req.session.userId = user.id;",
                   '    session["id"] = user.id', "    session[:user] = @user.id"):  # fmt: skip
        assert SIGNS_IN.search(signed), signed
