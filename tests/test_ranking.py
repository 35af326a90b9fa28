"""The learned file ranking: roles, the file-level search files, candidate features, training and the shipped weights.

End-to-end checks build real indexes of small repositories whose peripheral files (CI workflow, changelog, tool
configuration, docs, an example script) talk about the very concept a question asks for, in the question's words.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from codeqa.cli import app
from codeqa.config import Settings
from codeqa.errors import QueryError
from codeqa.evaluate.train import Query, balanced_weights, cross_validate, fit, gold_rank
from codeqa.index import Index
from codeqa.retrieve.features import FEATURES
from codeqa.retrieve.ranker import Ranker, default_ranker
from codeqa.retrieve.roles import Role, role_of, roles_asked_for
from tests.conftest import init_repo, write_files
from tests.helpers import build_index, retrieve_named

UPLOADER = {
    "uploader/__init__.py": '"""Uploader: send files to the storage service."""\nfrom .client import Client\n',
    "uploader/client.py": '''"""The storage client: opens connections and sends the bytes."""

import socket


class Client:
    def __init__(self, host: str, timeout: float = 10.0):
        self.host = host
        self.timeout = timeout

    def send(self, name: str, data: bytes) -> None:
        with socket.create_connection((self.host, 443), timeout=self.timeout) as conn:
            conn.sendall(name.encode() + b"\\n" + data)
''',
    "uploader/backoff.py": '''"""Resending a file when the storage service does not answer."""

import time

from .client import Client


def send_with_backoff(client: Client, name: str, data: bytes, attempts: int = 5) -> None:
    """Try again after 1, 2, 4, 8 seconds when the connection fails; give up after ``attempts``."""
    delay = 1.0
    for attempt in range(attempts):
        try:
            return client.send(name, data)
        except OSError:
            if attempt == attempts - 1:
                raise
            time.sleep(delay)
            delay *= 2
''',
    "uploader/cli.py": '''"""Command line: upload the files given as arguments."""

import sys

from .backoff import send_with_backoff
from .client import Client


def main() -> None:
    client = Client(sys.argv[1])
    for path in sys.argv[2:]:
        with open(path, "rb") as handle:
            send_with_backoff(client, path, handle.read())
''',
    ".github/workflows/ci.yml": (
        "name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - uses: actions/checkout@v4\n"
        "      - name: retry failed uploads when the storage service does not answer\n"
        "        run: python -m uploader.cli storage.example.com dist/*  # resend uploads, try again on failure\n"
    ),
    "CHANGELOG.md": (
        "# Changelog\n\n## 1.4\n\n- Failed uploads are now retried: when the storage service does not answer,"
        " the uploader tries again with a growing delay.\n- Retry attempts are configurable.\n"
    ),
    "tox.ini": (
        "[tox]\nenvlist = py311\n\n[testenv]\n# retry flaky uploads against the storage service\ncommands = pytest\n"
    ),
    "docs/conf.py": 'project = "uploader"\n# how uploads are retried is described in retries.md\nextensions = []\n',
    "docs/retries.md": "# Retries\n\nWhen an upload fails, the uploader tries again, waiting longer each time.\n",
    "examples/retry_upload.py": (
        '"""Example: upload a file and retry when the storage service does not answer."""\n'
        "from uploader.backoff import send_with_backoff\n"
        "from uploader.client import Client\n\n"
        "send_with_backoff(Client('storage.example.com'), 'a.txt', b'hello')  # retries failed uploads\n"
    ),
}
QUESTIONS = [
    "How are failed uploads retried when the storage service does not answer?",
    "what happens when an upload fails, does it try again?",
    "Uploads are not retried when the connection fails. Steps to reproduce: run the uploader against a storage "
    "service that drops connections; expected: the uploader tries again with a growing delay, actual: it gives up.",
]


@pytest.fixture(scope="module")
def uploader(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    base = tmp_path_factory.mktemp("ranking")
    settings = Settings(home=base / "home")
    build_index(str(init_repo(base / "repo", UPLOADER)), settings, name="uploader")
    return settings


def test_roles_of_paths_and_questions():
    assert role_of("uploader/backoff.py") is Role.SOURCE
    assert role_of(".github/workflows/ci.yml") is Role.CI
    assert role_of("CHANGELOG.md") is Role.CHANGELOG and role_of("docs/changes/1.4.rst") is Role.CHANGELOG
    assert role_of("docs/usage.rst") is Role.DOCS
    assert role_of("tox.ini") is Role.TOOLING and role_of("setup.cfg") is Role.TOOLING
    assert role_of("examples/retry_upload.py") is Role.EXAMPLE and role_of("benchmarks/bench_io.py") is Role.EXAMPLE
    assert role_of("requests/packages/urllib3/util.py") is Role.VENDORED
    assert (
        role_of("locale/de/LC_MESSAGES/django.po") is Role.I18N and role_of("app/migrations/0001.py") is Role.MIGRATION
    )
    assert role_of("public/intl/messages/pt-BR.json") is Role.I18N  # message catalogues named by locale
    assert role_of("web/messages/en_US.yml") is Role.I18N and role_of("src/messages/handler.py") is Role.SOURCE
    assert roles_asked_for("what does the changelog say about retries?") == {Role.CHANGELOG}
    assert Role.CI in roles_asked_for("which CI workflow runs the uploads?")
    assert roles_asked_for("how are failed uploads retried?") == frozenset()


def test_file_search_files_cover_every_file_once(uploader: Settings):
    files = Index.open("uploader", uploader).files
    index = files.files
    assert sorted(index.paths) == sorted(set(files.table.paths))
    assert [index.paths[n] for n in index.row_file] == files.table.paths
    assert np.allclose(np.linalg.norm(index.cards, axis=1), 1.0, atol=1e-3)
    assert np.allclose(np.linalg.norm(index.means, axis=1), 1.0, atol=1e-3)
    scores = index.lexical.scores(["backoff"])
    assert index.paths[int(np.argmax(scores))] == "uploader/backoff.py"


def test_candidate_features_see_names_and_file_mentions(uploader: Settings):
    result = retrieve_named(
        "uploader", "why does send_with_backoff in backoff.py sleep so long?", uploader, k=5, trace=True
    )
    assert result.features is not None and result.features.shape == (len(result.candidates), len(FEATURES))
    row = result.candidates.index("uploader/backoff.py")
    features = dict(zip(FEATURES, result.features[row], strict=True))
    assert features["path_mention"] == 1.0 and features["symbol"] == 1.0
    other = dict(zip(FEATURES, result.features[result.candidates.index("uploader/client.py")], strict=True))
    assert other["path_mention"] == 0.0
    ci = (
        result.candidates.index(".github/workflows/ci.yml") if ".github/workflows/ci.yml" in result.candidates else None
    )
    if ci is not None:
        assert result.features[ci][FEATURES.index("role_ci")] == 1.0


@pytest.mark.parametrize("question", QUESTIONS)
def test_peripheral_files_never_outrank_the_source_that_defines_the_concept(uploader: Settings, question: str):
    ranked = [file.path for file in retrieve_named("uploader", question, uploader, k=5).files]
    assert ranked[0] == "uploader/backoff.py", ranked[:5]
    for peripheral in (".github/workflows/ci.yml", "CHANGELOG.md", "tox.ini", "docs/conf.py", "docs/retries.md"):
        if peripheral in ranked:
            assert ranked.index(peripheral) > ranked.index("uploader/backoff.py"), (peripheral, ranked[:5])


def test_a_question_that_names_a_role_lifts_it(uploader: Settings):
    plain = [f.path for f in retrieve_named("uploader", "failed uploads are retried", uploader, k=5).files]
    question = "what does the changelog say about retried uploads?"
    asked = [f.path for f in retrieve_named("uploader", question, uploader).files]
    assert asked.index("CHANGELOG.md") < plain.index("CHANGELOG.md")


def _queries(rng: np.random.Generator, repo: str, kind: str, n: int, signal: int) -> list[Query]:
    queries = []
    for i in range(n):
        features = rng.normal(size=(8, len(FEATURES))).astype(np.float32)
        features[:, [i for i, name in enumerate(FEATURES) if name.startswith("role_")]] = 0.0  # all source files
        gold = np.zeros(8, dtype=bool)
        gold[i % 8] = True
        features[i % 8, signal] += 6.0  # the gold file stands out on one feature
        queries.append(Query(f"{repo}-{i}", repo, kind, features, gold))
    return queries


def test_training_finds_the_feature_that_separates_gold_and_cross_validation_holds_repos_out():
    rng = np.random.default_rng(0)
    signal = FEATURES.index("bm25_file")
    queries = _queries(rng, "a/x", "history", 30, signal) + _queries(rng, "b/y", "howto", 10, signal)
    theta = fit(queries, l2=0.1)
    assert theta[signal] > 0 and theta[signal] == max(theta)
    assert all(gold_rank(q, theta) == 1 for q in queries[:5])
    weights = balanced_weights(queries)
    assert weights[:30].sum() == pytest.approx(weights[30:].sum())  # each kind counts the same
    ranks = cross_validate(queries, l2=0.1)
    assert set(ranks) == {q.instance_id for q in queries} and sum(r == 1 for r in ranks.values()) > 30


def test_ranker_weights_file_round_trip_and_errors(tmp_path: Path):
    shipped = default_ranker()
    assert set(shipped.weights) <= set(FEATURES) and shipped.provenance
    path = tmp_path / "r.json"
    path.write_text(Ranker({"bm25_file": 1.0}, {"note": "x"}).to_json())
    assert Ranker.from_file(path).weights == {"bm25_file": 1.0}
    path.write_text(json.dumps({"weights": {"no_such_feature": 1.0}}))
    with pytest.raises(QueryError, match="unknown features"):
        Ranker.from_file(path)
    path.write_text("not json")
    with pytest.raises(QueryError, match="Cannot read ranker weights"):
        Ranker.from_file(path)


def test_eval_saves_features_and_cross_validates_by_repository(tmp_path: Path):
    commit = "0" * 40
    trees = tmp_path / "trees"
    write_files(trees / "acme__uploader" / commit, UPLOADER)
    write_files(trees / "acme__copy" / commit, {k.replace("uploader", "copier"): v for k, v in UPLOADER.items()})
    rows = [
        ("u-1", "acme/uploader", "acme__uploader", QUESTIONS[0], ["uploader/backoff.py"]),
        ("u-2", "acme/uploader", "acme__uploader", "where is the storage connection opened?", ["uploader/client.py"]),
        ("c-1", "acme/copy", "acme__copy", QUESTIONS[1], ["copier/backoff.py"]),
        ("c-2", "acme/copy", "acme__copy", "which command line reads the files to send?", ["copier/cli.py"]),
    ]
    dataset = tmp_path / "dev.jsonl"
    lines = [
        {"instance_id": i, "repo": r, "base_commit": commit, "tree": f"{t}/{commit}", "problem_statement": q,
         "gold_files": g}
        for i, r, t, q, g in rows
    ]  # fmt: skip
    dataset.write_text("".join(json.dumps(line) + "\n" for line in lines))
    features, weights = tmp_path / "features", tmp_path / "ranker.json"
    args = ["eval", "--dataset", str(dataset), "--trees", str(trees), "--features", str(features)]
    result = CliRunner().invoke(app, [*args, "--cv-by-repo", "--l2", "1", "--train-out", str(weights)])
    assert result.exit_code == 0, result.output
    assert sorted(p.stem for p in features.glob("*.npz")) == ["c-1", "c-2", "u-1", "u-2"]
    assert "leave-one-repository-out" in result.output and "acme/copy" in result.output
    trained = json.loads(weights.read_text())
    assert trained["provenance"]["repositories"] == ["acme/copy", "acme/uploader"] and trained["weights"]
    rerank, ranks = tmp_path / "rerank.json", tmp_path / "cv.json"
    reused = CliRunner().invoke(
        app, [*args, "--from-features", "--cv-by-repo", "--l2", "1", "--rerank-out", str(rerank), "--json", str(ranks)]
    )
    assert reused.exit_code == 0 and "leave-one-repository-out" in reused.output, reused.output
    assert "second boosted trees" in " ".join(reused.output.split())
    held_out = json.loads(ranks.read_text())["instances"]
    assert sorted(row["instance_id"] for row in held_out) == ["c-1", "c-2", "u-1", "u-2"]
    assert all(row["rank"] is None or row["rank"] >= 1 for row in held_out)
    settings = json.loads(rerank.read_text())["second_stage"]
    assert settings["trees"]["roots"] and settings["trees"]["features"]
    missing = CliRunner().invoke(app, ["eval", "--dataset", str(dataset), "--trees", str(trees), "--cv-by-repo"])
    assert missing.exit_code != 0 and "--features" in missing.output


def test_secondary_roles_rank_after_source_unless_asked_for():
    features = np.zeros((3, len(FEATURES)), dtype=np.float32)
    features[:, FEATURES.index("fused")] = [0.2, 1.0, 0.9]  # the changelog and the docs score best
    features[1, FEATURES.index("role_changelog")] = 1.0
    features[2, FEATURES.index("role_docs")] = 1.0
    scores = Ranker({"fused": 1.0}).score(features)
    assert list(np.argsort(-scores)) == [0, 1, 2]
    features[1, FEATURES.index("role_changelog")] = 0.0  # the question asked for the changelog: its prior is off
    assert int(np.argmax(Ranker({"fused": 1.0}).score(features))) == 1
