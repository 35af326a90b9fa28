"""Incremental update vs full re-index on a real tree: `python bench/update_bench.py TREE [--changes N]`.

The tree is copied into a throw-away git repository and data dir. Then: a first full index (cold embedding cache);
N source files edited and committed, and the index rebuilt in full (`codeqa index` again: warm cache); N other files
edited and committed, and the index updated (`codeqa update`). Both runs see N changed files and a warm cache, so
the difference is what `update` saves: scanning is shared, but unchanged files are neither chunked nor looked up in
the embedding cache, their rows stay in the live collection untouched and their search-file rows (vectors, tokens,
file cards) are carried from the live generation; only the changed files' rows are written, in place.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from codeqa.config import Settings
from codeqa.index import Index

SOURCE = (".py", ".ts", ".tsx", ".js", ".go", ".rb", ".php")


def git(repo: Path, *args: str) -> None:
    env = {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@x", "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@x",
           "PATH": "/usr/bin:/bin:/usr/local/bin", "HOME": str(repo)}  # fmt: skip
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, env=env)


def edit(repo: Path, files: list[Path], tag: str) -> None:
    for path in files:
        comment = "#" if path.suffix in (".py", ".rb") else "//"
        path.write_text(path.read_text(errors="replace") + f"\n{comment} codeqa bench edit {tag}\n")
    git(repo, "commit", "-qam", f"edit {tag}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("tree", type=Path)
    parser.add_argument("--changes", type=int, default=5)
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="codeqa-update-bench-"))
    try:
        repo = base / "repo"
        shutil.copytree(args.tree, repo, ignore=shutil.ignore_patterns(".git"))
        git(repo, "init", "-q", "-b", "main")
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", "import")
        settings = Settings(home=base / "home")
        candidates = sorted(p for p in repo.rglob("*") if p.suffix in SOURCE and "test" not in p.as_posix().lower())
        first, second = candidates[: args.changes], candidates[args.changes : 2 * args.changes]

        started = time.perf_counter()
        report = Index.build(str(repo), settings, name="bench").report
        cold = time.perf_counter() - started
        print(f"tree {args.tree.name}: {report.files} files, {report.chunks} chunks; first index (cold) {cold:.1f} s")

        edit(repo, first, "full")
        started = time.perf_counter()
        full = Index.build(str(repo), settings, name="bench").report
        full_s = time.perf_counter() - started
        print(f"full re-index after {len(first)} changed files: {full_s:.1f} s  (embedded {full.embedded}, "
              f"stages {full.timings})")  # fmt: skip

        edit(repo, second, "update")
        started = time.perf_counter()
        update = Index.open("bench", settings).update().report
        update_s = time.perf_counter() - started
        print(f"update after {len(second)} changed files:     {update_s:.1f} s  (embedded {update.embedded}, "
              f"carried {update.carried} of {update.chunks}, stages {update.timings})")  # fmt: skip
        print(f"update / full re-index: {update_s / full_s:.2f}")
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
