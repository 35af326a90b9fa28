"""Several sessions at once against one data dir (real Chroma, real model): indexing different repositories while
others ask questions, and two attempts to build the same index at the same moment (one is refused clearly, or
they run one after the other; never a corrupt index). Stale-lock takeover is covered in ``test_index.py``."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from codeqa.config import Settings
from codeqa.errors import IndexBusyError
from codeqa.store import Store
from tests.conftest import init_repo
from tests.helpers import ask_named, build_index, search_hits
from tests.sample_repo import SAMPLE_FILES

QUESTION = "how are passwords checked when a user logs in?"


make_repo = init_repo


def other_repo(topic: str) -> dict[str, str]:
    return {
        f"{topic}/engine_{i}.py": f'def {topic}_step_{i}(state):\n    """Advance the {topic} engine by one step."""\n'
        f"    return state + {i}\n"
        for i in range(30)
    }


def test_two_sessions_index_while_others_ask(tmp_path: Path, settings: Settings) -> None:
    shop = make_repo(tmp_path / "shop", SAMPLE_FILES)
    build_index(str(shop), settings, name="shop")
    repos = {
        "rockets": make_repo(tmp_path / "r", other_repo("rocket")),
        "trains": make_repo(tmp_path / "t", other_repo("train")),
    }
    errors: list[BaseException] = []
    answers: list[str] = []
    indexing_done = threading.Event()
    start = threading.Barrier(4)

    def index(name: str) -> None:
        try:
            start.wait()
            build_index(str(repos[name]), settings, name=name)
        except BaseException as exc:  # reported below
            errors.append(exc)

    def asker() -> None:
        try:
            start.wait()
            while not indexing_done.is_set() or len(answers) < 3:
                hits = search_hits("shop", QUESTION, settings, k=3)
                answer = ask_named("shop", QUESTION, settings, backend="none", k=3).result()
                assert hits[0].chunk.path == "shop/auth.py" and answer.sources[0].chunk.path == "shop/auth.py"
                answers.append(answer.text)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=index, args=(n,)) for n in repos] + [threading.Thread(target=asker)
                                                                           for _ in range(2)]  # fmt: skip
    for thread in threads:
        thread.start()
    for thread in threads[:2]:
        thread.join(timeout=240)
    indexing_done.set()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(t.is_alive() for t in threads)
    assert errors == []
    assert len(answers) >= 3
    store = Store(settings)
    assert {m.name for m in store.list_manifests()} == {"shop", "rockets", "trains"}
    assert store.orphan_collections() == []
    assert search_hits("rockets", "advance the rocket engine", settings, k=1)[0].chunk.path.startswith("rocket/")
    assert search_hits("trains", "advance the train engine", settings, k=1)[0].chunk.path.startswith("train/")


def test_same_index_twice_at_once_in_threads(tmp_path: Path, settings: Settings) -> None:
    repo = make_repo(tmp_path / "shop", SAMPLE_FILES)
    build_index(str(repo), settings, name="shop")  # warm: model loaded, vectors cached
    results: list[object] = []
    start = threading.Barrier(2)

    def attempt() -> None:
        start.wait()
        try:
            results.append(build_index(str(repo), settings, name="shop"))
        except IndexBusyError as exc:
            results.append(exc)

    threads = [threading.Thread(target=attempt) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    busy = [r for r in results if isinstance(r, IndexBusyError)]
    assert len(results) == 2 and len(busy) <= 1
    for exc in busy:
        assert "being built by another process" in str(exc) and "shop.lock" in str(exc)
    store = Store(settings)
    manifest = store.get_manifest("shop")
    assert store.count(manifest) == manifest.counts["chunks"]
    assert store.orphan_collections() == [] and not list((settings.home_dir / "locks").glob("*.lock"))
    assert search_hits("shop", QUESTION, settings, k=1)[0].chunk.path == "shop/auth.py"


@pytest.mark.slow
def test_same_index_twice_at_once_in_processes(tmp_path: Path, isolated_home: Path) -> None:
    repo = make_repo(tmp_path / "shop", SAMPLE_FILES)
    env = {**os.environ, "CODEQA_HOME": str(isolated_home)}
    command = [sys.executable, "-m", "codeqa", "index", str(repo), "--name", "shop"]
    outcomes = []
    for _ in range(3):  # a few rounds: the race window differs each time
        procs = [subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for _ in range(2)]  # fmt: skip
        for proc in procs:
            out, err = proc.communicate(timeout=300)
            assert "Traceback" not in out + err
            assert proc.returncode in (0, 5), err
            if proc.returncode == 5:
                assert "being built by another process" in err
            outcomes.append(proc.returncode)
        assert 0 in [p.returncode for p in procs]
        time.sleep(0.1)
    settings = Settings(home=isolated_home)
    store = Store(settings)
    manifest = store.get_manifest("shop")
    assert store.count(manifest) == manifest.counts["chunks"]
    assert store.orphan_collections() == [] and not list((settings.home_dir / "locks").glob("*.lock"))
    assert search_hits("shop", QUESTION, settings, k=1)[0].chunk.path == "shop/auth.py"
    print(f"\nsimultaneous CLI runs: exit codes {outcomes}")
