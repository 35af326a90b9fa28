"""Shared fixtures: an isolated data dir per test and real temporary git repositories."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from codeqa.config import Settings, get_settings


@pytest.fixture(scope="session", autouse=True)
def models_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Derived models (the distilled static embedder) are made once per test session, not once per test.

    Session-scoped and set in the environment, so module-scoped index fixtures share it too. Developers may point
    ``CODEQA_TEST_MODELS_DIR`` at a folder made by an earlier session to skip the distillation (CI does not).
    """
    reused = os.environ.get("CODEQA_TEST_MODELS_DIR")
    directory = Path(reused) if reused else tmp_path_factory.mktemp("codeqa-models")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CODEQA_MODELS_DIR", str(directory))
        yield directory


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch, models_dir: Path) -> Path:
    """Every test gets its own CODEQA_HOME so nothing touches the user's real ~/.codeqa."""
    home = tmp_path_factory.mktemp("codeqa-home")
    monkeypatch.setenv("CODEQA_HOME", str(home))
    for name in ("CODEQA_CHROMA_URL", "CODEQA_GITHUB_TOKEN", "GITHUB_TOKEN", "CODEQA_EMBEDDING_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("CODEQA_WARM_APP", "false")  # no background warm-up racing a test (tests that need it opt in)
    get_settings.cache_clear()
    yield home
    get_settings.cache_clear()


@pytest.fixture
def settings(isolated_home: Path, models_dir: Path) -> Settings:
    return Settings(home=isolated_home, models_dir=models_dir)


@pytest.fixture(scope="module")
def apps_home(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data dir holding a real index of each app the test module declares in ``INDEXED_APPS`` ({index name:
    {path: text}}), built once per module and shared by its tests (the answers read it, never write it)."""
    from tests.indexed_home import build_apps_home  # imports this module: not at the top

    apps = getattr(request.module, "INDEXED_APPS", None)
    if not apps:
        pytest.fail(f"{request.module.__name__} uses the apps_home fixture: declare INDEXED_APPS = {{name: files}}")
    return build_apps_home(tmp_path_factory.mktemp(request.module.__name__.rsplit(".", 1)[-1]), apps)


@pytest.fixture
def apps_settings(apps_home: Path, monkeypatch: pytest.MonkeyPatch) -> Settings:
    """Settings over ``apps_home``, also this test's CODEQA_HOME (for the CLI and what reads the environment)."""
    monkeypatch.setenv("CODEQA_HOME", str(apps_home))
    return Settings(home=apps_home)


def git(cwd: Path, *args: str) -> str:
    result = subprocess.run(
        ["git", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
        env={
            "GIT_AUTHOR_NAME": "Test",
            "GIT_AUTHOR_EMAIL": "test@example.com",
            "GIT_COMMITTER_NAME": "Test",
            "GIT_COMMITTER_EMAIL": "test@example.com",
            "HOME": str(cwd),
            "PATH": "/usr/bin:/bin:/usr/local/bin",
        },
    )
    return result.stdout.strip()


GitRepoFactory = Callable[[dict[str, str | bytes]], Path]


@pytest.fixture
def make_git_repo(tmp_path: Path) -> GitRepoFactory:
    """Create a real git repository with the given files committed; returns its working tree path."""
    counter = {"n": 0}

    def factory(files: dict[str, str | bytes], *, bare_copy: bool = False) -> Path:
        counter["n"] += 1
        root = init_repo(tmp_path / f"repo{counter['n']}", files)
        if bare_copy:
            bare = tmp_path / f"repo{counter['n']}.git"
            subprocess.run(["git", "clone", "-q", "--bare", str(root), str(bare)], check=True)
            return bare
        return root

    return factory


def init_repo(root: Path, files: dict[str, str | bytes]) -> Path:
    """A real git repository at ``root`` with ``files`` committed on branch main."""
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q", "-b", "main")
    write_files(root, files)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "initial", "--allow-empty")
    return root


def write_files(root: Path, files: dict[str, str | bytes]) -> None:
    for rel, content in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")
