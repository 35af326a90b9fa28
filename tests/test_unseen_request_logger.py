"""Read on CodiMD (Express, in no data set): asked "Where would I add logging to track user behavior?", the answer said
"Where to add it: in `app.js` …, at `app.js:112`", the line `app.use(csp.addNonceToLocals)` (a nonce for the content
security policy), while five lines of the same file above it the app already logs every request:
`app.use(morgan('combined', { stream: logger.stream }))`. The morgan construct knew only `morgan()` with no
arguments, and among the every-request constructs the request logger had no precedence for a logging question (a Go
server's own ``func(next http.Handler) http.Handler`` outweighed chi's ``r.Use(middleware.Logger)``, which the logger
construct did not know without a call).
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.explain import explain
from codeqa.answer.explanation.said.conclusion import placement
from codeqa.chunk import chunk_file
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Hit, SourceFile

LOGGING = "Where would I add logging to track user behavior?"
# app.js, lines 56-112 (shortened)
APP = """const express = require('express')
const morgan = require('morgan')
const helmet = require('helmet')

// server setup
var app = express()

// API and process monitoring with Prometheus for Node.js micro-service
app.use(apiMetrics({
  metricsPath: '/metrics/router',
  excludeRoutes: ['/metrics/codimd']
}))

// logger
app.use(morgan('combined', {
  stream: logger.stream
}))

// methodOverride
app.use(methodOverride('_method'))

// Generate a random nonce per request, for CSP with inline scripts
app.use(csp.addNonceToLocals)
"""


def _line(needle: str) -> int:
    return next(n for n, text in enumerate(APP.split("\n"), start=1) if needle in text)


def test_morgan_with_a_format_and_options_is_the_request_logger() -> None:
    express = [c for c in load_all() if c.name == "Express"]
    chunks = chunk_file(SourceFile("app.js", "javascript", APP, len(APP)))
    found = [(m.line, m.phrase) for c in chunks for m in matches_in(c, express, intents(LOGGING))]
    assert (_line("morgan('combined'"), "logs every request (morgan)") in found, found
    assert not any(line == _line("require('morgan')") for line, _ in found), found  # importing it logs nothing


def test_the_request_logger_the_app_has_is_where_to_add_logging() -> None:
    chunks = chunk_file(SourceFile("app.js", "javascript", APP, len(APP)))
    hits = [Hit(chunk, 1.0, chunk.id) for chunk in chunks]
    said = placement(explain(LOGGING, AnswerContext.from_chunks(chunks, hits)))
    assert said is not None and f"app.js:{_line('morgan(')}" in said[1], said
    assert f"app.js:{_line('csp.addNonceToLocals')}" not in said[1], said


# a Go server with its own middleware (weighed more: it wraps every handler) and chi's request logger
GO = """package server

import (
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
)

func withTenant(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(tenantContext(r)))
	})
}

func Router() http.Handler {
	r := chi.NewRouter()
	r.Use(middleware.RequestID)
	r.Use(middleware.Logger)
	r.Use(withTenant)
	return r
}
"""


def test_for_logging_the_request_logger_goes_before_a_stronger_middleware() -> None:
    chunks = chunk_file(SourceFile("server/router.go", "go", GO, len(GO)))
    hits = [Hit(chunk, 1.0, chunk.id) for chunk in chunks]
    said = placement(explain(LOGGING, AnswerContext.from_chunks(chunks, hits)))
    line = next(n for n, text in enumerate(GO.split("\n"), start=1) if "middleware.Logger" in text)
    assert said is not None and f"server/router.go:{line}" in said[1], said
