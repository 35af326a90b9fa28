"""Disk space: a full disk (a real 20 MB tmpfs as CODEQA_HOME) is one clear error, the failed run gives its space
back and the index that was there keeps answering; re-indexing and removing never leave space behind (Chroma keeps
each deleted collection's vector folder and never shrinks its database unless codeqa reclaims them)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import init_repo, write_files
from tests.sample_repo import SAMPLE_FILES

QUESTION = "how are passwords checked when a user logs in?"


def codeqa(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CODEQA_HOME": str(home), "CODEQA_LLM_BACKEND": "none"}
    return subprocess.run([sys.executable, "-m", "codeqa", *args], capture_output=True, text=True, env=env,
                          timeout=600, cwd=Path(__file__).resolve().parent.parent)  # fmt: skip


def size(path: Path, *, skip: tuple[str, ...] = ()) -> int:
    """Bytes on disk under ``path`` (allocated blocks, as ``du`` counts them), leaving out names in ``skip``."""
    total = 0
    for item in path.rglob("*"):
        if item.is_file() and not item.is_symlink() and not any(part in skip for part in item.relative_to(path).parts):
            total += item.stat().st_blocks * 512
    return total


def generated_repo(root: Path, packages: int, files: int) -> Path:
    body = 'def func_{p}_{f}_{i}(value):\n    """Compute part {i} of report {p}.{f}."""\n    return value * {i}\n\n\n'
    write_files(root, {
        f"pkg{p}/mod{f}.py": "".join(body.format(p=p, f=f, i=i) for i in range(4))
        for p in range(packages) for f in range(files)
    })  # fmt: skip
    return root


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A real 20 MB tmpfs (mounting needs root, which the test machines give; elsewhere this test cannot run)."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=20m", "tmpfs", str(mount)], check=True)
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


@pytest.mark.slow
def test_a_full_disk_is_one_clear_error_and_gives_its_space_back(tmp_path: Path, small_disk: Path) -> None:
    home = small_disk / "home"
    small = init_repo(tmp_path / "shop", SAMPLE_FILES)
    big = generated_repo(tmp_path / "big", packages=80, files=50)
    assert codeqa(home, "index", str(small), "--name", "shop").returncode == 0
    database = home / "chroma" / "chroma.sqlite3"
    used, db = size(home, skip=("chroma.sqlite3",)), database.stat().st_size

    failed = codeqa(home, "index", str(big), "--name", "big")
    assert failed.returncode == 5, failed.stdout + failed.stderr
    assert "Traceback" not in failed.stdout + failed.stderr
    assert failed.stderr.startswith("error: The disk holding") and len(failed.stderr.strip().splitlines()) == 1
    assert "ran out of space" in failed.stderr and "previous index is unchanged" in failed.stderr

    left = {str(p.relative_to(home)): p.stat().st_size for p in home.rglob("*") if p.is_file()}
    assert size(home, skip=("chroma.sqlite3",)) <= used + 256 * 1024, left  # vector folder, search files, cache
    assert database.stat().st_size <= db + 512 * 1024  # the database gave its pages back too
    listed = codeqa(home, "list")
    assert listed.returncode == 0 and "shop" in listed.stdout and "big" not in listed.stdout
    searched = codeqa(home, "search", "shop", QUESTION, "-k", "3")
    assert searched.returncode == 0 and "shop/auth.py" in searched.stdout, searched.stderr
    again = codeqa(home, "index", str(small), "--name", "shop")
    assert again.returncode == 0, again.stderr


def test_reindexing_and_removing_leave_no_space_behind(tmp_path: Path) -> None:
    home = tmp_path / "home"
    repo = generated_repo(tmp_path / "repo", packages=6, files=40)
    assert codeqa(home, "list").returncode == 0
    start = size(home)  # an empty store
    assert codeqa(home, "index", str(repo), "--name", "gen").returncode == 0
    cache = size(home / "cache")
    for _ in range(4):  # unchanged content: every run writes a new generation and drops the old one
        assert codeqa(home, "index", str(repo), "--name", "gen").returncode == 0
    assert codeqa(home, "remove", "gen", "--yes").returncode == 0

    assert size(home / "cache") <= cache + 64 * 1024  # the cache holds the same vectors as after one run
    assert size(home, skip=("cache",)) <= start + 256 * 1024, sorted(p.name for p in (home / "chroma").iterdir())
    folders = [p for p in (home / "chroma").iterdir() if p.is_dir()]
    assert len(folders) <= 1  # at most the registry's own
    assert not list((home / "indexes").iterdir())
