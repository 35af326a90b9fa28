"""Architectural layer of a file (api, model, view, service, …) from path and framework conventions.

Layers let a user narrow a question ("only controllers", "skip tests"). They are decided by three
small ordered tables, first match wins:

1. ``LAYER_RULES`` — path conventions, strongest first (a test file is a test wherever it lives);
2. ``CONTENT_RULES`` — framework signals (literal substrings) in the text: ``@app.route(``…;
3. ``FALLBACK_RULES`` — generic library folders (``lib/``, ``common/``) when nothing else said more;
then ``core``.
"""

from __future__ import annotations

import re

from codeqa.records import Layer

LAYERS = tuple(Layer)

LAYER_RULES: list[tuple[str, str]] = [
    # tests beat everything
    ("test", r"(^|/)(tests?|spec|specs|__tests__|__mocks__|testing|e2e|cypress|testdata)/"),
    (
        "test",
        r"(^|/)(test_[^/]*\.py|[^/]*_test\.(py|go|rb|exs?)|conftest\.py|[^/]*_spec\.rb"
        r"|[^/]*\.(spec|test)\.[cm]?[jt]sx?|[^/]*Tests?\.(java|kt|cs|php|scala|swift))$",
    ),
    ("migration", r"(^|/)(migrations?|db/migrate|alembic|flyway)/"),
    ("docs", r"(^|/)(docs?|documentation|site-docs)/"),
    ("docs", r"\.(md|markdown|mdx|rst|adoc)$|(^|/)(README|CHANGELOG|CONTRIBUTING|LICENSE|AUTHORS)"),
    ("build", r"(^|/)(\.github/workflows|\.circleci|\.buildkite)/|(^|/)\.gitlab-ci\.ya?ml$"),
    (
        "build",
        r"(^|/)(setup\.py|setup\.cfg|pyproject\.toml|noxfile\.py|tox\.ini|Makefile"
        r"|CMakeLists\.txt|[^/]*\.cmake|package\.json|tsconfig[^/]*\.json|Gemfile|Rakefile"
        r"|[^/]*\.gemspec|build\.gradle(\.kts)?|settings\.gradle(\.kts)?|pom\.xml|Cargo\.toml"
        r"|build\.rs|go\.mod|Jenkinsfile|justfile|BUILD(\.bazel)?|WORKSPACE"
        r"|(webpack|vite|rollup|babel|esbuild)\.config\.[cm]?[jt]s)$",
    ),
    # routing tables live in config/ but are the API surface
    ("api", r"(^|/)(config/routes\.rb|urls\.py|routes\.(py|rb|php|[jt]s))$"),
    (
        "config",
        r"(^|/)(settings|config|conf|configuration)\.py$|(^|/)(settings|config|configs|conf"
        r"|\.config)/",
    ),
    (
        "config",
        r"(^|/)(Dockerfile[^/]*|docker-compose[^/]*|\.env[^/]*|Procfile)$"
        r"|\.(ya?ml|toml|ini|cfg|conf|properties|json|jsonc|hcl|tf)$",
    ),
    ("cli", r"(^|/)(cli|cmd|bin|commands|management/commands)/|(^|/)(cli|__main__|manage)\.py$"),
    (
        "api",
        r"(^|/)(pages/api|app/api|api|apis|controllers?|routes|routers?|handlers?|endpoints?"
        r"|graphql)/",
    ),
    ("api", r"(^|/)(views|viewsets)(\.py|/[^/]*\.py)$|(^|/)(app/[^.]*/)?route\.[jt]s$"),
    (
        "api",
        r"(Controller|Handler|Resource|Endpoint)s?\.(java|kt|cs|php|scala|go|[jt]s)$"
        r"|_(controller|handler|handlers)\.(rb|go|py)$|\.controller\.[jt]s$",
    ),
    ("model", r"(^|/)(models?|entities|entity|schemas?|orm|dto|dtos)(/|\.py$)"),
    ("model", r"(Entity|Model|Dto|DTO)\.(java|kt|cs|php|scala|swift|ts)$|\.(model|entity|schema)\.[jt]s$"),
    ("view", r"(^|/)(templates|views|components|pages|layouts|partials|widgets|screens|ui)/"),
    (
        "view",
        r"\.(html?|erb|haml|slim|vue|svelte|jinja2?|j2|hbs|mustache|ejs|pug|njk|twig|jsx|tsx"
        r"|css|scss|sass|less)$|(^|/)(page|layout)\.[jt]sx?$",
    ),
    ("service", r"(^|/)(services?|usecases?|use_cases|interactors|domain|business|application)/"),
    (
        "service",
        r"(Service|UseCase|Interactor)\.(java|kt|cs|php|scala|ts|swift)$"
        r"|_(service|usecase)\.(py|rb|go)$|\.service\.[jt]s$",
    ),
    ("util", r"(^|/)(utils?|helpers?|tools)/|(^|/)(utils?|helpers?)\.\w+$"),
]

# Literal signals (plain substring tests: fast enough to run on every file), strongest first.
CONTENT_RULES: list[tuple[str, tuple[str, ...]]] = [
    ("migration", ("op.create_table(", "op.add_column(", "migrations.Migration", "ActiveRecord::Migration")),
    (
        "api",
        (
            "@app.route(",
            "@app.get(",
            "@app.post(",
            "@app.put(",
            "@app.delete(",
            "@bp.route(",
            "@blueprint.route(",
            "@router.get(",
            "@router.post(",
            "@router.put(",
            "@router.delete(",
            "@api.route(",
            "APIRouter(",
            "Blueprint(",
            "@api_view",
            "APIView",
            "ViewSet",
        ),
    ),  # Flask, FastAPI, Django REST framework
    (
        "api",
        (
            "@RestController",
            "@Controller",
            "@RequestMapping",
            "@GetMapping",
            "@PostMapping",
            "[ApiController]",
            "[HttpGet",
            "@Get(",
            "@Post(",
        ),
    ),  # Spring, ASP.NET, NestJS
    (
        "api",
        (
            "express.Router(",
            "app.get('/",
            'app.get("/',
            "app.post('/",
            'app.post("/',
            "router.get('/",
            'router.get("/',
            "router.post('/",
            'router.post("/',
            "NextResponse",
            "NextApiRequest",
        ),
    ),  # Express, Next
    ("api", ("http.HandleFunc(", "http.ResponseWriter", "*gin.Context", "echo.Context", "fiber.Ctx")),  # Go
    ("api", ("< ApplicationController", "< ActionController::")),  # Rails
    (
        "model",
        (
            "models.Model",
            "@Entity",
            "@Table(",
            "declarative_base(",
            "(DeclarativeBase)",
            "db.Model",
            "< ApplicationRecord",
            "< ActiveRecord::Base",
            "mongoose.Schema",
            "new Schema(",
            "gorm.Model",
            "sequelize.define(",
            "(BaseModel)",
            "(SQLModel",
        ),
    ),
    (
        "cli",
        ("argparse.ArgumentParser(", "@click.command", "@click.group", "typer.Typer(", "cobra.Command", "clap::Parser"),
    ),
    ("service", ("@Service", "@Injectable")),
    ("test", ("import pytest", "unittest.TestCase", "@Test\n", "RSpec.describe")),
]

FALLBACK_RULES: list[tuple[str, str]] = [
    ("util", r"(^|/)(lib|libs|common|shared|support|misc|internal/pkg)/"),
]

CONTENT_PREFIX = 50_000  # framework signals sit near the top; don't scan megabytes

_PATH = [(Layer(layer), re.compile(pattern)) for layer, pattern in LAYER_RULES]
_FALLBACK = [(Layer(layer), re.compile(pattern)) for layer, pattern in FALLBACK_RULES]
_CONTENT = [(Layer(layer), signals) for layer, signals in CONTENT_RULES]


def layer_for(path: str, text: str | None = "") -> Layer:
    """The layer of a repo-relative POSIX path, using the file's text for framework signals."""
    for layer, pattern in _PATH:
        if pattern.search(path):
            return layer
    head = (text or "")[:CONTENT_PREFIX]
    for layer, signals in _CONTENT:
        if any(signal in head for signal in signals):
            return layer
    for layer, pattern in _FALLBACK:
        if pattern.search(path):
            return layer
    return Layer.CORE
