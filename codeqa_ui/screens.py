"""The app's pages other than Home (``home.render``), each top to bottom as the user sees it.

The page scripts (``codeqa_ui/served/pages/``, which the wheel ships and ``codeqa serve`` runs, and the checkout's
``pages/`` for ``streamlit run app.py``) only call these, so the two layouts cannot drift apart.
"""

from __future__ import annotations

import streamlit as st

from codeqa.errors import CodeqaError
from codeqa_ui import charts, chat, codeview, frame, mappanel, mapview, state
from codeqa_ui import components as ui


def chat_page() -> None:
    """Chat: ask questions about one indexed repository; streamed, cited answers with their sources."""
    frame.page("Chat", ":material/forum:")
    manifest = ui.pick_repository()
    filters = ui.filter_sidebar(manifest)
    backend, model, statuses = chat.backend_picker()
    k = st.sidebar.slider("Sources per answer", min_value=3, max_value=20, value=8, key="k")
    messages = state.history(manifest.name)
    clear = st.sidebar.empty()  # filled at the end: the first answer needs it already

    st.title(f":material/forum: Chat with {ui.escape_markdown(manifest.name)}")
    st.caption(ui.repo_caption(manifest))
    chat.llm_notice(statuses, backend)  # once above the conversation, not inside every answer
    chat.replay(manifest, messages)

    question = st.session_state.pop(chat.PREFILL_KEY, None)
    suggestions = st.empty()
    if not messages and not question:
        with suggestions.container():
            question = chat.starters(manifest)
    typed = st.chat_input(f"Ask about {manifest.name}…")
    if typed or question:
        suggestions.empty()
        chat.turn(manifest, typed or question, filters, backend, model, k)
    if messages:
        clear.button("Clear conversation", width="stretch", on_click=state.clear_history, args=(manifest.name,))


def map_page() -> None:
    """Map: every chunk of the repository as a point, regions named like places; similar code lands close."""
    frame.page("Map", ":material/scatter_plot:")
    manifest = ui.pick_repository()
    filters = ui.filter_sidebar(manifest)
    colour = st.sidebar.radio("Colour by", list(mapview.COLOURINGS), format_func=mapview.COLOURINGS.get, key="colour")

    st.title(f":material/scatter_plot: Map of {ui.escape_markdown(manifest.name)}")
    body = st.empty()  # replaces the previous repository's map at once, before anything is read
    try:
        projection, pending = state.projection(manifest)
    except CodeqaError as exc:
        ui.fail(exc)
    with body.container():
        mappanel.wait_for_layout(pending)
        find, zoom = st.columns([3, 2], vertical_alignment="bottom")
        question = find.text_input("Find on the map", placeholder="e.g. where are passwords checked?", key="map_query")
        marks = mappanel.query_marks(manifest, projection, question, filters)
        view = mappanel.choose_view(projection, marks, zoom)
        mask = mappanel.points_in_scope(manifest, projection, filters)
        st.caption(mapview.layout_caption(projection, int(mask.sum())))
        plot, side = st.columns([3, 2])  # the side panel shows code: wide enough to read it
        with plot:
            event = st.plotly_chart(
                mapview.figure(projection, colour, mask, marks, view, manifest.name),
                key=f"map_{manifest.collection}",
                on_select="rerun",
                selection_mode=("points", "box", "lasso"),
                width="stretch",
                config={"scrollZoom": True, "displaylogo": False},
            )
        selection = mappanel.selected_ids(event)
        with side:
            mappanel.side_panel(manifest, projection, marks, mappanel.opened_chunk(selection))
        mappanel.selection_panel(manifest, selection)


def overview_page() -> None:
    """Overview: what a newcomer wants first — languages, layers, directories, big files, central symbols."""
    frame.page("Overview", ":material/insights:")
    manifest = ui.pick_repository()
    st.title(f":material/insights: Overview of {ui.escape_markdown(manifest.name)}")
    st.caption(ui.repo_caption(manifest))
    body = st.empty()  # replaces the previous repository's numbers at once, before anything is read
    try:
        overview = state.overview(manifest)
    except CodeqaError as exc:
        ui.fail(exc)
    with body.container():
        charts.metrics(manifest, overview)
        charts.composition(overview)
        charts.directories(overview)
        charts.tables(overview)
        charts.dependencies(overview)


def code_page() -> None:
    """Code: the whole file a citation points at, the cited lines highlighted, with its callers and callees."""
    frame.page("Code", ":material/code:")
    index, path, lines = codeview.request()
    view = codeview.load(index, path, lines)
    codeview.header(view, lines)
    codeview.neighbours(view, lines)
    codeview.code(view, lines)
