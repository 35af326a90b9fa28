"""bench/mine_history.py on a real git repository: language groups, file and message rules, snapshot distances."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


def load_miner():
    spec = importlib.util.spec_from_file_location("mine_history", BENCH / "mine_history.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


mh = load_miner()


def git(repo: Path, *args: str, date: str = "2021-03-01T12:00:00Z") -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "Dev",
        "GIT_AUTHOR_EMAIL": "dev@example.com",
        "GIT_COMMITTER_NAME": "Dev",
        "GIT_COMMITTER_EMAIL": "dev@example.com",
        "GIT_AUTHOR_DATE": date,
        "GIT_COMMITTER_DATE": date,
    }
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True, env=env).stdout


def commit(repo: Path, files: dict[str, str], message: str, day: int) -> None:
    for rel, text in files.items():
        path = repo / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message, date=f"2021-03-{day:02d}T12:00:00Z")


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("mined") / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    commit(
        root,
        {
            "src/lex.c": "int lex(void) { return 0; }\n",
            "src/parse.c": "int parse(void) { return 1; }\n",
            "tests/test_lex.c": "int main(void) { return 0; }\n",
            "src/UnitTests/LexTests.c": "int t(void) { return 0; }\n",
            "bin/tool": "#!/usr/bin/env bash\necho tool\n",
            "share/notes": "plain data\n",
        },
        "Initial import of the lexer and the parser",
        1,
    )
    commit(
        root,
        {"src/lex.c": "int lex(void) { return 2; }\n", "tests/test_lex.c": "int main(void) { return 1; }\n"},
        "Fix overflow in the lexer when a token is very long",
        2,
    )
    commit(
        root,
        {"src/parse.c": "int parse(void) { return 3; }\n"},
        "Handle empty input in the parser without crashing\n\n* Update src/parse.c\n\nSigned-off-by: Dev <d@e.f>",
        3,
    )
    commit(root, {"src/lex.c": "int lex(void) { return 4; }\n"}, ":memo: Explain how the lexer treats long tokens", 4)
    commit(root, {"src/UnitTests/LexTests.c": "int t(void) { return 5; }\n"}, "Cover the lexer with more unit cases", 5)
    commit(root, {"bin/tool": "#!/usr/bin/env bash\necho tool 2\n"}, "Make the tool print its version when asked", 6)
    commit(root, {"share/notes": "more plain data\n"}, "Describe the data format in the shared notes file", 7)
    return root


def mine(repo: Path, out: Path, *args: str) -> list[dict]:
    cmd = [sys.executable, str(BENCH / "mine_history.py"), str(repo / ".git"), "--repo", "dev/mined", "--out", str(out)]
    subprocess.run([*cmd, "-K", "1", *args], check=True, capture_output=True)
    return [json.loads(line) for line in out.read_text().splitlines()]


def test_c_group_keeps_source_drops_tests_and_housekeeping(repo: Path, tmp_path: Path) -> None:
    rows = mine(repo, tmp_path / "c.jsonl", "--language", "c")
    by_gold = {tuple(r["gold_files"]): r for r in rows}
    # the lexer fix (its test excluded), the parser fix; not the :memo: commit, not the UnitTests/ change
    assert sorted(by_gold) == [("src/lex.c",), ("src/parse.c",)]
    assert all(r["language"] == "c" for r in rows)
    parser = by_gold[("src/parse.c",)]["problem_statement"]
    assert parser == "Handle empty input in the parser without crashing"  # "Update src/parse.c" and trailer gone
    root = git(repo, "rev-list", "--max-parents=0", "HEAD").strip()
    assert {r["base_commit"] for r in rows} == {root}


def test_shell_group_admits_extensionless_scripts_by_shebang(repo: Path, tmp_path: Path) -> None:
    rows = mine(repo, tmp_path / "sh.jsonl", "--language", "shell")
    assert [r["gold_files"] for r in rows] == [["bin/tool"]]  # share/notes has no shebang
    assert rows[0]["language"] == "shell"


def test_output_is_deterministic(repo: Path, tmp_path: Path) -> None:
    first = mine(repo, tmp_path / "a.jsonl", "--language", "c")
    second = mine(repo, tmp_path / "b.jsonl", "--language", "c")
    assert first == second and (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()


@pytest.mark.parametrize(
    ("path", "test_like"),
    [
        ("src/UnitTests/Mapper.cs", True),
        ("core/src/androidTest/java/A.kt", True),
        ("okhttp-testing-support/src/main/kotlin/Rule.kt", True),
        ("src/main/java/org/x/ParserTest.java", True),
        ("Tests/KingfisherTests/A.swift", True),
        ("index.test-d.ts", True),
        ("lib/Latest/feed.rb", False),
        ("Sources/ComposableArchitecture/TestStore.swift", False),
        ("googletest/src/gtest.cc", False),
    ],
)
def test_test_rules(path: str, test_like: bool) -> None:
    assert mh.is_test_like(path) is test_like


@pytest.mark.parametrize(
    ("path", "source"),
    [
        ("Package.swift", False),
        ("Package@swift-5.9.swift", False),
        ("build.zig", False),
        ("Setup.hs", False),
        ("project/Dependencies.scala", False),
        ("deps/zlib/inflate.c", False),
        ("include/spdlog/fmt/bundled/format.h", False),
        ("vitest.config.ts", False),
        ("deno_dist/context.ts", False),
        ("src/parser.zig", True),
        ("core/src/main/scala/Router.scala", True),
    ],
)
def test_build_vendored_and_generated_files_are_not_source(path: str, source: bool) -> None:
    exts = tuple(e for group in mh.LANGUAGES.values() for e in group)
    assert mh.is_source(path, exts, []) is source


def test_message_rules() -> None:
    assert mh.clean_message("Update phpmailer.lang-ja.php\n\nAdd author", ["language/phpmailer.lang-ja.php"]) == (
        "Add author"
    )
    assert mh.trivial_reason(":memo: Fix docs usage with keywords", "x " * 9, 6) == "gitmoji"
    assert mh.trivial_reason("\U0001f4dd Fix docs usage with keywords", "x " * 9, 6) == "gitmoji"
    assert mh.trivial_reason(":bug: Fix a crash in the parser", "x " * 9, 6) is None
    assert mh.trivial_reason("Added some comments to the sinks", "x " * 9, 6) == "subject"
    assert mh.trivial_reason("Additional n-i-t tests (#6384)", "x " * 9, 6) == "subject"
    assert mh.trivial_reason("Migrate all assertions to assertJ (#2261)", "x " * 9, 6) == "subject"
    assert mh.trivial_reason("patch release for recent fixes (#1241)", "x " * 9, 6) == "subject"
    assert mh.trivial_reason("Rewrite the srcset parser according to HTML specs", "x " * 9, 6) is None
    assert mh.BOT_AUTHORS.search("Scala Steward")


def test_legacy_rules_keep_the_first_sets_as_published() -> None:
    message = "Add streaming bodies to the server (#2740)\n\n* Update lib/puma/request.rb"
    assert "request.rb" in mh.clean_message(message, ["lib/puma/request.rb"], legacy=True)
    assert "request.rb" not in mh.clean_message(message, ["lib/puma/request.rb"])
    assert mh.trivial_reason(":memo: Explain the lexer in more words", "x " * 9, 6, legacy=True) is None
    assert mh.trivial_reason("Fix flaky throttle tests", "x " * 9, 6, legacy=True) is None


def test_history_distances_match_git(tmp_path: Path) -> None:
    root = tmp_path / "branchy"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    for day in range(1, 4):
        commit(root, {"a.txt": f"{day}\n"}, f"main {day}", day)
    git(root, "checkout", "-q", "-b", "side", "HEAD~1")
    for day in range(4, 7):
        commit(root, {"b.txt": f"{day}\n"}, f"side {day}", day)
    git(root, "checkout", "-q", "main")
    git(root, "merge", "-q", "--no-ff", "-m", "merge side", "side", date="2021-03-08T12:00:00Z")
    commit(root, {"a.txt": "9\n"}, "after merge", 9)
    history = mh.History(str(root / ".git"))
    shas = git(root, "rev-list", "HEAD").split()
    for a in shas:
        for b in shas:
            ancestor = subprocess.run(["git", "-C", str(root), "merge-base", "--is-ancestor", a, b]).returncode == 0
            assert history.is_ancestor(a, b) is ancestor
            count = int(git(root, "rev-list", "--count", f"{a}..{b}"))
            assert history.distance(a, b, cap=100) == count
            assert history.distance(a, b, cap=1) == min(count, 2)
