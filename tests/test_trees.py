"""The second stage's tree ensemble: numpy evaluation equals LightGBM's, and it survives rerank.json."""

from __future__ import annotations

import json
import sys

import lightgbm
import numpy as np
import pytest

from codeqa.errors import QueryError
from codeqa.evaluate.stages import Fitted, StageConfig, later_from, second_names
from codeqa.evaluate.train import fit_blocks
from codeqa.evaluate.tree_fit import fit_trees
from codeqa.retrieve.features import FEATURES
from codeqa.retrieve.ranker import Later, default_later
from codeqa.retrieve.rerank import FIRST, STAGE2_FEATURES, Reranker, reorder_head
from codeqa.retrieve.trees import TreeEnsemble


def _data(seed: int = 0, rows: int = 3000, columns: int = 6) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(rows, columns))
    x[rng.random(x.shape) < 0.1] = np.nan
    x[:, 2] = np.where(rng.random(rows) < 0.3, 0.0, x[:, 2])
    y = (np.nan_to_num(x[:, 0]) + np.nan_to_num(x[:, 1]) * np.nan_to_num(x[:, 3]) > 0.3).astype(int)
    return x, y


@pytest.mark.parametrize("options", [{}, {"zero_as_missing": True}, {"use_missing": False}])
def test_numpy_evaluation_equals_lightgbm_with_missing_values_and_zeros(options):
    x, y = _data()
    model = lightgbm.LGBMRanker(objective="lambdarank", num_leaves=7, n_estimators=40, verbose=-1, **options)
    model.fit(x, y, group=[30] * 100)
    trees = TreeEnsemble.from_lightgbm(model.booster_.dump_model(), [f"f{i}" for i in range(6)])
    unseen, _ = _data(seed=1, rows=500)
    assert np.allclose(trees.predict(unseen), model.predict(unseen), rtol=0, atol=1e-9)
    again = TreeEnsemble.from_dict(json.loads(json.dumps(trees.to_dict())))
    assert np.array_equal(again.predict(unseen), trees.predict(unseen))


def test_malformed_trees_are_refused():
    x, y = _data(rows=600)
    model = lightgbm.LGBMRanker(objective="lambdarank", num_leaves=3, n_estimators=2, verbose=-1)
    model.fit(x, y, group=[30] * 20)
    data = TreeEnsemble.from_lightgbm(model.booster_.dump_model(), [f"f{i}" for i in range(6)]).to_dict()
    with pytest.raises(ValueError, match="does not exist"):
        TreeEnsemble.from_dict({**data, "left": [len(data["feature"]) + 5] * len(data["left"])})
    with pytest.raises(ValueError, match="does not name"):
        TreeEnsemble.from_dict({**data, "features": ["f0"]})
    with pytest.raises(ValueError, match="expected rows of 6"):
        TreeEnsemble.from_dict(data).predict(np.zeros((3, 4)))


def _blocks(config: StageConfig, seed: int, questions: int) -> list[tuple[np.ndarray, np.ndarray, float]]:
    """The gold file is moderately high on two features; two decoys are very high on one and low on the other.

    Whatever the weights, one decoy's weighted sum beats the gold's; a tree can pick the moderate pair.
    """
    names = second_names(config)
    a, b = names.index("defines_named"), names.index(FIRST + "symbol")
    rng = np.random.default_rng(seed)
    blocks = []
    for _ in range(questions):
        matrix = rng.normal(size=(12, len(names))).astype(np.float32)
        gold_row, decoy_a, decoy_b = rng.choice(12, size=3, replace=False)
        for row, (x, y) in ((gold_row, (1.5, 1.5)), (decoy_a, (4.0, -0.5)), (decoy_b, (-0.5, 4.0))):
            matrix[row, a], matrix[row, b] = x + 0.1 * rng.normal(), y + 0.1 * rng.normal()
        gold = np.zeros(12, dtype=bool)
        gold[gold_row] = True
        blocks.append((matrix, gold, 1.0))
    return blocks


def test_trees_learn_what_a_weighted_sum_cannot_and_ship_through_rerank_json(tmp_path):
    config = StageConfig()
    train, held_out = _blocks(config, 0, 400), _blocks(config, 1, 200)
    trees = fit_trees(train, second_names(config))
    linear = fit_blocks(train, 1.0, len(second_names(config)))
    assert sum(bool(gold[int(np.argmax(trees.predict(m)))]) for m, gold, _ in held_out) >= 180
    assert sum(bool(gold[int(np.argmax(m @ linear))]) for m, gold, _ in held_out) < 150

    fitted = Fitted(np.zeros(len(FEATURES)), linear, {"dense": 1.0}, 0.5, 0.5, trees)
    path = tmp_path / "rerank.json"
    path.write_text(later_from(fitted, config, {"questions": 400}).to_json())
    loaded = Later.from_file(path).reranker
    assert loaded.trees is not None and loaded.tree_top == config.tree_top
    assert set(loaded.trees.features) == set(second_names(config))
    matrix, gold, _ = held_out[0]
    first = np.zeros((len(matrix), len(FEATURES)), dtype=np.float32)
    first[:, [FEATURES.index(n) for n in config.first_features]] = matrix[:, len(config.second) :]
    stage2 = np.zeros((len(matrix), len(STAGE2_FEATURES)), dtype=np.float32)
    stage2[:, [STAGE2_FEATURES.index(n) for n in config.second]] = matrix[:, : len(config.second)]
    scores = loaded.score(stage2, first)
    weighted = matrix @ linear
    assert np.allclose(np.sort(scores), np.sort(weighted), atol=1e-3)  # the linear scores, permuted
    head = set(np.argsort(-weighted)[: config.tree_top].tolist())
    assert set(np.argsort(-scores)[: config.tree_top].tolist()) == head


def test_the_trees_reorder_only_the_head_and_keep_its_scores():
    scores = np.asarray([5.0, 4.0, 3.0, 2.0, 1.0, -1000.0])
    trees = np.asarray([0.0, 1.0, 3.0, 2.0, 9.0, 8.0 - 1000.0])
    reordered = reorder_head(scores, trees, 4)
    # the four best by score, in the trees' order; the fifth keeps its place although the trees like it best
    assert list(np.argsort(-reordered, kind="stable")) == [2, 3, 1, 0, 4, 5]
    assert sorted(reordered[:4].tolist()) == [2.0, 3.0, 4.0, 5.0] and reordered[4] == 1.0
    penalized = reorder_head(np.asarray([2.0, 1.0 - 1000.0]), np.asarray([0.0, 5.0 - 1000.0]), 10)
    assert list(np.argsort(-penalized)) == [0, 1]  # a secondary file stays behind whatever the trees say


def test_a_tree_on_an_unknown_feature_is_refused(tmp_path):
    data = json.loads(default_later().to_json())
    tree = {"features": ["no_such_feature"], "roots": [0], "feature": [-1], "threshold": [0.0], "left": [0],
            "right": [0], "default_left": [1], "missing": [0], "value": [0.0], "depth": 0}  # fmt: skip
    data["second_stage"]["trees"] = tree
    path = tmp_path / "rerank.json"
    path.write_text(json.dumps(data))
    with pytest.raises(QueryError, match="no_such_feature"):
        Later.from_file(path)


def test_the_shipped_second_stage_is_trees_over_known_features():
    reranker = default_later().reranker
    assert isinstance(reranker, Reranker) and reranker.trees is not None
    assert len(reranker.trees.roots) >= 50 and reranker.tree_top == 10 and 0 < reranker.tree_weight <= 1
    assert set(reranker.features) <= {*STAGE2_FEATURES, *(FIRST + name for name in FEATURES)}


def test_fitting_without_lightgbm_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "lightgbm", None)  # ``import lightgbm`` now raises ImportError
    config = StageConfig()
    with pytest.raises(QueryError, match=r"pip install 'codeqa\[train\]'"):
        fit_trees(_blocks(config, 0, 5), second_names(config))
