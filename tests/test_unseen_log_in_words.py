"""Read on the JHipster sample app (Spring + Angular, dev): asked "After someone signs up, why can't they log in
straight away, and what turns their account on?", the answer's terms held ``log`` (from "log in") and with it the
logging words (``logger``, ``audit``): `LoggingAspect.logAround` (``var log = logger(joinPoint);``) scored as the
best server code for the question. "Log in" is signing in, not the log.
"""

from __future__ import annotations

from codeqa.answer.explanation.code.keylines import question_terms, term_score


def test_log_in_is_signing_in_not_the_log() -> None:
    terms = question_terms(
        "After someone signs up, why can't they log in straight away, and what turns their account on?"
    )
    assert "log" not in terms.words and "login" in terms.words
    assert "logger" not in terms.expanded and "audit" not in terms.expanded
    assert term_score(terms, "var log = logger(joinPoint);") == 0
    assert term_score(terms, "public ResponseEntity<JWTToken> login(LoginVM loginVM) {") >= 1


def test_the_log_itself_keeps_its_words() -> None:
    assert "log" in question_terms("Where would I add logging to track user behavior?").words
    both = question_terms("Where is a failed log in logged?")  # the log of signing in: both
    assert {"log", "login"} <= both.words
