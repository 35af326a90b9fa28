#!/usr/bin/env python3
"""Mine a time-split file-localization dev set from a repository's git history.

Each instance is one commit: its message (subject + body) is the query, the source files it MODIFIED are
the answer (gold_files), and the tree searched is a snapshot taken BEFORE the commit, so the fix itself is
not in the tree. Output lines have the format of swebench_lite_dev.jsonl: instance_id, repo, base_commit,
problem_statement, gold_files, tree, source_split ("history"), created_at, and language (the group, when
--language is given; readers that do not know the field ignore it).

Recipe (every rule is in this file; stdlib + the git CLI only, deterministic for a given mirror and options):
 0. Language group (--language): the "language" field written on every instance and the default source
    extensions (LANGUAGES: c .c .h; cpp .cc .cpp .cxx .hpp .hh .h ...; csharp .cs; go; rust; java; kotlin .kt;
    scala; swift; php; ruby .rb; elixir .ex (not .exs: mix.exs, config and test scripts); haskell .hs .lhs;
    lua; shell .sh .bash .zsh .zsh-theme plus extensionless files whose first line is a sh/bash/zsh/dash/ksh
    shebang or a zsh "#compdef"/"#autoload" (bin/pyenv, libexec/rbenv-*, completion functions); typescript
    .ts .tsx .mts .cts; javascript; zig; python). --exts overrides the extensions of one repository.
 1. Candidates: non-merge commits reachable from the default branch (HEAD of the bare mirror) whose
    committer date lies in [--since, --until). Commits by bots (dependabot, renovate, pre-commit-ci,
    weblate, github-actions, scala-steward, mergify, ...: BOT_AUTHORS on author name and e-mail) are dropped,
    so are subjects starting with "merge" or "revert".
 2. Snapshots: K (--snapshots) commits on the first-parent line of HEAD, spread evenly over the window
    (the first-parent commit at fraction i/K of the window, i = 0..K-1). A candidate uses the latest
    snapshot that is an ancestor of the commit's first parent and at most --max-distance commits before it
    (the counts of `git merge-base --is-ancestor` and `git rev-list --count SNAP..PARENT`, computed on the
    commit graph loaded once: History). Candidates without one are dropped here, before their files are
    read (so the --stats counts name the first rule that failed, in this order).
 3. Files: `git diff-tree --no-renames` against the first parent. gold_files = files with status M
    (modified; not added, not deleted, renames count as add + delete) that are source code: extension of
    the group (or the shebang rule), not a test (SWE-bench `is_test` rule: a path piece split on ' ', '_',
    '/', '.' is test, tests or testing; plus spec/specs/__tests__/__mocks__/e2e/testdata/fixtures/mocks/
    fuzz/testsuite pieces, *.spec.*, *.test.*, *.test-d.* files, a folder with a test word inside its
    camel-case or hyphenated name (src/androidTest/, src/UnitTests/, okhttp-testing-support/), and files
    named *Test, *Tests, *TestCase, *Spec, *Specs, *Suite, *Stub), not under docs/, examples/, samples/,
    demo(s)/, website/, .github/, vendor/, node_modules/, dist/, build/, scripts/, bench(marks)/,
    benches/, third_party/, 3rdparty/, external/, extern/, deps/, bundled/ (vendored copies), Pods/,
    Carthage/, .build/, _build/, zig-cache/, zig-out/, .stack-work/, dist-newstyle/ (build output),
    single_include/ (amalgamated headers), deno_dist/ (generated Deno copy), not minified (*.min.js),
    not build definitions or config (setup.py, conftest.py, Package.swift, Package@swift-*.swift,
    build.zig, Setup.hs, mix.exs, build.sc, *.gradle.kts, sbt's project/*.scala, *.config.ts/js, ...),
    not generated (*.pb.go, *_pb2.py, *.generated.*, *.g.cs, *.Designer.cs, zz_generated*.go, or first lines
    at the parent saying "Code generated", "DO NOT EDIT", "@generated", ...), not matching --exclude.
    Keep the commit when 1 <= len(gold) <= --max-gold and it adds no more source files than it modifies
    (otherwise the answer is mostly new code that the snapshot cannot contain), and only if every gold file
    exists in the chosen snapshot. base_commit = that snapshot's sha, tree = <owner>__<name>/<sha>.
 4. Message: trailers (Co-authored-by, Signed-off-by, Reviewed-by, Change-Id, PiperOrigin-RevId,
    Differential Revision, "(cherry picked from ...)"), lines that only name a changed file (path or
    basename, optionally bulleted/quoted) and lines that are a verb and a changed file ("Update
    src/parse.c", "* Create README.md": squash-merge bodies that give the answer away) are removed.
    The rest (subject + body) must have >= --min-words words and must not be trivial: see TRIVIAL_SUBJECT
    (release / bump / version / typo / lint / format / style / docs / changelog / revert / CI / deps /
    pre-commit / translations / tests-only / comment-only ...), TRIVIAL_CC_TYPES (conventional-commit types
    docs, build, ci, chore, test, style, deps, release, i18n, dev, ...) and GITMOJI_TRIVIAL (:memo:,
    :bookmark:, :arrow_up:, :white_check_mark:, :green_heart:, :rotating_light:, :art:, ... as code or emoji).
 5. Sampling: eligible instances sorted by (committer date, sha), cut into N (--max-instances) equal
    bins by rank, one instance drawn per bin with random.Random(f"{--seed}:{repo}") (all when <= N).
    Output sorted by created_at, then instance_id.
 6. --trees DIR writes each used snapshot to DIR/<owner>__<name>/<sha>/ plus a .done marker, exactly as
    /work/shared/eval/materialize.py does (blobs a snapshot lacks, symlinks and submodules skipped).

Example (bench/mine_history_all.py runs it for every repository of bench/data/history/repos.json):
  python bench/mine_history.py /work/.mirror/pallets+click/repo --repo pallets/click --language python \\
      --since 2020-07-01 --until 2026-07-01 --snapshots 3 --max-instances 45 --seed 0 \\
      --out bench/data/history/pallets__click.jsonl --trees /work/evaldata/trees
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys
from datetime import UTC, datetime

# ---------------------------------------------------------------- message rules
BOT_AUTHORS = re.compile(
    r"\[bot\]|dependabot|renovate|pre-commit-ci|weblate|github-actions|greenkeeper|"
    r"snyk-bot|allcontributors|imgbot|pyup|scala[- ]steward|mergify|codecov|deepsource|restyled|"
    r"transifex|crowdin|lingohub|fossabot|semantic-release|changeset|copybara",
    re.I,
)
TRAILER = re.compile(
    r"^\s*(co-authored-by|signed-off-by|reviewed-by|acked-by|tested-by|reported-by|"
    r"suggested-by|helped-by|cc|change-id|reviewed-on|approved-by|"
    r"\(cherry picked from commit|piperorigin-revid|gitorigin-revid|differential revision|"
    r"pull request resolved)\b.*$",
    re.I,
)
# A line that is a verb and a changed file's path or name ("Update include/CLI/Config.hpp", "* fix foo.c"):
# it gives the answer away, like a line that only names the file.
FILE_VERB_LINE = re.compile(
    r"^(update[sd]?|create[sd]?|add(s|ed)?|edit(s|ed)?|change[sd]?|modif(y|ies|ied)|fix(es|ed)?|delete[sd]?|"
    r"remove[sd]?|rename[sd]?|refactor(s|ed)?|move[sd]?|tweak(s|ed)?|clean ?up|improve[sd]?)\s+"
    r"(?P<path>.+?)\s*(\(#\d+\))?[.!]?$"
)
# Gitmoji subjects whose emoji marks housekeeping (docs, release, dependencies, tests, CI, lint, format,
# config, license, contributors, i18n, text, comments), as :code: or as the emoji itself.
GITMOJI = re.compile(r"^\s*(:[a-z0-9_+-]+:|[\u2600-\u27bf\U0001f300-\U0001faff]\ufe0f?)\s*")
GITMOJI_TRIVIAL = {
    ":memo:",
    ":pencil:",
    ":pencil2:",
    ":bookmark:",
    ":arrow_up:",
    ":arrow_down:",
    ":pushpin:",
    ":heavy_plus_sign:",
    ":heavy_minus_sign:",
    ":white_check_mark:",
    ":green_heart:",
    ":construction_worker:",
    ":rotating_light:",
    ":art:",
    ":rocket:",
    ":wrench:",
    ":see_no_evil:",
    ":page_facing_up:",
    ":busts_in_silhouette:",
    ":globe_with_meridians:",
    ":speech_balloon:",
    ":bulb:",
    "\U0001f4dd",
    "\u270f",
    "\U0001f516",
    "\u2b06",
    "\u2b07",
    "\U0001f4cc",
    "\u2795",
    "\u2796",
    "\u2705",
    "\U0001f49a",
    "\U0001f477",
    "\U0001f6a8",
    "\U0001f3a8",
    "\U0001f680",
    "\U0001f527",
    "\U0001f648",
    "\U0001f4c4",
    "\U0001f465",
    "\U0001f310",
    "\U0001f4ac",
    "\U0001f4a1",
}
# Rules added with the multi-language sets (not applied with --legacy-rules): release subjects in other words,
# doc-comment subjects named by their tool (Javadoc, JSDoc, Haddock, ...), Crowdin translation syncs.
NEW_SUBJECT_RULES = (
    re.compile(
        r"^\s*((patch|minor|major|point|bugfix) release|(javadoc|jsdoc|kdoc|rustdoc|haddock|doxygen|yard)\b)", re.I
    ),
    re.compile(r"\bcrowdin\b", re.I),
)
# Subjects whose object is the tests ("Additional n-i-t tests (#6384)", "Migrate all assertions to AssertJ"):
# the source files such a commit touches are incidental.
TESTS_SUBJECT = re.compile(
    r"(\b(tests?|test cases?|test coverage|assertions)\s*(\(#\d+\))?\.?\s*$|\bassertions to\b)", re.I
)
# Comment-only changes said in other words than TRIVIAL_SUBJECT's "add comments".
COMMENT_ONLY = re.compile(
    r"^\s*(add(ed|s)?|update[ds]?|improve[ds]?|fix(ed|es)?|clarif(y|ied|ies)|tweak(ed|s)?|expand(ed|s)?)\s+"
    r"(some\s+|more\s+|a\s+|the\s+|a few\s+)?(code\s+|inline\s+|doc\s+|source\s+)?comments?\b",
    re.I,
)
# Subjects that say the commit is housekeeping rather than a behaviour change (searched in the subject).
TRIVIAL_SUBJECT = re.compile(
    r"^\s*(release|prepare release|preparing release|bump|version|"
    r"v?\d+\.\d+(\.\d+)*([ab]\d+|rc\d*|\.dev\d*)?\b|mark \d|"
    r"update to \d|changelog|update changelog|update changes|changes\b|news\b|typo|fix(ed)? typos?|"
    r"spelling|lint|formatting\b|format (code|with|the code|files)|reformat|style\b|"
    r"black\b|isort|flake8|ruff\b|prettier|eslint|"
    r"pre-?commit|docs?\b|documentation|readme|ci\b|travis|github actions|workflow|revert|merge\b|"
    r"translated using weblate|translations? update|update translations?|i18n|l10n|"
    r"update (dependencies|deps|requirements|lockfile|package-lock|yarn\.lock)|deps\b|dependencies\b|"
    r"update copyright|copyright|license|add (a )?test|add tests|tests?\b|fix tests?\b|wip\b|"
    r"initial commit|cleanup imports|remove unused imports?|sponsor|add sponsors?|update sponsors?|"
    r"document(ed|ing)?\b|docstrings?\b|(add|fix|update|improve|clarify|correct)( the| a| api)? "
    r"(docs?|docstrings?|documentation|comments?|type hints?|typing|annotations?)\b|"
    r"drop (support for |end[- ]of[- ]life )?(python|py|node|ruby|go)\b)",
    re.I,
)
TRIVIAL_ANYWHERE = re.compile(
    r"\b(fix(ed|es)? (a |some |the )?typos?|typo fix|bump version|version bump|release v?\d|"
    r"pre-commit autoupdate|\[pre-commit\.ci\]|\[skip ci\]|\[ci skip\]|dependabot|"
    r"translated using weblate|update changelog|auto-?format(ted)?|apply black|run black|code style|"
    r"code formatting|translations?|api docs?|docs? and docstrings?|docstrings?|"
    r"(to|in|on) (the )?(api )?docs?|(to|in|on|from) ci|tox(env)?|github actions?|dockerfile|buildx)\b",
    re.I,
)
# Conventional-commit types that are housekeeping (feat, fix, refactor, perf are kept).
TRIVIAL_CC_TYPES = {
    "docs",
    "doc",
    "build",
    "ci",
    "chore",
    "test",
    "tests",
    "style",
    "deps",
    "release",
    "i18n",
    "l10n",
    "lint",
    "typo",
    "revert",
    "bump",
    "dev",
    "meta",
    "misc",
    "translation",
    "translations",
    "example",
    "examples",
    "bench",
    "benchmark",
}
CC_PREFIX = re.compile(r"^\s*([a-z0-9_-]+)(\([^)]*\))?!?:\s", re.I)
WORD = re.compile(r"[A-Za-z][A-Za-z0-9_'-]*")

# ---------------------------------------------------------------- file rules
# Language groups: the source extensions a group's gold files (and the BM25 reference corpus) are drawn from,
# and the "language" written on every instance. --exts overrides the extensions for one repository.
LANGUAGES = {
    "c": (".c", ".h"),
    "cpp": (".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h", ".ipp", ".inl", ".tpp"),
    "csharp": (".cs",),
    "go": (".go",),
    "rust": (".rs",),
    "java": (".java",),
    "kotlin": (".kt",),
    "scala": (".scala",),
    "swift": (".swift",),
    "php": (".php",),
    "ruby": (".rb",),
    "elixir": (".ex",),
    "haskell": (".hs", ".lhs"),
    "lua": (".lua",),
    "shell": (".sh", ".bash", ".zsh", ".zsh-theme"),
    "typescript": (".ts", ".tsx", ".mts", ".cts"),
    "javascript": (".js", ".jsx", ".mjs", ".cjs"),
    "zig": (".zig",),
    "python": (".py",),
}
NON_SOURCE_DIRS = {
    "docs",
    "doc",
    "documentation",
    "examples",
    "example",
    ".github",
    ".circleci",
    "vendor",
    "node_modules",
    "dist",
    "build",
    "scripts",
    "benchmarks",
    "benchmark",
    "bench",
    "_examples",
    "changelog.d",
    "changes",
    "newsfragments",
    "site-packages",
    "third_party",
    "thirdparty",
    # vendored or bundled copies of other projects (libgit2 deps/, spdlog include/spdlog/fmt/bundled/)
    "third-party",
    "3rdparty",
    "external",
    "extern",
    "deps",
    "bundled",
    # samples, demos, sites and benchmarks in other languages' conventions
    "samples",
    "sample",
    "demo",
    "demos",
    "website",
    "benches",
    # build and package-manager output (Swift, Elixir, Zig, Haskell)
    "pods",
    "carthage",
    ".build",
    "_build",
    "zig-cache",
    ".zig-cache",
    "zig-out",
    ".stack-work",
    "dist-newstyle",
    "single_include",
    "deno_dist",  # generated Deno copy of the sources (denoify)
    # the rest of the folders codeqa's scanner never indexes (codeqa/scan/walk.py VENDORED_DIRS)
    "bower_components",
    "out",
    "target",
    ".venv",
    "venv",
    ".tox",
    ".next",
    ".nuxt",
    "coverage",
    ".idea",
    ".vscode",
    ".gradle",
    ".terraform",
}
NON_SOURCE_FILES = {
    "setup.py",
    "conftest.py",
    "noxfile.py",
    "tasks.py",
    "fabfile.py",
    "manage.py",
    "conf.py",
    "webpack.config.js",
    "vite.config.js",
    "vite.config.ts",
    "babel.config.js",
    "rollup.config.js",
    "gulpfile.js",
    "gruntfile.js",
    "karma.conf.js",
    "jest.config.js",
    ".eslintrc.js",
    "eslint.config.js",
    "eslint.config.mjs",
    "rakefile",
    "gemfile",
    "magefile.go",
    "doc.go",
    # build definitions of other ecosystems
    "setup.hs",
    "setup.lhs",
    "build.zig",
    "build.sc",
    "build.gradle.kts",
    "settings.gradle.kts",
    "mix.exs",
    "package.swift",
}
# Build files, generated code and config modules by name pattern (matched on the repo-relative path).
NON_SOURCE_PATTERNS = re.compile(
    r"(^|/)Package@swift-[\d.]+\.swift$|"  # SwiftPM manifests per tools version
    r"^project/[^/]+\.scala$|"  # sbt build definition (project/*.scala at the root)
    r"(^|/)[\w.-]+\.config\.(js|ts|mjs|cjs|mts|cts)$|"  # tool configs (vitest.config.ts, tailwind.config.js)
    r"\.(pb|pb\.gw|pb\.micro)\.(go|cc|h)$|_pb2(_grpc)?\.py$|\.generated\.\w+$|\.g\.(cs|dart)$|"
    r"\.designer\.cs$|_generated\.go$|(^|/)zz_generated[\w.]*\.go$",
    re.I,
)
EXTRA_TEST_PIECES = {
    "spec",
    "specs",
    "__tests__",
    "__mocks__",
    "__snapshots__",
    "e2e",
    "testdata",
    "fixtures",
    "test-data",
    "testutil",
    "testutils",
    "testhelpers",
    "mock",
    "mocks",
    "fuzz",
    "fuzzing",
    "fuzzer",
    "fuzzers",
    "testsuite",
}
# Test code by case or hyphen convention, which the lower-cased word split above cannot see: a folder with a
# test word inside its name (Gradle/KMP source sets src/androidTest/, src/jvmTest/, src/testFixtures/; C#
# src/UnitTests/, src/IntegrationTests/; support modules okhttp-testing-support/, coil-test/,
# AdapterTestUtilities/) and class-per-file test names (FooTest.java, FooTests.swift, FooSpec.hs,
# FooSuite.scala, FooTestCase.php, S3ClientStub.php).
DIR_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
DIR_TEST_WORDS = {"test", "tests", "testing", "mock", "mocks", "fixtures"}
CASED_TEST_FILE = re.compile(r"[a-z0-9](Test|Tests|TestCase|Spec|Specs|Suite|Stub)\.[A-Za-z]+$")
# Shell scripts without an extension (bin/pyenv, libexec/rbenv-*, bin/git-*, zsh completion functions
# `_foo`) count as shell source when their first line says so.
SHELL_FIRST_LINE = re.compile(rb"^(#!\s*\S*(/|env\s+)(ba|z|da|k)?sh\b|#compdef\b|#autoload\b)")


def is_test(rel):
    """SWE-bench's rule (bm25_baseline.py: is_test)."""
    return any(w in ("test", "tests", "testing") for w in re.split(r" |_|/|\.", rel.lower()))


def is_test_like(rel):
    low = rel.lower()
    if is_test(low):
        return True
    pieces = re.split(r" |_|/|\.", low)
    if any(p in EXTRA_TEST_PIECES for p in pieces):
        return True
    parts = rel.split("/")
    if any(w.lower() in DIR_TEST_WORDS for p in parts[:-1] for w in DIR_WORD.findall(p)):
        return True
    if CASED_TEST_FILE.search(parts[-1]):
        return True
    return bool(re.search(r"\.(spec|test|test-d)\.[a-z]+$", low))


def has_extension(rel):
    name = rel.rsplit("/", 1)[-1]
    return "." in name.lstrip(".")


def is_source(rel, exts, excludes, first_line=None):
    """Whether a path is source code of the indexed kind. first_line(path) -> bytes, when given, admits
    extensionless files whose first line is a shell shebang (the shell group)."""
    low = rel.lower()
    if low.endswith(exts):
        pass
    elif first_line is not None and not has_extension(rel):
        if not SHELL_FIRST_LINE.match(first_line(rel)):
            return False
    else:
        return False
    if low.endswith((".min.js", ".min.css", ".bundle.js", ".d.ts")):
        return False
    if is_test_like(rel):
        return False
    parts = low.split("/")
    if any(p in NON_SOURCE_DIRS for p in parts[:-1]) or parts[-1] in NON_SOURCE_FILES:
        return False
    if NON_SOURCE_PATTERNS.search(rel):
        return False
    return not any(rx.search(rel) for rx in excludes)


# ---------------------------------------------------------------- git helpers
def git(gd, *args, check=True):
    r = subprocess.run(["git", "--git-dir", gd, *args], capture_output=True, check=check)
    return r.stdout.decode("utf-8", "surrogateescape")


def iso_utc(ts):
    return datetime.fromtimestamp(int(ts), tz=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def to_epoch(day):
    """'YYYY-MM-DD' (or a full ISO date-time) as seconds since the epoch; a bare date is 00:00 UTC."""
    dt = datetime.fromisoformat(day)
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return int(dt.timestamp())


def list_commits(gd, since, until, first_parent=False):
    """(sha, parents, committer ts, author name, author email, message) for non-merge commits (oldest first)."""
    # The window is applied here, not with git's --since/--until: git fills a bare date with the current
    # time of day, which would make the output depend on when the script runs.
    lo, hi = to_epoch(since), to_epoch(until)
    args = ["log", "--format=%H%x1f%P%x1f%ct%x1f%an%x1f%ae%x1f%B%x1e", "--date-order", "--reverse", "HEAD"]
    if first_parent:
        args.insert(1, "--first-parent")
    else:
        args.insert(1, "--no-merges")
    out = []
    for rec in git(gd, *args).split("\x1e"):
        rec = rec.strip("\n")
        if not rec:
            continue
        sha, parents, ts, an, ae, msg = rec.split("\x1f", 5)
        if not lo <= int(ts) < hi:
            continue
        out.append({"sha": sha, "parents": parents.split(), "ts": int(ts), "author": an, "email": ae, "message": msg})
    return out


def changed_files(gd, sha, parent):
    out = git(gd, "diff-tree", "-r", "--no-renames", "--no-commit-id", "--name-status", "-z", parent, sha)
    toks = [t for t in out.split("\0") if t != ""]
    res = []
    for i in range(0, len(toks) - 1, 2):
        res.append((toks[i][0], toks[i + 1]))
    return res


GENERATED = re.compile(
    r"code generated|do not edit|dot not modify|do not modify|@generated|auto-?generated|"
    r"(this )?file (is |was )?generated",
    re.I,
)


def is_generated(gd, parent, path):
    """A file whose first 12 lines (at the parent) say it is generated (Go's "Code generated ... DO NOT EDIT",
    "@generated", compiled output such as "DO NOT MODIFY util.js")."""
    r = subprocess.run(["git", "--git-dir", gd, "cat-file", "blob", f"{parent}:{path}"], capture_output=True)
    head = b"\n".join(r.stdout[:4000].split(b"\n")[:12]).decode("utf-8", "replace")
    return bool(GENERATED.search(head))


def first_line(gd, rev, path):
    """The first line (at most 200 bytes) of a file at a revision."""
    r = subprocess.run(["git", "--git-dir", gd, "cat-file", "blob", f"{rev}:{path}"], capture_output=True)
    return r.stdout[:200].split(b"\n", 1)[0]


def tree_files(gd, sha):
    return set(git(gd, "ls-tree", "-r", "-z", "--name-only", sha).split("\0")) - {""}


class History:
    """The commit graph reachable from HEAD, loaded once, to answer "is snapshot S an ancestor of P, and how many
    commits is P past it" (`git merge-base --is-ancestor S P`, `git rev-list --count S..P`) without a git call
    per candidate commit."""

    def __init__(self, gd):
        self.parents = {}
        for line in git(gd, "rev-list", "--parents", "HEAD").splitlines():
            sha, *ps = line.split()
            self.parents[sha] = ps
        self._ancestors = {}
        self._descendants = {}

    def ancestors(self, sha):
        """sha and every commit reachable from it."""
        if sha not in self._ancestors:
            seen, todo = {sha}, [sha]
            while todo:
                for p in self.parents.get(todo.pop(), ()):
                    if p not in seen:
                        seen.add(p)
                        todo.append(p)
            self._ancestors[sha] = seen
        return self._ancestors[sha]

    def descendants(self, sha):
        """sha and every commit (reachable from HEAD) that has it as an ancestor."""
        if sha not in self._descendants:
            children = {}
            for c, ps in self.parents.items():
                for p in ps:
                    children.setdefault(p, []).append(c)
            seen, todo = {sha}, [sha]
            while todo:
                for c in children.get(todo.pop(), ()):
                    if c not in seen:
                        seen.add(c)
                        todo.append(c)
            self._descendants[sha] = seen
        return self._descendants[sha]

    def is_ancestor(self, a, b):
        return b in self.descendants(a)

    def distance(self, a, b, cap):
        """len(a..b) (commits reachable from b, not from a), counted up to cap + 1."""
        stop = self.ancestors(a)
        seen, todo = set(), [b] if b not in stop else []
        while todo and len(seen) <= cap:
            x = todo.pop()
            if x in seen:
                continue
            seen.add(x)
            todo.extend(p for p in self.parents.get(x, ()) if p not in stop and p not in seen)
        return len(seen)


# ---------------------------------------------------------------- message cleaning
def clean_message(msg, changed_paths, legacy=False):
    names = set()
    for p in changed_paths:
        names.add(p.lower())
        names.add(p.lower().rsplit("/", 1)[-1])
    lines = []
    for line in msg.replace("\r\n", "\n").split("\n"):
        if TRAILER.match(line):
            continue
        core = line.strip().strip("-*+•>#").strip().strip("`'\":,;").strip().lower()
        if core and (
            core in names or core.lstrip("./") in names or (core.startswith(("a/", "b/")) and core[2:] in names)
        ):
            continue  # a line that only names a changed file
        m = None if legacy else FILE_VERB_LINE.match(core)
        if m and m.group("path").strip("`'\"").lstrip("./") in names:
            continue  # a verb and a changed file
        if re.fullmatch(r"\s*[-=_*]{3,}\s*", line):
            continue  # separator lines of squash-merge bodies
        lines.append(line.rstrip())
    text = "\n".join(lines).strip()
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text


def trivial_reason(subject, text, min_words, legacy=False):
    if len(WORD.findall(text)) < min_words:
        return "short"
    if legacy:
        return subject_reason(subject)
    g = GITMOJI.match(subject)
    if g:
        if g.group(1).rstrip("\ufe0f") in GITMOJI_TRIVIAL:
            return "gitmoji"
        subject = subject[g.end() :]
    if COMMENT_ONLY.match(CC_PREFIX.sub("", subject)) or TESTS_SUBJECT.search(subject):
        return "subject"
    return subject_reason(subject, NEW_SUBJECT_RULES)


def subject_reason(subject, extended=None):
    m = CC_PREFIX.match(subject)
    if m and m.group(1).lower() in TRIVIAL_CC_TYPES:
        return "cc-type"
    subj = CC_PREFIX.sub("", subject) if m else subject
    subj = re.sub(r"^\s*\[[^\]]*\]\s*", "", subj)  # "[docs] ..." style tags are checked below too
    if TRIVIAL_SUBJECT.match(subj) or TRIVIAL_SUBJECT.match(subject):
        return "subject"
    if extended and extended[0].match(subj):
        return "subject"
    if re.match(r"^\s*\[(docs?|ci|tests?|release|chore|typo|style|lint)\]", subject, re.I):
        return "subject"
    if TRIVIAL_ANYWHERE.search(subject) or (extended and extended[1].search(subject)):
        return "anywhere"
    return None


# ---------------------------------------------------------------- materialize (as materialize.py)
def extract(gd, commit, dest):
    info = {"files": 0, "skipped": []}
    listing = subprocess.run(
        ["git", "--git-dir", gd, "ls-tree", "-r", "-z", commit], capture_output=True, check=True
    ).stdout
    entries = []
    for rec in filter(None, listing.split(b"\0")):
        meta, path = rec.split(b"\t", 1)
        mode, kind, sha = meta.decode().split()
        path = path.decode("utf-8", "surrogateescape")
        if kind == "commit" or mode == "120000":
            info["skipped"].append(path)
        else:
            entries.append((mode, sha, path))
    cat = subprocess.Popen(
        ["git", "--git-dir", gd, "cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    for mode, sha, path in entries:
        cat.stdin.write(sha.encode() + b"\n")
        cat.stdin.flush()
        header = cat.stdout.readline().decode().split()
        if header[-1] == "missing":
            info["skipped"].append(path)
            continue
        data = cat.stdout.read(int(header[2]))
        cat.stdout.read(1)
        target = os.path.join(dest, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as f:
            f.write(data)
        if mode == "100755":
            os.chmod(target, 0o755)
        info["files"] += 1
    cat.stdin.close()
    cat.wait()
    return info


# ---------------------------------------------------------------- main
def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("git_dir", help="bare git directory (what the fetch tool returns)")
    ap.add_argument("--repo", help="owner/name (default: from a .../owner+name/repo path)")
    ap.add_argument("--since", default="2020-07-01", help="window start, committer date, UTC (default 2020-07-01)")
    ap.add_argument("--until", default="2026-07-01", help="window end, exclusive (default 2026-07-01)")
    ap.add_argument(
        "--language",
        choices=sorted(LANGUAGES),
        help="language group: written on every instance, and the default --exts (shell: also extensionless "
        "files with a shell shebang)",
    )
    ap.add_argument("--exts", help="comma-separated source extensions (default: the language's, else .py)")
    ap.add_argument("--exclude", action="append", default=[], help="regex of paths that are not source")
    ap.add_argument("--min-words", type=int, default=6)
    ap.add_argument(
        "--legacy-rules",
        action="store_true",
        help="the message rules of the first 11 sets (no verb+file line removal, no gitmoji, comment-only, "
        "tests-subject, release and Crowdin rules), so that those sets stay as published",
    )
    ap.add_argument("--max-gold", type=int, default=3)
    ap.add_argument("--snapshots", "-K", type=int, default=3)
    ap.add_argument("--max-distance", type=int, default=150, help="max commits from snapshot to parent")
    ap.add_argument("--max-instances", "-N", type=int, default=45)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", required=True, help="output JSONL")
    ap.add_argument("--trees", help="also write the used snapshots to TREES/<owner>__<name>/<sha>/")
    ap.add_argument("--stats", action="store_true", help="print filter counts to stderr")
    args = ap.parse_args()

    gd = args.git_dir
    repo = args.repo
    if not repo:
        base = os.path.basename(os.path.normpath(gd))
        if base == "repo":
            base = os.path.basename(os.path.dirname(os.path.normpath(gd)))
        if "+" not in base:
            sys.exit("cannot infer owner/name from the path: pass --repo")
        repo = base.replace("+", "/", 1)
    slug = repo.replace("/", "__")
    if args.exts:
        exts = tuple(e.strip().lower() for e in args.exts.split(",") if e.strip())
    else:
        exts = LANGUAGES[args.language or "python"]
    shell = args.language == "shell"
    excludes = [re.compile(x) for x in args.exclude]

    # snapshots on the first-parent line, spread over the window
    fp = list_commits(gd, args.since, args.until, first_parent=True)
    if not fp:
        sys.exit("no first-parent commits in the window")
    K = args.snapshots
    snaps = []
    for i in range(K):
        c = fp[(len(fp) * i) // K]
        if c["sha"] not in [s["sha"] for s in snaps]:
            snaps.append(c)
    snap_files = {}
    print(
        f"{repo}: {len(fp)} first-parent commits in window; snapshots: "
        + ", ".join(f"{s['sha'][:10]} ({iso_utc(s['ts'])[:10]})" for s in snaps),
        file=sys.stderr,
    )

    stats = {}
    history = History(gd)

    def drop(reason):
        stats[reason] = stats.get(reason, 0) + 1

    eligible = []
    for c in list_commits(gd, args.since, args.until):
        if len(c["parents"]) != 1:
            drop("merge/root")
            continue
        if BOT_AUTHORS.search(c["author"]) or BOT_AUTHORS.search(c["email"]):
            drop("bot")
            continue
        subject = c["message"].strip().split("\n", 1)[0]
        if re.match(r"^\s*(merge|revert)\b", subject, re.I):
            drop("merge/revert msg")
            continue
        parent = c["parents"][0]
        # snapshot: latest that is an ancestor of the parent, within max-distance
        chosen = None
        for s in reversed(snaps):
            if s["ts"] > c["ts"] + 86400 * 365:  # a snapshot a year newer cannot be an ancestor
                continue
            if history.is_ancestor(s["sha"], parent):
                if history.distance(s["sha"], parent, args.max_distance) <= args.max_distance:
                    chosen = s
                break
        if chosen is None:
            drop("no snapshot within distance")
            continue
        changes = changed_files(gd, c["sha"], parent)
        at_parent = (lambda p, rev=parent: first_line(gd, rev, p)) if shell else None
        at_commit = (lambda p, rev=c["sha"]: first_line(gd, rev, p)) if shell else None
        gold = sorted(p for st, p in changes if st == "M" and is_source(p, exts, excludes, at_parent))
        if len(gold) <= 10:  # (beyond that the commit is dropped anyway)
            gold = [p for p in gold if not is_generated(gd, parent, p)]
        added_src = [p for st, p in changes if st == "A" and is_source(p, exts, excludes, at_commit)]
        if not gold:
            drop("no modified source")
            continue
        if len(gold) > args.max_gold:
            drop("too many gold")
            continue
        if len(added_src) > len(gold):
            drop("mostly added source")
            continue
        text = clean_message(c["message"], [p for _, p in changes], args.legacy_rules)
        reason = trivial_reason(subject, text, args.min_words, args.legacy_rules)
        if reason:
            drop("msg " + reason)
            continue
        if chosen["sha"] not in snap_files:
            snap_files[chosen["sha"]] = tree_files(gd, chosen["sha"])
        if any(g not in snap_files[chosen["sha"]] for g in gold):
            drop("gold missing in snapshot")
            continue
        eligible.append(
            {
                "instance_id": f"{slug}-{c['sha'][:12]}",
                "repo": repo,
                "base_commit": chosen["sha"],
                "problem_statement": text,
                "gold_files": gold,
                "source_split": "history",
                "tree": f"{slug}/{chosen['sha']}",
                "created_at": iso_utc(c["ts"]),
                **({"language": args.language} if args.language else {}),
                "_key": (c["ts"], c["sha"]),
            }
        )
    stats["eligible"] = len(eligible)

    eligible.sort(key=lambda r: r["_key"])
    N = args.max_instances
    if len(eligible) <= N:
        picked = eligible
    else:
        rng = random.Random(f"{args.seed}:{repo}")
        picked = []
        bounds = [(len(eligible) * i) // N for i in range(N + 1)]
        for i in range(N):
            picked.append(eligible[rng.randrange(bounds[i], bounds[i + 1])])
    picked.sort(key=lambda r: (r["created_at"], r["instance_id"]))
    stats["picked"] = len(picked)

    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        for r in picked:
            r = {k: v for k, v in r.items() if not k.startswith("_")}
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    used = sorted({r["base_commit"] for r in picked})
    print(f"{repo}: {len(picked)} instances on {len(used)} snapshots -> {args.out}", file=sys.stderr)
    if args.stats:
        print("  " + json.dumps(stats, sort_keys=True), file=sys.stderr)

    if args.trees:
        for sha in used:
            dest = os.path.join(args.trees, slug, sha)
            done = dest + ".done"
            if os.path.exists(done):
                continue
            info = extract(gd, sha, dest)
            with open(done, "w") as f:
                json.dump(info, f)
            print(f"{repo}@{sha[:10]}: {info['files']} files, {len(info['skipped'])} skipped", file=sys.stderr)


if __name__ == "__main__":
    main()
