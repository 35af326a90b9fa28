"""The Map page's parts: the scatter of chunks, the filter mask, question highlighting and the selection panel."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from concurrent.futures import Future
from typing import Any

import numpy as np
import plotly.graph_objects as go
import streamlit as st
from plotly.colors import qualitative

from codeqa.errors import CodeqaError
from codeqa.explore import Projection, QuestionMarks, chunks_by_id, filter_mask, locate_question
from codeqa.retrieve import Filters
from codeqa.store import Manifest
from codeqa_ui import chat, nav, state
from codeqa_ui import components as ui

COLOURINGS = {"layer": "Layer", "kind": "Kind", "language": "Language", "directory": "Top-level directory"}
PALETTE = qualitative.Bold + qualitative.Safe + qualitative.Pastel
MAX_CATEGORIES = 14
MAX_SELECTED_SHOWN = 25
MAP_HITS = 8


def points_in_scope(manifest: Manifest, projection: Projection, filters: Filters) -> np.ndarray:
    """Which points pass the shared filters: the very mask retrieval uses."""
    try:
        return filter_mask(state.settings(), manifest, projection, filters, state.store())
    except CodeqaError as exc:
        ui.fail(exc)
        raise  # unreachable: fail() stops the script


def wait_for_layout(future: Future[Any] | None) -> None:
    """While UMAP runs in the background, say so and redraw the page when it is ready."""
    if future is None:
        return
    if future.done():
        error = future.exception()
        if error is not None:
            st.warning(f"The UMAP layout failed ({error}); showing the PCA layout instead.", icon=":material/error:")
        return
    st.info(
        "Showing a quick PCA layout while the UMAP map is computed (once per index)…", icon=":material/hourglass_top:"
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
    """Top hits and the question's position; ``key`` = (data dir, collection, layout method)."""
    manifest = state.store().get_manifest(name)
    return locate_question(state.settings(), manifest, _projection, question, filters=filters, k=MAP_HITS,
                           store=state.store())  # fmt: skip


def query_marks(manifest: Manifest, projection: Projection, question: str, filters: Filters) -> QuestionMarks | None:
    if not question.strip():
        return None
    try:
        key = (str(state.settings().home_dir), manifest.collection, projection.method)
        return _marks(key, manifest.name, question.strip(), filters, projection)
    except CodeqaError as exc:
        st.error(str(exc), icon=":material/error:")
        return None


def _categories(values: Sequence[str]) -> list[str]:
    """The most common values get their own colour; the long tail is grouped as "other"."""
    common = [value for value, _ in Counter(values).most_common(MAX_CATEGORIES)]
    return sorted(common, key=lambda v: (v == "other", v))


def figure(projection: Projection, colour: str, mask: np.ndarray, marks: QuestionMarks | None) -> go.Figure:
    values = projection.field_values(colour)
    keep = set(_categories(values))
    grouped = np.asarray([v if v in keep else "other" for v in values])
    ids = np.asarray(projection.ids)
    hover = np.stack([ids, np.asarray(projection.symbols), [projection.location(i) for i in range(len(ids))]], axis=1)
    template = "<b>%{customdata[1]}</b><br>%{customdata[2]}<extra>%{fullData.name}</extra>"
    fig = go.Figure()
    if (~mask).any():
        fig.add_trace(
            go.Scattergl(
                x=projection.x[~mask],
                y=projection.y[~mask],
                mode="markers",
                name="outside filters",
                marker={"size": 5, "color": "#d5d9e0"},
                customdata=hover[~mask],
                hovertemplate=template,
            )
        )
    for i, category in enumerate(sorted(set(grouped[mask]), key=lambda v: (v == "other", v))):
        rows = mask & (grouped == category)
        fig.add_trace(
            go.Scattergl(
                x=projection.x[rows],
                y=projection.y[rows],
                mode="markers",
                name=f"{category} ({rows.sum()})",
                marker={"size": 7, "color": PALETTE[i % len(PALETTE)], "opacity": 0.85},
                customdata=hover[rows],
                hovertemplate=template,
            )
        )
    if marks is not None:
        _add_marks(fig, projection, marks, hover, template)
    fig.update_layout(
        height=620,
        margin={"l": 10, "r": 10, "t": 10, "b": 10},
        dragmode="lasso",
        legend_title_text=COLOURINGS[colour],
        xaxis={"visible": False},
        yaxis={"visible": False, "scaleanchor": "x"},
        plot_bgcolor="#ffffff",
    )
    return fig


def _add_marks(fig: go.Figure, projection: Projection, marks: QuestionMarks, hover: np.ndarray, template: str) -> None:
    where = {chunk_id: i for i, chunk_id in enumerate(projection.ids)}
    rows = [where[i] for i in marks.hit_ids if i in where]
    if rows:
        fig.add_trace(
            go.Scattergl(
                x=projection.x[rows],
                y=projection.y[rows],
                mode="markers+text",
                name="top matches",
                text=[str(n) for n in range(1, len(rows) + 1)],
                textposition="top center",
                marker={"size": 15, "color": "rgba(0,0,0,0)", "line": {"width": 2.5, "color": "#d62728"}},
                customdata=hover[rows],
                hovertemplate=template,
            )
        )
    x, y = marks.position
    fig.add_trace(
        go.Scattergl(
            x=[x],
            y=[y],
            mode="markers",
            name="your question",
            hovertext=[marks.question],
            hoverinfo="text",
            marker={"size": 20, "symbol": "star", "color": "#ffbf00", "line": {"width": 1.5, "color": "#333"}},
        )
    )


def selected_ids(event: Any) -> list[str]:
    """Chunk ids of the points the user boxed or lassoed (question marker excluded), in selection order."""
    points = (event or {}).get("selection", {}).get("points", []) if isinstance(event, dict) else []
    if not isinstance(event, dict):
        points = getattr(getattr(event, "selection", None), "points", []) or []
    ids = []
    for point in points:
        data = point.get("customdata") if isinstance(point, dict) else None
        if data and isinstance(data, list | tuple) and data[0] not in ids:
            ids.append(str(data[0]))
    return ids


def _scope_chat(question: str, files: list[str]) -> None:
    """Button callback (runs before the sidebar widgets exist, so their keys may be set): scope Chat to the files."""
    st.session_state[chat.PREFILL_KEY] = question
    st.session_state["f_paths"] = files[:30]
    for key in ("f_layers", "f_kinds", "f_languages"):
        st.session_state.pop(key, None)


def selection_panel(manifest: Manifest, ids: list[str]) -> None:
    """List the selected chunks with their code and offer to ask about them in Chat."""
    if not ids:
        st.caption("Tip: drag a box or lasso around points to read their code and ask about them.")
        return
    try:
        chunks = chunks_by_id(state.settings(), manifest, ids[:200], state.store())
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


def layout_caption(projection: Projection, shown: int) -> str:
    method = "UMAP" if projection.method == "umap" else "PCA"
    return (
        f"{shown:,} of {len(projection):,} chunks · {method} layout of the chunk embeddings: nearby points hold "
        "similar code. Hover for the symbol and location; box or lasso to select."
    )
