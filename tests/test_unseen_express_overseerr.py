"""Missed on overseerr, an Express + Next.js TypeScript app (574 files) in no data set, asked what happens when an API
request fails: its one error middleware, written one argument a line as prettier writes a long signature
(``server.use(`` / ``(`` / ``err: { status: number; message: string; errors: string[] },`` / ``_req: Request,`` / two
comments / ``_next: NextFunction``), was never said to be one (the four-argument pattern reads one line, and an
inline object type is no ``[\\w.<>| ]+``); the answer opened on the app's other middleware and closed on
``MediaRequest.request raises new RequestPermissionError(…)``, which has nothing to do with a failing request."""

from __future__ import annotations

from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.chunk import chunk_file
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import SourceFile

# server/index.ts, lines 184-203 (the real code, inside `app.prepare().then(async () => {`)
SERVER = """import express, { NextFunction, Request, Response } from 'express';

app.prepare().then(async () => {
    const server = express();
    server.use('/api/v1', routes);

    // Do not set cookies so CDNs can cache them
    server.use('/imageproxy', clearCookies, imageproxy);

    server.get('*', (req, res) => handle(req, res));
    server.use(
      (
        err: { status: number; message: string; errors: string[] },
        _req: Request,
        res: Response,
        // We must provide a next function for the function signature here even though its not used
        // eslint-disable-next-line @typescript-eslint/no-unused-vars
        _next: NextFunction
      ) => {
        // format error
        res.status(err.status || 500).json({
          message: err.message,
          errors: err.errors,
        });
      }
    );
});
"""
FAILS = "What happens when an API request fails?"
ERROR_MIDDLEWARE = "is the error middleware (four arguments): every `next(error)` ends here"


def _said(text: str) -> list[tuple[int, str]]:
    express = [c for c in load_all() if c.name in ("Express", "any framework")]
    chunks = chunk_file(SourceFile("server/index.ts", "typescript", text, len(text)))
    return [(m.line, m.phrase) for chunk in chunks for m in matches_in(chunk, express, intents(FAILS))]


def test_an_error_middleware_written_one_argument_a_line_is_said():
    opening = SERVER.split("\n").index("    server.use(") + 1
    assert (opening, ERROR_MIDDLEWARE) in _said(SERVER)


def test_a_middleware_written_one_argument_a_line_is_no_error_middleware():
    session = SERVER.replace("        err: { status: number; message: string; errors: string[] },\n", "")
    assert not [phrase for _, phrase in _said(session) if phrase == ERROR_MIDDLEWARE]
    mounted = "const server = express();\nserver.use(\n  '/api',\n  session({ secret: 'x' })\n);\n"
    assert not [phrase for _, phrase in _said(mounted) if phrase == ERROR_MIDDLEWARE]


def test_an_error_middleware_that_passes_the_error_on_is_not_where_it_ends():
    passing = SERVER.replace("        // format error\n", "        if (res.headersSent) return next(err);\n")
    assert not [phrase for _, phrase in _said(passing) if phrase == ERROR_MIDDLEWARE]
