"""Map: every chunk of the repository as a point, regions named like places; similar code lands close together."""

import streamlit as st

from codeqa.errors import CodeqaError
from codeqa_ui import components as ui
from codeqa_ui import mappanel, mapview, state

ui.page("Map", ":material/scatter_plot:")
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
