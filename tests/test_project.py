"""The 2-D map: PCA and graph layouts of a real index, the on-disk cache keyed by collection, placing questions."""

from __future__ import annotations

import numpy as np
import pytest

from codeqa.config import Settings
from codeqa.embed import get_embedder
from codeqa.explore.find import nearest_chunks, project_query
from codeqa.explore.projection import (
    PROJECTION_VERSION,
    IndexVectors,
    Projection,
    chunks_by_id,
    compute_projection,
    get_projection,
    load_vectors,
    projection_path,
    read_projection,
    save_projection,
)
from codeqa.index import Index
from tests.conftest import git
from tests.indexed_home import build_sample_index


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Settings, object]:
    return build_sample_index(tmp_path_factory.mktemp("project"))


def manifest_of(settings: Settings, name: str = "shop") -> Index:
    return Index.open(name, settings)


def test_small_index_gets_a_cached_pca_map(indexed):
    settings, _ = indexed
    manifest = manifest_of(settings)
    projection = get_projection(manifest)
    assert projection.method == "pca" and len(projection) == manifest.manifest.counts["chunks"]
    assert projection.collection == manifest.key
    path = projection_path(manifest)
    assert path == manifest.folder / "projection.npz" and path.exists()
    assert np.isfinite(projection.x).all() and np.ptp(projection.x) > 0 and np.ptp(projection.y) > 0
    assert "shop/config.py" in projection.paths and "load_config" in projection.symbols
    i = projection.symbols.index("load_config")
    assert projection.location(i) == "shop/config.py:13-18"
    again = get_projection(manifest)
    assert again.ids == projection.ids and np.array_equal(again.x, projection.x)


def test_map_metadata_matches_the_stored_chunks(indexed):
    settings, _ = indexed
    manifest = manifest_of(settings)
    projection = get_projection(manifest)
    chunks = chunks_by_id(manifest, list(projection.ids))
    assert [c.path for c in chunks] == list(projection.paths)
    assert [c.start_line for c in chunks] == projection.start_lines.tolist()
    assert set(projection.field_values("directory")) == {"shop", "web", "tests", "config", "(root)"}
    with pytest.raises(ValueError):
        projection.field_values("colour")


def test_reindex_writes_a_new_map(indexed, tmp_path):
    settings, repo = indexed
    before = manifest_of(settings)
    old = get_projection(before)
    (repo / "shop" / "extra.py").write_text(
        'def discount(total):\n    """Ten percent off."""\n    return total * 0.9\n'
    )
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "extra")
    Index.build(str(repo), settings, name="shop")
    after = manifest_of(settings)
    assert after.manifest.collection != before.manifest.collection
    fresh = get_projection(after)
    assert len(fresh) == len(old) + 1 and "shop/extra.py" in fresh.paths
    assert not projection_path(before).exists() and projection_path(after).exists()


def test_pca_places_a_question_exactly(indexed):
    settings, _ = indexed
    manifest = manifest_of(settings)
    projection = get_projection(manifest)
    data = load_vectors(manifest)
    for row in (0, len(data.ids) - 1):
        x, y = project_query(projection, data.vectors[row])
        j = projection.ids.index(data.ids[row])
        assert (x, y) == pytest.approx((float(projection.x[j]), float(projection.y[j])), abs=1e-4)


def test_graph_layout_placement_follows_the_nearest_chunks(indexed):
    settings, _ = indexed
    manifest = manifest_of(settings)
    pca = get_projection(manifest)
    graph_like = Projection(**{**pca.__dict__, "method": "graph"})
    vector = get_embedder(settings).embed_query("where is the configuration loaded from the environment?")
    neighbours = nearest_chunks(manifest, vector, k=5)
    assert len(neighbours) == 5 and neighbours == sorted(neighbours, key=lambda n: -n[1])
    x, y = project_query(graph_like, vector, neighbours=neighbours)
    positions = graph_like.positions([chunk_id for chunk_id, _ in neighbours])
    xs, ys = zip(*positions.values(), strict=True)
    assert min(xs) <= x <= max(xs) and min(ys) <= y <= max(ys)
    assert project_query(graph_like, vector, neighbours=[(neighbours[0][0], 1.0)]) == pytest.approx(
        positions[neighbours[0][0]]
    )
    assert project_query(graph_like, vector) == pytest.approx((float(np.mean(pca.x)), float(np.mean(pca.y))))


def test_graph_layout_keeps_clusters_apart_and_names_them(indexed, tmp_path):
    """The real layout (no JIT: a second or two) on three well-separated groups of vectors in three folders."""
    settings, _ = indexed
    manifest = manifest_of(settings)
    rng = np.random.default_rng(0)
    centres = rng.normal(size=(3, 16))
    vectors = np.concatenate([c + 0.05 * rng.normal(size=(30, 16)) for c in centres]).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    folders = ("billing", "auth", "search")
    metas = [{"path": f"{folders[i // 30]}/f{i % 3}.py", "symbol": f"{folders[i // 30]}_step{i}"} for i in range(90)]
    data = IndexVectors([f"id{i:03d}" for i in range(90)], vectors, metas)
    projection = compute_projection(data, manifest)
    assert projection.method == "graph" and len(projection) == 90 and np.isfinite(projection.x).all()
    centroid = [
        np.array([projection.x[i * 30 : i * 30 + 30].mean(), projection.y[i * 30 : i * 30 + 30].mean()])
        for i in range(3)
    ]
    spread = max(np.std(projection.x[i * 30 : i * 30 + 30]) for i in range(3))
    assert min(np.linalg.norm(a - b) for a in centroid for b in centroid if a is not b) > 2 * spread
    assert max(np.abs(projection.x).max(), np.abs(projection.y).max()) <= 1.13  # the unit square, outliers squeezed
    subsystems = projection.level(0)
    assert {r.folder for r in subsystems} == set(folders)  # each group is a place named by its folder
    assert all(r.label.startswith(r.folder) for r in subsystems)
    save_projection(projection, tmp_path / "p.npz")
    loaded = read_projection(tmp_path / "p.npz")
    assert loaded is not None and loaded.method == "graph" and np.array_equal(loaded.y, projection.y)
    assert loaded.regions == projection.regions and np.array_equal(loaded.areas, projection.areas)
    assert set(loaded.field_values("region")) == {r.title for r in subsystems}


@pytest.mark.slow
def test_umap_learn_is_the_reference_layout_on_request(indexed, tmp_path):
    """CODEQA_MAP_LAYOUT=umap runs umap-learn itself (its numba compile costs seconds to a minute, once per process)."""
    settings, _ = indexed
    manifest = manifest_of(settings)
    rng = np.random.default_rng(1)
    centres = rng.normal(size=(2, 16))
    vectors = np.concatenate([c + 0.05 * rng.normal(size=(40, 16)) for c in centres]).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    metas = [{"path": f"{('a', 'b')[i // 40]}/f.py", "symbol": f"s{i}"} for i in range(80)]
    projection = compute_projection(
        IndexVectors([f"i{i:02d}" for i in range(80)], vectors, metas), manifest, method="umap"
    )
    assert projection.method == "umap" and len(projection) == 80 and np.isfinite(projection.x).all()
    groups = [np.array([projection.x[i * 40 : i * 40 + 40].mean(), projection.y[i * 40 : i * 40 + 40].mean()])
              for i in range(2)]  # fmt: skip
    assert np.linalg.norm(groups[0] - groups[1]) > 0.5  # two separate places on a map scaled to the unit square
    assert max(np.abs(projection.x).max(), np.abs(projection.y).max()) <= 1.13


def test_concurrent_callers_compute_the_map_once(indexed, monkeypatch):
    import threading

    from codeqa.explore import projection as module

    settings, _ = indexed
    manifest = manifest_of(settings)
    projection_path(manifest).unlink(missing_ok=True)
    calls = []
    real = module.compute_projection
    monkeypatch.setattr(module, "compute_projection", lambda *a, **k: calls.append(1) or real(*a, **k))
    threads = [threading.Thread(target=get_projection, args=(manifest,)) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(calls) == 1 and projection_path(manifest).exists()


def test_unreadable_or_outdated_cache_is_ignored(indexed, tmp_path):
    settings, _ = indexed
    assert read_projection(tmp_path / "missing.npz") is None
    (tmp_path / "garbage.npz").write_bytes(b"not a zip")
    assert read_projection(tmp_path / "garbage.npz") is None
    projection = get_projection(manifest_of(settings))
    save_projection(projection, tmp_path / "old.npz")
    with np.load(tmp_path / "old.npz") as data:
        arrays = {key: data[key] for key in data.files}
    arrays["version"] = np.asarray(PROJECTION_VERSION + 1)
    np.savez(tmp_path / "old.npz", **arrays)
    assert read_projection(tmp_path / "old.npz") is None
    with pytest.raises(ValueError):
        compute_projection(load_vectors(manifest_of(settings)), manifest_of(settings), method="tsne")
