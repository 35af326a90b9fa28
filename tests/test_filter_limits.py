"""Glob and path filters are bounded and compiled once per request (security #18 finding 3).

One 4.7 KB search with 300 globs took 32.7 s on a 25k-chunk index (every glob was tried on every chunk row), and 45
parallel 20-glob searches slowed everyone else's search to 20 s. Now a filter has at most 50 values of at most 300
characters (a clear 422 from the API, one line from the CLI), and globs are one pattern tried once per file.
"""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from codeqa.config import Settings
from codeqa.errors import QueryError
from codeqa.retrieve import Filters
from codeqa.searchfiles.table import ChunkTable
from tests.indexed_home import build_sample_index
from tests.service_servers import api_server, server_env

GLOBS_20 = [f"pkg{n}/**/*.py" for n in range(10)] + [f"*{n}*test*" for n in range(10)]


class CountedPattern:
    """A compiled pattern that counts the strings it was tried on."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern, self.tried = pattern, 0

    def match(self, text: str) -> re.Match[str] | None:
        self.tried += 1
        return self.pattern.match(text)


def synthetic_table(rows: int = 25_000, files: int = 3_000) -> ChunkTable:
    table = ChunkTable()
    for row in range(rows):
        table.ids.append(f"c{row}")
        table.paths.append(f"pkg{row % 40}/sub{row % 7}/module_{row % files}.py")
        table.symbols.append(f"f{row}")
        table.kinds.append("function")
        table.layers.append("core")
        table.languages.append("python")
        table.starts.append(1)
        table.ends.append(10)
    return table


def test_fifty_globs_on_25k_rows_are_one_pass_per_file(monkeypatch: pytest.MonkeyPatch):
    """The 50 globs become one pattern, tried once per file (21,000 files), not per chunk row (25,000) or per glob and
    row (1.25M)."""
    table = synthetic_table()
    globs = tuple(GLOBS_20 + [f"pkg{n}/sub3/*_1?.py" for n in range(30)])
    compiled: list[CountedPattern] = []
    real_compile = re.compile

    def counted_compile(pattern: str, flags: int = 0) -> CountedPattern:
        compiled.append(CountedPattern(real_compile(pattern, flags)))
        return compiled[-1]

    with monkeypatch.context() as patch:
        patch.setattr(re, "compile", counted_compile)
        mask = Filters(globs=globs).mask(table)
    assert mask is not None and [pattern.tried for pattern in compiled] == [len(set(table.paths))] == [21_000]
    expected = {path: any(fnmatch.fnmatchcase(path, g) for g in globs) for path in set(table.paths)}
    assert [bool(x) for x in mask] == [expected[path] for path in table.paths]
    both = Filters(paths=("pkg3", "pkg4/sub1"), globs=("*_2?.py",)).mask(table)
    assert both is not None and all(
        ok == ((p.startswith(("pkg3/", "pkg4/sub1/"))) and fnmatch.fnmatchcase(p, "*_2?.py"))
        for ok, p in zip(both, table.paths, strict=True)
    )


@pytest.mark.parametrize(
    ("scope", "message"),
    [
        ({"globs": [f"src/{n}/**/*.py" for n in range(300)]}, "Too many glob filters (300): at most 50"),
        ({"paths": [f"dir{n}" for n in range(51)]}, "Too many path filters (51)"),
        ({"globs": ["*" + "a" * 400]}, "A glob filter is 401 characters long: at most 300"),
        ({"languages": ["x" * 301]}, "A language filter is 301 characters long"),
    ],
)
def test_filters_over_the_limits_are_refused(scope: dict, message: str):
    with pytest.raises(QueryError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Filters(**{key: tuple(value) for key, value in scope.items()})


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Settings, Path]:
    return build_sample_index(tmp_path_factory.mktemp("limits"))


def test_the_api_refuses_300_globs_by_its_schema_and_answers_20_globs(indexed):
    with api_server(server_env(indexed[0])) as url:
        question = {"question": "how is the password hashed?", "k": 5}
        refused = httpx.post(
            f"{url}/indexes/shop/search", json={**question, "globs": [f"src/{n}/*" for n in range(300)]}
        )
        assert refused.status_code == 422  # by the request schema, before any search (the message says so)
        assert refused.json()["error"]["message"] == (
            "Invalid request: globs: List should have at most 50 items after validation, not 300."
        )  # the schema states the same limit (maxItems), so a client can keep to it
        scoped = httpx.post(f"{url}/indexes/shop/search", json={**question, "globs": ["shop/*.py", *GLOBS_20[1:]]})
        assert scoped.status_code == 200
        assert {r["path"].split("/")[0] for r in scoped.json()["results"]} == {"shop"}
        long_path = httpx.post(f"{url}/indexes/shop/ask", json={**question, "paths": ["a" * 301]})
        assert long_path.status_code == 422 and "at most 300" in long_path.json()["error"]["message"]


def test_the_cli_says_the_limits(indexed, monkeypatch: pytest.MonkeyPatch):
    from codeqa.cli import app

    monkeypatch.setenv("CODEQA_HOME", str(indexed[0].home))
    globs = [arg for n in range(60) for arg in ("--glob", f"src/{n}/*.py")]
    result = CliRunner().invoke(app, ["search", "shop", "password hashing", *globs])
    assert result.exit_code == QueryError.exit_code and "Traceback" not in result.output
    assert "Too many glob filters (60): at most 50" in " ".join(result.output.split())
