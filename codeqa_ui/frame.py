"""The frame every page opens with: its browser tab, the shared widgets' state, the sidebar, the warm-up.

Kept apart from ``components`` because starting the warm-up imports every page's modules, which use ``components``.
"""

from __future__ import annotations

import streamlit as st

from codeqa_ui import browser, nav, state, warm
from codeqa_ui.components import FILTER_KEYS

SHARED_KEYS = (state.REPO_KEY, *FILTER_KEYS)
# The browser tab's icon: a `:material/…:` page icon makes the browser fetch its SVG from fonts.gstatic.com (the
# icons inside pages come from Streamlit's own bundled font), so tabs get a local emoji instead.
TAB_ICONS = {":material/map:": "🗺️", ":material/code:": "📄", ":material/forum:": "💬", ":material/insights:": "📊"}


def page(title: str, icon: str, *, sidebar: bool = True) -> None:
    """Page config and sidebar links, keeping the shared widgets' values when the user switches pages."""
    tab_icon = TAB_ICONS.get(icon, "🧭") if icon.startswith(":material/") else icon
    st.set_page_config(page_title=f"{title} · codeqa", page_icon=tab_icon, layout="wide")
    warm.start()  # the first page of a fresh server warms the others (once per process, in the background)
    for key in SHARED_KEYS:  # widget state is dropped for widgets a page does not draw: keep it as user state
        if key in st.session_state:
            st.session_state[key] = st.session_state[key]
    nav.sidebar_links(divider=sidebar)
    browser.scripts()
