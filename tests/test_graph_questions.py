"""Graph questions — "who calls X", "what does X call", "where is X defined" — answered from the symbol graph on
real indexes of three languages, in ``ask`` (so in chat and ``codeqa ask``) and in ``codeqa callers/callees``."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from codeqa.answer.explanation.calls.graphqa import GRAPH_LABEL, graph_intent
from codeqa.cli import app
from codeqa.config import Settings
from tests.helpers import ask_named
from tests.web_apps import build_web_home

runner = CliRunner()


@pytest.fixture(scope="module")
def web_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_web_home(tmp_path_factory.mktemp("web"))


@pytest.fixture
def settings(web_home: Path, monkeypatch: pytest.MonkeyPatch) -> Settings:
    monkeypatch.setenv("CODEQA_HOME", str(web_home))
    return Settings(home=web_home)


@pytest.mark.parametrize(
    ("question", "relation", "symbol"),
    [
        ("who calls check_password?", "callers", "check_password?"),  # the "?" may be Ruby's: both are tried
        ("Who calls `SessionStore.login`?", "callers", "SessionStore.login"),
        ("Where is the function load_config used in this repo?", "callers", "load_config"),
        ("callers of Cart#total", "callers", "Cart.total"),
        ("what does createArticle call?", "callees", "createArticle"),
        ("where is find_by_email defined?", "definition", "find_by_email"),
        ("who calls valid_password?", "callers", "valid_password?"),
    ],
)
def test_graph_questions_are_recognised(question: str, relation: str, symbol: str) -> None:
    intent = graph_intent(question)
    assert intent is not None and (intent.relation, intent.symbol) == (relation, symbol)


@pytest.mark.parametrize("question", ["how does login work?", "what does the app use for auth?", "who is the admin"])
def test_other_questions_are_not_graph_questions(question: str) -> None:
    assert graph_intent(question) is None


def graph(settings: Settings, name: str, question: str):
    stream = ask_named(name, question, settings, backend="auto")
    result = stream.result()
    assert result.text.startswith(GRAPH_LABEL) and not result.generated and result.citations_invalid == []
    return result


def test_python_callers_of_a_method_inside_a_class(settings: Settings) -> None:
    result = graph(settings, "flask", "who calls check_password?")
    assert "`check_password` is defined at `app/models/user.py:13-14` (method `User.check_password`)" in result.text
    assert "**Called by** (1, each checked in the code)" in result.text
    assert "- `authenticate` (`app/services/auth_service.py:7-17`) — line 14 calls `check_password`" in result.text
    assert [hit.chunk.path for hit in result.sources] == ["app/models/user.py", "app/services/auth_service.py"]


def test_python_a_name_in_a_string_is_not_a_caller(settings: Settings) -> None:
    result = graph(settings, "flask", "who calls authenticate?")
    assert "`login` (`app/routes/auth.py:9-18`) — line 14 calls `authenticate`" in result.text
    assert "send_password_reset_email" not in result.text.split("**Called by**")[1].split("more chunk")[0]


def test_javascript_callees_with_the_line_of_each_call(settings: Settings) -> None:
    result = graph(settings, "express", "what does createArticle call?")
    assert "**Calls** (2, each checked in the code)" in result.text
    line = "- `validateArticle` (`src/services/articleService.js:1-7`) — calls at line 10: `validateArticle(data);`"
    assert line in result.text
    assert "- `Article.save` (`src/models/article.js:1-14`) — calls at line 12:" in result.text


def test_ruby_callers_of_a_predicate_method(settings: Settings) -> None:
    result = graph(settings, "rails", "who calls valid_password?")
    assert "`valid_password?` is defined at `app/models/user.rb:4-6`" in result.text
    assert "- `LoginService` (`app/services/login_service.rb:1-12`) — line 7 calls `valid_password?`" in result.text


def test_unknown_symbol_in_a_question_falls_back_to_search_with_a_notice(settings: Settings) -> None:
    stream = ask_named("flask", "who calls check_pasword?", settings, backend="none")
    assert stream.notice and "No symbol named 'check_pasword'" in stream.notice
    assert "Close matches:" in stream.notice and "check_password" in stream.notice
    assert stream.result().text.startswith("**Extractive map")


def test_cli_callers_and_callees(settings: Settings) -> None:
    result = runner.invoke(app, ["callers", "flask", "check_password"])
    assert result.exit_code == 0, result.output
    assert "check_password  defined at app/models/user.py:13-14" in result.stdout
    assert "app/services/auth_service.py:7-17  authenticate  line 14: if not user.check_password(password):" in (
        result.stdout
    )
    result = runner.invoke(app, ["callees", "express", "createArticle"])
    assert result.exit_code == 0, result.output
    assert "src/services/articleService.js:1-7  validateArticle  line 10: validateArticle(data);" in result.stdout


def test_cli_unknown_symbol_is_one_line_with_close_matches(settings: Settings) -> None:
    result = runner.invoke(app, ["callers", "flask", "check_pasword"])
    assert result.exit_code == 6 and result.exception is None or isinstance(result.exception, SystemExit)
    assert "No symbol named 'check_pasword'" in result.stderr and "Close matches:" in result.stderr
    assert "Traceback" not in result.output
    missing = runner.invoke(app, ["callees", "nope", "x"])
    assert missing.exit_code != 0 and "No index named 'nope'" in missing.stderr
