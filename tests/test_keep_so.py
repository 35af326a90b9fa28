"""Attacks that already fail, kept as tests so they keep failing (issue #10, "already fine, keep it so").

In the bad-input table: submodules are not cloned (``submodule-ext-url``), repository-local git config never runs
(``hostile-git-config-*``), hostile branch names (``hostile-branch-name``), symlink loops, 1 MB questions
(``question-1mb``). In ``test_scan``: FIFOs are never opened. In ``test_interruptions``: SIGKILL of the indexer at
every stage. Here: 50,000 tiny files, 16 concurrent searches while the same data dir indexes, and SIGKILL of the
app's own indexing job (the background thread the web app runs ``build_index`` in).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from codeqa.config import Settings
from codeqa.scan import scan_repository
from codeqa.store import Store
from tests.conftest import init_repo
from tests.helpers import build_index, growth, search_hits
from tests.sample_repo import SAMPLE_FILES

QUESTION = "how are passwords checked when a user logs in?"
ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_fifty_thousand_tiny_files_scan_in_linear_time(tmp_path: Path, settings: Settings) -> None:
    """Every one of 50,000 files is found, and 10 times the files cost about 10 times to scan (how long it takes is
    for bench/)."""
    for folders in (10, 100):
        for d in range(folders):
            folder = tmp_path / f"many{folders}" / f"d{d:03d}"
            folder.mkdir(parents=True)
            for f in range(500):
                (folder / f"f{f:03d}.py").write_text(f"X_{d}_{f} = {f}\n")
    result = scan_repository(tmp_path / "many100", settings)
    assert len(result.files) == 50_000 and result.skipped == []
    scan = lambda folders: scan_repository(tmp_path / f"many{folders}", settings)  # noqa: E731
    assert growth(scan, 10, factor=10, repeats=1) < 3 * 10


def test_sixteen_searches_at_once_while_the_same_data_dir_indexes(tmp_path: Path, settings: Settings) -> None:
    build_index(str(init_repo(tmp_path / "shop", SAMPLE_FILES)), settings, name="shop")
    other = init_repo(
        tmp_path / "other", {f"pkg/m{i}.py": f"def step_{i}(x):\n    return x + {i}\n" for i in range(300)}
    )
    errors: list[BaseException] = []
    results: list[str] = []
    indexing = threading.Event()

    def index() -> None:
        try:
            build_index(str(other), settings, name="other")
        except BaseException as exc:
            errors.append(exc)
        finally:
            indexing.set()

    def search() -> None:
        try:
            while not indexing.is_set() or len(results) < 32:
                results.append(search_hits("shop", QUESTION, settings, k=3)[0].chunk.path)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=index)] + [threading.Thread(target=search) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    assert not any(thread.is_alive() for thread in threads)
    assert errors == [] and len(results) >= 32 and set(results) == {"shop/auth.py"}
    assert Store(settings).exists("other")


APP_JOB = """
import sys, time
from codeqa.config import Settings
from codeqa_ui import jobs

app_progress = jobs.IndexJob.on_progress

def slowed(job, event):  # the app's own progress hook, slowed so that the kill lands mid-run
    print(event.stage, flush=True)
    time.sleep(0.05)
    app_progress(job, event)

jobs.IndexJob.on_progress = slowed
job = jobs.JobRegistry().start(sys.argv[1], Settings(home=sys.argv[2]), name="shop")
job.thread.join()
"""


@pytest.mark.slow
def test_killing_the_app_mid_index_keeps_the_previous_index(tmp_path: Path, settings: Settings) -> None:
    repo = init_repo(tmp_path / "shop", SAMPLE_FILES)
    build_index(str(repo), settings, name="shop")
    for name in ("extra_a.py", "extra_b.py"):
        (repo / "shop" / name).write_text("".join(f"def helper_{i}(x):\n    return x * {i}\n\n\n" for i in range(400)))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    app = subprocess.Popen([sys.executable, "-c", APP_JOB, str(repo), str(settings.home_dir)], env=env,
                           stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert app.stdout is not None
        for line in app.stdout:
            if line.strip() in ("embed", "store"):
                break
        app.send_signal(signal.SIGKILL)
    finally:
        app.wait(30)
    assert app.returncode == -signal.SIGKILL
    store = Store(settings)
    manifest = store.get_manifest("shop")
    assert store.count(manifest) == manifest.counts["chunks"]  # the previous index, complete
    assert search_hits("shop", QUESTION, settings, k=1)[0].chunk.path == "shop/auth.py"
    report = build_index(str(repo), settings, name="shop")  # the next run cleans up after the killed one
    assert report.files == len(SAMPLE_FILES) + 2 and store.orphan_collections() == []
