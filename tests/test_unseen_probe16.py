"""Read on three new real-size apps (probe16): remark42 (Go + Preact), ghostfolio (NestJS + Angular), richie (Django).

remark42, asked "Where would I add logging to track user behavior?", concluded "Where to add it: in validEmailAuth
(`backend/app/rest/api/middleware.go:303-347`), at `backend/app/rest/api/middleware.go:310`". That middleware is put
only on the `/auth/` routes, and it hands every request straight on unless the path is the e-mail login
(``if r.URL.Path != "/auth/email/login" { h.ServeHTTP(w, r); return }``): a logger put in it sees almost nothing.
The hand-on test was missed because the wrapped handler is named ``h`` (not ``next``) and Go's ``return`` stands on
its own line after ``h.ServeHTTP(w, r)``.

ghostfolio, asked "What happens when an API request fails?", opened on its exception filter, then said
"`GhostfolioService.getHistorical` calls `fetch`, which calls `applyProxyRoute`. Then
`PortfolioSnapshotComputationExceptionFilter` answers with `response.status(StatusCodes.SERVICE_UNAVAILABLE)…`":
read in that order, the data provider's failing fetch ends in a 503, which no code does (the filter answers only a
`PortfolioSnapshotComputationError`, thrown by the portfolio calculator).

remark42, asked "How is a new comment saved and checked?", said "Then BoltDB.Create stores if err = b.save(postBkt,
comment.ID, comment); err != nil {…}": a Go `if` head pasted into the sentence, where the line stores
`err = b.save(postBkt, comment.ID, comment)`.

richie opened its answers "In the Django backend (`cookiecutter/{{cookiecutter.organization}}-richie-site-factory/
template/{{cookiecutter.site}}/src/backend/`)": the backend of the sites its cookiecutter template makes, not
richie's own (`src/richie/`, declared by the root `pyproject.toml`). A manifest under a template's placeholder folder
made a part of the repository of its own.
"""

from __future__ import annotations

from codeqa.answer.explanation.code.branches import if_init
from codeqa.answer.explanation.code.passthrough import passes_on_when
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.said.lead import Sentence
from codeqa.answer.explanation.said.phrasing import then_after
from codeqa.chunk import chunk_file
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.evidence import gather
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk, SourceFile

LOGGING = "Where would I add logging to track user behavior?"

# umputun/remark42 backend/app/rest/api/middleware.go, lines 262-280 and 303-347 (shortened)
REMARK42 = """package api

func securityHeadersMiddleware(imageProxyEnabled bool, allowedAncestors []string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			frameAncestors := "*"
			if imageProxyEnabled {
				frameAncestors = strings.Join(allowedAncestors, " ")
			}
			w.Header().Set("Content-Security-Policy", "frame-ancestors "+frameAncestors+";")
			next.ServeHTTP(w, r)
		})
	}
}

// validEmailAuth is a middleware for auth endpoints for email method.
// it rejects login request if user, site or email are suspicious
func validEmailAuth() func(http.Handler) http.Handler {

	reUser := regexp.MustCompile(`^[\\p{L}\\d\\s_]{4,64}$`) // matches ui side validation, adding min/max limitation

	return func(h http.Handler) http.Handler {
		fn := func(w http.ResponseWriter, r *http.Request) {

			if r.URL.Path != "/auth/email/login" {
				// not email login, skip the check
				h.ServeHTTP(w, r)
				return
			}

			if u := r.URL.Query().Get("user"); u != "" {
				if !reUser.MatchString(u) {
					log.Printf("[WARN] suspicious user rejected: %s", u)
					http.Error(w, "Access denied", http.StatusForbidden)
					return
				}
			}
			h.ServeHTTP(w, r)
		}
		return http.HandlerFunc(fn)
	}
}
"""
# a Go middleware whose first test does work of its own before handing on: it sees every request
WORKS_FIRST = """package api

func audit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			log.Printf("[INFO] post %s", r.URL.Path)
			next.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}
"""


def _chunks(path: str, text: str) -> list[Chunk]:
    return chunk_file(SourceFile(path, "go", text, len(text)))


def _line(text: str, needle: str) -> int:
    return next(n for n, row in enumerate(text.split("\n"), start=1) if needle in row)


def _at(path: str, text: str, needle: str) -> tuple[Chunk, int]:
    line = _line(text, needle)
    return next(c for c in _chunks(path, text) if c.start_line <= line <= c.end_line), line


def test_a_go_middleware_that_hands_requests_on_through_h_serve_http_is_no_place_that_sees_every_request() -> None:
    path = "backend/app/rest/api/middleware.go"
    assert passes_on_when(*_at(path, REMARK42, "return func(h http.Handler)")) == 'r.URL.Path != "/auth/email/login"'
    conventions = [c for c in load_all() if c.name == "Go net/http"]
    found = {m.line: m for c in _chunks(path, REMARK42) for m in matches_in(c, conventions, intents(LOGGING))}
    guarded, plain = found[_line(REMARK42, "return func(h http.Handler)")], found[_line(REMARK42, "func(next http")]
    assert not guarded.every_request, guarded
    assert guarded.phrase.endswith('hands the request straight on when `r.URL.Path != "/auth/email/login"`'), guarded
    # where a definition is applied is elsewhere: no definition is said to see every request (scope3, miniflux)
    assert not plain.every_request and "hands" not in plain.phrase, plain
    assert guarded.weight < plain.weight  # the one that sees the requests it is applied to ranks first


def test_a_go_first_test_that_does_work_before_handing_on_narrows_nothing() -> None:
    assert passes_on_when(*_at("api/audit.go", WORKS_FIRST, "return http.HandlerFunc")) is None


FLOW = Sentence(
    "`GhostfolioService.getHistorical` (`apps/api/src/services/data-provider/ghostfolio/ghostfolio.service.ts:168-226`)"
    " calls `fetch` (`apps/api/src/services/fetch/fetch.service.ts:43-85`), which calls `applyProxyRoute`"
    " (`apps/api/src/services/fetch/fetch.service.ts:185-228`).",
    "GhostfolioService.getHistorical calls fetch, which calls applyProxyRoute.",
)
FILTER_ANSWERS = Sentence(
    "Then `PortfolioSnapshotComputationExceptionFilter` answers with"
    " `response.status(StatusCodes.SERVICE_UNAVAILABLE).json({…})`"
    " (`apps/api/src/filters/portfolio-snapshot-computation-exception.filter.ts:21`).",
    "Then PortfolioSnapshotComputationExceptionFilter answers with response.status(…).",
)
FETCH_FAILS = Sentence(
    "Then `FetchService.fetch` raises `error` (`apps/api/src/services/fetch/fetch.service.ts:83`).",
    "Then FetchService.fetch raises error.",
)


def test_an_outcome_of_code_the_flow_does_not_name_is_not_said_as_where_the_flow_ends() -> None:
    assert then_after(FLOW, FILTER_ANSWERS) == (FILTER_ANSWERS, FLOW)
    assert then_after(FLOW, FETCH_FAILS) == (FLOW, FETCH_FAILS)  # the flow's own call: it ends there
    assert then_after(None, FILTER_ANSWERS) == (None, FILTER_ANSWERS)


# umputun/remark42 backend/app/store/engine/bolt.go, lines 85-110 (shortened)
BOLT = """package engine

// Create saves new comment to store. Adds to posts bucket, reference to last and user bucket
func (b *BoltDB) Create(comment store.Comment) (commentID string, err error) {
	bdb, err := b.db(comment.Locator.SiteID)
	if err != nil {
		return "", err
	}
	err = bdb.Update(func(tx *bolt.Tx) (err error) {
		var postBkt, lastBkt, userBkt *bolt.Bucket
		if postBkt, err = b.makePostBucket(tx, comment.Locator.URL); err != nil {
			return err
		}
		if err = b.save(postBkt, comment.ID, comment); err != nil {
			return fmt.Errorf("failed to put key %s to bucket %s: %w", comment.ID, comment.Locator.URL, err)
		}
		return nil
	})
	return comment.ID, err
}
"""


def test_a_go_if_head_with_a_statement_is_said_as_that_statement() -> None:
    chunk, line = _at("backend/app/store/engine/bolt.go", BOLT, "b.save(postBkt")
    text = BOLT.split("\n")[line - 1]
    assert if_init(chunk, text) == "err = b.save(postBkt, comment.ID, comment)"
    plain, at = _at("backend/app/store/engine/bolt.go", BOLT, "if err != nil {")
    assert if_init(plain, BOLT.split("\n")[at - 1]) == "\tif err != nil {"  # no statement: the line itself
    script = chunk_file(SourceFile("a.js", "javascript", "if (a) { b(); }\n", 16))[0]
    assert if_init(script, "for (i = 0; i < n; i++) {") == "for (i = 0; i < n; i++) {"


TEMPLATE = "cookiecutter/{{cookiecutter.organization}}-richie-site-factory/template/{{cookiecutter.site}}/src/backend"
# openfun/richie pyproject.toml lines 28-34 and the template's pyproject.toml lines 1-25 (shortened)
RICHIE_MANIFESTS = {
    "pyproject.toml": '[project]\nname = "richie"\ndependencies = [\n    "arrow<2",\n    "Django<5",\n'
    '    "djangocms-file<4",\n    "djangorestframework<4",\n]\n',
    f"{TEMPLATE}/pyproject.toml": '[project]\nname = {{cookiecutter.site}}\n\n[tool.isort]\nprofile = "black"\n'
    'known_django = "django"\nsections = ["FUTURE","STDLIB","DJANGO","THIRDPARTY","RICHIE","FIRSTPARTY"]\n',
}
SETTINGS = f"{TEMPLATE}/{{{{cookiecutter.site}}}}/settings.py"
SETTINGS_HEAD = (
    "from django.utils.translation import gettext_lazy as _\n\nfrom configurations import Configuration, values\n"
)


def test_a_manifest_under_a_template_placeholder_folder_makes_no_part_of_the_repository() -> None:
    paths = [*RICHIE_MANIFESTS, SETTINGS, "src/richie/apps/core/cache.py"]
    found = gather(
        paths,
        lambda wanted: {path: RICHIE_MANIFESTS.get(path, "") for path in wanted},
        lambda wanted: {key: [(SETTINGS, "python", SETTINGS_HEAD)] if "python" in key[1] else [] for key in wanted},
    )
    django = found.framework_of(SETTINGS, "python")
    assert django is not None and django.framework == "Django", django
    assert "{{" not in django.part and django.part == "", django  # richie's own root part, not the template's
    assert not any("{{" in item.part for item in found.found), found.found
