"""Cached shared objects (settings, store, embedder, projections, overviews) and per-session state.

Heavy objects are ``st.cache_resource`` entries keyed by the values that define them (data dir, model), and what
pages derive from an index is kept per index generation in ``OpenIndexes`` (the ``CODEQA_OPEN_INDEXES`` most recently
used), so a re-index or an update — each a new generation — never shows stale data, tests that switch
``CODEQA_HOME`` never share an index, and a server that has shown many indexes holds only a few. Pages hold
manifests (what they list and show); ``index(manifest)`` is the handle every read goes through.
"""

from __future__ import annotations

import contextlib
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

import streamlit as st

from codeqa.config import Settings, get_settings
from codeqa.embed import Embedder, get_embedder
from codeqa.explore import (
    Facets,
    Overview,
    Projection,
    cached_projection,
    get_overview,
    get_projection,
    is_final,
    load_facets,
)
from codeqa.index import Index
from codeqa.store import Manifest
from codeqa_ui.jobs import JobRegistry

REPO_KEY = "repo"  # the selected index, shared by all pages
T = TypeVar("T")


def settings() -> Settings:
    return get_settings()


_QUIET = threading.local()


@contextlib.contextmanager
def without_spinners() -> Iterator[None]:
    """For a background thread (the warm-up): a spinner there writes to a visitor's page, and raises when that
    page's run has been stopped meanwhile (a click elsewhere), which ended the warm-up half-way."""
    _QUIET.on = True
    try:
        yield
    finally:
        _QUIET.on = False


def spinner(message: str) -> contextlib.AbstractContextManager[Any]:
    return contextlib.nullcontext() if getattr(_QUIET, "on", False) else st.spinner(message)


@st.cache_resource(show_spinner=False)
def _embedder(model: str, batch: int, max_seq: int) -> Embedder:
    return get_embedder(get_settings())


def embedder() -> Embedder:
    s = settings()
    with spinner("Loading the embedding model…"):
        return _embedder(s.embedding_model, s.embedding_batch_size, s.embedding_max_seq_length)


@st.cache_resource(show_spinner=False)
def _jobs(home: str) -> JobRegistry:
    return JobRegistry()


def jobs() -> JobRegistry:
    return _jobs(str(settings().home_dir))


def session_id() -> str:
    """This browser session (a page reload is a new one): the owner of the jobs it starts."""
    return st.session_state.setdefault("_session_id", uuid.uuid4().hex)


def manifests() -> list[Manifest]:
    return [opened.manifest for opened in Index.all(settings())]


def index(manifest: Manifest) -> Index:
    """The handle on the index generation ``manifest`` names (cheap: its search files are cached per process)."""
    return Index.from_manifest(manifest, settings())


def open_index(name: str) -> Index:
    """The live generation of index ``name`` (a Code page link names the index only)."""
    return Index.open(name, settings())


# -- per-index data, keyed by index generation (a re-index or an update = a new key) --------------------------------
class OpenIndexes:
    """What the pages derived from the indexes open in this server (overview, facets, map preview, the layout job),
    the ``cap`` most recently used kept. Opening one more releases the least recently used: its data here and its
    search files (``Index.release``); they are read from disk again when it is next visited."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self._open: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._manifests: dict[str, Manifest] = {}
        self._lock = threading.Lock()

    def keys(self) -> list[str]:
        with self._lock:
            return list(self._open)

    def get(self, manifest: Manifest, part: str, load: Callable[[], T]) -> T:
        with self._lock:
            entry = self._touch(manifest)
            if part in entry:
                return entry[part]
        value = load()
        with self._lock:
            return self._touch(manifest).setdefault(part, value)

    def _touch(self, manifest: Manifest) -> dict[str, Any]:
        key = manifest.key
        if key in self._open:
            self._open.move_to_end(key)
            return self._open[key]
        entry: dict[str, Any] = {}
        self._open[key], self._manifests[key] = entry, manifest
        while len(self._open) > self.cap:
            old, _ = self._open.popitem(last=False)
            index(self._manifests.pop(old)).release()
        return entry


@st.cache_resource(show_spinner=False)
def _open_indexes(home: str, cap: int) -> OpenIndexes:
    return OpenIndexes(cap)


def open_indexes() -> OpenIndexes:
    s = settings()
    return _open_indexes(str(s.home_dir), s.open_indexes)


def overview(manifest: Manifest) -> Overview:
    def load() -> Overview:
        with spinner("Reading the index…"):
            return get_overview(index(manifest))  # from disk once prepared after indexing

    return open_indexes().get(manifest, "overview", load)


def facets(manifest: Manifest) -> Facets:
    return open_indexes().get(manifest, "facets", lambda: load_facets(index(manifest)))


def _preview(manifest: Manifest) -> Projection:
    def load() -> Projection:
        with spinner("Laying out the map…"):
            return get_projection(index(manifest), compute=False)

    return open_indexes().get(manifest, "preview", load)


@st.cache_resource(show_spinner=False)
def _layout_pool(home: str) -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="codeqa-layout")


def projection(manifest: Manifest) -> tuple[Projection, Future[Any] | None]:
    """The final map when cached on disk; else a quick preview plus the background job computing the final one."""
    final = cached_projection(index(manifest))
    if final is not None:
        return final, None
    preview = _preview(manifest)
    if is_final(preview):
        return preview, None  # tiny index: PCA is the final layout (already cached on disk)
    pool = _layout_pool(str(settings().home_dir))
    # a failed layout stays failed (shown on the page) while the index is open, it is not retried in a loop
    future = open_indexes().get(manifest, "layout", lambda: pool.submit(get_projection, index(manifest), compute=True))
    if future.done() and future.exception() is None:
        return future.result(), None
    return preview, future


# -- chat history, per session and per index ----------------------------------------------------------------------
def history(name: str) -> list[dict[str, Any]]:
    return st.session_state.setdefault("history", {}).setdefault(name, [])


def clear_history(name: str) -> None:
    st.session_state.setdefault("history", {})[name] = []
