"""Architectural layer of a file (api, model, view, service, …) from path and framework conventions.

Layers let a user narrow a question ("only controllers", "skip tests"). They are decided by small tables of
conventions, kept as data and checked in this order (first match wins):

1. ``PATH_RULES`` — path patterns that beat everything (a test file is a test wherever it lives; migrations,
   docs, build and CI files). The same table gives each file its ranking role (``codeqa.retrieve.roles``);
2. ``FILE_NAMES`` — exact file names with a fixed role (``urls.py``, ``routes.rb``, Next's ``page.tsx``);
3. ``FILE_SUFFIXES`` — file-name endings: feature-folder conventions (``orders.service.ts``,
   ``users_controller.rb``, ``welcome_mailer.rb``), templates (``.erb``, ``.jbuilder``, ``.blade.php``) and config
   formats;
4. ``FOLDERS`` — the deepest ancestor folder with a known role (``app/jobs``, ``controllers``, ``services``),
   compared case-insensitively (``Http/Controllers``); a two-part key (``app/helpers``) beats a one-part one;
5. ``WEAK_SUFFIXES`` — ``.jsx``/``.tsx`` are usually views, unless a folder said otherwise;
6. ``CONTENT_RULES`` — framework signals (literal substrings) in the text: ``@app.route(``…;
7. ``FALLBACK_FOLDERS`` — generic library folders (``lib/``, ``common/``) when nothing else said more (not a top
   ``lib/`` in languages that keep all their code there, ``LIB_ROOTED``);
then ``core``.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from codeqa.chunk.path_rules import COMPILED_RULES, PATH_RULES, path_role
from codeqa.records import Layer

__all__ = ["LAYERS", "PATH_RULES", "layer_for", "path_role"]

LAYERS = tuple(Layer)


# Exact file names (any folder).
FILE_NAMES: list[tuple[str, tuple[str, ...]]] = [
    (
        "api",
        (
            "routes.rb", "urls.py", "routes.py", "routes.php", "routes.js", "routes.ts", "route.ts", "route.js",
            "middleware.ts", "middleware.js", "views.py", "viewsets.py", "api.py", "endpoints.py", "handlers.go",
            "router.go", "routes.go",
        ),
    ),  # Rails, Django (+ REST framework), Next (app router), Go, Rack
    ("model", ("models.py", "model.py", "schema.py", "schemas.py", "entities.py", "schema.prisma", "schema.graphql")),
    ("view", ("page.tsx", "page.jsx", "page.js", "layout.tsx", "layout.jsx", "layout.js", "_app.tsx")),
    ("view", ("forms.py", "serializers.py", "admin.py")),
    ("service", ("tasks.py", "signals.py", "services.py", "jobs.py", "celery.py")),
    ("config", ("settings.py", "config.py", "conf.py", "configuration.py", "apps.py", "wsgi.py", "asgi.py")),
    ("cli", ("cli.py", "__main__.py", "manage.py", "main.go")),
    ("util", ("utils.py", "helpers.py", "util.py", "helper.py", "utils.ts", "utils.js", "helpers.ts", "helpers.js")),
]  # fmt: skip

# File-name endings (the part after the feature name): checked after exact names, before folders.
FILE_SUFFIXES: list[tuple[str, tuple[str, ...]]] = [
    (
        "view",
        (
            ".erb", ".haml", ".slim", ".jbuilder", ".rabl", ".blade.php", ".twig", ".html", ".htm", ".jinja",
            ".jinja2", ".j2", ".hbs", ".handlebars", ".mustache", ".ejs", ".pug", ".njk", ".liquid", ".vue",
            ".svelte", ".css", ".scss", ".sass", ".less", ".component.ts", ".component.tsx", ".component.html",
            ".page.tsx", ".view.ts", ".view.tsx", "_helper.rb", "_serializer.rb", "_presenter.rb", "_decorator.rb",
            "_view.rb", "_component.rb",
        ),
    ),
    (
        "api",
        (
            ".controller.ts", ".controller.js", ".routes.ts", ".routes.js", ".router.ts", ".router.js",
            ".resolver.ts", ".guard.ts", ".middleware.ts", ".middleware.js", ".interceptor.ts", ".handler.ts",
            ".handler.js", ".api.ts", ".api.js", "_controller.rb", "_channel.rb", "_handler.rb", "_controller.py",
            "_handler.py", "_handler.go", "_handlers.go", "Controller.java", "Controller.kt", "Controller.php",
            "Controller.cs", "Controller.scala", "Handler.java", "Handler.kt", "Resource.java", "Endpoint.java",
            "Middleware.php", "Request.php",
        ),
    ),
    (
        "service",
        (
            ".service.ts", ".service.js", ".job.ts", ".job.js", ".worker.ts", ".worker.js", ".queue.ts",
            "_service.rb", "_job.rb", "_mailer.rb", "_worker.rb", "_policy.rb", "_interactor.rb", "_command.rb",
            "_service.py", "_tasks.py", "_service.go", "Service.java", "Service.kt", "ServiceImpl.java",
            "Service.php", "Service.cs", "Job.php", "Mail.php", "Job.java", "UseCase.java", "UseCase.kt",
        ),
    ),
    (
        "model",
        (
            ".model.ts", ".model.js", ".entity.ts", ".schema.ts", ".schema.js", ".dto.ts", ".repository.ts",
            "_model.rb", "_record.rb", "_model.py", "_models.py", "_repository.go", "_model.go", "Entity.java",
            "Model.java", "Dto.java", "DTO.java", "Repository.java", "Entity.kt", "Model.kt", "Dto.kt",
            "Repository.kt", "Repository.php", "Entity.cs", "Model.cs", "Dto.cs", "Model.swift",
        ),
    ),
    ("cli", (".rake", ".command.ts", "_command.py", "Command.php", "Command.java")),
    ("util", (".util.ts", ".utils.ts", ".helper.ts", ".helpers.ts", ".util.js", ".utils.js", "_util.py")),
    (
        "config",
        (
            ".yml", ".yaml", ".toml", ".ini", ".cfg", ".conf", ".properties", ".json", ".jsonc", ".hcl", ".tf",
            ".config.ts", ".config.js", ".config.mjs", ".config.cjs", ".config.rb", ".env",
        ),
    ),
]  # fmt: skip

# Folder names (lower case) → layer; the deepest folder with a role decides. "a/b" keys match two folders.
FOLDERS: dict[str, str] = {
    **dict.fromkeys(("config", "configs", "conf", ".config", "initializers", "environments"), "config"),
    **dict.fromkeys(("locales", "locale", "i18n", "l10n", "translations", "lang"), "config"),  # translated strings
    **dict.fromkeys(("cli", "cmd", "bin", "commands", "console", "management/commands"), "cli"),
    **dict.fromkeys(("scripts", "script", "tools/build", "deploy", "ci"), "build"),
    **dict.fromkeys(
        (
            "api", "apis", "controller", "controllers", "routes", "router", "routers", "handler", "handlers",
            "endpoints", "endpoint", "graphql", "resolvers", "middleware", "middlewares", "channels", "rest",
            "http/requests", "pages/api", "app/api",
        ),
        "api",
    ),
    **dict.fromkeys(
        (
            "model", "models", "entities", "entity", "schema", "schemas", "orm", "dto", "dtos", "repository",
            "repositories", "prisma",
        ),
        "model",
    ),
    **dict.fromkeys(
        (
            "views", "view", "templates", "template", "components", "pages", "layouts", "partials", "widgets",
            "screens", "ui", "templatetags", "serializers", "presenters", "decorators", "app/helpers",
            "resources/views", "styles", "css", "assets/stylesheets",
        ),
        "view",
    ),
    **dict.fromkeys(
        (
            "services", "service", "usecases", "usecase", "use_cases", "interactors", "domain", "business",
            "application", "jobs", "workers", "mailers", "mail", "tasks", "policies", "listeners", "events",
            "notifications", "queues", "consumers",
        ),
        "service",
    ),
    **dict.fromkeys(("utils", "util", "helpers", "helper", "tools", "utilities"), "util"),
}  # fmt: skip

WEAK_SUFFIXES: list[tuple[str, tuple[str, ...]]] = [("view", (".jsx", ".tsx"))]

# Literal signals (plain substring tests: fast enough to run on every file), strongest first.
CONTENT_RULES: list[tuple[str, tuple[str, ...]]] = [
    (
        "migration",
        ("op.create_table(", "op.add_column(", "migrations.Migration", "ActiveRecord::Migration", "use Ecto.Migration"),
    ),
    (
        "api",
        (
            "@app.route(", "@app.get(", "@app.post(", "@app.put(", "@app.delete(", "@bp.route(",
            "@blueprint.route(", "@router.get(", "@router.post(", "@router.put(", "@router.delete(", "@api.route(",
            "APIRouter(", "Blueprint(", "@api_view", "APIView", "ViewSet",
        ),
    ),  # Flask, FastAPI, Django REST framework
    (
        "api",
        (
            "@RestController", "@Controller", "@RequestMapping", "@GetMapping", "@PostMapping", "[ApiController]",
            "[HttpGet", "@Get(", "@Post(",
        ),
    ),  # Spring, ASP.NET, NestJS
    (
        "api",
        (
            "express.Router(", "app.get('/", 'app.get("/', "app.post('/", 'app.post("/', "router.get('/",
            'router.get("/', "router.post('/", 'router.post("/', "NextResponse", "NextApiRequest",
        ),
    ),  # Express, Next
    ("api", ("http.HandleFunc(", "http.ResponseWriter", "*gin.Context", "echo.Context", "fiber.Ctx")),  # Go
    ("api", ("< ApplicationController", "< ActionController::")),  # Rails
    (
        "api",
        (
            "use Phoenix.Router", "use Phoenix.Endpoint", "use Phoenix.Controller", "use Phoenix.Channel",
            "use Plug.Router", "Web, :router\n", "Web, :controller\n", "Web, :channel\n", "import Plug.Conn",
        ),
    ),  # Phoenix / Plug: routers, endpoints, controllers, channels and plugs (``lib/app_web/`` says nothing)
    (
        "view",
        (
            "use Phoenix.LiveView", "use Phoenix.LiveComponent", "use Phoenix.Component", "Web, :live_view\n",
            "Web, :live_component\n", "Web, :view\n", "Web, :html\n",
        ),
    ),  # Phoenix
    (
        "model",
        (
            "models.Model", "@Entity", "@Table(", "declarative_base(", "(DeclarativeBase)", "db.Model",
            "< ApplicationRecord", "< ActiveRecord::Base", "mongoose.Schema", "new Schema(", "gorm.Model",
            "sequelize.define(", "(BaseModel)", "(SQLModel", "use Ecto.Schema",
        ),
    ),
    ("service", ("< ApplicationJob", "< ActiveJob::Base", "< ApplicationMailer", "< ActionMailer::Base")),  # Rails
    (
        "cli",
        ("argparse.ArgumentParser(", "@click.command", "@click.group", "typer.Typer(", "cobra.Command", "clap::Parser"),
    ),
    ("service", ("@Service", "@Injectable")),
    ("test", ("import pytest", "unittest.TestCase", "@Test\n", "RSpec.describe")),
]  # fmt: skip

FALLBACK_FOLDERS: dict[str, str] = dict.fromkeys(("lib", "libs", "common", "shared", "support", "misc"), "util")
# Languages whose projects keep all their code under a top-level lib/ (Elixir and Phoenix apps, Flutter, Haskell and
# OCaml libraries): there, lib/ says nothing about a file's part.
LIB_ROOTED = (".ex", ".exs", ".dart", ".hs", ".ml")

CONTENT_PREFIX = 50_000  # framework signals sit near the top; don't scan megabytes

_NAMES = {name: Layer(layer) for layer, names in reversed(FILE_NAMES) for name in names}
_SUFFIXES = [(Layer(layer), suffixes) for layer, suffixes in FILE_SUFFIXES]
_WEAK = [(Layer(layer), suffixes) for layer, suffixes in WEAK_SUFFIXES]
_CONTENT = [(Layer(layer), signals) for layer, signals in CONTENT_RULES]


def _by_suffix(name: str, table: list[tuple[Layer, tuple[str, ...]]]) -> Layer | None:
    for layer, suffixes in table:
        if name.endswith(suffixes):
            return layer
    return None


def _by_folder(folders: list[str], table: dict[str, str]) -> Layer | None:
    """The role of the deepest folder that has one; ``parent/name`` keys beat ``name`` keys at the same depth."""
    for depth in range(len(folders) - 1, -1, -1):
        pair = "/".join(folders[depth - 1 : depth + 1]) if depth else ""
        role = table.get(pair) or table.get(folders[depth])
        if role:
            return Layer(role)
    return None


def layer_for(path: str, text: str | None = "") -> Layer:
    """The layer of a repo-relative POSIX path, using the file's text for framework signals."""
    for pattern, layer, _, _ in COMPILED_RULES:
        if layer is not None and pattern.search(path):
            return Layer(layer)
    pure = PurePosixPath(path)
    name, folders = pure.name, [part.lower() for part in pure.parts[:-1]]
    found = _NAMES.get(name) or _by_suffix(name, _SUFFIXES) or _by_folder(folders, FOLDERS)
    found = found or _by_suffix(name, _WEAK)
    if found:
        return found
    head = (text or "")[:CONTENT_PREFIX]
    for layer, signals in _CONTENT:
        if any(signal in head for signal in signals):
            return layer
    if folders[:1] == ["lib"] and name.endswith(LIB_ROOTED):
        folders = folders[1:]
    return _by_folder(folders, FALLBACK_FOLDERS) or Layer.CORE
