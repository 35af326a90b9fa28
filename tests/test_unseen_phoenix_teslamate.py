"""False on teslamate (a Phoenix app in no data set), read as a newcomer does.

Asked how authentication flows: "``TeslaMateWeb.Router`` … keeps the signed-in user on the connection or in the
session" for ``put_session(:settings, settings)`` (the router's plug that keeps the app's settings): a session key
says nothing about a signed-in user unless it names one.

Asked what happens when an API request fails: "``TeslaApi.Middleware.FollowRedirects.MyClient`` … runs the
``Tesla.Middleware.FollowRedirects`` plug on each request" for a usage example inside the module's ``@moduledoc``
heredoc: documentation, no code that runs.
"""

from __future__ import annotations

from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk

AUTH = "How does user authentication flow through the system?"
SETTINGS = """  def fetch_settings(conn, _opts) do
    settings = Settings.get_global_settings!()

    conn
    |> assign(:settings, settings)
    |> put_session(:settings, settings)
  end"""
SIGN_IN = """  def log_in_user(conn, user, params \\\\ %{}) do
    token = Accounts.generate_user_session_token(user)

    conn
    |> renew_session()
    |> put_session(:user_token, token)
  end"""


def _phrases(text: str, question: str = AUTH) -> list[str]:
    phoenix = [c for c in load_all() if c.name in ("Phoenix", "any framework")]
    chunk = Chunk("lib/app_web/router.ex", "elixir", 56, 56 + text.count("\n"), text, "AppWeb.Router", "function",
                  "api")  # fmt: skip
    return [m.phrase for m in matches_in(chunk, phoenix, intents(question))]


def test_a_session_key_that_names_no_user_keeps_no_signed_in_user():
    assert not [phrase for phrase in _phrases(SETTINGS) if "signed-in" in phrase or "session" in phrase]


def test_a_session_key_that_names_the_user_is_said_as_stored():
    assert "stores `user_token` in the session" in _phrases(SIGN_IN)


REDIRECTS = '''defmodule TeslaApi.Middleware.FollowRedirects do
  @moduledoc """
  Follow 3xx redirects

  ## Example

  ```
  defmodule MyClient do
    use Tesla

    plug Tesla.Middleware.FollowRedirects, max_redirects: 3, except: ["http:/www.example.com"]
  end
  ```
  """

  @behaviour Tesla.Middleware

  plug Tesla.Middleware.Logger
'''


def test_a_plug_in_a_moduledoc_example_runs_on_no_request():
    phrases = _phrases(REDIRECTS, "What happens when an API request fails?")
    assert not [phrase for phrase in phrases if "FollowRedirects" in phrase]
    # a Tesla middleware's own plug runs on the requests the client sends, none the app handles (probe35)
    assert not [phrase for phrase in phrases if "Tesla.Middleware.Logger" in phrase]
    # a plug after the heredoc still counts in a module that is no Tesla client (the example's `use Tesla` made it one)
    router = _phrases(REDIRECTS.replace("    use Tesla\n", "").replace("plug Tesla.Middleware.Logger", "plug :x"), AUTH)
    assert [phrase for phrase in router if "`x`" in phrase]
