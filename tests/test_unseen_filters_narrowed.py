"""Misleading on unseen apps (stop 49's probe of huginn and navidrome, apps in no data set):

- a Devise app's ``before_action :configure_permitted_parameters, if: :devise_controller?`` was said to run "for some
  actions (`if: :devise_controller?`)": the condition tests the controller, not which actions;
- a chi router's ``r.Use(throttleStreams(…))`` inside ``r.Group(func(r chi.Router) { … })`` was said to be "in front
  of the routes", with the router's own middleware, when it wraps that group's routes only;
- ``func hr(r chi.Router, path string, f handlerRaw)``, which builds a handler and registers it, was said to "handle
  the request" because the closure it builds takes an ``http.ResponseWriter``.
"""

from __future__ import annotations

from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.said.lead import LAYER_VERBS
from codeqa.answer.explanation.said.phrasing import said_of
from codeqa.answer.explanation.said.roles_said import role_phrase
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk

DEVISE_FILTERS = """class ApplicationController < ActionController::Base
  protect_from_forgery

  before_action :authenticate_user!
  before_action :configure_permitted_parameters, if: :devise_controller?
  before_action :set_locale, only: :index

  protected
end"""
CHI_ROUTES = """	r.Group(func(r chi.Router) {
		r.Use(api.authenticate)
		r.Use(api.withPlayer)
		r.Get("/system/info", api.getSystemInfo)

		r.Group(func(r chi.Router) {
			r.Use(throttleStreams(conf.Server.Jellyfin.MaxConcurrentStreams))
			r.Get("/items", api.getItems)
		})
		r.Route("/admin", func(r chi.Router) {
			r.Use(adminOnly)
			r.Get("/users", api.getUsers)
		})
	})"""
REGISTERS = """// Add a Subsonic handler that requires an http.ResponseWriter (ex: stream, getCoverArt...)
func hr(r chi.Router, path string, f handlerRaw) {
	handle := func(w http.ResponseWriter, r *http.Request) {
		res, err := f(w, r)
		if err != nil {
			sendError(w, r, err)
			return
		}
		sendResponse(w, r, res)
	}
	addHandler(r, path, handle)
}"""
HANDLES = """func (api *Router) getUsers(w http.ResponseWriter, r *http.Request) {
	users, err := api.ds.User(r.Context()).GetAll()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	writeJSON(w, users)
}"""


def _convention(name: str):
    return next(c for c in load_all() if c.name.lower().startswith(name))


def _phrases(chunk: Chunk, framework: str, question: str) -> list[str]:
    return [m.phrase for m in matches_in(chunk, [_convention(framework)], intents(question))]


def test_a_filter_conditioned_on_the_controller_is_not_said_of_some_actions() -> None:
    chunk = Chunk("app/controllers/application_controller.rb", "ruby", 1, 9, DEVISE_FILTERS,
                  "ApplicationController", "class", "api")  # fmt: skip
    said = " ".join(_phrases(chunk, "rails", "Where would I add logging to track user behavior?"))
    assert "only `if: :devise_controller?`" in said
    assert "some actions (`if:" not in said
    assert "some actions (`only: :index`)" in said  # an action list still narrows to those actions


def test_middleware_used_inside_a_router_group_wraps_that_group() -> None:
    chunk = Chunk("server/jellyfin/api.go", "go", 100, 100 + CHI_ROUTES.count("\n"), CHI_ROUTES, "Router.routes",
                  "method", "api")  # fmt: skip
    matches = matches_in(chunk, [_convention("go")], intents("What happens when an API request fails?"))
    by_line = {m.line: m.phrase for m in matches}
    group = "in front of the routes of the `r.Group(…)` block"
    assert by_line[101] == f"puts `api.authenticate` {group} on line 100 (middleware)"
    assert by_line[106] == f"puts `throttleStreams` {group} on line 105 (middleware)"
    route = 'in front of the routes of the `r.Route("/admin", …)` block on line 109'
    assert by_line[110] == f"puts `adminOnly` {route} (middleware)"
    said = said_of(matches, intents("What happens when an API request fails?"))  # type: ignore[arg-type]
    assert f"puts `api.authenticate` and `api.withPlayer` {group} on line 100 (middleware)" in said
    assert f"`throttleStreams` {group} on line 105" in said
    inner = CHI_ROUTES.split("\n", 1)[1]
    top = Chunk("server/jellyfin/api.go", "go", 101, 110, inner, "Router.routes", "method", "api")
    first = matches_in(top, [_convention("go")], intents("What happens when an API request fails?"))[0]
    assert first.phrase == "puts `api.authenticate` in front of the routes (middleware)"  # no block in the chunk


def test_a_function_that_registers_a_handler_does_not_handle_the_request() -> None:
    registers = Chunk("server/subsonic/api.go", "go", 249, 260, REGISTERS, "hr", "function", "api")
    assert role_phrase(registers, LAYER_VERBS, "is code") == "is a function"
    handles = Chunk("server/nativeapi/users.go", "go", 10, 16, HANDLES, "Router.getUsers", "method", "api")
    assert role_phrase(handles, LAYER_VERBS, "is code") == LAYER_VERBS["api"]
