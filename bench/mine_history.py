#!/usr/bin/env python3
"""Mine a time-split file-localization dev set from a repository's git history.

Each instance is one commit: its message (subject + body) is the query, the source files it MODIFIED are
the answer (gold_files), and the tree searched is a snapshot taken BEFORE the commit, so the fix itself is
not in the tree. Output lines have the format of swebench_lite_dev.jsonl: instance_id, repo, base_commit,
problem_statement, gold_files, tree, source_split ("history"), created_at.

Recipe (every rule is in this file; stdlib + the git CLI only, deterministic for a given mirror and options):
 1. Candidates: non-merge commits reachable from the default branch (HEAD of the bare mirror) whose
    committer date lies in [--since, --until). Commits by bots (dependabot, renovate, pre-commit-ci,
    weblate, github-actions, ...) are dropped.
 2. Message: trailers (Co-authored-by, Signed-off-by, Reviewed-by, Change-Id, "(cherry picked from ...)"),
    and lines that only name a changed file (path or basename, optionally bulleted/quoted) are removed.
    The rest (subject + body) must have >= --min-words words and must not be trivial: see TRIVIAL_SUBJECT
    (release / bump / version / typo / lint / format / style / docs / changelog / revert / CI / deps /
    pre-commit / translations / tests-only ...) and TRIVIAL_CC_TYPES (conventional-commit types
    docs, build, ci, chore, test, style, deps, release, i18n, ...).
 3. Files: `git diff-tree --no-renames` against the first parent. gold_files = files with status M
    (modified; not added, not deleted, renames count as add + delete) that are source code: extension in
    --exts, not a test (SWE-bench `is_test` rule: a path piece split on ' ', '_', '/', '.' is test, tests
    or testing; plus spec/specs/__tests__/e2e/testdata/fixtures pieces and *.spec.* files), not under
    docs/, examples/, _examples/, .github/, vendor/, node_modules/, dist/, build/, scripts/, benchmarks/, not
    minified (*.min.js), not packaging/config (setup.py, conftest.py, noxfile.py, ...), not generated
    (first lines at the parent say "Code generated", "DO NOT EDIT", "@generated", ...), not matching
    --exclude. Keep the commit when 1 <= len(gold) <= --max-gold and it adds no more source files than it
    modifies (otherwise the answer is mostly new code that the snapshot cannot contain).
 4. Snapshots: K (--snapshots) commits on the first-parent line of HEAD, spread evenly over the window
    (the first-parent commit at fraction i/K of the window, i = 0..K-1). An instance uses the latest
    snapshot that is an ancestor of the commit's first parent and at most --max-distance commits before it
    (`git rev-list --count SNAP..PARENT`), and only if every gold file exists in that snapshot.
    base_commit = that snapshot's sha, tree = <owner>__<name>/<sha>.
 5. Sampling: eligible instances sorted by (committer date, sha), cut into N (--max-instances) equal
    bins by rank, one instance drawn per bin with random.Random(f"{--seed}:{repo}") (all when <= N).
    Output sorted by created_at, then instance_id.
 6. --trees DIR writes each used snapshot to DIR/<owner>__<name>/<sha>/ plus a .done marker, exactly as
    /work/shared/eval/materialize.py does (blobs a snapshot lacks, symlinks and submodules skipped).

Example:
  python bench/mine_history.py /work/.mirror/pallets+click/repo --repo pallets/click \\
      --since 2020-07-01 --until 2026-07-01 --exts .py --snapshots 3 --max-instances 45 --seed 0 \\
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
    r"snyk-bot|allcontributors|imgbot|pyup",
    re.I,
)
TRAILER = re.compile(
    r"^\s*(co-authored-by|signed-off-by|reviewed-by|acked-by|tested-by|reported-by|"
    r"suggested-by|helped-by|cc|change-id|reviewed-on|approved-by|"
    r"\(cherry picked from commit)\b.*$",
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
}
EXTRA_TEST_PIECES = {
    "spec",
    "specs",
    "__tests__",
    "e2e",
    "testdata",
    "fixtures",
    "test-data",
    "testutil",
    "testutils",
    "testhelpers",
    "mock",
    "mocks",
}


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
    return bool(re.search(r"\.(spec|test)\.[a-z]+$", low))


def is_source(rel, exts, excludes):
    low = rel.lower()
    if not low.endswith(exts) or low.endswith((".min.js", ".min.css", ".bundle.js", ".d.ts")):
        return False
    if is_test_like(rel):
        return False
    parts = low.split("/")
    if any(p in NON_SOURCE_DIRS for p in parts[:-1]) or parts[-1] in NON_SOURCE_FILES:
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


def tree_files(gd, sha):
    return set(git(gd, "ls-tree", "-r", "-z", "--name-only", sha).split("\0")) - {""}


def is_ancestor(gd, a, b):
    return subprocess.run(["git", "--git-dir", gd, "merge-base", "--is-ancestor", a, b]).returncode == 0


# ---------------------------------------------------------------- message cleaning
def clean_message(msg, changed_paths):
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
        if re.fullmatch(r"\s*[-=_*]{3,}\s*", line):
            continue  # separator lines of squash-merge bodies
        lines.append(line.rstrip())
    text = "\n".join(lines).strip()
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text


def trivial_reason(subject, text, min_words):
    if len(WORD.findall(text)) < min_words:
        return "short"
    m = CC_PREFIX.match(subject)
    if m and m.group(1).lower() in TRIVIAL_CC_TYPES:
        return "cc-type"
    subj = CC_PREFIX.sub("", subject) if m else subject
    subj = re.sub(r"^\s*\[[^\]]*\]\s*", "", subj)  # "[docs] ..." style tags are checked below too
    if TRIVIAL_SUBJECT.match(subj) or TRIVIAL_SUBJECT.match(subject):
        return "subject"
    if re.match(r"^\s*\[(docs?|ci|tests?|release|chore|typo|style|lint)\]", subject, re.I):
        return "subject"
    if TRIVIAL_ANYWHERE.search(subject):
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
    ap.add_argument("--exts", default=".py", help="comma-separated source extensions (default .py)")
    ap.add_argument("--exclude", action="append", default=[], help="regex of paths that are not source")
    ap.add_argument("--min-words", type=int, default=6)
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
    exts = tuple(e.strip().lower() for e in args.exts.split(",") if e.strip())
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
        changes = changed_files(gd, c["sha"], parent)
        gold = sorted(p for st, p in changes if st == "M" and is_source(p, exts, excludes))
        if len(gold) <= 10:  # (beyond that the commit is dropped anyway)
            gold = [p for p in gold if not is_generated(gd, parent, p)]
        added_src = [p for st, p in changes if st == "A" and is_source(p, exts, excludes)]
        if not gold:
            drop("no modified source")
            continue
        if len(gold) > args.max_gold:
            drop("too many gold")
            continue
        if len(added_src) > len(gold):
            drop("mostly added source")
            continue
        text = clean_message(c["message"], [p for _, p in changes])
        reason = trivial_reason(subject, text, args.min_words)
        if reason:
            drop("msg " + reason)
            continue
        # snapshot: latest that is an ancestor of the parent, within max-distance
        chosen = None
        for s in reversed(snaps):
            if s["ts"] > c["ts"] + 86400 * 365:  # a snapshot a year newer cannot be an ancestor
                continue
            if is_ancestor(gd, s["sha"], parent):
                dist = int(git(gd, "rev-list", "--count", f"{s['sha']}..{parent}").strip())
                if dist <= args.max_distance:
                    chosen = s
                break
        if chosen is None:
            drop("no snapshot within distance")
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
