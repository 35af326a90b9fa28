"""A damaged store, through the real CLI in real processes: a corrupt ``chroma.sqlite3`` header or an emptied file is
one line naming the file and ``codeqa repair`` (never a traceback, never a silent "no indexes"); ``codeqa repair``
moves the store aside and restores the indexes from the files that are left; a corrupt embedding cache is rebuilt
on its own with a one-line notice (it is only a cache)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from click.testing import Result
from scipy import sparse
from typer.testing import CliRunner

from codeqa.cli import app
from codeqa.config import Settings, get_settings
from codeqa.errors import StoreError
from codeqa.index import Index
from codeqa.records import Chunk
from codeqa.searchfiles import forget_search_files
from codeqa.store import Store
from tests.helpers import build_index, search_hits
from tests.indexed_home import build_sample_index

QUESTION = "how are passwords checked when a user logs in?"


def codeqa(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CODEQA_HOME": str(home), "CODEQA_LLM_BACKEND": "none"}
    return subprocess.run([sys.executable, "-m", "codeqa", *args], capture_output=True, text=True, env=env,
                          timeout=300, cwd=Path(__file__).resolve().parent.parent)  # fmt: skip


def one_line_error(result: subprocess.CompletedProcess[str], code: int, *fragments: str) -> str:
    output = result.stdout + result.stderr
    assert result.returncode == code, output
    assert "Traceback" not in output
    assert result.stderr.startswith("error:") and len(result.stderr.strip().splitlines()) <= 2, result.stderr
    message = " ".join(result.stderr.split())
    for fragment in fragments:
        assert fragment in message, message
    return message


@pytest.fixture
def indexed(tmp_path: Path) -> tuple[Settings, Path]:
    return build_sample_index(tmp_path / "base")


def _corrupt_header(path: Path) -> None:
    with path.open("r+b") as handle:
        handle.write(b"this is not sqlite at all")


def test_corrupt_store_is_one_line_naming_the_file_and_the_repair(indexed: tuple[Settings, Path]) -> None:
    settings, repo = indexed
    database = settings.chroma_dir / "chroma.sqlite3"
    _corrupt_header(database)
    for args in (
        ["list"],
        ["search", "shop", QUESTION],
        ["ask", "shop", QUESTION],
        ["index", str(repo), "--name", "shop"],
    ):
        one_line_error(codeqa(settings.home_dir, *args), 5, str(database), "codeqa repair")


def test_an_emptied_store_is_not_reported_as_no_indexes(indexed: tuple[Settings, Path]) -> None:
    settings, _ = indexed
    (settings.chroma_dir / "chroma.sqlite3").write_bytes(b"")
    message = one_line_error(codeqa(settings.home_dir, "list"), 5, "is empty", "codeqa repair")
    assert "No indexes" not in message


def test_repair_restores_the_indexes_from_what_is_left(indexed: tuple[Settings, Path]) -> None:
    settings, repo = indexed
    before = [(hit.chunk.location, hit.chunk.text) for hit in search_hits("shop", QUESTION, settings, k=5)]
    _corrupt_header(settings.chroma_dir / "chroma.sqlite3")
    repaired = codeqa(settings.home_dir, "repair")
    assert repaired.returncode == 0, repaired.stdout + repaired.stderr
    assert "Restored shop" in repaired.stdout and "chroma.damaged-" in repaired.stdout
    assert list(settings.home_dir.glob("chroma.damaged-*/chroma.sqlite3"))  # kept aside, not deleted
    listed = codeqa(settings.home_dir, "list")
    assert listed.returncode == 0 and "shop" in listed.stdout
    searched = codeqa(settings.home_dir, "search", "shop", QUESTION, "-k", "5")
    assert searched.returncode == 0 and before[0][0] in searched.stdout
    after = [(hit.chunk.location, hit.chunk.text) for hit in search_hits("shop", QUESTION, settings, k=5)]
    assert after == before  # the same chunks, texts and ranking: nothing was re-embedded or lost
    again = codeqa(settings.home_dir, "index", str(repo), "--name", "shop")
    assert again.returncode == 0 and "newly embedded 0" in again.stdout  # the embedding cache was kept
    assert codeqa(settings.home_dir, "repair").stdout.strip().startswith("The index store")  # healthy now


def test_repair_names_what_it_could_not_restore(indexed: tuple[Settings, Path]) -> None:
    settings, repo = indexed
    (repo / "shop" / "auth.py").write_text("def changed():\n    return 'since indexing'\n")
    (settings.chroma_dir / "chroma.sqlite3").write_bytes(b"")
    repaired = codeqa(settings.home_dir, "repair")
    assert repaired.returncode == 0, repaired.stderr
    assert "Could not restore shop" in repaired.stdout and f"codeqa index {repo} --name shop" in repaired.stdout
    rebuilt = codeqa(settings.home_dir, "index", str(repo), "--name", "shop")
    assert rebuilt.returncode == 0, rebuilt.stderr


def test_a_damaged_embedding_cache_is_rebuilt_with_a_notice(tmp_path: Path, indexed: tuple[Settings, Path]) -> None:
    settings, repo = indexed
    cache = settings.cache_dir / "embeddings.sqlite"
    _corrupt_header(cache)
    result = codeqa(settings.home_dir, "index", str(repo), "--name", "shop")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert "embedding cache" in result.stdout + result.stderr and "rebuilt" in result.stdout + result.stderr
    assert cache.read_bytes()[:16] == b"SQLite format 3\x00"
    again = build_index(str(repo), settings, name="shop")
    assert again.embedded == 0  # the rebuilt cache works


# -- damaged search files: checked on load, rebuilt from the store; `codeqa repair` finds and rebuilds them too --


def _rewrite_array(name: str, edit: Callable[[np.ndarray], np.ndarray]) -> Callable[[Path], None]:
    def damage(folder: Path) -> None:
        np.save(folder / name, edit(np.load(folder / name)))

    return damage


def _with_nan(vectors: np.ndarray) -> np.ndarray:
    vectors = vectors.copy()
    vectors[3] = np.nan
    return vectors


SEARCH_FILE_DAMAGE: dict[str, tuple[str, Callable[[Path], None]]] = {  # case: (file it names, how it is damaged)
    "empty-vectors": ("vectors.npy", lambda g: (g / "vectors.npy").write_bytes(b"")),
    "empty-file-cards": ("file_cards.npy", lambda g: (g / "file_cards.npy").write_bytes(b"")),
    "empty-file-means": ("file_means.npy", lambda g: (g / "file_means.npy").write_bytes(b"")),
    "empty-graph": ("graph.npz", lambda g: (g / "graph.npz").write_bytes(b"")),
    "vectors-wrong-shape": ("vectors.npy", _rewrite_array("vectors.npy", lambda v: v[:, :10])),
    "graph-wrong-size": ("graph.npz", lambda g: sparse.save_npz(g / "graph.npz", sparse.eye(3, format="csr"))),
    "vocab-is-a-list": ("vocab.index.json", lambda g: (g / "files-bm25" / "vocab.index.json").write_text("[]")),
    "empty-params": ("params.index.json", lambda g: (g / "files-bm25-plain" / "params.index.json").write_text("")),
    "files-json-null": ("files.json", lambda g: (g / "files.json").write_text("null")),
    "nan-vectors": ("vectors.npy", _rewrite_array("vectors.npy", _with_nan)),
    "empty-corpus": ("corpus.npz", lambda g: (g / "corpus.npz").write_bytes(b"")),
    "bm25-folder-is-a-file": ("bm25", lambda g: (shutil.rmtree(g / "bm25"), (g / "bm25").write_text("x"))),
    "imports-json-truncated": ("imports.json", lambda g: (g / "imports.json").write_text('{"version": 3, "fi')),
    "tags-json-missing": ("tags.json", lambda g: (g / "tags.json").unlink(missing_ok=True)),
}
COMMANDS = {
    "search": ["search", "shop", QUESTION, "-k", "5"],
    "ask": ["ask", "shop", QUESTION],
    "callers": ["callers", "shop", "hash_password"],
}
runner = CliRunner()


@pytest.fixture(scope="module")
def sample_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    settings, _ = build_sample_index(tmp_path_factory.mktemp("search-files"))
    return settings.home_dir


def _stored_rows(settings: Settings) -> tuple[str, list[tuple[str, list[float]]]]:
    manifest = Store(settings).get_manifest("shop")
    rows = [(row_id, vector.tolist()) for ids, _, vectors in Store(settings).iter_records(manifest)
            for row_id, vector in zip(ids, vectors, strict=True)]  # fmt: skip
    return manifest.key, sorted(rows)


def _invoke(args: list[str], folder: Path) -> Result:
    forget_search_files(folder)  # what a new process would see: the files on disk
    return runner.invoke(app, args)


@pytest.mark.parametrize("case", list(SEARCH_FILE_DAMAGE))
def test_damaged_search_files_are_rebuilt_and_repair_finds_them(
    case: str, sample_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    shutil.copytree(sample_home, home)
    monkeypatch.setenv("CODEQA_HOME", str(home))
    monkeypatch.setenv("CODEQA_LLM_BACKEND", "none")
    get_settings.cache_clear()
    settings = Settings(home=home)
    folder = Index.open("shop", settings).folder
    named, damage = SEARCH_FILE_DAMAGE[case]
    expected = {command: _invoke(args, folder).output for command, args in COMMANDS.items()}
    assert "shop/auth.py" in expected["search"].splitlines()[0] and "called by" in expected["callers"]
    stored = _stored_rows(settings)
    for command, args in COMMANDS.items():  # each command meets the damage itself
        damage(folder)
        result = _invoke(args, folder)
        assert result.exit_code == 0, result.output
        assert result.output == expected[command]  # rebuilt from the store: the same answer as before the damage
    damage(folder)
    forget_search_files(folder)
    repaired = codeqa(home, "repair")
    assert repaired.returncode == 0, repaired.stdout + repaired.stderr
    message = " ".join(repaired.stdout.split())
    assert "Rebuilt the search files of shop" in message and named in message and "healthy" not in message
    searched = codeqa(home, *COMMANDS["search"])
    assert searched.returncode == 0 and searched.stdout == expected["search"], searched.stderr
    assert "healthy" in _invoke(["repair", "shop"], folder).output
    assert _stored_rows(settings) == stored  # the live collection was only read
    assert not list(folder.glob(".rebuild-*"))


def test_update_never_stores_a_non_finite_vector(indexed: tuple[Settings, Path]) -> None:
    settings, repo = indexed
    folder = Index.open("shop", settings).folder
    _rewrite_array("vectors.npy", _with_nan)(folder)
    forget_search_files(folder)
    (repo / "shop" / "config.py").write_text((repo / "shop" / "config.py").read_text() + "\n# changed\n")
    updated = codeqa(settings.home_dir, "update", "shop")
    assert updated.returncode == 0, updated.stdout + updated.stderr
    index = Index.open("shop", settings)
    assert np.isfinite(np.load(index.path("vectors.npy"))).all()
    assert all(np.isfinite(vectors).all() for _, _, vectors in index.store.iter_records(index.manifest))
    assert search_hits("shop", QUESTION, settings, k=1)[0].chunk.path == "shop/auth.py"


def test_the_store_refuses_non_finite_vectors(tmp_path: Path) -> None:
    store = Store(Settings(home=tmp_path))
    collection = store.new_collection("nan")
    chunks = [Chunk("a.py", "python", 1, 1, f"x = {i}", f"x{i}", "module", "core") for i in range(2)]
    vectors = np.full((2, 8), 0.5, np.float32)
    vectors[1, 3] = np.inf
    with pytest.raises(StoreError, match=r"Refused to store 1 vector\(s\) that are not finite"):
        store.add_chunks(collection, chunks, vectors)
    assert store._collection(collection).count() == 0


def test_the_app_answers_from_rebuilt_search_files(sample_home: Path, tmp_path: Path, monkeypatch) -> None:
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    from codeqa.index.mend import damage_of

    home = tmp_path / "home"
    shutil.copytree(sample_home, home)
    for name, value in {"CODEQA_HOME": str(home), "CODEQA_LLM_BACKEND": "none", "OLLAMA_HOST": "http://127.0.0.1:9",
                        "CODEQA_WARM_APP": "false"}.items():  # fmt: skip
        monkeypatch.setenv(name, value)
    get_settings.cache_clear()
    st.cache_resource.clear()
    st.cache_data.clear()
    folder = Index.open("shop", Settings(home=home)).folder
    for case in ("empty-vectors", "files-json-null", "graph-wrong-size"):
        SEARCH_FILE_DAMAGE[case][1](folder)
    forget_search_files(folder)
    at = AppTest.from_file(str(Path(__file__).resolve().parent.parent / "app.py"), default_timeout=90)
    at.switch_page("pages/1_Chat.py")
    at.run()
    at.chat_input[0].set_value(QUESTION)
    at.run()
    assert not at.exception and not at.error, [*at.exception, *at.error]
    assert any(label.label.startswith("[") and "shop/auth.py:" in label.label for label in at.expander)
    assert damage_of(Settings(home=home), Store(Settings(home=home)).get_manifest("shop")) is None
    st.cache_resource.clear()
    st.cache_data.clear()


def test_a_killed_rebuild_leaves_nothing_behind(sample_home: Path, tmp_path: Path, monkeypatch) -> None:
    home = tmp_path / "home"
    shutil.copytree(sample_home, home)
    monkeypatch.setenv("CODEQA_HOME", str(home))
    get_settings.cache_clear()
    folder = Index.open("shop", Settings(home=home)).folder
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    left = folder / f".rebuild-{finished.stdout.strip()}-deadbeef"  # what a rebuild killed half-way leaves
    (left / "bm25").mkdir(parents=True)
    (left / "vectors.npy").write_bytes(b"partial")
    SEARCH_FILE_DAMAGE["empty-vectors"][1](folder)
    result = _invoke(COMMANDS["search"], folder)
    assert result.exit_code == 0 and "shop/auth.py" in result.output.splitlines()[0], result.output
    assert not left.exists() and not list(folder.glob(".rebuild-*"))


def test_the_api_answers_from_rebuilt_search_files(sample_home: Path, tmp_path: Path) -> None:
    import httpx

    from tests.service_servers import api_process, server_env

    home = tmp_path / "home"
    shutil.copytree(sample_home, home)
    settings = Settings(home=home)
    folder = Index.open("shop", settings).folder
    for case in ("empty-graph", "nan-vectors", "vocab-is-a-list"):
        SEARCH_FILE_DAMAGE[case][1](folder)
    with api_process(server_env(settings)) as (url, _):
        found = httpx.post(f"{url}/indexes/shop/search", json={"question": QUESTION, "k": 3}, timeout=120)
        assert found.status_code == 200, found.text
        assert found.json()["results"][0]["path"] == "shop/auth.py"
        callers = httpx.get(f"{url}/indexes/shop/symbols/hash_password/callers", timeout=60)
        assert callers.status_code == 200 and "SessionStore" in callers.text
