"""A Go middleware's definition does not say which requests it sees (#35, scope3).

miniflux (dev app), asked "Where would I add logging to track user behavior?", concluded "In this Go net/http app,
middleware.withCORSHeaders (internal/api/middleware.go:23-35) is middleware: it wraps every handler behind it … Where
to add it: in middleware.withCORSHeaders". That middleware wraps only the API handler mounted at `/v1/`
(``return middleware.withCORSHeaders(middleware.validateAPIKeyAuth(middleware.validateBasicAuth(mux)))`` in
``internal/api/api.go``); the one that wraps the whole app is ``internal/http/server/middleware.go``'s ``middleware``,
applied in ``routes.go`` (``appHandler = middleware(appHandler)``). A ``func(next http.Handler) http.Handler``
definition was marked every-request though where it is applied is elsewhere: it is said as wrapping the handler it
is applied to, with no "every", and is no hook to recommend as seeing every request. The line that wraps the handler
the same function serves at `/` (or gives the server) is where the app-wide one is applied: that line is the hook.
Where the one function applying a definition is found, and the line mounting that function's handler, both are said.
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.constructs.mounted import narrow_mounted
from codeqa.answer.explanation.explain import explain
from codeqa.answer.explanation.said.conclusion import placement
from codeqa.chunk import chunk_file
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Hit, SourceFile

LOGGING = "Where would I add logging to track user behavior?"

# miniflux internal/api/middleware.go lines 1-35 (license header left out)
MINIFLUX_API = """package api // import "miniflux.app/v2/internal/api"

import (
	"context"
	"log/slog"
	"net/http"

	"miniflux.app/v2/internal/http/request"
	"miniflux.app/v2/internal/http/response"
	"miniflux.app/v2/internal/storage"
)

type middleware struct {
	store *storage.Storage
}

func newMiddleware(s *storage.Storage) *middleware {
	return &middleware{s}
}
func (m *middleware) withCORSHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Header().Set("Access-Control-Allow-Methods", "GET, POST, PUT, DELETE, OPTIONS")
		w.Header().Set("Access-Control-Allow-Headers", "X-Auth-Token, Authorization, Content-Type, Accept")
		if r.Method == http.MethodOptions {
			w.Header().Set("Access-Control-Max-Age", "3600")
			response.NoContent(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}
"""


def _chunks():
    return chunk_file(SourceFile("internal/api/middleware.go", "go", MINIFLUX_API, len(MINIFLUX_API)))


def test_a_go_middleware_definition_is_not_said_to_see_every_request() -> None:
    go = [c for c in load_all() if c.name == "Go net/http"]
    found = [m for c in _chunks() for m in matches_in(c, go, intents(LOGGING))]
    line = next(n for n, text in enumerate(MINIFLUX_API.split("\n"), start=1) if "withCORSHeaders(next" in text)
    match = next(m for m in found if m.line == line)
    assert not match.every_request, match
    assert "every" not in match.phrase and "applied to" in match.phrase, match.phrase


def test_a_go_middleware_definition_is_not_where_to_add_logging() -> None:
    chunks = _chunks()
    hits = [Hit(chunk, 1.0, chunk.id) for chunk in chunks]
    said = placement(explain(LOGGING, AnswerContext.from_chunks(chunks, hits)))
    assert said is None or "withCORSHeaders" not in said[1], said


# miniflux internal/http/server/routes.go lines 18-75 (shortened: the API and UI routes in between left out)
MINIFLUX_ROUTES = """package server

func newRouter(store *storage.Storage, pool *worker.Pool) http.Handler {
	readinessProbe := newReadinessProbe(store)

	// Application routes served under the base path.
	appMux := http.NewServeMux()

	appMux.HandleFunc("GET /healthcheck", readinessProbe)

	// Fever API routing.
	feverHandler := fever.Middleware(store)(fever.NewHandler(store))
	appMux.Handle("/fever/", feverHandler)

	// UI routing (catch-all).
	appMux.Handle("/", ui.Serve(store, pool))

	// Apply shared middleware.
	var appHandler http.Handler = appMux
	if config.Opts.HasMaintenanceMode() {
		appHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(config.Opts.MaintenanceMessage()))
		})
	}
	appHandler = middleware(appHandler)

	// Root router: health probes at root, app routes under base path.
	rootMux := http.NewServeMux()

	rootMux.HandleFunc("/liveness", livenessProbe)
	rootMux.HandleFunc("/healthz", livenessProbe)

	basePath := config.Opts.BasePath()
	if basePath != "" {
		rootMux.Handle(basePath+"/", http.StripPrefix(basePath, appHandler))
	} else {
		rootMux.Handle("/", appHandler)
	}

	return rootMux
}
"""
# the same wrapping, of a handler the function returns (where it is mounted is elsewhere): its scope is unknown
RETURNED = MINIFLUX_ROUTES.replace("return rootMux", "return appHandler").replace('rootMux.Handle("/", appHandler)', "")
RETURNED = RETURNED.replace('rootMux.Handle(basePath+"/", http.StripPrefix(basePath, appHandler))', "")


def _routes(text: str):
    return chunk_file(SourceFile("internal/http/server/routes.go", "go", text, len(text)))


def test_a_handler_wrapped_where_it_is_served_at_the_root_is_where_to_add_logging() -> None:
    chunks = [*_routes(MINIFLUX_ROUTES), *_chunks()]
    hits = [Hit(chunk, 1.0, chunk.id) for chunk in chunks]
    said = placement(explain(LOGGING, AnswerContext.from_chunks(chunks, hits)))
    line = next(n for n, text in enumerate(MINIFLUX_ROUTES.split("\n"), start=1) if "= middleware(" in text)
    assert said is not None and f"internal/http/server/routes.go:{line}" in said[1], said
    assert "appHandler is the handler served at /" in said[1] and "every" not in said[1], said


def test_a_wrapped_handler_not_served_in_sight_is_no_hook() -> None:
    go = [c for c in load_all() if c.name == "Go net/http"]
    found = [m for c in _routes(RETURNED) for m in matches_in(c, go, intents(LOGGING))]
    assert not any("= middleware(" in m.text for m in found), found


# miniflux internal/api/api.go lines 18-24 and 76-78 (the routes in between left out)
MINIFLUX_HANDLER = """package api

// NewHandler returns an http.Handler that handles API v1 calls.
// The returned handler expects the base path to be stripped from the request URL.
func NewHandler(store *storage.Storage, pool *worker.Pool) http.Handler {
	handler := &handler{store: store, pool: pool}
	middleware := newMiddleware(store)

	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/me", handler.currentUserHandler)

	return middleware.withCORSHeaders(middleware.validateAPIKeyAuth(middleware.validateBasicAuth(mux)))
}
"""
# miniflux internal/http/server/routes.go lines 35-38
MINIFLUX_MOUNT = """package server

func newRouter(store *storage.Storage, pool *worker.Pool) http.Handler {
	// REST API routing.
	if config.Opts.HasAPI() {
		appMux.Handle("/v1/", api.NewHandler(store, pool))
	}
}
"""


def test_a_go_middleware_definition_is_said_with_the_function_applying_it_and_its_mount() -> None:
    files = {"internal/api/middleware.go": MINIFLUX_API, "internal/api/api.go": MINIFLUX_HANDLER,
             "internal/http/server/routes.go": MINIFLUX_MOUNT}  # fmt: skip
    chunks = [c for path, text in files.items() for c in chunk_file(SourceFile(path, "go", text, len(text)))]
    context = AnswerContext.from_chunks(chunks, [Hit(chunk, 1.0, chunk.id) for chunk in chunks])
    go = [c for c in load_all() if c.name == "Go net/http"]
    cors = [
        m
        for c in chunks
        if c.path.endswith("middleware.go")
        for m in narrow_mounted(context, matches_in(c, go, intents(LOGGING)))
        if "withCORSHeaders(next" in m.text
    ]
    applied = _line(MINIFLUX_HANDLER, "return middleware.withCORSHeaders")
    mounted = _line(MINIFLUX_MOUNT, 'appMux.Handle("/v1/"')
    assert cors and cors[0].phrase.endswith(
        f"; `NewHandler` applies it (`internal/api/api.go:{applied}`) to the handler of the requests under `/v1/` "
        f"(`internal/http/server/routes.go:{mounted}`)"), cors  # fmt: skip
    assert not cors[0].every_request


def _line(text: str, needle: str) -> int:
    return next(n for n, row in enumerate(text.split("\n"), start=1) if needle in row)
