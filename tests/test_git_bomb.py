"""A git bomb served by a real ``git daemon`` on 127.0.0.1: a repository of a few kilobytes whose tree names one blob
under 30,000 paths. It is refused from its tree, before checkout writes a file, and nothing of it stays in the data
dir. Clones that no index owns (a refused or killed run's, a removed index's) are swept by the next clone and by
``codeqa repair``; a clone an index owns, or a run is using, is kept."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from codeqa.cli import app
from codeqa.config import Settings
from codeqa.errors import ScanError
from codeqa.index import Index
from tests.conftest import git, init_repo
from tests.helpers import build_index
from tests.test_local_sources import git_daemon, mirror  # noqa: F401 (a fixture)

DIRS, FILES_PER_DIR = 30, 1000  # 30,000 paths, one blob
runner = CliRunner()


@pytest.fixture
def bomb(tmp_path: Path) -> Path:
    """``served/bomb.git``: one commit whose tree is 30 directories of the same 1,000 entries of one blob."""
    bare = tmp_path / "served" / "bomb.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    blob = subprocess.run(["git", "hash-object", "-w", "--stdin"], cwd=bare, input=b"x = 1\n" * 40,
                          capture_output=True, check=True).stdout.decode().strip()  # fmt: skip
    leaf = _mktree(bare, "".join(f"100644 blob {blob}\tf{i:04d}.py\n" for i in range(FILES_PER_DIR)))
    top = _mktree(bare, "".join(f"040000 tree {leaf}\td{i:02d}\n" for i in range(DIRS)))
    commit = git(bare, "commit-tree", top, "-m", "bomb").strip()
    git(bare, "update-ref", "refs/heads/main", commit)
    git(bare, "symbolic-ref", "HEAD", "refs/heads/main")
    return bare


def _mktree(bare: Path, listing: str) -> str:
    return subprocess.run(["git", "mktree"], cwd=bare, input=listing.encode(), capture_output=True,
                          check=True).stdout.decode().strip()  # fmt: skip


def _footprint(home: Path) -> tuple[int, int]:
    """(files and folders, bytes) under the data dir."""
    entries, size = 0, 0
    for folder, dirs, files in os.walk(home):
        entries += len(dirs) + len(files)
        size += sum(os.lstat(os.path.join(folder, name)).st_size for name in files)
    return entries, size


def _clones(settings: Settings) -> list[str]:
    return sorted(path.name for path in settings.clones_dir.iterdir()) if settings.clones_dir.is_dir() else []


def test_a_git_bomb_is_refused_from_its_tree_before_checkout(bomb: Path, isolated_home: Path, monkeypatch):
    monkeypatch.setenv("CODEQA_MAX_FILES", "1000")
    settings = Settings(home=isolated_home)
    assert settings.max_files == 1000
    with git_daemon(bomb.parent) as port:
        url = f"git://127.0.0.1:{port}/bomb.git"
        with pytest.raises(ScanError) as refused:
            build_index(url, settings, name="bomb")
    entries, size = _footprint(isolated_home)
    assert entries < 100 and size < 1_000_000, (entries, size)  # its checkout was 30,000 files, 7.2 MB
    assert "refused before checkout: its tree holds more than 1,000 files" in str(refused.value)
    assert _clones(settings) == []
    for command in (["list"], ["repair"]):
        result = runner.invoke(app, command)
        assert result.exit_code == 0, result.output
        assert _clones(settings) == [] and _footprint(isolated_home)[0] < 100


def test_a_tree_over_the_byte_limit_is_refused_before_checkout(bomb: Path, isolated_home: Path, monkeypatch):
    monkeypatch.setenv("CODEQA_MAX_TOTAL_BYTES", "1000000")  # 30,000 × 240 bytes = 7.2 MB
    settings = Settings(home=isolated_home)
    with git_daemon(bomb.parent) as port, pytest.raises(ScanError) as refused:
        build_index(f"git://127.0.0.1:{port}/bomb.git", settings, name="bomb")
    assert _clones(settings) == [] and _footprint(isolated_home)[0] < 100
    assert "refused before checkout: its files hold more than 1,000,000 bytes" in str(refused.value)


def test_a_clone_the_scan_refuses_is_deleted(tmp_path: Path, settings: Settings):
    served = tmp_path / "served"
    source = init_repo(tmp_path / "images", {"logo.png": b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4})
    git(tmp_path, "clone", "-q", "--bare", str(source), str(served / "images.git"))
    with git_daemon(served) as port, pytest.raises(ScanError, match="Nothing to index"):
        build_index(f"git://127.0.0.1:{port}/images.git", settings, name="images")  # checked out, then refused
    assert _clones(settings) == []


def test_clones_no_index_owns_are_swept_and_owned_or_busy_ones_kept(mirror: Path, settings: Settings):  # noqa: F811
    from codeqa.source.leftovers import in_use

    settings.clones_dir.mkdir(parents=True)
    killed = settings.clones_dir / "left-0123abcd"  # a run killed after its swap, before its index was written
    (killed / "src").mkdir(parents=True)
    (killed / "src" / "a.py").write_text("x = 1\n")
    partial = settings.clones_dir / ".left-0123abcd.999999999.abcd1234.partial"  # a dead pid's temporary tree
    partial.mkdir()
    busy = settings.clones_dir / "busy-0123abcd"  # a live run is using it
    busy.mkdir()
    with git_daemon(mirror.parent) as port:
        url = f"git://127.0.0.1:{port}/shop.git"
        with in_use(settings.home_dir / "locks", busy.name):
            build_index(url, settings, name="shop")  # the start of a clone sweeps
            shop = [name for name in _clones(settings) if name.startswith("shop-")]
            assert _clones(settings) == sorted(["busy-0123abcd", *shop]) and len(shop) == 1
        result = runner.invoke(app, ["repair"])
        assert result.exit_code == 0, result.output
        assert "busy-0123abcd: a clone no index owns" in result.output.replace("\n", "")
        assert _clones(settings) == shop  # owned by index shop
        Index.open("shop", settings).remove()
        result = runner.invoke(app, ["repair"])
        assert result.exit_code == 0 and _clones(settings) == [], result.output  # its index is gone
