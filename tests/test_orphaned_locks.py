"""A killed `codeqa index` never leaves its index locked (security #34, finding 2).

The forked indexing worker used to share the lock's open file and the pipe's reading end: killed, the parent left
an orphan blocked on a full pipe, holding the lock forever ("being built by another process (pid N)" with N dead).
Now the worker dies with its parent, a forked child never holds its parent's locks, and a lock an orphan still holds
(from an older codeqa) is recovered.
"""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from codeqa.config import Settings
from codeqa.index import Index
from codeqa.locks import index_lock
from tests.conftest import init_repo
from tests.sample_repo import SAMPLE_FILES
from tests.test_interruptions import Victim, filler


def _holds_flock_on(pid: int, path: Path) -> bool:
    inode = os.stat(path).st_ino
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            if os.stat(fd).st_ino == inode and "FLOCK" in Path(f"/proc/{pid}/fdinfo/{fd.name}").read_text():
                return True
        except OSError:
            continue
    return False


def _sleep_and_report(path: str, answer) -> None:
    answer.send(_holds_flock_on(os.getpid(), Path(path)))
    time.sleep(30)


def test_a_forked_child_does_not_keep_its_parents_lock(tmp_path: Path) -> None:
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    with index_lock(tmp_path, "shop"):
        child = context.Process(target=_sleep_and_report, args=(str(tmp_path / "shop.lock"), send), daemon=True)
        child.start()
        child_holds = receive.recv()
    try:
        assert child_holds is False, "the forked child shares the parent's lock"
        with index_lock(tmp_path, "shop"):  # released by the parent although the child lives on
            assert child.is_alive()
    finally:
        child.kill()
        child.join(5)


ORPHAN = textwrap.dedent(
    """
    import fcntl, json, os, socket, sys, time
    fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX)
    os.pwrite(fd, json.dumps({"pid": int(sys.argv[2]), "host": socket.gethostname(), "since": 0}).encode(), 0)
    print("holding", flush=True)
    time.sleep(120)
    """
)


def test_a_lock_held_by_the_orphan_of_a_dead_indexer_is_recovered(tmp_path: Path) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()  # its pid is the recorded holder: dead, as a killed `codeqa index` is
    orphan = subprocess.Popen(
        [sys.executable, "-c", ORPHAN, str(tmp_path / "shop.lock"), str(dead.pid)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert orphan.stdout is not None and orphan.stdout.readline().strip() == "holding"
        with index_lock(tmp_path, "shop"):
            assert orphan.wait(10) is not None  # the orphan was stopped, the lock taken
    finally:
        orphan.kill()
        orphan.wait(5)


def test_a_lock_whose_holder_lives_stays_busy(tmp_path: Path) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", ORPHAN, str(tmp_path / "shop.lock"), "0"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        Path(tmp_path / "shop.lock").write_text(f'{{"pid": {holder.pid}, "host": "{os.uname().nodename}"}}')
        from codeqa.errors import IndexBusyError

        with pytest.raises(IndexBusyError, match=f"pid {holder.pid}"), index_lock(tmp_path, "shop"):
            pass
        assert holder.poll() is None  # a live holder is never stopped
    finally:
        holder.kill()
        holder.wait(5)


def _processes_using(home: Path) -> list[int]:
    """Processes (other than this one) whose environment names this CODEQA_HOME."""
    marker = f"CODEQA_HOME={home}".encode()
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            if int(entry.name) != os.getpid() and marker in (entry / "environ").read_bytes().split(b"\0"):
                found.append(int(entry.name))
        except (OSError, ValueError):
            continue
    return found


@pytest.mark.slow
def test_a_killed_large_index_leaves_no_worker_and_no_lock(tmp_path: Path, isolated_home: Path) -> None:
    # enough rows that the worker's output overflows the pipe while nobody reads it
    repo = init_repo(tmp_path / "repo", {**SAMPLE_FILES, **{f"orders/batch_{i}.py": filler(i) for i in range(1500)}})
    env = {**os.environ, "CODEQA_HOME": str(isolated_home), "TTY_COMPATIBLE": "1", "COLUMNS": "160",
           "CODEQA_INDEX_WORKER_MIN_BYTES": "0"}  # fmt: skip
    outcome = Victim(["index", str(repo), "--name", "shop", "--no-map"], env).kill_after("embed", 0.3)
    assert outcome.killed, outcome
    deadline = time.monotonic() + 10
    while _processes_using(isolated_home) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _processes_using(isolated_home) == [], "the indexing worker outlived its killed parent"
    again = Victim(["index", str(repo), "--name", "shop", "--no-map"], env)
    assert again.process.wait(timeout=600) == 0, again.output.decode("utf-8", "replace")[-2000:]
    index = Index.open("shop", Settings(home=isolated_home))
    assert index.count() == index.manifest.counts["chunks"] > 0
