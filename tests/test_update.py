"""A fresh index: a local repository that moved on is reported stale (``codeqa list``, the app), and
``update`` re-indexes only what changed, in place — the change is searchable, unchanged chunks are kept without
being embedded again or rewritten, the search files are the ones a full build of the same tree would write, and a
URL source is fetched again. Real git repositories, pipeline and Chroma."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest
from typer.testing import CliRunner

from codeqa.cli import app
from codeqa.config import Settings, get_settings
from codeqa.index import Index
from codeqa.index.freshness import STATE_FILE
from codeqa.retrieve import retrieve
from codeqa.searchfiles import open_search_files
from codeqa.searchfiles.corpus import Corpus
from codeqa.store import collection_dir
from codeqa_ui import state
from tests.conftest import git, init_repo, write_files
from tests.test_app import NO_LLM
from tests.web_apps import FLASK_APP

runner = CliRunner()
SERVICE = "app/services/auth_service.py"
CHANGED = FLASK_APP[SERVICE].replace("MAX_FAILED_LOGINS = 5", "MAX_FAILED_LOGINS = 7\nLOCKOUT_MINUTES = 15")


def opened(settings: Settings, name: str = "forum") -> Index:
    return Index.open(name, settings)


@pytest.fixture
def forum(tmp_path: Path, settings: Settings) -> Path:
    repo = init_repo(tmp_path / "forum", FLASK_APP)
    Index.build(str(repo), settings, name="forum")
    return repo


def test_a_new_commit_makes_the_index_stale_and_update_catches_up(forum: Path, settings: Settings) -> None:
    assert opened(settings).freshness().state == "fresh"
    write_files(forum, {SERVICE: CHANGED, "app/audit.py": "def audit_login(user):\n    return user.id\n"})
    (forum / "app/email.py").unlink()
    git(forum, "add", "-A")
    git(forum, "commit", "-qm", "lockout")
    before = opened(settings)
    fresh = before.freshness()
    assert fresh.stale and fresh.reason.startswith(f"HEAD moved {before.manifest.sha[:10]} → ")
    assert (fresh.changed, fresh.added, fresh.removed) == ([SERVICE], ["app/audit.py"], ["app/email.py"])
    old_ids = {c.id for c in before.chunks()}

    (settings.cache_dir / "embeddings.sqlite").unlink()  # a full re-index would now embed every chunk again
    after = before.update()
    report = after.report
    assert report is not None
    new = after.chunks()
    changed = [c for c in new if c.path in (SERVICE, "app/audit.py")]
    assert report.embedded == len({c.hash for c in changed}) < report.chunks == len(new) == after.count()
    assert report.carried == len([c for c in new if c.path not in (SERVICE, "app/audit.py")]) > 0
    assert {c.id for c in new if c.path not in (SERVICE, "app/audit.py")} <= old_ids  # carried over as they were
    assert not any(c.path == "app/email.py" for c in new)
    live = opened(settings).manifest
    assert live.collection == before.manifest.collection and live.generation == before.manifest.generation + 1
    assert live.sha == fresh.head and after.freshness().state == "fresh"
    hits = retrieve(after, "LOCKOUT_MINUTES", k=3).hits
    assert hits[0].chunk.path == SERVICE and "LOCKOUT_MINUTES = 15" in hits[0].chunk.text
    assert not before.folder.exists()  # the old generation's files are gone, and no journal is left
    assert sorted(p.name for p in collection_dir(settings, live.collection).iterdir()) == [
        f"g{live.generation}",
        "live",
    ]


def test_an_update_writes_the_search_files_a_build_of_the_same_tree_writes(
    forum: Path, settings: Settings, tmp_path: Path
) -> None:
    write_files(forum, {SERVICE: CHANGED, "app/zz_audit.py": "def audit_login(user):\n    return user.id\n"})
    (forum / "app/email.py").unlink()
    updated = opened(settings).update()
    rebuilt = Index.build(str(forum), settings, name="again")
    a, b = open_search_files(updated.folder), open_search_files(rebuilt.folder)
    assert a is not None and b is not None
    assert a.table.ids == b.table.ids and a.table.paths == b.table.paths
    assert np.array_equal(a.vectors, b.vectors) and np.array_equal(a.files.cards, b.files.cards)
    assert np.array_equal(a.files.means, b.files.means) and a.files.paths == b.files.paths
    assert (a.graph.matrix != b.graph.matrix).nnz == 0
    for words in (["lockout", "minutes"], ["password", "hash"], ["audit", "login"], ["email", "send"]):
        assert np.array_equal(a.lexical.scores(words), b.lexical.scores(words))
        assert np.array_equal(a.files.lexical.scores(words), b.files.lexical.scores(words))
        assert np.array_equal(a.files.plain.scores(words), b.files.plain.scores(words))
    ca, cb = Corpus.load(updated.folder), Corpus.load(rebuilt.folder)
    assert ca is not None and cb is not None
    for row in range(len(ca)):
        assert [ca.vocab[i] for i in ca.lexical[row]] == [cb.vocab[i] for i in cb.lexical[row]]
    question = "how many failed logins lock an account?"
    assert [h.id for h in retrieve(updated, question).hits] == [h.id for h in retrieve(rebuilt, question).hits]


def test_nothing_changed_is_an_update_that_writes_nothing(forum: Path, settings: Settings) -> None:
    before = opened(settings)
    written = {path: path.stat().st_mtime_ns for path in before.folder.iterdir() if path.is_file()}
    (forum / "app/db.py").touch()  # a newer time, the same content: still nothing to write
    after = before.update()
    assert after.report is not None and after.report.carried == after.report.chunks and after.report.embedded == 0
    assert after.manifest.key == before.manifest.key and after.count() == before.manifest.counts["chunks"]
    assert {path for path in written if path.stat().st_mtime_ns != written[path]} == {before.folder / STATE_FILE}
    assert opened(settings).freshness().state == "fresh" and opened(settings).manifest.key == before.manifest.key


def test_uncommitted_edits_count_too_and_a_touch_alone_does_not(tmp_path: Path, settings: Settings) -> None:
    root = tmp_path / "plain"
    write_files(root, FLASK_APP)  # a directory without git
    Index.build(str(root), settings, name="plain")
    (root / "app/db.py").touch()  # newer time, same content: read again, still fresh
    assert opened(settings, "plain").freshness().state == "fresh"
    write_files(root, {SERVICE: CHANGED})
    fresh = opened(settings, "plain").freshness()
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
    assert retrieve(opened(settings), "how are passwords checked?").hits  # the index still answers


def test_an_index_without_a_file_record_is_rebuilt_whole(forum: Path, settings: Settings) -> None:
    (opened(settings).path(STATE_FILE)).unlink()
    assert opened(settings).freshness().state == "unknown"
    before = opened(settings).manifest
    report = opened(settings).update().report
    assert report is not None and report.carried == 0 and report.chunks > 0
    assert opened(settings).freshness().state == "fresh"
    assert opened(settings).manifest.collection != before.collection  # a whole rebuild is a new collection


def test_a_failed_update_leaves_the_index_working(forum: Path, settings: Settings) -> None:
    before = opened(settings).manifest
    shutil.rmtree(forum)
    assert opened(settings).freshness().state == "unknown"
    result = runner.invoke(app, ["update", "forum"])
    assert result.exit_code != 0 and "Traceback" not in result.output and result.stderr.startswith("error:")
    assert opened(settings).manifest.key == before.key
    assert retrieve(opened(settings), "password", k=1).hits


def test_a_url_source_is_fetched_again(make_git_repo, settings: Settings, tmp_path: Path) -> None:
    bare = make_git_repo(FLASK_APP, bare_copy=True)
    Index.build(str(bare), settings, name="remote")
    assert opened(settings, "remote").manifest.source_kind == "git"
    assert opened(settings, "remote").freshness().state == "unknown"
    work = tmp_path / "work"
    git(tmp_path, "clone", "-q", str(bare), str(work))
    write_files(work, {SERVICE: CHANGED})
    git(work, "commit", "-qam", "lockout")
    git(work, "push", "-q", "origin", "HEAD")
    report = opened(settings, "remote").update().report
    assert report is not None and report.carried > 0 and report.embedded >= 1
    assert opened(settings, "remote").manifest.sha == git(work, "rev-parse", "HEAD")
    assert "LOCKOUT_MINUTES" in retrieve(opened(settings, "remote"), "LOCKOUT_MINUTES", k=1).hits[0].chunk.text


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
