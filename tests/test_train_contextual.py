"""The contextual encoder's recipe (#36): which repositories it may learn from, what a mined pair holds, and the
saved folder that the stage loads."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def recipe():
    return _load("train_contextual", ROOT / "scripts" / "train_contextual.py")


def _excluded_repositories() -> set[str]:
    names = set()
    for line in (ROOT / "scripts" / "train_static_embedding_excluded.txt").read_text().splitlines():
        if line.strip() and not line.startswith(("#", "[")):
            names.add(line.split()[0].lower())
    for path in (ROOT / "bench" / "data").glob("*.jsonl"):
        names |= {json.loads(line)["repo"].lower() for line in path.read_text().splitlines() if line.strip()}
    return names


def test_trained_repositories_are_no_evaluation_or_dev_repository(recipe):
    trained = {name.lower() for name in recipe.REPOS if name not in recipe.NOT_TRAINED}
    assert trained, "nothing left to train on"
    assert not trained & _excluded_repositories()
    assert set(recipe.REPOS) >= recipe.NOT_TRAINED


def test_query_keeps_the_subject_and_drops_template_noise(recipe):
    body = (
        "## Summary\n\nclose https://github.com/o/r/issues/1\n\nStreams are now closed when replaced.\n\n"
        "Co-authored-by: A <a@b>"
    )
    query = recipe._query("fix: destroy the old stream (#1913)", body)
    assert query == "fix: destroy the old stream\nStreams are now closed when replaced."


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


def test_a_commit_becomes_a_pair_of_its_message_and_the_changed_chunk_at_the_parent(recipe, tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    _git(repo, "config", "user.email", "t@t")
    _git(repo, "config", "user.name", "t")
    (repo / "shop").mkdir()
    checks = "".join(
        f"    if item.{name} is None:\n        raise ValueError('item without {name}')\n" for name in "abcdef"
    )
    (repo / "shop" / "cart.py").write_text(
        f"def add_item(cart, item):\n{checks}    cart.append(item)\n    return cart\n\n\n"
        f"def total(cart):\n{checks.replace('item', 'cart')}    return sum(i.price for i in cart)\n"
    )
    (repo / "shop" / "users.py").write_text("def login(name, password):\n    return name == password\n")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "first version of the shop")
    (repo / "shop" / "cart.py").write_text(
        (repo / "shop" / "cart.py")
        .read_text()
        .replace("sum(i.price", "round(sum(i.price")
        .replace("cart)\n", "cart), 2)\n")
    )
    _git(repo, "commit", "-qam", "Round the cart total to cents")
    (repo / "shop" / "users.py").write_text("def login(name, pw):\n    return name == pw\n")
    _git(repo, "commit", "-qam", "typo in the login code")  # skipped: a typo commit

    import random

    pairs, head, used = recipe.mine_repo("o/shop", repo / ".git", 10, random.Random(0))
    assert len(pairs) == 1 and len(used) == 1 and head == _git(repo, "rev-parse", "HEAD").strip()
    pair = pairs[0]
    assert pair["query"] == "Round the cart total to cents"
    assert pair["path"] == "shop/cart.py"
    assert pair["chunk"].startswith("shop/cart.py\ntotal\n") and "return sum(i.price" in pair["chunk"]
    assert pair["card"].startswith("shop/cart.py\n") and "add_item" in pair["card"]
    assert pair["negative_chunk"].startswith("shop/users.py\n")


def test_the_saved_folder_holds_every_weight_but_the_word_embeddings_and_loads_back(recipe, tmp_path):
    import numpy as np
    from safetensors.torch import load_file

    work = tmp_path / "work"
    work.mkdir()
    rows = [
        {
            "repo": "o/r",
            "commit": f"c{i}",
            "path": f"pkg/m{i}.py",
            "query": f"handle case number {i} in the parser",
            "chunk": f"pkg/m{i}.py\nparse{i}\ndef parse{i}(x):\n    return x + {i}",
            "card": f"pkg/m{i}.py\nparse{i}\ndef parse{i}(x):",
            "negative_chunk": "pkg/other.py\nhelper\ndef helper():\n    pass",
            "negative_card": "pkg/other.py\nhelper",
        }
        for i in range(4)
    ]
    (work / "pairs.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    out = tmp_path / "model"
    argv = ["train", "--work", str(work), "--out", str(out), "--layers", "1", "--max-tokens", "32", "--batch", "4"]
    sys.argv = ["train_contextual.py", *argv]
    recipe.main()

    meta = json.loads((out / "contextual.json").read_text())
    assert {k: meta[k] for k in ("base", "layers", "max_tokens", "pooling", "normalize")} == {
        "base": "packaged:all-MiniLM-L6-v2",
        "layers": 1,
        "max_tokens": 32,
        "pooling": "mean",
        "normalize": True,
    }
    state = load_file(str(out / "layers.safetensors"))
    assert "embeddings.word_embeddings.weight" not in state
    assert "encoder.layer.0.attention.self.query.weight" in state and "encoder.layer.1.output.dense.weight" not in state
    assert {str(t.dtype) for t in state.values()} == {"torch.float16"}

    bench = _load("contextual_bench", ROOT / "bench" / "contextual_bench.py")
    model = bench._model(128, out)
    assert len(model[0].auto_model.encoder.layer) == 1 and model.max_seq_length == 32
    loaded = model[0].auto_model.state_dict()["encoder.layer.0.output.dense.weight"].numpy()
    np.testing.assert_allclose(loaded, state["encoder.layer.0.output.dense.weight"].float().numpy())
    vectors = model.encode(["parse the input", "pkg/m1.py\nparse1"], normalize_embeddings=True)
    assert vectors.shape == (2, 384) and np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
