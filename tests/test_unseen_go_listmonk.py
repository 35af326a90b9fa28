"""False and misleading on listmonk (a Go + Echo app in no data set).

Asked how authentication flows: "``App.CreateUser`` (``cmd/users.go:52-104``) … calls ``strHasLen``
(``cmd/utils.go:91-94``) and ``strHasLen`` (``internal/core/core.go:206-209``)": a bare Go call reaches only the
caller's own package (cmd/'s ``package main``), never the ``core`` package's function of the same name.

Asked how campaign emails are sent: "``Campaigns`` (``models/campaigns.go:1-35``) defines a class" for
``type Campaigns []Campaign``: Go has types (structs, interfaces, slices), no classes. And the handlers of its
``cmd/`` folder (``func (a *App) CreateCampaign(c echo.Context) error``) were only "a method": a route's handler
handles the request wherever its folder is.

Every answer opened "In the Go net/http backend, …" for an app whose go.mod declares Echo (and whose handlers take
``echo.Context``): the family's name, not the framework a newcomer reads about in the code.

Asked what happens when a request fails: "**Where errors go:** to ``func`` (registered at ``cmd/handlers.go:35``)"
for ``e.HTTPErrorHandler = func(err error, c echo.Context) {``: the keyword of an anonymous function is no handler's
name. And "``initCron`` … sets up logging (where log records go)" for
``cron.New(cron.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))``: a logger that discards everything,
handed to a library to keep it quiet.
"""

from __future__ import annotations

from codeqa.answer.explanation.calls.byname import holds_by_name
from codeqa.answer.explanation.calls.flow import Use
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.said.extractive import VERBS
from codeqa.answer.explanation.said.roles_said import role_phrase
from codeqa.chunk import chunk_file
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.evidence import Evidence, Found
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk, SourceFile

USERS = """package main

import (
	"strings"

	"github.com/knadh/listmonk/internal/core"
	"github.com/labstack/echo/v4"
)

// CreateUser handles user creation.
func (a *App) CreateUser(c echo.Context) error {
	u.Username = strings.TrimSpace(u.Username)
	if !strHasLen(u.Username, 3, stdInputMaxLen) {
		return echo.NewHTTPError(http.StatusBadRequest, "username")
	}
	return nil
}
"""
HAS_LEN = """// strHasLen checks if the given string has a length within min-max.
func strHasLen(str string, min, max int) bool {
	return len(str) >= min && len(str) <= max
}"""
CALL = "if !strHasLen(u.Username, 3, stdInputMaxLen) {"


def _caller(text: str = USERS) -> Chunk:
    chunks = chunk_file(SourceFile("cmd/users.go", "go", text, len(text)))
    return next(chunk for chunk in chunks if "func (a *App) CreateUser(" in chunk.text)


def _use(caller: Chunk) -> Use:
    line = caller.start_line + next(i for i, text in enumerate(caller.text.split("\n")) if CALL in text)
    return Use("strHasLen", line, "calls", CALL)


def test_a_bare_go_call_reaches_its_own_package_not_another_of_the_same_name():
    caller = _caller()
    own = Chunk("cmd/utils.go", "go", 90, 94, HAS_LEN, "strHasLen", "function", "util")
    other = Chunk("internal/core/core.go", "go", 205, 209, HAS_LEN, "strHasLen", "function", "core")
    assert holds_by_name(caller, own, _use(caller), USERS)
    assert not holds_by_name(caller, other, _use(caller), USERS)


def test_a_dot_import_brings_the_package_names_in():
    dotted = USERS.replace('"strings"', '"strings"\n\t. "github.com/knadh/listmonk/internal/core"')
    caller = _caller(dotted)
    other = Chunk("internal/core/core.go", "go", 205, 209, HAS_LEN, "strHasLen", "function", "core")
    assert holds_by_name(caller, other, _use(caller), dotted)


CAMPAIGNS = """package models

const (
	CampaignStatusDraft         = "draft"
	CampaignStatusRunning       = "running"
)

// Campaigns represents a slice of Campaigns.
type Campaigns []Campaign"""


def test_a_go_type_is_no_class():
    def said(text: str) -> str:
        return role_phrase(Chunk("models/campaigns.go", "go", 1, 1 + text.count("\n"), text, "Campaigns", "class",
                                 "model"), VERBS, "is here")  # fmt: skip

    assert said(CAMPAIGNS) == "defines a type"
    assert said('type Campaign struct {\n\tID int `db:"id"`\n}') == "defines a struct"
    assert said("type Store interface {\n\tNextCampaigns() error\n}") == "defines an interface"


CREATE = """// CreateCampaign handles campaign creation.
func (a *App) CreateCampaign(c echo.Context) error {
	var o campReq
	if err := c.Bind(&o); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, okResp{out})
}"""
GET_ID = """// getID returns the ID of the request's path.
func getID(c echo.Context) int {
	id, _ := strconv.Atoi(c.Param("id"))
	return id
}"""


def test_a_go_handler_in_a_cmd_folder_handles_the_request():
    def said(text: str, symbol: str, kind: str) -> str:
        return role_phrase(Chunk("cmd/campaigns.go", "go", 252, 252 + text.count("\n"), text, symbol, kind, "cli"),
                           VERBS, "is here")  # fmt: skip

    assert said(CREATE, "App.CreateCampaign", "method") == "handles the request"
    assert said(GET_ID, "getID", "function") == "is a function"  # handed the request, it handles none


def test_the_one_go_web_library_declared_names_the_backend():
    found = (Found("Go net/http", "", "go.mod", "manifest"), Found("Vue", "frontend", "frontend/package.json",
                                                                   "manifest"))  # fmt: skip
    echo = Evidence(found, frozenset({"github.com/labstack/echo/v4", "github.com/jmoiron/sqlx", "vue"}))
    assert echo.opening("cmd/users.go", "go") == "In the Go Echo backend, "
    both = Evidence(found, frozenset({"github.com/labstack/echo/v4", "github.com/gin-gonic/gin"}))
    assert both.opening("cmd/users.go", "go") == "In the Go net/http backend, "  # two of them: the family's name
    assert Evidence(found[:1], frozenset()).opening("main.go", "go") == "In this Go net/http app, "


HANDLERS = """func initHTTPHandlers(e *echo.Echo, a *App) {
	// Default error handler.
	e.HTTPErrorHandler = func(err error, c echo.Context) {
		// Generic, non-echo error. Log it.
		if _, ok := err.(*echo.HTTPError); !ok {
			a.log.Println(err.Error())
		}
		e.DefaultHTTPErrorHandler(err, c)
	}
}"""


def _error_handlers(text: str) -> list[str]:
    chunk = Chunk("cmd/handlers.go", "go", 33, 42, text, "initHTTPHandlers", "function", "cli")
    found = matches_in(chunk, load_all(), intents("What happens when an API request fails?"))
    return [m.handler for m in found if "HTTPErrorHandler =" in m.text]


def test_an_anonymous_error_handler_is_named_by_nothing():
    assert _error_handlers(HANDLERS) == [""]
    named = HANDLERS.replace("= func(err error, c echo.Context) {", "= customErrorHandler")
    assert _error_handlers(named) == ["customErrorHandler"]


def test_a_logger_that_discards_its_records_sets_up_no_logging():
    def said(line: str) -> list[str]:
        chunk = Chunk("cmd/init.go", "go", 1000, 1002, f"func initCron() {{\n\t{line}\n}}", "initCron", "function",
                      "cli")  # fmt: skip
        return [m.phrase for m in matches_in(chunk, load_all(), intents("Where would I add logging?"))]

    assert not said("c := cron.New(cron.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))")
    assert not said("logger := zap.NewNop()")
    assert "sets up logging (where log records go)" in said("lo := slog.New(slog.NewJSONHandler(os.Stdout, nil))")
