"""What part a file plays in a repository: source, or one of the peripheral roles — from evidence, not a path word.

The path conventions (``codeqa.chunk.path_rules.PATH_RULES``, one table shared with the layers) propose a role; a
role that is only a naming habit (an ``examples/``, ``contrib/`` or ``demo/`` folder nested inside the code) gives
way when the file is code (by its language) that ``MIN_SOURCE_USERS`` source files use: Django's ``contrib`` is
source code. Test files are named by each language's convention, so a shell library's ``test_functions.bash`` is
source too.

An issue report or a "how does X work" question is about implementation code unless it says otherwise, so the
ranker learns a prior per role (from dev data), and a question that asks for a role ("the changelog", "the CI
workflow", "the docs") lifts that role's prior. Asking takes more than one incidental word in a long report: a
role counts as asked for when a short question names it, when a long one names it repeatedly (``ASK_RATE``), or
when the question names one of that role's files.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from enum import StrEnum

import numpy as np
from scipy import sparse

from codeqa.chunk.path_rules import habit_folder, path_role
from codeqa.retrieve.catalogs import catalog_paths


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
    CONFIG = "config"  # settings files, a framework's boot-time configuration (Rails initializers)
    ASSET = "asset"  # pictures written as code: icon components


# Words that say a question is about a role after all (then its prior does not apply).
ROLE_WORDS: dict[Role, str] = {
    Role.TEST: r"\b(tests?|testing|tested|spec|specs|fixtures?|pytest|unittest)\b",
    Role.DOCS: r"\b(docs?|documentation|documented|readme|tutorial|guide)\b",  # a docstring is code
    Role.CHANGELOG: r"\b(changelog|change ?log|release notes?|changes file|news file|history file)\b",
    Role.CI: r"\b(ci|continuous integration|workflows?|github actions?|pipelines?|travis|circleci|pre-commit)\b",
    Role.TOOLING: r"\b(packaging|setup\.py|setup\.cfg|pyproject|tox|nox|makefile|package\.json|tsconfig|"
    r"dependenc(y|ies)|requirements|build system|install(ation)?|docker(file)?|lint(ing|er)?|"
    r"config(uration)? files?)\b",
    Role.EXAMPLE: r"\b(examples?|samples?|demos?|benchmarks?|scripts?)\b",
    Role.VENDORED: r"\b(vendored|vendor|third[- ]party|bundled)\b",
    Role.GENERATED: r"\b(generated|protobuf|codegen)\b",
    Role.I18N: r"\b(translations?|locales?|i18n|l10n|languages?|locali[sz]ation)\b",
    Role.MIGRATION: r"\b(migrations?|migrate[sd]?|schemas?|alembic|tables?|columns?)\b",
    Role.ASSET: r"\b(icons?|svgs?|logos?|images?|pictures?)\b",
    Role.CONFIG: r"\b(config|configs|configure[sd]?|configuring|configuration|settings?|initiali[sz]ers?|"
    r"environments?|env)\b",
}
# A bug report, a commit message or a "where/how in the code" question is about code: the words above say "docs" in
# passing there ("as documented", "the generated documentation is wrong"), so docs are asked for only by these.
DOC_PAGES = re.compile(
    r"\b(readme|tutorials?|guides?|docs? (pages?|site|folder|director(y|ies))|documentation (pages?|site|folder)|"
    r"(in|read|see|check|update|fix|from) the (docs|documentation)|"
    r"the (docs|documentation) (say|says|state|states|mention|mentions|explain|explains|describe|describes))\b|"
    r"(^|[\s(\[])docs?/\S",
    re.IGNORECASE,
)
CODE_QUESTION = re.compile(
    r"\bwhere (is|are|does|do|did)\b|\bwhich (file|module|function|class|method|part|code)\b|"
    r"\bin the (code|source|codebase|implementation)\b|\bhow (is|are|does|do)\b.{0,80}\b(implemented|work|works|"
    r"handled|computed|defined|done|parsed|generated|built)\b|\b(traceback|exception|bug|crash(es|ed)?|fails?|"
    r"failing|failed|broken|error|regression|fix(es|ed)?|should|expected|instead|wrong|incorrect(ly)?|twice|"
    r"unexpected(ly)?|doesn'?t|does not|not working)\b",
    re.IGNORECASE,
)
SHORT_QUESTION_WORDS = 60  # up to this long, one mention asks for a role
ASK_RATE = 50  # a longer text asks for a role when it names it at least twice and once per this many words
MIN_SOURCE_USERS = 2  # source files that use a file for a naming habit to give way
# A habit folder whose code is used by the app this much (a share of its code files that gave way, and at least
# ``MIN_FOLDER_USED`` of them) is a package of the app: NetBox's ``netbox/extras/`` holds its webhooks, scripts and
# event rules, and only some of its files are imported by name; the rest are reached by dotted strings or URLs.
FOLDER_SHARE = 0.25
MIN_FOLDER_USED = 3

_WORDS = {role: re.compile(pattern, re.IGNORECASE) for role, pattern in ROLE_WORDS.items()}
PERIPHERAL = tuple(role for role in Role if role is not Role.SOURCE)
# Roles ranked after every source file unless the question asks for them ("about implementation code unless it
# says otherwise"); a migration is asked for by its words ("the users table", "which columns", "the schema").
SECONDARY = (
    Role.TEST, Role.DOCS, Role.CHANGELOG, Role.CI, Role.TOOLING, Role.EXAMPLE, Role.VENDORED, Role.GENERATED, Role.I18N,
    Role.CONFIG, Role.MIGRATION, Role.ASSET,
)  # fmt: skip


def role_of(path: str) -> Role:
    """The role the path conventions give a repo-relative path (``source`` when no rule matches)."""
    role, _ = path_role(path)
    return Role(role) if role else Role.SOURCE


def roles_from_evidence(paths: Sequence[str], code: Sequence[bool], users: sparse.csr_matrix) -> list[Role]:
    """Each file's role: its path's, unless that is a naming habit, the file is ``code`` (a programming language)
    and ``MIN_SOURCE_USERS`` source files use it; a translation catalog (``catalogs``) is a translation wherever it is.

    ``users[a, b] > 0`` when file ``a`` uses a name that file ``b`` defines (files numbered as ``paths``).
    """
    proposed = [path_role(path) for path in paths]
    roles = [Role(role) if role else Role.SOURCE for role, _ in proposed]
    catalogs = catalog_paths(paths)  # NodeBB's public/language/<code>/*.json: no path word says "translations"
    roles = [Role.I18N if catalogs and path in catalogs else role for path, role in zip(paths, roles, strict=True)]
    weak = [number for number, (_, habit) in enumerate(proposed) if habit and code[number]]
    if not weak:
        return roles
    # users: source files, and files whose role is only a habit too (a whole app under io/…/sample/ uses itself)
    source = np.asarray([role is Role.SOURCE for role in roles], dtype=bool)
    source[weak] = True
    links = users.tocsc()
    for number in weak:
        callers = links.indices[links.indptr[number] : links.indptr[number + 1]]
        callers = callers[(callers != number) & source[callers]]
        if len(callers) >= MIN_SOURCE_USERS:
            roles[number] = Role.SOURCE
    return _packages_of_the_app(paths, roles, weak)


def _packages_of_the_app(paths: Sequence[str], roles: list[Role], weak: Sequence[int]) -> list[Role]:
    """``roles`` with every habit-named code file of a folder the app uses (``FOLDER_SHARE``) as source; the
    folder's migrations and tests keep their own roles (they are named by a rule of their own)."""
    folders: dict[str, list[int]] = {}
    for number in weak:
        folder = habit_folder(paths[number])
        if folder is not None:
            folders.setdefault(folder, []).append(number)
    for numbers in folders.values():
        used = sum(roles[number] is Role.SOURCE for number in numbers)
        if used >= MIN_FOLDER_USED and used >= FOLDER_SHARE * len(numbers):
            for number in numbers:
                if roles[number] is Role.EXAMPLE:
                    roles[number] = Role.SOURCE
    return roles


def role_mentions(query: str) -> dict[Role, int]:
    """How often the question names each role ("the changelog", "tests", "an example")."""
    return {role: len(pattern.findall(query)) for role, pattern in _WORDS.items()}


def asked(mentions: int, words: int) -> bool:
    """A role named ``mentions`` times in a text of ``words`` words is asked for (see the module docstring)."""
    return mentions > 0 and (words <= SHORT_QUESTION_WORDS or mentions >= max(2.0, words / ASK_RATE))


def roles_asked_by_words(query: str, mentions: dict[Role, int]) -> frozenset[Role]:
    """Roles the question's words ask for: named in a short question, named repeatedly in a long text; docs in a
    question about code only by naming the pages (``DOC_PAGES``)."""
    words = len(query.split())
    found = {role for role, count in mentions.items() if asked(count, words)}
    if Role.DOCS in found and about_code(query, words) and not DOC_PAGES.search(query):
        found.discard(Role.DOCS)
    return frozenset(found)


def about_code(query: str, words: int) -> bool:
    """A bug report or a long change description, or a question about where or how the code does something."""
    return words > SHORT_QUESTION_WORDS or bool(CODE_QUESTION.search(query))


def roles_asked_for(query: str, mentioned_roles: Iterable[Role] = ()) -> frozenset[Role]:
    """Roles the question asks for: by its words (``roles_asked_by_words``), or one of whose files it names
    (``mentioned_roles``)."""
    found = roles_asked_by_words(query, role_mentions(query))
    return frozenset(found | (set(mentioned_roles) - {Role.SOURCE}))
