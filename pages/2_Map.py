"""Map: every chunk of the repository as a point; similar code lands close together."""

import streamlit as st

from codeqa.errors import CodeqaError
from codeqa_ui import components as ui
from codeqa_ui import mapview, state

ui.page("Map", ":material/scatter_plot:")
manifest = ui.pick_repository()
filters = ui.filter_sidebar(manifest)
colour = st.sidebar.radio("Colour by", list(mapview.COLOURINGS), format_func=mapview.COLOURINGS.get, key="colour")

st.title(f":material/scatter_plot: Map of {manifest.name}")
try:
    projection, pending = state.projection(manifest)
except CodeqaError as exc:
    ui.fail(exc)
mapview.wait_for_layout(pending)
question = st.text_input("Find on the map", placeholder="e.g. where are passwords checked?", key="map_query")
marks = mapview.query_marks(manifest, projection, question, filters)
mask = mapview.points_in_scope(manifest, projection, filters)
st.caption(mapview.layout_caption(projection, int(mask.sum())))
event = st.plotly_chart(
    mapview.figure(projection, colour, mask, marks),
    key=f"map_{manifest.collection}",
    on_select="rerun",
    selection_mode=("box", "lasso"),
    width="stretch",
)
mapview.selection_panel(manifest, mapview.selected_ids(event))
