"""`codeqa eval` on a tiny dataset and source trees made by the test."""

from __future__ import annotations

import json
import math
from pathlib import Path

from typer.testing import CliRunner

from codeqa.cli import app
from codeqa.config import get_settings
from codeqa.evaluate import is_test, score
from tests.conftest import write_files
from tests.sample_repo import SAMPLE_FILES

COMMIT = "0123456789abcdef0123456789abcdef01234567"


def make_dataset(tmp_path: Path) -> tuple[Path, Path]:
    trees = tmp_path / "trees"
    write_files(trees / "acme__shop" / COMMIT, SAMPLE_FILES)
    rows = [
        ("shop-1", "Logging in with a wrong password still opens a session", ["shop/auth.py"]),
        ("shop-2", "DEBUG=1 in the environment is ignored when the configuration is read", ["shop/config.py"]),
        ("shop-3", "Orders with many products report the wrong total price", ["shop/models.py"]),
    ]
    dataset = tmp_path / "data.jsonl"
    dataset.write_text(
        "".join(
            json.dumps(
                {"instance_id": i, "repo": "acme/shop", "base_commit": COMMIT, "problem_statement": q, "gold_files": g}
            )
            + "\n"
            for i, q, g in rows
        )
    )
    return dataset, trees


def test_eval_scores_and_writes_ranks(tmp_path: Path):
    dataset, trees = make_dataset(tmp_path)
    out = tmp_path / "out.json"
    result = CliRunner().invoke(app, ["eval", "--dataset", str(dataset), "--trees", str(trees), "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "overall" in result.output and "acme/shop" in result.output
    payload = json.loads(out.read_text())
    assert payload["summary"]["overall"]["n"] == 3
    instances = {item["instance_id"]: item for item in payload["instances"]}
    assert instances["shop-1"]["ranked_files"][0] == "shop/auth.py"
    assert instances["shop-2"]["ranked_files"][0] == "shop/config.py"
    for item in instances.values():
        assert item["ranked_files"] and not any(is_test(path) for path in item["ranked_files"])
        assert item["index_seconds"] >= 0 and item["query_seconds"] > 0
    # one tree serves all three instances: indexed once, then removed
    assert sum(1 for item in instances.values() if item["index_seconds"] > 0) == 1
    assert "No indexes yet" in CliRunner().invoke(app, ["list"]).output


def test_eval_rejects_bad_input(tmp_path: Path):
    dataset, trees = make_dataset(tmp_path)
    missing = CliRunner().invoke(app, ["eval", "--dataset", str(dataset), "--trees", str(tmp_path / "nowhere")])
    assert missing.exit_code != 0 and "source trees are missing" in missing.output
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"instance_id": "x"}\n')
    bad = CliRunner().invoke(app, ["eval", "--dataset", str(broken), "--trees", str(trees)])
    assert bad.exit_code != 0 and "broken.jsonl:1" in bad.output


def test_score_and_test_rule():
    assert score(["a.py", "b.py", "c.py"], ["b.py"], (1, 5)) == {"acc@1": 0.0, "acc@5": 1.0, "mrr@10": 0.5}
    assert is_test("pkg/tests/x.py") and is_test("pkg/test_x.py") and is_test("src/flask/testing.py")
    assert not is_test("pkg/contest.py")


def test_eval_answers_scores_key_facts_citations_and_time(tmp_path: Path):
    from tests.web_apps import FLASK_APP

    trees = tmp_path / "trees"
    write_files(trees / "acme__forum" / COMMIT, FLASK_APP)
    rows = [
        ("forum-1", "How are passwords checked when someone signs in?", ["app/services/auth_service.py"],
         ["check_password_hash(self.password_hash, password)", "user.check_password(password)"]),
        ("forum-2", "How many failed logins lock an account?", ["app/services/auth_service.py"],
         ["MAX_FAILED_LOGINS = 5", "a fact that no answer can show"]),
    ]  # fmt: skip
    dataset = tmp_path / "answers.jsonl"
    dataset.write_text("".join(
        json.dumps({"instance_id": i, "repo": "acme/forum", "base_commit": COMMIT, "problem_statement": q,
                    "gold_files": g, "key_facts": f}) + "\n"
        for i, q, g, f in rows
    ))  # fmt: skip
    out, answers = tmp_path / "out.json", tmp_path / "answers"
    args = ["eval", "--answers", "--dataset", str(dataset), "--trees", str(trees), "--json", str(out)]
    result = CliRunner().invoke(app, [*args, "--answers-dir", str(answers)])
    assert result.exit_code == 0, result.output
    payload = json.loads(out.read_text())
    instances = {item["instance_id"]: item for item in payload["instances"]}
    assert instances["forum-1"]["shown"] == rows[0][3]  # both facts, verbatim in the extractive answer
    assert instances["forum-2"]["shown"] == ["MAX_FAILED_LOGINS = 5"] and instances["forum-2"]["facts"] == 2
    for item in instances.values():
        assert item["citations_valid"] > 0 and item["citations_invalid"] == 0 and item["seconds"] > 0
        assert "app/services/auth_service.py" in item["files"][:5] and item["acc@5"] == 1.0 and not item["generated"]
    overall = payload["summary"]["overall"]
    assert overall["n"] == 2 and "Extractive map" in (answers / "forum-1.md").read_text()
    assert "No indexes yet" in CliRunner().invoke(app, ["list"]).output  # the eval's index is removed afterwards
    no_facts = tmp_path / "no_facts.jsonl"
    no_facts.write_text(dataset.read_text().replace('"key_facts"', '"other"'))
    refused = CliRunner().invoke(app, ["eval", "--answers", "--dataset", str(no_facts), "--trees", str(trees)])
    assert refused.exit_code != 0 and "no key_facts" in refused.output


def test_eval_answers_reports_brief_facts_opening_file_and_length_also_through_ollama(tmp_path: Path, monkeypatch):
    """No model runs here: the extractive run measures the brief an Ollama model would get; with the stand-in that
    speaks Ollama's protocol, ``--backend ollama`` sends that brief and scores the model's (canned) answer."""
    from tests.llm_standins import OllamaStandIn
    from tests.web_apps import FLASK_APP

    trees = tmp_path / "trees"
    write_files(trees / "acme__forum" / COMMIT, FLASK_APP)
    fact = "check_password_hash(self.password_hash, password)"
    row = {"instance_id": "forum-1", "repo": "acme/forum", "base_commit": COMMIT, "gold_files": ["app/models/user.py"],
           "problem_statement": "How are passwords checked when someone signs in?", "key_facts": [fact]}  # fmt: skip
    dataset = tmp_path / "answers.jsonl"
    dataset.write_text(json.dumps(row) + "\n")
    args = ["eval", "--answers", "--dataset", str(dataset), "--trees", str(trees), "--keep", "--reuse"]
    result = CliRunner().invoke(app, [*args, "--json", str(tmp_path / "none.json")])
    assert result.exit_code == 0, result.output
    extractive = json.loads((tmp_path / "none.json").read_text())
    item, overall = extractive["instances"][0], extractive["summary"]["overall"]
    assert {"prompt_pct", "opening_pct", "lines_median", "prompt_tokens_median"} <= set(overall)
    assert item["prompt_shown"] == [fact] and 0 < item["prompt_tokens"] <= 6000  # inside the stated budget
    assert item["lines"] <= 60 and overall["lines_median"] == item["lines"]
    assert item["opening_file"] in ("app/models/user.py", "app/routes/auth.py", "app/services/auth_service.py")
    assert overall["opening_ok"] == int(item["opening_file"] == "app/models/user.py")
    reply = ["Passwords are compared by `User.check_password` [1], which calls ", fact, " (app/models/user.py:13-14)."]
    with OllamaStandIn(reply=reply) as server:
        monkeypatch.setenv("OLLAMA_HOST", server.url)
        get_settings.cache_clear()  # the CLI reads its settings once per process
        result = CliRunner().invoke(app, [*args, "--backend", "ollama", "--json", str(tmp_path / "ollama.json")])
        brief = server.bodies("/api/chat")[-1]["messages"][-1]["content"]
    assert result.exit_code == 0, result.output
    generated = json.loads((tmp_path / "ollama.json").read_text())["instances"][0]
    assert generated["generated"] and generated["backend"] == "ollama" and generated["shown"] == [fact]
    assert generated["prompt_shown"] == [fact] and fact in brief  # the brief that was sent is the one measured
    assert generated["opening_file"] is not None and generated["citations_invalid"] == 0
    from codeqa.evaluate.data import load_dataset
    from codeqa.evaluate.runner import kept_indexes

    other = tmp_path / "other.jsonl"  # a tree with no kept index: None, not an error
    other.write_text(json.dumps({**row, "instance_id": "blog-1", "repo": "acme/blog"}) + "\n")
    kept = list(kept_indexes([*load_dataset(dataset), *load_dataset(other)], get_settings()))
    assert [(instance.instance_id, index is not None) for instance, index in kept] == [
        ("forum-1", True),
        ("blog-1", False),
    ]
    monkeypatch.setattr("codeqa.evaluate.runner.CHUNKER_VERSION", "a newer chunker")  # its chunks would differ
    assert [index for _, index in kept_indexes(load_dataset(dataset), get_settings())] == [None]


def test_chunk_metrics_count_each_gold_file_once_and_key_lines():
    from codeqa.evaluate.metrics import chunk_score, file_ndcg

    gold = ["a.py", "b.py"]
    one_file = [("a.py", 1 + 10 * i, 10 + 10 * i) for i in range(10)]
    spread = [("a.py", 1, 10), ("b.py", 1, 10), *one_file[1:9]]
    concentrated, diverse = chunk_score(one_file, gold, [("b.py", 5)]), chunk_score(spread, gold, [("b.py", 5)])
    assert concentrated["chunk_recall@10"] == 0.5 and diverse["chunk_recall@10"] == 1.0
    assert concentrated["files@10"] == 1.0 and diverse["files@10"] == 2.0
    assert concentrated["chunk_precision@10"] == diverse["chunk_precision@10"] == 1.0
    assert (
        chunk_score([("a.py", 1, 10), ("x.py", 1, 10), ("y.py", 1, 10), ("b.py", 1, 10)], gold)["chunk_precision@10"]
        == 0.5
    )
    assert diverse["chunk_ndcg@10"] == 1.0 and 0.6 < concentrated["chunk_ndcg@10"] < 0.62  # 1 / (1 + 1/log2(3))
    assert concentrated["lines@10"] == 0.0 and diverse["lines@10"] == 1.0
    assert "lines@10" not in chunk_score(one_file, gold)
    assert file_ndcg(["x.py", "a.py"], ["a.py"]) == 1 / math.log2(3)


GO_FILES = {
    "limiter/bucket.go": """package limiter

// Bucket refills tokens at a fixed rate; Allow reports whether a request may pass now.
type Bucket struct {
\ttokens   float64
\tcapacity float64
}

func (b *Bucket) Allow() bool {
\tif b.tokens < 1 {
\t\treturn false
\t}
\tb.tokens--
\treturn true
}
""",
    "limiter/clock.go": """package limiter

import "time"

// Clock tells the current time; tests replace it.
type Clock interface {
\tNow() time.Time
}
""",
}


def test_eval_reports_each_language_with_counts(tmp_path: Path):
    dataset, trees = make_dataset(tmp_path)  # Python, its language left for the index to tell
    write_files(trees / "acme__limiter" / COMMIT, GO_FILES)
    go_rows = [
        ("lim-1", "The token bucket lets a request pass when no tokens are left", ["limiter/bucket.go"], "go"),
        ("lim-2", "Allow should refuse once the bucket capacity is used up", ["limiter/bucket.go"], "go"),
    ]
    with dataset.open("a") as handle:
        for i, q, g, language in go_rows:
            row = {"instance_id": i, "repo": "acme/limiter", "base_commit": COMMIT, "problem_statement": q}
            handle.write(json.dumps({**row, "gold_files": g, "language": language}) + "\n")
    out = tmp_path / "out.json"
    result = CliRunner().invoke(app, ["eval", "--dataset", str(dataset), "--trees", str(trees), "--json", str(out)])
    assert result.exit_code == 0, result.output
    table = result.output[result.output.index("per language") :]
    assert "go" in table and "python" in table and "NDCG@10" in table and "files@10" in table
    languages = json.loads(out.read_text())["languages"]
    assert set(languages) == {"go", "python"}
    assert languages["go"]["n"] == 2 and languages["python"]["n"] == 3
    for row in languages.values():
        assert {"acc@1", "acc@5", "acc@10", "mrr@10", "chunk_ndcg@10", "files@10"} <= set(row)
    assert languages["go"]["acc@1"] == 100.0  # both questions lead to the bucket, not the clock
    lines = table.splitlines()
    at = next(number for number, line in enumerate(lines) if " go " in line)
    go_line, count_line = lines[at], lines[at + 1]
    assert "100.0" in go_line and "2.00" in go_line and "(2)" in go_line + count_line  # Acc@k with its count
