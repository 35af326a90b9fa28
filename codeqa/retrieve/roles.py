"""What part a file plays in a repository, from its path: source, or one of the peripheral roles.

An issue report or a "how does X work" question is about implementation code unless it says otherwise, so the
ranker learns a prior per role (from dev data), and a question that names a role ("the changelog", "the CI
workflow", "the docs") lifts that role's prior. Rules are data: first match wins, checked on the lower-cased
repo-relative path.
"""

from __future__ import annotations

import re
from enum import StrEnum


class Role(StrEnum):
    SOURCE = "source"
    TEST = "test"
    DOCS = "docs"
    CHANGELOG = "changelog"
    CI = "ci"
    TOOLING = "tooling"  # packaging, build and tool configuration
    EXAMPLE = "example"  # examples, demos, benchmarks, scripts, contrib
    VENDORED = "vendored"
    GENERATED = "generated"
    I18N = "i18n"
    MIGRATION = "migration"


ROLE_RULES: list[tuple[Role, str]] = [
    (Role.CI, r"(^|/)(\.github|\.circleci|\.buildkite|\.gitlab|\.azure-pipelines)/|(^|/)(\.gitlab-ci\.ya?ml"
     r"|\.travis\.ya?ml|azure-pipelines\.ya?ml|appveyor\.ya?ml|jenkinsfile|codecov\.ya?ml|\.pre-commit-config\.yaml)$"),
    (Role.CHANGELOG, r"(^|/)(changes|changelog|history|news|release[-_ ]?notes|whatsnew|whats_new)([./_-]|$)"
     r"|(^|/)(changelog|changes|newsfragments|changelog\.d)/"),
    (Role.I18N, r"(^|/)(locales?|i18n|l10n|translations?|lang)/|\.(po|pot|mo|xliff|xlf)$"
     r"|(^|/)[a-z]{2,3}[-_][a-z]{2}\.(json|ya?ml|properties|arb|strings|ftl)$"),  # en-GB.json, pt_BR.yml
    (Role.VENDORED, r"(^|/)(vendor|vendored|_vendor|third[-_]?party|extern|externals?|deps)/"
     r"|(^|/)[a-z0-9_]+/packages/|(^|/)static/(js|css)/(lib|libs|vendor|plugins)/"),
    (Role.GENERATED, r"(^|/)(generated|gen|__generated__|autogen)/|_pb2(_grpc)?\.py$|\.pb\.go$|\.generated\.\w+$"),
    (Role.MIGRATION, r"(^|/)(migrations?|alembic|db/migrate|migrate)/"),
    (Role.TEST, r"(^|/)(tests?|testing|spec|specs|__tests__|e2e|cypress|fixtures?|testdata)/"
     r"|(^|/)(test_[^/]*|[^/]*_test\.\w+|conftest\.py|[^/]*\.(spec|test)\.\w+|[^/]*_spec\.rb)$"),
    (Role.EXAMPLE, r"(^|/)[._]?(examples?|samples?|demos?|benchmarks?|bench|asv_bench|scripts?|tools|contrib|extras?"
     r"|misc|playground|sandbox|devtools|ci)/"),
    (Role.DOCS, r"(^|/)(docs?|documentation|doc_src|site-docs|man)/|\.(md|markdown|mdx|rst|adoc|txt)$"
     r"|(^|/)(readme|contributing|authors|license|code_of_conduct|security)([./_-]|$)"),
    (Role.TOOLING, r"(^|/)(setup\.py|setup\.cfg|pyproject\.toml|tox\.ini|noxfile\.py|makefile|manifest\.in"
     r"|requirements[^/]*\.(txt|in)|package\.json|tsconfig[^/]*\.json|\.eslintrc[^/]*|\.prettierrc[^/]*"
     r"|babel\.config\.\w+|(webpack|vite|rollup|esbuild|jest|vitest|karma|gulpfile|gruntfile)[^/]*\.[cm]?[jt]s"
     r"|\.editorconfig|\.gitignore|\.gitattributes|\.dockerignore|dockerfile[^/]*|docker-compose[^/]*"
     r"|\.readthedocs\.ya?ml|mkdocs\.ya?ml|conf\.py|cargo\.toml|go\.mod|gemfile|rakefile|[^/]*\.gemspec"
     r"|pom\.xml|build\.gradle(\.kts)?|settings\.gradle(\.kts)?|composer\.json|phpunit\.xml[^/]*"
     r"|\.flake8|\.pylintrc|mypy\.ini|pytest\.ini|\.coveragerc|\.bumpversion\.cfg|\.release[^/]*|renovate\.json"
     r"|\.?versioneer\.py|_version\.py|version\.py)$"),
]  # fmt: skip

# Words that say a question is about a role after all (then its prior does not apply).
ROLE_WORDS: dict[Role, str] = {
    Role.TEST: r"\b(tests?|testing|tested|spec|specs|fixtures?|pytest|unittest)\b",
    Role.DOCS: r"\b(docs?|documentation|documented|readme|docstrings?|tutorial|guide)\b",
    Role.CHANGELOG: r"\b(changelog|change ?log|release notes?|changes file|news file|history file)\b",
    Role.CI: r"\b(ci|continuous integration|workflows?|github actions?|pipelines?|travis|circleci|pre-commit)\b",
    Role.TOOLING: r"\b(packaging|setup\.py|setup\.cfg|pyproject|tox|nox|makefile|package\.json|tsconfig|"
    r"dependenc(y|ies)|requirements|build system|install(ation)?|docker(file)?|lint(ing|er)?|"
    r"config(uration)? files?)\b",
    Role.EXAMPLE: r"\b(examples?|samples?|demos?|benchmarks?|scripts?)\b",
    Role.VENDORED: r"\b(vendored|vendor|third[- ]party|bundled)\b",
    Role.GENERATED: r"\b(generated|protobuf|codegen)\b",
    Role.I18N: r"\b(translations?|locales?|i18n|l10n|languages?|locali[sz]ation)\b",
    Role.MIGRATION: r"\b(migrations?|schema changes?|alembic)\b",
}

_RULES = [(role, re.compile(pattern)) for role, pattern in ROLE_RULES]
_WORDS = {role: re.compile(pattern, re.IGNORECASE) for role, pattern in ROLE_WORDS.items()}
PERIPHERAL = tuple(role for role in Role if role is not Role.SOURCE)
# Roles ranked after every source file unless the question asks for them ("about implementation code unless it
# says otherwise"); migrations are left to the learned prior: "where is the users table defined?" may mean one.
SECONDARY = (
    Role.TEST, Role.DOCS, Role.CHANGELOG, Role.CI, Role.TOOLING, Role.EXAMPLE, Role.VENDORED, Role.GENERATED, Role.I18N,
)  # fmt: skip


def role_of(path: str) -> Role:
    """The role of a repo-relative path (``source`` when no rule matches)."""
    lower = path.lower()
    for role, pattern in _RULES:
        if pattern.search(lower):
            return role
    return Role.SOURCE


def roles_asked_for(query: str) -> frozenset[Role]:
    """Roles the question names ("where is the CI workflow", "what does the changelog say")."""
    return frozenset(role for role, pattern in _WORDS.items() if pattern.search(query))
