"""Misleading on an unseen app (probe 17's read of kimai, an app in no data set): "`ApiRequestMatcher.matches` reads
the bearer token from the request", when the matcher only tests that one is there, to choose the API firewall; the
authenticator reads it. A test answering yes or no reads no token; a line taking the token out still does.
"""

from __future__ import annotations

from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk

MATCHER = """    public function matches(Request $request): bool
    {
        // we do not want to handle URLs that are not in the API scope
        if (!str_starts_with($request->getRequestUri(), '/api/')) {
            return false;
        }

        // let's use this firewall if a Bearer token is set in the header
        // other cases like "bearer" are rejected earlier
        if (($auth = $request->headers->get('Authorization')) !== null && str_starts_with($auth, 'Bearer ')) {
            return true;
        }

        return !$request->hasPreviousSession();
    }"""
RETURNS_TEST = """export function hasBearer(header: string): boolean {
  return header.startsWith("Bearer ");
}"""
READS = """function tokenOf(req) {
  const header = req.headers.authorization || "";
  if (header.startsWith("Bearer ")) {
    const token = header.slice(7);
    return verify(token);
  }
}"""
STRIPS = """def token_of(request):
    return request.headers["Authorization"].replace("Bearer ", "")"""
QUESTION = "How does user authentication flow through the system?"


def _said(path: str, language: str, text: str) -> list[str]:
    chunk = Chunk(path, language, 1, text.count("\n") + 1, text, "f", "function", "api")
    return [m.phrase for m in matches_in(chunk, [c for c in load_all() if c.common], intents(QUESTION))]


def test_a_presence_test_reads_no_bearer_token() -> None:
    assert "reads the bearer token from the request" not in _said("src/API/ApiRequestMatcher.php", "php", MATCHER)
    assert "reads the bearer token from the request" not in _said("src/auth.ts", "typescript", RETURNS_TEST)


def test_taking_the_token_out_still_reads_it() -> None:
    assert "reads the bearer token from the request" in _said("src/auth.js", "javascript", READS)
    assert "reads the bearer token from the request" in _said("app/auth.py", "python", STRIPS)
