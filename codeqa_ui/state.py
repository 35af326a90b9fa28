"""Cached shared objects (settings, store, embedder, projections, overviews) and per-session state.

Heavy objects are ``st.cache_resource`` entries keyed by the values that define them (data dir, model, index
generation), so a re-index or an update — each a new generation — never shows stale data, and tests that switch
``CODEQA_HOME`` never share an index. Pages hold manifests (what they list and show); ``index(manifest)`` is the
handle every read goes through.
"""

from __future__ import annotations

import uuid
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

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


def settings() -> Settings:
    return get_settings()


@st.cache_resource(show_spinner="Loading the embedding model…")
def _embedder(model: str, batch: int, max_seq: int) -> Embedder:
    return get_embedder(get_settings())


def embedder() -> Embedder:
    s = settings()
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
@st.cache_resource(show_spinner="Reading the index…", max_entries=16)
def _overview(home: str, key: str, _manifest: Manifest) -> Overview:
    return get_overview(index(_manifest))  # from disk once prepared after indexing


def overview(manifest: Manifest) -> Overview:
    return _overview(str(settings().home_dir), manifest.key, manifest)


@st.cache_resource(show_spinner=False, max_entries=16)
def _facets(home: str, key: str, _manifest: Manifest) -> Facets:
    return load_facets(index(_manifest))


def facets(manifest: Manifest) -> Facets:
    return _facets(str(settings().home_dir), manifest.key, manifest)


@st.cache_resource(show_spinner="Laying out the map…", max_entries=16)
def _preview(home: str, key: str, _manifest: Manifest) -> Projection:
    return get_projection(index(_manifest), compute=False)


@st.cache_resource(show_spinner=False)
def _layout_pool(home: str) -> tuple[ThreadPoolExecutor, dict[str, Future[Any]]]:
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="codeqa-layout"), {}


def projection(manifest: Manifest) -> tuple[Projection, Future[Any] | None]:
    """The final map when cached on disk; else a quick preview plus the background job computing the final one."""
    home = str(settings().home_dir)
    final = cached_projection(index(manifest))
    if final is not None:
        return final, None
    preview = _preview(home, manifest.key, manifest)
    if is_final(preview):
        return preview, None  # tiny index: PCA is the final layout (already cached on disk)
    pool, futures = _layout_pool(home)
    future = futures.get(manifest.key)
    if future is None:  # a failed layout stays failed (shown on the page), it is not retried in a loop
        future = pool.submit(get_projection, index(manifest), compute=True)
        futures[manifest.key] = future
    if future.done() and future.exception() is None:
        return future.result(), None
    return preview, future


# -- chat history, per session and per index ----------------------------------------------------------------------
def history(name: str) -> list[dict[str, Any]]:
    return st.session_state.setdefault("history", {}).setdefault(name, [])


def clear_history(name: str) -> None:
    st.session_state.setdefault("history", {})[name] = []
