"""The index lock admits exactly one holder, however many processes race for it, and a dead holder never blocks."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from codeqa.errors import IndexBusyError
from codeqa.locks import index_lock

PROCESSES = 16
ROUNDS = 40


def _contend(locks: str, barrier, guard, holders, most, wins, rounds: int) -> None:
    """One process: in every round, try to take the lock at the same moment as all the others."""
    for round_number in range(rounds):
        barrier.wait()
        try:
            with index_lock(Path(locks), "shop"):
                with guard:
                    holders.value += 1
                    most[round_number] = max(most[round_number], holders.value)
                    wins[round_number] += 1
                time.sleep(0.003)
                with guard:
                    holders.value -= 1
        except IndexBusyError:
            pass
        barrier.wait()


def test_many_processes_never_hold_the_lock_together(tmp_path: Path) -> None:
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(PROCESSES)
    guard = context.Lock()
    holders = context.Value("i", 0, lock=False)
    most = context.Array("i", ROUNDS, lock=False)
    wins = context.Array("i", ROUNDS, lock=False)
    args = (str(tmp_path / "locks"), barrier, guard, holders, most, wins, ROUNDS)
    workers = [context.Process(target=_contend, args=args) for _ in range(PROCESSES)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(300)
    assert all(worker.exitcode == 0 for worker in workers), [worker.exitcode for worker in workers]
    doubled = [number for number in range(ROUNDS) if most[number] > 1]
    assert doubled == [], f"two holders at once in {len(doubled)} of {ROUNDS} rounds"
    assert all(count >= 1 for count in wins), list(wins)  # every round somebody got it
    assert list((tmp_path / "locks").glob("*.lock")) == []  # released locks leave nothing behind


def test_a_killed_holder_releases_the_lock(tmp_path: Path) -> None:
    locks = tmp_path / "locks"
    code = (
        "import sys, time\nfrom pathlib import Path\nfrom codeqa.locks import index_lock\n"
        f"with index_lock(Path({str(locks)!r}), 'shop'):\n    print('held', flush=True)\n    time.sleep(60)\n"
    )
    root = Path(__file__).resolve().parent.parent
    holder = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(root)})  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(IndexBusyError, match=f"pid {holder.pid}"), index_lock(locks, "shop"):
            pass
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait(10)
    with index_lock(locks, "shop"):  # the kernel released it with the process: no stale-lock guessing
        assert (locks / "shop.lock").exists()
    assert not (locks / "shop.lock").exists()


def test_remove_while_the_same_index_is_being_built_is_refused(tmp_path: Path, isolated_home: Path) -> None:
    """``remove`` used to report success, then the running build committed and the index came back."""
    import threading

    from typer.testing import CliRunner

    from codeqa.cli import app
    from codeqa.config import Settings, get_settings
    from codeqa.store import Store
    from tests.conftest import init_repo
    from tests.helpers import build_index
    from tests.sample_repo import SAMPLE_FILES

    settings = Settings(home=isolated_home)
    repo = init_repo(tmp_path / "shop", SAMPLE_FILES)
    build_index(str(repo), settings, name="shop")
    embedding, release = threading.Event(), threading.Event()

    def pause(event) -> None:
        if event.stage == "embed" and not embedding.is_set():
            embedding.set()
            assert release.wait(120)

    builder = threading.Thread(
        target=build_index, args=(str(repo), settings), kwargs={"name": "shop", "progress": pause}
    )
    builder.start()
    try:
        assert embedding.wait(120)
        get_settings.cache_clear()
        result = CliRunner().invoke(app, ["remove", "shop", "--yes"], env={"CODEQA_HOME": str(isolated_home)})
    finally:
        release.set()
        builder.join(120)
    assert result.exit_code == 5, result.output
    assert "being built by another process" in result.output and "Removed" not in result.output
    assert Store(settings).exists("shop")
    after = CliRunner().invoke(app, ["remove", "shop", "--yes"], env={"CODEQA_HOME": str(isolated_home)})
    get_settings.cache_clear()
    assert after.exit_code == 0 and not Store(settings).exists("shop")
