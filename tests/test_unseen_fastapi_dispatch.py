"""dispatch (FastAPI + Vue, in no data set), stop 50: once its ``main.py`` was found by the ``add_middleware``
anchor, "How does user authentication flow?" opened on "`main.py` adds `SentryMiddleware`, `MetricsMiddleware` and
`ExceptionMiddleware` to every HTTP request's middleware" (no check of who calls), and "What happens when an API
request fails?" closed on "In short: when a request fails, `_rate_limit_exceeded_handler` … turns exceptions into
responses" — a handler for one exception, ``RateLimitExceeded``, said of every failure."""

from __future__ import annotations

from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk

MAIN = """app = FastAPI(exception_handlers=exception_handlers, openapi_url="")
app.state.limiter = limiter
app.add_exception_handler(RateLimitExceeded, _rate_limit_exceeded_handler)
app.add_middleware(GZipMiddleware, minimum_size=1000)
api.add_middleware(SentryMiddleware)"""


def _said(question: str) -> dict[int, str]:
    fastapi = [c for c in load_all() if c.name == "FastAPI"]
    chunk = Chunk("src/dispatch/main.py", "python", 56, 60, MAIN, "", "module", "config")
    return {m.line: m.phrase for m in matches_in(chunk, fastapi, intents(question))}


def test_a_handler_for_one_exception_names_it_and_middleware_is_no_sign_in_check() -> None:
    errors = _said("What happens when an API request fails?")
    assert errors[58] == "turns `RateLimitExceeded` into a response (`exception_handler`)"
    assert errors[59] == "adds `GZipMiddleware` to every HTTP request's middleware"
    assert 59 not in _said("How does user authentication flow through the system?")


def test_a_handler_for_one_exception_is_not_where_every_failure_goes() -> None:
    from codeqa.answer.explanation.constructs.mechanism import Match
    from codeqa.answer.explanation.said.conclusion import catches_all

    fastapi = next(c for c in load_all() if c.name == "FastAPI")
    handler = next(k for k in fastapi.constructs if "exception_handler" in k.says)
    chunk = Chunk("src/dispatch/main.py", "python", 56, 60, MAIN, "", "module", "config")
    one = Match(handler, chunk, 58, MAIN.split("\n")[2], "turns `RateLimitExceeded` into a response", 1.5)
    every = Match(handler, chunk, 58, "@app.exception_handler(Exception)", "turns `Exception` into a response", 1.5)
    assert not catches_all(one) and catches_all(every)
