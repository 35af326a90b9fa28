"""A large write chunks, embeds and builds its search files in a forked worker process while this one stores rows.

The worker must change nothing but speed: the same search files and the same stored rows as the write done in one
process; its errors surface as the write's error with the previous index intact; and a killed indexer leaves no
worker behind holding the index's lock.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np
import pytest

from codeqa.config import Settings
from codeqa.index import Index
from codeqa.retrieve import retrieve
from codeqa.searchfiles import open_search_files
from tests.conftest import git, init_repo, write_files
from tests.sample_repo import SAMPLE_FILES
from tests.test_interruptions import Victim, filler

FILES = {**SAMPLE_FILES, **{f"orders/batch_{i}.py": filler(i) for i in range(60)}}


def here(settings: Settings) -> Settings:
    return settings.model_copy(update={"index_worker_min_bytes": -1})


def there(settings: Settings) -> Settings:
    return settings.model_copy(update={"index_worker_min_bytes": 0})


def assert_same_index(a: Index, b: Index) -> None:
    fa, fb = open_search_files(a.folder), open_search_files(b.folder)
    assert fa is not None and fb is not None
    assert fa.table.ids == fb.table.ids and np.array_equal(fa.vectors, fb.vectors)
    assert np.array_equal(fa.files.cards, fb.files.cards) and (fa.graph.matrix != fb.graph.matrix).nnz == 0
    for words in (["password", "check"], ["order", "discount"], ["pricing", "rule"]):
        assert np.array_equal(fa.lexical.scores(words), fb.lexical.scores(words))
        assert np.array_equal(fa.files.plain.scores(words), fb.files.plain.scores(words))
    rows_a = sorted((c.id, c.text, c.symbol, c.kind, c.layer) for c in a.chunks())
    rows_b = sorted((c.id, c.text, c.symbol, c.kind, c.layer) for c in b.chunks())
    assert rows_a == rows_b and a.count() == b.count() == len(fa.table)


def test_a_worker_process_writes_what_this_process_writes(tmp_path: Path, settings: Settings) -> None:
    repo = init_repo(tmp_path / "repo", FILES)
    in_process = Index.build(str(repo), here(settings), name="here")
    in_worker = Index.build(str(repo), there(settings), name="there")
    assert in_worker.report is not None and in_worker.report.chunks == in_process.manifest.counts["chunks"]
    assert_same_index(in_process, in_worker)
    question = "how are passwords checked when a user logs in?"
    assert [h.id for h in retrieve(in_process, question).hits] == [h.id for h in retrieve(in_worker, question).hits]

    write_files(repo, {f"orders/batch_{i}.py": filler(i, version=3) for i in range(0, 60, 4)})
    git(repo, "commit", "-qam", "change")
    updated = Index.open("there", there(settings)).update()
    assert updated.report is not None and updated.report.carried > 0
    assert_same_index(Index.build(str(repo), here(settings), name="again"), updated)


def test_an_error_in_the_worker_is_the_writes_error_and_the_index_stays(
    tmp_path: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    from codeqa.index import produce

    repo = init_repo(tmp_path / "repo", FILES)
    before = Index.build(str(repo), here(settings), name="shop")
    real = produce.chunk_and_tag

    def broken(file, config):
        if file.path == "orders/batch_30.py":
            raise ValueError("a chunker bug")
        return real(file, config)

    monkeypatch.setattr(produce, "chunk_and_tag", broken)  # the forked worker inherits it
    write_files(repo, {"orders/batch_30.py": filler(30, version=9)})
    with pytest.raises(ValueError, match="a chunker bug"):
        Index.build(str(repo), there(settings), name="shop")
    after = Index.open("shop", settings)
    assert after.manifest.key == before.manifest.key and after.count() == before.manifest.counts["chunks"]
    assert [p.name for p in settings.indexes_dir.iterdir()] == [before.manifest.collection]


@pytest.mark.slow
def test_a_killed_indexer_leaves_no_worker_holding_its_lock(tmp_path: Path, isolated_home: Path) -> None:
    repo = init_repo(tmp_path / "repo", {**SAMPLE_FILES, **{f"orders/batch_{i}.py": filler(i) for i in range(400)}})
    env = {**os.environ, "CODEQA_HOME": str(isolated_home), "TTY_COMPATIBLE": "1", "COLUMNS": "160",
           "CODEQA_INDEX_WORKER_MIN_BYTES": "0"}  # fmt: skip
    for marker, delay in (("embed", 0.0), ("store", 0.2)):
        outcome = Victim(["index", str(repo), "--name", "shop", "--no-map"], env).kill_after(marker, delay)
        assert outcome.killed, outcome
        time.sleep(0.5)  # the worker is killed with its parent by the kernel, at once
        again = Victim(["index", str(repo), "--name", "shop", "--no-map"], env)
        assert again.process.wait(timeout=300) == 0, again.output.decode("utf-8", "replace")[-2000:]
    index = Index.open("shop", Settings(home=isolated_home))
    assert index.count() == index.manifest.counts["chunks"] > 0
