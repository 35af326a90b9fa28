"""Chroma's SQLite and Python's ``sqlite3`` never hold the store's database in the same process, and two processes
opening a new store at once do not both migrate it.

A second SQLite library on the same file breaks SQLite's locking (closing any descriptor drops the process's POSIX
locks): re-indexing in the app then failed now and then with "database disk image is malformed".
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from codeqa.config import Settings
from codeqa.index import Index
from codeqa.store import Store
from tests.conftest import git
from tests.helpers import build_index, search_hits
from tests.sample_repo import SAMPLE_FILES


def test_build_update_and_remove_open_chromas_database_only_in_child_processes(
    make_git_repo, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[str] = []
    connect = sqlite3.connect

    def recording(database, *args, **kwargs):
        opened.append(str(database))
        return connect(database, *args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", recording)
    repo = make_git_repo(SAMPLE_FILES)
    build_index(str(repo), settings, name="shop")
    build_index(str(repo), settings, name="shop")  # a re-index drops the old collection and gives space back
    (repo / "extra.py").write_text("def extra():\n    return 1\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "extra")
    Index.open("shop", settings).update()
    assert search_hits("shop", "password hashing", settings)
    Index.open("shop", settings).remove()
    in_process = [path for path in opened if Path(path.removeprefix("file:").split("?")[0]).name == "chroma.sqlite3"]
    assert in_process == []
    assert Store(settings).list_manifests() == []


def test_two_processes_open_a_new_store_at_once(tmp_path: Path) -> None:
    """Both used to run Chroma's migrations on the fresh file; one failed with "table … already exists"."""
    code = (
        "from codeqa.config import Settings; from codeqa.store import Store; print(Store(Settings()).list_manifests())"
    )
    for round_ in range(4):
        env = {"CODEQA_HOME": str(tmp_path / f"home{round_}"), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
        procs = [subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True) for _ in range(3)]  # fmt: skip
        for proc in procs:
            out, err = proc.communicate(timeout=120)
            assert proc.returncode == 0, err[-1500:]
            assert out.strip() == "[]"
