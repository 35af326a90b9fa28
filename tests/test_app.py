"""Every page of the Streamlit app, run headless with ``AppTest`` against a real index of the sample repository."""

from __future__ import annotations

import html
import json
import re
import threading
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from codeqa.config import Settings, get_settings
from codeqa.explore import get_projection
from codeqa.index import Index
from codeqa.store import Manifest, Store
from codeqa_ui import jobs as jobs_module
from codeqa_ui import state
from tests.indexed_home import build_sample_index, make_sample_repo

APP = str(Path(__file__).resolve().parent.parent / "app.py")
CHAT, MAP, OVERVIEW = "pages/1_Chat.py", "pages/2_Map.py", "pages/3_Overview.py"


@pytest.fixture(autouse=True)
def clean_streamlit_caches():
    """``st.cache_*`` live in the process: never let one test see another's store, jobs or projections."""
    st.cache_resource.clear()
    st.cache_data.clear()
    yield
    job = state.jobs().current
    if job is not None and job.thread is not None:
        job.cancel()
        job.thread.join(60)
    st.cache_resource.clear()
    st.cache_data.clear()


NO_LLM = {"OLLAMA_HOST": "http://127.0.0.1:9", "CODEQA_GGUF_PATH": "/nonexistent/model.gguf"}


@pytest.fixture(autouse=True)
def no_llm(monkeypatch):
    """A machine with no language model: nothing listens on port 9, no GGUF file, no endpoint configured."""
    for name, value in NO_LLM.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("CODEQA_OPENAI_BASE_URL", raising=False)
    monkeypatch.delenv("CODEQA_LLM_BACKEND", raising=False)
    get_settings.cache_clear()


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> tuple[Settings, Path]:
    return build_sample_index(tmp_path_factory.mktemp("app"))


@pytest.fixture
def shop(shared, isolated_home, monkeypatch) -> Settings:
    """Point the app at the module's data dir holding index ``shop``."""
    settings, _ = shared
    monkeypatch.setenv("CODEQA_HOME", str(settings.home))
    get_settings.cache_clear()
    return settings


def app(page: str | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=90)
    if page:
        at.switch_page(page)
    return at.run()


def ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.value for e in at.exception]
    return at


def texts(elements) -> str:
    return "\n".join(str(e.value) for e in elements)


def button(at: AppTest, label: str):
    matches = [b for b in at.button if b.label == label]
    assert matches, f"no button {label!r} in {[b.label for b in at.button]}"
    return matches[0]


def wait_for_job(at: AppTest) -> AppTest:
    job = state.jobs().current
    assert job is not None and job.thread is not None
    job.thread.join(300)  # the first index of a test session also distils the embedding model
    assert not job.running
    return ok(at.run())


# -- Home ------------------------------------------------------------------------------------------------------------
def html_table(at: AppTest, name: str) -> dict[str, list[str]]:
    """The page's table labelled ``name`` (``components.table``), column by column, cells as the browser shows them."""
    from html.parser import HTMLParser

    class Cells(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.rows: list[list[str]] = []

        def handle_starttag(self, tag: str, attrs: list) -> None:
            if tag == "tr":
                self.rows.append([])
            elif tag in ("td", "th"):
                self.rows[-1].append("")

        def handle_data(self, data: str) -> None:
            if self.rows and self.rows[-1]:
                self.rows[-1][-1] += data

    body = next(h.proto.body for h in at.get("html") if f'aria-label="{name}"' in h.proto.body)
    cells = Cells()
    cells.feed(body)
    header, *rows = cells.rows
    return {column: [row[i] for row in rows] for i, column in enumerate(header)}


def index_table(at: AppTest) -> dict[str, list[str]]:
    """The table of indexes (the skipped-files list of the last job is a data grid)."""
    return html_table(at, "Indexed repositories")


def test_home_indexes_reindexes_and_deletes(tmp_path: Path):
    repo = make_sample_repo(tmp_path / "shop-repo")
    (repo / "logo.psd").write_text("not code")
    at = ok(app())
    assert at.title[0].value.endswith(" codeqa")
    assert "No repositories indexed yet" in texts(at.info)
    at.text_input[0].set_value(str(repo))
    at = ok(button(at, "Index").click().run())
    at = wait_for_job(at)
    assert "Indexed **shop-repo**: 9 files" in texts(at.success)
    assert "✅ **Embed chunks**" not in texts(at.markdown)  # the live panel is gone once done
    table = index_table(at)
    assert list(table["Name"]) == ["shop-repo"] and table["Files"][0] == "9" and int(table["Chunks"][0]) > 9
    assert table["Commit"][0] not in ("", "—") and table["Languages"][0].startswith("python")  # largest first
    skipped = next(e for e in at.expander if e.label.startswith("Skipped files"))
    assert skipped.label == "Skipped files: 1 unsupported-type"
    assert list(skipped.dataframe[0].value["Path"]) == ["logo.psd"]
    assert state.jobs().current.prepared is not None  # map and overview laid out right after indexing

    first = Store(get_settings()).get_manifest("shop-repo")
    at = ok(button(at, "Re-index").click().run())
    at = wait_for_job(at)
    assert "(0 newly embedded)" in texts(at.success)
    assert Store(get_settings()).get_manifest("shop-repo").collection != first.collection

    at = ok(button(at, "Delete").click().run())
    assert "Delete the index **shop-repo**?" in texts(at.warning)
    at = ok(button(at, "Keep it").click().run())
    assert not at.warning and len(index_table(at)["Name"]) == 1
    at = ok(button(at, "Delete").click().run())
    at = ok(button(at, "Yes, delete").click().run())
    assert "No repositories indexed yet" in texts(at.info)
    assert Store(get_settings()).list_manifests() == []


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("ext::sh -c touch% /tmp/pwned", "'ext::'"),
        ("/no/such/directory", "No such directory"),
        ("file:///etc", "/etc is not a git repository: paste the path itself"),
        ("--upload-pack=touch /tmp/x", "may not start with '-'"),
        ("", "Empty source"),
    ],
)
def test_home_rejects_bad_sources_with_a_message(source: str, message: str):
    at = ok(app())
    at.text_input[0].set_value(source)
    at = ok(button(at, "Index").click().run())
    assert message in texts(at.error)
    assert state.jobs().current is None


def test_clone_failures_show_as_errors_not_exceptions(tmp_path: Path):
    at = ok(app())
    at.text_input[0].set_value("https://127.0.0.1:9/nobody/nothing.git")
    at = wait_for_job(ok(button(at, "Index").click().run()))
    assert at.error and "Traceback" not in texts(at.error)


def test_cancel_leaves_the_previous_index_intact(shop: Settings, shared, monkeypatch):
    _, repo = shared
    before = Store(shop).get_manifest("shop")
    reached_store, release = threading.Event(), threading.Event()
    original = jobs_module.IndexJob.on_progress

    def gated(self, event):  # hold the real pipeline after the new collection has data
        if event.stage == "store":
            reached_store.set()
            release.wait(30)
        original(self, event)

    monkeypatch.setattr(jobs_module.IndexJob, "on_progress", gated)
    at = ok(app())
    at.text_input[0].set_value(str(repo))
    at.text_input[3].set_value("shop")
    at = ok(button(at, "Index").click().run())
    assert reached_store.wait(60)
    at = ok(at.button(key="cancel_index").click().run())
    release.set()
    at = wait_for_job(at)
    assert "cancelled" in texts(at.warning)
    after = Store(shop).get_manifest("shop")
    assert after.collection == before.collection and Store(shop).orphan_collections("shop") == []


# -- empty states and broken indexes --------------------------------------------------------------------------------
@pytest.mark.parametrize("page", [CHAT, MAP, OVERVIEW])
def test_pages_without_an_index_point_to_home(page: str):
    at = ok(app(page))
    assert "No repository is indexed yet" in texts(at.info)


@pytest.mark.parametrize("page", [CHAT, MAP, OVERVIEW])
def test_pages_with_missing_index_data_show_an_error(page: str, settings: Settings):
    ghost = Manifest(
        name="ghost",
        source="/gone",
        collection="cq-ghost-0000000000",
        model=settings.embedding_model,
        dimension=384,
        chunker_version="x",
        codeqa_version="x",
    )
    Store(settings).commit(ghost)
    at = ok(app(page))
    assert "missing from the store" in texts(at.error)


# -- Chat -----------------------------------------------------------------------------------------------------------
def ask(at: AppTest, question: str) -> AppTest:
    at.chat_input[0].set_value(question)
    return ok(at.run())


def source_labels(at: AppTest) -> list[str]:
    return [e.label for e in at.expander if e.label.startswith("[")]


def test_chat_without_llm_answers_with_an_extractive_map(shop: Settings):
    at = ok(app(CHAT))
    assert at.title[0].value.endswith(" Chat with shop")
    assert "No language model is available" in texts(at.info)
    assert any("configuration" in b.label for b in at.button)  # starter questions
    at.selectbox(key="backend").set_value("none")
    at = ask(ok(at.run()), "where is the configuration loaded?")
    assert "Extractive map" in texts(at.markdown)
    labels = source_labels(at)
    assert labels and any("shop/config.py:" in label for label in labels)
    assert "Extractive map · no language model was used" in texts(at.caption)
    assert any("cq-code" in h.value for h in at.get("html"))  # highlighted code with real line numbers
    assert not [b for b in at.button if b.label.startswith("Where is")]  # starters gone once the chat started

    at = ok(at.run())  # history survives a rerun
    assert len(at.chat_message) == 2 and source_labels(at) == labels
    at = ok(button(at, "Clear conversation").click().run())
    assert not at.chat_message


def test_chat_filters_restrict_the_sources(shop: Settings):
    at = ok(app(CHAT))
    at.selectbox(key="backend").set_value("none")
    at.multiselect(key="f_languages").set_value(["javascript"])
    at = ask(ok(at.run()), "how is the total price computed?")
    labels = source_labels(at)
    assert labels and all("] web/src/cart.js:" in label for label in labels)

    at = ok(app(CHAT))
    at.selectbox(key="backend").set_value("none")
    at.multiselect(key="f_paths").set_value(["tests"])
    at = ask(ok(at.run()), "how are passwords checked?")
    labels = source_labels(at)
    assert labels and all("] tests/" in label for label in labels)


def test_chat_starter_question_and_prefill_from_the_map(shop: Settings):
    at = ok(app(CHAT))
    at.selectbox(key="backend").set_value("none")
    at = ok(at.run())
    starter = [b for b in at.button if b.label == "Where is the configuration loaded?"][0]
    at = ok(starter.click().run())
    assert "Extractive map" in texts(at.markdown) and source_labels(at)

    at = AppTest.from_file(APP, default_timeout=90)
    at.session_state["chat_prefill"] = "What do these parts of the code do?"
    at.session_state["f_paths"] = ["shop/auth.py"]
    at.switch_page(CHAT)
    at = ok(at.run())
    labels = source_labels(at)
    assert labels and all("] shop/auth.py:" in label for label in labels)


# -- Map ------------------------------------------------------------------------------------------------------------
def chart_spec(at: AppTest) -> dict:
    charts = at.get("plotly_chart")
    assert charts
    return json.loads(charts[0].proto.spec)


@pytest.mark.parametrize(
    ("colour", "title", "expected"),
    [
        ("layer", "Layer", "test"),
        ("kind", "Kind", "class"),
        ("language", "Language", "javascript"),
        ("directory", "Top-level folder", "shop"),
        ("region", "Region", None),
    ],
)
def test_map_colours_points_by_each_field(shop: Settings, colour: str, title: str, expected: str | None):
    at = ok(app(MAP))
    assert at.title[0].value.endswith(" Map of shop")
    at.radio(key="colour").set_value(colour)
    spec = chart_spec(ok(at.run()))
    assert spec["layout"]["legend"]["title"]["text"] == title
    names = [trace["name"] for trace in spec["data"]]
    projection = get_projection(Index.open("shop", shop))
    expected = expected or projection.level(0)[0].title
    assert any(name.startswith(f"{expected} (") for name in names)
    assert all(trace["type"] == "scattergl" for trace in spec["data"])
    points = sum(len(trace["customdata"]) for trace in spec["data"])
    assert points == Store(shop).get_manifest("shop").counts["chunks"]
    assert "PCA projection" in texts(at.caption)


def annotations(spec: dict) -> list[str]:
    """The place names on the map (the bold part of each label)."""
    return [a["text"].split("</b>")[0].removeprefix("<b>") for a in spec["layout"].get("annotations", [])]


def test_map_names_regions_and_zooming_in_shows_finer_names(shop: Settings):
    at = ok(app(MAP))
    projection = get_projection(Index.open("shop", shop))
    whole = chart_spec(at)
    assert annotations(whole) == [r.title for r in projection.level(0)]
    biggest = projection.level(0)[0]
    at.selectbox(key="map_zoom").set_value(f"r0-{biggest.id}")
    zoomed = chart_spec(ok(at.run()))
    areas = [r.title for r in projection.level(1) if r.parent == biggest.id]
    assert set(annotations(zoomed)) <= set(areas) and annotations(zoomed)
    span = lambda spec: spec["layout"]["xaxis"]["range"][1] - spec["layout"]["xaxis"]["range"][0]  # noqa: E731
    assert span(zoomed) <= span(whole)


def test_map_search_lists_matches_beside_the_plot_and_centres_on_them(shop: Settings):
    at = ok(app(MAP))
    whole = chart_spec(at)
    at.text_input(key="map_query").set_value("how are passwords checked at login?")
    at.multiselect(key="f_languages").set_value(["python"])
    at = ok(at.run())
    spec = chart_spec(at)
    names = [trace["name"] for trace in spec["data"]]
    assert "top matches" in names and "your question" in names and "outside filters" in names
    hits = next(trace for trace in spec["data"] if trace["name"] == "top matches")
    assert hits["customdata"][0][2].startswith("shop/auth.py:")
    matches = next(radio for radio in at.radio if radio.label.startswith("Matches for"))
    assert matches.options[0].replace("\\", "").startswith("1. shop/auth.py:")
    first = f"1. {hits['customdata'][0][2]}" + f" · {hits['customdata'][0][1]}" * bool(hits["customdata"][0][1])
    assert matches.options[0].replace("\\", "") == first  # listed beside the plot, numbered as their rings
    assert spec["layout"]["xaxis"]["range"] != whole["layout"]["xaxis"]["range"]  # centred on the matches
    at = ok(matches.set_value(hits["customdata"][0][0]).run())
    opened = [e for e in at.expander if e.label.startswith("shop/auth.py:")]
    assert opened and opened[0].proto.expanded  # the match's code, beside the plot


def test_clicking_a_point_opens_its_code(shop: Settings):
    manifest = Index.open("shop", shop)
    projection = get_projection(manifest)
    i = projection.symbols.index("load_config")
    at = AppTest.from_file(APP, default_timeout=90)
    point = {"customdata": [projection.ids[i], "load_config", projection.location(i)]}
    at.session_state[f"map_{manifest.manifest.collection}"] = {
        "selection": {"points": [point], "box": [], "lasso": [], "point_indices": [i]}
    }
    at.switch_page(MAP)
    at = ok(at.run())
    opened = [e for e in at.expander if e.label.startswith(projection.location(i))]
    assert opened and opened[0].proto.expanded
    assert "selected chunks" not in texts(at.subheader)  # one point opens its code; not a multi-point selection


def test_map_selection_lists_code_and_asks_in_chat(shop: Settings):
    """A lasso around shop/auth.py's points (AppTest cannot drag: the state is set as the chart reports it)."""
    manifest = Index.open("shop", shop)
    projection = get_projection(manifest)
    ids = [i for i, path in zip(projection.ids, projection.paths, strict=True) if path == "shop/auth.py"]
    points = [{"customdata": [i, "", ""]} for i in ids]
    at = AppTest.from_file(APP, default_timeout=90)
    at.session_state[f"map_{manifest.manifest.collection}"] = {
        "selection": {"points": points, "box": [], "lasso": [], "point_indices": []}
    }
    at.switch_page(MAP)
    at = ok(at.run())
    assert f"{len(ids)} selected chunks in 1 files" in texts(at.subheader)
    labels = source_labels(at)
    assert len(labels) == len(ids) and all("] shop/auth.py:" in label for label in labels)
    at = ok(button(at, "Ask about these in Chat →").click().run())
    assert at.title[0].value.endswith(" Chat with shop")
    assert at.multiselect(key="f_paths").value == ["shop/auth.py"]
    labels = source_labels(at)
    assert labels and all("] shop/auth.py:" in label for label in labels)
    assert "What do these parts of the code do" in texts(at.markdown)


def test_place_names_never_cover_each_other():
    from codeqa_ui.mapview import Label, View, spread

    view = View((-1.0, 1.0), (-1.0, 1.0), "subsystems", "all")
    close = [Label("forum", "models, views", 0.0, 0.0, 15, ""), Label("tests/forum", "topic", 0.02, 0.01, 15, "")]
    first, second = spread([*close, Label("far", "", 0.9, 0.9, 15, "")], view)[:2]
    assert (first.x, first.y) == (0.0, 0.0)  # the bigger place keeps its spot
    assert abs(second.y - first.y) * 640 / 2 >= 2 * (15 + 6) or abs(second.x - first.x) > 0.2  # the next one moves


def test_selected_ids_reads_plotly_selection_events():
    from codeqa_ui.mappanel import selected_ids

    event = {"selection": {"points": [{"customdata": ["a", "f", "x.py:1-2"]}, {"customdata": ["a"]}, {"x": 1}]}}
    assert selected_ids(event) == ["a"]
    assert selected_ids(None) == [] and selected_ids({}) == []


# -- Overview -------------------------------------------------------------------------------------------------------
def test_overview_shows_charts_tables_and_dependencies(shop: Settings):
    at = ok(app(OVERVIEW))
    assert at.title[0].value.endswith(" Overview of shop")
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Files"] == "9" and metrics["Languages"] == "4"
    titles = [json.loads(c.proto.spec)["layout"].get("title", {}).get("text") for c in at.get("plotly_chart")]
    assert {"Languages by lines", "Layers (chunks)", "Kinds (chunks)"} <= set(titles)
    assert any(json.loads(c.proto.spec)["data"][0]["type"] == "treemap" for c in at.get("plotly_chart"))
    files, symbols = html_table(at, "Largest files"), html_table(at, "Most-referenced symbols")
    assert files["File"][0] == "shop/auth.py"
    assert "hash_password" in list(symbols["Symbol"])
    assert ("tests", "shop") in dot_edges(at.get("graphviz_chart")[0].proto.spec)
    at.selectbox(key="dep_depth").set_value(2)
    at = ok(at.run())
    assert ("tests/test_auth", "shop/auth") in dot_edges(at.get("graphviz_chart")[0].proto.spec)


def dot_edges(dot: str) -> set[tuple[str, str]]:
    """(source module, target module) of each edge: nodes have ids of their own, names are in their labels."""
    names = dict(re.findall(r"^\s*(n\d+) \[label=<([^<]*)<BR/>", dot, re.MULTILINE))
    return {(html.unescape(names[a]), html.unescape(names[b])) for a, b in re.findall(r"(n\d+) -> (n\d+)", dot)}


def test_map_shows_a_pca_preview_while_the_layout_runs_in_the_background(shop: Settings, monkeypatch):
    """The background-layout path, with the layout itself held back until the page has shown the preview."""
    import codeqa.explore.projection as project

    started, release = threading.Event(), threading.Event()
    real = project.layout

    def slow_layout(vectors, paths, *, seed):
        started.set()
        release.wait(30)
        return real(vectors, paths, seed=seed, epochs=30)

    path = project.projection_path(Index.open("shop", shop))
    path.unlink(missing_ok=True)
    monkeypatch.setattr(project, "LAYOUT_MIN_POINTS", 5)
    monkeypatch.setattr(project, "layout", slow_layout)
    try:
        at = ok(app(MAP))
        assert started.wait(30)
        assert "while the map is laid out" in texts(at.info) and "PCA projection" in texts(at.caption)
        release.set()
        future = state.open_indexes().get(Index.open("shop", shop).manifest, "layout", lambda: None)
        future.result(30)
        at = ok(app(MAP))
        assert "laid out by what their code is about" in texts(at.caption) and not at.info
        assert project.read_projection(path).method == "graph"
    finally:
        release.set()
        path.unlink(missing_ok=True)
