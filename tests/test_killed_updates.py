"""SIGKILL the real ``codeqa update`` (an update in place) at many points while another process keeps asking, and
prove the index answers throughout, the next open rolls the killed update back or forward, nothing is left over
(no extra collection, folder, generation or journal) and the store does not grow (#18 finding 8).

Also #18 finding 13: two runs on one source (``index`` of a second name and ``update``, real processes at once)
share its clone folder; the folder is swapped only under its lock, so neither run reads a tree that is being
swapped, and both indexes come out complete.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from codeqa.config import Settings
from codeqa.index import Index
from codeqa.index.journal import needs_recovery
from codeqa.retrieve import retrieve
from codeqa.store import Store, collection_dir
from codeqa.store.chroma import forget_client
from tests.conftest import git, write_files
from tests.sample_repo import SAMPLE_FILES
from tests.test_interruptions import FINISHING, Victim, filler

pytestmark = pytest.mark.slow

NAME = "victim"
QUESTION = "how are passwords checked when a user logs in?"
EXPECTED = "shop/auth.py"
PLAN = [("start", 0.6), ("scan", 0.0), ("embed", 0.0), ("store", 0.0), ("store", 0.15), ("store", 0.4),
        (FINISHING, 0.0), (FINISHING, 0.03), (FINISHING, 0.1), ("start", 2.5)]  # fmt: skip

READER = """
import sys, time
from pathlib import Path
from codeqa.config import Settings
from codeqa.index import Index
from codeqa.index.journal import needs_recovery
from codeqa.retrieve import retrieve
settings, stop, log = Settings(home=Path(sys.argv[1])), Path(sys.argv[2]), Path(sys.argv[3])
answered = failed = 0
while not stop.exists():
    try:
        hits = retrieve(Index.open("victim", settings), sys.argv[4], k=3).hits
        ok = bool(hits) and hits[0].chunk.path == sys.argv[5]
        answered, failed = answered + ok, failed + (not ok)
        if not ok:
            log.write_text(f"wrong answer: {[h.chunk.path for h in hits]}")
    except Exception as exc:
        failed += 1
        log.write_text(f"{type(exc).__name__}: {exc}")
    time.sleep(0.05)
print(answered, failed)
"""


def store_bytes(settings: Settings) -> int:
    return sum(p.stat().st_size for p in settings.chroma_dir.rglob("*") if p.is_file())


def reopened(settings: Settings, name: str = NAME) -> Index:
    """The index as a new process would open it (this process's Chroma client re-reads the disk). An open recovers
    what a killed update left unless another process holds the lock (the reader may be recovering it right then):
    open again until it is settled."""
    deadline = time.monotonic() + 20
    while True:
        forget_client(settings)
        index = Index.open(name, settings)
        if not needs_recovery(settings, index.manifest) or time.monotonic() > deadline:
            return index
        time.sleep(0.1)


def assert_clean(settings: Settings, index: Index) -> None:
    """One collection, one folder, one generation in it, no journal; the collection holds exactly its rows."""
    assert Store(settings).orphan_collections() == []
    assert [p.name for p in settings.indexes_dir.iterdir()] == [index.manifest.collection]
    inside = sorted(p.name for p in collection_dir(settings, index.manifest.collection).iterdir())
    assert inside == [f"g{index.manifest.generation}", "live"], inside
    assert index.count() == index.manifest.counts["chunks"] == len(index.files.table)
    assert retrieve(index, QUESTION, k=3).hits[0].chunk.path == EXPECTED


def edit(work: Path, round_: int) -> None:
    """Change a third of the files (and add one), so an update has real work to kill."""
    write_files(work, {f"orders/batch_{i}.py": filler(i, version=round_) for i in range(round_ % 3, 150, 3)})
    write_files(work, {f"orders/new_{round_}.py": f"def rule_{round_}(order):\n    return order.total * {round_}\n"})
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", f"round {round_}")


def test_killed_updates_roll_back_or_forward_and_the_index_answers_throughout(
    tmp_path: Path, isolated_home: Path
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    git(work, "init", "-q", "-b", "main")
    write_files(work, {**SAMPLE_FILES, **{f"orders/batch_{i}.py": filler(i) for i in range(150)}})
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", "initial")
    settings = Settings(home=isolated_home)
    env = {**os.environ, "CODEQA_HOME": str(isolated_home), "TTY_COMPATIBLE": "1", "COLUMNS": "160"}
    index = Index.build(str(work), settings, name=NAME)
    edit(work, 100)
    index = index.update()  # one good update first: the store has seen an in-place write before it is measured
    assert_clean(settings, index)

    stop, log = tmp_path / "stop", tmp_path / "reader.log"
    reader = subprocess.Popen(
        [sys.executable, "-c", READER, str(isolated_home), str(stop), str(log), QUESTION, EXPECTED],
        stdout=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    outcomes = []
    try:
        for round_, (marker, delay) in enumerate(PLAN):
            before = reopened(settings).manifest
            edit(work, round_)
            outcome = Victim(["update", NAME], env).kill_after(marker, delay)
            outcomes.append(outcome)
            after = reopened(settings)  # the open that rolls the killed update back or forward
            assert_clean(settings, after)
            if after.manifest.generation == before.generation:  # rolled back: exactly the previous generation
                assert after.manifest.key == before.key and after.manifest.sha == before.sha
            else:  # the kill came after the commit: rolled forward to the new generation, complete
                assert after.manifest.generation == before.generation + 1 and after.manifest.sha != before.sha
    finally:
        stop.touch()
        answered, failed = (int(n) for n in reader.communicate(timeout=120)[0].split())
    kills = [o for o in outcomes if o.killed]
    report = ", ".join(f"{o.planned[0]}+{o.planned[1]}s→{o.stage}" for o in outcomes)
    print(f"\n{len(kills)} killed updates; reader answered {answered}, failed {failed}\n{report}")
    assert failed == 0, log.read_text() if log.exists() else "no log"
    assert answered >= 20
    assert len(kills) >= 6 and len({o.stage for o in kills}) >= 3, report

    final = reopened(settings).update()
    assert final.report is not None and final.report.embedded >= 0
    assert_clean(settings, reopened(settings))
    # Before, each killed update leaked a whole copy of the collection (5 kills: 245 -> 474 MB). Now what a killed
    # update leaves beyond one that finished (the same rounds, every update completed, in a data dir of their own)
    # is only Chroma's log of the rows it added and recovery deleted: kept until its next sync (every 1,000 entries,
    # then purged), so it is bounded by the log's size, not by the number of kills.
    killed_bytes = store_bytes(settings)
    control = Settings(home=tmp_path / "control")
    twin = tmp_path / "twin"
    twin.mkdir()
    git(twin, "init", "-q", "-b", "main")
    write_files(twin, {**SAMPLE_FILES, **{f"orders/batch_{i}.py": filler(i) for i in range(150)}})
    git(twin, "add", "-A")
    git(twin, "commit", "-q", "-m", "initial")
    same = Index.build(str(twin), control, name=NAME)
    for round_ in (100, *range(len(PLAN))):
        edit(twin, round_)
        same = same.update()
    completed_bytes = store_bytes(control)
    print(
        f"store after {len(kills)} killed updates: {killed_bytes:,} bytes; after as many completed: {completed_bytes:,}"
    )
    log_bound = 1000 * 3 * 1024  # sync_threshold entries of a 256-d vector, a chunk's text and its metadata
    assert killed_bytes - completed_bytes < min(log_bound, 0.1 * len(kills) * completed_bytes), (
        killed_bytes,
        completed_bytes,
    )


def test_index_and_update_on_one_source_at_once_take_turns_on_its_clone(tmp_path: Path, isolated_home: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    git(work, "init", "-q", "-b", "main")
    write_files(work, {**SAMPLE_FILES, **{f"orders/batch_{i}.py": filler(i) for i in range(150)}})
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", "initial")
    bare = tmp_path / "origin.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(bare)], check=True)
    source = bare.as_uri()
    settings = Settings(home=isolated_home)
    env = {**os.environ, "CODEQA_HOME": str(isolated_home)}
    Index.build(source, settings, name=NAME)
    for round_ in range(4):
        edit(work, round_)
        git(work, "push", "-q", str(bare), "main")
        runs = [
            subprocess.Popen(
                [sys.executable, "-m", "codeqa", *args],
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )  # fmt: skip
            for args in (["update", NAME, "--no-map"], ["index", source, "--name", "second", "--no-map"])
        ]
        for run in runs:
            out, err = run.communicate(timeout=300)
            assert run.returncode == 0, err[-2000:]
            assert "unreadable" not in out + err and "Traceback" not in err
        head = git(work, "rev-parse", "HEAD")
        for name in (NAME, "second"):
            index = reopened(settings, name)
            assert index.manifest.sha == head
            assert index.count() == index.manifest.counts["chunks"] == len(index.files.table)
            assert not index.manifest.skipped.get("unreadable")
    clones = sorted(p.name for p in settings.clones_dir.iterdir())
    assert len(clones) == 1 and not clones[0].startswith("."), clones  # no .partial / .old- leftovers
    assert not list((settings.home_dir / "locks").rglob("*.lock"))


def test_what_a_killed_write_left_half_written_is_removed_by_the_next_open(tmp_path: Path, isolated_home: Path) -> None:
    """A writer killed inside ``write_atomically`` (after opening ``live.partial``, before its rename) leaves that file
    beside the marker, and ``file-state.json.partial`` in a generation folder: the next open removes both, and the
    index answers as before (a CI run killed an update right there: ``['g5', 'live', 'live.partial']``)."""
    work = tmp_path / "work"
    work.mkdir()
    git(work, "init", "-q", "-b", "main")
    write_files(work, SAMPLE_FILES)
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", "initial")
    settings = Settings(home=isolated_home)
    index = Index.build(str(work), settings, name=NAME)
    folder = collection_dir(settings, index.manifest.collection)
    (folder / "live.partial").write_text(str(index.manifest.generation + 1)[:0])  # torn: empty
    (folder / f"g{index.manifest.generation}" / "file-state.json.partial").write_text('{"version": 1, "fi')
    assert needs_recovery(settings, index.manifest)
    assert_clean(settings, reopened(settings))
    assert not list(folder.rglob("*.partial"))
