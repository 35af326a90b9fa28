"""Sentences read in answers on two apps in no data set (#35): a Rails app (dawarich) and a Phoenix app (logflare).

- "``LogflareWeb.AuthController.signin_invitee`` stores ``invite_token`` in the session on one branch only", for
  ``|> put_session(:invite_token, nil)`` on each of its three branches: a key put to nil is cleared, not stored.
"""

from __future__ import annotations

from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk

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
