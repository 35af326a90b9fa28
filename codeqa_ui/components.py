"""Widgets shared by the pages: the repository picker, the filter sidebar, source blocks and empty states."""

from __future__ import annotations

import datetime as dt
import html
from collections.abc import Sequence
from urllib.parse import quote

import streamlit as st
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import TextLexer, get_lexer_by_name
from pygments.util import ClassNotFound

from codeqa.answer import code_view_url, escape_markdown, safe_markdown
from codeqa.errors import CodeqaError
from codeqa.index import Freshness
from codeqa.records import Chunk
from codeqa.retrieve import Filters
from codeqa.store import Manifest
from codeqa_ui import nav, state

FILTER_KEYS = ("f_layers", "f_kinds", "f_languages", "f_paths")
MAX_SHOWN_LINES = 400  # a source view shows at most this much of a chunk (chunks are normally a few dozen lines)
MAX_SHOWN_CHARS = 40_000
_LEXER_ALIASES = {"tsx": "tsx", "vue": "html", "svelte": "html", "erb": "erb", "hcl": "terraform", "jupyter": "python"}


def breakable(path: str) -> str:
    """A path as HTML that wraps after a ``/`` rather than inside a name (``<wbr>``), escaped for markdown too."""
    return "/<wbr>".join(escape_markdown(html.escape(part)) for part in path.split("/"))


TABLE_STYLE = (
    "<style>.cq-table-scroll{overflow-x:auto;max-width:100%;border:1px solid #e6e9ef;border-radius:.5rem}"
    ".cq-table{border-collapse:collapse;width:100%;font-size:.85rem;line-height:1.35}"
    ".cq-table th{position:sticky;top:0;background:#f8f9fb;color:#52606d;font-weight:600;text-align:left}"
    ".cq-table th,.cq-table td{padding:.35rem .6rem;border-bottom:1px solid #eef0f4;vertical-align:top}"
    ".cq-table td.cq-num,.cq-table th.cq-num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}"
    ".cq-table td.cq-path{overflow-wrap:anywhere;min-width:20ch}.cq-table td{min-width:6ch}</style>"
)


def _cell(value: object, column: str, wrapped: Sequence[str]) -> str:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return f'<td class="cq-num">{value:,}</td>'
    text = html.escape(str(value))
    if column in wrapped:  # paths break after a "/" rather than inside a name
        return f'<td class="cq-path">{text.replace("/", "/<wbr>")}</td>'
    return f"<td>{text}</td>"


def table(rows: Sequence[dict[str, object]], *, wrapped: Sequence[str] = (), name: str = "") -> None:
    """A plain table that fits the page: long paths (``wrapped`` columns) wrap at "/", and a table still too wide
    scrolls sideways inside its own box, so no column is ever cut off (Streamlit's data grid clipped them)."""
    if not rows:
        return
    columns = list(rows[0])
    numeric = {c for c in columns if all(isinstance(r[c], int | float) for r in rows)}
    head = "".join(f'<th class="{"cq-num" if c in numeric else ""}">{html.escape(c)}</th>' for c in columns)
    body = "".join("<tr>" + "".join(_cell(r[c], c, wrapped) for c in columns) + "</tr>" for r in rows)
    label = f' aria-label="{html.escape(name)}"' if name else ""
    st.html(
        f'{TABLE_STYLE}<div class="cq-table-scroll"><table class="cq-table"{label}><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


def fail(error: CodeqaError) -> None:
    """The one place pages turn a library error into UI: the message, then stop the run."""
    st.error(safe_markdown(str(error)), icon=":material/error:")
    st.stop()


def empty_state(message: str) -> None:
    st.info(message, icon=":material/explore:")
    st.page_link(nav.HOME, label="Go to Home to index a repository", icon=":material/home:")
    st.stop()


def when(timestamp: float) -> str:
    return dt.datetime.fromtimestamp(timestamp).strftime("%Y-%m-%d %H:%M")


def pick_repository() -> Manifest:
    """Sidebar repository picker shared by all pages; stops with a pointer to Home when there is no index."""
    try:
        options = state.manifests()
    except CodeqaError as exc:
        fail(exc)
    if not options:
        empty_state("No repository is indexed yet. Paste a GitHub URL or a local path on the Home page to start.")
    names = [m.name for m in options]
    if st.session_state.get(state.REPO_KEY) not in names:
        st.session_state[state.REPO_KEY] = names[0]
    name = st.sidebar.selectbox("Repository", names, key=state.REPO_KEY)
    manifest = options[names.index(name)]
    previous = st.session_state.get("_filters_for")
    if previous is not None and previous != manifest.collection:  # another repo, or re-indexed: reset filters
        for key in FILTER_KEYS:
            st.session_state.pop(key, None)
    st.session_state["_filters_for"] = manifest.collection
    return manifest


def repo_caption(manifest: Manifest) -> str:
    commit = f" @ `{manifest.sha[:10]}`" if manifest.sha else ""
    counts = manifest.counts
    return (
        f"{escape_markdown(manifest.source)}{commit} · {counts.get('files', 0):,} files · "
        f"{counts.get('lines', 0):,} lines · {counts.get('chunks', 0):,} chunks · indexed {when(manifest.created_at)}"
    )


def _labelled(counts: dict[str, int]):
    return lambda value: f"{value} ({counts[value]:,})" if value in counts else value


def filter_sidebar(manifest: Manifest) -> Filters:
    """Layer/kind/language/directory filters populated from the index; the same widgets on Chat and Map."""
    try:
        facets = state.facets(manifest)
    except CodeqaError as exc:
        fail(exc)
    side = st.sidebar
    side.subheader("Filters")
    layers = side.multiselect(
        "Layer", list(facets.layers), key="f_layers", format_func=_labelled(facets.layers), placeholder="Any layer"
    )
    kinds = side.multiselect(
        "Kind", list(facets.kinds), key="f_kinds", format_func=_labelled(facets.kinds), placeholder="Any kind"
    )
    languages = side.multiselect(
        "Language",
        list(facets.languages),
        key="f_languages",
        format_func=_labelled(facets.languages),
        placeholder="Any language",
    )
    chosen = [p for p in st.session_state.get("f_paths", []) if p not in facets.directories]
    paths = side.multiselect(
        "Directory or file",
        [*facets.directories, *chosen],
        key="f_paths",
        format_func=_labelled(facets.directories),
        placeholder="Whole repository",
        help="Only code under these directories (or exactly these files).",
    )
    filters = Filters(tuple(layers), tuple(kinds), tuple(languages), tuple(paths))
    if filters.active and side.button("Clear filters", width="stretch"):
        for key in FILTER_KEYS:
            st.session_state.pop(key, None)
        st.rerun()
    return filters


@st.cache_data(ttl=30, show_spinner=False, max_entries=64)
def _freshness(home: str, key: str, _manifest: Manifest) -> Freshness:
    return state.index(_manifest).freshness()


def freshness(manifest: Manifest) -> Freshness:
    """Whether a local source changed since it was indexed (checked at most every 30 s; never raises)."""
    try:
        return _freshness(str(state.settings().home_dir), manifest.key, manifest)
    except Exception as exc:  # a check must never break a page
        return Freshness("unknown", f"could not be checked ({exc.__class__.__name__})")


def permalink(manifest: Manifest, chunk: Chunk) -> str | None:
    """Link to exactly these lines at the indexed commit when the source is on GitHub."""
    if not manifest.web_url or not manifest.sha:
        return None
    path = quote(chunk.path)  # a path is repository text: it must not end the link or start another
    return f"{manifest.web_url.rstrip('/')}/blob/{manifest.sha}/{path}#L{chunk.start_line}-L{chunk.end_line}"


def shown_text(text: str) -> tuple[str, str | None]:
    """What a source view renders: at most ``MAX_SHOWN_LINES`` lines of ``MAX_SHOWN_CHARS``, and a note if cut."""
    lines = text.split("\n")
    kept, size = [], 0
    for line in lines[:MAX_SHOWN_LINES]:
        if size + len(line) > MAX_SHOWN_CHARS:
            kept.append(line[: max(0, MAX_SHOWN_CHARS - size)] + " …")
            break
        kept.append(line)
        size += len(line) + 1
    shown = "\n".join(kept)
    if shown == text:
        return text, None
    return (
        shown,
        f"Showing the first {len(kept):,} of {len(lines):,} lines ({len(shown):,} of {len(text):,} characters).",
    )


def lexer_for(language: str) -> Lexer:
    """The pygments lexer for an index language (plain text when pygments has none)."""
    try:
        return get_lexer_by_name(_LEXER_ALIASES.get(language, language), stripnl=False)
    except ClassNotFound:
        return TextLexer(stripnl=False)


def code_html(chunk: Chunk, *, wrap: bool = False) -> str:
    """Highlighted code whose gutter shows the file's real line numbers (``st.code`` always starts at 1).

    Capped (``shown_text``): a chunk can be one enormous line, and every rerun of a page redraws it. ``wrap`` (a
    narrow column such as the Map's side panel): long lines wrap under their own start instead of scrolling away.
    """
    text, note = shown_text(chunk.text)
    body = highlight(text, lexer_for(chunk.language), HtmlFormatter(noclasses=True, nowrap=True, style="friendly"))
    lines = body.rstrip("\n").split("\n")  # pygments closes its spans at every line end: splitting is safe
    width = len(str(chunk.start_line + len(lines) - 1))
    gutter = (
        f'<span style="display:inline-block;width:{width}ch;margin-right:1.2ch;text-align:right;color:#9aa5b1;'
        'user-select:none">{}</span>'
    )
    if wrap:  # each line a block with a hanging indent as wide as the gutter
        indent = f"{width + 1.2}ch"
        line = f'<span style="display:block;padding-left:{indent};text-indent:-{indent}">{{}}{{}}</span>'
        rows = "".join(line.format(gutter.format(chunk.start_line + i), code or " ") for i, code in enumerate(lines))
    else:
        rows = "\n".join(gutter.format(chunk.start_line + i) + code for i, code in enumerate(lines))
    cut = f'<div style="color:#66788a;font-size:.75rem;margin-top:.4rem">{html.escape(note)}</div>' if note else ""
    pre = "margin:0;background:transparent" + (";white-space:pre-wrap;overflow-wrap:anywhere" if wrap else "")
    box = "padding:.4rem .5rem;font-size:.75rem" if wrap else "padding:.6rem .8rem;font-size:.82rem"
    return (
        '<div class="cq-code" style="max-height:26rem;overflow:auto;border:1px solid #e6e9ef;border-radius:.5rem;'
        f"background:#f8f9fb;{box};font-family:'Source Code Pro',ui-monospace,monospace;"
        f'line-height:1.5"><pre style="{pre}">{rows}</pre>{cut}</div>'
    )


def source_block(
    manifest: Manifest,
    chunk: Chunk,
    *,
    number: int | None = None,
    expanded: bool = False,
    wrap: bool = False,
) -> None:
    """One source: an expander titled ``[n] path:start-end · symbol`` with metadata, permalink and the code.

    The label is markdown that can render images: path and symbol are repository text, so they are escaped.
    """
    prefix = f"[{number}] " if number is not None else ""
    symbol = f" · {chunk.symbol}" if chunk.symbol else ""
    with st.expander(prefix + escape_markdown(f"{chunk.location}{symbol}"), expanded=expanded):
        facts = " · ".join(escape_markdown(fact) for fact in (chunk.kind, chunk.layer, chunk.language))
        whole = code_view_url(manifest.name, chunk.path, chunk.start_line, chunk.end_line)
        facts += f" · [open the whole file]({whole})"
        link = permalink(manifest, chunk)
        st.caption(facts + (f" · [view on GitHub at {manifest.sha[:7]}]({link})" if link and manifest.sha else ""))
        st.html(code_html(chunk, wrap=wrap))


def source_list(manifest: Manifest, chunks: Sequence[Chunk]) -> None:
    for i, chunk in enumerate(chunks, start=1):
        source_block(manifest, chunk, number=i)
