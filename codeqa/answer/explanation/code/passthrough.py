"""Middleware that runs on every request but hands most of them on untouched.

A middleware whose body opens with a test that passes the request straight to the next one
(``if not settings.REMOTE_AUTH_ENABLED: return self.get_response(request)``, ``if (!config.x) return next();``,
``if (! config('x')) { return $next($request); }``, Go's ``if r.URL.Path != "/login" { h.ServeHTTP(w, r); return }``)
does its work only when that test fails. It is still run on every request, so saying so is true; but it is no place
that *sees* every request (a logger put after the test misses the requests it passes on), and its test is said with it.
"""

from __future__ import annotations

import re

from codeqa.answer.explanation.code.condition import CONDITION_CHARS, CONTINUED, IF_HEAD
from codeqa.answer.explanation.code.keylines import COMMENT
from codeqa.answer.rendering.render import code_span
from codeqa.records import Chunk

BODY_HEAD = 4  # the first code lines of the body where such a test stands (a logger or a docstring may come first)
_HAND_ON = (
    r"(?:return\s+)?(?:await\s+)?(?:self\.get_response\(\s*\w+\s*\)|next\(\s*\)|\$next\(\s*\$\w+\s*\)|"
    r"call_next\(\s*\w+\s*\)|@app\.call\(\s*env\s*\)|chain\.doFilter\([^()]*\)|\w+\.ServeHTTP\([^()]*\))"
)
HANDS_ON = re.compile(rf"^\s*{_HAND_ON}\s*;?\s*(?:return\s*;?\s*)?$")
INLINE = re.compile(rf"^\s*if\s*(?P<cond>\(.*\)|[^:{{]*?)\s*\{{?\s*{_HAND_ON}\s*;?\s*(?:return\s*;?\s*)?\}}?\s*$")
DOCSTRING = re.compile(r'^\s*[rbu]?("""|\'\'\')')
OPENS = re.compile(r"(?::|\{|=>\s*\{)\s*(?:#.*|//.*)?$")  # a definition's head that opens its body


def passes_on_when(chunk: Chunk, number: int) -> str | None:
    """The test under which the middleware defined at file line ``number`` of ``chunk`` hands the request on at once
    (its body's first test, when its block does nothing else), or None."""
    if not chunk.start_line <= number <= chunk.end_line:
        return None
    lines = chunk.text.split("\n")[number - chunk.start_line :]
    if not lines or not (OPENS.search(lines[0]) or (len(lines) > 1 and lines[1].strip() == "{")):
        return None  # the line registers the middleware (``app.use(cors())``): no body follows it
    code = _body_head(lines[1:])
    for n, text in enumerate(code):
        inline = INLINE.match(text)
        if inline is not None:
            return _said(inline.group("cond"))
        head = IF_HEAD.match(text)
        if head is None or head.group("word") != "if":
            continue
        block = code[n + 1 : n + 3]
        if not block or not HANDS_ON.match(block[0]):
            return None
        if len(block) > 1 and _indent(block[1]) > _indent(text) and block[1].strip() not in ("}", "return"):
            return None  # the block does more than hand the request on
        return _said(head.group("cond"))
    return None


def _body_head(lines: list[str]) -> list[str]:
    code: list[str] = []
    closing = ""  # the quotes that end the docstring being skipped
    for text in lines:
        if closing:
            closing = "" if closing in text else closing
            continue
        if (opened := DOCSTRING.match(text)) is not None:
            quotes = opened.group(1)
            closing = "" if text.count(quotes) >= 2 else quotes
            continue
        if not text.strip() or text.strip() == "{" or COMMENT.match(text):
            continue
        code.append(text)
        if len(code) > BODY_HEAD + 1:
            break
    return code


def _said(condition: str) -> str | None:
    condition = condition.strip()
    if condition.startswith("(") and condition.endswith(")"):
        condition = condition[1:-1].strip()
    if not condition or len(condition) > CONDITION_CHARS or CONTINUED.search(condition):
        return None
    return condition


# the body of a catch-all placed after the routes: it makes the 404 (`new Error('Not Found')`, `res.status(404)`)
NOT_FOUND = re.compile(r"\b404\b|[\"'`]Not Found|\bNotFound(?:Error|Exception)?\(|\bcreateError\(\s*404")
CATCH_ALL_LINES = 5


def answers_not_found(chunk: Chunk, number: int) -> bool:
    """The middleware written at file line ``number`` answers 404 within its first lines: the catch-all for the
    requests no route before it answered, not a step of every request."""
    if not chunk.start_line <= number <= chunk.end_line:
        return False
    lines = chunk.text.split("\n")[number - chunk.start_line :]
    if not lines or not OPENS.search(lines[0]):
        return False
    return any(NOT_FOUND.search(text) for text in _body_head(lines[1:])[:CATCH_ALL_LINES])


NOT_FOUND_PHRASE = "answers 404 to the requests no route or middleware before it answered (a catch-all)"


def narrowed_phrase(phrase: str, condition: str) -> str:
    """``phrase`` with the test under which the request is handed on untouched."""
    return f"{phrase}, but hands the request straight on when {code_span(condition)}"


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip())
