"""Code that cannot explain a mechanism, whatever words it holds (``answers_poorly``): an answer scores it down,
and neither opens on it nor follows calls from it."""

from __future__ import annotations

import re
from fnmatch import fnmatch
from pathlib import PurePosixPath

from codeqa.answer.explanation.code.keylines import COMMENT
from codeqa.records import Chunk

# a bare translatable string: a module of them exists only for the string extractor (Django's default templates)
TRANSLATABLE = re.compile(
    r"""^\s*(?:_|gettext|gettext_lazy|ugettext|ugettext_lazy|pgettext|N_|__|t|i18n\.t)\(\s*[rbuf]?["']"""
)
# a data migration: a one-off rewrite of stored rows (Rails' data_migrate, app/data_migrations/), not the app's rules
DATA_MIGRATION = re.compile(r"(^|/)(data_?migrat\w*|db/data)/")
IMPORT_LINE = re.compile(r"^\s*(?:from\s+\S+\s+)?import\b|^\s*(?:require|use)\b")
POOR_LAYERS = frozenset({"migration", "test", "docs", "build"})
POOR_PATHS = (
    "*.sql", "*seed*", "*fixtures*", "*.lock", "*lock.json", "*.min.js", "*.snap", "*.svg", "*/vendor/*",
    "db/schema.rb", "*/schema.prisma", "*.d.ts", "*/locales/*", "*/i18n/*", "*/translations/*", "*CHANGELOG*",
    "*.css", "*.scss", "*.sass", "*.less",  # styles: `background: $white` is no background job
)  # fmt: skip


def answers_poorly(chunk: Chunk) -> bool:
    """Code that cannot explain a mechanism, whatever words it holds: schema and data migrations, seeds, SQL, lock
    files, styles, tests, documentation, a chunk whose lines are all comments (a commented-out initializer), or one
    whose statements are all bare translatable strings (a module kept for the string extractor)."""
    if str(chunk.layer) in POOR_LAYERS:
        return True
    path = chunk.path.lower()
    if any(fnmatch(path, glob) for glob in POOR_PATHS) or PurePosixPath(path).name.startswith("migration"):
        return True
    if DATA_MIGRATION.search(path):
        return True
    code = [line for line in chunk.text.split("\n") if line.strip()]
    if bool(code) and sum(1 for line in code if COMMENT.match(line)) >= 0.8 * len(code):
        return True
    statements = [line for line in code if not COMMENT.match(line) and not IMPORT_LINE.match(line)]
    return len(statements) >= 3 and sum(1 for line in statements if TRANSLATABLE.match(line)) >= 0.8 * len(statements)
