"""The Chat page's parts: backend picker, starter questions, and one question → streamed answer → sources turn."""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Any

import streamlit as st

from codeqa.answer import (
    BackendStatus,
    ask,
    code_span,
    escape_markdown,
    link_citations,
    link_hosts,
    list_backends,
    safe_markdown,
    split_more_places,
)
from codeqa.answer.llm.backends import FALLBACK, NO_MODEL, auto_candidates
from codeqa.answer.llm.backends.registry import find
from codeqa.errors import CodeqaError
from codeqa.records import Hit
from codeqa.retrieve import Filters
from codeqa.store import Manifest
from codeqa_ui import components as ui
from codeqa_ui import state

PREFILL_KEY = "chat_prefill"  # a question sent from another page (the map's "ask about these")
LABELS = {"auto": "Automatic (best available)", "none": "No LLM: extractive map"}  # each backend's: its traits
STARTERS = (
    "Where is the configuration loaded?",
    "How does authentication work?",
    "What happens when a request fails?",
    "Where are the main entry points?",
)
REDRAW_SECONDS = 0.05  # a streamed answer is re-rendered (safely) at most this often
WRAP_KEY_LINES = (  # an answer's key lines wrap at the message's edge instead of being cut off on the right
    "<style>[data-testid='stChatMessage'] pre, [data-testid='stChatMessage'] pre code "
    "{white-space: pre-wrap !important; overflow-wrap: anywhere;}"
    # a link's underline drawn through underscores hid them: `app/__init__.py` read "app/ init .py"
    "[data-testid='stChatMessage'] a {text-underline-offset: 0.3em;}</style>"
)


@st.cache_data(ttl=30, show_spinner=False)
def _backends(home: str, ollama_host: str, openai_url: str | None, gguf: str | None) -> list[BackendStatus]:
    return list_backends(state.settings())


def backend_picker() -> tuple[str, str | None, list[BackendStatus]]:
    """Sidebar choice of backend and model, showing what is reachable right now."""
    s = state.settings()
    with state.spinner("Checking which language models are reachable…"):
        statuses = _backends(str(s.home_dir), s.ollama_host, s.openai_base_url, str(s.gguf_path or ""))
    by_name = {b.name: b for b in statuses}
    side = st.sidebar
    side.subheader("Answers")

    def label(name: str) -> str:
        status = by_name.get(name)
        suffix = "" if status is None or status.available else " — unavailable"
        traits = find(name)
        return (traits.label if traits else LABELS.get(name, name)) + suffix

    default = s.llm_backend if s.llm_backend in ("auto", *by_name) else "auto"
    options = ["auto", *by_name]
    backend = side.selectbox("Backend", options, index=options.index(default), format_func=label, key="backend")
    model = None
    models = by_name[backend].models if backend in by_name else []
    if models:
        preferred = s.llm_model if s.llm_model in models else models[0]
        model = side.selectbox("Model", models, index=models.index(preferred), key=f"model_{backend}")
    elif backend in by_name:
        side.caption(by_name[backend].detail)
    return backend, model, statuses


def llm_notice(statuses: list[BackendStatus], backend: str) -> None:
    """Say plainly, once per page, when no language model can answer, and how to get one."""
    llms = [b for b in statuses if b.name != "none"]
    candidates = auto_candidates(state.settings()) if backend == "auto" else [backend]
    if backend == "none":
        st.info(
            "Answers are **extractive maps**: the relevant code with citations, no language model.",
            icon=":material/map:",
        )
    elif not any(b.available for b in llms if b.name in candidates):
        reasons = [f"- {safe_markdown(b.detail)}" for b in llms if b.name in candidates]
        for status in llms:  # ready, but Automatic leaves it alone until the user opts in
            traits = find(status.name)
            if traits and traits.auto_hint and status.available and status.name not in candidates:
                reasons.append(f"- {traits.auto_hint}")
        st.info(
            "**No language model is available**, so answers are extractive maps of the relevant code, with "
            "citations. To get written answers:\n" + "\n".join(reasons),
            icon=":material/info:",
        )


def answer_notice(notice: str | None) -> str | None:
    """An answer's own notice, without "No language model available…": the page says that once, above the chat."""
    if not notice:
        return None
    if notice.startswith(NO_MODEL) and FALLBACK in notice:
        notice = notice.split(FALLBACK, 1)[1]
    return notice.strip() or None


def starters(manifest: Manifest) -> str | None:
    """Suggested first questions; returns the one clicked."""
    try:
        names = [s.name for s in state.overview(manifest).top_symbols]
        symbols = [n for n in names if "_" in n.strip("_") or n[:1].isupper() or any(c.isupper() for c in n)][:2]
    except CodeqaError:
        symbols = []
    questions = [*STARTERS, *(f"What does {code_span(name)} do and who uses it?" for name in symbols)]
    st.markdown("**Try one of these to start:**")
    columns = st.columns(3)
    for i, question in enumerate(questions):
        if columns[i % 3].button(question, key=f"starter_{i}", width="stretch"):
            return question
    return None


def answer_markdown(text: str, manifest: Manifest, sources: Sequence[Hit] = ()) -> str:
    """An answer as the app shows it: every citation of a source links to the code view, and nothing in it can
    contact another host or link anywhere else on this app."""
    linked = link_citations(text, manifest.name, sources) if sources else text
    return safe_markdown(linked, link_hosts(manifest.web_url), code_links_only=True)


def show(text: str, manifest: Manifest, sources: Sequence[Hit] = ()) -> None:
    """Markdown from a model or a repository, rendered so that nothing in it can contact another host; an
    extractive answer's "More places" are folded into an expander, one line each."""
    head, places, count = split_more_places(text)
    st.html(WRAP_KEY_LINES)
    st.markdown(answer_markdown(head, manifest, sources))
    if count:
        with st.expander(f"More places ({count})"):
            st.markdown(answer_markdown(places, manifest, sources))


def _notice(text: str | None) -> None:
    if text := answer_notice(text):
        st.info(safe_markdown(text), icon=":material/info:")


def stream_safely(pieces: Iterable[str], manifest: Manifest, sources: Sequence[Hit] = ()) -> None:
    """Like ``st.write_stream``, but every redraw goes through ``safe_markdown`` (a half-streamed image too)."""
    slot = st.empty()
    text, shown, last = "", "", 0.0
    for piece in pieces:
        text += piece
        if time.monotonic() - last >= REDRAW_SECONDS:
            slot.markdown(answer_markdown(text, manifest, sources))
            shown, last = text, time.monotonic()
    if split_more_places(text)[2]:  # the finished extractive answer: folded like a replayed one
        with slot.container():
            show(text, manifest, sources)
    elif text != shown or not text:
        slot.markdown(answer_markdown(text, manifest, sources))


def replay(manifest: Manifest, messages: list[dict[str, Any]]) -> None:
    for message in messages:
        with st.chat_message(message["role"]):
            _notice(message.get("notice"))
            show(message["content"], manifest, message.get("sources") or ())
            if message.get("sources"):
                _footer(manifest, message)


def _footer(manifest: Manifest, message: dict[str, Any]) -> None:
    if message.get("caption"):
        st.caption(message["caption"])
    sources = message["sources"]
    listed = message.get("listed") or len(sources)  # an extractive answer lists its numbered sources
    st.markdown(f"**Sources** ({listed})")
    ui.source_list(manifest, [hit.chunk for hit in sources[:listed]])
    if len(sources) > listed:
        st.caption(f"and {len(sources) - listed} more code places cited in the answer (their links open them)")


def _caption(answer: Any) -> str:
    if not answer.generated:
        return "Extractive map · no language model was used"
    checked = f"{answer.citations_valid} citations checked"
    if answer.citations_invalid:
        outside = escape_markdown(", ".join(answer.citations_invalid))
        checked += f", {len(answer.citations_invalid)} point outside the sources: {outside}"
    model = f" · {escape_markdown(answer.model)}" if answer.model else ""
    return f"Answered by {answer.backend}{model} · {checked}"


def turn(manifest: Manifest, question: str, filters: Filters, backend: str, model: str | None, k: int) -> None:
    """Ask, stream the answer into the page, show its sources, and remember the exchange."""
    messages = state.history(manifest.name)
    history = [(m["role"], m["content"]) for m in messages]
    with st.chat_message("user"):
        show(question, manifest)
    with st.chat_message("assistant"):
        try:
            with st.spinner("Searching the code…"):
                stream = ask(
                    state.index(manifest),
                    question,
                    filters=filters,
                    history=history,
                    backend=backend,
                    model=model,
                    k=k,
                )
        except CodeqaError as exc:
            st.error(safe_markdown(str(exc)), icon=":material/error:")
            return
        shown = stream.notice  # the stream may add to its notice while it runs (a warning about the answer)
        _notice(shown)
        stream_safely(stream, manifest, stream.sources)
        answer = stream.result()
        if answer.notice and answer.notice != shown:
            _notice(answer.notice.removeprefix(shown or "").strip())
        reply: dict[str, Any] = {
            "role": "assistant",
            "content": answer.text,
            "sources": answer.sources,
            "notice": answer.notice,
        }
        reply["caption"] = _caption(answer)
        if not answer.generated and stream.explanation is not None:
            reply["listed"] = len(stream.explanation.steps)
        if answer.sources:
            _footer(manifest, reply)
        else:
            st.warning(
                "No code matched" + (" within these filters." if filters.active else "."), icon=":material/search_off:"
            )
    messages.extend([{"role": "user", "content": question}, reply])
