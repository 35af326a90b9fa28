"""A server's memory stays bounded (#37): of the indexes it has shown, it keeps the ``CODEQA_OPEN_INDEXES`` most
recently used in memory (search files, overview, facets, map) and releases the rest, which open again from disk."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import pytest

from codeqa.config import Settings, get_settings
from codeqa.index import Index
from codeqa.store import loaded_search_files
from codeqa_ui import state
from tests.helpers import build_index
from tests.indexed_home import make_sample_repo
from tests.test_app import OVERVIEW, clean_streamlit_caches, no_llm, ok, texts  # noqa: F401 - autouse fixtures

NAMES = ("alpha", "beta", "gamma")
CAP = 2


@pytest.fixture
def three_indexes(tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> Settings:
    repo = make_sample_repo(tmp_path / "shop")
    settings = Settings(home=isolated_home)
    for name in NAMES:
        build_index(str(repo), settings, name=name)
    monkeypatch.setenv("CODEQA_OPEN_INDEXES", str(CAP))
    get_settings.cache_clear()
    return get_settings()


def ours(settings: Settings) -> set[str]:
    folders = {str(Index.open(name, settings).folder): name for name in NAMES}
    return {folders[folder] for folder in loaded_search_files() if folder in folders}


def test_searching_more_indexes_than_the_cap_keeps_only_the_cap_loaded(three_indexes: Settings):
    first = Index.open("alpha", three_indexes)
    alive = weakref.ref(first.files)
    del first
    for name in NAMES[1:]:
        assert Index.open(name, three_indexes).files.table.paths
    gc.collect()
    assert ours(three_indexes) == {"beta", "gamma"}
    assert alive() is None  # released, not merely forgotten by the cache
    assert Index.open("alpha", three_indexes).files.table.paths  # and it opens again from disk
    assert ours(three_indexes) == {"gamma", "alpha"}


def test_the_app_keeps_the_pages_data_of_the_cap_most_recently_visited_indexes(three_indexes: Settings):
    from streamlit.testing.v1 import AppTest

    for name in NAMES:
        at = AppTest.from_file(str(Path(__file__).resolve().parent.parent / "app.py"), default_timeout=90)
        at.session_state[state.REPO_KEY] = name
        at.switch_page(OVERVIEW)
        at = ok(at.run())
        assert at.title[0].value.endswith(f"Overview of {name}")
        ok(at.switch_page("pages/1_Chat.py").run())  # Chat searches: the search files load too
    keys = {name: Index.open(name, three_indexes).manifest.key for name in NAMES}
    assert state.open_indexes().keys() == [keys["beta"], keys["gamma"]]  # alpha, visited first, was released
    assert ours(three_indexes) <= {"beta", "gamma"}
