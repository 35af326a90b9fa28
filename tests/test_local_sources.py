"""Local sources a team reasonably pastes: a mirror served by a real ``git daemon`` on 127.0.0.1, a ``file://`` URL,
a bare mirror (with or without its ``config`` file). Each is indexed, or refused with what to paste instead."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from codeqa.config import Settings
from codeqa.errors import SourceError
from codeqa.jobs import JobRegistry, check_source
from tests.helpers import build_index
from tests.indexed_home import make_sample_repo
from tests.sample_repo import SAMPLE_FILES
from tests.test_browser import free_port

FILES = len(SAMPLE_FILES)


@pytest.fixture
def mirror(tmp_path: Path) -> Path:
    """A bare mirror of the sample repository, as a team keeps one (``git clone --mirror``)."""
    repo = make_sample_repo(tmp_path / "work" / "shop")
    target = tmp_path / "mirrors" / "shop.git"
    subprocess.run(["git", "clone", "-q", "--mirror", str(repo), str(target)], check=True)
    return target


@contextlib.contextmanager
def git_daemon(base: Path) -> Iterator[int]:
    port = free_port()
    command = ["git", "daemon", "--reuseaddr", "--export-all", "--listen=127.0.0.1", f"--port={port}",
               f"--base-path={base}", str(base)]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
            time.sleep(0.1)
        yield port
    finally:
        process.terminate()
        process.wait(10)


def test_a_mirror_served_by_a_git_daemon_on_loopback_is_indexed(mirror: Path, settings: Settings):
    with git_daemon(mirror.parent) as port:
        url = f"git://127.0.0.1:{port}/shop.git"
        assert check_source(url, None) == url  # the app accepts it (it used to refuse "insecure transport")
        report = build_index(url, settings, name="shop")  # no test-only setting needed
    assert report.files == FILES and report.manifest.source == url


def test_a_git_daemon_elsewhere_is_refused_with_what_to_paste():
    with pytest.raises(SourceError, match=r"git:// is accepted from this machine only .*paste the https:// URL"):
        check_source("git://git.example.org/team/shop.git", None)


def test_file_urls_are_accepted_by_the_app(mirror: Path, tmp_path: Path, settings: Settings):
    registry = JobRegistry()
    job = registry.start(mirror.as_uri(), settings, name="shop")  # what Home does with a pasted file:// URL
    assert job.thread is not None
    job.thread.join(300)
    assert job.error is None and job.report is not None and job.report.files == FILES
    work_tree = mirror.parent.parent / "work" / "shop"
    assert check_source(work_tree.as_uri(), None) == work_tree.as_uri()
    with pytest.raises(SourceError, match="is not a git repository: paste the path itself"):
        check_source(tmp_path.as_uri(), None)
    with pytest.raises(SourceError, match="No such directory"):
        check_source((tmp_path / "nowhere").as_uri(), None)


@pytest.mark.parametrize("config", [True, False], ids=["with-config", "without-config"])
def test_a_bare_mirror_path_is_cloned_and_indexed(mirror: Path, settings: Settings, config: bool):
    if not config:
        (mirror / "config").unlink()  # copied by hand or by a backup tool: git still reads it, GitPython says not bare
    report = build_index(str(mirror), settings, name="shop")
    assert report.files == FILES and not report.skipped  # it used to index HEAD, description, … as "5 unsupported"
    assert report.manifest.sha and len(report.manifest.sha) == 40
    assert (mirror / "config").exists() == config  # the mirror itself is never changed
