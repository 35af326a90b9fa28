"""The app's navigation: our own sidebar links with names and icons.

Streamlit's automatic ``pages/`` navigation would label the entry script "app", and ``st.navigation`` is bypassed
when a page URL is opened directly while a ``pages/`` folder exists; so the automatic menu is hidden
(``client.showSidebarNavigation = false``) and every page draws these links instead.
"""

from __future__ import annotations

import streamlit as st

HOME = "app.py"
CHAT = "pages/1_Chat.py"
MAP = "pages/2_Map.py"
OVERVIEW = "pages/3_Overview.py"
CODE = "pages/4_Code.py"  # opened from citations (it needs ?index=…&path=…&lines=…), not from the menu
LINKS = (
    (HOME, "Home", ":material/home:"),
    (CHAT, "Chat", ":material/forum:"),
    (MAP, "Map", ":material/scatter_plot:"),
    (OVERVIEW, "Overview", ":material/insights:"),
)


def sidebar_links(*, divider: bool = True) -> None:
    with st.sidebar:
        for page, label, icon in LINKS:
            st.page_link(page, label=label, icon=icon)
        if divider:  # separates the menu from the page's own sidebar controls
            st.divider()
