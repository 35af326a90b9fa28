"""The Map page's drawing: which part of the map is in view, the place names shown at that zoom, and the figure.

Zoom levels work like a city map: the whole map shows subsystems, a subsystem in view shows its areas, an area
(or the neighbourhood of a question's matches) shows file names. The view is chosen on the page ("Zoom to", or
"Find on the map" centring on its matches), so the labels always fit what is shown.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas  # noqa: F401 - plotly looks pandas up in sys.modules; a fully imported one, never a half-imported one
import plotly.graph_objects as go

from codeqa.answer import chart_text
from codeqa.explore import Projection, QuestionMarks, Region

COLOURINGS = {
    "region": "Region",
    "directory": "Top-level folder",
    "layer": "Layer",
    "kind": "Kind",
    "language": "Language",
}
# 19 colours that stay distinct from each other on white (after Sasha Trubetskoy's list), then grey for "other".
PALETTE = (
    "#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#9a6324", "#469990", "#000075",
    "#808000", "#800000", "#bfef45", "#ffe119", "#dcbeff", "#fabed4", "#aaffc3", "#ffd8b1", "#a9a9a9",
)  # fmt: skip
OTHER = "#c8ccd4"
LABEL_HALO = "1px 1px 2px #fff, -1px -1px 2px #fff, 1px -1px 2px #fff, -1px 1px 2px #fff"  # CSS text-shadow
FULL, AREAS, FILES = "subsystems", "areas", "files"
MAX_FILE_LABELS = 24


@dataclass(frozen=True)
class View:
    """The part of the map in view and the label level that fits it."""

    x: tuple[float, float]
    y: tuple[float, float]
    level: str  # FULL, AREAS or FILES
    key: str  # changes when the view does (resets the browser's own zoom)


def full_view(projection: Projection) -> View:
    if not len(projection):
        return View((-1.0, 1.0), (-1.0, 1.0), FULL, "all")
    x0, x1 = _extent(projection.x)
    y0, y1 = _extent(projection.y)
    pad_x, pad_y = 0.04 * max(x1 - x0, 1e-6), 0.04 * max(y1 - y0, 1e-6)  # each axis scaled to its own spread
    return View((x0 - pad_x, x1 + pad_x), (y0 - pad_y, y1 + pad_y), FULL, "all")


def _extent(values: np.ndarray) -> tuple[float, float]:
    """Where the points are along one axis: all of them, unless a few strays (1% at either end) lie so far out that
    the rest would be squeezed into part of the frame; those stay a pan away."""
    low, high = float(values.min()), float(values.max())
    inner_low, inner_high = (float(v) for v in np.percentile(values, [1, 99]))
    if high - low > 1.5 * (inner_high - inner_low) * 1.1:
        pad = 0.05 * (inner_high - inner_low)
        return max(low, inner_low - pad), min(high, inner_high + pad)
    return low, high


def _level_for(span: float, full: float) -> str:
    return FULL if span >= 0.65 * full else AREAS if span >= 0.25 * full else FILES


def box_view(projection: Projection, bounds: tuple[float, float, float, float], key: str, min_share=0.18) -> View:
    """A view around ``bounds`` (x0, x1, y0, y1), padded, at least ``min_share`` of the whole map on each axis and
    shaped like it (so it fills the frame as the whole map does)."""
    full = full_view(projection)
    width, height = full.x[1] - full.x[0], full.y[1] - full.y[0]
    x0, x1, y0, y1 = bounds
    share = min(max((x1 - x0) / width, (y1 - y0) / height, min_share) * 1.25, 1.0)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    half_x, half_y = share * width / 2, share * height / 2
    return View((cx - half_x, cx + half_x), (cy - half_y, cy + half_y), _level_for(share, 1.0), key)


def region_view(projection: Projection, region: Region) -> View:
    view = box_view(projection, region.bounds, f"r{region.level}-{region.id}")
    level = AREAS if region.level == 0 else FILES
    return View(view.x, view.y, level if view.level == FULL else view.level, view.key)


def matches_view(projection: Projection, marks: QuestionMarks) -> View:
    """Centred on the question and its matches."""
    where = {chunk_id: i for i, chunk_id in enumerate(projection.ids)}
    rows = [where[i] for i in marks.hit_ids if i in where]
    xs = [*projection.x[rows].tolist(), marks.position[0]]
    ys = [*projection.y[rows].tolist(), marks.position[1]]
    return box_view(projection, (min(xs), max(xs), min(ys), max(ys)), f"q-{hash(marks.question)}", min_share=0.3)


def _inside(view: View, x: float, y: float) -> bool:
    return view.x[0] <= x <= view.x[1] and view.y[0] <= y <= view.y[1]


@dataclass(frozen=True)
class Label:
    title: str
    words: str
    x: float
    y: float
    size: int
    colour: str

    @property
    def html(self) -> str:
        """Plotly's annotation markup: the place in bold, its telling words smaller underneath."""
        title, words = chart_text(self.title), chart_text(self.words)
        if not words:
            return f"<b>{title}</b>"
        return f"<b>{title}</b><br><span style='font-size:{self.size - 2}px;color:#52606d'>{words}</span>"


PLOT_PX = (480.0, 640.0)  # about the plot area in pixels (3/5 of the page beside the sidebar, 1280-1400 px wide)
NUDGES = ((0, 0), (0, -1), (0, 1), (1, 0), (-1, 0), (0, -2), (0, 2), (1, -1), (-1, -1), (1, 1), (-1, 1))


def label_box(label: Label, view: View) -> tuple[float, float, float, float]:
    """About where ``label`` lands, in plot pixels (x0, x1, y0, y1), centred on its point."""
    per_x = PLOT_PX[0] / max(view.x[1] - view.x[0], 1e-9)
    per_y = PLOT_PX[1] / max(view.y[1] - view.y[0], 1e-9)
    width = max(len(label.title) * label.size * 0.6, len(label.words) * (label.size - 2) * 0.55) + 10
    height = (label.size + 6) * (2 if label.words else 1)
    x, y = label.x * per_x, label.y * per_y
    return x - width / 2, x + width / 2, y - height / 2, y + height / 2


def overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[1] and b[0] < a[1] and a[2] < b[3] and b[2] < a[3]


def spread(found: list[Label], view: View) -> list[Label]:
    """Move a label that would cover a bigger one (placed first) up, down or sideways to the first free spot; a
    label with no free spot near its place is left out (a smaller place, named again when zoomed in)."""
    per_x = PLOT_PX[0] / max(view.x[1] - view.x[0], 1e-9)
    per_y = PLOT_PX[1] / max(view.y[1] - view.y[0], 1e-9)
    placed: list[tuple[float, float, float, float]] = []
    moved = []
    for label in found:
        x0, x1, y0, y1 = label_box(label, view)
        width, height = x1 - x0, y1 - y0
        for across, down in NUDGES:
            dx, dy = across * width, down * height
            box = (x0 + dx, x1 + dx, y0 + dy, y1 + dy)
            if not any(overlap(box, other) for other in placed):
                placed.append(box)
                moved.append(replace(label, x=label.x + dx / per_x, y=label.y + dy / per_y))
                break
    return moved


def labels(projection: Projection, view: View, colours: dict[str, str], mask: np.ndarray) -> list[Label]:
    """The place names for ``view``: subsystems, areas, or the biggest files in view (never covering each other)."""
    return spread(_labels(projection, view, colours, mask), view)


def _labels(projection: Projection, view: View, colours: dict[str, str], mask: np.ndarray) -> list[Label]:
    if view.level in (FULL, AREAS):
        level = 0 if view.level == FULL else 1
        titles = {r.id: r.title for r in projection.level(0)}
        found = []
        named: set[str] = set()  # two regions with one name ("tests" here and there): the biggest is named
        for region in sorted(projection.level(level), key=lambda r: -r.size):
            if _inside(view, region.x, region.y) and region.title not in named:
                named.add(region.title)
                colour = colours.get(titles.get(region.parent if level else region.id, ""), "#1f2933")
                words = ", ".join(t for t in region.terms if t != region.title)[:48]
                found.append(Label(region.title, words, region.x, region.y, 15 if level == 0 else 13, colour))
        return found
    inside = mask & (projection.x >= view.x[0]) & (projection.x <= view.x[1])
    inside &= (projection.y >= view.y[0]) & (projection.y <= view.y[1])
    rows = np.flatnonzero(inside)
    biggest = Counter(projection.paths[i] for i in rows).most_common(MAX_FILE_LABELS)
    found = []
    for path, _ in biggest:
        members = [i for i in rows if projection.paths[i] == path]
        x, y = float(np.median(projection.x[members])), float(np.median(projection.y[members]))
        found.append(Label(path.rsplit("/", 1)[-1], "", x, y, 11, "rgba(0,0,0,0)"))
    return found


def categories(values: Sequence[str]) -> list[str]:
    """The most common values get their own colour (up to ``len(PALETTE)``); the rest is "other"."""
    return [value for value, _ in Counter(values).most_common(len(PALETTE)) if value != "other"]


def _hover(projection: Projection) -> np.ndarray:
    """Per point: chunk id (for selections), symbol and location (the hover text, shown literally)."""
    locations = [chart_text(projection.location(i)) for i in range(len(projection))]
    symbols = [chart_text(symbol) for symbol in projection.symbols]
    return np.stack([np.asarray(projection.ids), np.asarray(symbols), np.asarray(locations)], axis=1)


HOVER = "<b>%{customdata[1]}</b><br>%{customdata[2]}<extra>%{fullData.name}</extra>"


def figure(
    projection: Projection, colour: str, mask: np.ndarray, marks: QuestionMarks | None, view: View, title: str
) -> go.Figure:
    values = projection.field_values(colour)
    kept = categories(values)
    colours = {value: PALETTE[i] for i, value in enumerate(kept)}
    grouped = np.asarray([v if v in colours else "other" for v in values])
    hover = _hover(projection)
    size = float(np.clip(10 - 1.3 * np.log10(max(len(projection), 1)), 4, 9))
    fig = go.Figure()
    if (~mask).any():
        fig.add_trace(_points(projection, ~mask, hover, "outside filters", size * 0.7, "#e3e6eb", 0.6))
    for category in [*kept, "other"]:
        rows = mask & (grouped == category)
        if rows.any():
            name = f"{chart_text(category)} ({int(rows.sum()):,})"
            fig.add_trace(_points(projection, rows, hover, name, size, colours.get(category, OTHER), 0.8))
    if marks is not None:
        _add_marks(fig, projection, marks, hover)
    for label in labels(projection, view, colours if colour == "region" else {}, mask):
        across = (label.x - view.x[0]) / max(view.x[1] - view.x[0], 1e-9)  # near an edge: grow inwards
        fig.add_annotation(  # no box: the points under a name stay visible, a white halo keeps the name readable
            x=label.x, y=label.y, text=label.html, showarrow=False,
            font={"size": label.size, "color": "#111827", "shadow": LABEL_HALO}, bgcolor="rgba(0,0,0,0)", borderwidth=0,
            xanchor="left" if across < 0.18 else "right" if across > 0.82 else "center",
        )  # fmt: skip
    fig.update_layout(
        height=700,
        margin={"l": 0, "r": 0, "t": 30, "b": 0},
        title={"text": title, "x": 0.01, "font": {"size": 13, "color": "#52606d"}},
        dragmode="pan",
        uirevision=view.key,
        legend={"title": {"text": COLOURINGS[colour]}, "orientation": "h", "y": -0.01, "yanchor": "top"},
        showlegend=colour != "region",  # the place names are the legend
        xaxis={"visible": False, "range": list(view.x)},
        yaxis={"visible": False, "range": list(view.y)},  # no scaleanchor: a flat map would be a thin band
        plot_bgcolor="#ffffff",
        hoverlabel={"bgcolor": "white"},
    )
    return fig


def _points(
    projection: Projection, rows: np.ndarray, hover: np.ndarray, name: str, size: float, colour: str, opacity: float
) -> go.Scattergl:
    return go.Scattergl(
        x=projection.x[rows],
        y=projection.y[rows],
        mode="markers",
        name=name,
        marker={"size": size, "color": colour, "opacity": opacity},
        customdata=hover[rows],
        hovertemplate=HOVER,
    )


def _add_marks(fig: go.Figure, projection: Projection, marks: QuestionMarks, hover: np.ndarray) -> None:
    where = {chunk_id: i for i, chunk_id in enumerate(projection.ids)}
    rows = [where[i] for i in marks.hit_ids if i in where]
    if rows:
        fig.add_trace(
            go.Scattergl(
                x=projection.x[rows],
                y=projection.y[rows],
                mode="markers+text",
                name="top matches",
                text=[str(n) for n in range(1, len(rows) + 1)],
                textposition="top center",
                textfont={"size": 13, "color": "#b91c1c"},
                marker={"size": 16, "color": "rgba(0,0,0,0)", "line": {"width": 2.5, "color": "#d62728"}},
                customdata=hover[rows],
                hovertemplate=HOVER,
            )
        )
    x, y = marks.position
    fig.add_trace(
        go.Scattergl(
            x=[x],
            y=[y],
            mode="markers",
            name="your question",
            hovertext=[chart_text(marks.question)],
            hoverinfo="text",
            marker={"size": 22, "symbol": "star", "color": "#ffbf00", "line": {"width": 1.5, "color": "#333"}},
        )
    )


def layout_caption(projection: Projection, shown: int) -> str:
    how = (
        "chunks laid out by what their code is about, with each folder kept together"
        if projection.method != "pca"
        else "a PCA projection of the chunk embeddings"
    )
    return (
        f"{shown:,} of {len(projection):,} chunks · {how}: nearby points hold related code. Place names show the main "
        "folder and telling words of each region; zoom to a region for finer names. Click a point to read its code, "
        "or box/lasso-select many."
    )
