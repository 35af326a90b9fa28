"""The map's layout and regions as pure functions: structure edges, outlier squeezing, nested named regions."""

from __future__ import annotations

from collections import Counter

import numpy as np

from codeqa.explore.clusters import display_folder, dominant_folder, folder_counts, nested, regions, telling_terms
from codeqa.explore.layout import layout, nearest, normalize, structure_edges


def test_outliers_are_squeezed_so_the_bulk_fills_the_square():
    rng = np.random.default_rng(1)
    coords = np.concatenate([rng.normal(size=(500, 2)), [[80.0, -60.0], [-50.0, 90.0]]])
    out = normalize(coords)
    assert np.abs(out).max() <= 1.12 + 1e-6  # the two strays sit at the edge, not 50x away
    bulk = out[:500]
    assert np.ptp(bulk[:, 0]) > 1.8 and np.ptp(bulk[:, 1]) > 1.5  # the bulk uses the canvas


def test_structure_edges_join_a_files_chunks_and_pair_a_folder():
    paths = ["a/x.py", "a/x.py", "a/y.py", "b/z.py", "b/z.py", "b/w.py"]
    heads, tails, weights = structure_edges(paths, seed=0)
    pairs = set(zip(heads.tolist(), tails.tolist(), strict=True))
    assert (0, 1) in pairs and (3, 4) in pairs  # consecutive chunks of one file
    assert all(paths[h].split("/")[0] == paths[t].split("/")[0] for h, t in pairs)  # never across folders
    assert weights.max() == 1.0 and weights.min() < 1.0


def _separation(coords: np.ndarray, left: np.ndarray) -> float:
    """Distance between the two groups' centres relative to their mean radius."""
    a, b = coords[left], coords[~left]
    radius = np.linalg.norm(a - a.mean(0), axis=1).mean() + np.linalg.norm(b - b.mean(0), axis=1).mean()
    return float(np.linalg.norm(a.mean(0) - b.mean(0)) / radius)


def test_folders_pull_their_chunks_together(monkeypatch):
    """Unrelated code (random vectors) in two folders: the structure edges make each folder more of one place."""
    from codeqa.explore import layout as module

    rng = np.random.default_rng(2)
    vectors = rng.normal(size=(160, 32)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    paths = sorted(f"{'left' if i < 80 else 'right'}/f{i % 8}.py" for i in range(160))
    left = np.asarray([p.startswith("left") for p in paths])
    with_structure = _separation(layout(vectors, paths, seed=0, epochs=150), left)
    monkeypatch.setattr(module, "FOLDER_WEIGHT", 0.0)
    monkeypatch.setattr(module, "FILE_WEIGHT", 0.0)
    without = _separation(layout(vectors, paths, seed=0, epochs=150), left)
    assert with_structure > 2 * without and with_structure > 0.5


def test_nearest_neighbours_are_exact():
    rng = np.random.default_rng(3)
    vectors = rng.normal(size=(300, 8)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    indices, distances = nearest(vectors, 5, block=64)
    brute = np.linalg.norm(vectors[:, None] - vectors[None], axis=-1)
    np.fill_diagonal(brute, np.inf)
    assert np.array_equal(np.sort(indices, axis=1), np.sort(np.argsort(brute, axis=1)[:, :5], axis=1))
    assert np.allclose(distances, np.sort(brute, axis=1)[:, :5], atol=1e-4)


def test_areas_nest_inside_subsystems():
    rng = np.random.default_rng(4)
    coords = np.concatenate([rng.normal(loc=c, scale=0.3, size=(200, 2)) for c in ((0, 0), (5, 5), (0, 6))])
    top, areas = nested(coords, seed=0)
    assert len(set(top.tolist())) == 3  # three islands are three subsystems (not the 5 a count by size would give)
    for area in set(areas.tolist()):
        assert len(set(top[areas == area].tolist())) == 1


def test_a_region_is_named_by_its_most_specific_folder_and_telling_words():
    repository = folder_counts(["shop/forum/a.py"] * 40 + ["shop/auth/b.py"] * 40 + ["shop/c.py"] * 20)
    assert dominant_folder(["shop/forum/a.py"] * 9 + ["shop/c.py"], repository, 100) == "shop/forum"
    assert dominant_folder(["x/a.py", "y/b.py", "z/c.py", "w/d.py"], folder_counts(["x/a.py"]), 1) == ""
    assert display_folder("shop/forum", repository, 100) == "forum"  # the package holding most code is implied
    assert display_folder("app/src/main/java/com/acme/billing", Counter(), 1) == "acme/billing"
    assert display_folder("tests/unit/forum/views", Counter(), 1) == "tests/views"
    from codeqa.explore.clusters import _main_parts

    mixed = ["app/auth/a.py"] * 5 + ["app/user/b.py"] * 4 + ["app/x/c.py", "tests/t.py"]
    assert _main_parts(mixed, "app") == "auth + user"  # a vague folder is named by its main subfolders
    terms = telling_terms([Counter(topic=5, post=4, user=3), Counter(user=6, login=5, password=4)], [set(), set()])
    assert terms[0][:2] == ("topic", "post") and terms[1][:2] == ("login", "password")  # "user" is everywhere


def test_regions_of_a_layout():
    rng = np.random.default_rng(5)
    coords = np.concatenate([rng.normal(loc=c, scale=0.2, size=(100, 2)) for c in ((0, 0), (4, 0))])
    paths = ["app/forum/views.py"] * 100 + ["app/auth/login.py"] * 100
    symbols = [f"TopicView.show_post_{i % 7}" for i in range(100)] + [f"check_password_{i % 5}" for i in range(100)]
    top, areas, found = regions(coords, paths, symbols, seed=0)
    subsystems = [r for r in found if r.level == 0]
    assert {r.folder for r in subsystems} == {"app/forum", "app/auth"}  # no region straddles the two groups
    assert sum(r.size for r in subsystems if r.folder == "app/forum") == 100
    for region in subsystems:
        assert ("topic" if region.folder == "app/forum" else "password") in region.terms
        assert region.label.startswith("forum · " if region.folder == "app/forum" else "auth · ")
        assert region.bounds[0] <= region.x <= region.bounds[1]
    assert {r.parent for r in found if r.level == 1} <= {r.id for r in subsystems}
