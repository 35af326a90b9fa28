"""codeqa as a user installs it: a wheel, not a checkout (#37 item 1).

An editable install reads every file from the checkout, so it hides what a wheel leaves out; these tests look at
what the wheel ships:
- every file in git under ``codeqa/`` and ``codeqa_ui/`` is a module or matched by ``package-data`` (fast).
"""

from __future__ import annotations

import glob
import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("codeqa", "codeqa_ui")


def tracked(*paths: str) -> list[str]:
    """Files git knows under ``paths`` (tracked, or new and not ignored), relative to the checkout."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "--", *paths],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.splitlines()  # fmt: skip
    return sorted(path for path in listed if (ROOT / path).is_file())


def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def is_module(path: str, root: Path = ROOT) -> bool:
    """A ``.py`` file whose folders are all packages (``__init__.py``): setuptools' package finder ships it."""
    parts = Path(path).parts
    return path.endswith(".py") and all((root / Path(*parts[:depth]) / "__init__.py").is_file()
                                        for depth in range(1, len(parts)))  # fmt: skip


def package_data_files(package_data: dict[str, list[str]], root: Path = ROOT) -> set[str]:
    """What ``package-data`` puts in a wheel, found the way setuptools finds it (``glob`` under each package)."""
    found: set[str] = set()
    for package, patterns in package_data.items():
        folder = root / package.replace(".", "/")
        for pattern in patterns:
            found.update(Path(hit).relative_to(root).as_posix() for hit in glob.glob(str(folder / pattern),
                                                                                      recursive=True))  # fmt: skip
    return {path for path in found if (root / path).is_file()}


def unshipped(files: list[str], package_data: dict[str, list[str]], root: Path = ROOT) -> list[str]:
    """Files that a wheel would leave out: neither modules nor matched by ``package-data``."""
    shipped = package_data_files(package_data, root)
    return [path for path in files if not is_module(path, root) and path not in shipped]


def test_every_file_in_the_packages_ships_in_the_wheel():
    """A data file added without a ``package-data`` glob fails here, not in a user's install."""
    files = tracked(*PACKAGES)
    package_data = pyproject()["tool"]["setuptools"]["package-data"]
    assert unshipped(files, package_data) == []
    # what the code reads at run time, among them those the wheel used to leave out
    read_at_run_time = {"codeqa/chunk/resolve/rules.toml", "codeqa/chunk/queries/python-tags.scm",
                        "codeqa/frameworks/conventions/rails.toml", "codeqa/retrieve/ranker.json",
                        "codeqa/models/static-code/model.safetensors"}  # fmt: skip
    assert read_at_run_time <= package_data_files(package_data)
    scm = [path for path in files if path.endswith(".scm")]
    assert len(scm) >= 20 and not unshipped(scm, package_data)


def test_a_data_file_without_a_glob_is_reported(tmp_path: Path):
    files = ["pkg/__init__.py", "pkg/rules.toml", "pkg/q/a-tags.scm", "pkg/entry/app.py", "pkg/sub/mod.py"]
    for path in [*files, "pkg/sub/__init__.py"]:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("")
    assert unshipped(files, {"pkg": ["rules.toml"]}, tmp_path) == ["pkg/q/a-tags.scm", "pkg/entry/app.py"]
    assert unshipped(files, {"pkg": ["*.toml", "q/*.scm", "entry/*.py"]}, tmp_path) == []
