"""The `codeqa` command: real library underneath, one-line errors, no tracebacks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from codeqa.cli import app
from tests.conftest import git
from tests.sample_repo import SAMPLE_FILES

runner = CliRunner()
PWNED = Path("/tmp/codeqa-pwned-marker")


def invoke(*args: str):
    result = runner.invoke(app, list(args))
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.fixture
def repo(make_git_repo) -> Path:
    return make_git_repo({**SAMPLE_FILES, "assets/logo.psd": "not code\n", "bin/release": "#!/bin/sh\necho hi\n"})


def test_index_list_search_remove(repo: Path):
    result = invoke("index", str(repo), "--name", "shop", "--verbose")
    assert result.exit_code == 0, result.output
    assert "Indexed shop" in result.output and "chunks" in result.output
    assert "skipped: unsupported-type 1" in result.output
    assert "    unsupported-type assets/logo.psd" in result.output  # --verbose: each skipped file and why
    assert "map: " in result.output and "chunks laid out" in result.output  # the map is ready before the app opens
    languages = result.output.split("languages: ")[1].splitlines()[0]
    assert languages.startswith("python ") and "bash 1" in languages  # largest first; a shebang script counts

    listing = runner.invoke(app, ["list"], env={"COLUMNS": "80"})
    assert "shop" in listing.output and git(repo, "rev-parse", "HEAD")[:7] in listing.output
    lines = listing.output.splitlines()
    assert all(len(line) <= 80 for line in lines) and len(lines) <= 4  # no column squeezed to a letter a line
    assert "files by language: python" in listing.output

    found = invoke("search", "shop", "where is the configuration loaded?", "-k", "3")
    assert found.exit_code == 0
    first = found.output.strip().splitlines()[0]
    assert first.startswith("shop/config.py:") and "load_config" in found.output

    scoped = invoke("search", "shop", "total", "--path", "web", "--language", "javascript")
    assert all(line.startswith("web/") for line in scoped.output.strip().splitlines())

    typo = invoke("search", "shop", "login", "--layer", "controllers")
    assert typo.exit_code == 6 and "Unknown layer 'controllers'" in typo.output, typo.output
    assert "this index has these layers:" in typo.output and "test" in typo.output and "Traceback" not in typo.output
    absent = invoke("ask", "shop", "how do migrations run?", "--layer", "migration", "--backend", "none")
    assert absent.exit_code == 6 and "No chunk in this index has layer 'migration'" in absent.output
    wrong_language = invoke("search", "shop", "login", "--language", "Python")
    assert wrong_language.exit_code == 6 and "python" in wrong_language.output.split("languages:")[1]

    assert invoke("remove", "shop", "--yes").exit_code == 0
    assert "No indexes yet" in invoke("list").output


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("index", "ext::sh -c touch% /tmp/codeqa-pwned-marker"), 2, "ext::"),
        (("index", "--", "--upload-pack=touch /tmp/codeqa-pwned-marker"), 2, ""),
        (("index", "/no/such/dir/anywhere"), 2, "No such directory"),
        (("index", "https://"), 2, ""),
        (("search", "missing", "login"), 5, "No index named 'missing'"),
        (("remove", "missing", "--yes"), 5, "No index named 'missing'"),
    ],
)
def test_bad_input_exits_with_one_line(args, code: int, message: str):
    PWNED.unlink(missing_ok=True)
    result = invoke(*args)
    assert result.exit_code == code, result.output
    assert message in result.output
    assert "Traceback" not in result.output
    assert not PWNED.exists(), "an unsafe source ran a command"


def test_empty_repo_message(make_git_repo):
    repo = make_git_repo({})
    result = invoke("index", str(repo), "--name", "empty")
    assert result.exit_code == 3
    assert "Nothing to index" in result.output


def test_real_entry_point_reports_errors_without_traceback(tmp_path: Path):
    result = subprocess.run(
        [sys.executable, "-m", "codeqa", "index", str(tmp_path / "missing")],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ},
    )
    assert result.returncode == 2
    assert "No such directory" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
