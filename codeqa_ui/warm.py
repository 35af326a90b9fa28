"""Warm the app before its first visitor needs it: imports, the store, each index's facets, overview and map, the
embedding model. A fresh server otherwise spends the first visit of each page loading them (Home 6 s, Map 8 s).

Two triggers, both landing in ``start()`` inside the server process, which warms in a background thread:
- at server start, ``python -m codeqa_ui.warm URL`` (``scripts/run`` runs it beside the server) waits for the server
  to answer, then asks it to run Home once through Streamlit's script health check
  (``server.scriptHealthCheckEnabled`` in ``.streamlit/config.toml``); Home calls ``start()``;
- whichever page a visitor opens first calls ``start()`` too, so the other pages are warm by their first click.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
import urllib.request

_STARTED = threading.Lock()
_LOG = logging.getLogger("codeqa.warm")
started_at: float | None = None
finished_at: float | None = None


def start() -> None:
    """Warm everything once per server process, in the background (never raises, never blocks a page)."""
    global started_at
    from codeqa_ui import state

    if not state.settings().warm_app or not _STARTED.acquire(blocking=False):
        return
    started_at = time.monotonic()
    from streamlit.runtime.scriptrunner import add_script_run_ctx, get_script_run_ctx

    thread = threading.Thread(target=_warm, name="codeqa-warm", daemon=True)
    add_script_run_ctx(thread, get_script_run_ctx())  # cached factories may show a spinner: give them a session
    thread.start()


def _warm() -> None:
    global finished_at
    try:
        import pandas  # noqa: F401 - the Map's and Overview's tables and plots
        import plotly.graph_objects  # noqa: F401

        from codeqa_ui import charts, chat, codeview, mappanel, mapview, state  # noqa: F401 - every page's modules

        settings = state.settings()
        manifests = state.manifests()[: settings.open_indexes]  # the picker's first (what pages open on)
        with state.without_spinners():
            for manifest in manifests:
                state.facets(manifest)
                state.overview(manifest)
                state.projection(manifest)
            state.embedder()  # Chat's questions and the Map's "Find on the map"
            chat._backends(str(settings.home_dir), settings.ollama_host, settings.openai_base_url,
                           str(settings.gguf_path or ""))  # fmt: skip
        finished_at = time.monotonic()
        _LOG.warning("codeqa: warmed %d index(es) in %.1f s", len(manifests), finished_at - (started_at or 0.0))
    except Exception as exc:  # best effort: a page loads what it needs itself, and says so if that fails
        _LOG.warning("codeqa: warming the app stopped (%s: %s)", exc.__class__.__name__, exc)


def ping(url: str, *, wait_seconds: float = 120.0) -> bool:
    """Wait for the server at ``url``, then have it run Home once (which starts the warm-up); True when it did."""
    deadline = time.monotonic() + wait_seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    break
        except OSError:
            time.sleep(0.3)
    else:
        return False
    try:
        with urllib.request.urlopen(f"{url}/_stcore/script-health-check", timeout=wait_seconds) as response:
            return response.status == 200
    except OSError:
        return False


if __name__ == "__main__":
    sys.exit(0 if ping(sys.argv[1].rstrip("/")) else 1)
