"""A fresh index: a local repository that moved on is reported stale (``codeqa list``, the app), and
``update`` re-indexes only what changed — the change is searchable, unchanged chunks are carried over without
being embedded again, and a URL source is fetched again. Real git repositories, pipeline and Chroma."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest
from typer.testing import CliRunner

from codeqa.cli import app
from codeqa.config import Settings, get_settings
from codeqa.freshness import STATE_FILE, check_freshness
from codeqa.pipeline import build_index
from codeqa.retrieve import retrieve
from codeqa.store import Store, index_dir
from codeqa.update import update_index
from codeqa_ui import state
from tests.conftest import git, init_repo, write_files
from tests.test_app import NO_LLM
from tests.web_apps import FLASK_APP

runner = CliRunner()
SERVICE = "app/services/auth_service.py"
CHANGED = FLASK_APP[SERVICE].replace("MAX_FAILED_LOGINS = 5", "MAX_FAILED_LOGINS = 7\nLOCKOUT_MINUTES = 15")


def manifest(settings: Settings, name: str = "forum"):
    return Store(settings).get_manifest(name)


@pytest.fixture
def forum(tmp_path: Path, settings: Settings) -> Path:
    repo = init_repo(tmp_path / "forum", FLASK_APP)
    build_index(str(repo), settings, name="forum")
    return repo


def test_a_new_commit_makes_the_index_stale_and_update_catches_up(forum: Path, settings: Settings) -> None:
    assert check_freshness(settings, manifest(settings)).state == "fresh"
    write_files(forum, {SERVICE: CHANGED, "app/audit.py": "def audit_login(user):\n    return user.id\n"})
    (forum / "app/email.py").unlink()
    git(forum, "add", "-A")
    git(forum, "commit", "-qm", "lockout")
    before = manifest(settings)
    fresh = check_freshness(settings, before)
    assert fresh.stale and fresh.reason.startswith(f"HEAD moved {before.sha[:10]} → ")
    assert (fresh.changed, fresh.added, fresh.removed) == ([SERVICE], ["app/audit.py"], ["app/email.py"])
    old_ids = {c.id for c in Store(settings).chunks(before)}

    (settings.cache_dir / "embeddings.sqlite").unlink()  # a full re-index would now embed every chunk again
    report = update_index("forum", settings)
    after = manifest(settings)
    new = Store(settings).chunks(after)
    changed = [c for c in new if c.path in (SERVICE, "app/audit.py")]
    assert report.embedded == len({c.hash for c in changed}) < report.chunks == len(new)
    assert report.carried == len([c for c in new if c.path not in (SERVICE, "app/audit.py")]) > 0
    assert {c.id for c in new if c.path not in (SERVICE, "app/audit.py")} <= old_ids  # carried over as they were
    assert not any(c.path == "app/email.py" for c in new)
    assert after.collection != before.collection and after.sha == fresh.head
    assert check_freshness(settings, after).state == "fresh"
    hits = retrieve("forum", "LOCKOUT_MINUTES", settings, k=3).hits
    assert hits[0].chunk.path == SERVICE and "LOCKOUT_MINUTES = 15" in hits[0].chunk.text
    assert not index_dir(settings, before.collection).exists()  # the old generation is gone


def test_uncommitted_edits_count_too_and_a_touch_alone_does_not(tmp_path: Path, settings: Settings) -> None:
    root = tmp_path / "plain"
    write_files(root, FLASK_APP)  # a directory without git
    build_index(str(root), settings, name="plain")
    (root / "app/db.py").touch()  # newer time, same content: read again, still fresh
    assert check_freshness(settings, manifest(settings, "plain")).state == "fresh"
    write_files(root, {SERVICE: CHANGED})
    fresh = check_freshness(settings, manifest(settings, "plain"))
    assert fresh.stale and fresh.reason == "files: 1 changed" and fresh.changed == [SERVICE]


def test_cli_list_says_stale_and_update_fixes_it(forum: Path, settings: Settings) -> None:
    write_files(forum, {SERVICE: CHANGED})
    listed = runner.invoke(app, ["list"])
    assert listed.exit_code == 0 and "stale" in listed.stdout
    assert "forum is stale (files: 1 changed): run `codeqa update forum`" in " ".join(listed.stdout.split())
    result = runner.invoke(app, ["update", "forum"])
    assert result.exit_code == 0, result.output
    assert "newly embedded 1" in result.stdout and "carried over" in result.stdout
    assert "fresh" in runner.invoke(app, ["list"]).stdout
    missing = runner.invoke(app, ["update", "nope"])
    assert missing.exit_code == 5 and "No index named 'nope'" in missing.stderr and "Traceback" not in missing.output


def test_a_source_folder_that_is_gone_is_said_and_the_index_kept(forum: Path, settings: Settings) -> None:
    shutil.move(forum, forum.with_name("elsewhere"))
    listed = " ".join(runner.invoke(app, ["list"]).stdout.split())
    assert f"not checked: the directory {forum} is gone" in listed
    result = runner.invoke(app, ["update", "forum"])
    assert result.exit_code != 0 and f"No such directory: {forum}" in result.stderr and "Traceback" not in result.output
    assert retrieve("forum", "how are passwords checked?", settings).hits  # the index still answers


def test_an_index_without_a_file_record_is_rebuilt_whole(forum: Path, settings: Settings) -> None:
    (index_dir(settings, manifest(settings).collection) / STATE_FILE).unlink()
    assert check_freshness(settings, manifest(settings)).state == "unknown"
    report = update_index("forum", settings)
    assert report.carried == 0 and report.chunks > 0
    assert check_freshness(settings, manifest(settings)).state == "fresh"


def test_a_failed_update_leaves_the_index_working(forum: Path, settings: Settings) -> None:
    before = manifest(settings)
    shutil.rmtree(forum)
    assert check_freshness(settings, before).state == "unknown"
    result = runner.invoke(app, ["update", "forum"])
    assert result.exit_code != 0 and "Traceback" not in result.output and result.stderr.startswith("error:")
    assert manifest(settings).collection == before.collection
    assert retrieve("forum", "password", settings, k=1).hits


def test_a_url_source_is_fetched_again(make_git_repo, settings: Settings, tmp_path: Path) -> None:
    bare = make_git_repo(FLASK_APP, bare_copy=True)
    build_index(str(bare), settings, name="remote")
    assert manifest(settings, "remote").source_kind == "git"
    assert check_freshness(settings, manifest(settings, "remote")).state == "unknown"
    work = tmp_path / "work"
    git(tmp_path, "clone", "-q", str(bare), str(work))
    write_files(work, {SERVICE: CHANGED})
    git(work, "commit", "-qam", "lockout")
    git(work, "push", "-q", "origin", "HEAD")
    report = update_index("remote", settings)
    assert report.carried > 0 and report.embedded >= 1
    assert manifest(settings, "remote").sha == git(work, "rev-parse", "HEAD")
    assert "LOCKOUT_MINUTES" in retrieve("remote", "LOCKOUT_MINUTES", settings, k=1).hits[0].chunk.text


def test_home_shows_stale_and_updates_with_one_click(forum: Path, settings: Settings, monkeypatch) -> None:
    for name, value in NO_LLM.items():
        monkeypatch.setenv(name, value)
    get_settings.cache_clear()
    st.cache_resource.clear()
    st.cache_data.clear()
    write_files(forum, {SERVICE: CHANGED})
    at = AppTest.from_file(str(Path(__file__).resolve().parent.parent / "app.py"), default_timeout=120).run()
    assert any("forum** is out of date: files: 1 changed" in w.value for w in at.warning)
    next(b for b in at.button if b.label == "Update").click().run()
    job = state.jobs().current
    assert job is not None and job.update
    job.thread.join(120)
    assert job.report is not None and job.report.carried > 0 and job.report.embedded == 1
    st.cache_data.clear()
    at.run()
    assert not any("out of date" in w.value for w in at.warning)
    assert any("carried over unchanged" in s.value for s in at.success)
    st.cache_resource.clear()
    st.cache_data.clear()
