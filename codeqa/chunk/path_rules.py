"""The one table of path conventions: a file's layer (for filters) and its ranking role, decided together.

Each rule says what a path pattern means for the layer (``codeqa.chunk.layers``: api, model, test, docs, …) and
for the ranking role (``codeqa.retrieve.roles``: source, test, docs, changelog, ci, …); a rule may set only one of
them. Checked in order: the first rule that sets a column wins that column. A role marked ``weak`` is a naming
habit when its folder is nested inside the code (``django/contrib/``, ``app/controllers/demo/``, ``src/tools/``):
there evidence decides, and code that source code uses is source. Test files are named by each language's own
convention (``test_*.py``, ``*_test.go``, ``*.spec.ts``; no shell convention names a test ``test_*.bash``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class PathRule:
    """One path convention: a file matching ``pattern`` is in ``layer`` and plays ``role`` (either may be unset:
    the next rule that sets it decides). Roles are the ranking's (``codeqa.retrieve.roles.Role`` values)."""

    pattern: str
    layer: str | None
    role: str | None
    ignore_case: bool = True
    weak: bool = False  # a naming habit only when the folder is nested in the code: used by source code, it is source


# .mdc: Cursor rules (markdown with front matter); .md.erb: a Rails page or mail written in markdown
DOC_EXTENSIONS = r"\.(md|markdown|mdx|mdc|rst|adoc)(\.erb)?$"
# README, LICENSE-MIT, SECURITY.md, AUTHORS.rst: documents by name (not License.php or security_check.rb)
DOC_NAMES = (
    r"(^|/)(readme|changelog|contributing|license|licence|authors|code_of_conduct|security|copying|notice)"
    r"([-_][a-z0-9]+)?(\.(md|markdown|mdx|rst|txt|adoc))?$"
)

# The one table of path conventions, checked in order (first rule that sets a column wins that column). Layers
# narrow questions ("only controllers"); roles rank (a changelog never outranks the code it describes).
PATH_RULES: list[PathRule] = [
    PathRule(DOC_EXTENSIONS, "docs", None),
    PathRule(r"(^|/)(\.github/workflows|\.circleci|\.buildkite)/|(^|/)\.gitlab-ci\.ya?ml$", "build", "ci"),
    PathRule(r"(^|/)(\.github|\.gitlab|\.azure-pipelines)/|(^|/)(\.travis\.ya?ml|azure-pipelines\.ya?ml"
             r"|appveyor\.ya?ml|jenkinsfile|codecov\.ya?ml|\.pre-commit-config\.yaml)$", None, "ci"),
    # a changelog is a document named like one, or anything in a changelog folder (history.py is code)
    PathRule(r"(^|/)(changes|changelog|history|news|release[-_ ]?notes|whatsnew|whats_new)([-_][^/.]*)?"
             r"(\.(md|markdown|rst|txt|adoc))?$|(^|/)(changelog|changes|newsfragments|changelog\.d|whatsnew"
             r"|release-notes)/", "docs", "changelog"),
    PathRule(r"(^|/)(locales?|i18n|l10n|translations?|lang)/|\.(po|pot|mo|xliff|xlf)$"
             r"|(^|/)[a-z]{2,3}[-_][a-z]{2}\.(json|ya?ml|properties|arb|strings|ftl)$", "config", "i18n"),
    PathRule(r"(^|/)(vendor|vendored|_vendor|third[-_]?party|extern|externals?|deps)/"
             r"|(^|/)[a-z0-9_]+/packages/|(^|/)static/(js|css)/(lib|libs|vendor|plugins)/", None, "vendored"),
    # a bundler's output names files by a content hash (app-35QHNCUU.js, main.3f9a2c1b.css)
    PathRule(r"(^|/)(generated|gen|__generated__|autogen)/|_pb2(_grpc)?\.py$|\.pb\.go$|\.generated\.\w+$"
             r"|[-.](?=[a-z0-9]*\d)[a-z0-9]{8,}\.(js|mjs|css)$|\.min\.(js|css)$",
             None, "generated"),
    PathRule(r"(^|/)(tests?|spec|specs|__tests__|__mocks__|testing|e2e|cypress|fixtures?|testdata"
             r"|unit_?tests?|integration_?tests?|functional_?tests?|acceptance_?tests?"
             r"|snapshots?|__snapshots__)/", "test", "test"),
    # test files by each language's own naming convention (a shell library's test_functions.bash is not one)
    PathRule(r"(^|/)(test_[^/]*\.py|[^/]*_test\.(py|go|rb|exs?|c|cc|cpp|rs)|[^/]*_unittest\.(c|cc|cpp)|conftest\.py"
             r"|[^/]*_spec\.rb|[^/]*\.(spec|test)\.[cm]?[jt]sx?|[^/]*\.bats)$", "test", "test"),
    PathRule(r"(^|/)[^/]*Tests?\.(java|kt|cs|php|scala|swift)$", "test", "test", ignore_case=False),
    # test support (a pytest plugin, test utilities): a test's helper unless source code uses it
    PathRule(r"(^|/)(pytester|testutils?|testlib|testkit|test_?helpers?|test_?support|testing|[a-z0-9]+_testing)"
             r"\.[a-z]+$|(^|/)(testutils?|testlib|testkit|test_?helpers?|test_?support)/", None, "test", weak=True),
    # icons drawn as components (an svgr folder of <svg> paths): pictures, not behaviour (coil-svg/…Decoder.kt is code)
    PathRule(r"(^|/)(svgs?|icons?)/[^/]*\.(jsx|tsx|vue|svelte)$", None, "asset"),
    # a schema migration, unless nested in the code and used by it (typeorm's src/migration/ is the library)
    PathRule(r"(^|/)(migrations?|db/migrate|alembic|flyway|migrate)/|(^|/)db/(schema\.rb|structure\.sql|seeds\.rb)$",
             "migration", "migration", weak=True),
    PathRule(r"(^|/)[._]?(examples?|samples?|demos?|benchmarks?|bench|asv_bench|scripts?|tools|contrib|extras?"
             r"|misc|playground|sandbox|devtools|ci)/", None, "example", weak=True),
    PathRule(r"(^|/)(docs?|documentation|doc_src|site-docs|man)/", "docs", "docs"),
    PathRule(r"(^|/)(setup\.py|setup\.cfg|pyproject\.toml|noxfile\.py|tox\.ini|makefile|cmakelists\.txt|[^/]*\.cmake"
             r"|package\.json|tsconfig[^/]*\.json|gemfile|rakefile|[^/]*\.gemspec|build\.gradle(\.kts)?"
             r"|settings\.gradle(\.kts)?|pom\.xml|cargo\.toml|build\.rs|go\.mod|justfile|build(\.bazel)?|workspace"
             r"|composer\.json|mix\.exs|rebar\.config|[^/]*\.cabal|stack\.ya?ml|cabal\.project|build\.zig(\.zon)?"
             r"|package\.swift|[^/]*\.podspec(\.json)?|build\.sbt|meson\.build|configure\.ac|[^/]*\.rockspec"
             r"|(webpack|vite|rollup|babel|esbuild|jest|vitest|eslint|prettier|tailwind|postcss|next|nuxt)"
             r"\.config\.[cm]?[jt]s)$", "build", "tooling"),
    PathRule(r"(^|/)(manifest\.in|requirements[^/]*\.(txt|in)|\.eslintrc[^/]*|\.prettierrc[^/]*|babel\.config\.\w+"
             r"|(webpack|vite|rollup|esbuild|jest|vitest|karma|gulpfile|gruntfile)[^/]*\.[cm]?[jt]s|\.editorconfig"
             r"|\.gitignore|\.gitattributes|\.dockerignore|\.readthedocs\.ya?ml|mkdocs\.ya?ml|conf\.py|phpunit\.xml[^/]*"
             r"|\.flake8|\.pylintrc|mypy\.ini|pytest\.ini|\.coveragerc|\.bumpversion\.cfg|\.release[^/]*|renovate\.json"
             r"|\.?versioneer\.py|_version\.py|version\.py|mvnw(\.cmd)?|gradlew(\.bat)?)$", None, "tooling"),
    # Dockerfile, Dockerfile.dev, dev.Dockerfile; not a program that writes one (hubs/dockerfile.ex)
    PathRule(r"(^|/)(dockerfile(?!\.(exs?|py|rb|go|[cm]?[jt]sx?|rs|java|kt|php|cs|swift|scala|hs|lua|c|h|cpp)$)[^/]*"
             r"|[^/]*\.dockerfile|docker-compose[^/]*\.ya?ml)$", "config", "tooling"),
    PathRule(DOC_EXTENSIONS + "|" + DOC_NAMES, "docs", "docs"),
    PathRule(r"\.txt$", None, "docs"),
    # configuration: settings files and a framework's boot-time configuration code (Rails initializers)
    PathRule(r"(^|/)config/(initializers|environments)/|(^|/)[^/]*\.(ya?ml|toml|ini|cfg|conf|properties|env)$"
             r"|(^|/)\.env[^/]*$", None, "config"),
    PathRule(r"(^|/)(\.env[^/]*|procfile|config\.ru)$", "config", None),
    PathRule(r"(^|/)views/[^/]*\.py$", "api", None),  # a Django views package handles requests (else templates)
]  # fmt: skip

COMPILED_RULES = [
    (re.compile(r.pattern, re.IGNORECASE if r.ignore_case else 0), r.layer, r.role, r.weak) for r in PATH_RULES
]


def _role_match(path: str) -> tuple[str, bool, re.Match[str]] | None:
    """The first rule that gives ``path`` a role: the role, whether it is only a naming habit (``PathRule.weak``, in
    a nested folder: a top-level examples/ or tools/ folder is what it says), and what it matched."""
    for pattern, _, role, weak in COMPILED_RULES:
        match = pattern.search(path) if role is not None else None
        if match and role is not None:
            return role, weak and match.start() > 0, match
    return None


def path_role(path: str) -> tuple[str | None, bool]:
    """The ranking role the path conventions give a repo-relative path (None: no rule sets one), and whether it is
    only a naming habit that evidence may overturn."""
    found = _role_match(path)
    return (found[0], found[1]) if found else (None, False)


def habit_folder(path: str) -> str | None:
    """The nested folder whose name is only a naming habit (``netbox/extras/``, ``django/contrib/``) that gives
    ``path`` its role, with its trailing slash; None when the role is not such a habit."""
    found = _role_match(path)
    if found is None or not found[1] or not found[2].group(0).endswith("/"):
        return None
    return path[: found[2].end()]
