"""The little the app does in the browser itself, on every page: citations stay in this tab, the Map's plot code
is fetched ahead. Scripts run in the page (``st.html(..., unsafe_allow_javascript=True)``) and touch nothing but
our own links and Streamlit's own files."""

from __future__ import annotations

import json
from pathlib import Path

import streamlit as st

# Citations link to the Code page. Streamlit opens every link in a new tab (and a new tab is a new session, without
# the conversation): a citation instead opens the Code page in this tab, in this session, and Back returns to the
# chat as it was. Ctrl/Cmd/middle click still open a new tab. Streamlit follows the address on "popstate".
SAME_TAB_CODE_LINKS = """<script>
(function () {
  if (window.__cqCodeLinks) { return; }
  window.__cqCodeLinks = true;
  document.addEventListener("click", function (event) {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) { return; }
    const link = event.target.closest ? event.target.closest("a[href]") : null;
    if (!link) { return; }
    const url = new URL(link.getAttribute("href"), document.location.href);
    if (url.origin !== document.location.origin || !/\\/Code$/.test(url.pathname)) { return; }
    event.preventDefault();
    event.stopPropagation();
    window.history.pushState({}, "", url.pathname + url.search);
    window.dispatchEvent(new PopStateEvent("popstate"));
  }, true);
})();
</script>"""


def _preload_script() -> str:
    """Fetch and compile the browser code of the Map's plot (4.7 MB) while the first page is idle, so the first
    visit to the Map does not wait for it (a server cannot warm a browser)."""
    found = sorted((Path(st.__file__).parent / "static" / "static" / "js").glob("PlotlyChart.*.js"))
    if not found:
        return ""
    href = json.dumps(f"static/js/{found[0].name}")
    return (
        "<script>(function () { if (window.__cqPreload) { return; } window.__cqPreload = true;"
        " setTimeout(function () { const link = document.createElement('link'); link.rel = 'modulepreload';"
        f" link.href = new URL({href}, document.baseURI).href; document.head.appendChild(link); }}, 1500); }})();"
        "</script>"
    )


PRELOAD_PLOT = _preload_script()


def scripts() -> None:
    st.html(SAME_TAB_CODE_LINKS + PRELOAD_PLOT, unsafe_allow_javascript=True)
