"""End to end: real git, real tree-sitter, real packaged model, real Chroma."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from codeqa.config import PACKAGED_MODEL, Settings
from codeqa.embed import get_embedder
from codeqa.errors import (
    EmbeddingError,
    IncompatibleIndexError,
    IndexBusyError,
    IndexNotFoundError,
    QueryError,
    ScanError,
)
from codeqa.index import Index
from codeqa.locks import index_lock
from codeqa.retrieve import Filters
from codeqa.store import Store
from tests.conftest import git
from tests.helpers import build_index, search_hits
from tests.sample_repo import SAMPLE_FILES


@pytest.fixture
def sample_repo(make_git_repo) -> Path:
    return make_git_repo(SAMPLE_FILES)


@pytest.fixture
def indexed(sample_repo: Path, settings: Settings):
    report = build_index(str(sample_repo), settings, name="shop")
    return report


def top_paths(hits) -> list[str]:
    return [hit.chunk.path for hit in hits]


def test_index_records_manifest(indexed, sample_repo: Path, settings: Settings):
    manifest = Store(settings).get_manifest("shop")
    head = git(sample_repo, "rev-parse", "HEAD")
    assert manifest.sha == head
    assert manifest.source_kind == "local-git"
    assert manifest.model == settings.embedding_model == "static:code"
    assert manifest.dimension == get_embedder(settings).dimension == 256
    assert manifest.counts["files"] == len(SAMPLE_FILES)
    assert manifest.counts["chunks"] == indexed.chunks > len(SAMPLE_FILES)
    assert manifest.languages["python"] == 6
    assert set(manifest.timings) == {"clone", "scan", "chunk", "embed", "store"}
    assert manifest.chunker_version and manifest.codeqa_version


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("how are passwords checked when a user logs in?", "shop/auth.py"),
        ("where is the configuration loaded from environment variables?", "shop/config.py"),
        ("what happens when a request to the payment API fails?", "shop/http_client.py"),
        ("how is the shopping cart total computed in the browser?", "web/src/cart.js"),
    ],
)
def test_search_finds_the_right_file(indexed, settings: Settings, question: str, expected: str):
    hits = search_hits("shop", question, settings, k=5)
    assert hits[0].chunk.path == expected
    assert hits == sorted(hits, key=lambda hit: -hit.score)


def test_search_hits_carry_exact_lines(indexed, sample_repo: Path, settings: Settings):
    for hit in search_hits("shop", "session token login", settings, k=10):
        lines = (sample_repo / hit.chunk.path).read_text().split("\n")
        assert hit.chunk.text == "\n".join(lines[hit.chunk.start_line - 1 : hit.chunk.end_line])


def test_filters_restrict_every_result(indexed, settings: Settings):
    scoped = search_hits("shop", "price total", settings, k=20, filters=Filters(paths=("web",)))
    assert scoped and all(path.startswith("web/") for path in top_paths(scoped))
    python_only = search_hits("shop", "price total", settings, k=20, filters=Filters(languages=("python",)))
    assert python_only and all(hit.chunk.language == "python" for hit in python_only)
    tests_only = search_hits("shop", "login", settings, k=20, filters=Filters(layers=("test",)))
    assert top_paths(tests_only) and set(top_paths(tests_only)) == {"tests/test_auth.py"}
    classes = search_hits("shop", "order", settings, k=20, filters=Filters(kinds=("class",)))
    assert classes and all(hit.chunk.kind == "class" for hit in classes)
    one_file = search_hits("shop", "anything", settings, k=20, filters=Filters(paths=("shop/models.py",)))
    assert one_file and set(top_paths(one_file)) == {"shop/models.py"}


def test_reindex_only_embeds_what_changed(indexed, sample_repo: Path, settings: Settings):
    (sample_repo / "shop" / "models.py").write_text(
        SAMPLE_FILES["shop/models.py"] + '\n\ndef apply_discount(order, percent):\n    """Reduce an order total."""\n'
        "    return order.total_cents() * (100 - percent) // 100\n"
    )
    git(sample_repo, "commit", "-qam", "discount")
    again = build_index(str(sample_repo), settings, name="shop")
    assert 0 < again.embedded <= 3
    assert again.chunks >= indexed.chunks
    assert again.manifest.collection != indexed.manifest.collection
    store = Store(settings)
    assert store.orphan_collections() == []  # the old generation was dropped
    assert search_hits("shop", "discount percent", settings, k=1)[0].chunk.path == "shop/models.py"


def test_failed_reindex_keeps_previous_index(indexed, sample_repo: Path, settings: Settings, tmp_path: Path):
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ScanError, match="Nothing to index"):
        build_index(str(empty), settings, name="shop")
    assert search_hits("shop", "login", settings, k=1)[0].chunk.path == "shop/auth.py"
    assert Store(settings).orphan_collections() == []


def test_interrupted_index_leaves_old_index_and_is_cleaned_up(indexed, sample_repo: Path, settings: Settings):
    def explode(event):
        if event.stage == "store":
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build_index(str(sample_repo), settings, name="shop", progress=explode)
    assert search_hits("shop", "login", settings, k=1)[0].chunk.path == "shop/auth.py"
    store = Store(settings)
    leftover = store.new_collection("shop")  # what a SIGKILL would leave behind
    assert leftover in store.orphan_collections("shop")
    build_index(str(sample_repo), settings, name="shop")
    assert store.orphan_collections() == []


def test_busy_index_is_refused(sample_repo: Path, settings: Settings):
    with (
        index_lock(settings.home_dir / "locks", "shop"),
        pytest.raises(IndexBusyError, match="being built by another process"),
    ):
        build_index(str(sample_repo), settings, name="shop")


def test_stale_lock_is_taken_over(sample_repo: Path, settings: Settings):
    locks = settings.home_dir / "locks"
    locks.mkdir(parents=True)
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    import socket

    (locks / "shop.lock").write_text(f'{{"pid": {dead.pid}, "host": "{socket.gethostname()}"}}')
    assert build_index(str(sample_repo), settings, name="shop").chunks > 0


class _RenamedModel:
    """The real model under another id: what opening an index with a different model looks like."""

    def __init__(self, inner):
        self._inner = inner
        self.model_id = "some/other-model"
        self.dimension = inner.dimension

    def embed_documents(self, texts):
        return self._inner.embed_documents(texts)

    def embed_query(self, text):
        return self._inner.embed_query(text)


def test_other_model_is_a_clear_error(indexed, settings: Settings):
    other = _RenamedModel(get_embedder(settings))
    with pytest.raises(IncompatibleIndexError, match="built with embedding model"):
        search_hits("shop", "login", settings, embedder=other)


def test_bad_queries(indexed, settings: Settings):
    with pytest.raises(QueryError, match="empty"):
        search_hits("shop", "   ", settings)
    with pytest.raises(IndexNotFoundError, match="No index named 'nope'"):
        search_hits("nope", "login", settings)
    with pytest.raises(QueryError, match="no '..'"):
        search_hits("shop", "login", settings, filters=Filters(paths=("../etc",)))
    huge = "login " * 50_000
    assert search_hits("shop", huge, settings, k=1)


def test_clone_over_file_url(make_git_repo, settings: Settings):
    bare = make_git_repo(SAMPLE_FILES, bare_copy=True)
    report = build_index(f"file://{bare}", settings, name="shop-remote")
    assert report.manifest.source_kind == "git"
    assert report.manifest.sha and len(report.manifest.sha) == 40
    assert search_hits("shop-remote", "password hashing", settings, k=1)[0].chunk.path == "shop/auth.py"


def test_remove_index(indexed, settings: Settings):
    Index.open("shop", settings).remove()
    store = Store(settings)
    assert not store.exists("shop")
    assert store.orphan_collections() == [] and list(settings.indexes_dir.iterdir()) == []


@pytest.mark.parametrize("model", ["static:code", "static:minilm", PACKAGED_MODEL])
def test_vectors_are_normalized(settings: Settings, model: str):
    vectors = get_embedder(settings.model_copy(update={"embedding_model": model})).embed_documents(
        ["def f(): pass", "class A: ..."]
    )
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)


def test_packaged_transformer_model_end_to_end(sample_repo: Path, settings: Settings):
    minilm = settings.model_copy(update={"embedding_model": PACKAGED_MODEL})
    report = build_index(str(sample_repo), minilm, name="shop-minilm")
    assert report.manifest.model == PACKAGED_MODEL and report.manifest.dimension == 384
    assert (
        search_hits("shop-minilm", "where is the configuration loaded?", minilm, k=1)[0].chunk.path == "shop/config.py"
    )
    with pytest.raises(IncompatibleIndexError, match="built with embedding model"):
        search_hits("shop-minilm", "login", settings)  # the default (static) model cannot read it


def test_binary_only_repo_is_refused(make_git_repo, settings: Settings):
    repo = make_git_repo({"logo.png": b"\x89PNG\r\n\x1a\n\x00\x00binary", "data.bin": b"\x00\x01\x02"})
    with pytest.raises(ScanError, match="Nothing to index"):
        build_index(str(repo), settings, name="bin")


def test_static_models_are_named_and_unknown_ones_are_a_clear_error(settings: Settings, tmp_path: Path):
    from codeqa.embed import PACKAGED_STATIC

    assert (PACKAGED_STATIC / "model.safetensors").stat().st_size < 30_000_000  # ships in the package
    code = get_embedder(settings)
    assert code.model_id == "static:code" and code.revision == 1 and code.dimension == 256
    copied = get_embedder(settings.model_copy(update={"embedding_model": f"static:{PACKAGED_STATIC}"}))
    assert np.allclose(copied.embed_query("retry a failed upload"), code.embed_query("retry a failed upload"))
    with pytest.raises(EmbeddingError, match="Unknown static model"):
        get_embedder(settings.model_copy(update={"embedding_model": f"static:{tmp_path}/nothing"}))


def test_files_are_read_when_chunked_and_an_edit_after_the_scan_is_indexed_as_it_is(
    sample_repo: Path, settings: Settings
):
    """The scan keeps no text (memory bounded by files, not bytes): each file is read again when it is chunked. A
    file edited after the scan is indexed, and recorded, as it is then; one deleted meanwhile gets no rows."""
    from codeqa.index.freshness import check_freshness, load_state
    from codeqa.records import content_hash

    edited = "def settle_invoice(total):\n    return total * 3\n"

    def edit_after_scan(event) -> None:
        if event.stage == "scan" and event.fraction == 1.0:
            (sample_repo / "shop/config.py").write_text(edited)
            (sample_repo / "shop/models.py").unlink()

    index = Index.build(str(sample_repo), settings, name="shop", progress=edit_after_scan)
    paths = set(index.files.table.paths)
    assert "shop/config.py" in paths and "shop/models.py" not in paths and "shop/auth.py" in paths
    assert any(h.chunk.path == "shop/config.py" and "settle_invoice" in h.chunk.text
               for h in search_hits("shop", "settle_invoice", settings))  # fmt: skip
    state = load_state(settings, index.manifest)
    assert state is not None and state.files["shop/config.py"][2] == content_hash(edited)
    assert "shop/config.py" not in check_freshness(settings, index.manifest).changed


def test_file_cards_embedded_in_batches_are_those_of_one_call(sample_repo: Path, settings: Settings, monkeypatch):
    """The cards of 30k files are embedded a batch at a time (one call held 100 MB more): the same vectors."""
    import codeqa.searchfiles.files as searchfiles

    one_call = Index.build(str(sample_repo), settings, name="shop").files.files
    monkeypatch.setattr(searchfiles, "CARD_BATCH", 2)
    batched = Index.build(str(sample_repo), settings, name="shop").files.files
    assert len(batched.paths) > 4 and batched.paths == one_call.paths
    assert np.allclose(batched.cards, one_call.cards, atol=1e-6)
