"""The Map's figure as drawn (#37): a small repository fills its frame, place names never cover each other and each
is shown once. Checked on the plotly figure the page hands to the browser."""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from codeqa.config import Settings
from codeqa.explore import Projection, get_projection
from codeqa.explore.clusters import Region
from codeqa.index import Index
from codeqa_ui import mapview
from tests.helpers import build_index
from tests.indexed_home import make_sample_repo

MIN_FILL = 0.8  # the points' spread over the frame's range, on each axis


def _projection(x: np.ndarray, y: np.ndarray, regions: tuple[Region, ...] = ()) -> Projection:
    n = len(x)
    paths = tuple(f"pkg/m{i % 7}.py" for i in range(n))
    return Projection(
        index="t", collection="t-1", method="graph", ids=tuple(f"c{i}" for i in range(n)), x=x, y=y, paths=paths,
        symbols=("",) * n, kinds=("function",) * n, layers=("core",) * n, languages=("python",) * n,
        start_lines=np.ones(n, int), end_lines=np.full(n, 9), subsystems=np.zeros(n, np.int32),
        areas=np.zeros(n, np.int32), regions=regions,
    )  # fmt: skip


def _fill(fig, projection: Projection) -> tuple[float, float]:
    x_range, y_range = fig.layout.xaxis.range, fig.layout.yaxis.range
    return (
        float(np.ptp(projection.x)) / (x_range[1] - x_range[0]),
        float(np.ptp(projection.y)) / (y_range[1] - y_range[0]),
    )


def _draw(projection: Projection, view: mapview.View | None = None):
    mask = np.ones(len(projection), bool)
    return mapview.figure(projection, "region", mask, None, view or mapview.full_view(projection), "t")


def _label_boxes(fig, view: mapview.View) -> list[tuple[float, float, float, float]]:
    boxes = []
    for note in fig.layout.annotations:
        title = note.text.split("<br>")[0].removeprefix("<b>").removesuffix("</b>")
        words = note.text.split("<br>")[1].split(">", 1)[1].removesuffix("</span>") if "<br>" in note.text else ""
        boxes.append(mapview.label_box(mapview.Label(title, words, note.x, note.y, note.font.size, ""), view))
    return boxes


def test_a_flat_map_fills_its_frame_on_both_axes():
    rng = np.random.default_rng(0)
    flat = _projection(rng.uniform(-1, 1, 300), rng.uniform(-0.05, 0.05, 300))  # a thin band, as PCA gave
    fig = _draw(flat)
    assert fig.layout.yaxis.scaleanchor is None  # equal units would squeeze it back into a band
    x_fill, y_fill = _fill(fig, flat)
    assert x_fill >= MIN_FILL and y_fill >= MIN_FILL, (x_fill, y_fill)


def test_a_zoomed_view_keeps_the_maps_shape():
    rng = np.random.default_rng(1)
    flat = _projection(rng.uniform(-1, 1, 300), rng.uniform(-0.05, 0.05, 300))
    view = mapview.box_view(flat, (-0.2, 0.2, -0.01, 0.01), "zoom")
    full = mapview.full_view(flat)
    shape = (view.x[1] - view.x[0]) / (view.y[1] - view.y[0])
    assert shape == pytest.approx((full.x[1] - full.x[0]) / (full.y[1] - full.y[0]))
    assert full.x[0] <= view.x[0] < view.x[1] <= full.x[1] + 1e-9


def test_a_small_repositorys_real_map_fills_its_frame(tmp_path: Path):
    settings = Settings(home=tmp_path / "home")
    build_index(str(make_sample_repo(tmp_path / "shop")), settings, name="shop")
    projection = get_projection(Index.open("shop", settings))
    x_fill, y_fill = _fill(_draw(projection), projection)
    assert x_fill >= MIN_FILL and y_fill >= MIN_FILL, (x_fill, y_fill)


def _region(number: int, place: str, x: float, y: float, size: int) -> Region:
    return Region(0, number, -1, place, place, ("models", "views"), size, x, y, (x - 0.1, x + 0.1, y - 0.1, y + 0.1))


def test_each_place_is_named_once_and_names_never_overlap():
    rng = np.random.default_rng(2)
    places = ["tests", "tests", "tests", "click", "click", "docs", "examples", "top-level files", "src", "api"]
    regions = tuple(
        _region(i, place, float(rng.uniform(-0.3, 0.3)), float(rng.uniform(-0.3, 0.3)), 100 - i)
        for i, place in enumerate(places)
    )  # crowded: ten places in the middle tenth of the map
    projection = _projection(rng.uniform(-1, 1, 500), rng.uniform(-1, 1, 500), regions)
    view = mapview.full_view(projection)
    fig = _draw(projection, view)
    titles = [note.text.split("<br>")[0] for note in fig.layout.annotations]
    assert titles and not [t for t, n in Counter(titles).items() if n > 1], titles
    assert "<b>tests</b>" in titles and "<b>click</b>" in titles  # the biggest of each name is kept
    boxes = _label_boxes(fig, view)
    assert not [(a, b) for a, b in combinations(boxes, 2) if mapview.overlap(a, b)]


def test_a_few_strays_far_away_do_not_squeeze_the_rest():
    rng = np.random.default_rng(3)
    x, y = rng.uniform(-1, 1, 1000), rng.uniform(-1, 1, 1000)
    x[:5], y[:5] = 0.0, 9.0  # a small clump far above the rest
    view = mapview.full_view(_projection(x, y))
    assert view.y[1] - view.y[0] < 2.5 and view.x[1] - view.x[0] < 2.5  # the bulk fills the frame
