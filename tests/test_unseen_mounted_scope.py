"""Middleware added to a part of the app mounted under a path elsewhere sees that path's requests only (#35, scope3).

chi's own example (``_examples/rest/main.go``): ``r.Use(AdminOnly)`` in ``adminRouter()`` was said to put
``AdminOnly`` "in front of every route", though ``main`` mounts that router under ``/admin``
(``r.Mount("/admin", adminRouter())``). Hono (qwertyczee/bun-vite-hono): ``app.use("*", cors(…))`` in
``src/api/index.ts`` "adds `cors` to every request's middleware chain", though ``src/app.ts`` mounts that app under
``/api`` (``app.route("/api", api)``); a Hono app's ``src/index.ts`` (public code the search index holds without
its repository's name) said ``api.use('*', authMiddleware)`` "adds `authMiddleware` to every request's middleware
chain" where ``app.route('/api', api)`` mounts ``api`` below. The mount is in another function or file; where it is
found, the requests under its path are said, the mount cited, and the middleware is no hook that sees every request.
(bun-vite-hono's own ``app.use(`` spans lines and is not read as a construct at all: its files test the import.)
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.constructs.mounted import narrow_mounted
from codeqa.chunk import chunk_file
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Hit, SourceFile

LOGGING = "Where would I add logging to track user behavior?"

# go-chi/chi _examples/rest/main.go lines 55-97 and 219-232 (shortened: the article routes left out)
CHI = """package main

func main() {
	flag.Parse()

	r := chi.NewRouter()

	r.Use(middleware.RequestID)
	r.Use(middleware.Logger)

	r.Get("/ping", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("pong"))
	})

	// Mount the admin sub-router, which btw is the same as:
	// r.Route("/admin", func(r chi.Router) { admin routes here })
	r.Mount("/admin", adminRouter())
}

func adminRouter() chi.Router {
	r := chi.NewRouter()
	r.Use(AdminOnly)
	r.Get("/", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("admin: index"))
	})
	return r
}
"""
# qwertyczee/bun-vite-hono src/app.ts and src/api/index.ts lines 1-15
HONO_APP = """import { Hono } from "hono";
import api from "./api/index";

const app = new Hono();

app.route("/api", api);

export default app;
"""
HONO_API = """import { Hono } from "hono";
import { cors } from "hono/cors";
import users from "./routes/users";

const app = new Hono();

app.use("*", cors({ origin: (origin) => origin, credentials: true }));

app.route("/users", users);
"""  # (its `app.use(` call joined on one line)
# the Hono app's src/index.ts (public code), whole
HONO_SAME_FILE = """import { Hono } from 'hono'
import { logger } from 'hono/logger'
import { errorHandler } from './middlewares/error'
import { authMiddleware } from './middlewares/auth'
import { tenantGuard } from './middlewares/tenant-guard'
import type { AuthVariables } from './middlewares/auth'

const app = new Hono()

app.use('*', logger())
app.use('*', errorHandler())

app.get('/health', (c) => c.json({ status: 'ok' }))

const api = new Hono<{ Variables: AuthVariables }>()
api.use('*', authMiddleware)
api.use('*', tenantGuard)

// TODO: mount routes — auth
// TODO: mount routes — whatsapp
// TODO: mount routes — webhooks (public, mounted on app directly)
// TODO: mount routes — inbox
// TODO: mount routes — pipeline

app.route('/api', api)

export default app
"""


def _line(text: str, needle: str) -> int:
    return next(n for n, row in enumerate(text.split("\n"), start=1) if needle in row)


def _context(files: dict[str, tuple[str, str]]):
    chunks = [c for path, (language, text) in files.items() for c in chunk_file(SourceFile(path, language, text,
                                                                                           len(text)))]  # fmt: skip
    return chunks, AnswerContext.from_chunks(chunks, [Hit(chunk, 1.0, chunk.id) for chunk in chunks])


def _narrowed(files: dict[str, tuple[str, str]], framework: str):
    chunks, context = _context(files)
    conventions = [c for c in load_all() if c.name == framework]
    return [m for c in chunks for m in narrow_mounted(context, matches_in(c, conventions, intents(LOGGING)))]


def test_chi_use_in_a_router_mounted_under_a_path_is_said_of_that_path() -> None:
    found = {m.line: m for m in _narrowed({"_examples/rest/main.go": ("go", CHI)}, "Go net/http")}
    admin = found[_line(CHI, "r.Use(AdminOnly)")]
    assert not admin.every_request, admin
    mount = _line(CHI, 'r.Mount("/admin"')
    assert admin.phrase == f"puts `AdminOnly` in front of the routes under `/admin` (middleware), mounted at " \
        f"`_examples/rest/main.go:{mount}`", admin.phrase  # fmt: skip
    logger = found[_line(CHI, "r.Use(middleware.Logger)")]  # the root router's: every route still
    assert logger.every_request and "every request" in logger.phrase, logger


def test_hono_use_in_an_app_mounted_under_a_path_is_said_of_that_path() -> None:
    files = {"src/app.ts": ("typescript", HONO_APP), "src/api/index.ts": ("typescript", HONO_API)}
    found = [m for m in _narrowed(files, "Hono") if m.chunk.path == "src/api/index.ts" and "cors" in m.phrase]
    assert found and not any(m.every_request for m in found), found
    assert "the requests under `/api`" in found[0].phrase and "src/app.ts:" in found[0].phrase, found[0].phrase


def test_hono_use_of_a_sub_app_mounted_in_the_same_file_is_said_of_that_path() -> None:
    found = {m.line: m for m in _narrowed({"src/index.ts": ("typescript", HONO_SAME_FILE)}, "Hono")}
    auth = found[_line(HONO_SAME_FILE, "api.use('*', authMiddleware)")]
    assert not auth.every_request, auth
    mount = _line(HONO_SAME_FILE, "app.route('/api', api)")
    assert auth.phrase == "adds `authMiddleware` to the middleware chain of the requests under `/api` (run in " \
        f"`api.use` order), mounted at `src/index.ts:{mount}`", auth.phrase  # fmt: skip
    error = found[_line(HONO_SAME_FILE, "app.use('*', errorHandler())")]  # the root app's: every request
    assert error.every_request and "every request" in error.phrase, error
