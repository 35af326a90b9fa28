"""A token for a private repository must not be readable by other users of the machine while the clone runs:
``--token`` puts it on the command line (``ps`` shows every process's arguments), ``--token-stdin`` does not.

Both are run as real processes cloning a private repository over smart HTTP on 127.0.0.1, while the test reads
every process's command line in ``/proc`` the way ``ps`` does."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from tests.conftest import git, write_files
from tests.git_http import git_http_server

TOKEN = "ghp_StdinOnlyToken0123456789abcdefghijkl"
ROOT = Path(__file__).resolve().parent.parent


def _served(tmp_path: Path) -> Path:
    work = tmp_path / "served" / "work"
    work.mkdir(parents=True)
    git(work, "init", "-q", "-b", "main")
    write_files(work, {f"billing/invoice_{i}.py": f"def invoice_total_{i}(lines):\n    return sum(lines)\n"
                       for i in range(200)})  # fmt: skip
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", "initial")
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(tmp_path / "served" / "billing.git")], check=True)
    return tmp_path / "served"


def _index_watching_ps(args: list[str], home: Path, stdin: str | None) -> tuple[subprocess.CompletedProcess, set]:
    """Run ``codeqa index …``; meanwhile record which processes showed the token in their command line."""
    seen: set[str] = set()
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            for entry in Path("/proc").iterdir():
                if entry.name.isdigit():
                    try:
                        cmdline = (entry / "cmdline").read_bytes()
                    except OSError:
                        continue
                    if TOKEN.encode() in cmdline:
                        seen.add(cmdline.split(b"\0")[0].decode(errors="replace"))
            time.sleep(0.01)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    env = {**os.environ, "CODEQA_HOME": str(home), "CODEQA_ALLOW_INSECURE_SOURCES": "1"}
    try:
        result = subprocess.run([sys.executable, "-m", "codeqa", "index", *args], input=stdin, capture_output=True,
                                text=True, env=env, cwd=ROOT, timeout=300)  # fmt: skip
    finally:
        done.set()
        watcher.join(5)
    return result, seen


def test_token_from_stdin_never_shows_in_ps(tmp_path: Path) -> None:
    with git_http_server(_served(tmp_path), token=TOKEN) as (base, _):
        url = f"{base}/private/billing.git"
        visible, shown = _index_watching_ps([url, "--name", "visible", "--token", TOKEN], tmp_path / "a", None)
        hidden, unseen = _index_watching_ps([url, "--name", "hidden", "--token-stdin"], tmp_path / "b", TOKEN + "\n")
    assert visible.returncode == 0 and shown, "--token is on the command line: the watcher can see it"
    assert hidden.returncode == 0, hidden.stdout + hidden.stderr
    assert "Indexed hidden" in hidden.stdout
    assert unseen == set()
    assert TOKEN not in hidden.stdout + hidden.stderr


def test_the_help_says_which_way_is_private() -> None:
    env = {**os.environ, "COLUMNS": "200"}
    result = subprocess.run([sys.executable, "-m", "codeqa", "index", "--help"], capture_output=True, text=True,
                            env=env, cwd=ROOT, timeout=60)  # fmt: skip
    text = " ".join(result.stdout.split())
    assert "--token-stdin" in text and "ps" in text and "CODEQA_GITHUB_TOKEN" in text


def test_token_stdin_without_a_token_is_one_line(tmp_path: Path) -> None:
    result, _ = _index_watching_ps(["https://github.com/o/r", "--token-stdin"], tmp_path / "c", "")
    assert result.returncode == 2 and result.stderr.startswith("error:") and "standard input" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
