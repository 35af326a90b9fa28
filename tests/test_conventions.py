"""Framework conventions as data, and the answer they shape: each framework's constructs are found on small
fixtures (an Express error middleware, a Rails ``before_action``, a Flask ``errorhandler``, a Django middleware);
on four real indexes the newcomer's three first questions open with a file that answers — never the seed file,
the migration or the commented-out initializer that used to lead — and the answer stays short: repeats folded,
at most five sources open, numbered in reading order."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from codeqa.answer.explanation.code.keylines import question_terms
from codeqa.answer.explanation.constructs.mechanism import answers_poorly, matches_in
from codeqa.answer.explanation.said.phrasing import said_of
from codeqa.config import Settings
from codeqa.frameworks.conventions import KINDS, load_all, parse
from codeqa.frameworks.detection import detect
from codeqa.frameworks.intent import INTENTS, intents
from codeqa.records import Chunk
from tests.framework_apps import APPS, SEEDS
from tests.helpers import ask_named


def chunk(path: str, text: str, language: str, layer: str = "api", start: int = 1) -> Chunk:
    return Chunk(path, language, start, start + text.count("\n"), text, "", "function", layer)


def found(piece: Chunk, question: str, framework: str) -> list[tuple[int, str, str]]:
    conventions = [c for c in load_all() if c.name in (framework, "any framework")]
    return [(m.line, m.construct.kind, m.phrase) for m in matches_in(piece, conventions, intents(question))]


def test_every_framework_is_a_data_file_with_known_kinds_and_intents() -> None:
    names = {convention.name for convention in load_all()}
    required = {"Flask", "Django", "FastAPI", "Rails", "Express", "Laravel", "Spring", "Go net/http", "Phoenix"}
    assert required <= names
    for convention in load_all():
        for construct in convention.constructs:
            assert construct.kind in KINDS and set(construct.intents) <= set(INTENTS), (convention.name, construct)
            placeholders = set(re.findall(r"\{(\w+)\}", construct.says))
            assert placeholders <= set(construct.pattern.groupindex), (convention.name, construct.says)
    with pytest.raises(ValueError, match="bad pattern"):
        parse('name = "X"\n[[construct]]\nkind = "error"\nintents = ["errors"]\npattern = "("\nsays = "s"\n')


def test_the_framework_is_told_from_paths_and_identifiers_in_its_languages() -> None:
    def holds(vocabulary: set[str]):
        return lambda word, languages: word in vocabulary

    rails = detect(["config/routes.rb", "app/controllers/application_controller.rb"], holds(set()), ["ruby"] * 9)
    assert rails[0].name == "any framework" and rails[1].name == "Rails"
    express = detect(["src/app.js"], holds({"express", "morgan"}), ["javascript"] * 9 + ["ruby"])
    assert [c.name for c in express][1] == "Express"
    # a Rails app's few JavaScript files do not make it an Express app
    assert "Express" not in [c.name for c in detect(["config/routes.rb"], holds({"express", "morgan"}),
                                                     ["ruby"] * 19 + ["javascript"])]  # fmt: skip


def test_express_error_middleware_is_the_four_argument_one() -> None:
    code = "app.use(express.json());\napp.use((err, req, res, next) => {\n  res.status(500).send(err.message);\n});"
    app = chunk("src/app.js", code, "javascript")
    hits = found(app, SEEDS["errors"], "Express")
    assert (2, "error", "is the error middleware (four arguments): every `next(error)` ends here") in hits
    handler = chunk("src/routes/a.js", "function list(req, res, next) {\n  next();\n}", "javascript")
    assert not [h for h in found(handler, SEEDS["errors"], "Express") if "error middleware" in h[2]]


def test_rails_before_action_names_the_filter_and_comments_never_count() -> None:
    controller = chunk(
        "app/controllers/application_controller.rb",
        "class ApplicationController < ActionController::Base\n  before_action :authenticate_user!\n"
        "  # before_action :legacy_login\nend",
        "ruby",
    )
    hits = found(controller, SEEDS["auth"], "Rails")
    assert [line for line, _, _ in hits] == [2]
    assert "runs `authenticate_user!`" in hits[0][2]
    commented = "# config.lock_strategy = :failed_attempts\n# before_action :x"
    initializer = chunk("config/initializers/devise.rb", commented, "ruby", layer="config")
    assert answers_poorly(initializer) and not found(initializer, SEEDS["auth"], "Rails")


def test_a_filter_block_is_said_as_a_block_not_as_a_handler_named_do() -> None:
    controller = chunk(
        "app/controllers/application_controller.rb",
        "class ApplicationController < ActionController::Base\n  before_action do\n    log_visit\n  end\nend",
        "ruby",
    )
    hits = found(controller, SEEDS["logging"], "Rails")
    assert [line for line, _, _ in hits] == [2]
    assert "runs a block of code for every controller" in hits[0][2] and "`do`" not in hits[0][2]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Where would I add logging to track user behavior?", ("hook", "logging")),
        ("Where should we put an audit of each sign-in?", ("hook", "logging", "auth")),
        ("Where is the best place to add a permission check?", ("hook", "access")),
        ("Where would I add handling for a failed payment?", ("errors",)),  # the error handler, not a hook
        ("How is logging set up?", ("logging",)),  # not a placement question
        ("Where would I add a configuration setting?", ("config",)),  # not a concern every request meets
        ("Where would I add support for a new language?", ()),
    ],
)
def test_a_placement_question_about_a_request_wide_concern_asks_for_the_hook(question: str, expected: tuple) -> None:
    assert intents(question) == expected


def test_for_where_to_add_logging_the_request_path_outweighs_code_that_already_logs() -> None:
    rails = [c for c in load_all() if c.name in ("Rails", "any framework")]
    base = chunk(
        "app/controllers/application_controller.rb",
        "class ApplicationController < ActionController::Base\n  after_action :track\nend",
        "ruby",
    )
    one_controller = chunk(
        "app/controllers/users_controller.rb",
        "class UsersController < ApplicationController\n  after_action :track\nend",
        "ruby",
    )
    model = chunk("app/models/user.rb", "class User < ApplicationRecord\n  devise :trackable\nend", "ruby", "model")

    def strongest(piece: Chunk, question: str) -> float:
        return max(m.weight for m in matches_in(piece, rails, intents(question)))

    placement, topic = SEEDS["logging"], "How is user behavior logged?"
    assert strongest(model, topic) > strongest(one_controller, topic)  # what records sign-ins: how they are logged
    assert strongest(base, placement) > strongest(model, placement)  # ... the hook answers where to add logging
    assert strongest(model, placement) == pytest.approx(0.5 * strongest(model, topic))  # still said, at half
    assert strongest(base, placement) > strongest(one_controller, placement)  # one controller's filter is no hook


def test_flask_errorhandler_and_django_middleware() -> None:
    errors = chunk("app/errors.py", "@bp.app_errorhandler(404)\ndef not_found(error):\n    return 'x', 404", "python")
    assert [h[:2] for h in found(errors, SEEDS["errors"], "Flask")] == [(1, "error")]
    assert found(errors, SEEDS["errors"], "Flask")[0][2].startswith("handles `404` errors for the whole app")
    middleware = chunk(
        "core/middleware.py",
        "class Audit:\n    def __call__(self, request):\n        return self.get_response(request)\n\n"
        "    def process_exception(self, request, exception):\n        return None",
        "python",
    )
    assert (2, "filter", "is middleware: once `MIDDLEWARE` lists it, Django runs it on every request") in found(
        middleware, SEEDS["logging"], "Django"
    )
    assert (5, "error", "is called when a view raises an exception (`process_exception`)") in found(
        middleware, SEEDS["errors"], "Django"
    )
    settings = chunk("shop/settings.py", "MIDDLEWARE = [\n    'core.middleware.Audit',\n]", "python", layer="config")
    assert found(settings, SEEDS["logging"], "Django")[0][:2] == (1, "filter")


INDEXED_APPS = APPS  # the four framework apps, indexed once for this module by apps_home (tests/conftest.py)


OPENS_WITH = {  # the files that answer each seed question in each fixture app
    ("express", "auth"): {"src/middleware/auth.ts", "src/main.ts"},
    ("express", "errors"): {"src/main.ts"},
    ("express", "logging"): {"src/main.ts", "src/middleware/logger.ts"},
    ("rails", "auth"): {"app/controllers/application_controller.rb", "app/models/user.rb"},
    ("rails", "errors"): {"app/controllers/application_controller.rb"},
    ("rails", "logging"): {"app/controllers/application_controller.rb", "app/models/user.rb"},
    ("flask", "auth"): {"app/auth/routes.py", "app/models.py"},
    ("flask", "errors"): {"app/errors.py"},
    ("flask", "logging"): {"app/auth/routes.py", "app/__init__.py"},
    ("django", "auth"): {"core/backends.py", "core/views.py", "shop/settings.py"},
    ("django", "errors"): {"core/middleware.py"},
    ("django", "logging"): {"core/middleware.py", "shop/settings.py"},
}
LOOKALIKES = ("prisma/seed.ts", "migration.sql", "config/initializers/devise.rb", "db/migrate/", "migrations/")


@pytest.mark.parametrize(("app", "kind"), sorted(OPENS_WITH))
def test_the_opening_line_cites_a_file_that_answers(apps_home: Path, app: str, kind: str) -> None:
    answer = ask_named(app, SEEDS[kind], Settings(home=apps_home), backend="none").result()
    lead = answer.text.split("\n")[0]
    first = re.search(r"`([\w./-]+):\d+(?:-\d+)?`", lead)
    assert first and first.group(1) in OPENS_WITH[(app, kind)], lead
    framework = {"express": "Express", "rails": "Rails", "flask": "Flask", "django": "Django"}[app]
    assert lead.startswith(f"**Extractive map — not generated by a language model.** In this {framework} app, ")
    assert not any(lookalike in lead for lookalike in LOOKALIKES)
    opened = answer.text.split("**More places**")[0].split("\n", 1)[1]
    assert not any(lookalike in opened for lookalike in LOOKALIKES)  # lookalikes are at most a folded line
    numbers = [int(n) for n in re.findall(r"^- \*\*\[(\d+)\]\*\*", answer.text, re.MULTILINE)]
    assert numbers == list(range(1, len(numbers) + 1)) and len(re.findall(r"^  ```[a-z]+$", opened, re.M)) <= 5
    assert sum(1 for line in answer.text.split("\n") if line.strip()) <= 60 and answer.citations_invalid == []
    code = " ".join(APPS[app].values()).lower()  # "Not found" only for words the app does not hold at all
    assert not [w for w in re.findall(r"“(\w+)”", answer.text.split("**Not found:**")[-1]) if w.lower() in code]


def test_repeated_handlers_are_said_once_and_the_sentences_name_the_mechanism(apps_home: Path) -> None:
    text = ask_named("express", SEEDS["errors"], Settings(home=apps_home), backend="none").result().text
    assert "is the error middleware (four arguments): every `next(error)` ends here" in text.split("\n")[0]
    assert re.search(r"\(and [1-9] more like it: `src/routes/\w+\.ts:\d+-\d+`", text)  # the same try/catch
    assert text.count("next(error);") <= 2
    rails = ask_named("rails", SEEDS["errors"], Settings(home=apps_home), backend="none").result().text
    assert "turns `ActiveRecord::RecordNotFound` into a response (`rescue_from`)" in rails.split("\n")[0]
    assert re.search(r"^ +\d+ +render json: \{ error: \"not found\" \}, status: :not_found$", rails, re.MULTILINE)


def test_construct_weights_rank_the_error_middleware_above_a_route() -> None:
    from codeqa.answer.context import AnswerContext
    from codeqa.answer.explanation.constructs.mechanism import construct_weights
    from codeqa.records import Hit

    code = "const express = require('express');\napp.use(morgan('dev'));\napp.use((err, req, res, next) => {\n"
    middleware = chunk("src/app.js", code + "  res.status(500).send(err.message);\n});", "javascript")
    route = chunk("src/routes/a.js", "router.get('/a', (req, res) => res.json({}));", "javascript", start=1)
    context = AnswerContext.from_chunks([], [Hit(route, 1.0, route.id), Hit(middleware, 0.5, middleware.id)])
    weights = construct_weights(context, SEEDS["errors"], [route, middleware])
    assert weights[middleware.id] > 1.0 > weights[route.id]


@pytest.mark.parametrize(
    ("line", "reads"),
    [
        ('["Bearer " <> token] <- get_req_header(conn, "authorization")', True),
        ('token = request.headers.get("Authorization", "").replace("Bearer ", "")', True),
        ("if (header.startsWith('Bearer ')) {", True),
        ('{Tesla.Middleware.Headers, [{"Authorization", "Bearer " <> access_token}]}', False),
        ("headers: { Authorization: 'Bearer ' + apiKey },", False),
        ('session.headers["Authorization"] = "Bearer " + token', False),
    ],
)
def test_a_bearer_token_is_read_from_a_request_not_set_by_a_client(line: str, reads: bool) -> None:
    path, language = ("lib/app/auth.ex", "elixir") if "<>" in line else ("app/auth.py", "python")
    hits = found(chunk(path, line, language), SEEDS["auth"], "any framework")
    assert any("reads the bearer token" in phrase for _, _, phrase in hits) is reads


def test_phoenix_plugs_in_parentheses_and_pow_are_the_auth_mechanism() -> None:
    router = chunk(
        "lib/chat_web/router.ex",
        "  pipeline :api do\n    plug(ChatWeb.APIAuthPlug, otp_app: :chat)\n  end\n\n"
        '  scope "/api" do\n    pipe_through([:api, :api_protected])\n  end',
        "elixir",
    )
    hits = found(router, SEEDS["auth"], "Phoenix")
    assert (2, "filter", "runs the `ChatWeb.APIAuthPlug` plug on requests piped through `:api`") in hits
    assert (6, "filter", "sends these routes through a pipeline of plugs") in hits
    session = chunk("lib/chat_web/controllers/session_controller.ex",
                    "  def create(conn, %{\"user\" => params}) do\n    conn\n    |> Pow.Plug.authenticate_user(params)",
                    "elixir")  # fmt: skip
    assert [h[:2] for h in found(session, SEEDS["auth"], "Phoenix")] == [(3, "auth")]


def test_a_router_full_of_plugs_names_the_ones_the_question_is_about() -> None:
    plugs = ["Accepts", "FetchSession", "FetchFlash", "ProtectFromForgery", "PutSecureBrowserHeaders",
             "ChatWeb.APIAuthPlug", "ChatWeb.EnsureUserEnabledPlug", "CORSPlug", "RequestId"]  # fmt: skip
    router = chunk("lib/chat_web/router.ex", "\n".join(f"  plug({name})" for name in plugs), "elixir")
    conventions = [c for c in load_all() if c.name in ("Phoenix", "any framework")]
    matches = [m for m in matches_in(router, conventions, intents(SEEDS["auth"])) if "plug" in m.phrase]
    assert len(matches) == len(plugs)
    said = said_of(matches, question_terms(SEEDS["auth"]))
    assert "APIAuthPlug" in said and "EnsureUserEnabledPlug" in said
    assert "FetchFlash" not in said and "RequestId" not in said
    assert said.endswith("`ChatWeb.EnsureUserEnabledPlug` and 7 other plugs on each request it handles")
    few = said_of(matches[:3], question_terms(SEEDS["auth"]))  # a handful is said in full
    assert all(name in few for name in plugs[:3]) and "more" not in few


HOOK_LINES = {  # what the recommended line of each fixture app must be: a hook every request passes through
    "express": r"\bapp\.use\(",
    "rails": r"^\s*(?:before|after)_action\b",
    "flask": r"^\s*@\w+\.before_app_request\b",
    "django": r"^\s*MIDDLEWARE\s*=|def __call__\(self, request",
}
WHERE = re.compile(
    r"\*\*Where to add it:\*\* in `[^`]+` \(`([\w./-]+):\d+-\d+`\)(?:, because it (.+))?, at `([\w./-]+):(\d+)`\."
)


@pytest.mark.parametrize("app", sorted(APPS))
def test_where_to_add_logging_ends_with_the_hook_every_request_passes(apps_home: Path, app: str) -> None:
    settings = Settings(home=apps_home)
    lead = ask_named(app, SEEDS["logging"], settings, backend="none").result().text.split("\n")[0]
    found = WHERE.search(lead)
    assert found and found.group(1) == found.group(3), lead
    line = APPS[app][found.group(3)].split("\n")[int(found.group(4)) - 1]
    assert re.search(HOOK_LINES[app], line), (line, lead)  # the cited line is the hook the reason names
    reason = found.group(2) or lead[: found.start()]  # said in the conclusion, or already in the opening before it
    assert "every" in reason, lead
    said = [phrase for phrase in re.findall(r"(?:it|\)) ((?:[^.;`(]|`[^`]*`)*every(?:[^.;,(]|`[^`]*`)*)", lead)]
    assert len(said) == len(set(said)), lead  # the reason is said once, not again as the conclusion's
    for kind in ("auth", "errors"):  # no advice where none was asked for
        assert "Where to add it" not in ask_named(app, SEEDS[kind], settings, backend="none").result().text


def test_a_blueprints_own_hook_is_no_place_for_what_every_request_needs(tmp_path: Path) -> None:
    from tests.conftest import init_repo
    from tests.helpers import build_index

    files = {
        "app/__init__.py": "from flask import Flask\n\ndef create_app():\n    app = Flask(__name__)\n    return app\n",
        "app/admin.py": (
            "from flask import Blueprint\nimport logging\n\nbp = Blueprint('admin', __name__)\n"
            "log = logging.getLogger()\n\n\n@bp.before_request\ndef audit_admin():\n"
            "    log.info('admin request by user')\n"
        ),
        "requirements.txt": "flask\n",
    }
    build_index(str(init_repo(tmp_path / "shop", files)), Settings(home=tmp_path / "home"), name="shop")
    text = ask_named("shop", SEEDS["logging"], Settings(home=tmp_path / "home"), backend="none").result().text
    assert "audit_admin" in text.split("\n")[0]  # found and said ...
    assert "every request to the `bp` blueprint" in text.split("\n")[0]
    assert "Where to add it" not in text  # ... but not recommended for what every request needs
