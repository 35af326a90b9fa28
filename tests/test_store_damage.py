"""A damaged store, through the real CLI in real processes: a corrupt ``chroma.sqlite3`` header or an emptied file is
one line naming the file and ``codeqa repair`` (never a traceback, never a silent "no indexes"); ``codeqa repair``
moves the store aside and restores the indexes from the files that are left; a corrupt embedding cache is rebuilt
on its own with a one-line notice (it is only a cache)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from codeqa.config import Settings
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
