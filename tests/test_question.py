"""The question is parsed once (``Question.parse``): what each stage reads about it, and that the answer takes the
parsed question from retrieval."""

from __future__ import annotations

import pytest

from codeqa.errors import QueryError
from codeqa.retrieve.question import Question
from codeqa.retrieve.roles import Role
from codeqa.tokens import code_tokens


def test_a_question_is_read_once_into_what_every_stage_asks_about():
    text = "  Where is `SessionStore` in app/auth/session.py and what do the docs say about login errors?  "
    question = Question.parse(text)
    assert question.text.startswith("Where is") and question.words == 14
    assert question.tokens == tuple(code_tokens(question.text))
    assert "sessionstore" in question.names and "app/auth/session.py" in question.file_names
    assert question.spelled[0] == "SessionStore"
    assert Role.DOCS in question.asks_for and Role.TEST not in question.asks_for
    assert question.intents[:2] == ("errors", "auth")
    assert question.names_code
    assert Role.TEST in question.roles_asked([Role.TEST, Role.SOURCE])
    assert Role.SOURCE not in question.roles_asked([Role.SOURCE])


def test_qualified_names_and_plain_words():
    question = Question.parse("why does Devise::Models::Confirmable send twice when sending mail")
    assert question.qualified == (("Devise", "Models", "Confirmable"),)
    assert "send" in question.plain and "mail" in question.plain and "Devise" not in question.plain  # stemmed
    assert not Question.parse("how do users sign in?").qualified


def test_an_empty_question_is_refused_with_a_hint():
    with pytest.raises(QueryError, match="empty"):
        Question.parse("   ")


def test_retrieval_hands_the_parsed_question_to_the_answer(tmp_path, monkeypatch: pytest.MonkeyPatch):
    from codeqa.answer.explanation.code.keylines import question_terms
    from codeqa.answer.explanation.pool import explain_index
    from codeqa.config import Settings
    from codeqa.index import Index
    from codeqa.retrieve import retrieve
    from tests.conftest import init_repo
    from tests.helpers import build_index

    files = {"app/errors.py": "def handle_error(request, exc):\n    log(exc)\n    return 500\n"}
    settings = Settings(home=tmp_path / "home")
    build_index(str(init_repo(tmp_path / "repo", files)), settings, name="errors")
    index = Index.open("errors", settings)
    text = "What happens when a request fails?"
    found = retrieve(index, text)
    assert isinstance(found.question, Question) and found.question.text == text
    assert found.question.intents == ("errors",)
    original, parsed = Question.parse, []

    def counted(cls: type[Question], question: str) -> Question:
        parsed.append(question)
        return original(question)

    monkeypatch.setattr(Question, "parse", classmethod(counted))
    explanation = explain_index(index, text, text, None, 4)
    assert parsed == [text]  # once, in retrieve(): the answer reads what retrieval parsed
    assert explanation is not None and explanation.intents == ("errors",)
    assert explanation.terms == question_terms(found.question)
