"""A token that guards a round trip is not the one a client signs in with (issue #35, class 3: a canned sentence on
a keyword). NodeBB's SSO route keeps a CSRF token as the OAuth ``state`` (``req.session.ssoState =
generateToken(req, true)``), and the answer to "Which database does the forum keep its data in … and where are login
sessions kept?" said ``Auth.reloadRoutes`` "issues the token the client sends back". Fixtures are NodeBB's
``src/routes/authentication.js`` and Umami's ``src/app/api/send/route.ts`` (dev apps of ``bench/data``).
"""

from __future__ import annotations

from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk

AUTH = intents("How does user authentication flow through the system?")

# NodeBB src/routes/authentication.js, lines 95-98
NODEBB = """\t\t\tif (strategy.checkState !== false) {
\t\t\t\treq.session.ssoState = generateToken(req, true);
\t\t\t\topts.state = req.session.ssoState;
\t\t\t}"""
# umami src/app/api/send/route.ts, lines 300-302
UMAMI = """    const token = createToken(
      { ...session, ...cache },
      secret(),"""


def _said(path: str, text: str, start: int) -> list[tuple[int, str]]:
    chunk = Chunk(path, "javascript", start, start + text.count("\n"), text, "", "function", "")
    return [(m.line, m.phrase) for m in matches_in(chunk, load_all(), AUTH)]


def test_a_csrf_or_state_token_is_not_the_token_the_client_sends_back() -> None:
    assert all("issues the token" not in said for _, said in _said("src/routes/authentication.js", NODEBB, 95))


def test_a_session_token_made_for_the_client_still_is() -> None:
    said = _said("src/app/api/send/route.ts", UMAMI, 300)
    assert (300, "issues the token the client sends back") in said, said
