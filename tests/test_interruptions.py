"""SIGKILL the real indexer (``python -m codeqa index``) at many points of every stage, and prove nothing is lost.

How the kill points are chosen, without any test hook in library code: the child runs with ``TTY_COMPATIBLE=1``,
so the CLI's rich progress display is streamed to stderr as it would be to a terminal. A reader thread watches that
stream for the stage rows the CLI adds as each stage starts (``clone``, ``scan``, ``chunk``, ``embed``, ``store``) and
for the note printed just before the final commit ("Building lexical index"); the test then waits a staggered
delay after the chosen marker and sends SIGKILL. The stage that was current at the moment of the kill is recorded,
so the test can assert that the kills really were spread across stages (timings on a loaded 2-core machine vary;
the recorded stage, not the plan, is what is checked).

After every kill: the previous index still opens, is complete (its collection holds exactly the chunks its manifest
counts) and answers a known question; the next index run succeeds, removes the killed run's collection, lock file
and half-cloned tree, and leaves no orphans.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from codeqa.config import Settings
from codeqa.store import Store
from codeqa.store import chroma as store_module
from tests.conftest import git, write_files
from tests.helpers import build_index, search_hits
from tests.sample_repo import SAMPLE_FILES

pytestmark = pytest.mark.slow

NAME = "victim"
QUESTION = "how are passwords checked when a user logs in?"
EXPECTED = "shop/auth.py"
MARKERS = ("clone", "scan", "chunk", "embed", "store")
FINISHING = "Building lexical index"

# (marker to wait for, seconds after it): the plan; "start" is the moment the process was spawned
FULL_PLAN = [
    ("start", 0.2), ("start", 0.8), ("start", 1.5),
    ("clone", 0.0), ("clone", 0.1), ("clone", 0.25),
    ("scan", 0.0), ("scan", 0.05),
    ("chunk", 0.0), ("chunk", 0.1),
    ("embed", 0.0), ("embed", 0.1), ("embed", 0.3),
    ("store", 0.0), ("store", 0.2), ("store", 0.5), ("store", 0.9),
    (FINISHING, 0.0), (FINISHING, 0.05), (FINISHING, 0.15), (FINISHING, 0.4),
]  # fmt: skip
INCREMENTAL_PLAN = [("embed", 0.0), ("store", 0.1), ("store", 0.4), (FINISHING, 0.02)]


def filler(i: int, version: int = 0) -> str:
    """A module of ordinary code (order processing), so the index has a few hundred chunks."""
    return "".join(
        f'def step_{i}_{j}(order, rate={j + version}):\n    """Apply pricing rule {j} of batch {i} to an order."""\n'
        f"    subtotal = sum(line.amount for line in order.lines)\n"
        f"    if subtotal > {100 * j + i}:\n        return subtotal * rate / 100\n    return subtotal\n\n\n"
        for j in range(6)
    )


@dataclass
class Outcome:
    planned: tuple[str, float]
    killed: bool
    stage: str  # the stage the process was in when it was killed (or "finished")
    seconds: float


@dataclass
class Victim:
    """One run of the real CLI, watched through its progress output."""

    args: list[str]
    env: dict[str, str]
    seen: dict[str, float] = field(default_factory=dict)
    output: bytearray = field(default_factory=bytearray)

    def __post_init__(self) -> None:
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "codeqa", *self.args], env=self.env, stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )  # fmt: skip
        self.changed = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stderr is not None
        fd = self.process.stderr.fileno()
        while chunk := os.read(fd, 65536):
            with self.changed:
                self.output += chunk
                text = self.output[-200_000:].decode("utf-8", "replace")
                for marker in (*MARKERS, FINISHING):
                    if marker not in self.seen and re.search(rf"(?<![A-Za-z]){re.escape(marker)}(?![A-Za-z])", text):
                        self.seen[marker] = time.monotonic()
                self.changed.notify_all()
        with self.changed:
            self.changed.notify_all()

    def stage(self) -> str:
        if FINISHING in self.seen:
            return "commit"
        reached = [marker for marker in MARKERS if marker in self.seen]
        return reached[-1] if reached else "startup"

    def kill_after(self, marker: str, delay: float, timeout: float = 60) -> Outcome:
        deadline = time.monotonic() + timeout
        with self.changed:
            while marker != "start" and marker not in self.seen and self.process.poll() is None:
                if time.monotonic() > deadline:
                    break
                self.changed.wait(0.02)
        base = self.started if marker == "start" else self.seen.get(marker, time.monotonic())
        time.sleep(max(0.0, base + delay - time.monotonic()))
        stage = self.stage()
        alive = self.process.poll() is None
        if alive:
            self.process.send_signal(signal.SIGKILL)
        code = self.process.wait(timeout=30)
        self.reader.join(timeout=10)
        killed = alive and code == -signal.SIGKILL
        return Outcome((marker, delay), killed, stage if killed else "finished", time.monotonic() - self.started)


def fresh_store(settings: Settings) -> Store:
    """A new Chroma client that re-reads the disk (another process wrote to it)."""
    from chromadb.api.client import SharedSystemClient

    store_module._CLIENTS.clear()
    SharedSystemClient.clear_system_cache()
    return Store(settings)


def assert_live_index_answers(settings: Settings) -> str:
    """The live index (the previous one, or the killed run's if the kill came after its commit) is complete and
    answers the known question."""
    store = fresh_store(settings)
    manifest = store.get_manifest(NAME)
    assert store.count(manifest) == manifest.counts["chunks"] > 0, "a half-built generation is live"
    assert (settings.indexes_dir / manifest.collection).is_dir()
    hits = search_hits(NAME, QUESTION, settings, k=3, store=store)
    assert hits and hits[0].chunk.path == EXPECTED
    return manifest.collection


def assert_recovered(settings: Settings, source: str) -> str:
    """The next run succeeds and leaves exactly one generation, no lock, no half-cloned tree."""
    report = build_index(source, settings, name=NAME, store=fresh_store(settings))
    store = fresh_store(settings)
    assert store.orphan_collections() == []
    assert list((settings.home_dir / "locks").glob("*.lock")) == []
    assert sorted(p.name for p in settings.indexes_dir.iterdir()) == [report.manifest.collection]
    clones = [p.name for p in settings.clones_dir.iterdir()]
    assert len(clones) == 1 and not clones[0].startswith("."), clones  # no .partial / .old- leftovers
    assert search_hits(NAME, QUESTION, settings, k=3, store=store)[0].chunk.path == EXPECTED
    return report.manifest.collection


def run_plan(plan, settings: Settings, source: str, env: dict[str, str]) -> list[Outcome]:
    outcomes = []
    for marker, delay in plan:
        before = fresh_store(settings).get_manifest(NAME).collection
        victim = Victim(["index", source, "--name", NAME], env)
        outcome = victim.kill_after(marker, delay)
        outcomes.append(outcome)
        if not outcome.killed:  # it finished first
            assert victim.process.returncode == 0, victim.output.decode("utf-8", "replace")[-2000:]
        live = assert_live_index_answers(settings)
        if outcome.killed and live != before:
            outcome.stage = "after-commit"  # killed between the registry switch and exit: the new index is live
        assert_recovered(settings, source)
    return outcomes


def test_sigkill_at_every_stage_never_loses_the_index(tmp_path: Path, isolated_home: Path) -> None:
    started = time.monotonic()
    work = tmp_path / "work"
    work.mkdir()
    git(work, "init", "-q", "-b", "main")
    write_files(work, {**SAMPLE_FILES, **{f"orders/batch_{i}.py": filler(i) for i in range(120)}})
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", "initial")
    bare = tmp_path / "origin.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(bare)], check=True)
    source = bare.as_uri()
    settings = Settings(home=isolated_home)
    env = {**os.environ, "CODEQA_HOME": str(isolated_home), "TTY_COMPATIBLE": "1", "COLUMNS": "160"}

    build_index(source, settings, name=NAME)  # the index that must survive everything below
    outcomes = run_plan(FULL_PLAN, settings, source, env)

    # an incremental re-index (changed, added and deleted files) killed part-way
    for i in range(0, 40):
        (work / "orders" / f"batch_{i}.py").write_text(filler(i, version=1))
    (work / "orders" / "coupons.py").write_text(
        'def apply_coupon_code(order, code):\n    """Redeem a coupon code for a discount."""\n    return code\n'
    )
    for i in range(110, 120):
        (work / "orders" / f"batch_{i}.py").unlink()
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", "change")
    git(work, "push", "-q", str(bare), "main")
    before = fresh_store(settings).get_manifest(NAME)
    incremental = []
    for marker, delay in INCREMENTAL_PLAN:
        victim = Victim(["index", source, "--name", NAME], env)
        outcome = victim.kill_after(marker, delay)
        incremental.append(outcome)
        store = fresh_store(settings)
        manifest = store.get_manifest(NAME)
        if outcome.killed and manifest.collection == before.collection:  # the old generation, complete
            assert manifest.sha == before.sha and store.count(manifest) == before.counts["chunks"]
        else:  # the kill came after the commit: the new generation is live and complete
            assert manifest.sha != before.sha and store.count(manifest) == manifest.counts["chunks"]
        assert search_hits(NAME, QUESTION, settings, k=3, store=store)[0].chunk.path == EXPECTED
    after = build_index(source, settings, name=NAME, store=fresh_store(settings))
    store = fresh_store(settings)
    assert store.orphan_collections() == [] and list((settings.home_dir / "locks").glob("*.lock")) == []
    assert after.manifest.sha == git(work, "rev-parse", "HEAD")
    assert search_hits(NAME, "redeem a coupon code", settings, k=1, store=store)[0].chunk.path == "orders/coupons.py"
    assert not any(hit.chunk.path == "orders/batch_115.py" for hit in search_hits(NAME, "batch 115", settings, k=20))

    kills = [o for o in outcomes + incremental if o.killed]
    stages = {o.stage for o in kills}
    report = ", ".join(f"{o.planned[0]}+{o.planned[1]}s→{o.stage}" for o in outcomes + incremental)
    print(f"\n{len(kills)} SIGKILLs survived in {time.monotonic() - started:.0f} s; stages: {sorted(stages)}\n{report}")
    assert len(kills) >= 20, report
    assert {"startup", "clone", "store"} <= stages and len(stages) >= 5, report
    assert any(o.killed for o in incremental), report
