"""The map follows an update: unchanged chunks keep their places, new ones are placed among them, removed ones are
gone, and a large change (or many small ones) lays the map out again. Real repositories, index and map files."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from codeqa.config import Settings
from codeqa.explore import get_projection, prepare
from codeqa.explore import projection as module
from codeqa.explore.follow import FOLLOW_LIMIT, follow
from codeqa.explore.layout import place
from codeqa.explore.projection import Projection, projection_path
from codeqa.index import Index
from tests.conftest import git, init_repo, write_files

TOPICS = {
    "billing": "invoice payment refund tax currency ledger",
    "auth": "login password token session user permission",
    "search": "query index rank token score document",
    "mail": "email smtp template recipient bounce queue",
}


def module_text(topic: str, number: int, words: str, version: int = 0) -> str:
    """A module of four functions, each long enough to be a chunk of its own."""
    parts = []
    for f in range(4):
        body = "\n".join(
            f"    {w}_{f}_{i} = compute_{w}({w}_{i}, limit={i + version})" for i, w in enumerate(words.split())
        )
        parts.append(f'def {topic}_step_{number}_{f}(request):\n    """{topic} step {f}: {words}."""\n{body}\n'
                     f"    return {words.split()[0]}_{f}_0\n")  # fmt: skip
    return "\n\n".join(parts)


def tree() -> dict[str, str]:
    return {
        f"{topic}/{topic}_{n}.py": module_text(topic, n, words) for topic, words in TOPICS.items() for n in range(5)
    }


def commit(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", message)


@pytest.fixture
def mapped(tmp_path: Path, settings: Settings) -> tuple[Path, Projection]:
    """A repository of 80 chunks, indexed, with its map laid out."""
    repo = init_repo(tmp_path / "repo", tree())
    index = Index.build(str(repo), settings, name="app")
    prepare(index)
    projection = get_projection(Index.open("app", settings))
    assert projection.method == "graph" and len(projection) == 80, (projection.method, len(projection))
    return repo, projection


def no_layout(*_args, **_kwargs):
    raise AssertionError("the map was laid out again")


def updated_map(settings: Settings) -> Projection:
    updated = Index.open("app", settings).update()
    prepare(updated)
    projection = get_projection(Index.open("app", settings))
    assert projection.ids == tuple(updated.files.table.ids)  # every chunk of the index has a point, in table order
    return projection


def test_an_update_keeps_the_unchanged_chunks_places_and_places_the_new_ones(mapped, settings, monkeypatch) -> None:
    repo, before = mapped
    write_files(repo, {"billing/billing_0.py": module_text("billing", 0, TOPICS["billing"], version=1)})
    commit(repo, "change one file")
    monkeypatch.setattr(module, "layout", no_layout)
    after = updated_map(settings)
    old = {chunk_id: i for i, chunk_id in enumerate(before.ids)}
    kept = [i for i, chunk_id in enumerate(after.ids) if chunk_id in old]
    new = [i for i, chunk_id in enumerate(after.ids) if chunk_id not in old]
    assert len(new) == 4 and len(kept) == 76
    for i in kept:
        j = old[after.ids[i]]
        assert (after.x[i], after.y[i]) == (before.x[j], before.y[j])  # identical, not merely close
        assert (after.subsystems[i], after.areas[i]) == (before.subsystems[j], before.areas[j])
    assert {after.paths[i] for i in new} == {"billing/billing_0.py"}
    assert np.isfinite(after.x[new]).all() and np.isfinite(after.y[new]).all()
    billing = [i for i in kept if after.paths[i].startswith("billing/")]
    centre = np.array([np.median(after.x[billing]), np.median(after.y[billing])])
    others = [i for i in kept if not after.paths[i].startswith("billing/")]
    spots = np.stack([after.x[new], after.y[new]], axis=1)
    assert np.linalg.norm(spots.mean(axis=0) - centre) < np.linalg.norm(
        np.array([np.median(after.x[others]), np.median(after.y[others])]) - centre
    )  # the changed billing code is placed among the billing code
    regions = {(r.level, r.id) for r in after.regions}
    assert all(
        (0, int(s)) in regions and (1, int(a)) in regions for s, a in zip(after.subsystems, after.areas, strict=True)
    )
    assert sum(r.size for r in after.level(0)) == len(after) and after.drift == 8  # 4 added, 4 removed
    assert after.method == "graph" and after.collection == Index.open("app", settings).key


def test_removed_chunks_vanish_from_the_map(mapped, settings, monkeypatch) -> None:
    repo, before = mapped
    (repo / "mail/mail_3.py").unlink()
    commit(repo, "remove a file")
    monkeypatch.setattr(module, "layout", no_layout)
    after = updated_map(settings)
    assert len(after) == 76 and "mail/mail_3.py" not in after.paths
    assert set(after.ids) == {
        chunk_id for chunk_id, path in zip(before.ids, before.paths, strict=True) if path != "mail/mail_3.py"
    }
    where = {chunk_id: i for i, chunk_id in enumerate(before.ids)}
    assert all(after.x[i] == before.x[where[c]] and after.y[i] == before.y[where[c]] for i, c in enumerate(after.ids))
    assert sum(r.size for r in after.level(1)) == 76


def test_a_large_change_lays_the_map_out_again(mapped, settings, monkeypatch) -> None:
    repo, before = mapped
    write_files(
        repo,
        {
            f"search/search_{n}.py": module_text("search", n, "vector shard cluster replica segment merge", version=2)
            for n in range(3)
        },
    )
    commit(repo, "rewrite search")  # 12 of 80 chunks changed: 24 added or removed, past a tenth of the map
    calls = []
    real = module.layout
    monkeypatch.setattr(module, "layout", lambda *a, **k: calls.append(1) or real(*a, **k))
    after = updated_map(settings)
    assert calls == [1] and after.drift == 0 and len(after) == 80
    assert after.method == "graph"


def test_small_changes_add_up_until_the_map_is_laid_out_again(mapped, settings, monkeypatch) -> None:
    repo, _ = mapped
    calls = []
    real = module.layout
    monkeypatch.setattr(module, "layout", lambda *a, **k: calls.append(1) or real(*a, **k))
    drifts = []
    for version in (1, 2, 3):  # 8 points each (4 added, 4 removed): 8, 16, then 24 > 10% of 80 → laid out again
        write_files(repo, {"auth/auth_1.py": module_text("auth", 1, TOPICS["auth"], version=version)})
        commit(repo, f"auth v{version}")
        drifts.append(updated_map(settings).drift)
    assert drifts == [8, 0, 8] and calls == [1]  # 16 > 8: the second update lays out; the third follows again
    assert FOLLOW_LIMIT * 80 == 8


def test_an_update_without_the_map_still_hands_the_last_map_on(mapped, settings, monkeypatch) -> None:
    repo, before = mapped
    write_files(repo, {"auth/auth_2.py": module_text("auth", 2, TOPICS["auth"], version=1)})
    commit(repo, "auth")
    skipped = Index.open("app", settings).update()  # `codeqa update --no-map`: no map for this generation
    assert not projection_path(skipped).exists()
    write_files(repo, {"auth/auth_4.py": module_text("auth", 4, TOPICS["auth"], version=1)})
    commit(repo, "auth again")
    monkeypatch.setattr(module, "layout", no_layout)
    import codeqa.explore.follow as follow_module

    monkeypatch.setattr(follow_module, "FOLLOW_LIMIT", 0.5)
    after = updated_map(settings)
    old = dict(zip(before.ids, zip(before.x, before.y, strict=True), strict=True))
    kept = [i for i, c in enumerate(after.ids) if c in old]
    assert len(kept) == 72 and all((after.x[i], after.y[i]) == old[after.ids[i]] for i in kept)
    assert after.drift == 16


def test_the_app_gets_a_followed_map_at_once_without_computing_one(mapped, settings, monkeypatch) -> None:
    repo, before = mapped
    write_files(repo, {"mail/mail_0.py": module_text("mail", 0, TOPICS["mail"], version=1)})
    commit(repo, "mail")
    updated = Index.open("app", settings).update()  # no prepare: the page asks first
    monkeypatch.setattr(module, "layout", no_layout)
    preview = get_projection(updated, compute=False)
    assert preview.method == "graph" and projection_path(updated).exists()  # final, and cached
    assert len(set(preview.ids) & set(before.ids)) == 76


def test_place_puts_a_point_among_its_nearest_anchors() -> None:
    rng = np.random.default_rng(0)
    centres = np.eye(8, dtype=np.float32)[:2]
    anchors = np.concatenate([c + 0.05 * rng.normal(size=(20, 8)) for c in centres]).astype(np.float32)
    anchors /= np.linalg.norm(anchors, axis=1, keepdims=True)
    coords = np.concatenate([np.full((20, 2), -0.5), np.full((20, 2), 0.5)]).astype(np.float32)
    spot = place(anchors, coords, centres[1:])
    assert np.allclose(spot, [[0.5, 0.5]], atol=0.02)


def test_follow_refuses_a_map_with_nothing_left_in_common(mapped) -> None:
    _, before = mapped
    vectors = np.eye(80, 16, dtype=np.float32)
    assert follow(before, [f"other{i}" for i in range(80)], vectors, ["x.py"] * 80) is None
