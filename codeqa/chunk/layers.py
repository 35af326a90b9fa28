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
6. framework signals (literal substrings) in the text, ``@app.route(``…: each framework's data file lists its own
   (``[layers]`` in ``codeqa/frameworks/conventions/<framework>.toml``), checked layer by layer (``CONTENT_ORDER``);
7. ``FALLBACK_FOLDERS`` — generic library folders (``lib/``, ``common/``) when nothing else said more (not a top
   ``lib/`` in languages that keep all their code there, ``LIB_ROOTED``);
then ``core``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import PurePosixPath

from codeqa.chunk.path_rules import COMPILED_RULES, PATH_RULES, path_role
from codeqa.frameworks.conventions import load_all
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

# Framework text signals live in the framework data files (``[layers]`` in ``codeqa/frameworks/conventions/*.toml``);
# a file matching signals of two layers takes the first of this order (a migration's model classes stay a migration).
CONTENT_ORDER = (Layer.MIGRATION, Layer.API, Layer.VIEW, Layer.MODEL, Layer.SERVICE, Layer.CLI, Layer.TEST)

FALLBACK_FOLDERS: dict[str, str] = dict.fromkeys(("lib", "libs", "common", "shared", "support", "misc"), "util")
# Languages whose projects keep all their code under a top-level lib/ (Elixir and Phoenix apps, Flutter, Haskell and
# OCaml libraries): there, lib/ says nothing about a file's part.
LIB_ROOTED = (".ex", ".exs", ".dart", ".hs", ".ml")

CONTENT_PREFIX = 50_000  # framework signals sit near the top; don't scan megabytes

_NAMES = {name: Layer(layer) for layer, names in reversed(FILE_NAMES) for name in names}
_SUFFIXES = [(Layer(layer), suffixes) for layer, suffixes in FILE_SUFFIXES]
_WEAK = [(Layer(layer), suffixes) for layer, suffixes in WEAK_SUFFIXES]


@lru_cache(maxsize=1)
def content_signals() -> tuple[tuple[Layer, tuple[str, ...]], ...]:
    """Every framework's text signals, grouped by layer in ``CONTENT_ORDER`` (other layers after, in ``Layer``'s order),
    each signal once."""
    by_layer: dict[Layer, dict[str, None]] = {}
    for convention in load_all():
        for layer, signals in convention.layer_signals:
            by_layer.setdefault(layer, {}).update(dict.fromkeys(signals))
    order = [*CONTENT_ORDER, *(layer for layer in Layer if layer not in CONTENT_ORDER)]
    return tuple((layer, tuple(by_layer[layer])) for layer in order if layer in by_layer)


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
    for layer, signals in content_signals():
        if any(signal in head for signal in signals):
            return layer
    if folders[:1] == ["lib"] and name.endswith(LIB_ROOTED):
        folders = folders[1:]
    return _by_folder(folders, FALLBACK_FOLDERS) or Layer.CORE
