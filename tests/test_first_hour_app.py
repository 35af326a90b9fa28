"""A newcomer's first hour (#21), page by page in Streamlit's ``AppTest``: Home's jobs and progress, Chat's notices."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from codeqa.config import Settings, get_settings
from codeqa_ui import jobs as jobs_module
from codeqa_ui import state
from tests.helpers import build_index
from tests.indexed_home import make_sample_repo
from tests.test_app import (  # noqa: F401 - the autouse fixtures apply here too
    CHAT,
    MAP,
    OVERVIEW,
    app,
    ask,
    button,
    clean_streamlit_caches,
    no_llm,
    ok,
    shared,
    shop,
    texts,
    wait_for_job,
)

SPINNER = ":blue[:material/progress_activity:]"


def test_a_job_result_belongs_to_the_session_that_started_it(tmp_path: Path):
    first = ok(app())
    first.text_input[0].set_value("https://127.0.0.1:9/nobody/nothing.git")
    first = wait_for_job(ok(button(first, "Index").click().run()))
    assert len(first.error) == 1 and "127.0.0.1" in texts(first.error)

    other = ok(app())  # a new tab: a fresh session
    assert not other.error  # the first session's failure is not this one's
    assert "failed" not in texts(other.caption) and "another session" not in texts(other.caption)  # nor told of it

    first.text_input[0].set_value("/no/such/directory")
    first = ok(button(first, "Index").click().run())
    assert len(first.error) == 1 and "No such directory" in texts(first.error)  # replaces the old one: no stack


def test_the_progress_panel_runs_one_stage_at_a_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    repo = make_sample_repo(tmp_path / "shop")
    reached, release = threading.Event(), threading.Event()
    original = jobs_module.IndexJob.on_progress

    def held(self, event):  # hold the real pipeline mid-way, when chunk, embed and store have all reported
        original(self, event)
        if event.stage == "store" and not reached.is_set():
            reached.set()
            release.wait(60)

    monkeypatch.setattr(jobs_module.IndexJob, "on_progress", held)
    at = ok(app())
    at.text_input[0].set_value(str(repo))
    at = ok(button(at, "Index").click().run())
    try:
        assert reached.wait(120)
        at = ok(at.run())
        rows = [m.value for m in at.markdown if m.value.startswith(":")]
        assert sum(SPINNER in row for row in rows) == 1, rows  # was three at once beside "10%"
        running = next(row for row in rows if SPINNER in row)
        assert "Split, embed and store" in running and "files chunked" in running and "chunks stored" in running
    finally:
        release.set()
    wait_for_job(at)


def test_manage_an_index_offers_the_index_just_made(tmp_path: Path, isolated_home: Path):
    build_index(str(make_sample_repo(tmp_path / "shop")), Settings(home=isolated_home), name="shop")
    get_settings.cache_clear()
    at = ok(app())
    at.text_input[0].set_value(str(make_sample_repo(tmp_path / "zeta")))
    at = wait_for_job(ok(button(at, "Index").click().run()))
    assert state.jobs().current.report is not None
    assert at.selectbox(key="manage_name").value == "zeta"  # not "shop", first in the list
    at.selectbox(key="manage_name").set_value("shop")
    at = ok(at.run())
    assert at.selectbox(key="manage_name").value == "shop"  # the user's choice sticks


# -- Chat -------------------------------------------------------------------------------------------------------------
@pytest.mark.usefixtures("shop")
def test_clear_conversation_is_there_right_after_the_first_answer():
    at = ask(ok(app(CHAT)), "where is the configuration loaded?")
    assert len(at.chat_message) == 2
    at = ok(button(at, "Clear conversation").click().run())  # no rerun in between (it appeared only after one)
    assert not at.chat_message


@pytest.mark.usefixtures("shop")
def test_the_no_model_notice_is_said_once_and_renders_as_written():
    at = ask(ok(app(CHAT)), "where is the configuration loaded?")
    at = ask(at, "how are passwords hashed?")
    said = [info.value for info in at.info if "No language model" in info.value]
    assert len(said) == 1, said  # above the chat, not inside each of the two answers
    assert "\\`" not in said[0] and "\\(" not in said[0] and "\\)" not in said[0]  # no escaped markup shown as text
    assert "`ollama serve`" in said[0]  # a code span, rendered as code


@pytest.mark.usefixtures("shop")
def test_the_no_model_notice_says_how_to_use_an_installed_embedded_model(monkeypatch):
    from codeqa.answer.llm.backends.embedded import packaged_gguf

    assert packaged_gguf() is not None  # as after scripts/test
    monkeypatch.delenv("CODEQA_GGUF_PATH")
    get_settings.cache_clear()
    at = ok(app(CHAT))
    said = [info.value for info in at.info if "No language model" in info.value]
    assert len(said) == 1 and "CODEQA_EMBEDDED_AUTO=true" in said[0]  # installed, but Automatic leaves it alone


# -- Map and Overview -------------------------------------------------------------------------------------------------
ROOT_FILES = {
    "README.md": "# ![logo](docs/logo.png) Shop\n\nSee [the changelog](https://github.com/acme/shop/blob/main/CHANGELOG.md).\n",
    "CHANGELOG.md": "# Changelog\n\n## [1.2.0](https://github.com/acme/shop/compare/v1.1.0...v1.2.0)\n\n- faster\n",
    "tsconfig.json": '{"compilerOptions": {"strict": true, "outDir": "dist"}}\n',
    ".env.example": "PORT=3000\nDATABASE_URL=postgres://localhost/shop\n",
}


def test_a_region_of_top_level_files_is_named_so_without_file_types_or_urls():
    """Once named "png · logo, example, tsconfig": words from an image link, file types and URLs are no names."""
    import numpy as np

    from codeqa.explore.clusters import regions

    paths, symbols = [], []
    for path, text in ROOT_FILES.items():  # the root files' chunks, each with its heading or key as symbol
        for line in text.splitlines():
            if line.strip():
                paths.append(path)
                symbols.append(line.lstrip("# "))
    code = [(f"shop/orders/order_{i}.py", f"OrderService.place_{i}") for i in range(12)]
    paths += [p for p, _ in code]
    symbols += [s for _, s in code]
    rng = np.random.default_rng(0)
    coords = np.vstack([rng.normal(0, 0.1, (len(paths) - len(code), 2)), rng.normal(5, 0.1, (len(code), 2))])
    _, _, found = regions(coords, paths, symbols)
    root = next(r for r in found if r.level == 0 and r.folder == "")
    assert root.title == "top-level files"
    assert not {"png", "https", "github", "com"} & set(root.label.replace(",", " ").replace("·", " ").split())


@pytest.mark.usefixtures("shop")
def test_place_names_have_no_box_that_hides_the_points_under_them():
    at = ok(app(MAP))
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    names = spec["layout"]["annotations"]
    assert names and all(a.get("bgcolor") in (None, "rgba(0,0,0,0)") and not a.get("borderwidth") for a in names)
    assert all(a["font"].get("shadow") for a in names)  # a halo keeps them readable over the points


@pytest.mark.usefixtures("shop")
def test_overview_tables_have_the_full_width_and_room_for_paths():
    at = ok(app(OVERVIEW))
    tables = [h.proto.body for h in at.get("html") if "cq-table" in h.proto.body]
    assert len(tables) == 2
    for body in tables:  # paths wrap after a "/" (and the tables scroll sideways rather than cut a column off)
        assert 'class="cq-table-scroll"' in body and 'class="cq-path">shop/<wbr>' in body
