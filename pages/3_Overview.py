"""Overview: what a newcomer wants first — languages, layers, directories, big files, central symbols, imports."""

import streamlit as st

from codeqa.errors import CodeqaError
from codeqa_ui import charts, state
from codeqa_ui import components as ui

ui.page("Overview", ":material/insights:")
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
