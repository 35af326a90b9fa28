"""The Code page's parts: a whole file from the index, the cited lines highlighted and scrolled into view, a GitHub
permalink at the indexed commit, and the callers / callees of the symbol at those lines."""

from __future__ import annotations

import html

import streamlit as st
from pygments import highlight
from pygments.formatters import HtmlFormatter

from codeqa.answer import (
    AnswerContext,
    FileView,
    code_span,
    escape_markdown,
    file_view,
    graph_answer,
    link_citations,
    link_hosts,
    parse_lines,
    render_graph,
    safe_markdown,
)
from codeqa.errors import CodeqaError, QueryError
from codeqa_ui import components as ui
from codeqa_ui import state

MAX_LINES = 6000  # a longer file is shown as a window around the cited lines
WINDOW = 2500
HIGHLIGHT = "background:#fff3b0;display:inline-block;width:100%"
SCROLL = """<script>
(function () {{
  const target = document.getElementById("cq-L{line}");
  if (target) {{ target.scrollIntoView({{block: "center"}}); }}
}})();
</script>"""


def request() -> tuple[str, str, tuple[int, int] | None]:
    """(index, path, lines) from the page's query parameters; a clear error for a broken link."""
    params = st.query_params
    index, path = params.get("index", ""), params.get("path", "")
    if not index or not path:
        ui.fail(QueryError("This page shows a file cited in an answer: open it from a citation in Chat."))
    return index, path, parse_lines(params.get("lines"))


@st.cache_data(show_spinner="Reading the file from the index…", max_entries=32)
def _view(home: str, key: str, index: str, path: str, lines: tuple[int, int] | None) -> FileView:
    return file_view(state.open_index(index), path, lines=lines)


def load(index: str, path: str, lines: tuple[int, int] | None) -> FileView:
    try:
        return _view(str(state.settings().home_dir), state.open_index(index).key, index, path, lines)
    except CodeqaError as exc:
        ui.fail(exc)
    raise AssertionError("unreachable")


def file_html(view: FileView, lines: tuple[int, int] | None) -> str:
    """The file highlighted by pygments, the real line numbers in a gutter, the cited lines marked (``cq-hit``)."""
    start, end = lines or (0, -1)
    first, last = 1, len(view.lines)
    if last > MAX_LINES:  # a window around the cited lines
        first = max(1, (start or 1) - WINDOW // 2)
        last = min(len(view.lines), first + WINDOW)
    text = "\n".join(view.lines[first - 1 : last])
    body = highlight(text, ui.lexer_for(view.language), HtmlFormatter(noclasses=True, nowrap=True, style="friendly"))
    rows = body.rstrip("\n").split("\n")
    width = len(str(last))
    out = []
    for number, row in enumerate(rows, start=first):
        hit = start <= number <= end
        gutter = (
            f'<span style="display:inline-block;width:{width}ch;margin-right:1.2ch;text-align:right;color:#9aa5b1;'
            f'user-select:none">{number}</span>'
        )
        marked = f'<span class="cq-hit" style="{HIGHLIGHT}">{gutter}{row}</span>' if hit else f"{gutter}{row}"
        out.append(f'<span id="cq-L{number}">{marked}</span>')
    note = ""
    if first > 1 or last < len(view.lines):
        note = f"Showing lines {first:,}–{last:,} of {len(view.lines):,}."
    cut = f'<div style="color:#66788a;font-size:.75rem;margin-top:.4rem">{html.escape(note)}</div>' if note else ""
    return (
        '<div class="cq-code cq-file" style="max-height:70vh;overflow:auto;border:1px solid #e6e9ef;'
        "border-radius:.5rem;background:#f8f9fb;padding:.6rem .8rem;font-family:'Source Code Pro',ui-monospace,"
        'monospace;font-size:.82rem;line-height:1.5"><pre style="margin:0;background:transparent">'
        + "\n".join(out)
        + f"</pre>{cut}</div>"
    )


LONG_TITLE = 48  # characters: a longer path gets a smaller heading, and a longer name in it a smaller one still
LONG_NAME = 32


def header(view: FileView, lines: tuple[int, int] | None) -> None:
    """The path as the heading, wrapping after a ``/`` (inside a name only when one is wider than the page)."""
    longest = max(len(part) for part in view.path.split("/"))
    level = "###" if longest > LONG_NAME else "#" if len(view.path) <= LONG_TITLE else "##"
    st.markdown(f"{level} :material/code: {ui.breakable(view.path)}", unsafe_allow_html=True)
    where = f"lines {lines[0]}–{lines[1]} · " if lines else ""
    commit = f" @ `{view.sha[:10]}`" if view.sha else ""
    language = escape_markdown(view.language)
    caption = f"{where}{len(view.lines):,} lines · {language} · index {code_span(view.index)}{commit}"
    if view.permalink and view.sha:
        caption += f" · [view on GitHub at {view.sha[:7]}]({view.permalink})"
    st.caption(safe_markdown(caption, link_hosts(view.permalink)))


def code(view: FileView, lines: tuple[int, int] | None) -> None:
    st.html(file_html(view, lines))
    if lines:
        st.html(SCROLL.format(line=max(1, lines[0])), unsafe_allow_javascript=True)


def neighbours(view: FileView, lines: tuple[int, int] | None) -> None:
    """Buttons for the callers and callees of the symbol at the cited lines; the answer shows below them."""
    symbol = view.symbol_at(*lines) if lines else None
    if not symbol:
        return
    left, right, _ = st.columns([2, 2, 1])
    key = f"graph_{view.index}_{view.path}_{symbol}"
    shown = escape_markdown(symbol)
    if left.button(f"Callers of {shown}", key=f"{key}_callers", icon=":material/call_received:"):
        st.session_state[key] = "callers"
    if right.button(f"Callees of {shown}", key=f"{key}_callees", icon=":material/call_made:"):
        st.session_state[key] = "callees"
    relation = st.session_state.get(key)
    if relation:
        try:
            context = AnswerContext.from_index(state.open_index(view.index), [], [])
            found = graph_answer(relation, symbol, context)
        except CodeqaError as exc:
            st.error(safe_markdown(str(exc)), icon=":material/error:")
            return
        text = link_citations(render_graph(found), view.index, found.sources)
        st.markdown(safe_markdown(text, code_links_only=True))
