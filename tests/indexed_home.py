"""A data dir holding a real index of the sample repository, built once per test module (building takes seconds)."""

from __future__ import annotations

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
