"""The Map page's controls and side panel: layout progress, the zoom picker, question matches, the code of a point.

Beside the plot: the matches of "Find on the map" (numbered like their rings on the map) and the code of the
point clicked (or the match picked), shown with the same source block as Chat's citations. Selecting many points
lists them below the plot with a button to ask about them in Chat.
"""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any

import numpy as np
import streamlit as st

from codeqa.errors import CodeqaError
from codeqa.explore import Projection, QuestionMarks, chunks_by_id, filter_mask, locate_question
from codeqa.retrieve import Filters
from codeqa.store import Manifest
from codeqa_ui import chat, mapview, nav, state
from codeqa_ui import components as ui

MAX_SELECTED_SHOWN = 25
MAP_HITS = 8
OPEN_KEY = "map_open"  # the chunk whose code the side panel shows
LAST_SELECTION = "_map_last_selection"


def points_in_scope(manifest: Manifest, projection: Projection, filters: Filters) -> np.ndarray:
    """Which points pass the shared filters: the very mask retrieval uses."""
    try:
        return filter_mask(state.index(manifest), projection, filters)
    except CodeqaError as exc:
        ui.fail(exc)
        raise  # unreachable: fail() stops the script


def wait_for_layout(future: Future[Any] | None) -> None:
    """While the layout runs in the background, say so and redraw the page when it is ready."""
    if future is None:
        return
    if future.done():
        error = future.exception()
        if error is not None:
            failed = ui.safe_markdown(f"The map layout failed ({error}); showing the PCA preview instead.")
            st.warning(failed, icon=":material/error:")
        return
    st.info(
        "Showing a quick PCA preview while the map is laid out (once per index; it is done right after indexing "
        "next time)…",
        icon=":material/hourglass_top:",
    )

    @st.fragment(run_every=2.0)
    def poll() -> None:
        if future.done():
            st.rerun()

    poll()


@st.cache_data(show_spinner="Searching…", max_entries=64)
def _marks(
    key: tuple[str, str, str], name: str, question: str, filters: Filters, _projection: Projection
) -> QuestionMarks:
    """Top hits and the question's position; ``key`` = (data dir, index generation, layout method)."""
    return locate_question(state.open_index(name), _projection, question, filters=filters, k=MAP_HITS)


def query_marks(manifest: Manifest, projection: Projection, question: str, filters: Filters) -> QuestionMarks | None:
    if not question.strip():
        return None
    try:
        key = (str(state.settings().home_dir), manifest.key, projection.method)
        return _marks(key, manifest.name, question.strip(), filters, projection)
    except CodeqaError as exc:
        st.error(ui.safe_markdown(str(exc)), icon=":material/error:")
        return None


def choose_view(projection: Projection, marks: QuestionMarks | None, container: Any) -> mapview.View:
    """The "Zoom to" picker (whole map, a subsystem, or an area inside one); a question centres on its matches."""
    options: dict[str, str] = {"all": "Whole map"}
    regions = {}
    for top in projection.level(0):
        options[f"r0-{top.id}"] = top.label
        regions[f"r0-{top.id}"] = top
        for area in (a for a in projection.level(1) if a.parent == top.id):
            options[f"r1-{area.id}"] = f"  › {area.label}"
            regions[f"r1-{area.id}"] = area
    if st.session_state.get("map_zoom") not in options:
        st.session_state["map_zoom"] = "all"
    chosen = container.selectbox("Zoom to", list(options), format_func=options.get, key="map_zoom")
    if chosen in regions:
        return mapview.region_view(projection, regions[chosen])
    if marks is not None and marks.hit_ids:
        return mapview.matches_view(projection, marks)
    return mapview.full_view(projection)


def selected_ids(event: Any) -> list[str]:
    """Chunk ids of the points the user clicked, boxed or lassoed (question marker excluded), in selection order."""
    points = (event or {}).get("selection", {}).get("points", []) if isinstance(event, dict) else []
    if not isinstance(event, dict):
        points = getattr(getattr(event, "selection", None), "points", []) or []
    ids = []
    for point in points:
        data = point.get("customdata") if isinstance(point, dict) else None
        if data and isinstance(data, list | tuple) and data[0] not in ids:
            ids.append(str(data[0]))
    return ids


def opened_chunk(selection: list[str]) -> str | None:
    """A click on one point opens it; picking a match opens that (whichever happened last)."""
    if tuple(selection) != st.session_state.get(LAST_SELECTION):
        st.session_state[LAST_SELECTION] = tuple(selection)
        if len(selection) == 1:
            st.session_state[OPEN_KEY] = selection[0]
    return st.session_state.get(OPEN_KEY)


def _open_match(key: str) -> None:
    """Radio callback: the picked match's code opens in the side panel."""
    if st.session_state.get(key):
        st.session_state[OPEN_KEY] = st.session_state[key]


def side_panel(manifest: Manifest, projection: Projection, marks: QuestionMarks | None, open_id: str | None) -> None:
    """The question's matches (numbered as their rings on the map; picking one opens its code) and the open code."""
    where = {chunk_id: i for i, chunk_id in enumerate(projection.ids)}
    if marks is not None:
        hits = [chunk_id for chunk_id in marks.hit_ids if chunk_id in where]
        number = {chunk_id: n for n, chunk_id in enumerate(hits, start=1)}

        def label(chunk_id: str) -> str:
            i = where[chunk_id]
            symbol = f" · {projection.symbols[i]}" if projection.symbols[i] else ""
            return ui.escape_markdown(f"{number[chunk_id]}. {projection.location(i)}{symbol}")

        key = f"map_match_{manifest.collection}_{marks.question}"
        st.radio(
            f"Matches for “{ui.escape_markdown(marks.question)}”", hits, index=None, format_func=label, key=key,
            on_change=_open_match, args=(key,),
        )  # fmt: skip
        if not hits:
            st.caption("Nothing matched within the filters.")
    if open_id and open_id in where:
        try:
            chunks = chunks_by_id(state.index(manifest), [open_id])
        except CodeqaError as exc:
            ui.fail(exc)
        if chunks:
            ui.source_block(manifest, chunks[0], expanded=True, wrap=True)  # a narrow column: wrap, never clip
    elif marks is None:
        st.caption("Click a point to read its code here; type a question above to find where it is answered.")


def _scope_chat(question: str, files: list[str]) -> None:
    """Button callback (runs before the sidebar widgets exist, so their keys may be set): scope Chat to the files."""
    st.session_state[chat.PREFILL_KEY] = question
    st.session_state["f_paths"] = files[:30]
    for key in ("f_layers", "f_kinds", "f_languages"):
        st.session_state.pop(key, None)


def selection_panel(manifest: Manifest, ids: list[str]) -> None:
    """List the selected chunks with their code and offer to ask about them in Chat (two or more points)."""
    if len(ids) < 2:
        return
    try:
        chunks = chunks_by_id(state.index(manifest), ids[:200])
    except CodeqaError as exc:
        ui.fail(exc)
    files = list(dict.fromkeys(chunk.path for chunk in chunks))
    st.subheader(f"{len(ids)} selected chunks in {len(files)} files")
    question = st.text_input(
        "Question about the selection", value="What do these parts of the code do, and how do they fit together?"
    )
    if st.button("Ask about these in Chat →", type="primary", on_click=_scope_chat, args=(question, files)):
        st.switch_page(nav.CHAT)
    ui.source_list(manifest, chunks[:MAX_SELECTED_SHOWN])
    if len(chunks) > MAX_SELECTED_SHOWN:
        st.caption(f"…and {len(chunks) - MAX_SELECTED_SHOWN} more; select a smaller region to read them.")
