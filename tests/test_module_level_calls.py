"""A call a Python module's statement makes is the module's, not the function's the chunk is named after.

The chunker keeps a settings module's statements around a small function in one chunk named after it
(healthchecks' ``hc/settings.py:280-333`` is ``immutable_file_test``); the answer said "``immutable_file_test``
calls ``envsecret``" and "``envsecret`` is called by ``immutable_file_test``", where ``EMAIL_HOST_PASSWORD =
envsecret(…)`` is a module-level statement (found by the signup helper, stop 48).
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.said.extractive import extractive_answer
from codeqa.chunk import chunk_file
from codeqa.records import Hit, SourceFile

HELPERS = '''import os


def envbool(s: str, default: str) -> bool:
    v = os.getenv(s, default=default)
    if v not in ("", "True", "False"):
        raise ValueError(f"Unexpected value {s}={v}, use 'True' or 'False'")
    return v == "True"


def envsecret(s: str, default: str | None = None) -> str | None:
    """Load a secret from an environment variable or from the filesystem."""
    if path := os.getenv(f"{s}_FILE"):
        with open(path) as f:
            return f.read().strip()
    return os.getenv(s, default)
'''
MIDDLE = """
if v := os.getenv("ALLOWED_HOSTS"):
    ALLOWED_HOSTS = v.split(",")

STATICFILES_FINDERS = (
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
)


def immutable_file_test(path, url):
    return "/static/CACHE/" in url or "/static/fonts/" in url


WHITENOISE_IMMUTABLE_FILE_TEST = immutable_file_test

# SMTP credentials for sending email
EMAIL_USE_VERIFICATION = envbool("EMAIL_USE_VERIFICATION", "True")
EMAIL_MAIL_FROM_TMPL = os.getenv("EMAIL_MAIL_FROM_TMPL", "")
if os.getenv("EMAIL_HOST"):
    EMAIL_HOST = os.getenv("EMAIL_HOST", "")
    EMAIL_HOST_USER = os.getenv("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = envsecret("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = envbool("EMAIL_USE_TLS", "True")
"""
SETTINGS = HELPERS + MIDDLE * 3  # long enough for the chunker to keep the helpers apart from the statements


def test_a_module_statements_call_is_not_said_of_the_function_the_chunk_is_named_after():
    chunks = chunk_file(SourceFile("hc/settings.py", "python", SETTINGS, len(SETTINGS)))
    named = [chunk for chunk in chunks if chunk.symbol == "immutable_file_test" and "envsecret(" in chunk.text]
    assert named, [(c.start_line, c.end_line, c.symbol) for c in chunks]  # the shape the chunker gives such a file
    hits = [Hit(chunk, 1.0 - n / 20, chunk.id) for n, chunk in enumerate([*named, *chunks])]
    hits = list({hit.chunk.id: hit for hit in hits}.values())
    context = AnswerContext.from_chunks(chunks, hits)
    answer = extractive_answer("Where are settings read from environment variables?", hits, context=context)
    assert "`immutable_file_test` calls" not in answer
    assert "called by `immutable_file_test`" not in answer
    assert "calls `envbool`" in answer or "calls `envsecret`" in answer or "called by `settings.py`" in answer, answer
