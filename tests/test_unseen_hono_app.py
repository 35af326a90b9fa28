"""documenso (a Remix + Hono app in no data set), asked "What happens when an API request fails?", opened on
``app-error.ts``'s table of error codes: "answers with status 400, 403, 500 and 408" — entries like
``[AppErrorCode.NOT_FOUND]: { code: 'NOT_FOUND', status: 404 },`` map a code to a status, they answer nothing.
Its error handlers (``auth.onError((err, c) => …)``) and middleware (``app.use('*', appMiddleware)``) were not
constructs of any framework codeqa knew: Hono is one data file now. A documentation comment holding a code span
printed as ``\\@documenso/ee\\`` in the terminal."""

from __future__ import annotations

from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.cli.answer_text import plain_line
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.detection import detect
from codeqa.frameworks.evidence import Evidence, Found, gather
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk

ERROR_TABLE = """export const genericErrorCodeToTrpcErrorCodeMap: Record<string, { code: string; status: number }> = {
  [AppErrorCode.ALREADY_EXISTS]: { code: 'BAD_REQUEST', status: 400 },
  [AppErrorCode.NOT_FOUND]: { code: 'NOT_FOUND', status: 404 },
  UNAUTHORIZED: { code: 'UNAUTHORIZED', status: 401 },
};"""
ANSWERS = """    } catch (err) {
      if (err instanceof AppError) {
        return {
          status: 429,
          body: { message: err.message },
        } as const;
      }
      return { status: 401 };
    }"""
SUBAPP = """export const csc = new Hono<HonoCscEnv>()
  .route('/oauth/authorize', cscOAuthAuthorizeRoute)
  .route('/oauth/callback', cscOAuthCallbackRoute);

csc.onError((err, c) => {
  if (err instanceof HTTPException) {
    return c.json({ code: AppErrorCode.UNKNOWN_ERROR, message: err.message }, 500);
  }
  return c.json({ code: err.code }, 401);
});"""
ROUTER = """app.use(contextStorage());
app.use('*', appMiddleware);
app.use(async (c, next) => {
  c.set('logger', logger.child({ requestPath: c.req.path }));
  await next();
});
app.use('/api/v1/*', apiV1RateLimitMiddleware);
app.get('/health', (c) => c.text('ok'));"""
CLIENT = """export const listUsers = async () => {
  const response = await api.get('/users');
  return response.data;
};"""
PACKAGE = '{"name": "@documenso/auth", "dependencies": {"hono": "4.7.0", "luxon": "^3.5.0"}}'


def _hono():
    return next(c for c in load_all() if c.name == "Hono")


def _common():
    return next(c for c in load_all() if c.common)


def _said(chunk: Chunk, question: str, *conventions) -> dict[int, str]:
    return {m.line: m.phrase for m in matches_in(chunk, list(conventions), intents(question))}


def _ts(path: str, text: str, start: int = 1, symbol: str = "") -> Chunk:
    return Chunk(path, "typescript", start, start + text.count("\n"), text, symbol, "module", "api")


def test_a_table_of_statuses_answers_nothing() -> None:
    errors = "What happens when an API request fails?"
    assert _said(_ts("packages/lib/errors/app-error.ts", ERROR_TABLE, 90), errors, _common()) == {}
    answers = _said(_ts("packages/api/v1/middleware/authenticated.ts", ANSWERS, 97), errors, _common())
    assert answers == {100: "answers with status 429", 104: "answers with status 401"}


def test_hono_is_known_by_its_manifest_and_its_words() -> None:
    found = gather(["packages/auth/package.json", "packages/auth/server/index.ts"], lambda paths: {
        "packages/auth/package.json": PACKAGE}, lambda wanted: {})  # fmt: skip
    assert ("Hono", "packages/auth") in {(item.framework, item.part) for item in found.found}
    words = {"hono", "HTTPException"}
    names = [c.name for c in detect(["src/index.ts"], lambda word, languages: word in words, ["typescript"] * 9)]
    assert "Hono" in names
    one_word = detect(["src/index.ts"], lambda word, _: word == "HTTPException", ["typescript"])
    assert "Hono" not in [c.name for c in one_word]


def test_hono_error_handlers_and_middleware_are_said_as_such() -> None:
    errors, logging = "What happens when an API request fails?", "Where would I add logging to track user behavior?"
    subapp = _said(_ts("packages/ee/server-only/signing/csc/hono/index.ts", SUBAPP, 18), errors, _hono())
    assert subapp[22] == "is the error handler of `csc` (`onError`): an error a route of it throws ends here"
    assert subapp[24] == "answers with status 500" and subapp[26] == "answers with status 401"
    router = _said(_ts("apps/remix/server/router.ts", ROUTER, 65), logging, _hono())
    assert router[65] == "adds `contextStorage` to every request's middleware chain (run in `app.use` order)"
    assert router[66] == "adds `appMiddleware` to every request's middleware chain (run in `app.use` order)"
    assert router[67] == "adds the middleware written here to every request's chain (run in `app.use` order)"
    assert router[71] == "adds `apiV1RateLimitMiddleware` to the middleware of the routes under `/api/v1/*`"
    every = [m for m in matches_in(_ts("apps/remix/server/router.ts", ROUTER, 65), [_hono()], intents(logging))]
    assert [m.line for m in every if m.construct.every_request] == [65, 66, 67]
    routes = _said(_ts("apps/remix/server/router.ts", ROUTER, 65), "What is the entry point of the app?", _hono())
    assert routes.get(72) == "routes get `/health`"
    assert _said(_ts("apps/remix/app/api/users.ts", CLIENT), "What is the entry point of the app?", _hono()) == {}


def test_an_escaped_backtick_in_documentation_is_no_code_span() -> None:
    said = plain_line("Its documentation says: “\\`@documenso/ee\\` CSC subapp.” It calls `toRestAPIError`.")
    assert said == "Its documentation says: “`@documenso/ee` CSC subapp.” It calls toRestAPIError."


JOB_HEAD = """import DocumentCancelTemplate from '@documenso/email/templates/document-cancel';
import { prisma } from '@documenso/prisma';
import { EnvelopeType, ReadStatus } from '@prisma/client';
import { createElement } from 'react';
"""
HOOK_HEAD = """import { useEffect, useState } from 'react';

export const useCopyToClipboard = () => {"""


def test_server_code_rendering_an_email_with_react_is_no_react_client() -> None:
    parts = Evidence((Found("React", "packages/lib", "packages/lib/package.json", "manifest"),
                      Found("Hono", "packages/auth", "packages/auth/package.json", "manifest")))  # fmt: skip
    handler = "packages/lib/jobs/definitions/emails/send-document-cancelled-emails.handler.ts"
    assert parts.opening(handler, "typescript", JOB_HEAD) == ""
    assert parts.opening("packages/lib/utils/cancel-email.ts", "typescript", JOB_HEAD) == ""  # imports prisma
    hook = "packages/lib/client-only/hooks/use-copy-to-clipboard.ts"
    assert parts.opening(hook, "typescript", HOOK_HEAD) == "In the React client (`packages/lib/`), "


ROUTER_HEAD = """export interface HonoEnv {
  Variables: RequestIdVariables & {
    context: AppContext;
  };
}

const basePath = (env('NEXT_PUBLIC_BASE_PATH') ?? '').replace(/\\/$/, '');

const app = new Hono<HonoEnv>().basePath(basePath || '/');"""


def test_a_modules_statement_below_an_interface_is_not_the_interfaces_call() -> None:
    # documenso: "[3] `HonoEnv` (`router.ts:33-81`) defines an interface; it calls `env`"
    from codeqa.answer.explanation.calls.callplace import module_level
    from codeqa.answer.explanation.calls.flow import Use

    chunk = _ts("apps/remix/server/router.ts", ROUTER_HEAD, 41, "HonoEnv")
    assert module_level(Use("env", 47, "calls", "const basePath = (env('NEXT_PUBLIC_BASE_PATH') ?? '')"), chunk)
    assert not module_level(Use("RequestIdVariables", 42, "uses", "Variables: RequestIdVariables & {"), chunk)
    arrow = "const formatResults = (steps: Array<FunnelStep>) => (results: unknown) => {\n  return steps.map(f);\n};"
    funnel = _ts("src/queries/sql/reports/getFunnel.ts", arrow, 350, "formatResults")  # dev umami-09
    assert not module_level(Use("FunnelStep", 350, "uses", arrow.split("\n")[0]), funnel)
