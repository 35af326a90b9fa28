"""Data dirs holding real indexes, built once per test module (building takes seconds): the sample repository, or
small apps a test module declares."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from codeqa.config import Settings
from tests.conftest import init_repo
from tests.helpers import build_index
from tests.sample_repo import SAMPLE_FILES


def make_sample_repo(root: Path) -> Path:
    return init_repo(root, SAMPLE_FILES)


def build_sample_index(base: Path, name: str = "shop") -> tuple[Settings, Path]:
    """(settings whose home holds index ``name``, the repository it was built from)."""
    repo = make_sample_repo(base / "repo")
    settings = Settings(home=base / "home")
    build_index(str(repo), settings, name=name)
    return settings, repo


def build_apps_home(base: Path, apps: Mapping[str, Mapping[str, str]]) -> Path:
    """A data dir ``base/home`` holding one index per app ({index name: {path: text}}), each built by the real
    pipeline from its own git repository ``base/<name>``."""
    home = base / "home"
    for name, files in apps.items():
        build_index(str(init_repo(base / name, dict(files))), Settings(home=home), name=name)
    return home
