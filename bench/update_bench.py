"""`codeqa update` against `codeqa index` on a real tree, whole commands as a user runs them, map and overview
included: `python bench/update_bench.py TREE [--changes N] [--rounds R]`.

The tree is copied into a throw-away git repository and data dir, and indexed once (cold embedding cache). Then,
R rounds in turn: a full re-index (`codeqa index TREE --name bench`: warm cache, a new collection, the map laid out
from scratch); N source files edited and committed, then `codeqa update bench` (only those files chunked and
embedded, written in place; the map follows the change, see `codeqa/explore/follow.py`); then `codeqa update bench`
again with nothing changed. Each command is a fresh process (start-up, imports, opening the store and the model
count, as for a user); wall and CPU seconds (user + sys of the child) per command, medians over the rounds, and the
ratios to the full index. `--in-process` times the library calls instead (no start-up, no map), as before.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
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


def codeqa(home: Path, *args: str) -> tuple[float, float, str]:
    """(wall s, CPU s, stdout) of one `codeqa` command in a fresh process, run from outside any checkout."""
    env = {**os.environ, "CODEQA_HOME": str(home), "PYTHONPATH": str(ROOT), "COLUMNS": "200"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-P", "-m", "codeqa", *args], cwd=home, env=env, capture_output=True,
                          text=True, check=True)  # fmt: skip
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done.stdout


def counts(stdout: str) -> str:
    return next((line.strip() for line in stdout.splitlines() if line.strip().startswith("files ")), "?")


def whole_commands(repo: Path, home: Path, candidates: list[Path], changes: int, rounds: int) -> None:
    home.mkdir(parents=True, exist_ok=True)
    wall, cpu, _ = codeqa(home, "index", str(repo), "--name", "bench")
    print(f"first index (cold cache): {wall:.1f} s wall, {cpu:.1f} s CPU")
    times: dict[str, list[tuple[float, float]]] = {"index": [], "update": [], "nothing": []}
    for number in range(rounds):
        wall, cpu, out = codeqa(home, "index", str(repo), "--name", "bench")
        times["index"].append((wall, cpu))
        edit(repo, candidates[number * changes : (number + 1) * changes], f"round {number}")
        wall, cpu, out = codeqa(home, "update", "bench")
        times["update"].append((wall, cpu))
        wall, cpu, _ = codeqa(home, "update", "bench")
        times["nothing"].append((wall, cpu))
        last = ", ".join(f"{k} {v[-1][0]:.2f} s ({v[-1][1]:.2f} s CPU)" for k, v in times.items())
        print(f"round {number + 1}: {last}")
    print(f"tree: {counts(out)}")
    index_wall = statistics.median(w for w, _ in times["index"])
    index_cpu = statistics.median(c for _, c in times["index"])
    for name, label in (("index", "codeqa index (full, map)"), ("update", f"codeqa update ({changes} files changed)"),
                        ("nothing", "codeqa update (nothing changed)")):  # fmt: skip
        w, c = statistics.median(w for w, _ in times[name]), statistics.median(c for _, c in times[name])
        print(f"{label:<36} wall {w:6.2f} s ({w / index_wall:.2f})   CPU {c:6.2f} s ({c / index_cpu:.2f})")


def in_process(repo: Path, home: Path, candidates: list[Path], changes: int) -> None:
    from codeqa.config import Settings
    from codeqa.index import Index

    settings = Settings(home=home)
    first, second = candidates[:changes], candidates[changes : 2 * changes]
    started = time.perf_counter()
    report = Index.build(str(repo), settings, name="bench").report
    print(f"{report.files} files, {report.chunks} chunks; first index (cold) {time.perf_counter() - started:.1f} s")
    edit(repo, first, "full")
    started = time.perf_counter()
    full = Index.build(str(repo), settings, name="bench").report
    full_s = time.perf_counter() - started
    print(f"full re-index after {len(first)} changed files: {full_s:.1f} s  (stages {full.timings})")
    edit(repo, second, "update")
    started = time.perf_counter()
    update = Index.open("bench", settings).update().report
    update_s = time.perf_counter() - started
    print(f"update after {len(second)} changed files: {update_s:.1f} s  (carried {update.carried} of {update.chunks})")
    print(f"update / full re-index: {update_s / full_s:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("tree", type=Path)
    parser.add_argument("--changes", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--in-process", action="store_true", help="time library calls (no start-up, no map)")
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="codeqa-update-bench-"))
    try:
        repo = base / "repo"
        shutil.copytree(args.tree, repo, ignore=shutil.ignore_patterns(".git"))
        git(repo, "init", "-q", "-b", "main")
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", "import")
        candidates = sorted(p for p in repo.rglob("*") if p.suffix in SOURCE and "test" not in p.as_posix().lower())
        if args.in_process:
            in_process(repo, base / "home", candidates, args.changes)
        else:
            whole_commands(repo, base / "home", candidates, args.changes, args.rounds)
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
