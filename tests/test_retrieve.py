"""Retrieval units (tokens, query understanding, fusion, graph) and hybrid search on a real index."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from codeqa.config import Settings
from codeqa.index import Index
from codeqa.retrieve import Filters, Weights, neighbors, query_identifiers, retrieve
from codeqa.retrieve.fusion import fuse
from codeqa.searchfiles.graph import SymbolGraph
from codeqa.symbols import defined_names, referenced_names
from codeqa.tokens import code_tokens
from tests.helpers import build_index, retrieve_named
from tests.sample_repo import SAMPLE_FILES


def test_code_tokens_split_identifiers_and_keep_them_whole():
    tokens = code_tokens("def getUserName(HTTPResponse, user_id): retries")
    assert {"getusername", "get", "user", "name", "httpresponse", "http", "user_id"} <= set(tokens)
    assert "def" not in tokens
    assert code_tokens("retries") == code_tokens("retry") and code_tokens("loaded") == code_tokens("load")


def test_query_identifiers_find_code_in_prose():
    names, files = query_identifiers(
        "Calling `Session.resolve_redirects()` in requests/sessions.py raises KeyError; see HTTPAdapter.send"
    )
    assert {"resolve_redirects", "session", "httpadapter", "send", "keyerror"} <= names
    assert files == {"requests/sessions.py"}


def test_fuse_rewards_agreement():
    fused = fuse({"dense": [1, 2, 3], "lexical": [3, 1, 4], "symbol": []}, Weights())
    assert max(fused, key=fused.get) == 1
    assert fused[3] > fused[2] and fused[4] < fused[1]


def test_graph_links_uses_to_definitions():
    symbols = ["hash_password", "SessionStore.login", "SessionStore", "load_config"]
    texts = ["def hash_password(): ...", "hash_password(x)", "class SessionStore: login", "os.environ"]
    graph = SymbolGraph.build(symbols, [referenced_names(t) for t in texts])
    assert graph.callees(1) == [0]
    assert 1 in graph.callers(0)
    assert graph.callees(3) == []
    scores = graph.personalized_pagerank({1: 1.0})
    assert scores[0] > scores[3]
    assert defined_names("A.f, B.g") == ["A.f", "f", "B.g", "g"]


@pytest.fixture(scope="module")
def shop_index(tmp_path_factory: pytest.TempPathFactory):
    home = tmp_path_factory.mktemp("retrieve-home")
    repo = tmp_path_factory.mktemp("shop")
    for rel, text in SAMPLE_FILES.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    settings = Settings(home=home)
    build_index(str(repo), settings, name="shop")
    return settings


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Why does login fail with a wrong password?", "shop/auth.py"),
        ("post_with_retry gives up too early", "shop/http_client.py"),
        ("Order.total_cents returns the wrong sum", "shop/models.py"),
        ("where does the browser format prices for display?", "web/src/cart.js"),
        ("DATABASE_URL default", "shop/config.py"),
    ],
)
def test_right_file_first(shop_index: Settings, question: str, expected: str):
    result = retrieve_named("shop", question, shop_index, k=5)
    assert result.files[0].path == expected


FILTER_CASES = [
    Filters(paths=("web",)),
    Filters(paths=("shop/auth.py",)),
    Filters(languages=("javascript",)),
    Filters(layers=("test",)),
    Filters(kinds=("class",)),
    Filters(globs=("shop/*.py",)),
    Filters(paths=("shop",), kinds=("function",)),
]


@pytest.mark.parametrize("filters", FILTER_CASES)
@pytest.mark.parametrize("question", ["password login session", "price total cart", "hash_password"])
def test_filters_never_leak(shop_index: Settings, filters: Filters, question: str):
    result = retrieve_named("shop", question, shop_index, k=50, filters=filters)
    from codeqa.searchfiles import ChunkTable

    for hit in result.hits:
        chunk = hit.chunk
        table = ChunkTable()
        table.append([chunk])
        assert filters.mask(table)[0], f"{chunk.location} leaked through {filters}"
    for file in result.files:
        assert any(filters.mask(_table_of(h))[0] for h in file.hits) or not file.hits


def _table_of(hit):
    from codeqa.searchfiles import ChunkTable

    table = ChunkTable()
    table.append([hit.chunk])
    return table


def test_empty_scope_returns_nothing(shop_index: Settings):
    assert retrieve_named("shop", "login", shop_index, filters=Filters(paths=("nowhere",))).hits == []


def test_neighbors_of_a_symbol(shop_index: Settings):
    around = neighbors(Index.open("shop", shop_index), "hash_password")
    assert [h.chunk.path for h in around.definitions] == ["shop/auth.py"]
    assert any("login" in h.chunk.symbol for h in around.callers)


def test_artifacts_rebuild_from_store_when_missing(shop_index: Settings):
    import shutil

    from codeqa.searchfiles import forget_search_files

    index = Index.open("shop", shop_index)
    shutil.rmtree(index.folder)  # an index built on a shared Chroma server has no search files here
    forget_search_files(index.folder)
    result = retrieve(Index.open("shop", shop_index), "password hashing", k=3)
    assert result.files[0].path == "shop/auth.py"
    vectors = index.path("vectors.npy")
    assert vectors.exists()
    assert np.load(vectors).shape[0] == index.manifest.counts["chunks"]


def test_docs_do_not_crowd_out_code(shop_index: Settings):
    result = retrieve_named("shop", "how is configuration read from environment variables", shop_index, k=5)
    assert result.files[0].path == "shop/config.py"
    assert Path(result.files[0].path).suffix == ".py"


def test_unknown_filter_values_name_the_valid_ones():
    from codeqa.errors import QueryError
    from codeqa.explore.facets import Facets

    facets = Facets(layers={"api": 5, "test": 2}, kinds={"function": 7}, languages={"python": 7}, directories={})
    Filters(layers=("api",), languages=("python",)).validate(facets)  # present values pass
    with pytest.raises(QueryError, match=r"Unknown layer 'controllers'; this index has these layers: api, test\."):
        Filters(layers=("controllers",)).validate(facets)
    with pytest.raises(QueryError, match=r"No chunk in this index has kind 'class'; .*kinds: function\."):
        Filters(kinds=("class",)).validate(facets)
    with pytest.raises(QueryError, match=r"Unknown language 'Python'; .*languages: python\."):
        Filters(languages=("Python",)).validate(facets)
