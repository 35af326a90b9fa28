"""NetBox's `CoreMiddleware.__call__` opened "Where would I add logging to track user behavior?", but its snippet
showed the language cookie (the line says "user") and not `request.id = uuid.uuid4()`, the statement the comment above
calls "used for change logging". A statement a comment describes alone ranks by a share of the comment's words.
"""

from __future__ import annotations

from codeqa.answer.explanation.code.described import DESCRIBED_SHARE, comment_words
from codeqa.answer.explanation.code.keylines import question_terms, shown_order

# netbox/netbox/middleware.py (NetBox, shortened)
MIDDLEWARE = """    def __call__(self, request):

        # Assign a random unique ID to the request. This will be used for change logging.
        request.id = uuid.uuid4()

        # Apply all registered request processors
        with apply_request_processors(request):
            response = self.get_response(request)

        if hasattr(request, '_language_cookie'):
            language = request._language_cookie
        elif request.user.is_authenticated and settings.SESSION_SAVE_EVERY_REQUEST:
            language = request.user.config.get('locale.language')
        else:
            language = None
        if language:
            response.set_cookie(
                key=settings.LANGUAGE_COOKIE_NAME,
                value=language,
            )
        response['X-Request-ID'] = request.id
        clear_config()
        return response
"""
QUESTION = "Where would I add logging to track user behavior?"


def _top(text: str, count: int) -> list[str]:
    lines = text.split("\n")
    return [lines[i].strip() for i in shown_order(question_terms(QUESTION), text)[:count]]


def test_the_statement_a_comment_describes_is_shown() -> None:
    assert "request.id = uuid.uuid4()" in _top(MIDDLEWARE, 5)


def test_without_its_comment_the_statement_is_not_shown() -> None:
    comment = "        # Assign a random unique ID to the request. This will be used for change logging.\n"
    bare = MIDDLEWARE.replace(comment, "")
    assert bare != MIDDLEWARE
    assert "request.id = uuid.uuid4()" not in _top(bare, 5)


def test_only_a_statement_a_comment_describes_alone_gets_its_words() -> None:
    lines = [
        "#!/usr/bin/env python  # logging",  # a shebang is no comment
        "start()",
        "# logging of each request",
        "",  # a blank line: the comment describes nothing below it
        "handle()",
        "# logging of each request",
        "# (the second line of the comment)",
        "record(request)",  # the statement the comment describes, alone
        "",
        "# set up logging",  # over a paragraph: which statement it means is not said
        "if not handlers:",
        "    handlers = [default]",
    ]
    described = comment_words(lines, lambda line: 1.0 if "logging" in line else 0.0)
    assert set(described) == {7}
    assert described[7] == DESCRIBED_SHARE
