"""Whether an Elixir chunk that mentions the connection (``conn``) is handed a request to answer.

``conn`` passed on (``Routes.admin_page_path(conn, :downloads)``) or taken out of a template's assigns
(``def downloads_link(label, assigns = %{conn: conn})``, a view helper building a link) shows a function that reads
the request, not one that handles it: a controller action or a plug takes the connection as its first parameter
(``def create(conn, params)``, ``def call(%{assigns: a} = conn, _)``).
"""

from __future__ import annotations

import re

# an Elixir function's spec: handed the connection, what it returns (`@spec user_with_account_transaction(Conn.t(),
# map()) :: Ecto.Multi.t()` builds a transaction from the request; an action returns the connection it answers on)
CONN_SPEC = re.compile(r"^\s*@spec\s+[\w?!]+\((?P<args>.*\bConn\.t\(\).*)\)\s*::\s*(?P<returns>[^\n]+)", re.M)
UNKNOWN = re.compile(r"^(?:any|term)\(\)")
CONN_ARGUMENT = re.compile(r"conn\b")  # a `_HANDLES` sign that is the connection as an argument (`conn, %{`)
# a head handed the connection first: `def index(conn, _)`, `def create(conn = %{method: "POST"}, …)`,
# `def call(%Plug.Conn{} = conn, _)`, `def call(%{assigns: %{current_user: u}} = conn, _)`
CONN_FIRST = re.compile(r"^\s*defp?\s+[\w?!]+\(\s*(?:conn\b|_conn\b|%(?:Plug\.)?Conn\{|%\{.*?\}\s*=\s*_?conn\b)", re.M)


def answers(text: str, found: list[str]) -> bool:
    """Whether an Elixir chunk with the request signs ``found`` may answer on the connection: a sign other than
    ``conn`` passed on (a response, a route), or a head taking the connection first; and no spec of its functions
    says otherwise — every spec returning another type (``Ecto.Multi.t()``) says it does not."""
    if all(CONN_ARGUMENT.match(sign) for sign in found) and not CONN_FIRST.search(text):
        return False
    returns = [spec.group("returns").strip() for spec in CONN_SPEC.finditer(text)]
    return not returns or any("Conn.t()" in said or UNKNOWN.match(said) for said in returns)
