"""The Overview page's charts: sizes by language/layer/kind, directory treemap, tables and the import graph."""

from __future__ import annotations

import html

import pandas  # noqa: F401 - as in mapview: plotly looks pandas up in sys.modules, never a half-imported one
import plotly.express as px
import plotly.graph_objects as go
import streamlit as st

from codeqa.answer import chart_text
from codeqa.explore import DependencyGraph, Overview
from codeqa.store import Manifest
from codeqa_ui import components as ui

HEIGHT = 320


def _bar(counts: dict[str, int], title: str, unit: str) -> go.Figure:
    items = sorted(counts.items(), key=lambda kv: kv[1])[-15:]
    fig = px.bar(
        x=[v for _, v in items],
        y=[chart_text(k) for k, _ in items],  # package names and the like are repository text
        orientation="h",
        text=[f"{v:,}" for _, v in items],
        labels={"x": unit, "y": ""},
        title=title,
    )
    fig.update_traces(marker_color="#2f6fdf", textposition="outside", cliponaxis=False)
    fig.update_layout(height=HEIGHT, margin={"l": 10, "r": 30, "t": 40, "b": 10}, xaxis={"visible": False})
    return fig


def metrics(manifest: Manifest, overview: Overview) -> None:
    columns = st.columns(5)
    columns[0].metric("Files", f"{manifest.counts.get('files', overview.files):,}")
    columns[1].metric("Lines", f"{manifest.counts.get('lines', overview.lines):,}")
    columns[2].metric("Chunks", f"{overview.chunks:,}")
    columns[3].metric("Languages", len(overview.lines_by_language))
    columns[4].metric(
        "Module imports", len(overview.dependencies().edges), help="Import links between the modules shown below."
    )


def composition(overview: Overview) -> None:
    left, middle, right = st.columns(3)
    left.plotly_chart(_bar(overview.lines_by_language, "Languages by lines", "lines"), width="stretch")
    middle.plotly_chart(_bar(overview.chunks_by_layer, "Layers (chunks)", "chunks"), width="stretch")
    right.plotly_chart(_bar(overview.chunks_by_kind, "Kinds (chunks)", "chunks"), width="stretch")


def directories(overview: Overview) -> None:
    st.subheader("Where the code is")
    shape = st.segmented_control("Chart", ["Treemap", "Sunburst"], default="Treemap", key="dir_chart")
    nodes = overview.directories  # directory names are repository text: plotly would read <a href=…> as a link
    common = {
        "ids": [chart_text(n.id) for n in nodes],
        "labels": [chart_text(n.name) for n in nodes],
        "parents": [chart_text(n.parent) for n in nodes],
        "values": [n.lines for n in nodes],
        "branchvalues": "total",
        "customdata": [[n.files] for n in nodes],
        "hovertemplate": "<b>%{id}</b><br>%{value:,} lines · %{customdata[0]} files<extra></extra>",
    }
    trace = go.Sunburst(**common, maxdepth=3) if shape == "Sunburst" else go.Treemap(**common, maxdepth=3)
    fig = go.Figure(trace)
    fig.update_layout(height=480, margin={"l": 0, "r": 0, "t": 10, "b": 0})
    st.plotly_chart(fig, width="stretch")
    st.caption("Sized by lines of code; click a box to zoom into a directory.")


def tables(overview: Overview) -> None:
    """Largest files and most-referenced symbols, one above the other at full width: paths need the room."""
    st.subheader("Largest files")
    files = overview.largest_files(15)
    rows = [{"File": f.path, "Language": f.language, "Layer": f.layer, "Lines": f.lines} for f in files]
    ui.table(rows, wrapped=("File",), name="Largest files")
    st.subheader("Most-referenced symbols")
    symbols = overview.top_symbols
    if not symbols:
        st.caption("No symbol is mentioned outside its own definition yet.")
        return
    ui.table(
        [
            {
                "Symbol": s.symbol,
                "Kind": s.kind,
                "Defined in": f"{s.path}:{s.start_line}-{s.end_line}",
                "Files using it": s.files,
                "Mentions": s.references,
            }
            for s in symbols
        ],
        wrapped=("Symbol", "Defined in"),
        name="Most-referenced symbols",
    )
    st.caption("How often each defined name appears in other chunks: a quick guide to the central pieces.")


def html_label(*lines: str) -> str:
    """A Graphviz HTML-like label showing ``lines`` as text: every character that means something is an entity."""
    return "<" + "<BR/>".join(html.escape(_printable(line), quote=True) for line in lines) + ">"


def dot_string(text: str) -> str:
    """A quoted DOT string for ``text`` (tooltips). Backslashes become ∖: ``"a\\"`` would not close the string."""
    return '"' + _printable(text).replace("\\", "∖").replace('"', '\\"') + '"'


def _printable(text: str) -> str:
    return "".join(ch if ch.isprintable() else " " for ch in text)


def dependency_dot(graph: DependencyGraph, focus: list[str], min_imports: int) -> str:
    """Graphviz DOT for the module graph, restricted to edges touching ``focus`` (all when empty).

    Module names are repository text (a directory may be called ``q"uote`` or carry DOT of its own), so nodes get
    ids of their own (``n0``, ``n1``…) and the names appear only inside escaped labels and tooltips.
    """
    edges = [
        e for e in graph.edges if e.imports >= min_imports and (not focus or e.source in focus or e.target in focus)
    ]
    shown = sorted({e.source for e in edges} | {e.target for e in edges} | set(focus))
    ids = {module: f"n{i}" for i, module in enumerate(shown)}
    top = max((graph.lines.get(m, 0) for m in shown), default=1) or 1
    lines = [
        "digraph deps {",
        '  rankdir=LR; bgcolor="transparent";',
        '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=11, color="#9db4e6"];',
        '  edge [color="#7a869a", arrowsize=0.7, fontname="Helvetica", fontsize=9];',
    ]
    for module in shown:
        share = graph.lines.get(module, 0) / top
        fill = "#2f6fdf" if module in focus else f"0.61 {0.15 + 0.5 * share:.2f} 0.97"
        font = "white" if module in focus else "#1f2933"
        label = html_label(module, f"{graph.lines.get(module, 0):,} lines")
        lines.append(
            f'  {ids[module]} [label={label}, tooltip={dot_string(module)}, fillcolor="{fill}", fontcolor="{font}"];'
        )
    for edge in edges:
        width = min(1 + edge.imports / 2, 5)
        tooltip = dot_string(f"{edge.source} → {edge.target}: {edge.imports} imports")
        lines.append(
            f'  {ids[edge.source]} -> {ids[edge.target]} [label="{edge.imports}", penwidth={width:.1f}, '
            f"tooltip={tooltip}];"
        )
    lines.append("}")
    return "\n".join(lines)


def dependencies(overview: Overview) -> None:
    st.subheader("Dependencies between modules")
    controls = st.columns([1, 2, 1])
    depth = controls[0].selectbox(
        "Module depth",
        [None, 1, 2, 3],
        format_func=lambda d: "Auto" if d is None else str(d),
        key="dep_depth",
        help="Path components per module; Auto splits the folders that hold most of the code (src/, app/, …).",
    )
    graph = overview.dependencies(depth)
    focus = controls[1].multiselect(
        "Focus on modules", list(graph.modules), key=f"dep_focus_{depth}", placeholder="All modules"
    )
    most = max((e.imports for e in graph.edges), default=1)
    min_imports = controls[2].number_input("Min. imports per edge", 1, max(most, 1), 1, key="dep_min")
    if not graph.edges:
        st.info(
            "No imports between modules were found at this depth (imports are read for Python, JavaScript, "
            "TypeScript, Go, Java, Kotlin, Scala, Ruby, PHP, C, C++, C#, Rust and Lua). Try a deeper module level.",
            icon=":material/link_off:",
        )
    else:
        st.graphviz_chart(dependency_dot(graph, focus, int(min_imports)))
        st.caption("An arrow A → B means files in A import files in B; the number is how many file-level imports.")
    if overview.external_imports:
        with st.expander("Most-used external packages"):
            st.plotly_chart(_bar(overview.external_imports, "", "files importing it"), width="stretch")
