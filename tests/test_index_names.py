"""Index names: derived from what the repository is, and never handed to another source (issue #37).

Two bare mirrors kept as ``<owner>+<name>/repo`` (how mirrors are laid out on disk) both used to be named "repo",
and the second replaced the first without a word. Each face is driven for real: the CLI, the app's Home page
(``AppTest``), the HTTP API under uvicorn, and the library's writer itself.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import anyio
import httpx
import pytest
from typer.testing import CliRunner

from codeqa.cli import app as cli
from codeqa.config import Settings
from codeqa.errors import IndexNameTakenError
from codeqa.index import Index
from codeqa.source import parse_source, source_key
from codeqa_ui import state
from tests.conftest import init_repo
from tests.helpers import build_index, search_hits
from tests.service_servers import api_server, server_env
from tests.test_app import app, button, clean_streamlit_caches, index_table, no_llm, ok, texts, wait_for_job
from tests.test_mcp import call, mcp_session

__all__ = ["clean_streamlit_caches", "no_llm"]  # the app's autouse fixtures, for the Home page test here

CLICK = {"click/core.py": 'def command(name):\n    """Turn a function into a command line tool."""\n    return name\n'}
REQUESTS = {"requests/sessions.py": 'def get(url):\n    """Send a GET request over a session."""\n    return url\n'}


def mirror(base: Path, owner_name: str, files: dict[str, str]) -> Path:
    """A bare mirror at ``base/<owner+name>/repo``, as a mirroring tool lays them out."""
    work = init_repo(base / "work" / owner_name, files)
    target = base / "mirrors" / owner_name / "repo"
    subprocess.run(["git", "clone", "-q", "--mirror", str(work), str(target)], check=True)
    return target


@pytest.fixture
def click(tmp_path: Path) -> Path:
    return mirror(tmp_path, "pallets+click", CLICK)


@pytest.fixture
def requests(tmp_path: Path) -> Path:
    return mirror(tmp_path, "psf+requests", REQUESTS)


def codeqa(home: Path, *args: str):
    result = CliRunner().invoke(cli, list(args), env={"CODEQA_HOME": str(home), "COLUMNS": "300"})
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), result.exception
    return result


def one_line(text: str) -> str:
    return " ".join(text.split())


# -- how names are derived -------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("folder", "name"),
    [
        ("mirrors/pallets+click/repo", "pallets-click"),  # a mirror's path ends in /repo: the parent says which
        ("mirrors/pallets+click/repo.git", "pallets-click"),
        ("work/shop/.git", "shop"),
        ("mirrors/click.git", "click"),  # names that already say what the repository is are kept
        ("work/shop", "shop"),
        ("work/shop/src", "shop-src"),  # a part of a project: whose part
        ("work/shop/code", "shop-code"),
    ],
)
def test_a_folder_is_named_for_the_repository_it_holds(tmp_path: Path, folder: str, name: str):
    (tmp_path / folder).mkdir(parents=True)
    assert parse_source(str(tmp_path / folder)).default_name == name
    assert parse_source((tmp_path / folder).as_uri()).default_name == name


def test_urls_keep_their_names_and_one_repository_has_one_key(tmp_path: Path):
    assert parse_source("pallets/click").default_name == "pallets-click"
    assert parse_source("https://gitlab.com/g/sub/proj").default_name == "sub-proj"
    spellings = ["pallets/click", "https://github.com/Pallets/click.git", "git@github.com:pallets/click.git",
                 "https://github.com/pallets/click/tree/main"]  # fmt: skip
    assert len({source_key(parse_source(s).display) for s in spellings}) == 1
    assert source_key(str(tmp_path / "a")) == source_key((tmp_path / "a").as_uri()) != source_key(str(tmp_path))


# -- the command line ------------------------------------------------------------------------------------------------
def test_two_mirrors_both_in_a_folder_named_repo_get_two_indexes(click: Path, requests: Path, isolated_home: Path):
    first = codeqa(isolated_home, "index", str(click), "--no-map")
    assert first.exit_code == 0, first.output
    assert "Indexed pallets-click" in first.output
    second = codeqa(isolated_home, "index", str(requests), "--no-map")
    assert second.exit_code == 0, second.output
    assert "Indexed psf-requests" in second.output
    listed = codeqa(isolated_home, "list")
    assert "pallets-click" in listed.output and "psf-requests" in listed.output
    found = codeqa(isolated_home, "search", "pallets-click", "a command line tool", "-k", "1")
    assert found.exit_code == 0 and "click/core.py" in found.output
    found = codeqa(isolated_home, "search", "psf-requests", "send a GET request", "-k", "1")
    assert found.exit_code == 0 and "requests/sessions.py" in found.output


def test_a_name_holding_another_source_is_refused_and_kept(click: Path, requests: Path, isolated_home: Path):
    assert codeqa(isolated_home, "index", str(click), "--name", "shop", "--no-map").exit_code == 0
    before = Index.open("shop", Settings(home=isolated_home)).manifest
    refused = codeqa(isolated_home, "index", str(requests), "--name", "shop", "--no-map")
    assert refused.exit_code == IndexNameTakenError.exit_code == 2
    message = one_line(refused.output)
    assert message.startswith("error: The index 'shop' holds another source")
    assert str(click) in message and str(requests) in message and "--name" in message
    assert "Indexed" not in refused.output
    found = codeqa(isolated_home, "search", "shop", "a command line tool", "-k", "1")
    assert found.exit_code == 0 and "click/core.py" in found.output
    after = Index.open("shop", Settings(home=isolated_home)).manifest
    assert (after.source, after.key) == (before.source, before.key)


def test_the_writer_refuses_it_too_under_the_lock(click: Path, requests: Path, settings: Settings):
    """The library's own build (what a face that skipped the early check would reach) never replaces it either."""
    build_index(str(click), settings, name="shop")
    with pytest.raises(IndexNameTakenError, match="holds another source"):
        build_index(str(requests), settings, name="shop")
    assert search_hits("shop", "a command line tool", settings, k=1)[0].chunk.path == "click/core.py"
    assert [m.name for m in Index.all(settings)] == ["shop"]


def test_the_same_source_again_is_an_update(click: Path, isolated_home: Path):
    assert codeqa(isolated_home, "index", str(click), "--no-map").exit_code == 0
    again = codeqa(isolated_home, "index", click.as_uri(), "--no-map")  # the same mirror, spelled as a URL
    assert again.exit_code == 0, again.output
    assert "Indexed pallets-click" in again.output and "newly embedded 0" in again.output
    # an index an earlier codeqa (or the user) named otherwise stays the one this source updates
    assert codeqa(isolated_home, "remove", "pallets-click", "--yes").exit_code == 0
    assert codeqa(isolated_home, "index", str(click), "--name", "clicky", "--no-map").exit_code == 0
    kept = codeqa(isolated_home, "index", str(click), "--no-map")
    assert kept.exit_code == 0 and "Indexed clicky" in kept.output
    assert [m.name for m in Index.all(Settings(home=isolated_home))] == ["clicky"]


# -- the app ---------------------------------------------------------------------------------------------------------
def test_home_indexes_both_mirrors_and_refuses_a_taken_name(click: Path, requests: Path):
    at = ok(app())
    for source in (click, requests):
        at.text_input[0].set_value(str(source))
        at = wait_for_job(ok(button(at, "Index").click().run()))
    assert sorted(index_table(at)["Name"]) == ["pallets-click", "psf-requests"]
    at.text_input[0].set_value(str(requests))
    at.text_input[3].set_value("pallets-click")  # Index name
    at = ok(button(at, "Index").click().run())
    error = texts(at.error)
    assert "The index 'pallets-click' holds another source" in error and "Index name" in error
    assert len(state.jobs().jobs) == 2  # no third job was started
    assert sorted(index_table(at)["Name"]) == ["pallets-click", "psf-requests"]


# -- the HTTP API and MCP --------------------------------------------------------------------------------------------
def test_the_api_answers_409_with_the_message(click: Path, requests: Path, settings: Settings):
    build_index(str(click), settings, name="shop")
    with api_server(server_env(settings), "--allow-write") as url:
        refused = httpx.post(f"{url}/jobs", json={"source": str(requests), "name": "shop"})
        assert refused.status_code == 409, refused.text
        error = refused.json()["error"]
        assert error["type"] == "IndexNameTakenError" and str(click) in error["message"]
        assert httpx.get(f"{url}/indexes").json()["indexes"][0]["source"] == str(click)


def test_mcp_says_so_as_a_tool_error(click: Path, requests: Path, settings: Settings):
    build_index(str(click), settings, name="shop")

    async def scenario() -> None:
        async with mcp_session(server_env(settings), "--allow-write") as client:
            failed, error = await call(client, "index", source=str(requests), name="shop")
            assert failed and error["error"]["type"] == "IndexNameTakenError"
            assert str(click) in error["error"]["message"] and str(requests) in error["error"]["message"]

    anyio.run(scenario)
    assert Index.open("shop", settings).manifest.source == str(click)
