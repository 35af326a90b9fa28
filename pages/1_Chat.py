"""Chat: ask questions about one indexed repository; streamed, cited answers with their sources."""

import streamlit as st

from codeqa_ui import chat, state
from codeqa_ui import components as ui

ui.page("Chat", ":material/forum:")
manifest = ui.pick_repository()
filters = ui.filter_sidebar(manifest)
backend, model, statuses = chat.backend_picker()
k = st.sidebar.slider("Sources per answer", min_value=3, max_value=20, value=8, key="k")
messages = state.history(manifest.name)
clear = st.sidebar.empty()  # filled at the end: the first answer needs it already

st.title(f":material/forum: Chat with {ui.escape_markdown(manifest.name)}")
st.caption(ui.repo_caption(manifest))
chat.llm_notice(statuses, backend)  # once above the conversation, not inside every answer
chat.replay(manifest, messages)

question = st.session_state.pop(chat.PREFILL_KEY, None)
suggestions = st.empty()
if not messages and not question:
    with suggestions.container():
        question = chat.starters(manifest)
typed = st.chat_input(f"Ask about {manifest.name}…")
if typed or question:
    suggestions.empty()
    chat.turn(manifest, typed or question, filters, backend, model, k)
if messages:
    clear.button("Clear conversation", width="stretch", on_click=state.clear_history, args=(manifest.name,))
