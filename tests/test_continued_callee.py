"""Where the flow goes on (issue #35, facts in a file the answer never cites): a source calls a function in another
file that does the asked thing; the answer says the checked call and quotes the callee's lines with the question's
words, under the source, in the place of one key line.

The app has umami's shape: a Next.js route that reads the client's cache token and, when the token names no site,
calls ``fetchWebsite`` (``src/lib/load.ts``), where the site is read through redis; retrieval finds the route only.
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.calls.claims import ClaimChecker
from codeqa.answer.explanation.code.keylines import KeyLine, question_terms
from codeqa.answer.explanation.explain import explain
from codeqa.answer.explanation.said.extractive import render_markdown
from codeqa.answer.explanation.story.continued import Source, continuations
from codeqa.chunk import chunk_file
from codeqa.records import Chunk, Hit, SourceFile

QUESTION = "Where are site details cached so that each hit doesn't need a database lookup?"

APP = {
    "package.json": '{"name": "tracker", "dependencies": {"next": "15.0.0", "ioredis": "5.0.0"}}\n',
    "src/app/api/send/route.ts": """import { parseToken } from '@/lib/jwt';
import { fetchWebsite } from '@/lib/load';
import { badRequest, json } from '@/lib/response';

export async function POST(request: Request) {
  const body = await request.json();
  const websiteId = body.website;
  let cachedSite = null;

  const cacheHeader = request.headers.get('x-tracker-cache');
  if (cacheHeader) {
    cachedSite = await parseToken(cacheHeader);
  }

  if (!cachedSite?.websiteId) {
    const website = await fetchWebsite(websiteId);

    if (!website) {
      return badRequest({ message: 'Website not found.' });
    }
  }

  return json({ cache: cachedSite?.token });
}
""",
    "src/lib/load.ts": """import redis from '@/lib/redis';
import { getWebsite } from '@/queries/website';

export async function fetchWebsite(websiteId: string) {
  let website = null;

  if (redis.enabled) {
    website = await redis.client.fetch(`website:${websiteId}`, () => getWebsite(websiteId), 86400);
  } else {
    website = await getWebsite(websiteId);
  }

  return website;
}
""",
    "src/lib/jwt.ts": """export async function parseToken(token: string) {
  return JSON.parse(atob(token));
}
""",
    "src/lib/response.ts": """export function badRequest(data: object) {
  return Response.json(data, { status: 400 });
}

export function json(data: object) {
  return Response.json(data);
}
""",
    "src/queries/website.ts": """export async function getWebsite(websiteId: string) {
  return db.website.findUnique({ where: { id: websiteId } });
}
""",
}

# a second ``fetchWebsite`` (a client-side hook's): the call, found by name, may be either one
NAMESAKE = {
    **APP,
    "src/components/hooks/useWebsite.ts": """export async function fetchWebsite(websiteId: string) {
  return fetch(`/api/websites/${websiteId}`).then(res => res.json());
}
""",
}


def _chunks(app: dict[str, str]) -> list[Chunk]:
    chunks: list[Chunk] = []
    for path, text in app.items():
        language = "typescript" if path.endswith(".ts") else "json"
        chunks += chunk_file(SourceFile(path, language, text, len(text)))
    return chunks


def _context(app: dict[str, str]) -> tuple[AnswerContext, Chunk]:
    chunks = _chunks(app)
    route = next(c for c in chunks if c.path == "src/app/api/send/route.ts" and "POST" in c.symbol)
    return AnswerContext.from_chunks(chunks, [Hit(route, 1.0, route.id)], [route.path]), route


def _key_lines(route: Chunk, *numbers: int) -> list[KeyLine]:
    lines = route.text.split("\n")
    return [KeyLine(n, lines[n - route.start_line]) for n in numbers]


def test_the_call_under_a_key_line_goes_on_in_the_callee_that_caches() -> None:
    context, route = _context(APP)
    checker = ClaimChecker(context)
    found = continuations(context, checker, question_terms(QUESTION), [Source(1, route, _key_lines(route, 10, 15))],
                          set(), {route.id})  # fmt: skip
    said = found[1]
    assert (said.caller, said.name, said.use.line) == ("POST", "fetchWebsite", 16)
    assert said.callee.location == "src/lib/load.ts:4-13"  # the function's own lines, not the whole file
    assert any("redis.client.fetch(`website:${websiteId}`" in line.text for line in said.lines)
    assert checker.tally.counts()["claims_verified"] == 1  # the call said is counted as a claim, checked


def test_a_call_far_from_the_shown_lines_is_not_followed() -> None:
    context, route = _context(APP)
    found = continuations(context, ClaimChecker(context), question_terms(QUESTION),
                          [Source(1, route, _key_lines(route, 6, 7))], set(), {route.id})  # fmt: skip
    assert found == {}


def test_a_namesake_elsewhere_leaves_the_call_unsaid() -> None:
    context, route = _context(NAMESAKE)
    found = continuations(context, ClaimChecker(context), question_terms(QUESTION),
                          [Source(1, route, _key_lines(route, 10, 15))], set(), {route.id})  # fmt: skip
    assert found == {}


def test_the_answer_says_the_call_and_quotes_the_callee() -> None:
    context, _ = _context(APP)
    text = render_markdown(explain(QUESTION, context))
    assert (
        "`POST` calls `fetchWebsite` (`src/lib/load.ts:4-13`) at `src/app/api/send/route.ts:16`. In `fetchWebsite`:"
        in text
    ), text
    assert "website = await redis.client.fetch(`website:${websiteId}`, () => getWebsite(websiteId), 86400);" in text


PROVIDER = """    public function boot(): void
    {
        $this->registerPolicies();

        Gate::define('vault-viewer', function (User $user, $vault): bool {
            return $user->vaults()
                ->wherePivotIn('vault_id', [static::id($vault)])
                ->exists();
        });
    }"""


def test_a_call_in_a_closure_the_caller_hands_on_is_the_closures() -> None:
    from codeqa.answer.explanation.story.continued import in_callback

    boot = Chunk(
        "app/Providers/AuthServiceProvider.php", "php", 30, 39, PROVIDER, "AuthServiceProvider.boot", "method", "config"
    )
    assert in_callback(boot, 35)  # `$user->vaults()` runs when the gate is asked, not when `boot` runs
    assert not in_callback(boot, 32)  # `$this->registerPolicies()` is boot's own call
